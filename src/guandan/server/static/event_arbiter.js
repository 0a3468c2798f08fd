// The arbiter's page of an online event (/events/{id}/arbiter?key=…): start the next round (the server then
// opens its tables), each table's seats (taken or not, connected, on 托管), pause and resume a table, replace a
// player; the result's override is the desk's own arbiter page. Every command needs the event's arbiter key.
import { api, el, errorText, fmt, init, lang, t } from "./common.js";

const tid = Number(location.pathname.split("/")[2]);
const $ = (id) => document.getElementById(id);
let key = new URLSearchParams(location.search).get("key") || "";

// a seat of a table: where it sits (North…West, as the desk's table pages name the seats), who plays it, and
// whether they have taken it; the state is joined to the name by no-break spaces, so that a line too narrow for
// both breaks before the name, never leaving "· absent" alone on a line
function seatLine(seat) {
  const where = seat.present ? (seat.online ? "online" : "offline") : "absent";
  return el("span", { class: `seat ${seat.present ? "present" : "absent"}`, "data-seat": String(seat.seat) },
    el("span", { class: "seat-at" }, seat.seat_text[lang()] || seat.seat_text.en), " ",
    el("span", { class: "seat-player" }, seat.player), el("span", { class: "seat-state" }, `\u00a0·\u00a0${t(where)}`),
    seat.auto ? el("span", { class: "tag" }, t("Auto-play")) : null);
}

function tableRow(ev, table) {
  const reason = el("input", { placeholder: t("Reason"), maxlength: "500" });
  const command = async (what) => {
    try { render(await api(`/api/events/${tid}/arbiter/${what}`, { key, round: ev.current_round, table: table.table, reason: reason.value })); }
    catch (e) { $("arbiter-error").textContent = errorText(e); }
  };
  const done = table.status === "final";
  return el("tr", { "data-table": String(table.table) },
    el("td", {}, String(table.table)),
    el("td", {}, el("strong", {}, table.home), " ", t("vs"), " ", el("strong", {}, table.away),
      table.room ? el("div", {}, el("a", { href: `/r/${table.room}` }, `${t("Room")} ${table.room}`)) : null,
      el("div", { class: "muted" }, `${fmt("Deals played: {n}", { n: table.deals })} `, table.paused ? el("span", { class: "tag" }, t("paused")) : null,
        done ? el("span", { class: "tag" }, t("Done")) : null),
      table.result_text ? el("div", { "data-testid": "table-result" },
        fmt("Result, North–South first: {result}", { result: table.result_text[lang()] || table.result_text.en })) : null,
      done ? null : el("div", { class: "inline actions" }, reason,
        table.paused ? el("button", { onclick: () => command("resume") }, t("Resume"))
          : el("button", { onclick: () => command("pause") }, t("Pause")))),
    el("td", {}, ...table.seats.map(seatLine)));
}

// The name before the key is given (the event's public page says it to anyone): the heading says which event
// the page is for, and the line under it what the page needs.
function showName(name) {
  $("event-name").textContent = name;
  $("event-title").classList.toggle("hidden", !name);
}

// The page's panels once the key is known: the heading's line about the key goes, the tables and the
// replacement come (or the other way round when a key is refused).
function keyed(yes) {
  $("key-needed").classList.toggle("hidden", yes);
  // the desk's page, where a result is overridden, opens with the key alone: no link until the key is taken
  $("desk-link").classList.toggle("hidden", !yes);
  if (!yes) $("desk-link").removeAttribute("href");
  document.querySelectorAll(".needs-key").forEach((p) => p.classList.toggle("hidden", !yes));
}

// The replacement's choices: the event's teams, and the chosen team's players (the value each one's username,
// as the desk names them; the account's name shown beside it when it differs). A choice made stays across the
// page's refreshes.
function fillReplace(ev) {
  const teamSel = $("replace-team"), oldSel = $("replace-old");
  const teams = (ev.roster || []).filter((team) => !team.withdrawn);
  const chosen = teamSel.value;
  teamSel.replaceChildren(...teams.map((team) => el("option", { value: String(team.id) }, team.name)));
  if (teams.some((team) => String(team.id) === chosen)) teamSel.value = chosen;
  const team = teams.find((x) => String(x.id) === teamSel.value);
  const player = oldSel.value;
  oldSel.replaceChildren(...(team ? team.players : []).map((p) => el("option", { value: p.username },
    p.name && p.name.toLowerCase() !== p.username.toLowerCase() ? `${p.name} (${p.username})` : p.username)));
  if (team && team.players.some((p) => p.username === player)) oldSel.value = player;
}

