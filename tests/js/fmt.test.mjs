// The web's sentences (src/guandan/server/static/common.js fmt) put no space between a value written in Chinese and the
// Chinese beside it, as the server's (guandan.i18n.fill) do: "等待座位2", "你进贡", but "等待 Alice" and "♠3 进贡", a
// space kept beside a value in Latin letters or symbols. Run with no catalogue loaded: the msgid is the template.
import assert from "node:assert/strict";
import { describe, test } from "node:test";

const store = new Map();
globalThis.location = { search: "", origin: "http://localhost", href: "http://localhost/" };
globalThis.localStorage = {
  getItem: (k) => (store.has(k) ? store.get(k) : null), setItem: (k, v) => store.set(k, String(v)),
  removeItem: (k) => store.delete(k), key: (i) => [...store.keys()][i] ?? null, get length() { return store.size; },
};
const { fmt } = await import("../../src/guandan/server/static/common.js");

describe("a value beside Chinese", () => {
  test("a value in Chinese takes no space beside the Chinese words", () => {
    assert.equal(fmt("等待 {who}", { who: "座位2" }), "等待座位2");
    assert.equal(fmt("{who} 进贡", { who: "你" }), "你进贡");
    assert.equal(fmt("等待 {name} 确认", { name: "张三" }), "等待张三确认");
    assert.equal(fmt("下一副：{who} 进贡", { who: "上家" }), "下一副：上家进贡");
  });
  test("a value in Latin letters, figures or symbols keeps its space", () => {
    assert.equal(fmt("等待 {who}", { who: "Alice" }), "等待 Alice");
    assert.equal(fmt("{who} 进贡", { who: "♠3" }), "♠3 进贡");
    assert.equal(fmt("{who} 进贡", { who: "座位2" }), "座位2 进贡");  // ends in a figure
    assert.equal(fmt("Waiting for {who}", { who: "座位2" }), "Waiting for 座位2");
  });
  test("only the edge beside Chinese is joined; a field used twice is filled twice", () => {
    assert.equal(fmt("{a} 和 {a}", { a: "你" }), "你和你");
    assert.equal(fmt("{a} vs {b}", { a: "你", b: "他" }), "你 vs 他");
  });
});
