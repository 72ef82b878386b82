// A phone names itself for the host's list of devices ("Bas thuis"), so that two phones of one
// seat are told apart; without a name the host sees its model and when it joined. Any phone
// at the table but the host's own names itself, and only itself (the server takes the device
// from its token). The name is kept with the phone's place, to show it in the form again.
// The table bar is drawn anew with every change at the table: what is being typed is kept
// here meanwhile, so that another phone's move never wipes it.

import { t } from "./i18n.js";
import { inFlight, send } from "./live.js";
import { saveSession } from "./session.js";
import { app } from "./state.js";
import { h, say, sayRefusal } from "./ui.js";

const MAX_LABEL = 40; // rules.table.seating.MAX_LABEL: the server refuses a longer one
const draft = { token: null, text: "" }; // the name being typed, for the phone's place

// The form: the name as kept, and a button that sends it.
export function labelForm() {
  const session = app.session;
  if (draft.token !== session.token) Object.assign(draft, { token: session.token,
    text: session.label || "" });
  const save = async (event) => {
    event.preventDefault();
    const label = event.target.label.value.trim();
    try {
      await send({ type: "label_device", label });
      if (app.session !== session) return; // left the table meanwhile
      session.label = label;
      saveSession(session);
      say(label ? t("phone.label_saved", { label }) : t("phone.label_cleared"), "info");
    } catch (error) {
      sayRefusal(error);
    }
  };
  return h("form", { class: "phone-name", onsubmit: save },
    h("div", { class: "field" },
      h("label", { for: "phone-label" }, t("phone.label")),
      h("input", { id: "phone-label", name: "label", value: draft.text, maxlength: MAX_LABEL,
        autocomplete: "off", "aria-describedby": "phone-label-hint",
        oninput: (event) => { draft.text = event.target.value; } })),
    h("p", { class: "hint", id: "phone-label-hint" }, t("phone.label_hint")),
    h("div", { class: "actions" }, h("button", { type: "submit", id: "phone-label-save",
      disabled: inFlight("label_device") }, t("phone.label_save"))));
}
