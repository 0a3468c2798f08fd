// Motion and sound at the table: cards fly from a hand to the table, a new deal's cards come in, tribute
// and return cards travel between seats, a bomb shakes the table — and each has its sound. Nothing here
// decides anything: it runs after the page has rendered the state, never holds input (the animations are
// short and leave pointer events alone), and under `prefers-reduced-motion` it only plays the sounds.
import { cardNode } from "./common.js";
import { play as playSound } from "./sound.js";
import { COMBO_TYPE as C, EVENT_TYPE as E } from "./vocab.js";

export const FLY_MS = 240;  // every animation ends within this, well inside the 300 ms a tap may wait
const BOMBS = new Set([C.BOMB, C.STRAIGHT_FLUSH, C.CHAIN_BOMB, C.THREE_JOKERS, C.JOKER_BOMB]);

const reduced = () => typeof matchMedia === "function" && matchMedia("(prefers-reduced-motion: reduce)").matches;

export function isBomb(combo) { return !!combo && BOMBS.has(combo.type); }

function centre(node) {
  const r = node.getBoundingClientRect();
  return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
}

// A node animated from where `from` is to where it stands (FLIP: it is already in its final place). It sets out
// beside the plates (`clear`: their boxes), not on one: a side seat's play started over its own avatar, where a
// phone held sideways showed it small and faded across the plate at the player's turn (the left seat plays just
// before), as if laid there. Its way out is the straight line from `from`, taken up where no frame meets a plate.
function flyFrom(node, from, clear = [], scale = 0.7) {
  if (!node || !from || reduced() || typeof node.animate !== "function") return;
  const to = centre(node);
  const box = node.getBoundingClientRect();
  const along = (k) => ({ x: from.x + (to.x - from.x) * k, y: from.y + (to.y - from.y) * k });
  // a frame at progress p (the easing goes from 0 to 1 without overshoot): its centre on the way, its size growing
  const meets = (start, p) => {
    const size = scale + (1 - scale) * p;
    const x = start.x + (to.x - start.x) * p, y = start.y + (to.y - start.y) * p;
    const hw = box.width * size / 2, hh = box.height * size / 2;
    return clear.some((r) => x - hw < r.right && x + hw > r.left && y - hh < r.bottom && y + hh > r.top);
  };
  let k = 0;
  while (k < 1 && [0, .25, .5, .75, 1].some((p) => meets(along(k), p))) k += 0.05;
  const start = along(Math.min(k, 1));
  node.animate([
    { transform: `translate(${start.x - to.x}px, ${start.y - to.y}px) scale(${scale})`, opacity: 0.4 },
    { transform: "none", opacity: 1 },
  ], { duration: FLY_MS, easing: "cubic-bezier(.2,.7,.3,1)" });
}

// A card that travels on its own above the table from one element to another, then goes.
function travel(card, level, fromNode, toNode) {
  if (!fromNode || !toNode || reduced()) return;
  const a = centre(fromNode), b = centre(toNode);
  const node = cardNode(card, level, { small: true });
  node.classList.add("traveller");
  document.body.append(node);
  const r = node.getBoundingClientRect();
  node.style.left = `${b.x - r.width / 2}px`;  // CSSOM properties: allowed by the page's CSP
  node.style.top = `${b.y - r.height / 2}px`;
  const anim = node.animate([
    { transform: `translate(${a.x - b.x}px, ${a.y - b.y}px)`, opacity: 0.9 },
    { transform: "none", opacity: 1 },
  ], { duration: FLY_MS + 40, easing: "ease-in-out" });
  anim.onfinish = anim.oncancel = () => node.remove();
}

function shake(node) {
  if (!node || reduced() || typeof node.animate !== "function") return;
  node.animate([
    { transform: "translate(0, 0)" }, { transform: "translate(-6px, 2px)" }, { transform: "translate(5px, -3px)" },
    { transform: "translate(-3px, 1px)" }, { transform: "translate(0, 0)" },
  ], { duration: FLY_MS, easing: "linear" });
  node.classList.add("bomb-flash");
  if (typeof navigator !== "undefined" && typeof navigator.vibrate === "function") navigator.vibrate(60);  // felt on a phone
  setTimeout(() => node.classList.remove("bomb-flash"), FLY_MS + 160);
}

// The new deal's hand comes in from the middle of the table, card after card (all within FLY_MS).
export function dealIn(hand, centreNode) {
  if (!hand || !centreNode || reduced()) return;
  const from = centre(centreNode);
  const cards = [...hand.querySelectorAll(".card")];
  const gap = cards.length > 1 ? (FLY_MS / 2) / (cards.length - 1) : 0;
  cards.forEach((node, i) => {
    const to = centre(node);
    node.animate([
      { transform: `translate(${from.x - to.x}px, ${from.y - to.y}px) scale(.5)`, opacity: 0 },
      { transform: "none", opacity: 1 },
    ], { duration: FLY_MS / 2, delay: i * gap, easing: "ease-out", fill: "backwards" });
  });
}

/**
 * What the page shows and plays for one update's events, after it rendered them. `where` finds the
 * nodes: `plate(seat)` (a seat's plate), `plates()` (every seat's, shown), `trick(seat)` (its place on the table),
 * `hand()`, `centre()`;
 * `me` is the page's seat (null for a spectator); `origin` is where the player's own cards were before
 * the render (their centre), so that they fly from the hand.
 */
export function showEvents(events, { where, me, level, origin }) {
  let sound = null;
  const pick = (name) => { if (sound === null || LOUDER[name] > LOUDER[sound]) sound = name; };  // one sound per update
  for (const e of events) {
    if (e.type === E.PLAY) {
      const from = e.seat === me && origin ? origin : where.plate(e.seat) && centre(where.plate(e.seat));
      const fan = where.trick(e.seat) && where.trick(e.seat).querySelector(".cards-fan");
      flyFrom(fan, from, where.plates ? where.plates().map((n) => n.getBoundingClientRect()) : []);
      if (isBomb(e.combo)) { shake(where.centre()); pick("bomb"); } else pick("play");
    } else if (e.type === E.PASS) {
      pick("pass");
    } else if (e.type === E.TRIBUTE || e.type === E.RETURN) {
      for (const tr of e.transfers || []) travel(tr.card, level, where.plate(tr.giver), where.plate(tr.receiver));
      pick("play");
    } else if (e.type === E.DEAL_SETTLED) {
      pick("deal_end");
    }
  }
  if (sound) playSound(sound);
}
const LOUDER = { pass: 1, play: 2, deal_end: 3, bomb: 4 };  // which of an update's sounds is heard

export { playSound };
