// The start page: play now against three bots or watch four, the open rooms to join, create a room (preset, timer,
// counter, a bot tier or an open seat per seat, listed or not), join by code, replays.
// A seed is accepted only for a practice room (every seat but one a bot): the server refuses it otherwise.
import {
  META, allTokens, api, el, errorText, fmt, hostTokenFor, hostTokens, init, lang, recentSeats, saveHostToken, saveReplayToken, saveToken, t,
  timerText, tokenFor, dealsText,
} from "./common.js";
import { accountTables, reclaimSeat } from "./account_seats.js";
import { replayNodes, titleNamesReader } from "./replay_title.js";

await init();
// the list of online events (/events): a site of several workers runs none, and offers no link to it
document.getElementById("events-link").classList.toggle("hidden", META.events === false);
document.getElementById("seed-label").title = t("A seed is only accepted for a practice room: every seat but yours must be a bot");
const preset = document.getElementById("preset");
for (const p of META.presets) preset.append(el("option", { value: p }, t(p)));
// What a bot tier is, in the page's language: the line `guandan agents` prints (the server sends it with the tiers,
// from the cli catalogue; a plugin tier's own docstring), "" for a tier that says nothing of itself.
const tierAbout = (tier) => (META.tier_descriptions?.[tier]?.[lang()]) || "";
const seatBots = document.getElementById("seat-bots");
const seatTiersAbout = document.getElementById("seat-tiers-about");
// under the seats, one line for each tier chosen at them (three bots of one tier: one line), in seat order
function showSeatTiers() {
  const chosen = [...new Set([0, 1, 2, 3].map((s) => document.getElementById(`bot-${s}`).value))]
    .filter((tier) => tier && tierAbout(tier));
  // "{tier}: {description}" with the tier's name in bold: where one line ends and the next begins, on a phone
  const line = (tier) => t("{tier}: {description}").split(/(\{\w+\})/).filter(Boolean)
    .map((part) => (part === "{tier}" ? el("strong", {}, t(tier)) : part === "{description}" ? tierAbout(tier) : part));
  seatTiersAbout.replaceChildren(...chosen.map((tier) => el("li", { "data-tier": tier }, ...line(tier))));
  seatTiersAbout.classList.toggle("hidden", chosen.length === 0);
}
for (let s = 0; s < 4; s++) {
  const select = el("select", { id: `bot-${s}`, "aria-describedby": "seat-tiers-about" },
    el("option", { value: "" }, t("Open seat")),
    ...META.tiers.map((tier) => el("option", { value: tier }, `${t("bot")}: ${t(tier)}`)));
  if (s > 0) select.value = META.default_tier;
  select.addEventListener("change", showSeatTiers);
  seatBots.append(el("label", { class: "seat-box" }, fmt("Seat {n}", { n: s + 1 }), select));
}
showSeatTiers();

// Play now: one tap seats this browser at seat 1 against three bots of the chosen strength, ready at once
// (a whole match under the default preset, the default timer; the room's link can still be shared).
const quickTier = document.getElementById("quick-tier");
for (const tier of META.tiers) quickTier.append(el("option", { value: tier }, t(tier)));
quickTier.value = localStorage.getItem("guandan:quick-tier") || META.default_tier;
if (!quickTier.value) quickTier.value = META.default_tier;  // a tier remembered that this server no longer has
// under the row, what the chosen strength is
const quickTierAbout = document.getElementById("quick-tier-about");
function showQuickTier() {
  quickTierAbout.textContent = tierAbout(quickTier.value);
  quickTierAbout.classList.toggle("hidden", !quickTierAbout.textContent);
}
quickTier.addEventListener("change", showQuickTier);
showQuickTier();
document.getElementById("quick-name").value = localStorage.getItem("guandan:name") || "";
document.getElementById("quick-play").addEventListener("click", async () => {
  const tier = quickTier.value;
  const name = document.getElementById("quick-name").value.trim();
  localStorage.setItem("guandan:quick-tier", tier);
  localStorage.setItem("guandan:name", name);
  try {
    // unlisted: for the moment between create and join its seat 1 is open, and it is nobody else's to take
    const room = await api("/api/rooms", { bots: [null, tier, tier, tier], listed: false,
      timer: Number(document.getElementById("timer").value || 0) });
    saveHostToken(room.code, room.host_token);
    const seat = await api(`/api/rooms/${room.code}/join`, { seat: 0, name });
    saveToken(room.code, seat.token);
    await api(`/api/rooms/${room.code}/ready`, { token: seat.token, ready: true });
    location.href = room.link;
  } catch (e) { document.getElementById("quick-error").textContent = errorText(e); }
});

