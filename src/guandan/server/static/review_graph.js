// The review graph's y-axis (replay.js drawGraph): which levels of expected level points get a labelled gridline,
// and how each is written. Pure functions, no page: tests/js/review_graph.test.mjs runs them in node.

// the gaps between gridlines, in level points, smallest first: a deal's values lie within about ±3 (a 1-2 finish
// either way), a 火拼 deal's points may run further
const STEPS = [0.25, 0.5, 1, 2, 5, 10];

/**
 * The gridlines of a graph whose y-axis runs from `bottom` to `top` (level points, bottom < top): every multiple of
 * the smallest step in STEPS that gives at most `most` of them in the range, ascending; 0 is one whenever the range
 * holds it (the graph's always does). `{step, values}`: the step decides how many decimals a label takes (tickText).
 */
export function yTicks(bottom, top, most = 5) {
  if (!(top > bottom)) return { step: 1, values: [0] };
  for (const step of STEPS) {
    // a hair's leeway at either end: a range of exactly −0.5…+0.5 holds both ends
    const first = Math.ceil(bottom / step - 1e-9), last = Math.floor(top / step + 1e-9);
    if (last - first + 1 <= most || step === STEPS[STEPS.length - 1]) {
      const values = [];
      for (let k = first; k <= last; k++) values.push(Number((k * step).toFixed(2)) || 0);  // || 0: no −0
      return { step, values };
    }
  }
  return { step: 1, values: [0] };  // not reached: the last step always answers
}

/**
 * A gridline's label in level points as the review's words write them (review/words.py points: signed, a true minus
 * "−"), with only the decimals its step needs: "+2", "−0.5", "+0.25"; the zero line is "0".
 */
export function tickText(value, step) {
  if (value === 0) return "0";
  const decimals = Number.isInteger(step) ? 0 : Number.isInteger(step * 2) ? 1 : 2;
  return `${value < 0 ? "−" : "+"}${Math.abs(value).toFixed(decimals)}`;
}
