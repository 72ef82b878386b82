// The recovery code (issue 25): a room must not end with its director's phone. The director
// (or a co-director) makes a code, shown once in a dialog to print or write down; with the
// join code it lets any other phone take the director's place ("Take over as director" on
// the start screen), and the dead phone is removed from the table. A new code replaces the
// old one, and a code is used up by the take-over: the new director makes a new one.

import { call } from "./api.js";
import { t } from "./i18n.js";
import { connect } from "./live.js";
import { saveSession } from "./session.js";
import { app, changed } from "./state.js";
import { h, say, sayRefusal, stylesheet, uid } from "./ui.js";

// --- the director's side -----------------------------------------------------------------

// The button on the devices card, and a line saying what the code is for.
export function recoveryCode() {
  return h("div", { class: "recovery" },
    h("h3", {}, t("recovery.title")),
    h("p", { class: "hint", id: "recovery-hint" }, t("recovery.hint")),
    h("button", { type: "button", id: "recovery-make", "aria-describedby": "recovery-hint",
      onclick: (event) => make(event.target) }, t("recovery.make")));
}

async function make(button) {
  const session = app.session;
  button.disabled = true;
  try {
    const [answer] = await Promise.all([
      call(`/api/tables/${session.table}/recovery`, { method: "POST", token: session.token }),
      stylesheet("/css/recovery.css")]);
    show(answer.recovery, session.code);
  } catch (error) {
    sayRefusal(error);
  } finally {
    button.disabled = false;
  }
}

// The code, once: outside the sections every update redraws, and gone when closed. Printed,
// the page shows the dialog only (recovery.css).
function show(code, joinCode) {
  const dialog = h("dialog", { class: "recovery-dialog", id: "recovery-dialog",
    "aria-labelledby": "recovery-dialog-title" },
  h("h2", { id: "recovery-dialog-title" }, t("recovery.title")),
  h("p", { class: "recovery-code", id: "recovery-code" }, code),
  joinCode ? h("p", {}, t("start.table_code"), " ",
    h("strong", { class: "code" }, joinCode)) : null,
  h("p", {}, t("recovery.how", { title: t("recovery.take_over_title") })),
  h("p", { class: "hint no-print" }, t("recovery.once")),
  h("div", { class: "actions no-print" },
    h("button", { type: "button", class: "primary", onclick: () => print() }, t("print.print")),
    h("button", { type: "button", id: "recovery-close", onclick: () => dialog.close() },
      t("recovery.close"))));
  dialog.addEventListener("close", () => dialog.remove());
  document.body.append(dialog);
  dialog.showModal();
}

// --- the start screen --------------------------------------------------------------------

// "Take over as director", folded: the join code and the recovery code; this phone becomes
// the director of the table, kept as a phone that made the table is. The fields are made
// when it unfolds, so that the start screen has one "join code" field, the join form's.
export function takeOverForm() {
  const box = h("details", { class: "card take-over", id: "take-over",
    ontoggle: () => { if (box.open && !box.querySelector("form")) box.append(form()); } },
  h("summary", {}, t("recovery.take_over_title")));
  return box;
}

function form() {
  const id = uid("recover");
  const button = h("button", { type: "submit", class: "primary" }, t("recovery.take_over"));
  return h("form", {
    class: "recover",
    onsubmit: async (event) => {
      event.preventDefault();
      const { code, recovery } = event.target.elements;
      button.disabled = true;
      try {
        const joined = await call("/api/recover", { method: "POST", body: {
          code: code.value.trim().toUpperCase(), recovery: recovery.value.trim() } });
        app.session = { table: joined.table, token: joined.token, role: joined.role,
          seat: joined.seat ?? null, device: joined.device ?? null, code: joined.code };
        saveSession(app.session);
        connect();
        say(t("recovery.taken_over"), "info");
        changed();
      } catch (error) {
        sayRefusal(error);
      } finally {
        button.disabled = false;
      }
    },
  },
  h("p", { class: "hint" }, t("recovery.take_over_hint")),
  h("div", { class: "field" },
    h("label", { for: `${id}-code` }, t("start.code")),
    h("input", { id: `${id}-code`, name: "code", required: true, maxlength: 6, minlength: 6,
      autocomplete: "off", autocapitalize: "characters", spellcheck: "false",
      class: "code-input" })),
  h("div", { class: "field" },
    h("label", { for: `${id}-recovery` }, t("recovery.title")),
    // Read off paper: the server ignores case, spaces and dashes.
    h("input", { id: `${id}-recovery`, name: "recovery", required: true, autocomplete: "off",
      autocapitalize: "characters", spellcheck: "false", class: "code-input" })),
  h("div", { class: "actions" }, button));
}
