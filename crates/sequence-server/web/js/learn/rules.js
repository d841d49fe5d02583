// The rules help (`/?learn=classic`, `/?learn=stacks`): how to play each
// game, in short sections with pictures drawn by the table's own code
// (pictures.js). Written from the rules reference; each section names
// the rules it explains (C1…C9, S1…S7).
import { t, num, language, SEP, list } from "../i18n.js";
import { h, cardName, stacksCardName } from "../cards.js";
import { api } from "../api.js";
import { spaceName } from "../layout.js";
import { lt, loadLearnText } from "./text.js";
import { boardPicture, handCardPicture, stacksCardPicture, pilePicture } from "./pictures.js";
import { placeName } from "../stacks.js";
import { tutorialLink, TUTORIAL_GAMES } from "./tutorial.js";

/** The URL of the rules page of `game` ("classic" or "stacks"). */
export function rulesUrl(game) {
  return `/?learn=${game === "stacks" ? "stacks" : "classic"}`;
}

/** Every empty space in rows r0…r1 and columns c0…c1 that is no corner
 * and holds none of `chips` — where a two-eyed jack may go (C6) in a
 * picture. */
function emptyIn([r0, r1], [c0, c1], chips) {
  const out = {};
  for (let r = r0; r <= r1; r++) {
    for (let c = c0; c <= c1; c++) {
      const corner = (r === 0 || r === 9) && (c === 0 || c === 9);
      const name = spaceName(r, c);
      if (!corner && !chips[name]) out[name] = "place";
    }
  }
  return out;
}

function row(spaces, ch) {
  return Object.fromEntries(spaces.map((s) => [s, ch]));
}

function figure(picture, caption, extra) {
  return h("figure", { class: "learn-fig" }, h("div", { class: "learn-pic" }, extra || null, picture), h("figcaption", {}, caption));
}

function section(id, rules, title, paragraphs, ...figures) {
  return h("section", { class: "learn-section card-panel", id: `learn-${id}`, "aria-labelledby": `learn-${id}-h` },
    h("h2", { id: `learn-${id}-h`, tabindex: "-1" }, lt(title)),
    paragraphs.map((p) => h("p", {}, lt(p))),
    figures,
    h("p", { class: "learn-rule" }, lt("learn.rule_ref", { ids: list(rules) })));
}

/** The classic sections; `layout` is the official board (C2) as rows. */
function classicSections(layout) {
  const pic = (spec) => boardPicture({ layout, ...spec });
  // C8: a sequence of five, across
  const seq = { ...row(["c5", "d5", "e5", "f5", "g5"], "b"), d4: "G", f6: "G", h4: "G" };
  // C6: the seven of hearts is on d6 and i5
  const place = { e6: "G", f5: "B", h6: "G" };
  // C8: a corner and four chips in its diagonal
  const corner = { ...row(["b2", "c3", "d4", "e5"], "g"), c2: "B", d3: "B" };
  // C6: a two-eyed jack, any empty space
  const wild = { c2: "B", e3: "G", f2: "G", d4: "B" };
  // C6: a one-eyed jack; blue to play
  const remove = { ...row(["b7", "c7", "d7", "e7"], "G"), ...row(["b8", "c8", "d8", "e8", "f8"], "g"), f7: "B", a8: "B" };
  // C8: nine in a row, two sequences sharing one chip
  const nine = row(["a9", "b9", "c9", "d9", "e9", "f9", "g9", "h9", "i9"], "b");
  // C6 step 1: the four of clubs is on c2 and e4, both covered
  const dead = { c2: "G", e4: "B", d3: "G" };
  return [
    section("goal", ["C8", "C9"], "c.goal.title", ["c.goal.p1", "c.goal.p2"],
      figure(pic({ chips: seq, sequences: [["blue", "c5", "g5"]], rows: [3, 5], cols: [1, 8], label: lt("c.goal.fig") }), lt("c.goal.fig"))),
    section("turn", ["C1", "C2", "C6"], "c.turn.title", ["c.turn.p1", "c.turn.p2"],
      figure(pic({ chips: place, targets: { d6: "place", i5: "place" }, rows: [4, 5], cols: [2, 9], label: lt("c.turn.fig") }), lt("c.turn.fig"),
        handCardPicture("7H", cardName("7H")))),
    section("corners", ["C1", "C8"], "c.corners.title", ["c.corners.p1"],
      figure(pic({ chips: corner, sequences: [["green", "a1", "e5"]], rows: [0, 4], cols: [0, 4], label: lt("c.corners.fig") }), lt("c.corners.fig"))),
    section("two-eyed", ["C6"], "c.two_eyed.title", ["c.two_eyed.p1"],
      figure(pic({ chips: wild, targets: emptyIn([0, 3], [0, 6], wild), rows: [0, 3], cols: [0, 6], label: lt("c.two_eyed.fig") }), lt("c.two_eyed.fig"),
        handCardPicture("JD", cardName("JD")))),
    section("one-eyed", ["C6", "C8"], "c.one_eyed.title", ["c.one_eyed.p1", "c.one_eyed.p2"],
      figure(pic({ chips: remove, sequences: [["green", "b8", "f8"]], targets: row(["b7", "c7", "d7", "e7"], "remove"), rows: [6, 7], cols: [0, 6], label: lt("c.one_eyed.fig") }), lt("c.one_eyed.fig"),
        handCardPicture("JS", cardName("JS")))),
    section("sequences", ["C8"], "c.sequences.title", ["c.sequences.p1", "c.sequences.p2"],
      figure(pic({ chips: nine, sequences: [["blue", "a9", "e9"], ["blue", "e9", "i9"]], marked: ["e9"], rows: [8, 8], cols: [0, 9], label: lt("c.sequences.fig") }), lt("c.sequences.fig"))),
    section("dead", ["C6"], "c.dead.title", ["c.dead.p1", "c.dead.p2"],
      figure(pic({ chips: dead, marked: ["c2", "e4"], rows: [1, 3], cols: [1, 5], label: lt("c.dead.fig") }), lt("c.dead.fig"),
        handCardPicture("4C", list([cardName("4C"), t("hand.dead")]), true, t("hand.dead_short")))),
    section("teams", ["C3", "C4", "C5", "C6", "C7"], "c.teams.title", ["c.teams.p1", "c.teams.p3", "c.teams.p2"]),
  ];
}

