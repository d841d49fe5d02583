// The turn clock: a countdown to the deadline the server set for the seat
// to act (`deadline_ms` in the table info; the Stacks Block window has its
// own), shown to everyone. The server plays for a seat whose time runs
// out; the page only counts. Times are the server's: the offset between
// its clock and this browser's comes with each view (`now_ms`).
import { t, num } from "./i18n.js";
import { h } from "./cards.js";

let ticker = null;

/** "0:42" in the page's digits. */
export function clockText(ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  const m = Math.floor(s / 60);
  const r = s % 60;
  return `${num(m)}:${r < 10 ? num(0) : ""}${num(r)}`;
}

/** A countdown element to `deadline` (server ms) with `offset` (server
 * minus browser ms); `null` when there is no deadline. `mine`: the
 * reader's own time (shown urgent below 10 s). */
export function clockBadge(deadline, offset, mine, id = "turn-clock") {
  if (!deadline) return null;
  const left = () => deadline - (Date.now() + offset);
  const el = h("span", { class: `clock${mine ? " mine" : ""}`, id, role: "timer", "aria-label": t("clock.label") }, clockText(left()));
  if (left() < 10000) el.classList.add("urgent");
  return el;
}

/** Keeps every countdown on the page up to date (one timer for all). */
export function startClocks(getDeadline) {
  if (ticker) clearInterval(ticker);
  ticker = setInterval(() => {
    for (const el of document.querySelectorAll(".clock[role='timer']")) {
      const d = getDeadline(el.id);
      if (!d) continue;
      const left = d.deadline - (Date.now() + d.offset);
      const text = clockText(left);
      if (el.textContent !== text) el.textContent = text;
      el.classList.toggle("urgent", left < 10000);
    }
  }, 250);
}

/** Stops the countdowns (leaving the page). */
export function stopClocks() {
  if (ticker) clearInterval(ticker);
  ticker = null;
}
