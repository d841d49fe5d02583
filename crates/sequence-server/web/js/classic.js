// The classic game: status (whose turn and the clock, sequences per team,
// draw pile, the last move), the hand (dead cards marked, with a one-click exchange;
// arrow keys move between its cards), the board with the selected card's
// playable spaces lit (for a one-eyed jack the chips it may remove), the
// last move and completed sequences highlighted, and the C8a choice of
// sequence when a placement could complete several. Teams and the
// sequences needed to win come from the server (table info and view), not
// from the rules.
import { t, tn, num, SEP, list } from "./i18n.js";
import { h, cardName, classicCardFace, isOneEyed, isJack } from "./cards.js";
import { drawBoard } from "./board.js";
import { spaceLabel } from "./layout.js";
import { seatTeam, tableTeams, isPartner, leftSeatStatus } from "./table-state.js";
import { rovingGroup } from "./focus.js";

/** A text description of a classic move for the status line and logs. */
export function describeMove(m, seatName) {
  if (!m) return "";
  const who = seatName(m.seat);
  if (m.at) return t("move.place", { who, card: cardName(m.card), space: spaceLabel(m.at) });
  if (m.remove) return t("move.remove", { who, card: cardName(m.card), space: spaceLabel(m.remove) });
  if (m.dead) return t("move.dead", { who, card: cardName(m.dead) });
  if (m.discard) return t("move.discard", { who, card: cardName(m.discard) });
  if (m.pass) return t("move.pass", { who });
  return "";
}

/** Seat facts for the seats list: cards in hand, top of the discard pile. */
/** A suggested move in words, as advice (table-live.js, games.js). */
export function classicAdvice(m) {
  if (m.at) return t("advice.place", { card: cardName(m.card), space: spaceLabel(m.at) });
  if (m.remove) return t("advice.remove", { card: cardName(m.card), space: spaceLabel(m.remove) });
  if (m.dead) return t("advice.dead", { card: cardName(m.dead) });
  if (m.discard) return t("advice.discard", { card: cardName(m.discard) });
  if (m.penalty) return t("advice.discard", { card: cardName(m.penalty) });
  return t("advice.pass");
}

export const classicStatus = {
  seatExtra(view, s) {
    const pile = view.discard_piles && view.discard_piles[s];
    const top = pile && pile.length ? pile[pile.length - 1] : null;
    const n = (view.hand_sizes && view.hand_sizes[s]) ?? 0;
    return h("span", { class: "sinfo" },
      view.hand_sizes ? tn("table.cards_in_hand", n, { n: num(n) }) : "",
      top ? h("span", { class: "discard-top" }, SEP, t("table.discard_top"), " ",
        h("span", { class: "mini-card", "data-card": top }, classicCardFace(top))) : null);
  },
};

/** The sequences needed to win as the server says (the view's
 * `win_sequences`, else the table's `options.win_sequences`), or null
 * when it does not say. */
function sequencesToWin(v) {
  if (typeof v.win_sequences === "number") return v.win_sequences;
  const o = v.options || (v.table && v.table.options) || {};
  return typeof o.win_sequences === "number" ? o.win_sequences : null;
}

function statusText(v, ctx, myTurn) {
  if (v.status === "won") return t("status.team_won", { team: t(`team.${v.winner}`) });
  if (v.status === "draw") return t("status.draw");
  if (myTurn) return t("status.your_turn");
  const left = leftSeatStatus(ctx.info, v.turn, ctx.seatName(v.turn));
  if (left) return left;
  let who = ctx.seatName(v.turn);
  if (isPartner(ctx.info, v.seat, v.turn)) who += ` (${t("table.partner")})`;
  const team = seatTeam(ctx.info, v.turn);
  return team ? t("status.turn_of", { who, team: t(`team.${team}`) }) : t("status.turn_of_alone", { who });
}

function scores(v, ctx) {
  const need = sequencesToWin(v);
  const count = (team) => (v.sequences || []).filter((s) => s[0] === team).length;
  return h("ul", { class: "scores", "aria-label": t("status.sequences") },
    tableTeams(ctx.info).map((team) => h("li", { class: `score team-${team}` },
      h("span", { class: `chip-icon chip-${team}`, "aria-hidden": "true" }),
      h("span", {}, need === null
        ? tn("status.team_sequences_count", count(team), { team: t(`team.${team}`), n: num(count(team)) })
        : t("status.team_sequences", { team: t(`team.${team}`), n: num(count(team)), of: num(need) })))));
}

