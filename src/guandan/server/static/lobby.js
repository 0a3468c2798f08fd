// The start page: create a room (preset, timer, counter, a bot tier or an open seat per seat), join by code, replays.
import { META, api, el, init, saveHostToken, t } from "./common.js";

await init();
const preset = document.getElementById("preset");
for (const p of META.presets) preset.append(el("option", { value: p }, p));
const seatBots = document.getElementById("seat-bots");
for (let s = 0; s < 4; s++) {
  const select = el("select", { id: `bot-${s}` }, el("option", { value: "" }, t("Open seat")),
    ...META.tiers.map((tier) => el("option", { value: tier }, `${t("bot")}: ${tier}`)));
  if (s > 0) select.value = META.default_tier;
  seatBots.append(el("label", { class: "seat-box" }, `${t("Seat")} ${s + 1}`, select));
}

document.getElementById("create").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const deals = document.getElementById("deals").value;
  const seed = document.getElementById("seed").value;
  const body = {
    preset: preset.value,
    timer: Number(document.getElementById("timer").value || 0),
    counter: document.getElementById("counter").checked,
    max_deals: deals ? Number(deals) : null,
    seed: seed ? Number(seed) : null,
    bots: [0, 1, 2, 3].map((s) => document.getElementById(`bot-${s}`).value || null),
  };
  try {
    const res = await api("/api/rooms", body);
    saveHostToken(res.code, res.host_token);
    location.href = res.link;
  } catch (e) { document.getElementById("create-error").textContent = e.message; }
});

document.getElementById("join").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const code = document.getElementById("code").value.trim().toUpperCase();
  try { await api(`/api/rooms/${code}`); location.href = `/r/${code}`; }
  catch (e) { document.getElementById("join-error").textContent = e.message; }
});

const list = document.getElementById("replays");
for (const r of await api("/api/replays")) {
  list.append(el("li", {}, el("a", { href: `/replay/${r.id}` }, `${t("Replay")} ${r.id}`), ` ${r.room || ""} ${r.created_at.slice(0, 16)}`));
}
document.getElementById("import").addEventListener("change", async (ev) => {
  const file = ev.target.files[0];
  if (!file) return;
  try {
    const res = await api("/api/replays", JSON.parse(await file.text()));
    location.href = res.link;
  } catch (e) { document.getElementById("import-error").textContent = e.message; }
});
