// Step through a finished match with every hand shown (the match is over: nothing is secret any more).
// The server has dealt every deal again from the revealed seed: its verdicts are shown below the table.
import {
  ACTION_KIND as K, api, cardNode, cardValue, comboName, el, errorText, eventLines, fmt, hostTokenFor, init, lang,
  levelsText as sharedLevelsText, placeName, playNodes, replayTokenFor, t, tokenFor,
} from "./common.js";
import { tickText, yTicks } from "./review_graph.js";
import { EVENT_TYPE as E } from "./vocab.js";

// /r/CODE/review/DEAL: a finished deal of a match still in play and the review of this browser's seat in it, from
// the table's deal-end panel (server/deal_reviews.py) — the match's deals so far, without the seed's fair-deal
// check (the seed deals the ones still to come) and with no export or sharing (it is no replay yet)
const livePath = location.pathname.match(/^\/r\/([^/]+)\/review\/(\d+)$/);
const live = livePath ? { code: livePath[1].toUpperCase(), deal: Number(livePath[2]) } : null;
if (live) live.token = tokenFor(live.code) || "-";  // none: refused as not a player, in words
const id = live ? null : location.pathname.split("/").pop();
await init();
let data;
try {
  data = live ? await api(`/api/rooms/${live.code}/deals/${live.deal}/replay`, { token: live.token })
    : await api(`/api/replays/${id}`);
} catch (e) {
  // a link to no replay, or a record that no longer replays: said where the match's result would be
  document.getElementById("match-summary").textContent = errorText(e);
  throw e;
}
const $ = (x) => document.getElementById(x);
document.title = `${live ? fmt("Review deal {n}", { n: live.deal + 1 }) : t("Replay")} · ${t("Guandan")}`;
$("replay-id").textContent = id || "";
$("replay-id").title = id || "";
if (live) {
  document.body.dataset.live = "true";
  for (const x of ["export", "fair", "sharing"]) $(x).classList.add("hidden");
  // the page is a deal's review, not the match's replay: its heading says so, and the match has no result yet (the
  // line under it says which deal this is)
  const heading = document.querySelector("#replay-head [data-t=Replay]");
  heading.dataset.t = "Review (复盘)";
  heading.textContent = t(heading.dataset.t);
  document.querySelector("#match > strong[data-t]").classList.add("hidden");
} else $("export").href = `/api/replays/${id}/record`;
let deal = live ? live.deal : 0, step = 0;
let endClosed = null;  // the deal whose deal-end panel was closed: it stays closed until the step changes

// Every line people read comes from the server in both languages (server/replays.py): seat names told apart
// (a bot is "Bot 2 · Greedy"), the teams, each deal's opening and result, the match's end.
const said = (texts) => (texts && (texts[lang()] || texts.en)) || [];
function name(s) { return (data.seats[s] && said(data.seats[s].name)) || fmt("Seat {n}", { n: s + 1 }); }
const team = (s) => s % 2;
const teamName = (k) => said(data.teams[k])[0];
const rk = (r) => (r === "T" ? "10" : r);  // 10 is written "10", never the record's T
// Both teams' levels, each after its name (common.js levelsText). A deal's review from the table is that player's
// seat's: its own team first, as the terminal client writes them ("我方 2 : 对方 5"). A replay belongs to no seat:
// Team 1's first, the teams named as the table's badges name them ("队1 2 : 队2 5").
const viewer = live ? data.seat : null;
const levelsText = (levels) => sharedLevelsText(levels, viewer === null || viewer === undefined ? null : viewer % 2);

// the whole name is the title too: a narrow place ends a long word in an ellipsis (replay.css)
const seatName = (s, extra = {}) => el("span", { ...extra, class: `seat-name team-${team(s)} ${extra.class || ""}`, title: name(s) },
  name(s));

// the match at the top: how it ended, and who sat where in which team (the table's team colours)
$("match-summary").replaceChildren(...(live ? [el("div", { class: "live-deal" }, fmt(
  "Deal {n} of a match in play: your decisions in it, as the engine judges them from what you knew then",
  { n: live.deal + 1 }))] : []), ...said(data.summary.text).map((line) => el("div", {}, line)));
$("teams").replaceChildren(...[0, 1].map((k) => el("div", { class: `team-line team-${k}`, "data-team": k },
  el("span", { class: "team-label" }, teamName(k)), ...[k, k + 2].map((s) => seatName(s, { "data-seat": s })))));

