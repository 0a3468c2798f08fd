// Both teams' levels as the replay lists and the replay's corner write them (src/guandan/server/static/common.js
// levelsText), in the words of the web catalogue itself (src/guandan/locale/LANG/LC_MESSAGES/web.po, read here and
// served by a stand-in fetch as /api/i18n/LANG): each team's name beside its level, and a line that wraps breaks only
// after the colon. The spaces are no-break; in Chinese a word joiner (U+2060) holds 队 to its number, as the server's
// PagePresenter.levels writes the table's log (tests/server/test_log_texts.py).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, test } from "node:test";

const store = new Map();
globalThis.location = { search: "", origin: "http://localhost", href: "http://localhost/" };
globalThis.localStorage = {
  getItem: (k) => (store.has(k) ? store.get(k) : null), setItem: (k, v) => store.set(k, String(v)),
  removeItem: (k) => store.delete(k), key: (i) => [...store.keys()][i] ?? null, get length() { return store.size; },
};
const MSGIDS = ["Team 1 {a} : Team 2 {b}", "Your team {a} : Opponents {b}"];
// the catalogue's one-line entries for MSGIDS
function catalogue(lang) {
  const po = readFileSync(new URL(`../../src/guandan/locale/${lang}/LC_MESSAGES/web.po`, import.meta.url), "utf8");
  return Object.fromEntries(MSGIDS.map((id) => {
    const found = new RegExp(`^msgid "${id.replace(/[{}]/g, "\\$&")}"\\nmsgstr "(.*)"$`, "m").exec(po);
    assert.ok(found, `${lang}: ${id}`);
    return [id, found[1]];
  }));
}
const CATALOGUE = { zh: catalogue("zh"), en: catalogue("en") };
globalThis.document = { documentElement: {}, querySelectorAll: () => [], getElementById: () => null };
globalThis.fetch = async (path) => {
  const asked = /^\/api\/i18n\/(\w+)$/.exec(path);
  return { ok: true, json: async () => (asked ? CATALOGUE[asked[1]] : {}) };
};
const { init, levelsText } = await import("../../src/guandan/server/static/common.js");

async function speaking(lang) {
  localStorage.setItem("guandan:lang", lang);
  await init();
}

const WJ = "\u2060", NB = "\u00a0";
// the places a line may break: an ordinary space, or between a Chinese character and a figure or Latin letter
const breaks = (text) => [...text.matchAll(/ |(?<=[\u4e00-\u9fff])(?=[0-9A-Za-z])|(?<=[0-9A-Za-z])(?=[\u4e00-\u9fff])/g)]
  .map((m) => m.index);

describe("both teams' levels", () => {
  test("in Chinese a word joiner holds 队 to its number, and no-break spaces each team to its level", async () => {
    await speaking("zh");
    assert.equal(levelsText(["2", "5"]), `队${WJ}1${NB}2${NB}: 队${WJ}2${NB}5`);
    assert.equal(levelsText(["T", "A"]), `队${WJ}1${NB}10${NB}: 队${WJ}2${NB}A`);  // 10, never the record's T
    assert.equal(levelsText(["3", "K"], 1), `我方${NB}K${NB}: 对方${NB}3`);  // the reader's team first
  });
  test("read with the joiners left out, the words are the catalogue's", async () => {
    await speaking("zh");
    assert.equal(levelsText(["2", "5"]).replaceAll(WJ, "").replaceAll(NB, " "), "队1 2 : 队2 5");
    assert.equal(levelsText(["A", "7"], 0).replaceAll(WJ, "").replaceAll(NB, " "), "我方 A : 对方 7");
  });
  test("in English the spaces are no-break and nothing else is added", async () => {
    await speaking("en");
    assert.equal(levelsText(["2", "5"]), `Team${NB}1${NB}2${NB}: Team${NB}2${NB}5`);
    assert.equal(levelsText(["9", "T"], 1), `Your${NB}team${NB}10${NB}: Opponents${NB}9`);
    assert.ok(!levelsText(["2", "5"]).includes(WJ));
  });
  test("the one place a line may break is the space after the colon, in either language", async () => {
    for (const lang of ["zh", "en"]) {
      await speaking(lang);
      for (const text of [levelsText(["2", "5"]), levelsText(["T", "A"], 0), levelsText(["Q", "J"], 1)]) {
        assert.deepEqual(breaks(text), [text.indexOf(":") + 1], `${lang}: ${text}`);
      }
    }
  });
});