function infoPanel(v, ctx, myTurn) {
  const over = v.status === "won" || v.status === "draw";
  const x = ctx.extras || {};
  return h("div", { class: "game-info" },
    h("p", { class: `status-line${myTurn ? " mine" : ""}${over ? " over" : ""}` },
      h("span", { id: "status", role: "status", "aria-live": "polite" }, statusText(v, ctx, myTurn)),
      x.clock ? h("span", { class: "clock-wrap" }, " ", x.clock) : null),
    x.notices,
    scores(v, ctx),
    x.series || null,
    h("p", { class: "counts" },
      h("span", { id: "draw-pile" }, t("status.draw_pile", { n: num(v.draw_pile ?? 0) })),
      v.team ? h("span", {}, SEP, t("status.your_team", { team: t(`team.${v.team}`) })) : null),
    x.last || null);
}

function cardButton(code, i, v, ctx, sel) {
  const ui = ctx.ui;
  const legal = v.legal_moves || [];
  const isDead = (v.dead || []).includes(code);
  const playable = sel.myTurn && legal.some((m) => m.card === code || m.dead === code || m.discard === code);
  const label = [cardName(code)];
  if (isDead) label.push(t("hand.dead"));
  if (isJack(code)) label.push(t(isOneEyed(code) ? "hand.one_eyed_hint" : "hand.two_eyed_hint"));
  return h("button", {
    type: "button",
    class: `hand-card${i === ui.selected ? " selected" : ""}${isDead ? " dead" : ""}${playable ? "" : " idle"}${sel.hintAt === i ? " hinted" : ""}`,
    "data-card": code,
    "data-focus": `hand-${i}`,
    "data-member": "",
    "aria-pressed": i === ui.selected ? "true" : "false",
    "aria-label": list(label),
    onclick: () => {
      if (!sel.myTurn) ctx.offTurn();
      if (ui.selected === i) {
        ui.selected = undefined;
      } else {
        ui.selected = i;
        ui.selectedCard = code;
      }
      ui.choices = null;
      ctx.rerender();
    },
  }, classicCardFace(code), isDead ? h("span", { class: "dead-badge", "aria-hidden": "true" }, t("hand.dead_short")) : null);
}

/** Hints and buttons under the hand for the selected card. */
function handTools(v, ctx, sel) {
  const legal = v.legal_moves || [];
  const { selCard, myTurn, targets } = sel;
  const tools = [];
  if (selCard && myTurn) {
    const deadMove = legal.find((m) => m.dead === selCard);
    const discardMove = legal.find((m) => m.discard === selCard);
    if (targets.size) tools.push(h("p", { class: "hint" }, isOneEyed(selCard) ? tn("hand.pick_chip", targets.size, { n: num(targets.size) }) : tn("hand.pick_space", targets.size, { n: num(targets.size) })));
    else if (!deadMove && !discardMove) tools.push(h("p", { class: "hint" }, t("hand.no_space")));
    if (deadMove) tools.push(h("button", { type: "button", class: "primary", id: "exchange", "data-focus": "exchange", onclick: () => ctx.sendMove(deadMove) }, t("hand.exchange", { card: cardName(selCard) })));
    if (discardMove) tools.push(h("button", { type: "button", id: "discard", "data-focus": "discard", onclick: () => ctx.sendMove(discardMove) }, t("hand.discard", { card: cardName(selCard) })));
  } else if (!myTurn && ctx.offTurnNote) {
    tools.push(ctx.offTurnNote);
  } else if (myTurn) {
    tools.push(h("p", { class: "hint" }, t("hand.pick_card")));
    // A dead card can be exchanged in one click without selecting it first.
    for (const code of new Set(v.dead || [])) {
      const m = legal.find((x) => x.dead === code);
      if (m) tools.push(h("button", { type: "button", class: "exchange-quick", "data-focus": `exchange-${code}`, onclick: () => ctx.sendMove(m) }, t("hand.exchange", { card: cardName(code) })));
    }
  }
  const penalty = legal.filter((m) => m.penalty);
  if (penalty.length) {
    tools.length = 0;
    tools.push(h("div", { class: "penalty-prompt", id: "penalty-prompt", role: "alert" },
      h("p", {}, t("penalty.choose")),
      h("div", { class: "buttons" }, penalty.map((m) => h("button", { type: "button", "data-focus": `penalty-${m.penalty}`, "data-penalty": m.penalty, onclick: () => ctx.sendMove(m) },
        t("penalty.discard", { card: cardName(m.penalty) }))))));
    return tools;
  }
  if (ctx.extras && ctx.extras.hint) tools.push(ctx.extras.hint);
  const pass = myTurn && legal.find((m) => m.pass);
  if (pass) tools.push(h("button", { type: "button", id: "pass", "data-focus": "pass", onclick: () => ctx.sendMove(pass) }, t("hand.pass")));
  if (ctx.ui.choices) {
    tools.push(h("div", { class: "choice", role: "group", "aria-label": t("hand.choose_sequence") },
      h("p", {}, t("hand.choose_sequence")),
      ctx.ui.choices.map((m, k) => h("button", { type: "button", "data-focus": `choice-${k}`, onclick: () => ctx.sendMove(m) },
        list((m.declare || []).map((w) => `${spaceLabel(w[0])}–${spaceLabel(w[1])}`)) || t("hand.default_sequence")))));
  }
  return tools;
}

