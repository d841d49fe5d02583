// The learning progress on a profile (`/u/NAME`): for each game, the
// puzzles solved out of those there are and how far the tutorial went,
// from `GET /api/users/NAME/progress` (docs/api.md "Learning progress").
import { t, num, SEP } from "../i18n.js";
import { h } from "../cards.js";
import { request } from "../api.js";
import { lt, loadLearnText } from "./text.js";
import { onProgress } from "./progress.js";

function tutorialText(tp) {
  if (tp.done) return lt("learn.progress.done");
  if (!tp.step) return lt("learn.progress.not_begun");
  return lt("tut.step", { n: num(tp.step), total: num(tp.steps) });
}

/** The profile's section of `name`'s learning (fills itself, again when
 * this browser's progress was merged into the account; empty when the
 * server does not answer). */
export function progressSection(name) {
  const box = h("section", { id: "learn-progress", class: "learn-progress" });
  const fill = () => Promise.all([loadLearnText(), request("GET", `/api/users/${encodeURIComponent(name)}/progress`)]).then(([, p]) => {
    const rows = [];
    for (const game of ["classic", "stacks"]) {
      const pz = p.puzzles && p.puzzles[game];
      if (pz) {
        rows.push(h("li", { "data-puzzles": game },
          h("a", { href: `/?puzzles=${game}` }, lt("puzzle.title", { game: t(`game.${game}`) })), SEP,
          lt("puzzle.progress", { k: num(pz.solved), n: num(pz.total) })));
      }
      const tp = p.tutorials && p.tutorials[game];
      if (tp) {
        rows.push(h("li", { "data-tutorial": game },
          h("a", { href: `/?tutorial=${game}` }, lt("tut.link", { game: t(`game.${game}`) })), SEP, tutorialText(tp)));
      }
    }
    box.replaceChildren(h("h2", {}, lt("learn.progress.title")), h("ul", { class: "learn-progress-list" }, rows));
  }, () => {});
  fill();
  const off = onProgress(() => {
    if (box.isConnected) fill();
    else off();
  });
  return box;
}
