// The print panel (PRT): links to the A4 pages of print.html, each in a new tab so the
// sheet on this page stays where it was.

import { language, onLanguage, t } from "./i18n.js";
import { modeOf, playerCounts, sheet, subscribe } from "./state.js";
import { shownEdition } from "./tiles.js";
import { h, replace } from "./ui.js";

// The view's state, in one place.
const ui = {
  section: null,
  shown: "", // what the links were drawn for
};

export function mount(element) {
  ui.section = element;
  ui.section.setAttribute("aria-labelledby", "print-title");
  subscribe(render);
  onLanguage(render);
  render(); // mounted after the app's first drawing (app.js)
}

function render() {
  const game = sheet();
  const duplicate = game !== null && game.mode === "duplicate";
  const code = shownEdition();
  // Drawn again only when a link changed, not on every change of the sheet.
  const key = JSON.stringify([language, code, game && [game.mode, game.started,
    game.players.length]]);
  if (key === ui.shown) return;
  ui.shown = key;
  replace(ui.section,
    h("h2", { id: "print-title" }, t("print.links_title")),
    h("p", { class: "hint" }, t("print.links_hint")),
    h("ul", { class: "print-links" },
      game ? link({ page: duplicate ? "duplicate-game" : "game" },
        t(duplicate ? "print.link_duplicate_game" : "print.link_game")) : null,
      // A new game keeps the sheet of the one before: the results to publish stay a tap away.
      duplicate && game.started > 1 ? link({ page: "record", game: "previous" },
        t("print.link_previous")) : null,
      playerCounts(modeOf("classic")).map((n) => link({ page: "classic", players: n },
        t("print.link_classic", { n }))),
      link({ page: "tiles", edition: code },
        t("print.link_tiles", { edition: t(`edition.${code}`) })),
      link({ page: "duplicate",
        players: duplicate ? game.players.length : 4 },
        t("print.link_duplicate"))));
}

function link(query, label) {
  return h("li", {}, h("a", {
    href: `/print.html?${new URLSearchParams(query)}`, target: "_blank", rel: "noopener",
  }, label));
}