function handPanel(v, ctx, sel) {
  const hand = v.hand || [];
  const cards = hand.map((code, i) => cardButton(code, i, v, ctx, sel));
  const group = h("div", { class: "hand", role: "group", "aria-label": t("hand.title") }, cards);
  rovingGroup(group, "hand", cards[ctx.ui.selected ?? -1]);
  return h("section", { class: "hand-panel", "aria-labelledby": "hand-h" },
    h("h2", { id: "hand-h" }, t("hand.title")),
    group,
    h("div", { class: "hand-tools" }, handTools(v, ctx, sel)));
}

/** Renders the classic view `v` (docs/api.md "Classic view"). `ctx`:
 * { ui (selection kept across renders), info (table info), seatName(seat),
 * sendMove(move), rerender(), extras (table-live.js: clock, notices, the
 * last move, the moves since our last turn for the board, the hint) }. */
export function renderClassic(v, ctx) {
  const ui = ctx.ui;
  const hand = v.hand || [];
  const legal = v.legal_moves || [];
  const myTurn = v.seat !== null && v.seat !== undefined && legal.length > 0;
  if (ui.selected !== undefined && (ui.selected >= hand.length || hand[ui.selected] !== ui.selectedCard)) {
    ui.selected = undefined;
    ui.choices = null;
  }
  const selCard = ui.selected !== undefined ? hand[ui.selected] : null;
  const targets = new Map();
  if (selCard && myTurn) {
    for (const m of legal) {
      if (m.card !== selCard) continue;
      if (m.at) targets.set(m.at, "place");
      if (m.remove) targets.set(m.remove, "remove");
    }
  }
  const hintCard = ctx.extras && ctx.extras.hintCard;
  const sel = { selCard, myTurn, targets, hintAt: hintCard ? hand.indexOf(hintCard) : -1 };

  const lastAt = v.last_move ? v.last_move.at || v.last_move.remove || null : null;
  const boardHost = h("div", { class: "board-wrap" });
  const onSpace = (space) => {
    const ms = legal.filter((m) => m.card === selCard && (m.at === space || m.remove === space));
    if (ms.length === 1) ctx.sendMove(ms[0]);
    else if (ms.length > 1) {
      ui.choices = ms;
      ctx.rerender();
    }
  };
  const hinted = ctx.extras && ctx.extras.hintSpace;
  const anim = ctx.extras && ctx.extras.anim;
  drawBoard(boardHost, { layout: v.layout, options: v.options, board: v.board, sequences: v.sequences, lastAt, targets, recent: ctx.extras ? ctx.extras.board : null, hinted, anim }, onSpace);
  // a click on the board when it is not our turn says so
  if (!myTurn && v.seat !== null && v.seat !== undefined && v.status === "playing") boardHost.addEventListener("click", ctx.offTurn);

  const hp = v.seat !== null && v.seat !== undefined ? handPanel(v, ctx, sel) : null;
  return h("section", { class: "game classic" + (myTurn ? " my-turn" : "") }, infoPanel(v, ctx, myTurn), hp, boardHost);
}
