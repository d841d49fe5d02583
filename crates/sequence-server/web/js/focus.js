// Keyboard focus across re-renders (every view redraws the page) and
// arrow-key movement inside a group of buttons such as the hand: the group
// is one stop for Tab, the arrow keys move between its members (mirrored
// in right-to-left languages, where the hand runs from the right).

/** What has focus now, as a key that survives a redraw (`data-focus`, or
 * `space-e5` for a board space), plus the chat draft. */
export function saveFocus() {
  const active = document.activeElement;
  const chat = document.getElementById("chat-input");
  let key = null;
  if (active && active.dataset) key = active.dataset.focus || (active.dataset.space ? `space-${active.dataset.space}` : null);
  return { key, draft: chat ? chat.value : "", chat: active && active.id === "chat-input" };
}

/** Gives focus back after a redraw of `root`. With `toHand` (our move was
 * just made from the keyboard: the card, the space or the button used is
 * gone or no longer active) focus goes to the hand's stop, so that Tab
 * goes on from the hand instead of from the end of the board. */
export function restoreFocus(root, saved, toHand) {
  const chat = document.getElementById("chat-input");
  if (chat) chat.value = saved.draft;
  if (saved.chat && chat) {
    chat.focus();
    return;
  }
  if (!saved.key) return;
  if (toHand) {
    const stop = root.querySelector('[data-roving="hand"] [tabindex="0"]');
    if (stop) {
      stop.focus();
      return;
    }
  }
  const el = saved.key.startsWith("space-")
    ? root.querySelector(`[data-space="${saved.key.slice(6)}"]`)
    : root.querySelector(`[data-focus="${saved.key}"]`);
  if (el) {
    if (el.dataset.space) setStop(el.closest("[data-roving]"), el);
    el.focus();
  } else {
    // what had focus is gone (a tool button, a played card): the hand
    const stop = root.querySelector('[data-roving="hand"] [tabindex="0"]');
    if (stop) stop.focus();
  }
}

/** Makes `el` the one member of `group` that Tab reaches. */
export function setStop(group, el) {
  if (!group || !el) return;
  for (const m of group.querySelectorAll("[data-member]")) m.setAttribute("tabindex", m === el ? "0" : "-1");
}

/**
 * Turns `group` into one Tab stop whose members (elements marked
 * `data-member`, in reading order) are reached with the arrow keys, Home
 * and End. `stop` is the member Tab lands on (the selected card, else the
 * first). In a right-to-left page Left and Right are swapped, as the
 * members run from the right.
 */
export function rovingGroup(group, name, stop) {
  group.dataset.roving = name;
  const members = [...group.querySelectorAll("[data-member]")];
  if (!members.length) return group;
  setStop(group, stop && members.includes(stop) ? stop : members[0]);
  group.addEventListener("keydown", (e) => {
    const all = [...group.querySelectorAll("[data-member]")];
    const i = all.indexOf(e.target.closest("[data-member]"));
    if (i < 0) return;
    const rtl = getComputedStyle(group).direction === "rtl";
    const step = { ArrowRight: rtl ? -1 : 1, ArrowLeft: rtl ? 1 : -1, ArrowDown: 1, ArrowUp: -1 }[e.key];
    let j;
    if (step !== undefined) j = Math.min(all.length - 1, Math.max(0, i + step));
    else if (e.key === "Home") j = 0;
    else if (e.key === "End") j = all.length - 1;
    else return;
    e.preventDefault();
    setStop(group, all[j]);
    all[j].focus();
  });
  return group;
}
