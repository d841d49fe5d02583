// "Your turn": when the seat of this page must decide, the tab's title and
// icon change (so a background tab shows it), a short sound plays if the
// player turned sound on (off by default; the choice is remembered), and
// a browser notification appears if the player allowed notifications and
// the tab is hidden. The same switch turns on the other sound effects
// (a chip placed or removed, a sequence, the end, a reaction), all made by
// the page with Web Audio (no sound file). Nothing here changes the game.
import { t } from "./i18n.js";

const SOUND_KEY = "sequence.sound";
const ICON_IDLE = "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 16 16'%3E%3Ccircle cx='8' cy='8' r='7' fill='%232f6fd6'/%3E%3C/svg%3E";
const ICON_TURN = "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 16 16'%3E%3Ccircle cx='8' cy='8' r='7' fill='%23ff8a00'/%3E%3Ccircle cx='8' cy='8' r='3' fill='%23fff'/%3E%3C/svg%3E";

let wasMine = false;
let audio = null;

/** Whether the player turned the turn sound on. */
export function soundOn() {
  try {
    return localStorage.getItem(SOUND_KEY) === "on";
  } catch {
    return false;
  }
}

/** Turns the turn sound on or off (remembered); plays it once when on, so
 * the player hears it (and the browser lets the page play sounds). */
export function setSound(on) {
  try {
    localStorage.setItem(SOUND_KEY, on ? "on" : "off");
  } catch {
    // storage refused: the choice lasts for this page only
  }
  if (on) effect("turn");
}

/** The sound effects, each a few notes: [start s, frequency Hz, length s,
 * wave]. */
const EFFECTS = {
  turn: [[0, 660, 0.14, "sine"], [0.16, 880, 0.14, "sine"]],
  place: [[0, 180, 0.09, "triangle"], [0.005, 360, 0.05, "sine"]],
  remove: [[0, 520, 0.08, "triangle"], [0.07, 300, 0.14, "triangle"]],
  sequence: [[0, 523, 0.12, "sine"], [0.1, 659, 0.12, "sine"], [0.2, 784, 0.12, "sine"], [0.3, 1047, 0.32, "sine"]],
  win: [[0, 523, 0.16, "triangle"], [0.16, 659, 0.16, "triangle"], [0.32, 784, 0.16, "triangle"], [0.5, 1047, 0.5, "triangle"]],
  lose: [[0, 392, 0.22, "triangle"], [0.22, 330, 0.22, "triangle"], [0.44, 262, 0.45, "triangle"]],
  reaction: [[0, 880, 0.06, "sine"], [0.05, 1175, 0.09, "sine"]],
};

/** Plays the sound effect `name` (see EFFECTS) if the player turned
 * sound on. The names played are listed in `window.sequenceSound` (for
 * tests and the curious). */
export function effect(name) {
  if (!soundOn() || !EFFECTS[name]) return;
  window.sequenceSound = window.sequenceSound || { played: [] };
  window.sequenceSound.played.push(name);
  if (window.sequenceSound.played.length > 50) window.sequenceSound.played.shift();
  tones(EFFECTS[name]);
}

/** Notifications: "granted", "denied", "default", or "unsupported". */
export function notifyPermission() {
  return typeof Notification === "undefined" ? "unsupported" : Notification.permission;
}

/** Asks the browser for permission to notify. */
export async function askNotify() {
  if (typeof Notification === "undefined") return "unsupported";
  try {
    return await Notification.requestPermission();
  } catch {
    return Notification.permission;
  }
}

/** Plays `notes` (Web Audio: no sound file to load). */
function tones(notes) {
  try {
    const Ctx = window.AudioContext || window.webkitAudioContext;
    if (!Ctx) return;
    audio = audio || new Ctx();
    if (audio.state === "suspended") audio.resume();
    const now = audio.currentTime;
    for (const [at, freq, len, wave] of notes) {
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.type = wave;
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.0001, now + at);
      gain.gain.exponentialRampToValueAtTime(0.2, now + at + 0.015);
      gain.gain.exponentialRampToValueAtTime(0.0001, now + at + len);
      osc.connect(gain).connect(audio.destination);
      osc.start(now + at);
      osc.stop(now + at + len + 0.01);
    }
  } catch {
    // no sound: what it would say is on the page
  }
}

function setIcon(href) {
  const link = document.querySelector("link[rel='icon']");
  if (link && link.getAttribute("href") !== href) link.setAttribute("href", href);
}

/** Shows whether it is this page's seat's turn: the tab title (`title`
 * is the page's own) and icon; on the change to "mine" the sound and the
 * notification (`what` says what to do, e.g. "Block this pile?"). */
export function turnSignal(mine, title, what) {
  document.title = mine ? `${t("notify.title_mark")} ${title}` : title;
  setIcon(mine ? ICON_TURN : ICON_IDLE);
  if (mine && !wasMine) {
    effect("turn");
    if (notifyPermission() === "granted" && document.hidden) {
      try {
        const n = new Notification(t("notify.title"), { body: what || title, tag: "sequence-turn" });
        n.addEventListener("click", () => {
          window.focus();
          n.close();
        });
      } catch {
        // some browsers allow notifications only from a service worker
      }
    }
  }
  wasMine = mine;
}

/** Back to the page's plain title and icon (leaving a table). */
export function clearTurnSignal(title) {
  wasMine = false;
  document.title = title;
  setIcon(ICON_IDLE);
}
