// The ways into the learning pages from the lobby: a line under the
// welcome with a "How to play" link for each game, the tutorials and
// the puzzles
// (filled in once the learning words are loaded).
import { t } from "../i18n.js";
import { h } from "../cards.js";
import { lt, loadLearnText } from "./text.js";
import { rulesUrl } from "./rules.js";
import { tutorialLink, TUTORIAL_GAMES } from "./tutorial.js";
import { puzzlesUrl } from "./puzzles.js";

/** The lobby's "How to play" links (an element that fills itself). */
export function learnLinks() {
  const box = h("p", { class: "learn-links", id: "learn-links" });
  loadLearnText().then(() => {
    box.replaceChildren(
      h("span", { class: "learn-links-title" }, lt("learn.home_title")), " ",
      ...["classic", "stacks"].map((g) => h("a", { href: rulesUrl(g), class: "learn-link", id: `learn-${g}` }, lt("learn.title_game", { game: t(`game.${g}`) }))),
      ...TUTORIAL_GAMES.map((g) => tutorialLink(g, `tutorial-${g}`)),
      ...["classic", "stacks"].map((g) => h("a", { href: puzzlesUrl(g), class: "learn-link", id: `puzzles-${g}` }, lt("puzzle.title", { game: t(`game.${g}`) }))));
  }, () => {});
  return box;
}
