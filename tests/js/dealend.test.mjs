// The table's words about a deal's end and its tribute (src/guandan/server/static/dealend.js): the result's headline,
// in each language, and a sentence cut around the seats' names so that a narrow line never breaks one. The catalogue
// served by the server is stood in for by a fetch that answers /api/i18n/LANG with the msgids the test needs, as
// web.po holds them, and /api/meta with nothing.
import assert from "node:assert/strict";
import { describe, test } from "node:test";

const store = new Map();
globalThis.location = { search: "", origin: "http://localhost", href: "http://localhost/" };
globalThis.localStorage = {
  getItem: (k) => (store.has(k) ? store.get(k) : null), setItem: (k, v) => store.set(k, String(v)),
  removeItem: (k) => store.delete(k), key: (i) => [...store.keys()][i] ?? null, get length() { return store.size; },
};
const CATALOGUE = {
  zh: { "Team {n}": "队{n}", "{team} +{n}": "{team}升{n}级" },
  en: { "Team {n}": "Team {n}", "{team} +{n}": "{team} +{n}" },
};
globalThis.document = { documentElement: {}, querySelectorAll: () => [], getElementById: () => null };
globalThis.fetch = async (path) => {
  const asked = /^\/api\/i18n\/(\w+)$/.exec(path);
  return { ok: true, json: async () => (asked ? CATALOGUE[asked[1]] : {}) };
};
const { init } = await import("../../src/guandan/server/static/common.js");
const { nameRuns, resultHeadline } = await import("../../src/guandan/server/static/dealend.js");

async function speaking(lang) {
  localStorage.setItem("guandan:lang", lang);
  await init();
}

const settled = (partnerPlace, upgrade, first = 1) => ({ type: "deal_settled", finish: [first, 0, 3, 2].slice(0, 4),
  partner_place: partnerPlace, upgrade, levels: ["2", "5"], next_declarer: first, notes: [] });

describe("the deal's headline", () => {
  test("the result and the levels the winners gain", async () => {
    await speaking("zh");
    assert.equal(resultHeadline(settled(2, 3, 0)), "1-2（双上） · 队1升3级");
    assert.equal(resultHeadline(settled(4, 1, 1)), "1-4（头游与末游） · 队2升1级");
    await speaking("en");
    assert.equal(resultHeadline(settled(3, 2, 2)), "1-3 (1st and 3rd) · Team 1 +2");
  });
  test("a deal that gains no level (A passed, the match won) says the result alone, never +0", async () => {
    await speaking("zh");
    assert.equal(resultHeadline(settled(2, 0, 0)), "1-2（双上）");
    await speaking("en");
    assert.equal(resultHeadline(settled(3, 0, 1)), "1-3 (1st and 3rd)");
  });
});

describe("a sentence cut around the seats' names", () => {
  const seats = ["小明", "机器人2·启发式", "机器人3·启发式", "机器人4·启发式"];
  const named = (runs) => runs.filter((r) => r.name).map((r) => r.text);
  const whole = (runs) => runs.map((r) => r.text).join("");

  test("every name is a run of its own, the text around it kept as it was", () => {
    const line = "进贡：机器人2·启发式 → 机器人3·启发式：小王";
    const runs = nameRuns(line, seats);
    assert.equal(whole(runs), line);
    assert.deepEqual(named(runs), ["机器人2·启发式", "机器人3·启发式"]);
    assert.deepEqual(runs.map((r) => r.name), [false, true, false, true, false]);
  });
  test("names at the sentence's start, side by side and in English", () => {
    assert.deepEqual(nameRuns("小明、机器人3·启发式进贡", seats),
      [{ text: "小明", name: true }, { text: "、", name: false }, { text: "机器人3·启发式", name: true },
        { text: "进贡", name: false }]);
    const en = ["Player 1", "Bot 2 · Heuristic", "Bot 3 · Heuristic", "Bot 4 · Heuristic"];
    assert.deepEqual(named(nameRuns("Player 1, Bot 3 · Heuristic pay tribute", en)), ["Player 1", "Bot 3 · Heuristic"]);
  });
  test("the longest name wins where two begin at one place; a sentence with none is one run", () => {
    const runs = nameRuns("Tribute: Bot 3 · Heuristic → Bot: Big Joker", ["Bot", "Bot 3 · Heuristic", null]);
    assert.deepEqual(named(runs), ["Bot 3 · Heuristic", "Bot"]);
    assert.deepEqual(nameRuns("Next deal", seats), [{ text: "Next deal", name: false }]);
    assert.deepEqual(nameRuns("", seats), []);
  });
});
