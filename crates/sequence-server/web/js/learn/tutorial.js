// The tutorials (issue 25): a practice table against a bot whose game is
// the same every time (the server deals it from the tutorial's seed and
// seeds its bot), played on the ordinary table page. A script
// (/tutorial/<game>.json, made by the tutorial_script example and played
// against the server in CI) names the learner's move at each move number;
// this module shows that step — what to do, naming the card and the space,
// and why — marks the card to choose, and keeps other moves from being
// sent. The table is kept in this browser (its seat token as every
// table's, its id under `sequence.tutorial.<game>`), so a learner can
// leave and come back to the same point. How far the learner went (the
// furthest step, finished) is kept by progress.js, in the account too.
import { t, language, num, isRtl, isolate } from "../i18n.js";
import { h, cardName, stacksCardName } from "../cards.js";
import { placeName } from "../stacks.js";
import { api, saveSeat, savedName, savedSeat, isStaticBuild } from "../api.js";
import { spaceLabel } from "../layout.js";
import { lt, loadLearnText, learnTextReady } from "./text.js";
import { rulesUrl } from "./rules.js";
import { reachStep } from "./progress.js";

const scripts = new Map(); // game -> script (null while loading)
// the words of each kind of step: what to do, and why (classic: C6, C8;
// Stacks: S3, S4, S5 — each text cites its rule)
const STEP_WORDS = {
  place: ["tut.place.do", "tut.place.why"],
  chip: ["tut.chip.do", "tut.chip.why"],
  two_eyed: ["tut.two_eyed.do", "tut.two_eyed.why"],
  one_eyed: ["tut.one_eyed.do", "tut.one_eyed.why"],
  dead: ["tut.dead.do", "tut.dead.why"],
  sequence: ["tut.sequence.do", "tut.sequence.why"],
};
// Stacks' kinds of step (the tutorial_script example's labels), each key
// written out so the asset tests find it
const STACKS_WORDS = {
  pile: ["tut.s.pile.do", "tut.s.pile.why"],
  wild: ["tut.s.wild.do", "tut.s.wild.why"],
  complete: ["tut.s.complete.do", "tut.s.complete.why"],
  skip: ["tut.s.skip.do", "tut.s.skip.why"],
  steal_chip: ["tut.s.steal_chip.do", "tut.s.steal_chip.why"],
  steal_card: ["tut.s.steal_card.do", "tut.s.steal_card.why"],
  block: ["tut.s.block.do", "tut.s.block.why"],
  pass: ["tut.s.pass.do", "tut.s.pass.why"],
  discard: ["tut.s.discard.do", "tut.s.discard.why"],
  end: ["tut.s.end.do", "tut.s.end.why"],
};
for (const [k, words] of Object.entries(STACKS_WORDS)) STEP_WORDS[`s.${k}`] = words;
const KEY = (game) => `sequence.tutorial.${game}`;

/** The games that have a tutorial. */
export const TUTORIAL_GAMES = ["classic", "stacks"];

/** Opens the tutorial of `game`: the one this browser has going (resumed
 * where it was left), else a new tutorial table. */
export async function openTutorial(game) {
  const id = localStorage.getItem(KEY(game));
  if (id && savedSeat(id)) {
    try {
      const info = await api.table(id);
      if (info.tutorial === game && info.status !== "over") {
        location.assign(`/?table=${encodeURIComponent(id)}`);
        return;
      }
    } catch {
      // gone: start a new one
    }
  }
  await loadLearnText();
  const r = await api.create({ game, players: 2, name: savedName() || lt("tut.learner"), tutorial: game });
  saveSeat(r.table, r.seat, r.token);
  localStorage.setItem(KEY(game), r.table);
  location.assign(`/?table=${encodeURIComponent(r.table)}`);
}

/** The link that opens the tutorial of `game` (`/?tutorial=GAME`); it
 * takes itself away in a static build, which has no server to deal the
 * tutorial's game (docs/deploy.md). */
export function tutorialLink(game, id) {
  const link = h("a", { href: `/?tutorial=${game}`, id, class: "learn-link" }, lt("tut.link", { game: t(`game.${game}`) }));
  isStaticBuild().then((only) => {
    if (only) link.remove();
  });
  return link;
}

function script(game, rerender) {
  if (scripts.has(game)) return scripts.get(game);
  scripts.set(game, null);
  fetch(`/tutorial/${game}.json`, { cache: "no-cache" })
    .then((r) => r.json())
    .then((s) => { scripts.set(game, s); rerender(); }, () => scripts.delete(game));
  return null;
}

/** The move's parts that name it (a placement's declared sequence aside). */
function sameMove(a, b) {
  return ["card", "at", "remove", "dead", "play", "to", "from", "target", "colour", "discard", "pass", "end"]
    .every((k) => (a && a[k]) === (b && b[k]));
}

/** The step of the script at the view's move, if it is the learner's. */
function stepNow(s, view) {
  if (!s || !view || view.seat === null || view.seat === undefined) return null;
  const i = s.steps.findIndex((st) => st.at === view.move_number);
  return i >= 0 ? { i, step: s.steps[i] } : null;
}

/** Wraps `sendMove` of a tutorial table: only the step's move is sent;
 * another says so in the tutorial's panel. */
export function guardMove(st, sendMove, rerender) {
  if (!st.info || !st.info.tutorial) return sendMove;
  return (move, notice) => {
    const now = stepNow(scripts.get(st.info.tutorial), st.view);
    if (now && !sameMove(now.step.move, move)) {
      st.ui.tutorialWrong = true;
      rerender();
      return undefined;
    }
    st.ui.tutorialWrong = false;
    return sendMove(move, notice);
  };
}