// Watch four bots play: one tap makes a room of four bots of the chosen strength, starts it as a match to watch and
// lands on its table as a spectator. One request (POST /api/rooms with "watch"): when the server refuses (its caps on
// such matches, in all and per address) it has made nothing, and the refusal is told here. The button waits for the
// answer: a second tap would start a second match, and take the address's other place.
const quickWatch = document.getElementById("quick-watch");
quickWatch.classList.toggle("hidden", META.watch === false);  // a server that runs none (serve --max-watched-tables 0) offers no button
quickWatch.addEventListener("click", async () => {
  const tier = quickTier.value;
  const error = document.getElementById("quick-error");
  localStorage.setItem("guandan:quick-tier", tier);
  error.textContent = "";
  quickWatch.disabled = true;
  try {
    const room = await api("/api/rooms", { bots: [tier, tier, tier, tier], watch: true });
    saveHostToken(room.code, room.host_token);  // the match's replay is kept for its creator (the start page lists it)
    location.href = room.link;
  } catch (e) {
    error.textContent = errorText(e);
    quickWatch.disabled = false;
  }
});

document.getElementById("create").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const deals = document.getElementById("deals").value;
  const seed = document.getElementById("seed").value;
  const body = {
    preset: preset.value,
    timer: Number(document.getElementById("timer").value || 0),
    first_timer: Number(document.getElementById("first-timer").value || 0),
    name: document.getElementById("room-name").value.trim(),
    counter: document.getElementById("counter").checked,
    listed: document.getElementById("listed").checked,
    rated: document.getElementById("rated").checked,
    max_deals: deals ? Number(deals) : null,
    seed: seed ? Number(seed) : null,
    bots: [0, 1, 2, 3].map((s) => document.getElementById(`bot-${s}`).value || null),
  };
  try {
    const res = await api("/api/rooms", body);
    saveHostToken(res.code, res.host_token);
    location.href = res.link;
  } catch (e) { document.getElementById("create-error").textContent = errorText(e); }
});

document.getElementById("join").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const code = document.getElementById("code").value.trim().toUpperCase();
  const error = document.getElementById("join-error");
  if (!code) { error.textContent = t("Type the room code first."); return; }
  try { await api(`/api/rooms/${encodeURIComponent(code)}`); location.href = `/r/${encodeURIComponent(code)}`; }
  catch (e) { error.textContent = errorText(e); }
});
// The buttons above start disabled in the page: a tap before their handlers exist would do nothing, or send the
// form the browser's own way and reload the page.
for (const id of ["quick-play", "quick-watch", "create-btn", "join-btn"]) document.getElementById(id).disabled = false;

// Open rooms: the lobbies with an empty seat that their creators listed (GET /api/rooms/open), refreshed every
// 5 s while this page is in view; a hidden tab asks nothing and catches up as soon as it is shown again.
const openList = document.getElementById("open-rooms");
const openError = document.getElementById("open-rooms-error");
let openShown = null;  // what the list shows, ages left out: a refresh that changes nothing keeps the nodes under a finger
let openLoading = false;
// a bot's stored name is the server's English; a player who joined without a name is "Player N" (rooms.seat_names)
const seatName = (s, i) => (s.kind === "bot" ? `${t("bot")}: ${t(s.tier)}` : s.name || fmt("Player {n}", { n: i + 1 }));

function openRoomNode(r) {
  const taken = r.seats.map((s, i) => [s, i]).filter(([s]) => s.kind !== "empty");
  const mine = tokenFor(r.code) || hostTokenFor(r.code);
  return el("li", { class: "open-room", "data-testid": "open-room", "data-code": r.code },
    el("div", { class: "open-room-head" },
      el("span", { class: "open-room-name" }, r.name || `${t("Room")} ${r.code}`),
      r.name ? el("span", { class: "open-room-code" }, r.code) : null,
      el("span", { class: "tag" }, t(r.preset)),
      el("span", { class: "tag" }, dealsText(r.max_deals)),
      el("span", { class: "tag" }, timerText(r.timer)),
      mine ? el("span", { class: "tag" }, t("yours")) : null),
    el("div", { class: "open-room-seats" },
      el("strong", { class: "open-room-count", title: t("Seats taken") }, `${taken.length}/${r.seats.length}`),
      taken.map(([s, i]) => el("span", { class: s.ready ? "open-room-who ready" : "open-room-who" }, seatName(s, i)))),
    el("a", { class: "open-room-join", href: `/r/${r.code}`, "data-testid": "open-room-join" }, t("Join")));
}

