// The table page's pure logic (src/guandan/server/static/logic.js), under Node's own test runner.
import assert from "node:assert/strict";
import { describe, test } from "node:test";

import {
  arrangementKey, chosenPlay, countdown, CUSTOM, finishingOrder, flatten, makeColumn, moveToGroup, reconcile, REST, swipe, talkAllowed,
  timerState, toggleSingle,
} from "../../src/guandan/server/static/logic.js";

const sorted = (cards) => [...cards].sort();
const g = (kind, ...cards) => ({ kind, cards });

// Every result must hold exactly the hand, as a multiset, in well-formed groups.
function assertArrangementOf(groups, hand) {
  assert.ok(Array.isArray(groups));
  for (const group of groups) {
    assert.deepEqual(Object.keys(group).sort(), ["cards", "kind"]);
    assert.equal(typeof group.kind, "string");
    assert.ok(group.cards.length > 0, "no empty group");
    for (const c of group.cards) assert.equal(typeof c, "string");
  }
  assert.deepEqual(sorted(flatten(groups)), sorted(hand.filter((c) => typeof c === "string")));
}

describe("reconcile", () => {
  test("a fresh hand with no arrangement is one rest group in hand order", () => {
    const hand = ["S3", "HT", "D2", "LJ", "BJ"];
    assert.deepEqual(reconcile([], hand), [g(REST, ...hand)]);
  });

  test("an up-to-date arrangement comes back equal, as a copy", () => {
    const groups = [g("bomb", "S5", "H5", "C5", "D5"), g("pair", "S9", "H9"), g(REST, "BJ")];
    const hand = ["BJ", "H9", "S5", "H5", "S9", "C5", "D5"];
    const out = reconcile(groups, hand);
    assert.deepEqual(out, groups);
    assert.notEqual(out, groups);
    assert.notEqual(out[0], groups[0]);
    assert.notEqual(out[0].cards, groups[0].cards);
  });

  test("played cards leave their groups, emptied groups go, order is kept", () => {
    const groups = [g("pair", "S9", "H9"), g("single", "D4"), g(CUSTOM, "HK", "SK", "CA"), g(REST, "S3", "S2")];
    const hand = ["CA", "S2", "S9", "HK"];  // H9, D4, SK and S3 were played
    const out = reconcile(groups, hand);
    assert.deepEqual(out, [g("pair", "S9"), g(CUSTOM, "HK", "CA"), g(REST, "S2")]);
    assertArrangementOf(out, hand);
  });

  test("duplicates are a multiset: a group of two S3 keeps one when the hand has one", () => {
    const out = reconcile([g("pair", "S3", "S3"), g(REST, "HT")], ["HT", "S3"]);
    assert.deepEqual(out, [g("pair", "S3"), g(REST, "HT")]);
  });

  test("duplicates spread over groups: the earlier group keeps the one left", () => {
    const out = reconcile([g(CUSTOM, "S3", "D4"), g(CUSTOM, "S3")], ["S3", "D4"]);
    assert.deepEqual(out, [g(CUSTOM, "S3", "D4")]);
  });

  test("cards new to the hand (tribute, its return) join the trailing rest group in hand order", () => {
    const groups = [g("pair", "S9", "H9"), g(REST, "D2")];
    const out = reconcile(groups, ["BJ", "S9", "D2", "H9", "S9", "C3"]);
    assert.deepEqual(out, [g("pair", "S9", "H9"), g(REST, "D2", "BJ", "S9", "C3")]);
  });

  test("a new rest group is made when the last group is not one, and only then", () => {
    assert.deepEqual(reconcile([g("pair", "S9", "H9")], ["S9", "H9", "BJ"]), [g("pair", "S9", "H9"), g(REST, "BJ")]);
    // a rest group that is not last stays a group of its own; only the trailing one takes new cards
    assert.deepEqual(reconcile([g(REST, "S3"), g("single", "D4")], ["S3", "D4", "HT"]),
      [g(REST, "S3"), g("single", "D4"), g(REST, "HT")]);
  });

  test("a card given away as tribute and taken back in a return is kept where it was", () => {
    assert.deepEqual(reconcile([g(CUSTOM, "HT", "S3"), g(REST, "D2")], ["D2", "HT", "S3"]),
      [g(CUSTOM, "HT", "S3"), g(REST, "D2")]);
  });

  test("an empty hand is an empty arrangement", () => {
    assert.deepEqual(reconcile([g("pair", "S3", "S3")], []), []);
  });

  test("garbage is treated as absent", () => {
    const hand = ["S3", "HT", "HT"];
    for (const groups of [null, undefined, 7, "S3", {}, { cards: ["S3"] }, [null], [7, "x"], [{ kind: "pair" }],
      [{ kind: "pair", cards: "S3" }], [{ kind: "pair", cards: [1, null, {}, ["S3"]] }], [{ cards: [] }]]) {
      const out = reconcile(groups, hand);
      assert.deepEqual(out, [g(REST, ...hand)], JSON.stringify(groups));
    }
  });

  test("garbage inside good groups: bad codes drop, a missing kind becomes custom", () => {
    const out = reconcile([{ cards: ["S3", 5, null, "HT"] }, { kind: 3, cards: ["HT"] }, "junk"], ["HT", "HT", "S3", "D9"]);
    assert.deepEqual(out, [g(CUSTOM, "S3", "HT"), g(CUSTOM, "HT"), g(REST, "D9")]);
  });

  test("a garbage hand is no hand; garbage in the hand is no card", () => {
    assert.deepEqual(reconcile([g("pair", "S3", "S3")], null), []);
    assert.deepEqual(reconcile([g("pair", "S3", "S3")], "S3S3"), []);
    assert.deepEqual(reconcile([], ["S3", 4, null, "HT"]), [g(REST, "S3", "HT")]);
  });

  test("extra fields of stored groups are not carried over", () => {
    assert.deepEqual(reconcile([{ kind: "pair", cards: ["S3"], label: "x" }], ["S3"]), [g("pair", "S3")]);
  });

  test("any stale arrangement against any hand gives exactly the hand", () => {
    // a fixed pseudo-random sweep (an LCG, so the test is the same on every run)
    let seed = 12345;
    const next = (n) => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed % n; };
    const deck = ["S3", "H3", "S3", "HT", "D2", "LJ", "BJ", "CA", "HT", "S9"];
    const kinds = ["pair", "bomb", CUSTOM, REST, "single"];
    for (let round = 0; round < 300; round++) {
      const groups = Array.from({ length: next(5) }, () =>
        g(kinds[next(kinds.length)], ...Array.from({ length: next(5) }, () => deck[next(deck.length)])));
      const hand = Array.from({ length: next(12) }, () => deck[next(deck.length)]);
      const out = reconcile(groups, hand);
      assertArrangementOf(out, hand);
      assert.deepEqual(reconcile(out, hand), out, "reconciling twice changes nothing");
    }
  });
});