// a team with the round's bye: a row of its own after the tables, as the desk's arbiter page lists it
function byeRow(team) {
  return el("tr", { "data-testid": "bye", "data-team": String(team.id) },
    el("td", { class: "bye-at" }, t("Bye")), el("td", { colspan: "2" }, el("strong", {}, team.name)));
}

function noTables(ev) {
  if (ev.tables.length || ev.finished) return "";
  return fmt("No tables yet: round {n} is not paired. “{action}” above pairs it and opens its tables.",
    { n: ev.current_round + 1, action: t("Start the next round") });
}

let last = null;

function render(ev) {
  last = ev;
  $("arbiter-error").textContent = "";
  keyed(true);
  showName(ev.name);
  $("event-status").textContent = ev.finished ? t("The event is over")
    : ev.registration_open ? t("Registration is open") : fmt("Round {n}", { n: ev.current_round });
  $("event-link").href = `/events/${tid}`;
  $("standings-link").href = `${ev.standings}?lang=${lang()}`;
  $("pairings-link").href = `${ev.pairings}?lang=${lang()}`;
  $("desk-link").href = `/t/${tid}/arbiter?key=${encodeURIComponent(key)}&lang=${lang()}`;
  $("start-round").disabled = ev.finished || ev.blockers.length > 0;
  // why the round cannot start yet, as the desk says it (the disabled button alone does not tell)
  $("round-blockers").replaceChildren(...(ev.blocker_texts || []).map((b) => el("li", {}, b[lang()] || b.en)));
  $("tables").replaceChildren(...ev.tables.map((table) => tableRow(ev, table)), ...(ev.byes || []).map(byeRow));
  const empty = noTables(ev);
  $("no-tables").textContent = empty;
  $("no-tables").classList.toggle("hidden", !empty);
  fillReplace(ev);
}

async function refresh() {
  if (!key) return;
  try { render(await api(`/api/events/${tid}/arbiter`, { key })); }
  catch (e) {
    $("arbiter-error").textContent = errorText(e);
    if (e.code === "wrong_key") { last = null; keyed(false); }
  }
}

await init();
$("event-link").href = `/events/${tid}`;
$("key").value = key;
$("replace-team").addEventListener("change", () => { if (last) fillReplace(last); });
// the event's name from its public page, before (and whatever) the key: the heading names the event at once
api(`/api/events/${tid}`).then((ev) => {
  if (last) return;
  showName(ev.name);
  $("standings-link").href = `${ev.standings}?lang=${lang()}`;
  $("pairings-link").href = `${ev.pairings}?lang=${lang()}`;
})
  .catch((e) => { if (!key) $("arbiter-error").textContent = errorText(e); });
$("key-form").addEventListener("submit", (ev) => { ev.preventDefault(); key = $("key").value; refresh(); });
$("start-round").addEventListener("click", async () => {
  try { render(await api(`/api/events/${tid}/arbiter/round`, { key })); }
  catch (e) { $("arbiter-error").textContent = errorText(e); }
});
// a refused replacement is said under its own form, where the arbiter is looking (on a phone the page's top is
// out of sight)
$("replace-form").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  $("replace-error").textContent = "";
  try {
    render(await api(`/api/events/${tid}/arbiter/replace`, { key, team: $("replace-team").value, old: $("replace-old").value,
      new: $("replace-new").value, reason: $("replace-reason").value }));
  } catch (e) { $("replace-error").textContent = errorText(e); }
});
// The page's buttons start disabled: a click before their handlers exist would do nothing (start-round waits for
// the event's state as well, which render() reads).
$("key-btn").disabled = false;
$("replace-btn").disabled = false;
await refresh();
setInterval(refresh, 3000);