async function refreshOpenRooms() {
  if (openLoading) return;  // one request at a time: a slow answer is not overtaken by the next tick's
  openLoading = true;
  try {
    const { rooms } = await api("/api/rooms/open");
    openError.textContent = "";
    const key = JSON.stringify(rooms.map(({ age_s: _age, ...rest }) => rest));
    if (key === openShown) return;
    openShown = key;
    openList.replaceChildren(...(rooms.length ? rooms.map(openRoomNode)
      : [el("li", { class: "muted open-rooms-none" }, t("No open rooms right now"))]));
  } catch {
    openError.textContent = t("Could not load the open rooms");  // the list stays as it last was
  } finally {
    openLoading = false;
  }
}
refreshOpenRooms();
setInterval(() => { if (document.visibilityState === "visible") refreshOpenRooms(); }, 5000);
document.addEventListener("visibilitychange", () => { if (document.visibilityState === "visible") refreshOpenRooms(); });

// The tables this browser holds a seat at that are not over, newest first, each with the way back to it: a player
// who left a match with the browser's back button finds it here, not only in the forward button. A logged-in
// player also finds the seats their account took on any device (GET /api/me/tables): "Back to the table" takes the
// seat for this browser (POST /api/rooms/{code}/reclaim, a fresh seat token), and the device that held it watches.
async function showMyTables() {
  const box = document.getElementById("my-tables");
  const { csrf, tables } = await accountTables();
  const open = tables.map((x) => ({ code: x.code, status: x.status === "paused" ? "playing" : x.status, account: true }));
  for (const c of recentSeats()) {
    if (!tokenFor(c) || open.some((x) => x.code === c)) continue;
    try {
      const room = await api(`/api/rooms/${encodeURIComponent(c)}`);
      if (room.status === "playing" || room.status === "lobby") open.push({ code: room.code, status: room.status, account: false });
    } catch { /* closed, or gone with its lobby */ }
  }
  const error = el("span", { class: "error", role: "alert" });
  box.replaceChildren(...open.map((room) => el("p", { class: "my-table", "data-room": room.code, "data-account": room.account ? "yes" : "no" },
    el("span", {}, fmt(room.status === "playing" ? "Your match in room {code} is still being played" : "You have a seat in room {code}",
      { code: room.code })), " ",
    el("button", { class: "primary", onclick: async () => {
      error.textContent = "";
      if (!room.account) { location.href = `/r/${room.code}`; return; }
      try { location.href = (await reclaimSeat(room.code, csrf)).link; } catch (e) { error.textContent = errorText(e); }
    } }, t("Back to the table")))), error);
  box.classList.toggle("hidden", !open.length);
}
showMyTables();

// Private by default: the matches this browser played (by the seat tokens it kept) or started for four bots to play
// (by the host tokens of its rooms), and the public ones.
const list = document.getElementById("replays");
const replays = await api("/api/replays/mine", { tokens: [...allTokens(), ...hostTokens()].slice(-500) });
// each titled by who played whom and how it ended (replay_title.js), from this browser's seat where it played one: its
// "You" says whose it is, and only a replay of this browser's whose title cannot (imported, or four bots it started)
// is tagged "yours"
for (const r of replays) {
  list.append(el("li", { class: "replay-entry", "data-replay": r.id }, ...replayNodes(r, r.seat),
    el("a", { href: `/replay/${r.id}#review` }, t("Review (复盘)")),
    r.mine && !titleNamesReader(r, r.seat) ? el("span", { class: "tag", "data-testid": "replay-yours" }, t("yours")) : null,
    r.public ? el("span", { class: "tag" }, t("public")) : null));
}
if (!replays.length) list.append(el("li", { class: "muted" }, t("No replays yet: the matches you play appear here")));
document.getElementById("import").addEventListener("change", async (ev) => {
  const file = ev.target.files[0];
  if (!file) return;
  const error = document.getElementById("import-error");
  let record;
  try { record = JSON.parse(await file.text()); }
  catch { error.textContent = t("This file is not a game record that this server can replay."); return; }  // not JSON
  try {
    const res = await api("/api/replays", record);
    saveReplayToken(res.id, res.token);  // lists it here, and lets this browser make it public
    location.href = res.link;
  } catch (e) { error.textContent = errorText(e); }
});