describe("makeColumn", () => {
  test("the column goes before a trailing rest group", () => {
    const groups = [g("pair", "S9", "H9"), g(REST, "S3", "HT", "D2")];
    assert.deepEqual(makeColumn(groups, ["HT", "S3"]),
      [g("pair", "S9", "H9"), g(CUSTOM, "HT", "S3"), g(REST, "D2")]);
  });

  test("the column goes last when there is no trailing rest group", () => {
    const groups = [g("pair", "S9", "H9"), g("single", "D2")];
    assert.deepEqual(makeColumn(groups, ["S9"]), [g("pair", "H9"), g("single", "D2"), g(CUSTOM, "S9")]);
  });

  test("groups it empties are dropped, the rest group included", () => {
    const groups = [g("single", "D2"), g("pair", "S9", "H9"), g(REST, "S3")];
    assert.deepEqual(makeColumn(groups, ["D2", "S3"]), [g("pair", "S9", "H9"), g(CUSTOM, "D2", "S3")]);
  });

  test("cards not in the arrangement are ignored, and none found changes nothing", () => {
    const groups = [g("pair", "S9", "H9"), g(REST, "S3")];
    assert.deepEqual(makeColumn(groups, ["BJ", "S3", "S3"]), [g("pair", "S9", "H9"), g(CUSTOM, "S3")]);
    const same = makeColumn(groups, ["BJ"]);
    assert.deepEqual(same, groups);
    assert.notEqual(same, groups);
    assert.deepEqual(makeColumn(groups, []), groups);
    assert.deepEqual(makeColumn(groups, null), groups);
  });

  test("duplicates: both copies move when both are asked for, one when one is", () => {
    const groups = [g("pair", "S3", "S3"), g(REST, "HT")];
    assert.deepEqual(makeColumn(groups, ["S3", "S3"]), [g(CUSTOM, "S3", "S3"), g(REST, "HT")]);
    assert.deepEqual(makeColumn(groups, ["S3"]), [g("pair", "S3"), g(CUSTOM, "S3"), g(REST, "HT")]);
  });

  test("duplicates in two groups: the later group gives its copy up first", () => {
    const groups = [g("bomb", "S5", "S5", "H5", "D5"), g(REST, "S5", "HT")];
    assert.deepEqual(makeColumn(groups, ["S5"]), [g("bomb", "S5", "S5", "H5", "D5"), g(CUSTOM, "S5"), g(REST, "HT")]);
  });

  test("the input is not changed", () => {
    const groups = [g("pair", "S9", "H9"), g(REST, "S3")];
    const before = JSON.stringify(groups);
    makeColumn(groups, ["S9", "S3"]);
    assert.equal(JSON.stringify(groups), before);
  });

  test("garbage arrangements give an arrangement", () => {
    assert.deepEqual(makeColumn(null, ["S3"]), []);
    assert.deepEqual(makeColumn([null, g(REST, "S3", 4)], ["S3"]), [g(CUSTOM, "S3")]);
  });
});

