// Sequence Stacks: the piles in progress, the hand and the top of the own
// discard pile (both can be played from, S4), discard tops and chips per
// player, action cards with prompts for their target and colour (S5), and
// the Block window (S5b) as a prompt counting down to the server's
// deadline for it (the server lets the pile stand when it passes); a
// Block we play is confirmed in the status panel, and the last move is
// shown (the move log lists them all).
import { t, tn, num, SEP, list } from "./i18n.js";
import { h, stacksCardFace, stacksCardName } from "./cards.js";
import { rovingGroup } from "./focus.js";
import { clockBadge } from "./clock.js";
import { leftSeatStatus } from "./table-state.js";
import { animate } from "./feel.js";

function chipBadge(colour, n) {
  return h("span", { class: `schip schip-${colour}`, role: "img", "aria-label": tn("stacks.chips_of", n, { colour: t(`colour.${colour}`), n: num(n) }) },
    h("span", { class: "schip-mark", "aria-hidden": "true" }), h("span", { "aria-hidden": "true" }, num(n)));
}

function top(pile) {
  return pile && pile.length ? pile[pile.length - 1] : null;
}

/** Text of a Stacks move for the "last move" line. */
export function describeStacksMove(m, seatName) {
  if (!m) return "";
  const who = seatName(m.seat);
  if (m.play && m.to) return t("smove.pile", { who, card: stacksCardName(m.play), place: placeName(m.to) });
  if (m.play === "STEAL-CARD") return t("smove.steal_card", { who, target: seatName(m.target) });
  if (m.play === "STEAL-CHIP") return t("smove.steal_chip", { who, target: seatName(m.target), colour: t(`colour.${m.colour}`) });
  if (m.play === "BLOCK") return t("smove.block", { who });
  if (m.play) return t("smove.action", { who, card: stacksCardName(m.play) });
  if (m.discard) return t("smove.discard", { who, card: stacksCardName(m.discard) });
  if (m.end) return t("smove.end", { who });
  if (m.pass) return t("smove.pass", { who });
  return "";
}

/** A suggested move in words, as advice (table-live.js, games.js). */
export function stacksAdvice(m, seatName) {
  const card = m.play ? (m.from === "discard" ? t("advice.own_discard", { card: stacksCardName(m.play) }) : stacksCardName(m.play)) : "";
  if (m.play && m.to) return t("advice.pile", { card, place: placeName(m.to) });
  if (m.play === "STEAL-CARD") return t("advice.steal_card", { target: seatName(m.target) });
  if (m.play === "STEAL-CHIP") return t("advice.steal_chip", { target: seatName(m.target), colour: t(`colour.${m.colour}`) });
  if (m.play === "BLOCK") return t("advice.block");
  if (m.play) return t("advice.action", { card });
  if (m.discard) return t("advice.discard", { card: stacksCardName(m.discard) });
  if (m.end) return t("advice.end");
  return t("advice.let_stand");
}

/** A pile's place in words: `blue-b` → "blue pile 2" (the letter as a
 * number in the page's digits, so no Latin letter stands in Persian). */
export function placeName(place) {
  const [colour, letter] = String(place).split("-");
  const n = letter && letter.length === 1 ? letter.charCodeAt(0) - 96 : 0;
  return t("stacks.place", { colour: t(`colour.${colour}`), n: n > 0 ? num(n) : letter || "" });
}

/** The pile the newest log entry completed, if that entry opened a
 * Block window: `{place, card}` (the card that completed it), else null. */
function completedPlace(entries) {
  const e = (entries || [])[(entries || []).length - 1];
  if (!e || !e.completed) return null;
  return { place: e.completed, card: (e.move && e.move.play) || null };
}

export const stacksStatus = {
  seatExtra(v, s) {
    const c = (v.chips && v.chips[s]) || { blue: 0, red: 0 };
    const d = top(v.discard_piles && v.discard_piles[s]);
    return h("span", { class: "sinfo" },
      chipBadge("blue", c.blue), chipBadge("red", c.red),
      " ", tn("table.cards_in_hand", (v.hand_sizes && v.hand_sizes[s]) ?? 0, { n: num((v.hand_sizes && v.hand_sizes[s]) ?? 0) }),
      d ? h("span", { class: "discard-top" }, SEP, t("table.discard_top"), " ",
        h("span", { class: "mini-card", "data-card": d, title: stacksCardName(d) }, stacksCardFace(d))) : null);
  },
};

