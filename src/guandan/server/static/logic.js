// The table page's pure logic: hand arrangement (理牌), card selection, the turn timer, the countdown
// between deals and the client's side of the talk rate limit. No DOM, no imports, no clock of its own
// (every time is passed in), so Node's test runner imports this file as it is (tests/js/).
//
// An arrangement is an array of groups {kind, cards}: kind is a label ("bomb", "pair", … as the page
// names them, CUSTOM for a group the player made, REST for the cards in no group), cards are card codes
// ("S3", "HT", "LJ", …; two decks, so a code may occur twice). This module never derives or re-derives
// a kind: it knows no rules, and a group keeps its label when cards leave or join it.

export const CUSTOM = "custom";
export const REST = "rest";

// Storage and the page hand us anything (an older page's format, a hand edited by hand): whatever is
// not a string counts as no card.
function codes(value) {
  return Array.isArray(value) ? value.filter((c) => typeof c === "string") : [];
}

function counts(cards) {
  const m = new Map();
  for (const c of cards) m.set(c, (m.get(c) || 0) + 1);
  return m;
}

// The input's groups, copied, as [index in the input, group]: garbage groups and empty ones are left
// out, and the index is kept because moveToGroup's target counts the input's groups.
function cleanGroups(groups) {
  const out = [];
  if (!Array.isArray(groups)) return out;
  groups.forEach((g, i) => {
    if (g === null || typeof g !== "object") return;
    const cards = codes(g.cards);
    if (cards.length > 0) out.push([i, { kind: typeof g.kind === "string" ? g.kind : CUSTOM, cards }]);
  });
  return out;
}

function isRest(group) { return group !== undefined && group.kind === REST; }

/**
 * The stored arrangement `groups` brought in line with `hand`: each group keeps the cards of it still
 * in hand (as a multiset, the earlier groups served first), groups left empty are dropped, and the
 * hand's cards that no group holds go, in hand order, into a trailing REST group (the arrangement's own
 * trailing REST group when it has one). The result holds exactly the hand's cards, whatever `groups` is.
 */
export function reconcile(groups, hand) {
  const cards = codes(hand);
  const left = counts(cards);
  const out = [];
  for (const [, g] of cleanGroups(groups)) {
    const kept = g.cards.filter((c) => {
      const n = left.get(c) || 0;
      if (n === 0) return false;
      left.set(c, n - 1);
      return true;
    });
    if (kept.length > 0) out.push({ kind: g.kind, cards: kept });
  }
  const rest = cards.filter((c) => {
    const n = left.get(c) || 0;
    if (n === 0) return false;
    left.set(c, n - 1);
    return true;
  });
  if (rest.length > 0) {
    const last = out[out.length - 1];
    if (isRest(last)) last.cards.push(...rest);
    else out.push({ kind: REST, cards: rest });
  }
  return out;
}

// Takes `cards` (a multiset) out of `indexed` ([input index, group] pairs, changed in place) and answers
// the cards found, in the order asked. Two cards of one code cannot be told apart, so which group gives
// one up is a choice: the groups are searched from the last one back (a card picked from the trailing
// REST group does not break the bomb that holds its twin), and the group at `keep` (a move's target,
// whose own cards staying put is the same as moving them there) only when no other group has it.
function take(indexed, cards, keep) {
  const found = [];
  const order = indexed.map((_, k) => k).reverse();
  const search = [...order.filter((k) => indexed[k][0] !== keep), ...order.filter((k) => indexed[k][0] === keep)];
  for (const c of cards) {
    for (const k of search) {
      const from = indexed[k][1].cards;
      const at = from.lastIndexOf(c);
      if (at >= 0) {
        from.splice(at, 1);
        found.push(c);
        break;
      }
    }
  }
  return found;
}

/**
 * `cards` (a multiset of cards in the arrangement; the others are ignored) moved out of their groups
 * into a new CUSTOM group, which goes last, but before a trailing REST group: the unsorted cards stay
 * at the end of the hand where the player looks for the next card to sort. Emptied groups are dropped.
 * When none of `cards` is in the arrangement, it is returned unchanged (as a copy).
 */
export function makeColumn(groups, cards) {
  const indexed = cleanGroups(groups);
  const found = take(indexed, codes(cards), undefined);
  const out = indexed.map(([, g]) => g).filter((g) => g.cards.length > 0);
  if (found.length === 0) return out;
  const column = { kind: CUSTOM, cards: found };
  if (isRest(out[out.length - 1])) out.splice(out.length - 1, 0, column);
  else out.push(column);
  return out;
}

/**
 * `cards` (a multiset; cards not in the arrangement are ignored) moved to the end of the group at index
 * `target` of `groups`, emptied groups dropped. A target that is no group of `groups` (out of range,
 * not an integer, garbage or empty) leaves the arrangement unchanged (returned as a copy).
 */
export function moveToGroup(groups, cards, target) {
  const indexed = cleanGroups(groups);
  const dest = indexed.find(([i]) => i === target);
  if (dest === undefined) return indexed.map(([, g]) => g);
  const found = take(indexed, codes(cards), target);
  dest[1].cards.push(...found);
  return indexed.map(([, g]) => g).filter((g) => g.cards.length > 0);
}