describe("moveToGroup", () => {
  test("cards join the end of the target group", () => {
    const groups = [g(CUSTOM, "S9"), g("single", "D2"), g(REST, "H9", "S3")];
    assert.deepEqual(moveToGroup(groups, ["H9"], 0), [g(CUSTOM, "S9", "H9"), g("single", "D2"), g(REST, "S3")]);
  });

  test("target indices are the input's, even when an emptied group before it goes", () => {
    const groups = [g("single", "D2"), g(CUSTOM, "S9"), g(REST, "H9")];
    assert.deepEqual(moveToGroup(groups, ["D2"], 1), [g(CUSTOM, "S9", "D2"), g(REST, "H9")]);
    // garbage before the target does not shift it either
    assert.deepEqual(moveToGroup([null, g(CUSTOM, "S9"), g(REST, "H9")], ["H9"], 1), [g(CUSTOM, "S9", "H9")]);
  });

  test("moving cards into the rest group", () => {
    const groups = [g("pair", "S9", "H9"), g(REST, "S3")];
    assert.deepEqual(moveToGroup(groups, ["S9", "H9"], 1), [g(REST, "S3", "S9", "H9")]);
  });

  test("a twin already in the target is not the copy taken", () => {
    const groups = [g("pair", "S3", "HT"), g(REST, "S3", "D2")];
    assert.deepEqual(moveToGroup(groups, ["S3"], 1), [g("pair", "HT"), g(REST, "S3", "D2", "S3")]);
  });

  test("a card only in the target moves to its end", () => {
    const groups = [g(CUSTOM, "S3", "HT", "D2")];
    assert.deepEqual(moveToGroup(groups, ["S3"], 0), [g(CUSTOM, "HT", "D2", "S3")]);
  });

  test("cards not in the arrangement are ignored", () => {
    const groups = [g(CUSTOM, "S9"), g(REST, "H9")];
    assert.deepEqual(moveToGroup(groups, ["BJ", "H9", "H9"], 0), [g(CUSTOM, "S9", "H9")]);
  });

  test("a target that is no group leaves the arrangement as it was", () => {
    const groups = [g(CUSTOM, "S9"), g(REST, "H9")];
    for (const target of [-1, 2, 1.5, "0", null, undefined, NaN]) {
      assert.deepEqual(moveToGroup(groups, ["H9"], target), groups, String(target));
    }
    assert.deepEqual(moveToGroup([null, g(REST, "H9")], ["H9"], 0), [g(REST, "H9")]);
    assert.deepEqual(moveToGroup([g(CUSTOM), g(REST, "H9")], ["H9"], 0), [g(REST, "H9")]);
  });

  test("the input is not changed", () => {
    const groups = [g(CUSTOM, "S9"), g(REST, "H9")];
    const before = JSON.stringify(groups);
    moveToGroup(groups, ["H9"], 0);
    assert.equal(JSON.stringify(groups), before);
  });
});

