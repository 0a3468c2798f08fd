// The table's sounds: the short WAV files in /static/sounds/, made by guandan.server.sounds. Sound is
// a nicety: whatever the browser refuses (autoplay before the first tap, a missing file, storage
// switched off) is dropped without a word, and the game goes on.

export const SOUND_NAMES = ["play", "bomb", "pass", "turn", "warn", "deal_end"];
const MUTE_KEY = "guandan:mute";
const elements = new Map();
let mutedHere = false;  // what setMuted last said, for a browser whose localStorage throws

function element(name) {
  let el = elements.get(name);
  if (el === undefined) {
    el = new Audio(`/static/sounds/${name}.wav`);
    el.preload = "auto";
    elements.set(name, el);
  }
  return el;
}

/** Fetches every sound ahead of its first use, so the first card played is heard on time. */
export function preload() {
  if (typeof Audio === "undefined") return;
  for (const name of SOUND_NAMES) element(name);
}

/**
 * Plays the sound `name` (one of SOUND_NAMES; any other name plays nothing) unless muted. A sound still
 * playing is not cut off: a copy of its element plays alongside it.
 */
export function play(name) {
  if (muted() || !SOUND_NAMES.includes(name) || typeof Audio === "undefined") return;
  try {
    const base = element(name);
    const el = base.paused || base.ended ? base : base.cloneNode();
    el.currentTime = 0;
    const started = el.play();
    // the autoplay policy refuses through the promise, not by throwing
    if (started && typeof started.catch === "function") started.catch(() => {});
  } catch {
    // an element that cannot play is a sound not heard
  }
}

/** Whether the player muted the sounds (remembered across visits; not muted by default). */
export function muted() {
  try {
    const saved = localStorage.getItem(MUTE_KEY);
    return saved === null ? mutedHere : saved === "1";
  } catch {
    return mutedHere;
  }
}

/** Mutes (true) or unmutes the sounds, and remembers the choice. */
export function setMuted(value) {
  mutedHere = Boolean(value);
  try {
    localStorage.setItem(MUTE_KEY, mutedHere ? "1" : "0");
  } catch {
    // storage switched off: the choice lasts as long as the page
  }
}

preload();
