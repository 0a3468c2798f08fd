// Step through a finished match with every hand shown (the match is over: nothing is secret any more).
// The server has dealt every deal again from the revealed seed: its verdicts are shown above the table.
import {
  ACTION_KIND as K, api, cardNode, cardValue, comboName, el, errorText, eventLines, init, replayTokenFor, t, tokenFor,
} from "./common.js";

const id = location.pathname.split("/").pop();
await init();
const data = await api(`/api/replays/${id}`);
const $ = (x) => document.getElementById(x);
$("replay-id").textContent = id;
$("export").href = `/api/replays/${id}/record`;
const dealSel = $("deal");
data.deals.forEach((d, i) => dealSel.append(el("option", { value: i }, `${t("Deal")} ${i + 1} (${t("Level")} ${d.level})`)));
let deal = 0, step = 0;

function name(s) { return data.players[s] || `${t("Seat")} ${s + 1}`; }

// Who sees it: private (listed to its players; the link opens it for anyone who has it) until one of its
// players — this browser holds the seat token it played with, or the token its import was answered with —
// marks it public.
const owner = replayTokenFor(id) || (data.meta && data.meta.room ? tokenFor(data.meta.room) : null);
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
$("fair").classList.add(fair.verified ? "ok" : "bad");
document.body.dataset.fair = fair.verified ? "verified" : "mismatch";
$("fair-summary").replaceChildren(...eventLines(fair).map((line, i) => el("div", i ? { class: "commitment" } : {}, line)));

function showFair(d) {
  const lines = eventLines(d.check).map((line) => el("div", { class: d.check.verified ? "" : "error" }, line));
  if (d.commitment) lines.push(el("div", { class: "commitment", title: d.commitment }, `${t("Deal commitment")} ${d.commitment}`));
  $("fair-deal").replaceChildren(...lines);
}

function show() {
  const d = data.deals[deal];
  const st = d.steps[step];
  showFair(d);
  $("step").max = d.steps.length - 1;
  $("step").value = step;
  $("step-label").textContent = `${t("Step")} ${step} / ${d.steps.length - 1}`;
  document.body.dataset.step = step;
  for (let s = 0; s < 4; s++) {
    const hand = [...st.hands[s]].sort((a, b) => cardValue(a, d.level) - cardValue(b, d.level));
    $(`r${s}`).replaceChildren(el("div", { class: "name" }, `${name(s)} (${hand.length})`, st.to_move === s ? " ◀" : ""),
      el("div", { class: "cards", "data-hand": s }, hand.map((c) => cardNode(c, d.level, { small: true }))));
  }
  const a = st.action;
  const what = { [K.PLAY]: () => comboName(a.combo), [K.PASS]: () => t("Pass"), [K.TRIBUTE]: () => t("Tribute"),
    [K.RETURN]: () => t("Return a card"), [K.CHOOSE]: () => t("Choose a tribute card") };
  $("raction").replaceChildren(a ? el("div", {}, `${name(a.seat)}: ${what[a.kind]()}`,
    el("div", { class: "cards" }, (a.cards || []).map((c) => cardNode(c, d.level)))) : el("div", {}, `${t("Deal")} ${deal + 1}`));
  $("rinfo").replaceChildren(el("div", {}, `${t("Levels")}: ${d.levels.join(" : ")}`), el("div", {}, `${t("Level")}: ${d.level}`));
  $("rlog").replaceChildren(...st.events.flatMap((e) => eventLines(e).map((line) => el("li", { "data-type": e.type }, line))));
}

dealSel.onchange = () => { deal = Number(dealSel.value); step = 0; show(); };
$("prev").onclick = () => { if (step > 0) step -= 1; show(); };
$("next").onclick = () => { if (step < data.deals[deal].steps.length - 1) step += 1; show(); };
$("step").oninput = () => { step = Number($("step").value); show(); };
show();