describe("flatten and arrangementKey", () => {
  test("flatten keeps display order and duplicates", () => {
    assert.deepEqual(flatten([g("pair", "S3", "S3"), g(REST, "BJ", "D2")]), ["S3", "S3", "BJ", "D2"]);
    assert.deepEqual(flatten([]), []);
  });

  test("flatten skips garbage", () => {
    assert.deepEqual(flatten(null), []);
    assert.deepEqual(flatten([null, { cards: ["S3", 1] }, { kind: REST }, g(REST, "HT")]), ["S3", "HT"]);
  });

  test("arrangementKey", () => {
    assert.equal(arrangementKey("ABC123", 2, 0), "guandan:arrange:ABC123:2:0");
    assert.notEqual(arrangementKey("ABC123", 2, 1), arrangementKey("ABC123", 2, 0));
    assert.notEqual(arrangementKey("ABC123", 1, 0), arrangementKey("ABC123", 2, 0));
  });
});

describe("swipe", () => {
  test("forward and backward swipes select the same inclusive range", () => {
    assert.deepEqual(swipe(new Set(), 2, 5, true), new Set([2, 3, 4, 5]));
    assert.deepEqual(swipe(new Set(), 5, 2, true), new Set([2, 3, 4, 5]));
  });

  test("a swipe that deselects leaves the indices outside the range alone", () => {
    assert.deepEqual(swipe(new Set([0, 1, 2, 3, 9]), 3, 1, false), new Set([0, 9]));
  });

  test("a swipe on one card, and over cards already in the wanted state", () => {
    assert.deepEqual(swipe(new Set([7]), 4, 4, true), new Set([4, 7]));
    assert.deepEqual(swipe(new Set([4, 5]), 4, 6, true), new Set([4, 5, 6]));
  });

  test("the input set is not changed", () => {
    const selected = new Set([1]);
    const out = swipe(selected, 0, 3, true);
    assert.deepEqual(selected, new Set([1]));
    assert.notEqual(out, selected);
  });

  test("garbage: no set is an empty one, indices that are no integers swipe nothing", () => {
    assert.deepEqual(swipe(null, 0, 1, true), new Set([0, 1]));
    assert.deepEqual(swipe(new Set([3]), 0, "2", true), new Set([3]));
    assert.deepEqual(swipe(new Set([3]), NaN, 2, true), new Set([3]));
  });
});

describe("toggleSingle", () => {
  test("several cards may be selected and deselected", () => {
    const one = toggleSingle(new Set([1]), 3, false);
    assert.deepEqual(one, new Set([1, 3]));
    assert.deepEqual(toggleSingle(one, 1, false), new Set([3]));
  });

  test("single only: selecting clears the others, deselecting leaves none", () => {
    assert.deepEqual(toggleSingle(new Set([1]), 3, true), new Set([3]));
    assert.deepEqual(toggleSingle(new Set([3]), 3, true), new Set());
    assert.deepEqual(toggleSingle(new Set([1, 2, 3]), 3, true), new Set());
    assert.deepEqual(toggleSingle(new Set(), 0, true), new Set([0]));
  });

  test("the input set is not changed", () => {
    const selected = new Set([1]);
    toggleSingle(selected, 1, false);
    toggleSingle(selected, 2, true);
    assert.deepEqual(selected, new Set([1]));
  });
});