/** `key`'s words with `{card}` and `{space}` as marked parts (what the
 * learner is asked to choose), isolated in a right-to-left page. */
function words(key, parts) {
  const out = [];
  const text = lt(key, Object.fromEntries(Object.keys(parts).map((k) => [k, `\u0000${k}\u0000`])));
  for (const [n, piece] of text.split("\u0000").entries()) {
    if (n % 2 === 0) out.push(piece.replace(/[\u2066-\u2069]/g, ""));
    // a jack named by a text that says its kind ({jack}) is the card too
    else out.push(h("strong", { class: `tut-${piece === "jack" ? "card" : piece}` }, isRtl() ? isolate(parts[piece]) : parts[piece]));
  }
  return out;
}

/** The parts a Stacks step names: the card, the pile's place and the
 * button to press (its label as the table shows it). */
function stacksParts(m, seatName) {
  const card = m.play || m.discard ? stacksCardName(m.play || m.discard) : "";
  let button = "";
  if (m.pass) button = t("stacks.block_no");
  else if (m.play === "BLOCK") button = t("stacks.block_yes");
  else if (m.play === "STEAL-CHIP") button = t("stacks.steal_chip_from", { who: seatName(m.target), colour: t(`colour.${m.colour}`) });
  else if (m.discard) button = t("stacks.discard", { card });
  else if (m.end) button = t("stacks.end_turn");
  else if (!m.to) button = t("stacks.play_action", { card });
  return { card, space: m.to ? placeName(m.to) : "", button };
}

function stepView(s, now, wrong, seatName) {
  const { step, i } = now;
  const m = step.move;
  const stacks = s.game === "stacks";
  const parts = stacks ? stacksParts(m, seatName)
    : { card: cardName(m.card || m.dead), jack: cardName(m.card || m.dead, false), space: spaceLabel(m.at || m.remove || "") };
  const [todo, why] = STEP_WORDS[stacks ? `s.${step.kind}` : step.kind] || STEP_WORDS.chip;
  return [
    h("p", { class: "tut-count" }, lt("tut.step", { n: num(i + 1), total: num(s.steps.length) })),
    h("p", { class: "tut-do", id: "tutorial-step" }, words(todo, parts)),
    h("p", { class: "tut-why" }, lt(why)),
    wrong ? h("p", { class: "tut-wrong", role: "alert" }, lt("tut.wrong")) : null,
  ];
}

/**
 * The tutorial's panel of a table page (null at other tables): the step
 * to take now, the bot's turn, or the end. Marks the card to choose in
 * the hand once the page is drawn (see [`markStep`]).
 */
export function tutorialPanel(st, rerender, seatName = (s) => String(s)) {
  const game = st.info && st.info.tutorial;
  if (!game || !st.view) return null;
  if (!learnTextReady()) {
    loadLearnText().then(rerender, () => {});
    return null;
  }
  const s = script(game, rerender);
  if (!s) return null;
  const v = st.view;
  // a lesson that ends before the game (Stacks): over after its last step
  const last = s.steps[s.steps.length - 1];
  const lessonOver = s.ends === "lesson" && last && v.move_number > last.at;
  const over = v.status !== "playing" || lessonOver;
  let body;
  if (over) {
    const won = lessonOver || (v.status === "won" && v.winner === v.team);
    if (won) reachStep(game, s.steps.length, true);
    // a finished lesson is not resumed: its link starts a new tutorial
    if (lessonOver && localStorage.getItem(KEY(game)) === st.info.id) localStorage.removeItem(KEY(game));
    const doneKey = lessonOver ? "tut.s.done" : "tut.done";
    body = [
      h("p", { class: "tut-do", id: "tutorial-done" }, won ? lt(doneKey, { game: t(`game.${game}`) }) : lt("tut.lost")),
      h("p", {}, h("a", { href: "/", id: "tutorial-lobby" }, lt("tut.play_real")), " ",
        h("a", { href: rulesUrl(game) }, lt("help.more"))),
    ];
  } else {
    const now = stepNow(s, v);
    const mine = (v.legal_moves || []).length > 0;
    if (now && mine) {
      reachStep(game, now.i + 1);
      body = stepView(s, now, st.ui.tutorialWrong, seatName);
    }
    else if (!mine) body = [h("p", { class: "tut-wait", id: "tutorial-wait" }, lt("tut.wait"))];
    else body = [h("p", {}, lt("tut.off_script")), h("button", { type: "button", id: "tutorial-again", onclick: () => restart(game) }, lt("tut.again"))];
  }
  return h("section", { class: "tutorial card-panel", id: "tutorial", "aria-labelledby": "tutorial-h", "data-learn-lang": language() },
    h("h2", { id: "tutorial-h" }, lt("tut.title")),
    h("div", { "aria-live": "polite" }, body),
    // the way out of the lesson (the table's "Leave" would give up its
    // seat; this keeps it, to come back to)
    over ? null : h("p", { class: "tut-kept" }, lt("tut.kept"), " ", h("a", { href: "/", id: "tutorial-leave" }, lt("learn.back"))));
}

function restart(game) {
  localStorage.removeItem(KEY(game));
  openTutorial(game).catch(() => {});
}

/** After the page is drawn: marks the hand card the step asks for. */
export function markStep(app, st) {
  const game = st.info && st.info.tutorial;
  const now = game && stepNow(scripts.get(game), st.view);
  if (!now || !(st.view.legal_moves || []).length) return;
  const code = now.step.move.card || now.step.move.dead;
  const code2 = now.step.move.play || now.step.move.discard;
  const el = code ? app.querySelector(`.hand-card[data-card="${code}"]`)
    : code2 && app.querySelector(`.scard:not(.from-discard)[data-card="${code2}"]`);
  if (el) el.classList.add("tut-pick");
}