// the deal list is the deal selector: each deal's opening (level, levels before) and result (levels after, points)
$("deals").replaceChildren(...data.deals.map((d, i) => el("li", {}, el("button", {
  class: `deal-head${d.result ? ` won-${d.result.winners}` : ""}`, "data-deal": i, onclick: () => goDeal(i) },
  ...said(d.header).map((line, j) => el("div", { class: j ? "deal-result" : "deal-title" }, line))))));

function goDeal(i) { deal = i; step = 0; endClosed = null; showReview(); show(); }

// Who sees it: private (listed to its players; the link opens it for anyone who has it) until one of its
// players — this browser holds the seat token it played with, or the token its import was answered with —
// marks it public; a match of four bots has no player: the room's creator (its host token) is its owner.
const room = data.meta && data.meta.room ? data.meta.room : null;
const botMatch = !!(data.meta && Array.isArray(data.meta.seats) && data.meta.seats.every((s) => s.kind === "bot"));
const owner = replayTokenFor(id) || (room ? tokenFor(room) || (botMatch ? hostTokenFor(room) : null) : null);
function showVisibility() {
  document.body.dataset.public = String(data.public);
  $("visibility").textContent = data.public ? t("This replay is public: everyone sees it in the lobby's list")
    : t("This replay is private: only its players see it listed; anyone with the link can open it");
  const btn = $("visibility-btn");
  btn.classList.toggle("hidden", !owner);
  btn.textContent = data.public ? t("Make private") : t("Make public");
}
$("visibility-btn").onclick = async () => {
  $("visibility-error").textContent = "";
  try {
    data.public = (await api(`/api/replays/${id}/public`, { token: owner, public: !data.public })).public;
  } catch (e) { $("visibility-error").textContent = errorText(e); }
  showVisibility();
};
showVisibility();

// the fair-deal check (server/replays.py): every deal's hands and commitment recomputed from the seed
const fair = data.fair;
if (fair) {
  $("fair").classList.add(fair.verified ? "ok" : "bad");
  document.body.dataset.fair = fair.verified ? "verified" : "mismatch";
  $("fair-summary").replaceChildren(...eventLines(fair).map((line, i) => el("div", i ? { class: "commitment" } : {}, line)));
}

function showFair(d) {
  if (!d.check) return;
  const lines = eventLines(d.check).map((line) => el("div", { class: d.check.verified ? "" : "error" }, line));
  if (d.commitment) lines.push(el("div", { class: "commitment", title: d.commitment }, `${t("Deal commitment")} ${d.commitment}`));
  $("fair-deal").replaceChildren(...lines);
}