describe("timerState", () => {
  const t0 = 1_700_000_000_000;

  test("untimed turns", () => {
    const untimed = { left: null, fraction: 1, warn: false, expired: false };
    for (const total of [0, -5, NaN, undefined]) assert.deepEqual(timerState(total, t0, t0 + 99_000), untimed);
  });

  test("at the start the whole time is left", () => {
    assert.deepEqual(timerState(30, t0, t0), { left: 30, fraction: 1, warn: false, expired: false });
  });

  test("seconds left round up", () => {
    assert.equal(timerState(30, t0, t0 + 1).left, 30);
    assert.equal(timerState(30, t0, t0 + 999).left, 30);
    assert.equal(timerState(30, t0, t0 + 1000).left, 29);
    assert.equal(timerState(30, t0, t0 + 29_999).left, 1);
  });

  test("fraction remaining", () => {
    assert.equal(timerState(20, t0, t0 + 5000).fraction, 0.75);
    assert.equal(timerState(20, t0, t0 + 10_000).fraction, 0.5);
  });

  test("the warning starts with exactly warnS seconds left and ends at 0", () => {
    assert.equal(timerState(30, t0, t0 + 24_999).warn, false);  // 5.001 s left: shows 6
    assert.equal(timerState(30, t0, t0 + 25_000).warn, true);  // 5 s left
    assert.equal(timerState(30, t0, t0 + 29_999).warn, true);
    assert.equal(timerState(30, t0, t0 + 30_000).warn, false);
    assert.equal(timerState(30, t0, t0 + 22_000, 8).warn, true);
    assert.equal(timerState(30, t0, t0 + 21_999, 8).warn, false);
  });

  test("expiry at the exact end, and never below zero after it", () => {
    assert.equal(timerState(30, t0, t0 + 29_999).expired, false);
    assert.deepEqual(timerState(30, t0, t0 + 30_000), { left: 0, fraction: 0, warn: false, expired: true });
    assert.deepEqual(timerState(30, t0, t0 + 90_000), { left: 0, fraction: 0, warn: false, expired: true });
  });

  test("a clock behind the start, or no start, counts as the turn just begun", () => {
    assert.deepEqual(timerState(30, t0, t0 - 5000), { left: 30, fraction: 1, warn: false, expired: false });
    assert.deepEqual(timerState(30, undefined, t0), { left: 30, fraction: 1, warn: false, expired: false });
  });

  test("a turn shorter than the warning warns from its start", () => {
    assert.equal(timerState(3, t0, t0).warn, true);
  });
});

describe("countdown", () => {
  test("whole seconds rounded up, never below zero", () => {
    assert.equal(countdown(10_000, 0), 10);
    assert.equal(countdown(10_000, 1), 10);
    assert.equal(countdown(10_000, 9_000), 1);
    assert.equal(countdown(10_000, 9_999), 1);
    assert.equal(countdown(10_000, 10_000), 0);
    assert.equal(countdown(10_000, 50_000), 0);
  });

  test("no numbers, no countdown", () => {
    assert.equal(countdown(undefined, 0), 0);
    assert.equal(countdown(10_000, NaN), 0);
  });
});

