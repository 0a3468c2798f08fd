// A combo's name on the web (src/guandan/server/static/common.js comboName) as the presentation layer writes it,
// in each language: the catalogue served by the server is stood in for by a fetch that answers /api/i18n/LANG with
// the msgids the test needs, as the server's catalogue holds them (web.po), and /api/meta with nothing; the page
// the catalogue would be applied to is an empty stand-in.
import assert from "node:assert/strict";
import { describe, test } from "node:test";

const store = new Map();
globalThis.location = { search: "", origin: "http://localhost", href: "http://localhost/" };
globalThis.localStorage = {
  getItem: (k) => (store.has(k) ? store.get(k) : null), setItem: (k, v) => store.set(k, String(v)),
  removeItem: (k) => store.delete(k), key: (i) => [...store.keys()][i] ?? null, get length() { return store.size; },
};
const CATALOGUE = { zh: { "{bomb} ×{n}": "{bomb}×{n}" }, en: { "{bomb} ×{n}": "{bomb} ×{n}" } };
globalThis.document = { documentElement: {}, querySelectorAll: () => [], getElementById: () => null };
globalThis.fetch = async (path) => {
  const asked = /^\/api\/i18n\/(\w+)$/.exec(path);
  return { ok: true, json: async () => (asked ? CATALOGUE[asked[1]] : {}) };
};
const { comboName, COMBO_TYPE, init } = await import("../../src/guandan/server/static/common.js");

async function speaking(lang) {
  localStorage.setItem("guandan:lang", lang);
  await init();
}

describe("a bomb's size", () => {
  test("English keeps a space before ×, as the terminal and the review write it", async () => {
    await speaking("en");
    assert.equal(comboName({ type: COMBO_TYPE.BOMB, key: "9", size: 5 }), "bomb 9 ×5");
    assert.equal(comboName({ type: COMBO_TYPE.BOMB, key: "T", size: 4 }), "bomb 10 ×4");
  });
  test("Chinese writes the count against the rank, 炸弹 9×5, as the card counter writes a count", async () => {
    await speaking("zh");
    assert.equal(comboName({ type: COMBO_TYPE.BOMB, key: "9", size: 5 }), "炸弹 9×5");
    assert.equal(comboName({ type: COMBO_TYPE.PAIR, key: "9", size: 2 }), "对子 9");
  });
});