function actionItem(code, key) {
  return h("li", { class: "learn-action" }, stacksCardPicture(code, stacksCardName(code)), h("span", {}, lt(key)));
}

/** A still picture of the Block prompt (S5b) as the table shows it. */
function blockPicture() {
  return h("div", { class: "block-prompt learn-mock", role: "img", "aria-label": lt("s.block.fig") },
    h("p", { class: "learn-mock-title" }, t("stacks.block_title")),
    h("p", {}, t("stacks.block_text", { who: lt("puzzle.opponent", { n: num(2) }), colour: t("colour.red") })),
    h("p", { class: "hint" }, t("stacks.block_timer"), " ", h("span", { class: "countdown" }, num(7))),
    h("div", { class: "buttons" }, h("span", { class: "learn-button primary" }, t("stacks.block_yes")), h("span", { class: "learn-button" }, t("stacks.block_no"))));
}

function stacksSections() {
  const pile = (place, cards, top, lit) => pilePicture(place.split("-")[0], placeName(place), cards, top, t("stacks.pile_free_short"), lit);
  const piles = h("div", { class: "piles learn-piles" },
    pile("blue-a", ["B1", "B2", "B3"], "3", true), pile("blue-b", [], ""), pile("red-a", ["R1", "RW"], "2"), pile("red-b", [], ""));
  const wild = h("div", { class: "piles learn-piles one" }, pile("red-a", ["R1", "RW"], "2"));
  return [
    section("goal", ["S3", "S7"], "s.goal.title", ["s.goal.p1", "s.goal.p2"]),
    section("turn", ["S4"], "s.turn.title", ["s.turn.p1", "s.turn.p2"]),
    section("piles", ["S3"], "s.piles.title", ["s.piles.p1", "s.piles.p2"],
      figure(piles, lt("s.piles.fig"), h("div", { class: "learn-hand" }, stacksCardPicture("B4", stacksCardName("B4"))))),
    section("wild", ["S3"], "s.wild.title", ["s.wild.p1"],
      figure(wild, lt("s.wild.fig"), h("div", { class: "learn-hand" }, stacksCardPicture("RW", stacksCardName("RW"))))),
    section("actions", ["S5"], "s.actions.title", ["s.actions.p1"],
      h("ul", { class: "learn-actions" },
        actionItem("SKIP", "s.action.skip"), actionItem("REVERSE", "s.action.reverse"),
        actionItem("STEAL-CARD", "s.action.steal_card"), actionItem("STEAL-CHIP", "s.action.steal_chip"),
        actionItem("BLOCK", "s.action.block"))),
    section("block", ["S5"], "s.block.title", ["s.block.p1", "s.block.p2"], figure(blockPicture(), lt("s.block.fig"))),
    section("players", ["S1", "S2", "S6"], "s.players.title", ["s.players.p1"]),
  ];
}

/** Shows the rules page of `game` in `app`; returns the page handle
 * ({ stop, rerender }) main.js keeps. */
export function showRules(app, game) {
  let layout = null;
  let stopped = false;
  async function render() {
    await loadLearnText();
    if (!layout && game === "classic") {
      const cat = await api.games();
      const classic = (cat.games || []).find((g) => g.name === "classic");
      layout = classic && classic.layout;
    }
    if (stopped) return;
    const other = game === "classic" ? "stacks" : "classic";
    const sections = game === "classic" ? classicSections(layout) : stacksSections();
    app.replaceChildren(h("article", { class: `learn-page learn-${game}`, "data-learn-lang": language() },
      h("div", { class: "learn-head" },
        h("h1", {}, lt("learn.title_game", { game: t(`game.${game}`) })),
        h("nav", { class: "learn-nav" },
          h("a", { href: "/", id: "learn-back" }, lt("learn.back")),
          h("a", { href: rulesUrl(other), id: "learn-other" }, lt("learn.other_game", { game: t(`game.${other}`) })),
          TUTORIAL_GAMES.includes(game) ? tutorialLink(game, "learn-tutorial") : null)),
      h("nav", { class: "learn-toc card-panel", "aria-label": lt("learn.contents") },
        h("ul", {}, sections.map((s) => h("li", {}, h("a", {
          href: `#${s.id}`,
          // scroll without a new history entry (the router reads the URL)
          onclick: (e) => {
            e.preventDefault();
            s.scrollIntoView();
            s.querySelector("h2").focus({ preventScroll: true });
          },
        }, s.querySelector("h2").textContent))))),
      sections));
    document.title = `${lt("learn.title_game", { game: t(`game.${game}`) })}${SEP}${t("app.title")}`;
  }
  render().catch((e) => app.replaceChildren(h("p", { class: "hint" }, e.message)));
  return {
    stop() {
      stopped = true;
    },
    rerender: () => render(),
  };
}
