// A replay's title in the lists (src/guandan/server/static/replay_title.js), from the summary the server keeps beside
// each record: who played whom (the reader's own seat as "You", their team first), how it ended (won or lost with the
// levels theirs first; a team's win when the reader's seat is not known; the levels alone when no team passed A) and
// how many deals. Run against stand-ins for the browser's location and localStorage, with no catalogue loaded: the
// words are the msgids, English.
import assert from "node:assert/strict";
import { describe, test } from "node:test";

const store = new Map();
globalThis.location = { search: "", origin: "http://localhost", href: "http://localhost/" };
globalThis.localStorage = {
  getItem: (k) => (store.has(k) ? store.get(k) : null), setItem: (k, v) => store.set(k, String(v)),
  removeItem: (k) => store.delete(k), key: (i) => [...store.keys()][i] ?? null, get length() { return store.size; },
};
const { replayTitle, seatNames, titleNamesReader } = await import("../../src/guandan/server/static/replay_title.js");

const BOTS = [["human", null], ["bot", "greedy"], ["bot", "greedy"], ["bot", "heuristic"]];
const summary = (extra) => ({ players: ["Ann", "greedy bot", "greedy bot", "heuristic bot"], kinds: BOTS, preset: "competition",
  ended: true, winner: 0, levels: ["A", "7"], deals: 14, ...extra });

describe("seat names", () => {
  test("a player by name, a bot by seat and strength, a nameless player as Player N, an unknown seat by its number", () => {
    assert.deepEqual(seatNames(summary()), ["Ann", "Bot 2 · greedy", "Bot 3 · greedy", "Bot 4 · heuristic"]);
    assert.deepEqual(seatNames({ players: ["", "b", "", ""], kinds: [["human", null], [null, null], ["bot", null], [null, null]] }),
      ["Player 1", "b", "Bot 3", "Seat 4"]);
  });
  test("names that read alike get their seat", () => {
    assert.deepEqual(seatNames({ players: ["greedy", "greedy", "x", "y"], kinds: Array(4).fill([null, null]) }),
      ["greedy (1)", "greedy (2)", "x", "y"]);
  });
});

// a team's name and its level are held together by no-break spaces; the line may break only after the colon
const nb = (text) => text.replace(/ /g, "\u00a0");

describe("titles", () => {
  test("the reader's team first, their seat as You, and their team's level named first", () => {
    assert.deepEqual(replayTitle(summary(), 0),
      { title: "You / Bot 3 · greedy vs Bot 2 · greedy / Bot 4 · heuristic", result: `Won · ${nb("Your team A :")} ${nb("Opponents 7")} · 14 deals` });
    assert.deepEqual(replayTitle(summary(), 1),
      { title: "You / Bot 4 · heuristic vs Ann / Bot 3 · greedy", result: `Lost · ${nb("Your team 7 :")} ${nb("Opponents A")} · 14 deals` });
  });
  test("with no seat of the reader's: North–South first, the winning team and both levels named as the table's badges name teams", () => {
    assert.deepEqual(replayTitle(summary({ winner: 1, levels: ["9", "A"] }), null),
      { title: "Ann / Bot 3 · greedy vs Bot 2 · greedy / Bot 4 · heuristic", result: `Team 2 won · ${nb("Team 1 9 :")} ${nb("Team 2 A")} · 14 deals` });
  });
  test("a match the deal cap ended: the levels, no winner", () => {
    assert.deepEqual(replayTitle(summary({ winner: null, levels: ["3", "5"], deals: 1 }), 1).result, `Levels: ${nb("Your team 5 :")} ${nb("Opponents 3")} · 1 deal`);
    assert.equal(replayTitle(summary({ ended: false, winner: null, levels: null, deals: null }), 0).result, "");
  });
});

describe("whose it is", () => {
  test("a title with the reader's seat says You: no other mark is needed; without it (imported, four bots) one is", () => {
    assert.equal(titleNamesReader({ summary: summary() }, 2), true);
    assert.equal(titleNamesReader({ summary: summary() }, 0), true);
    assert.equal(titleNamesReader({ summary: summary() }, null), false);
    assert.equal(titleNamesReader({ summary: summary() }, undefined), false);
    assert.equal(titleNamesReader({ summary: null }, 0), false);  // an old record's entry is titled "Replay" alone
  });
});
