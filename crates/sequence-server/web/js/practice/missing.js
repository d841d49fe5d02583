// A practice game this browser does not hold: its link opened in another
// browser (or this browser's storage cleared). A practice game lives only
// in the IndexedDB of the browser that started it (practice/store.js), so
// the page says that, in the reader's language, rather than "no such
// table", and offers a new practice game here.
import { t } from "../i18n.js";
import { h } from "../cards.js";

/** The panel that says where the game lives; its button calls
 * `startNew()` (the lobby set for a practice game). */
export function practiceElsewhere(startNew) {
  return h("div", { class: "card-panel", id: "practice-elsewhere" },
    h("h2", {}, t("practice.elsewhere_title")),
    h("p", {}, t("practice.elsewhere")),
    h("button", { type: "button", class: "primary", id: "practice-new", onclick: startNew }, t("practice.new")));
}
