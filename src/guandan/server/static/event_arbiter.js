// The arbiter's page of an online event (/events/{id}/arbiter?key=…): start the next round (the server then
// opens its tables), each table's seats (taken or not, connected, on 托管), pause and resume a table, replace a
// player; the result's override is the desk's own arbiter page. Every command needs the event's arbiter key.
import { api, el, errorText, fmt, init, lang, t } from "./common.js";

const tid = Number(location.pathname.split("/")[2]);
const $ = (id) => document.getElementById(id);
let key = new URLSearchParams(location.search).get("key") || "";

function seatLine(seat) {
  const where = seat.present ? (seat.online ? "online" : "offline") : "absent";
  return el("span", { class: `seat ${seat.present ? "present" : "absent"}` }, `${seat.player} · ${t(where)}`,
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

function render(ev) {
  $("arbiter-error").textContent = "";
  $("event-name").textContent = ev.name;
  $("event-status").textContent = ev.finished ? t("The event is over")
    : ev.registration_open ? t("Registration is open") : fmt("Round {n}", { n: ev.current_round });
  $("standings-link").href = `${ev.standings}?lang=${lang()}`;
  $("pairings-link").href = `${ev.pairings}?lang=${lang()}`;
  $("desk-link").href = `/t/${tid}/arbiter?key=${encodeURIComponent(key)}&lang=${lang()}`;
  $("start-round").disabled = ev.finished || ev.blockers.length > 0;
  // why the round cannot start yet, as the desk says it (the disabled button alone does not tell)
  $("round-blockers").replaceChildren(...(ev.blocker_texts || []).map((b) => el("li", {}, b[lang()] || b.en)));
  $("tables").replaceChildren(...ev.tables.map((table) => tableRow(ev, table)));
}

async function refresh() {
  if (!key) return;
  try { render(await api(`/api/events/${tid}/arbiter`, { key })); }
  catch (e) { $("arbiter-error").textContent = errorText(e); }
}

await init();
$("key").value = key;
$("key-form").addEventListener("submit", (ev) => { ev.preventDefault(); key = $("key").value; refresh(); });
$("start-round").addEventListener("click", async () => {
  try { render(await api(`/api/events/${tid}/arbiter/round`, { key })); }
  catch (e) { $("arbiter-error").textContent = errorText(e); }
});
$("replace-form").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  try {
    render(await api(`/api/events/${tid}/arbiter/replace`, { key, team: $("replace-team").value, old: $("replace-old").value,
      new: $("replace-new").value, reason: $("replace-reason").value }));
  } catch (e) { $("arbiter-error").textContent = errorText(e); }
});
// The page's buttons start disabled: a click before their handlers exist would do nothing (start-round waits for
// the event's state as well, which render() reads).
$("key-btn").disabled = false;
$("replace-btn").disabled = false;
await refresh();
setInterval(refresh, 3000);