function show() {
  const d = data.deals[deal];
  const st = d.steps[step];
  const last = d.steps.length - 1;
  showFair(d);
  $("step").max = last;
  $("step").value = step;
  // steps counted as the review counts moves: step n shows the deal's move n (第n手) in the centre, step 0 its opening
  $("step-label").textContent = step ? fmt("Move {n} of {total}", { n: step, total: last })
    : fmt("Start · {total} moves", { total: last });
  document.body.dataset.step = step;
  document.body.dataset.deal = deal;
  showDealList();
  for (let s = 0; s < 4; s++) {
    const hand = sorted(st.hands[s], d.level);
    const box = $(`r${s}`);
    box.classList.remove("team-0", "team-1");
    box.classList.add(`team-${team(s)}`);
    box.classList.toggle("to-move", st.to_move === s);
    box.replaceChildren(el("div", { class: "name" }, seatName(s), ` (${hand.length})`, st.to_move === s ? " ◀" : ""),
      el("div", { class: "cards", "data-hand": s }, hand.map((c) => cardNode(c, d.level, { small: true }))));
  }
  const a = st.action;
  const what = { [K.PLAY]: () => comboName(a.combo), [K.PASS]: () => t("Pass"), [K.TRIBUTE]: () => t("Tribute"),
    [K.RETURN]: () => t("Return a card"), [K.CHOOSE]: () => t("Choose a tribute card") };
  // a play as its event shows it (the order its combination reads, the wildcards marked); another action's cards as they are
  const played = a && a.kind === K.PLAY ? st.events.find((e) => e.type === E.PLAY) : null;
  const beat = toBeat(d, step);
  $("raction").replaceChildren(...(a ? [
    // a full-width colon ("要压的牌：") takes no space after it, as the server's sentences write it
    beat ? el("div", { class: "to-beat", "data-testid": "to-beat" }, t("To beat:").replace(/:$/, ": "), seatName(beat.seat),
      ` ${comboName(beat.combo)}`, el("div", { class: "cards" }, playNodes(beat, { small: true }))) : null,
    el("div", { class: "move", "data-testid": "move" }, seatName(a.seat), ` ${what[a.kind]()}`,
      el("div", { class: "cards", "data-testid": "action-cards" },
        played ? playNodes(played) : (a.cards || []).map((c) => cardNode(c, d.level)))),
  ].filter(Boolean) : [el("div", {}, said(d.title)[0])]));
  // the deal's level as the table writes it ("级牌：2", "Level: 2"), then both teams', each named (levelsText)
  $("rinfo").replaceChildren(el("div", {}, fmt("Level: {level}", { level: rk(d.level) })),
    el("div", { id: "rlevels", title: t("Levels") }, levelsText(d.levels)));
  // the presenter's lines of this step's events, bar the one the centre shows already (the play or pass, the deal's
  // opening); an event with nothing to say is not listed
  const shown = a ? [E.PLAY, E.PASS] : [E.DEAL_START];
  $("rlog").replaceChildren(...st.events.filter((e) => !shown.includes(e.type))
    .flatMap((e) => eventLines(e).map((line) => el("li", {}, line))));
  $("to-start").disabled = step === 0;
  $("prev").disabled = step === 0;
  $("next").disabled = step === last;
  $("to-end").disabled = step === last;
  showDealEnd(d, st, step === last && d.result && endClosed !== deal);
  showVerdict();
}

// The play that step's move had to beat (the previous step's `top`, replays.py), as its event shows it: a pass or a
// play is judged against it, and the step itself shows only the move. None for a lead, and for a tribute or a return.
function toBeat(d, at) {
  const a = d.steps[at].action;
  const before = at > 0 ? d.steps[at - 1].top : null;
  if (!a || (a.kind !== K.PLAY && a.kind !== K.PASS) || before === null || before === undefined) return null;
  return d.steps[before].events.find((e) => e.type === E.PLAY) || null;
}

// the current deal marked in the list, scrolled into the list's view when it changes (the list only: the
// page stays where the reader has it)
let listed = null;
function showDealList() {
  const list = $("deals");
  for (const b of list.querySelectorAll(".deal-head")) {
    const on = Number(b.dataset.deal) === deal;
    b.setAttribute("aria-current", on ? "true" : "false");
    if (on && listed !== deal) {
      const at = b.getBoundingClientRect().top - list.getBoundingClientRect().top;
      if (at < 0 || at + b.offsetHeight > list.clientHeight) list.scrollTop += at;
    }
  }
  listed = deal;
}

function sorted(cards, level) { return [...cards].sort((x, y) => cardValue(x, level) - cardValue(y, level)); }

// The end of a deal, as the table shows it: every hand as it remained (摊牌), the finishing order with the
// places, the settlement in words and both teams' new levels; at the last deal, how the match ended.
function showDealEnd(d, st, open) {
  const box = $("deal-end");
  document.body.dataset.dealEnd = open ? "open" : "";
  $("rtable").classList.toggle("ended", Boolean(open));
  box.classList.toggle("hidden", !open);
  if (!open) { box.replaceChildren(); return; }
  const r = d.result;
  const rows = r.finish.map((s, i) => el("li", { class: `end-hand team-${team(s)}`, "data-end-hand": s },
    el("span", { class: "place" }, placeName(i + 1)), seatName(s), el("span", { class: "count" }, `(${st.hands[s].length})`),
    el("span", { class: "cards" }, sorted(st.hands[s], d.level).map((c) => cardNode(c, d.level, { small: true })))));
  const levels = el("div", { class: "end-levels" }, el("span", {}, t("Levels")),
    ...[0, 1].map((k) => el("span", { class: `team-level team-${k}`, "data-team": k }, `${teamName(k)} `,
      el("strong", {}, rk(r.levels[k])))));
  const lastDeal = deal === data.deals.length - 1;
  box.replaceChildren(...[
    el("div", { class: "end-title", id: "deal-end-title" }, fmt("End of deal {n}", { n: deal + 1 })),
    el("div", { class: "end-order-title" }, t("Finishing order")),
    el("ol", { class: "end-hands" }, rows),
    el("div", { class: "end-settlement" }, said(r.text).map((line) => el("div", { class: "settlement" }, line))),
    levels,
    lastDeal ? el("div", { class: "end-match" }, said(data.summary.text).map((line) => el("div", {}, line))) : null,
    el("div", { class: "end-buttons" },
      lastDeal ? null : el("button", { id: "next-deal", class: "primary", onclick: () => goDeal(deal + 1) }, t("Next deal")),
      el("button", { id: "deal-end-close", onclick: () => { endClosed = deal; show(); } }, t("Close"))),
  ].filter(Boolean));
}

