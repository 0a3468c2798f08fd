// An online event's page for its players (/events/{id}): enter a team (the partner confirms), then, each round,
// the link to one's own table (its seat token is handed to this account's session alone), the standings and
// pairings of the desk. It asks the server again every few seconds.
import { api, el, errorText, fmt, init, lang, saveToken, t } from "./common.js";

const tid = Number(location.pathname.split("/")[2]);
const $ = (id) => document.getElementById(id);
let csrf = "";

// common.js's api() with the session's CSRF token; a refusal throws with the server's text
const call = (path, body) => api(path, body, undefined, csrf);

const show = (id, on) => $(id).classList.toggle("hidden", !on);

// the round's clock as the server gave it, counted down here between two answers
let clock = null;
function showClock() {
  const box = $("event-clock");
  const timed = clock && ["play", "warning", "over"].includes(clock.phase) && !clock.complete;
  box.classList.toggle("hidden", !timed);
  if (!timed) return;
  const left = Math.max(0, Math.round(clock.seconds_left - (performance.now() - clock.seen) / 1000));
  // the warning's distance from the end, not this device's own clock, which may be off
  const warned = clock.warning_at && left <= (Date.parse(clock.ends_at) - Date.parse(clock.warning_at)) / 1000;
  const mm = `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
  box.textContent = left <= 0 ? t("Time is up: only the deals in play are finished")
    : warned ? `${fmt("Round clock: {time} left", { time: mm })} · ${t("Time warning: no new deal is started")}`
      : fmt("Round clock: {time} left", { time: mm });
  box.classList.toggle("warn", Boolean(warned) || left <= 0);
}

// what a team agrees to by entering: the format, how many rounds, each round's deals and minutes, the rules
function facts(ev) {
  const limits = ev.limits || {};
  return [t(ev.format === "knockout" ? "Knockout" : "Swiss"),
    ev.rounds ? fmt("Rounds: {n}", { n: ev.rounds }) : null,
    !limits.max_deals ? null : limits.max_deals === 1 ? t("1 deal a round") : fmt("{n} deals a round", { n: limits.max_deals }),
    !limits.max_minutes ? null : limits.max_minutes === 1 ? t("1 minute a round")
      : fmt("{n} minutes a round", { n: limits.max_minutes }),
    t(ev.preset)].filter(Boolean);
}

// The event's arbiter key and the arbiter's page, for the organiser who made it: the server gives it to that
// account alone, signed in, on every visit (the key is not lost with the tab that made the event); this tab keeps
// it too (event_new.js), for the moment before the server has answered.
const madeKey = sessionStorage.getItem(`guandan:arbiter:${tid}`);
function showKey(key) {
  if (!key) return;
  $("made-key").textContent = key;
  $("made-arbiter").href = `/events/${tid}/arbiter?key=${encodeURIComponent(key)}`;
  show("made", true);
}

function render(ev) {
  clock = ev.clock ? { ...ev.clock, seen: performance.now() } : null;
  showClock();
  $("event-name").textContent = ev.name;
  $("event-status").textContent = ev.finished ? t("The event is over")
    : ev.registration_open ? t("Registration is open") : fmt("Round {n}", { n: ev.current_round });
  $("standings-link").href = `${ev.standings}?lang=${lang()}`;
  $("pairings-link").href = `${ev.pairings}?lang=${lang()}`;
  $("event-facts").replaceChildren(...facts(ev).map((fact) => el("span", { class: "tag" }, fact)));
  // once the event is over, each team's final place, the teams in that order (the server's)
  $("teams").replaceChildren(...ev.teams.map((team) => el("li", { "data-place": team.place ?? "" },
    team.place ? el("span", { class: "tag place" }, fmt("Place {n}", { n: team.place })) : null,
    el("strong", {}, team.name),
    el("span", { class: "muted" }, team.players.join(" / ")))));
  show("no-teams", !ev.teams.length);
  const me = ev.me;
  showKey((me && me.arbiter_key) || madeKey);
  // a guest is asked to log in only while a team can still enter
  show("guest-note", !me && ev.registration_open);
  const team = me && me.team;
  show("my-team", Boolean(team));
  if (team) $("team-line").textContent = `${team.name} · ${team.players.join(" / ")}`;
  // an entry still unconfirmed when the entries closed is not in the event: it says so, and offers nothing to do
  // (the server refuses a confirmation or a withdrawal from then on)
  const open = ev.registration_open;
  show("waiting", Boolean(me && me.entry));
  show("withdraw", open);
  if (me && me.entry) {
    $("waiting-line").textContent = open ? `${me.entry.team_name} · ${fmt("Waiting for {name} to confirm", { name: me.entry.partner })}`
      : fmt("Entries closed before {name} confirmed: team “{team}” is not in the event.", { name: me.entry.partner, team: me.entry.team_name });
  }
  show("invited", Boolean(me && me.invitation));
  show("invited-actions", open);
  if (me && me.invitation) {
    $("invited-line").textContent = open ? fmt("{name} asks you to play as their partner in team “{team}”", { name: me.invitation.partner, team: me.invitation.team_name })
      : fmt("Entries closed before you confirmed: team “{team}” is not in the event.", { team: me.invitation.team_name });
  }
  show("enter-form", Boolean(me && open && !team && !me.entry && !me.invitation));
  // anyone not in an event whose entries are closed (a guest too) is told so, and how to follow it
  show("closed-note", !team && !open);
  $("closed-note").textContent = ev.finished ? t("The event is over: the teams below are in their final places.")
    : t("Entries are closed: the event is under way. Follow it through the Standings and Pairings links above.");
  const table = me && me.table;
  show("my-table", Boolean(table) || Boolean(team && !ev.registration_open));
  if (table) {
    $("table-round").textContent = fmt("Round {n}", { n: table.round });
    $("table-where").textContent = `${fmt("Your table: table {table}, {side}", { table: table.table, side: t(table.side === "home" ? "North–South" : "East–West") })} · ${t("vs")} ${table.opponents}`;
    show("go-table", table.open);
    $("table-note").textContent = table.final ? t("Your table's result is in") : table.open ? ""
      : t("Your table is not open yet: the arbiter has not started the round.");
    const said = table.result_text && (table.result_text[lang()] || table.result_text.en);
    $("table-result").textContent = said ? fmt("Result, North–South first: {result}", { result: said }) : "";
  } else if (team) {
    $("table-round").textContent = ev.current_round ? fmt("Round {n}", { n: ev.current_round }) : "";
    $("table-where").textContent = me.bye ? t("Your team has a bye this round") : "";
    show("go-table", false);
    $("table-note").textContent = ev.finished ? t("The event is over") : t("Waiting for the arbiter to start the next round");
    $("table-result").textContent = "";
  }
}

async function refresh() {
  try { render(await call(`/api/events/${tid}`)); $("page-error").textContent = ""; }
  catch (e) { $("page-error").textContent = errorText(e); }
}

function action(id, run) {
  $(id).addEventListener(id === "enter-form" ? "submit" : "click", async (ev) => {
    ev.preventDefault();
    $("my-error").textContent = "";
    try { render(await run()); } catch (e) { $("my-error").textContent = errorText(e); }
  });
}

await init();
showKey(madeKey);
const session = await call("/api/auth/session").catch(() => ({}));
csrf = session.csrf || "";
$("account-link").textContent = session.user ? session.user.display_name || session.user.username : t("Log in");
// a guest logs in or signs up on the account page, which then comes back here
const loginHere = `/account?next=${encodeURIComponent(location.pathname)}`;
if (!session.user) for (const a of [$("account-link"), $("guest-note").querySelector("a")]) a.href = loginHere;
action("enter-form", () => call(`/api/events/${tid}/entries`, { team_name: $("team-name").value, partner: $("partner").value }));
// a refusal is about what was sent: once the form is changed it no longer says what is wrong with it
$("enter-form").addEventListener("input", () => { $("my-error").textContent = ""; });
action("confirm", () => call(`/api/events/${tid}/entries/confirm`, {}));
action("decline", () => call(`/api/events/${tid}/entries/decline`, {}));
action("withdraw", () => call(`/api/events/${tid}/entries/decline`, {}));
$("go-table").addEventListener("click", async () => {
  try {
    const seat = await call(`/api/events/${tid}/seat`, {});
    saveToken(seat.code, seat.token);
    location.href = seat.link;
  } catch (e) { $("my-error").textContent = errorText(e); }
});
await refresh();
setInterval(refresh, 3000);
setInterval(showClock, 1000);
