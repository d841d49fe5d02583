// The end of a game: the result in large words for the reader ("You won",
// "Your team lost", or for a spectator who won), a summary (moves, how
// long it took, sequences or chips and piles per side, who played at what
// level and how often the server played for a seat out of time), and the
// buttons: rematch (the host), download the record, replay the game.
import { t, tn, num, SEP } from "./i18n.js";
import { h } from "./cards.js";
import { api } from "./api.js";
import { levelName } from "./lobby.js";
import { seatTeam } from "./table-state.js";
import { gameOf } from "./games.js";

/** The winning side of a finished view: a team colour (classic), a seat
 * (Stacks), or null for a draw. */
function winnerOf(v) {
  if (v.status && typeof v.status === "object" && "won" in v.status) return v.status.won;
  if (v.status === "won") return v.winner;
  return null;
}

/** The headline for the reader. */
function headline(v, info, me, seatName) {
  const w = winnerOf(v);
  if (w === null || w === undefined) return { text: t("end.draw"), kind: "draw" };
  if (gameOf(v.game).teams) {
    const mine = me === null || me === undefined ? null : seatTeam(info, me);
    const members = info.seats.filter((s) => s.team && s.team === mine).length;
    if (mine === null) return { text: t("end.team_won", { team: t(`team.${w}`) }), kind: "watch" };
    if (members > 1) return mine === w ? { text: t("end.your_team_won"), kind: "won" } : { text: t("end.your_team_lost"), kind: "lost" };
    return mine === w ? { text: t("end.you_won"), kind: "won" } : { text: t("end.you_lost"), kind: "lost" };
  }
  if (me === null || me === undefined) return { text: t("end.seat_won", { who: seatName(w) }), kind: "watch" };
  return me === w ? { text: t("end.you_won"), kind: "won" } : { text: t("end.you_lost"), kind: "lost" };
}

/** How the game ended for the reader `me` (a seat, or null watching):
 * "won", "lost", "draw" or "watch". */
export function endKind(v, info, me) {
  return headline(v, info, me, String).kind;
}

/** "12 min 5 s" in the page's digits. */
export function durationText(ms) {
  const s = Math.max(0, Math.round(ms / 1000));
  const m = Math.floor(s / 60);
  return m ? t("end.minutes", { m: num(m), s: num(s % 60) }) : t("end.seconds", { s: num(s) });
}

/** One line per side: sequences per team, or chips and piles per seat. */
function sides(v, entries, seatName) {
  const out = [];
  const teams = gameOf(v.game).teams;
  for (const f of v.final_sides || []) {
    if (teams) {
      out.push(h("li", {}, h("span", { class: `chip-icon chip-${f.side}`, "aria-hidden": "true" }), " ",
        tn("end.team_sequences", f.sequences, { team: t(`team.${f.side}`), n: num(f.sequences) })));
    } else {
      const piles = entries.filter((e) => e.seat === f.side && e.completed && e.chip).length;
      out.push(h("li", {}, seatName(f.side), ": ",
        t("end.chips", { blue: num(f.chips.blue), red: num(f.chips.red) }), SEP,
        tn("end.piles", piles, { n: num(piles) })));
    }
  }
  return out;
}

/** Who sat where: a person, or a bot and its level; moves the server made
 * for the seat (timeouts, away). */
function players(info, entries, seatName) {
  return info.seats.map((s) => {
    const auto = entries.filter((e) => e.seat === s.seat && e.auto).length;
    const who = s.kind === "bot" ? t("end.bot", { level: levelName(s.level) }) : t("end.person");
    return h("li", {}, s.team ? h("span", { class: `chip-icon small chip-${s.team}`, "aria-hidden": "true" }) : null,
      " ", h("b", {}, seatName(s.seat)), " — ", who,
      auto ? h("span", { class: "hint" }, SEP, tn("end.auto_moves", auto, { n: num(auto) })) : null);
  });
}

/** The running score across the table's games (`info.results`, the
 * server's: the winner of each game played to its end, null a draw):
 * games won per team (classic) or seat (Stacks), and draws. Null before
 * the first game ends. */
export function seriesLine(info, seatName) {
  const results = info.results || [];
  if (!results.length) return null;
  const teams = gameOf(info.game).teams;
  const sides = teams
    ? [...new Set(info.seats.map((s) => s.team).filter(Boolean))]
    : info.seats.map((s) => s.seat);
  const wins = (side) => results.filter((w) => w === side).length;
  const draws = results.filter((w) => w === null).length;
  const parts = sides.map((side) => h("span", { class: "series-side", "data-side": String(side) },
    teams ? h("span", { class: `chip-icon small chip-${side}`, "aria-hidden": "true" }) : null,
    " ", teams ? t(`team.${side}`) : seatName(side), " ", h("b", {}, num(wins(side)))));
  if (draws) parts.push(h("span", { class: "series-side" }, tn("series.draws", draws, { n: num(draws) })));
  return h("p", { class: "series", id: "series" },
    h("span", { class: "label" }, tn("series.title", results.length, { n: num(results.length) })), " ",
    parts.flatMap((p, i) => (i ? [SEP, p] : [p])));
}

/** The end panel of a finished game (`v` over). `actions.rematch` for
 * the host's button. */
export function endPanel(st, v, info, entries, actions, seatName) {
  const head = headline(v, info, st.seat, seatName);
  const isHost = st.token && st.seat === info.host;
  const n = info.game_no;
  const facts = [tn("end.moves", entries.length, { n: num(entries.length) })];
  if (info.started_ms && info.ended_ms) facts.push(t("end.duration", { time: durationText(info.ended_ms - info.started_ms) }));
  return h("section", { class: `endgame ${head.kind}`, id: "endgame", "aria-labelledby": "end-h" },
    h("h2", { id: "end-h", class: "end-title" }, head.text),
    h("p", { class: "end-facts" }, facts.join(SEP)),
    h("ul", { class: "end-sides" }, sides(v, entries, seatName)),
    seriesLine(info, seatName),
    h("details", { class: "end-players" }, h("summary", {}, t("end.players")), h("ul", {}, players(info, entries, seatName))),
    h("div", { class: "buttons" },
      isHost ? h("button", { type: "button", id: "rematch", class: "primary", onclick: actions.rematch }, t("table.rematch")) : null,
      h("a", { class: "button", id: "download", href: api.recordUrl(st.id, n), download: `sequence-${st.id}-${n}.json` }, t("table.download")),
      h("a", { class: "button", id: "replay-link", href: api.replayUrl(st.id, n) }, t("end.replay")),
      !isHost && st.token ? h("span", { class: "hint" }, t("table.rematch_host")) : null));
}