// --- the engine's review (复盘) of one seat: asked for here, worked out by the server in the background,
// kept with the replay; whoever may open the replay sees it (server/reviews.py).
const askedSeat = new URLSearchParams(location.search).get("review");  // ?review=SEAT (0–3): the table's link
const asked = askedSeat === null ? NaN : Number(askedSeat);
const REVIEW = { seat: [0, 1, 2, 3].includes(asked) ? asked : 0, asked: [0, 1, 2, 3].includes(asked), states: {}, timer: null };
if (live) { REVIEW.seat = data.seat; REVIEW.asked = true; }  // a seat reviews its own decisions only
const seatSel = $("review-seat");
for (let s = 0; s < 4; s++) seatSel.append(el("option", { value: s }, `${s + 1} · ${name(s)}`));
seatSel.value = String(REVIEW.seat);
seatSel.disabled = !!live;
seatSel.onchange = () => { REVIEW.seat = Number(seatSel.value); showReview(); show(); };
const liveReview = live ? `/api/rooms/${live.code}/deals/${live.deal}/review` : null;
async function askReview() {
  $("review-error").textContent = "";
  try { await (live ? api(liveReview, { token: live.token }) : api(`/api/replays/${id}/reviews`, { seat: REVIEW.seat })); }
  catch (e) { $("review-error").textContent = errorText(e); }  // busy, rate_limited: the server's text says which
  await pollReviews();
}
$("review-btn").onclick = askReview;

// a decision's label and, when a better move was found, what the move played cost in level points: the review's
// own words (cost_text), as its lines say it; a review stored before it carried them is worded here the old way
const verdictText = (d) => (d.cost_text || (d.loss > 0
  ? fmt("{label}: costs about {loss} level points (± {se})", { label: d.label_text, loss: d.loss.toFixed(2), se: d.se.toFixed(2) })
  : d.label_text));
// level points as the review's words write them (review/words.py points): signed, two decimals, a true minus
const signed = (x) => { const v = Number(x.toFixed(2)); return `${v < 0 ? "−" : "+"}${Math.abs(v).toFixed(2)}`; };
const percent = (x) => (x === null || x === undefined ? "–" : `${Math.round(x)}%`);

// the review of the chosen seat in the page's language, once it is done
function reviewed() {
  const st = REVIEW.states[REVIEW.seat];
  return st && st.status === "done" ? (st.review[lang()] || st.review.en) : null;
}

async function pollReviews(first = false) {
  clearTimeout(REVIEW.timer);
  let got;
  try { got = await (live ? api(liveReview, { token: live.token, ask: false }) : api(`/api/replays/${id}/reviews`)); }
  catch (e) { $("review-error").textContent = errorText(e); return; }
  // a deal's review never asked for is "none" (looking asks nothing): as a replay's seat not asked for, absent
  REVIEW.states = Object.fromEntries(got.reviews.filter((r) => r.status !== "none").map((r) => [r.seat, r]));
  if (first && !REVIEW.asked && got.reviews.length && !REVIEW.states[REVIEW.seat]) {
    const done = got.reviews.find((r) => r.status === "done") || got.reviews[0];
    REVIEW.seat = done.seat; seatSel.value = String(done.seat);
  }
  showReview(); show();
  if (first && location.hash === "#review") $("review").scrollIntoView();
  // the table's link to a player's review (?review=SEAT#review) was the tap that asks for it: asked at once, not
  // after a second tap on "Review this seat" (a seat already asked for, a reload, asks nothing more)
  if (first && REVIEW.asked && location.hash === "#review" && !REVIEW.states[REVIEW.seat]) { await askReview(); return; }
  if (got.reviews.some((r) => r.status === "queued" || r.status === "running")) REVIEW.timer = setTimeout(pollReviews, 1000);
}

