// The review graph's y-axis (src/guandan/server/static/review_graph.js): a few labelled gridlines in level points, 0
// among them, at a step that gives no more than five, each written as the review writes level points (signed, a
// true minus), with the decimals its step needs.
import assert from "node:assert/strict";
import { describe, test } from "node:test";

const { tickText, yTicks } = await import("../../src/guandan/server/static/review_graph.js");

describe("gridlines", () => {
  test("a deal that went from level to a 1-2 loss: whole level points, 0 among them", () => {
    assert.deepEqual(yTicks(-3.3, 0.3), { step: 1, values: [-3, -2, -1, 0] });
    assert.deepEqual(yTicks(-0.4, 3.4), { step: 1, values: [0, 1, 2, 3] });
    assert.deepEqual(yTicks(-2.75, 2.55), { step: 1, values: [-2, -1, 0, 1, 2] });
  });
  test("a range too wide for five whole points steps by two", () => {
    assert.deepEqual(yTicks(-3.6, 3.6), { step: 2, values: [-2, 0, 2] });
  });
  test("a narrow range steps by halves or quarters, never more than five lines", () => {
    assert.deepEqual(yTicks(-0.05, 0.55), { step: 0.25, values: [0, 0.25, 0.5] });
    assert.deepEqual(yTicks(-1.2, 0.2), { step: 0.25, values: [-1, -0.75, -0.5, -0.25, 0] });
    assert.deepEqual(yTicks(-1.3, 0.3), { step: 0.5, values: [-1, -0.5, 0] });
    // a flat deal (every value 0): the graph pads it to ±0.5, both ends a line of their own
    assert.deepEqual(yTicks(-0.5, 0.5), { step: 0.25, values: [-0.5, -0.25, 0, 0.25, 0.5] });
    assert.deepEqual(yTicks(-0.5, 0.5, 3), { step: 0.5, values: [-0.5, 0, 0.5] });
  });
  test("every range holding 0 has the zero line, and at most the lines asked for", () => {
    for (let lo = -4; lo <= 0; lo += 0.37) {
      for (let hi = 0.01; hi <= 4; hi += 0.41) {
        const { values } = yTicks(lo, hi);
        assert.ok(values.includes(0), `${lo}…${hi}: ${values}`);
        assert.ok(values.length >= 1 && values.length <= 5, `${lo}…${hi}: ${values}`);
        assert.ok(values.every((v) => v >= lo - 1e-9 && v <= hi + 1e-9), `${lo}…${hi}: ${values}`);
        assert.ok(values.every((v) => !Object.is(v, -0)));
      }
    }
  });
  test("a 火拼 deal's wide range still gets a few lines", () => {
    assert.deepEqual(yTicks(-12, 9), { step: 5, values: [-10, -5, 0, 5] });
    assert.deepEqual(yTicks(-34, 9), { step: 10, values: [-30, -20, -10, 0] });
  });
  test("an empty range is the zero line alone", () => {
    assert.deepEqual(yTicks(1, 1), { step: 1, values: [0] });
  });
});

describe("labels", () => {
  test("signed with a true minus, zero bare", () => {
    assert.equal(tickText(2, 1), "+2");
    assert.equal(tickText(-3, 1), "−3");
    assert.equal(tickText(0, 1), "0");
    assert.equal(tickText(0, 0.25), "0");
  });
  test("the decimals the step needs, the same on every line of a graph", () => {
    assert.deepEqual([-1, -0.5, 0, 0.5].map((v) => tickText(v, 0.5)), ["−1.0", "−0.5", "0", "+0.5"]);
    assert.deepEqual([0, 0.25, 0.5].map((v) => tickText(v, 0.25)), ["0", "+0.25", "+0.50"]);
  });
});