function won(v) {
  if (v.status && typeof v.status === "object" && "won" in v.status) return v.status.won;
  if (v.status === "won") return v.winner;
  return null;
}

/** Renders the Stacks view `v` (docs/api.md "Stacks view"). */
export function renderStacks(v, ctx) {
  const ui = ctx.ui;
  const me = v.seat;
  const legal = (v.legal_moves || []).map((m) => ({ ...m }));
  const mine = me !== null && me !== undefined && legal.length > 0;
  const hand = v.hand || [];
  const myDiscard = me !== null && me !== undefined ? (v.discard_piles || [])[me] || [] : [];
  const winner = won(v);
  const over = winner !== null || v.status === "draw";

  // The selected card: from the hand (index) or the own discard top.
  if (ui.sel) {
    const ok = ui.sel.from === "hand" ? hand[ui.sel.index] === ui.sel.card : top(myDiscard) === ui.sel.card;
    if (!ok) ui.sel = null;
  }
  const selMoves = ui.sel ? legal.filter((m) => (m.play === ui.sel.card && ((m.from === "discard") === (ui.sel.from === "discard")))
    || (ui.sel.from === "hand" && m.discard === ui.sel.card)) : [];
  const pileTargets = new Map(selMoves.filter((m) => m.to).map((m) => [m.to, m]));

  const blockOpen = v.block_window && v.status === "playing";
  const blockMine = blockOpen && v.to_act === me && mine;
  // what the parts below share
  const s = { ui, me, legal, mine, hand, myDiscard, winner, over, selMoves, pileTargets, blockOpen, blockMine, x: ctx.extras || {} };
  const info = infoPanel(v, ctx, s);
  const piles = pilesSection(v, ctx, s);
  const blockPrompt = blockMine ? blockPromptOf(v, ctx, legal) : null;
  const handPanel = me !== null && me !== undefined ? handPanelOf(v, ctx, s) : null;
  return h("section", { class: "game stacks" + (mine ? " my-turn" : "") + (blockPrompt ? " has-block" : "") }, info, blockPrompt, handPanel, piles);
}

/** The status line: who won, whose decision it is. */
function statusText(v, ctx, s) {
  const { winner, me, blockMine, blockOpen, mine } = s;
  if (winner !== null) return winner === me ? t("status.you_won") : t("status.seat_won", { who: ctx.seatName(winner) });
  if (v.status === "draw") return t("status.draw");
  // the prompt below has the question as its heading: the status line
  // says whose decision it is, not the same words again
  if (blockMine) return t("stacks.block_status");
  if (blockOpen) return t("stacks.block_waiting", { who: ctx.seatName(v.to_act) });
  if (mine) return t("status.your_turn");
  return leftSeatStatus(ctx.info, v.turn, ctx.seatName(v.turn)) || t("status.turn_of_alone", { who: ctx.seatName(v.turn) });
}

/** The status panel: the status line and clock, the counts (draw pile,
 * direction, completed piles, supply, skips), notices and the last move. */
function infoPanel(v, ctx, s) {
  const { mine, over, blockOpen, x } = s;
  return h("div", { class: "game-info" },
    h("p", { class: `status-line${mine ? " mine" : ""}${over ? " over" : ""}` },
      h("span", { id: "status", role: "status", "aria-live": "polite" }, statusText(v, ctx, s)),
      x.clock && !blockOpen ? h("span", { class: "clock-wrap" }, " ", x.clock) : null),
    x.notices,
    h("p", { class: "counts" },
      h("span", { id: "draw-pile" }, t("status.draw_pile", { n: num(v.draw_pile ?? 0) })), SEP,
      h("span", {}, t(v.direction === "counterclockwise" ? "stacks.dir_ccw" : "stacks.dir_cw")), SEP,
      h("span", {}, t("stacks.completed", { n: num((v.completed || []).length) })), SEP,
      h("span", {}, t("stacks.supply"), " ", chipBadge("blue", (v.supply || {}).blue ?? 0), chipBadge("red", (v.supply || {}).red ?? 0)),
      v.pending_skips ? h("span", {}, SEP, tn("stacks.skips", v.pending_skips, { n: num(v.pending_skips) })) : null),
    ctx.notice ? h("p", { class: "notice", id: "notice" }, ctx.notice) : null,
    h("p", { class: "hint goal" }, t("stacks.goal")),
    x.series || null,
    x.last || null);
}

/** The piles in progress; those played on since our last turn marked.
 * While a Block window is open the pile just completed is shown as
 * completed (its cards are set aside, S5b), not as a free place. */