function showReview() {
  const st = REVIEW.states[REVIEW.seat];
  const status = st ? st.status : "none";
  document.body.dataset.review = status;
  $("review-btn").classList.toggle("hidden", status === "done" || status === "queued" || status === "running");
  $("review-btn").textContent = status === "failed" ? t("Ask again") : t("Review this seat");
  const bar = $("review-progress");
  bar.classList.toggle("hidden", status !== "running");
  if (status === "running" && st.total) { bar.max = st.total; bar.value = st.done; } else bar.removeAttribute("value");
  $("review-status").textContent = {
    none: t("The engine goes over every decision of the seat, from what it knew then"),
    queued: fmt("Queued; reviews ahead: {n}", { n: st && st.ahead }),
    running: st && st.total ? fmt("Reviewing… decisions: {done} / {total}", st) : t("Reviewing…"),
    failed: t("The review could not be made"),
    done: "",
  }[status];
  const r = reviewed();
  $("review-body").classList.toggle("hidden", !r);
  if (!r) return;
  const labels = ["good", "inaccuracy", "mistake", "blunder"];
  const tally = labels.map((l) => el("span", { class: `verdict ${l}` }, `${t(LABEL_WORDS[l])} ${r.labels[l] || 0}`));
  const dealRow = r.deals.find((x) => x.deal === deal);
  $("review-summary").replaceChildren(
    el("span", { class: "accuracy" }, `${t("Accuracy")} ${percent(r.accuracy)}`),
    // a deal the review has no row for (an earlier deal beside a finished deal's review from the table) has no
    // accuracy of its own: left out, where a bare null would have been written
    ...(dealRow ? [el("span", {}, `${t("This deal")} ${percent(dealRow.accuracy)}`)] : []),
    ...tally);
  // what the numbers are, for a player who has not read docs/review-format.md (the command's review ends on the same)
  $("review-notes").replaceChildren(
    el("div", {}, t("Level points: the levels a deal is expected to bring the seat's team, from +3 (a 1-2 finish) to −3 (the other team's 1-2 finish). Accuracy 100% is every decision as good as the best found.")),
    el("div", {}, fmt("How it was worked out: for each decision the engine dealt the hidden cards {worlds} ways that fit what the seat could see then, and played each candidate move out; ± is the margin of that sampling (one standard error).",
      r.settings)));
  // only the decisions labelled an inaccuracy or worse (a review stored before the server left the good ones out
  // may hold some): a move labelled good is no costly decision
  const worse = (list) => list.filter((c) => c.label !== "good");
  const ofDeal = dealRow ? worse(dealRow.costliest) : [];
  const ofMatch = worse(r.costliest);
  const costly = ofDeal.length ? ofDeal : ofMatch;
  // a deal on screen with none: said of the deal, and the match's listed under the match's title (under a bare
  // "Costliest decisions" beside the deal on screen, they read as that deal's)
  const dealNone = !ofDeal.length && ofMatch.length > 0;
  $("review-costly-deal").classList.toggle("hidden", !dealNone);
  $("review-costly-deal").textContent = dealNone ? t("No decision of this deal was an inaccuracy, a mistake or a blunder") : "";
  $("review-costly-title").textContent = ofDeal.length ? t("Costliest decisions of this deal")
    : dealNone ? t("Costliest decisions of the match") : t("Costliest decisions");
  $("review-costly").replaceChildren(...(costly.length ? costly.map((c) => el("li", {},
    el("a", { href: "#", class: `verdict ${c.label}`, onclick: (ev) => { ev.preventDefault(); jump(c.deal, stepOf(c), true); } },
      c.text))) : [el("li", { class: "muted" }, t("No decision was an inaccuracy, a mistake or a blunder"))]));
  drawGraph(r, dealRow);
}

// the step that shows a decision's move (the review's "move n" of a deal, its action n − 1): the move in the centre,
// the seat's hand as it is after it
const stepOf = (d) => d.action + 1;