describe("talkAllowed", () => {
  const now = 100_000;

  test("under the rate a phrase may go, at the rate it may not", () => {
    assert.equal(talkAllowed([], now), true);
    assert.equal(talkAllowed([now - 1000, now - 500], now), true);
    assert.equal(talkAllowed([now - 1000, now - 500, now - 1], now), false);
  });

  test("the window is perMs wide, and a send exactly perMs ago has left it", () => {
    assert.equal(talkAllowed([now - 10_000, now - 5000, now - 1], now), true);
    assert.equal(talkAllowed([now - 9_999, now - 5000, now - 1], now), false);
    assert.equal(talkAllowed([1, 2, 3, 4, 5], now), true);  // old sends never count
  });

  test("the rate and window are options", () => {
    assert.equal(talkAllowed([now - 1], now, { rate: 1 }), false);
    assert.equal(talkAllowed([now - 1], now, { rate: 2 }), true);
    assert.equal(talkAllowed([now - 3000], now, { rate: 1, perMs: 2000 }), true);
    assert.equal(talkAllowed([now - 1000], now, { rate: 1, perMs: 2000 }), false);
  });

  test("sends stamped in the future count, garbage does not", () => {
    assert.equal(talkAllowed([now + 5000, now + 1, now], now), false);
    assert.equal(talkAllowed([null, "x", NaN, now - 1, now - 2], now), true);
    assert.equal(talkAllowed(null, now), true);
  });
});

describe("chosenPlay", () => {
  const fh = (key) => ({ kind: "play", cards: ["H2", "H3", "C3", "SQ", "CQ"], combo: { type: "full_house", key, size: 5 } });
  const sel = ["CQ", "H3", "H2", "SQ", "C3"];
  const hint = (combo, cards = fh("3").cards) => ({ action: { kind: "play", cards, combo } });

  test("the only play of the selection is the one", () => {
    assert.deepEqual(chosenPlay([fh("3")], sel, null), fh("3"));
  });

  test("no play, no choice", () => {
    assert.equal(chosenPlay([], sel, hint(fh("3").combo)), null);
    assert.equal(chosenPlay(null, sel, null), null);
  });

  test("several readings and no hint: the player picks", () => {
    assert.equal(chosenPlay([fh("Q"), fh("3")], sel, null), null);
  });

  test("several readings of the hint's own cards: the reading the hint named", () => {
    assert.deepEqual(chosenPlay([fh("Q"), fh("3")], sel, hint(fh("3").combo)), fh("3"));
    assert.deepEqual(chosenPlay([fh("Q"), fh("3")], sel, hint(fh("Q").combo)), fh("Q"));
  });

  test("a selection that is not the hint's cards, or a hint naming no reading of them, chooses nothing", () => {
    assert.equal(chosenPlay([fh("Q"), fh("3")], ["H2", "H3", "C3", "SQ", "DQ"], hint(fh("3").combo)), null);
    assert.equal(chosenPlay([fh("Q"), fh("3")], sel, hint({ type: "full_house", key: "9", size: 5 })), null);
    assert.equal(chosenPlay([fh("Q"), fh("3")], sel, hint(null)), null);
    assert.equal(chosenPlay([fh("Q"), fh("3")], sel, { action: { cards: "H2" } }), null);
  });
});

describe("finishingOrder: a deal's end lists the seats by place", () => {
  test("头游 first, 末游 last, whatever their seats", () => {
    assert.deepEqual(finishingOrder([2, 1, 3, 0]), [2, 1, 3, 0]);
    assert.deepEqual(finishingOrder([3, 0, 1, 2]), [3, 0, 1, 2]);
  });

  test("a seat the order does not name comes after the placed ones, in seat order", () => {
    assert.deepEqual(finishingOrder([1, 3, 0]), [1, 3, 0, 2]);
    assert.deepEqual(finishingOrder([2, 0]), [2, 0, 1, 3]);
  });

  test("no order (a deal not settled): seat order, each seat once", () => {
    assert.deepEqual(finishingOrder([]), [0, 1, 2, 3]);
    assert.deepEqual(finishingOrder(undefined), [0, 1, 2, 3]);
    assert.deepEqual(finishingOrder([1, 1, 9]), [1, 0, 2, 3]);
  });
});