/** The arrangement's cards in display order (garbage groups and codes left out). */
export function flatten(groups) {
  return cleanGroups(groups).flatMap(([, g]) => g.cards);
}

/** The sessionStorage key of one seat's arrangement in one deal of one room. */
export function arrangementKey(roomCode, seat, dealIndex) {
  return `guandan:arrange:${roomCode}:${seat}:${dealIndex}`;
}

function copySet(selected) {
  if (selected === null || selected === undefined || typeof selected[Symbol.iterator] !== "function") return new Set();
  return new Set(selected);
}

/**
 * A swipe over the hand: a new Set where every index from `fromIndex` to `toIndex` (inclusive, either
 * direction) is selected (`on`) or not, and the other indices are as in `selected`. Indices that are not
 * integers swipe nothing.
 */
export function swipe(selected, fromIndex, toIndex, on) {
  const out = copySet(selected);
  if (!Number.isInteger(fromIndex) || !Number.isInteger(toIndex)) return out;
  for (let i = Math.min(fromIndex, toIndex); i <= Math.max(fromIndex, toIndex); i++) {
    if (on) out.add(i);
    else out.delete(i);
  }
  return out;
}

/**
 * A tap on card `i`: a new Set with `i` selected if it was not, and deselected if it was. With
 * `singleOnly` (a tribute or its return, where exactly one card is given) at most one index stays
 * selected: selecting `i` clears the others, and deselecting it leaves none.
 */
export function toggleSingle(selected, i, singleOnly) {
  const out = copySet(selected);
  if (out.has(i)) {
    if (singleOnly) return new Set();
    out.delete(i);
    return out;
  }
  if (singleOnly) return new Set([i]);
  out.add(i);
  return out;
}

/**
 * The turn timer at `nowMs` for a turn of `totalS` seconds that started at `startedMs`: `left` whole
 * seconds (rounded up, so 0 only once the time is up), `fraction` of the time remaining in [0, 1],
 * `warn` in the last `warnS` seconds, `expired` when none is left. A clock behind the start counts as
 * the turn just begun. `totalS` of 0 or less (or not a number) is an untimed turn: `left` is null.
 */
export function timerState(totalS, startedMs, nowMs, warnS = 5) {
  if (!Number.isFinite(totalS) || totalS <= 0) return { left: null, fraction: 1, warn: false, expired: false };
  const totalMs = totalS * 1000;
  const elapsed = Number.isFinite(startedMs) && Number.isFinite(nowMs) ? Math.max(0, nowMs - startedMs) : 0;
  const leftMs = Math.max(0, totalMs - elapsed);
  const left = Math.ceil(leftMs / 1000);
  return { left, fraction: leftMs / totalMs, warn: left > 0 && left <= warnS, expired: left === 0 };
}

/**
 * The four seats in the order a deal's end lists them: by finishing place (头游, 二游, 三游, 末游) as `finish`
 * (the seats in the order they went out) says, then any seat it does not name, in seat order.
 */
export function finishingOrder(finish) {
  const placed = (finish || []).filter((s, i, all) => [0, 1, 2, 3].includes(s) && all.indexOf(s) === i);
  return [...placed, ...[0, 1, 2, 3].filter((s) => !placed.includes(s))];
}

/** Whole seconds (rounded up, never below 0) from `nowMs` until `untilMs`; 0 when either is no number. */
export function countdown(untilMs, nowMs) {
  if (!Number.isFinite(untilMs) || !Number.isFinite(nowMs)) return 0;
  return Math.max(0, Math.ceil((untilMs - nowMs) / 1000));
}

/**
 * Whether a phrase may be sent at `nowMs`, given the times of the earlier sends (`history`): fewer than
 * `rate` of them in the last `perMs` milliseconds. The window is (nowMs - perMs, nowMs]: a send exactly
 * `perMs` ago no longer counts. Sends stamped after `nowMs` (a clock set back) count as recent.
 */
export function talkAllowed(history, nowMs, { rate = 3, perMs = 10000 } = {}) {
  if (!Array.isArray(history)) return rate > 0;
  const recent = history.filter((t) => Number.isFinite(t) && t > nowMs - perMs).length;
  return recent < rate;
}

/**
 * The play the Play button sends for the selected cards, among `matches` (the legal plays of exactly those
 * cards): the only one; or, when the cards have several readings (a wildcard in a full house: 3s or Qs)
 * and they are the cards of the hint on show, the reading that hint named — the player asked for that
 * play. Otherwise null: the player picks a reading.
 */
export function chosenPlay(matches, selected, hint) {
  if (!Array.isArray(matches) || !matches.length) return null;
  if (matches.length === 1) return matches[0];
  const action = hint && hint.action;
  if (!action || !action.combo || !sameCards(codes(action.cards), codes(selected))) return null;
  const named = matches.filter((a) => a.combo && sameCombo(a.combo, action.combo));
  return named.length === 1 ? named[0] : null;
}

/** Whether two lists hold the same cards, as multisets (two decks: a code may occur twice). */
export function sameCards(a, b) {
  if (a.length !== b.length) return false;
  const x = [...a].sort(), y = [...b].sort();
  return x.every((c, i) => c === y[i]);
}

function sameCombo(a, b) {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...keys].every((k) => a[k] === b[k]);
}