// the words of a label come from the catalogue (the review's own text is in its stored language)
const LABEL_WORDS = { good: "Good", inaccuracy: "Inaccuracy", mistake: "Mistake", blunder: "Blunder" };

// `reveal`: the table is brought into view, as a costliest decision's link asks (below)
function jump(toDeal, toStep, reveal = false) {
  deal = toDeal; step = toStep; endClosed = null;
  showReview(); show();
  if (reveal) revealTable();
}

// A costliest decision's link lies below the table, a screen or more on an upright phone, where a step shown out of
// sight reads as a tap that did nothing: the table is scrolled to just under the sticky step controls (which cover the
// page's top), unless it is wholly in view already (on a desktop the page stays where it is).
function revealTable() {
  const table = $("rtable").getBoundingClientRect();
  const clear = Math.max(0, document.querySelector(".replay-page .controls").getBoundingClientRect().bottom);
  // within a pixel is in view: a scroll position is whole pixels, the boxes above the table may end between two
  if (table.top >= clear - 1 && table.bottom <= innerHeight + 1) return;
  scrollBy(0, table.top - clear - 4);
}

const SVG = "http://www.w3.org/2000/svg";
function svg(tag, attrs = {}) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  return node;
}

// The evaluation over the deal: the expected level points of the move played (solid) and of the best
// move found (dashed), one point per decision, coloured by its label; a click goes to the nearest position. The
// y-axis says what a height is: a few gridlines labelled in level points at its left (0 among them, review_graph.js),
// and over them the axis's name, in a band of its own above the plot that no curve reaches.
function drawGraph(r, dealRow) {
  const g = $("review-graph");
  g.replaceChildren();
  g.onclick = null;
  const W = g.clientWidth || 600, H = g.clientHeight || 130;  // drawn in the element's own pixels: round dots
  g.setAttribute("viewBox", `0 0 ${W} ${H}`);
  $("review-legend").textContent = t("Evaluation, expected level points: the move played (solid) and the best found (dashed)");
  if (!dealRow || !dealRow.graph.length) return;
  const steps = data.deals[deal].steps.length - 1 || 1;
  const values = dealRow.graph.flatMap((p) => [p[1], p[2]]).concat([0]);
  const lo = Math.min(...values), hi = Math.max(...values), pad = (hi - lo) * 0.1 || 0.5;
  const bottom = lo - pad, top = hi + pad;
  const TOP = 18, FOOT = 8;  // the axis name's band above the plot; room under it for the lowest label
  const ticks = yTicks(bottom, top);
  const y = (v) => TOP + ((top - v) / (top - bottom)) * (H - TOP - FOOT);
  const labels = ticks.values.map((v) => {
    const label = svg("text", { x: 0, y: y(v) + 4, class: "tick", "text-anchor": "end", "data-value": v });
    label.textContent = tickText(v, ticks.step);
    g.append(label);
    return label;
  });
  // the plot starts right of the widest label, measured as drawn (a label's width in its font, estimated where the
  // graph is not laid out)
  const widest = Math.max(...labels.map((n) => n.getComputedTextLength() || n.textContent.length * 7));
  const left = Math.ceil(widest) + 8;
  for (const n of labels) n.setAttribute("x", left - 4);
  const name = svg("text", { x: 2, y: 12, class: "axis-name" });
  name.textContent = t("Expected level points");
  g.append(name);
  const x = (i) => left + 4 + (i / steps) * (W - left - 12);
  for (const v of ticks.values) {
    g.append(svg("line", { x1: left, x2: W, y1: y(v), y2: y(v), class: v === 0 ? "zero" : "grid" }));
  }
  REVIEW.x = x;
  g.append(svg("line", { x1: x(step), x2: x(step), y1: TOP - 4, y2: H, class: "now" }));  // under the axis name
  const line = (k, cls) => svg("polyline", { points: dealRow.graph.map((p) => `${x(p[0] + 1)},${y(p[k])}`).join(" "), class: cls });
  g.append(line(2, "best"), line(1, "played"));
  const byIndex = Object.fromEntries(r.decisions.filter((d) => d.deal === deal).map((d) => [d.action, d]));
  for (const p of dealRow.graph) {
    const d = byIndex[p[0]];
    const dot = svg("circle", { cx: x(p[0] + 1), cy: y(p[1]), r: d && d.label !== "good" ? 5 : 3,
      class: `dot ${d ? d.label : "good"}`, "data-step": p[0] + 1 });
    const title = svg("title");
    title.textContent = d ? `${d.text} · ${verdictText(d)}` : "";
    dot.append(title);
    g.append(dot);
  }
  // a click or tap anywhere on the graph goes to the decision nearest it across: a dot a few pixels wide, one beside
  // the next, is no target for a finger
  g.onclick = (ev) => {
    const at = ev.clientX - g.getBoundingClientRect().left;
    const near = dealRow.graph.reduce((a, b) => (Math.abs(x(b[0] + 1) - at) < Math.abs(x(a[0] + 1) - at) ? b : a));
    jump(deal, near[0] + 1);
  };
}