function pilesSection(v, ctx, s) {
  const { x, pileTargets } = s;
  const recentPlaces = new Set((x.since || []).map((e) => e.move && e.move.to).filter(Boolean));
  const justDone = s.blockOpen ? completedPlace(x.entries) : null;
  return h("section", { class: "piles", "aria-label": t("stacks.piles") }, (v.piles || []).map((p) => {
    const colour = String(p.place).split("-")[0];
    const move = pileTargets.get(p.place);
    const fresh = recentPlaces.has(p.place);
    const done = justDone && justDone.place === p.place && !p.cards.length;
    const state = done ? t("stacks.pile_completed") : p.top ? tn("stacks.pile_top", p.cards.length, { n: num(p.top), cards: num(p.cards.length) }) : t("stacks.pile_free");
    const label = list([placeName(p.place), state, ...(move ? [t("stacks.can_play_here")] : [])]);
    const cards = p.cards.map((c, i) => h("span", { class: "pcard", style: `--i:${i}` }, stacksCardFace(c)));
    // a card just played lands on its pile; a pile just completed flashes
    const anim = x.anim;
    if (anim && anim.piles.has(p.place) && cards.length) animate(cards[cards.length - 1], "card-in", anim.age);
    const empty = done
      ? h("span", { class: "pile-empty pile-done" }, justDone.card ? h("span", { class: "pcard" }, stacksCardFace(justDone.card)) : null, t("stacks.pile_completed_short"))
      : h("span", { class: "pile-empty" }, t("stacks.pile_free_short"));
    const pile = h("button", {
      type: "button",
      class: `pile pile-${colour}${move ? " target" : ""}${fresh ? " recent" : ""}${done ? " just-completed" : ""}${x.hintPile === p.place ? " hinted" : ""}`,
      "data-place": p.place,
      "data-focus": `pile-${p.place}`,
      "aria-label": label,
      disabled: !move,
      onclick: () => move && ctx.sendMove(move),
    }, h("span", { class: "pile-name", "aria-hidden": "true" }, placeName(p.place)),
    h("span", { class: "pile-cards", "aria-hidden": "true" }, cards.length ? cards : empty),
    h("span", { class: "pile-top", "aria-hidden": "true" }, p.top ? num(p.top) : ""));
    if (anim && anim.completed.has(p.place)) animate(pile, "pile-flash", anim.age);
    return pile;
  }));
}

/** The Block window prompt (S5b) for our decision, counting down to the
 * server's deadline. */
function blockPromptOf(v, ctx, legal) {
  const w = v.block_window;
  const canBlock = legal.find((m) => m.play === "BLOCK");
  const pass = legal.find((m) => m.pass);
  // no deadline (a puzzle): no countdown, and a sentence that says so
  const counter = clockBadge(w.deadline_ms || (v.table && v.table.deadline_ms), ctx.clockOffset || 0, true, "block-countdown");
  return h("div", { class: "block-prompt", role: "alertdialog", "aria-labelledby": "block-h", "aria-describedby": "block-text" },
    h("h2", { id: "block-h" }, t("stacks.block_title")),
    h("p", { id: "block-text" }, t("stacks.block_text", { who: ctx.seatName(w.completer), colour: t(`colour.${w.colour}`) })),
    counter ? h("p", { class: "hint" }, t("stacks.block_timer"), " ", counter)
      : h("p", { class: "hint", id: "block-untimed" }, t("stacks.block_untimed")),
    h("div", { class: "buttons" },
      canBlock ? h("button", { type: "button", class: "primary", id: "block", "data-focus": "block", onclick: () => ctx.sendMove(canBlock, t("stacks.you_blocked", { who: ctx.seatName(w.completer), colour: t(`colour.${w.colour}`) })) }, t("stacks.block_yes")) : h("span", { class: "hint" }, t("stacks.no_block_card")),
      pass ? h("button", { type: "button", id: "let-it-stand", "data-focus": "let-it-stand", onclick: () => ctx.sendMove(pass) }, t("stacks.block_no")) : null));
}

