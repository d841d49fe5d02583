// The table's "?": a panel that explains what the player is looking at,
// from the view the server sent (never from the rules worked out here):
// classic — the chosen card's two spaces and whether they are free (C6),
// why a card is dead (C6 step 1), what the jacks do (C6), what the marks on
// the board mean (C8 locked chips, C1 corners); Stacks — what each pile
// takes next (S3), why the chosen card can or cannot go somewhere (S3,
// S5), and the Block window and its countdown (S5b).
import { t, num, language, questionMark } from "../i18n.js";
import { h, cardName, isJack, isOneEyed, stacksCardName } from "../cards.js";
import { layoutGrid, spaceName, spaceLabel } from "../layout.js";
import { placeName } from "../stacks.js";
import { lt, loadLearnText, learnTextReady } from "./text.js";
import { rulesUrl } from "./rules.js";
import { tutorialPanel } from "./tutorial.js";

// the tutorial's hooks into the table page, with the "?" (one import there)
export { guardMove, markStep } from "./tutorial.js";

const OPEN_KEY = "sequence.help_open"; // the panel stays open from table to table
let loading = null;

/** The spaces of card `code` on the view's board (C2 or a random layout). */
function spacesOf(view, code) {
  const grid = layoutGrid(view.layout);
  const out = [];
  for (let r = 0; r < 10; r++) for (let c = 0; c < 10; c++) if (grid[r][c] === code) out.push(spaceName(r, c));
  return out;
}

function chipAt(view, space) {
  const c = space.charCodeAt(0) - 97;
  const r = Number(space.slice(1)) - 1;
  const ch = (view.board && view.board[r] && view.board[r][c]) || ".";
  return ch !== "." && ch !== "*";
}

function classicLines(view, ui, myTurn) {
  const lines = [];
  const hand = view.hand || [];
  const code = ui.selected !== undefined ? hand[ui.selected] : null;
  if (view.seat !== null && view.seat !== undefined && view.status === "playing" && !myTurn) lines.push(lt("help.c.not_your_turn"));
  if (code && isJack(code)) {
    lines.push(lt(isOneEyed(code) ? "help.c.one_eyed" : "help.c.two_eyed", { jack: cardName(code, false) }));
  } else if (code) {
    const [a, b] = spacesOf(view, code);
    if (a && b) {
      lines.push(lt("help.c.card_spaces", { card: cardName(code), a: spaceLabel(a), b: spaceLabel(b) }));
      for (const s of [a, b]) lines.push(lt(chipAt(view, s) ? "help.c.card_taken" : "help.c.card_free", { space: spaceLabel(s) }));
      if ((view.dead || []).includes(code)) lines.push(lt("help.c.card_dead", { card: cardName(code) }));
      else if (chipAt(view, a) && chipAt(view, b)) lines.push(lt("help.c.no_space"));
    }
  } else if (hand.length) lines.push(lt("help.c.choose"));
  for (const d of new Set(view.dead || [])) {
    if (d === code) continue;
    const [a, b] = spacesOf(view, d);
    if (a && b) lines.push(lt("help.c.dead_in_hand", { card: cardName(d), a: spaceLabel(a), b: spaceLabel(b) }));
  }
  return [lines, ["help.c.lit", "help.c.ring", "help.c.corner", "help.c.recent"].map((k) => lt(k))];
}

function stacksLines(view, ui, seatName) {
  const lines = [];
  const me = view.seat;
  const w = view.block_window;
  if (w && view.status === "playing") {
    lines.push(lt("help.s.block_open", { who: seatName(w.completer), colour: t(`colour.${w.colour}`) }));
    if (view.to_act === me) lines.push(lt("help.s.block_mine"));
  }
  const card = ui.sel && ui.sel.card;
  if (card) {
    const name = stacksCardName(card);
    const colour = card[0] === "B" ? "blue" : "red";
    if (card.length === 2 && card[1] === "W") lines.push(lt("help.s.card_wild", { card: name, colour: t(`colour.${colour}`) }));
    else if (card.length === 2 && card[1] === "1") lines.push(lt("help.s.card_one", { card: name, colour: t(`colour.${colour}`) }));
    else if (card.length === 2) lines.push(lt("help.s.card_number", { card: name, colour: t(`colour.${colour}`), n: num(Number(card[1]) - 1) }));
    else if (card === "BLOCK") lines.push(lt("help.s.block_card"));
    else {
      lines.push(lt("help.s.action_turn", { card: name }));
      if (card === "STEAL-CHIP") lines.push(lt("help.s.steal_chip"));
      if (card === "STEAL-CARD") lines.push(lt("help.s.steal_card"));
    }
  }
  for (const p of view.piles || []) {
    const colour = t(`colour.${String(p.place).split("-")[0]}`);
    if (p.top) lines.push(lt("help.s.pile_wants", { place: placeName(p.place), colour, n: num(p.top + 1) }));
    else lines.push(lt("help.s.pile_free", { place: placeName(p.place), colour }));
  }
  return [lines, ["help.s.piles", "help.s.goal", "help.s.discard"].map((k) => lt(k))];
}

/**
 * The "?" of a table page: a button that opens the explanation of what the
 * page shows now, and that explanation (`panel`, null while closed; the
 * choice is remembered). `st` is the table state (view, ui), `seatName(s)`
 * a seat's name, `rerender()` redraws the page (once the words are
 * loaded). Returns { button, panel }, or null before the words are there.
 */
export function tableHelp(st, seatName, rerender) {
  const view = st.view;
  if (!view) return null;
  if (!learnTextReady()) {
    if (!loading) loading = loadLearnText().then(() => { loading = null; rerender(); }, () => { loading = null; });
    return null;
  }
  const isOpen = localStorage.getItem(OPEN_KEY) === "1";
  const myTurn = (view.legal_moves || []).length > 0;
  const [now, always] = view.game === "stacks" ? stacksLines(view, st.ui, seatName) : classicLines(view, st.ui, myTurn);
  const toggle = () => {
    if (isOpen) localStorage.removeItem(OPEN_KEY);
    else localStorage.setItem(OPEN_KEY, "1");
    rerender();
  };
  const button = h("button", {
    type: "button",
    class: "help-toggle",
    id: "help-toggle",
    "data-focus": "help-toggle",
    "aria-expanded": isOpen ? "true" : "false",
    "aria-controls": "table-help",
    title: lt("help.button"),
    onclick: toggle,
  }, h("span", { class: "help-q", "aria-hidden": "true" }, questionMark()), h("span", { class: "help-label" }, lt("help.button")));
  if (!isOpen) return { button, panel: null };
  const panel = h("section", { class: "table-help card-panel", id: "table-help", "aria-labelledby": "table-help-h", "data-learn-lang": language() },
    h("h2", { id: "table-help-h" }, lt("help.title")),
    now.length ? h("ul", { class: "help-now" }, now.map((l) => h("li", {}, l))) : null,
    h("ul", { class: "help-always" }, always.map((l) => h("li", {}, l))),
    h("p", {}, h("a", { href: rulesUrl(view.game), target: "_blank", id: "help-rules" }, lt("help.more"))));
  return { button, panel };
}

/**
 * The learning parts of a table page in one: the "?" button for the
 * heading (`button`), and the panels under it (`panels`: the tutorial's
 * step at a tutorial's table, then the open "?" explanation).
 */
export function learnParts(st, seatName, rerender) {
  const help = tableHelp(st, seatName, rerender);
  return { button: help && help.button, panels: [tutorialPanel(st, rerender, seatName), help && help.panel] };
}