// The reviewed seat's decision shown at this step (the move in the centre): its label, the loss, why, and the better
// move, whose cards are marked where they are now — in the seat's hand, or among the cards it played (the centre's).
function showVerdict() {
  const box = $("review-move");
  const r = reviewed();
  if (!r) { box.replaceChildren(); return; }
  const now = document.querySelector("#review-graph .now");
  if (now && REVIEW.x) { now.setAttribute("x1", REVIEW.x(step)); now.setAttribute("x2", REVIEW.x(step)); }
  const d = r.decisions.find((x) => x.deal === deal && stepOf(x) === step);
  document.body.dataset.verdict = d ? d.label : "";
  if (!d) {
    box.replaceChildren(el("span", { class: "muted" }, t("Step to a decision of this seat (a point of the graph) to see its verdict")));
    return;
  }
  const parts = [el("div", {}, `${fmt("This move: {move}", { move: `${name(d.seat)} · ${d.text}` })} `,
    // the cost in words, in level points, as the costliest decisions say it: a bare "−0.75" beside the better move's
    // value ("+2.25") read as a gap of three points, and "loss 0.75" had no unit
    el("span", { class: `verdict ${d.label}` }, verdictText(d)))];
  if (d.reason_text) parts.push(el("div", { class: "reason" }, d.reason_text));
  const better = d.loss > 0 && JSON.stringify(d.best.action) !== JSON.stringify(d.played);
  if (better) {
    parts.push(el("div", { class: "better-move" }, fmt("Better: {move}", { move: d.best.text })));
    // the two values the cost is the gap between, so that "0.50 level points" reads against what was at stake
    parts.push(el("div", { class: "expected" }, fmt(
      "Expected level points for the team: {played} after this move, {best} after the better one",
      { played: signed(d.value), best: signed(d.best.value) })));
  }
  box.replaceChildren(...parts);
  const hand = document.querySelector(`[data-hand="${d.seat}"]`);
  const played = document.querySelector("#raction [data-testid=action-cards]");
  if (!hand || !better) return;
  // the cards played are in the centre now: each of the better move's is looked for in the hand, then there
  const free = [hand, played].flatMap((b) => (b ? [...b.querySelectorAll(".card")] : []));
  for (const c of d.best.action.cards || []) {
    const i = free.findIndex((n) => n.dataset.card === c);
    if (i >= 0) { free[i].classList.add("better"); free.splice(i, 1); }
  }
}

const goStep = (to) => { step = Math.max(0, Math.min(to, data.deals[deal].steps.length - 1)); endClosed = null; show(); };
$("to-start").onclick = () => goStep(0);
$("prev").onclick = () => goStep(step - 1);
$("next").onclick = () => goStep(step + 1);
$("to-end").onclick = () => goStep(data.deals[deal].steps.length - 1);
$("step").oninput = () => goStep(Number($("step").value));
// ← and → step through the deal wherever the page is scrolled, Home and End go to its start and its end, as the
// buttons do; not while a field has the keys (the step slider moves by them itself), nor with a modifier (the
// browser's own shortcuts)
document.addEventListener("keydown", (ev) => {
  if (ev.altKey || ev.ctrlKey || ev.metaKey || ev.shiftKey || ev.target.closest("input, select, textarea")) return;
  const to = { ArrowLeft: step - 1, ArrowRight: step + 1, Home: 0, End: data.deals[deal].steps.length - 1 }[ev.key];
  if (to === undefined) return;
  ev.preventDefault();
  goStep(to);
});
show();
pollReviews(true);
window.addEventListener("resize", () => { if (reviewed()) showReview(); });