/** Our hand, own discard top and the prompts for the selected card. */
function handPanelOf(v, ctx, s) {
  const { ui, mine, legal, hand, myDiscard, x } = s;
  const select = (sel) => {
    if (!mine) ctx.offTurn();
    ui.sel = ui.sel && ui.sel.from === sel.from && ui.sel.index === sel.index ? null : sel;
    ctx.rerender();
  };
  const usable = (code, from) => legal.some((m) => (m.play === code && ((m.from === "discard") === (from === "discard"))) || (from === "hand" && m.discard === code));
  const cards = hand.map((code, i) => h("button", {
    type: "button",
    class: `scard${ui.sel && ui.sel.from === "hand" && ui.sel.index === i ? " selected" : ""}${mine && usable(code, "hand") ? "" : " idle"}${x.hintCard === code && x.hintFrom === "hand" && hand.indexOf(code) === i ? " hinted" : ""}`,
    "data-card": code,
    "data-focus": `hand-${i}`,
    "data-member": "",
    "aria-pressed": ui.sel && ui.sel.from === "hand" && ui.sel.index === i ? "true" : "false",
    "aria-label": stacksCardName(code),
    onclick: () => select({ from: "hand", index: i, card: code }),
  }, stacksCardFace(code)));
  const dtop = top(myDiscard);
  const discardBtn = dtop ? h("button", {
    type: "button",
    class: `scard from-discard${ui.sel && ui.sel.from === "discard" ? " selected" : ""}${mine && usable(dtop, "discard") ? "" : " idle"}${x.hintCard === dtop && x.hintFrom === "discard" ? " hinted" : ""}`,
    "data-card": dtop,
    "data-focus": "own-discard",
    "data-member": "",
    "aria-pressed": ui.sel && ui.sel.from === "discard" ? "true" : "false",
    "aria-label": t("stacks.own_discard_card", { card: stacksCardName(dtop) }),
    onclick: () => select({ from: "discard", index: -1, card: dtop }),
  }, stacksCardFace(dtop)) : h("span", { class: "hint" }, t("stacks.own_discard_empty"));
  // hand and own discard top: one Tab stop, arrow keys between the cards
  const group = h("div", { class: "shand" },
    h("div", { class: "hand", role: "group", "aria-label": t("hand.title") }, cards),
    h("div", { class: "own-discard" }, h("span", { class: "label" }, t("stacks.own_discard")), discardBtn));
  const selected = ui.sel ? (ui.sel.from === "hand" ? cards[ui.sel.index] : discardBtn) : null;
  rovingGroup(group, "hand", selected);
  return h("section", { class: "hand-panel", "aria-labelledby": "hand-h" },
    h("h2", { id: "hand-h" }, t("hand.title")),
    group,
    h("div", { class: "hand-tools" }, handTools(v, ctx, s)));
}

/** The tools under the hand: the off-turn note, or on our turn the hint,
 * what to pick, the selected card's moves that go to no pile (actions,
 * discard) and "end the turn". */
function handTools(v, ctx, s) {
  const { ui, mine, blockMine, selMoves, pileTargets, legal, x } = s;
  const tools = [];
  if (!mine && ctx.offTurnNote) tools.push(ctx.offTurnNote);
  if (mine && !blockMine) {
    if (x.hint) tools.push(x.hint);
    if (!ui.sel) tools.push(h("p", { class: "hint" }, t("stacks.pick_card")));
    else {
      const name = stacksCardName(ui.sel.card);
      if (pileTargets.size) tools.push(h("p", { class: "hint" }, t("stacks.pick_pile", { card: name })));
      for (const m of selMoves) {
        if (m.to) continue;
        let text;
        if (m.play === "SKIP" || m.play === "REVERSE") text = t("stacks.play_action", { card: name });
        else if (m.play === "STEAL-CARD") {
          const tc = top((v.discard_piles || [])[m.target]);
          text = t("stacks.steal_card_from", { who: ctx.seatName(m.target), card: tc ? stacksCardName(tc) : t("sign.unknown") });
        } else if (m.play === "STEAL-CHIP") text = t("stacks.steal_chip_from", { who: ctx.seatName(m.target), colour: t(`colour.${m.colour}`) });
        else if (m.discard) text = t("stacks.discard", { card: name });
        else continue;
        const k = m.discard ? "discard" : `${m.play}-${m.target ?? ""}-${m.colour ?? ""}`;
        tools.push(h("button", { type: "button", class: m.discard ? "" : "primary", "data-focus": `act-${k}`, "data-move": JSON.stringify(m), onclick: () => ctx.sendMove(m) }, text));
      }
      if (!selMoves.length) tools.push(h("p", { class: "hint" }, t("stacks.cannot_play")));
    }
    const end = legal.find((m) => m.end);
    if (end) tools.push(h("button", { type: "button", id: "end-turn", "data-focus": "end-turn", onclick: () => ctx.sendMove(end) }, t("stacks.end_turn")));
  }
  return tools;
}
