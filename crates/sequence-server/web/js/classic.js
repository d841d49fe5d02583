// The classic game: status (whose turn, sequences per team, draw pile),
// the hand (dead cards marked, with a one-click exchange), the board with
// the selected card's playable spaces lit (for a one-eyed jack the chips it
// may remove), the last move and completed sequences highlighted, and the
// C8a choice of sequence when a placement could complete several.
import { t, tn, num } from "./i18n.js";
import { h, cardName, classicCardFace, isOneEyed, isJack } from "./cards.js";
import { drawBoard } from "./board.js";

const TEAM_COLOURS = ["blue", "green", "red"];

function sameCard(m, card) {
  return m.card === card;
}

/** A text description of a classic move for the status line and logs. */
export function describeMove(m, seatName) {
  if (!m) return "";
  const who = seatName(m.seat);
  if (m.at) return t("move.place", { who, card: cardName(m.card), space: m.at });
  if (m.remove) return t("move.remove", { who, card: cardName(m.card), space: m.remove });
  if (m.dead) return t("move.dead", { who, card: cardName(m.dead) });
  if (m.discard) return t("move.discard", { who, card: cardName(m.discard) });
  if (m.pass) return t("move.pass", { who });
  return "";
}

export const classicStatus = {
  face: (code) => classicCardFace(code),
};

/** Renders the classic view `v` (docs/api.md "Classic view"). `ctx`:
 * { ui (selection kept across renders), seatName(seat), sendMove(move),
 * rerender() }. */
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
      if (!sameCard(m, selCard)) continue;
      if (m.at) targets.set(m.at, "place");
      if (m.remove) targets.set(m.remove, "remove");
    }
  }
  const teams = v.teams || 2;
  const winSeq = (v.options && v.options.win_sequences) || (teams === 3 ? 1 : 2);
  const seqCount = (team) => (v.sequences || []).filter((s) => s[0] === team).length;

  // Status line.
  let status;
  if (v.status === "won") status = t("status.team_won", { team: t(`team.${v.winner}`) });
  else if (v.status === "draw") status = t("status.draw");
  else if (myTurn) status = t("status.your_turn");
  else status = t("status.turn_of", { who: ctx.seatName(v.turn), team: t(`team.${TEAM_COLOURS[v.turn % teams]}`) });
  const over = v.status === "won" || v.status === "draw";

  const lastAt = v.last_move ? v.last_move.at || v.last_move.remove || null : null;
  const boardHost = h("div", { class: "board-wrap" });
  const onSpace = (space) => {
    const ms = legal.filter((m) => sameCard(m, selCard) && (m.at === space || m.remove === space));
    if (ms.length === 1) ctx.sendMove(ms[0]);
    else if (ms.length > 1) {
      ui.choices = ms;
      ctx.rerender();
    }
  };
  drawBoard(boardHost, { options: v.options, board: v.board, sequences: v.sequences, lastAt, targets }, onSpace);

  const scores = h("ul", { class: "scores", "aria-label": t("status.sequences") },
    TEAM_COLOURS.slice(0, teams).map((team) => h("li", { class: `score team-${team}` },
      h("span", { class: `chip-icon chip-${team}`, "aria-hidden": "true" }),
      h("span", {}, t("status.team_sequences", { team: t(`team.${team}`), n: num(seqCount(team)), of: num(winSeq) })))));

  const info = h("div", { class: "game-info" },
    h("p", { class: `status-line${myTurn ? " mine" : ""}${over ? " over" : ""}`, id: "status", role: "status", "aria-live": "polite" }, status),
    scores,
    h("p", { class: "counts" },
      h("span", { id: "draw-pile" }, t("status.draw_pile", { n: num(v.draw_pile ?? 0) })),
      v.team ? h("span", {}, " · ", t("status.your_team", { team: t(`team.${v.team}`) })) : null),
    v.last_move ? h("p", { class: "last-move" }, t("status.last_move"), " ", describeMove(v.last_move, ctx.seatName)) : null);

  // The hand.
  let handPanel = null;
  if (v.seat !== null && v.seat !== undefined) {
    const dead = new Set(v.dead || []);
    const cards = hand.map((code, i) => {
      const isDead = dead.has(code);
      const playable = myTurn && legal.some((m) => sameCard(m, code) || m.dead === code || m.discard === code);
      let label = cardName(code);
      if (isDead) label += ", " + t("hand.dead");
      if (isJack(code)) label += ", " + t(isOneEyed(code) ? "hand.one_eyed_hint" : "hand.two_eyed_hint");
      return h("button", {
        type: "button",
        class: `hand-card${i === ui.selected ? " selected" : ""}${isDead ? " dead" : ""}${playable ? "" : " idle"}`,
        "data-card": code,
        "data-focus": `hand-${i}`,
        "aria-pressed": i === ui.selected ? "true" : "false",
        "aria-label": label,
        onclick: () => {
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
    });
    const tools = [];
    if (selCard && myTurn) {
      const deadMove = legal.find((m) => m.dead === selCard);
      const discardMove = legal.find((m) => m.discard === selCard);
      if (targets.size) tools.push(h("p", { class: "hint" }, isOneEyed(selCard) ? tn("hand.pick_chip", targets.size, { n: num(targets.size) }) : tn("hand.pick_space", targets.size, { n: num(targets.size) })));
      else if (!deadMove && !discardMove) tools.push(h("p", { class: "hint" }, t("hand.no_space")));
      if (deadMove) tools.push(h("button", { type: "button", class: "primary", id: "exchange", "data-focus": "exchange", onclick: () => ctx.sendMove(deadMove) }, t("hand.exchange", { card: cardName(selCard) })));
      if (discardMove) tools.push(h("button", { type: "button", id: "discard", "data-focus": "discard", onclick: () => ctx.sendMove(discardMove) }, t("hand.discard", { card: cardName(selCard) })));
    } else if (myTurn) {
      tools.push(h("p", { class: "hint" }, t("hand.pick_card")));
    }
    // A dead card can be exchanged in one click without selecting it first.
    if (myTurn && !selCard) {
      for (const code of new Set(v.dead || [])) {
        const m = legal.find((x) => x.dead === code);
        if (m) tools.push(h("button", { type: "button", class: "exchange-quick", "data-focus": `exchange-${code}`, onclick: () => ctx.sendMove(m) }, t("hand.exchange", { card: cardName(code) })));
      }
    }
    const pass = myTurn && legal.find((m) => m.pass);
    if (pass) tools.push(h("button", { type: "button", id: "pass", "data-focus": "pass", onclick: () => ctx.sendMove(pass) }, t("hand.pass")));
    if (ui.choices) {
      tools.push(h("div", { class: "choice", role: "group", "aria-label": t("hand.choose_sequence") },
        h("p", {}, t("hand.choose_sequence")),
        ui.choices.map((m, k) => h("button", { type: "button", "data-focus": `choice-${k}`, onclick: () => ctx.sendMove(m) },
          (m.declare || []).map((w) => `${w[0]}–${w[1]}`).join(", ") || t("hand.default_sequence")))));
    }
    handPanel = h("section", { class: "hand-panel", "aria-labelledby": "hand-h" },
      h("h2", { id: "hand-h" }, t("hand.title")),
      h("div", { class: "hand", role: "group", "aria-label": t("hand.title") }, cards),
      h("div", { class: "hand-tools" }, tools));
  }

  return h("section", { class: "game classic" + (myTurn ? " my-turn" : "") }, info, handPanel, boardHost);
}
