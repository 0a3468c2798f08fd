// Step through a finished match with every hand shown (the match is over: nothing is secret any more).
import { ACTION_KIND as K, api, cardNode, cardValue, comboName, el, eventLines, init, t } from "./common.js";

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

function show() {
  const d = data.deals[deal];
  const st = d.steps[step];
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
