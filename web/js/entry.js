// A phone entering a duplicate room (up to 200 players) types its player's name instead of
// choosing from the seats: 200 buttons would be a list nobody finds themself in. The name the
// director typed beforehand is that player's seat, a new name registers a new player while
// the entries are open, and the same phone coming back gets its own seat whatever it types
// (the server decides all of it). Watching stays possible.

import { t } from "./i18n.js";
import { h } from "./ui.js";

const MAX_NAME = 40; // the server's longest name: a name stands in a narrow column

// Does the table's game take its players by name (the seats answer's mode)?
export const byName = (list) => list?.mode === "duplicate";

// The name field and "viewer"; `entry` keeps {name, viewer} over redraws.
export function nameChoices(id, entry) {
  const input = h("input", {
    id: `${id}-name`, name: "name", value: entry.name, maxlength: MAX_NAME, autocomplete: "off",
    autocapitalize: "words", spellcheck: "false", disabled: entry.viewer,
    "aria-describedby": `${id}-name-hint`,
    oninput: (event) => { entry.name = event.target.value; },
  });
  return h("div", { class: "choice room-entry" },
    h("div", { class: "field" },
      h("label", { for: input.id }, t("start.your_name")),
      input,
      h("p", { class: "hint", id: `${id}-name-hint` }, t("start.your_name_hint"))),
    h("label", { class: "option" },
      h("input", {
        type: "checkbox", name: "viewer", id: `${id}-viewer`, checked: entry.viewer,
        onchange: (event) => {
          entry.viewer = event.target.checked;
          input.disabled = entry.viewer;
        },
      }), " ", t("start.viewer")));
}
