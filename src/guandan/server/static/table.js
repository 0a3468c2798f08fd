// The room page: lobby (seats, bots, ready) and the table. The server is authoritative: this page only
// renders the frames it receives (its own seat's view, or the public view when spectating) and sends
// actions the server checks again.
import {
  ACTION_KIND as K, META, api, cardNode, cardText, cardValue, comboName, counted, dropToken, el, errorText, eventLines, fmt, frameErrorText, hostTokenFor, init, JOKERS,
  isRed, labelled, lang, placeName, playNodes, rankOf, RANKS, sameCards, saveHostToken, saveToken, t, timerText, tokenFor, withLang, dealsText,
} from "./common.js";
import { accountTables, reclaimSeat } from "./account_seats.js";
import { dealEndPanel, withWholeNames } from "./dealend.js";
import { explainTerms, termAt, termText } from "./glossary.js";
import { joinRated } from "./rated.js";
import {
  arrangementKey, chosenPlay, flatten, makeColumn, moveToGroup, reconcile, REST, talkAllowed, timerState,
} from "./logic.js";
import { muted, setMuted } from "./sound.js";
import { dealIn, playSound, showEvents } from "./table_fx.js";
import { EVENT_TYPE as E, PHASE } from "./vocab.js";

const code = location.pathname.split("/").pop().toUpperCase();
const SORT_KEY = "guandan:sort";  // how the player likes the hand laid out: rank, suit or groups (理牌)
const S = {
  room: null, view: null, seq: 0, me: null, events: [], selected: new Set(),
  sort: ["rank", "suit", "groups"].includes(localStorage.getItem(SORT_KEY)) ? localStorage.getItem(SORT_KEY) : "rank",
  groups: null,  // the 理牌 arrangement of this deal: [{kind, cards}], kept in sessionStorage across refreshes
  hints: [], hintIndex: 0, ws: null,
  clock: null,  // the running turn timer: {seat, seconds, started} (started: this page's clock, ms)
  end: null,  // the last deal's end as the panel shows it: {deal, reveal, events, waiting, deadline}
  endClosed: -1,  // the deal whose end panel the player closed
  talkSent: [], talkMuted: new Set(JSON.parse(localStorage.getItem(`guandan:talkmute:${code}`) || "[]")),
  warned: null,  // the turn whose last-seconds warning was played
  notice: null,  // a refusal at the table (e.g. a hint while the server is busy): {text, until, key}, kept on show
  commitmentOpen: false,  // the deal commitment's whole hash is shown (commitmentNode)
  msgOpen: null,  // the words beside the buttons shown whole above the hand (syncMsg): the text they were opened for
  promptShown: null,  // the tribute or return turn whose prompt was shown whole once ("deal:kind", renderHand)
};
const UPRIGHT = matchMedia("(orientation: portrait) and (max-width: 600px)");  // style.css's upright phone
const SIDEWAYS = matchMedia("(max-height: 500px)");  // style.css's phone held sideways
const NOTICE_MS = 5000;  // how long a refusal stays beside the buttons, through re-renders, unless the player moves on
const $ = (id) => document.getElementById(id);
const ROOM = { LOBBY: "lobby", PLAYING: "playing", OVER: "over" };  // a room's status (server/rooms.py)

await init();
$("room-code").textContent = code;
$("share-label").textContent = labelled(t("Share this link"), "");  // the language's colon: "分享链接：", "Share this link: "
$("share").textContent = `${location.origin}/r/${code}`;
$("share").href = `/r/${code}`;
$("name").value = localStorage.getItem("guandan:name") || "";
connect();
setInterval(renderTimer, 250);

// --- connection -------------------------------------------------------------------------------
// While the socket is down every control is disabled and "Reconnecting…" is shown prominently: nothing
// clicked can be lost, because nothing can be clicked. Back online, the page catches up exactly: it asks
// the server for every update since the last one it saw ({"type": "resume", "since": seq}) and applies
// them in order, as if it had never been away (a deal settled meanwhile still shows its summary); the
// server's snapshot is used when there is nothing to catch up from. A socket silent through two pings is
// taken for dead (a server gone without closing it) and replaced.
const PING_MS = 10_000, DEAD_MS = 25_000;
Object.assign(S, { online: false, quiet: true, retries: 0, lastFrame: 0, resuming: null, gone: false });

function connect() {
  const token = tokenFor(code);
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${proto}://${location.host}/ws/${code}${token ? `?token=${encodeURIComponent(token)}` : ""}`);
  S.ws = ws;
  ws.onopen = () => { if (S.ws === ws) { S.retries = 0; S.lastFrame = Date.now(); } };
  ws.onmessage = (ev) => { if (S.ws === ws) { S.lastFrame = Date.now(); onFrame(JSON.parse(ev.data)); } };
  ws.onclose = (ev) => { if (S.ws === ws) lost(ev.code, token); };
}

function lost(closeCode, token) {
  S.ws = null; S.online = false; S.quiet = false; S.resuming = null;
  // the seat's token no longer holds it; forgotten unless this browser got a newer one meanwhile (its account took
  // the seat back in another tab: the next socket goes in with that one)
  if (closeCode === 4403 && tokenFor(code) === token) { dropToken(code); S.claimAsked = false; }
  if (closeCode === 4404 || closeCode === 4410) {
    gone(closeCode === 4410 ? t("This room closed after a long time without activity") : t("No such room"));
    return;
  }
  render();
  const wait = S.retries === 0 ? 0 : Math.min(5000, 250 * 2 ** S.retries);  // 0, ½, 1, 2, 4, 5, 5… s
  S.retries += 1;
  setTimeout(connect, wait);
}

// A new socket on purpose (a seat was just taken or left): no banner, the controls wait for it all the same.
function reconnectNow() {
  const old = S.ws;
  S.ws = null; S.online = false; S.quiet = true; S.resuming = null;
  if (old) { old.onclose = null; old.close(); }
  render();
  connect();
}

setInterval(() => {
  const ws = S.ws;
  if (!ws || ws.readyState !== 1) return;
  if (Date.now() - S.lastFrame > DEAD_MS) { ws.onclose = null; ws.close(); lost(1006); return; }
  ws.send(JSON.stringify({ type: "ping" }));
}, PING_MS);

// false while the socket is down (the controls that send are disabled then, so no click gets here)
function send(frame) {
  if (S.online && S.ws && S.ws.readyState === 1) { S.ws.send(JSON.stringify(frame)); return true; }
  return false;
}

function gone(text) {
  S.gone = true; S.online = false;
  $("notice-text").textContent = text;
  $("notice-replay").classList.add("hidden");
  render();
}

function onFrame(f) {
  // the answer to the socket's ping every 10 s changes nothing on the table: drawn anew, the facts, the deal-end
  // panel and the hand would be replaced under a finger, a hover or a reader's selection while the table stands still
  if (f.type === "pong") return;
  if (f.type === "welcome") { S.me = f.seat; askClaim(); return; }
  if (f.type === "room") { S.room = f.room; }
  else if (f.type === "snapshot") {
    if (S.view && f.view && f.seq >= S.seq && S.room && S.room.status !== ROOM.LOBBY) {
      // back after a break: catch up update by update from the last one seen (the snapshot if that fails)
      S.resuming = f; S.room = f.room;
      S.ws.send(JSON.stringify({ type: "resume", since: S.seq }));
      return;
    }
    const fresh = !S.view || (f.view && f.view.deal_index !== S.view.deal_index);
    S.room = f.room; S.seq = f.seq; S.view = f.view;
    S.events = f.view ? f.view.events : [];
    S.selected.clear(); setClock(f.clock);
    if (f.interval) startEnd(f.interval, f.interval.reveal, f.interval.events);
    S.online = true; S.quiet = false;
    if (f.view) loadGroups();
    render();
    if (fresh && f.view && S.me !== null) dealIn($("hand"), $("center"));
    return;
  } else if (f.type === "update") {
    if (S.resuming) return;  // the catch-up asked for includes it
    const origin = handOrigin();
    const newDeal = S.view && f.view.deal_index !== S.view.deal_index;
    applyUpdate(f);
    render();
    showEvents(f.events, { where: WHERE, me: S.me, level: f.view.level, origin });
    if (newDeal && S.me !== null) dealIn($("hand"), $("center"));
    return;
  } else if (f.type === "catchup") {
    const missed = f.updates.filter((u) => u.seq > S.seq);
    for (const u of missed) applyUpdate({ ...u, view: f.view });
    S.seq = f.seq; S.view = f.view; S.resuming = null; S.online = true; S.quiet = false;
    setClock(f.clock);
    if (f.interval) startEnd(f.interval, f.interval.reveal, f.interval.events);
    else if (S.end) { S.end.waiting = []; S.end.deadline = null; }
  } else if (f.type === "interval") {
    if (S.end && S.end.deal === f.deal) {
      S.end.waiting = f.waiting;
      S.end.deadline = f.done ? null : Date.now() + f.left * 1000;
    }
    if (f.done) { setClock(f.clock); if (S.end && S.end.deal === f.deal) S.endClosed = f.deal; }
  } else if (f.type === "talk") {
    showTalk(f.seat, f.phrase);
    return;
  } else if (f.type === "arrangement") {
    if (S.view && f.deal === S.view.deal_index && S.me !== null) {
      S.groups = reconcile(f.groups, S.view.hand); saveGroups();
    }
  } else if (f.type === "readings") {
    S.readings = { key: [...f.cards].sort().join(" "), seq: f.seq, actions: f.actions, why: f.why || null };
  } else if (f.type === "hint") {
    S.hints = f.hints; S.hintIndex = 0; showHint();
    return;
  } else if (f.type === "error") {
    if (S.resuming) {  // the catch-up was refused: the snapshot it came with is the table's exact state
      const snap = S.resuming;
      S.resuming = null; S.view = null;
      onFrame(snap);
      return;
    }
    const text = frameErrorText(f);  // the catalogue's words, in the page's language
    // the account took this seat on another device: the socket closes, and this page watches with the words above it
    if (f.code === "seat_moved") S.moved = text;
    $("msg").textContent = text; $("lobby-error").textContent = text;
    if (S.view && S.room && S.room.status !== ROOM.LOBBY) {  // the next render would say "Your turn" over it at once
      S.notice = { text, until: Date.now() + NOTICE_MS, key: selectionKey() };
      render();
      // a refusal is read at once, whole: where the row beside the buttons cuts it (a phone held sideways leaves it a
      // few words' width) it is shown above the hand without a tap, until it times out or the next tap
      if ($("msg").textContent === text && $("msg").classList.contains("more")) { S.msgOpen = text; syncMsg(); }
      setTimeout(render, NOTICE_MS + 50);
    }
    return;
  }
  render();
}

function applyUpdate(f) {
  const prevMover = S.view ? S.view.to_move : null;
  const prevDeal = S.view ? S.view.deal_index : null;
  for (const e of f.events) {
    if (e.type === E.DEAL_START) S.events = [];
    S.events.push(e);
  }
  if (f.reveal) {  // the action ended a deal: every hand is turned up (摊牌)
    const end = f.events.filter((e) => e.type === E.DEAL_OVER || e.type === E.DEAL_SETTLED);
    startEnd(f.interval || { deal: prevDeal ?? f.view.deal_index, waiting: [], left: 0 }, f.reveal, end,
      S.view ? S.view.level : null);
  }
  else if (S.end && !S.end.deadline && !(S.end.waiting || []).length) S.endClosed = S.end.deal;  // no pause: it goes with the next action
  S.seq = f.seq; S.view = f.view; S.showLastTrick = false;
  if (f.view.deal_index !== prevDeal) { S.groups = null; loadGroups(); }
  if (f.view.to_move !== prevMover || f.action.seat === S.me) { S.selected.clear(); S.hints = []; S.notice = null; }
  if (f.view.to_move === S.me && prevMover !== S.me && S.me !== null) playSound("turn");
  setClock(f.clock);
}

// The pause after a deal, as the panel shows it; its countdown runs on this page's clock.
// level: the ended deal's (its wildcards in the hands turned up); the view may be the next deal's already
function startEnd(interval, reveal, events, level = null) {
  S.end = { deal: interval.deal, reveal, events: events || [], waiting: interval.waiting || [],
    deadline: interval.left > 0 ? Date.now() + interval.left * 1000 : null, level: level ?? interval.level ?? null };
}

function setClock(clock) {
  S.clock = clock ? { seat: clock.seat, seconds: clock.seconds, started: Date.now() - (clock.seconds - clock.left) * 1000 } : null;
}

// Where the motion starts and ends (table_fx.js): a seat's plate and its place on the table.
const SLOT = (s) => ["me", "right", "top", "left"][(s - (S.me ?? 0) + 4) % 4];
const WHERE = {
  plate: (s) => $(`pos-${SLOT(s)}`),
  plates: () => [...document.querySelectorAll("#table .seat-plate")].filter((n) => n.offsetParent),
  trick: (s) => $(`trick-${SLOT(s)}`),
  centre: () => $("center"),
};
// The centre of the player's selected cards before a render: their play flies from there.
function handOrigin() {
  const picked = [...document.querySelectorAll("#hand .card.selected")];
  if (!picked.length) return null;
  const rs = picked.map((n) => n.getBoundingClientRect());
  const left = Math.min(...rs.map((r) => r.left)), right = Math.max(...rs.map((r) => r.right));
  return { x: (left + right) / 2, y: rs[0].top + rs[0].height / 2 };
}

// --- 理牌: the arrangement of the hand, per deal, kept in sessionStorage (it survives a refresh) ----------
function groupsKey() { return S.view && S.me !== null ? arrangementKey(code, S.me, S.view.deal_index) : null; }
function loadGroups() {
  const key = groupsKey();
  if (!key) return;
  try { const saved = JSON.parse(sessionStorage.getItem(key) || "null"); S.groups = saved ? reconcile(saved, S.view.hand) : null; }
  catch { S.groups = null; }
}
function saveGroups() {
  const key = groupsKey();
  if (key && S.groups) { try { sessionStorage.setItem(key, JSON.stringify(S.groups)); } catch { /* private mode: this page only */ } }
}
function arrangedGroups() {
  if (!S.groups) return null;
  S.groups = reconcile(S.groups, S.view.hand);  // cards played or given since drop out, a returned card joins the rest
  return S.groups;
}

// --- the account's seat, on this device ------------------------------------------------------------
// A logged-in player whose account holds a seat of this room that this browser has no token for (taken on another
// device, or moved from this one: GET /api/me/tables) is offered to take it here ("Take your seat here": POST
// /api/rooms/{code}/reclaim with the session's CSRF token): the new token is kept as a seat taken here is, and the page
// comes back as the seat while the device that held it watches. Asked once the page is in as a spectator, and again
// after its own seat went elsewhere; never for a guest or another account's page (the server lists them none).
async function askClaim() {
  if (S.me !== null || tokenFor(code)) { S.claim = null; document.body.dataset.claim = "none"; render(); return; }
  if (S.claimAsked) return;
  S.claimAsked = true;
  S.claimAnswered = false;
  const { csrf, tables } = await accountTables();
  const mine = tables.find((x) => x.code.toUpperCase() === code);
  S.claim = mine && S.me === null && !tokenFor(code) ? { csrf, seat: mine.seat } : null;
  S.claimAnswered = true;
  document.body.dataset.claim = S.claim ? "offered" : "none";  // asked and answered
  render();  // the lobby's "Sit here" waited for the answer
}
function renderClaim() {
  const on = !!S.claim && !S.gone && !(S.room && S.room.status === ROOM.OVER);
  $("claim").classList.toggle("hidden", !on);
  if (on) $("claim-text").textContent = fmt("Your account holds seat {n} in this room.", { n: S.claim.seat + 1 });
}
$("claim-btn").onclick = async () => {
  if (!S.claim) return;
  $("claim-error").textContent = "";
  $("claim-btn").disabled = true;
  try {
    await reclaimSeat(code, S.claim.csrf);
    S.claim = null; S.moved = null;
    $("msg").textContent = ""; $("lobby-error").textContent = "";
    reconnectNow();
  } catch (e) { $("claim-error").textContent = errorText(e); }
  finally { $("claim-btn").disabled = false; }
};

// --- lobby ------------------------------------------------------------------------------------
async function lobbyCall(path, body) {
  try { $("lobby-error").textContent = ""; S.room = await api(`/api/rooms/${code}/${path}`, body); render(); }
  catch (e) { $("lobby-error").textContent = errorText(e); }
}

function renderLobby() {
  // what a player agrees to by sitting down: the room's name, its rules, how many deals, its clock, whether it is rated
  const r = S.room;
  const at = r.event_table;  // an online event's table: its round and number, in the page's language
  $("lobby-facts").replaceChildren(...[r.name ? el("strong", {}, r.name) : null,
    at ? el("span", { class: "tag", "data-testid": "lobby-event-table" }, fmt("Round {round}, table {table}", at)) : null,
    el("span", { class: "tag" }, t(r.preset)),
    el("span", { class: "tag", "data-testid": "lobby-deals" }, dealsText(r.max_deals)),
    el("span", { class: "tag" }, timerText(r.timer)),
    r.rated ? el("span", { class: "tag" }, t("Rated")) : null,
    r.practice ? el("span", { class: "tag" }, t("Practice")) : null].filter(Boolean));
  const box = $("lobby-seats");
  box.replaceChildren();
  const token = tokenFor(code);
  const authority = token || hostTokenFor(code);
  S.room.seats.forEach((seat, i) => {
    // partners sit across: seats 1 and 3 are team 1, 2 and 4 team 2 (a player picks a partner by the seat)
    const parts = [el("div", {}, `${fmt("Seat {n}", { n: i + 1 })} `, el("span", { class: `badge team-${i % 2}` }, fmt("Team {n}", { n: (i % 2) + 1 })))];
    if (seat.kind === "empty") {
      parts.push(el("div", {}, t("Open seat")));
      // an account that holds a seat here already (taken on another device) is offered that one, above, not a second
      // (the server refuses it); until the server has said whether it does, no seat is offered
      if (!token && S.claimAnswered && !S.claim) {
        parts.push(el("button", { id: `sit-${i}`, disabled: !S.online, onclick: async () => {
          const name = $("name").value.trim();
          localStorage.setItem("guandan:name", name);
          try {
            const res = S.room.rated ? await joinRated(code, i) : await api(`/api/rooms/${code}/join`, { seat: i, name });
            saveToken(code, res.token); reconnectNow();
          } catch (e) {
            $("lobby-error").textContent = errorText(e);
            // a guest at a rated room: the account page logs in or signs up, then comes back to this room
            if (e.code === "not_logged_in") {
              $("lobby-error").append(" ", el("a", { href: `/account?next=${encodeURIComponent(location.pathname)}`,
                "data-testid": "lobby-login" }, t("Log in or sign up")));
            }
          }
        } }, t("Sit here")));
      }
      if (authority) parts.push(el("button", { id: `bot-${i}`, disabled: !S.online, onclick: () => lobbyCall("bots", { token: authority, seat: i, tier: META.default_tier }) }, t("Add bot")));
    } else {
      // a bot's stored name is the server's English: its catalogued name instead, as at the table
      parts.push(el("div", {}, seat.kind === "bot" ? seatName(i) : seat.name || seatName(i),
        seat.kind === "bot" ? el("span", { class: "badge" }, t("bot")) : null,
        seat.kind === "human" ? el("span", { class: `badge${seat.ready ? " ok" : ""}` }, seat.ready ? t("Is ready") : t("Is not ready")) : null));
      // a practice room's chosen seed is accepted only while every seat but one is a bot: its bots stay
      const keeps = S.room.practice && S.room.seats.some((x) => x.kind !== "bot");
      if (seat.kind === "bot" && authority && !keeps) parts.push(el("button", { id: `unbot-${i}`, disabled: !S.online, onclick: () => lobbyCall("bots", { token: authority, seat: i, tier: null }) }, t("Remove bot")));
    }
    box.append(el("div", { class: "seat-box", "data-seat": i }, parts));
  });
  // four bots never start by themselves: the room's creator starts them as a match to watch (or makes a seat
  // to play), everyone else is told that it waits for the creator; a server that runs no bot matches to watch
  // (serve --max-watched-tables 0: /api/meta's watch) offers no button, whose tap it would refuse
  const host = hostTokenFor(code);
  const watching = META.watch !== false;
  const msgid = !botMatch() ? "Waiting for players"
    : !watching ? (host ? "Every seat is a bot, and this server runs no bot matches to watch: remove one and take its seat to play"
      : "Every seat is a bot, and this server runs no bot matches to watch: the match begins once the room's creator frees a seat")
    : host ? "Every seat is a bot: watch them play a whole match, or remove one and take its seat to play"
      : "Every seat is a bot: the match begins when the room's creator starts it for everyone to watch";
  $("lobby-msg").dataset.t = msgid;
  $("lobby-msg").textContent = t(msgid);
  $("watch").classList.toggle("hidden", !(botMatch() && host && watching));
  $("watch").disabled = !S.online;
  $("watch").onclick = () => lobbyCall("watch", { token: host });
  const mine = S.me !== null && S.room.seats[S.me];
  // an event's table starts once its four players have sat (the server refuses leaving it and readiness), and
  // its names, like a rated room's, are the accounts': no name to type, nothing to press here
  const bound = Boolean(S.room.event);
  $("name").closest("p").classList.toggle("hidden", bound || Boolean(S.room.rated));
  $("ready").classList.toggle("hidden", !mine || bound);
  $("leave").classList.toggle("hidden", !mine || bound);
  $("ready").disabled = $("leave").disabled = !S.online;
  if (mine) {
    $("ready").textContent = mine.ready ? t("Not ready") : t("Ready");
    $("ready").onclick = () => lobbyCall("ready", { token, ready: !mine.ready });
    $("leave").onclick = async () => { await lobbyCall("leave", { token }); dropToken(code); reconnectNow(); };
  }
}

// --- table ------------------------------------------------------------------------------------
// every seat a bot: a match to watch (its creator started it; every page spectates)
const botMatch = () => S.room.seats.every((x) => x.kind === "bot");

// A match of four bots keeps its replay for the creator's host token (no seat token played it): the creator's
// page asks for its link once, when the match is over (the table's frames give it to players only).
function askReplay() {
  const host = hostTokenFor(code);
  if (S.hostReplay) { S.room.replay_id = S.room.replay_id || S.hostReplay; return; }
  if (S.replayAsked || S.room.status !== ROOM.OVER || S.room.replay_id || S.me !== null || !host || !botMatch()) return;
  S.replayAsked = true;
  api(`/api/rooms/${code}?token=${encodeURIComponent(host)}`)
    .then((r) => { if (r.replay_id) { S.hostReplay = r.replay_id; render(); } })
    .catch(() => {});  // no link then: the lobby's list of replays has it
}

const rankLabel = (r) => (r === "T" ? "10" : r);  // 10 is written "10"

function seatName(s) {
  const seat = S.room.seats[s];
  if (seat.kind === "bot") return fmt("Bot {n} · {tier}", { n: s + 1, tier: t(seat.tier) });
  return seat.name || fmt("Player {n}", { n: s + 1 });
}
const seatNames = () => [0, 1, 2, 3].map(seatName);
// the same without a bot's tier, where a column has room for a few words only
function shortSeatName(s) {
  return S.room.seats[s].kind === "bot" ? fmt("Bot {n}", { n: s + 1 }) : seatName(s);
}

// An event's lines come from the server, written by the presentation layer in every language.
const describe = (e) => eventLines(e).join(" · ");
// The text's mark of a wildcard (逢人配) after a card, "♥2*": a learner never met it explained anywhere. Said once in
// the log wherever one of its lines has it, and under a play's own words (its fan's tooltip)
const WILD_MARKED = /[♠♥♣♦](?:10|[2-9JQKA])\*/;
const WILD_LEGEND = "* marks a wildcard: the ♥ card of the level, which stands in for any card but a joker";
const withLegend = (text) => WILD_MARKED.test(text) ? `${text}\n${t(WILD_LEGEND)}` : text;

// The current trick: each seat's last play or pass since the round began, and who is winning it (the
// last play); the trick before it stays available for 上一轮 (last trick).
function trickState() {
  let plays = {}, winner = null, last = null, lastWinner = null;
  for (const e of S.events) {
    if (e.type === E.PLAY) { plays[e.seat] = e; winner = e.seat; }
    else if (e.type === E.PASS) plays[e.seat] = e;
    else if (e.type === E.ROUND_WON || e.type === E.LEAD || e.type === E.DEAL_START) {
      if (Object.keys(plays).length) { last = plays; lastWinner = winner; }
      plays = {}; winner = null;
    }
  }
  return { plays, winner, last, lastWinner };
}

// The hand in display order: {c, i, g} (card, index in the view's hand, group number under 理牌).
function sortedHand() {
  const v = S.view;
  const hand = (v.hand || []).map((c, i) => ({ c, i, g: 0 }));
  const groups = S.sort === "groups" ? arrangedGroups() : null;
  if (groups) {
    const free = new Map();  // card code -> indices of the hand not yet placed (two decks: duplicates)
    hand.forEach(({ c, i }) => free.set(c, [...(free.get(c) || []), i]));
    const out = [];
    groups.forEach((g, gi) => {
      const cards = [...g.cards].sort((a, b) => cardValue(a, v.level) - cardValue(b, v.level));
      for (const c of cards) { const i = free.get(c).shift(); out.push({ c, i, g: gi, kind: g.kind }); }
    });
    return out;
  }
  const key = S.sort === "suit"
    ? ({ c }) => (rankOf(c) === c ? 500 : "SHCD".indexOf(c[0]) * 100) + cardValue(c, v.level)
    : ({ c }) => cardValue(c, v.level);
  return hand.sort((a, b) => key(a) - key(b));
}

function selectedCards() { return [...S.selected].map((i) => S.view.hand[i]); }

function legalPlays() { return (S.view.legal || []).filter((a) => a.kind === K.PLAY); }

// The legal plays of exactly the selected cards. A view whose list was too long to send whole
// (legal_complete false, e.g. 火拼 leads) is answered per selection by a "readings" frame:
// null means the answer is on its way.
function playsFor(sel) {
  if (S.view.legal_complete !== false) return legalPlays().filter((a) => sameCards(a.cards, sel));
  if (!sel.length) return [];
  const key = [...sel].sort().join(" ");
  if (S.readings && S.readings.seq === S.seq && S.readings.key === key) return S.readings.actions;
  if (S.asked !== `${S.seq}:${key}` && send({ type: "readings", cards: sel })) S.asked = `${S.seq}:${key}`;
  return null;
}

// Why the selection is no legal play, in words, before anything is sent: the server reads the cards (a
// "readings" request, answered with the readings that beat the table — none here — and why not).
function whyNot(sel) {
  const key = [...sel].sort().join(" ");
  if (S.readings && S.readings.seq === S.seq && S.readings.key === key) {
    const why = S.readings.why;
    return why ? why.text[lang()] || why.text.en : null;
  }
  if (S.asked !== `${S.seq}:${key}` && send({ type: "readings", cards: sel })) S.asked = `${S.seq}:${key}`;
  return null;
}

// Between two deals nobody acts (the server refuses it): the next deal begins once the pause is over.
function betweenDeals() { return !!(S.end && S.end.deadline); }  // the deadline is cleared when the server says done

function myTurn() {
  if (betweenDeals()) return false;
  return S.me !== null && S.view && S.view.to_move === S.me && ((S.view.legal || []).length > 0 || !!S.view.can_play);
}

// A generated avatar: the name's first character on a colour drawn from the name (no image downloads).
function avatar(s) {
  const name = seatName(s);
  let h = 0;
  for (const ch of name) h = (h * 31 + ch.codePointAt(0)) % 360;
  const node = el("div", { class: `avatar team-${s % 2}`, "data-seat": s }, [...name][0] || String(s + 1),
    el("span", { class: "ring hidden" }));
  node.style.background = `hsl(${h} 45% 38%)`;  // CSSOM, not an inline style attribute: allowed by the CSP
  return node;
}

function renderSeat(box, s) {
  const v = S.view;
  const seat = S.room.seats[s];
  box.classList.toggle("to-move", v.to_move === s);
  box.dataset.seat = s;
  box.dataset.testid = `seat-${s}`;
  const place = v.finish.indexOf(s);
  const timed = !!S.clock && S.clock.seat === s && v.to_move === s;  // the server sends no clock for a bot's turn
  const marks = [
    seat.kind === "bot" ? el("span", { class: "badge" }, t("bot")) : null,
    seat.auto ? el("span", { class: "badge warn" }, t("Auto-play")) : null,
    seat.kind === "human" && !seat.online ? el("span", { class: "badge warn" }, t("offline")) : null,
    v.reported[String(s)] !== undefined && place < 0 ? el("span", { class: "badge warn report" }, fmt("Reported {n}", { n: v.reported[String(s)] })) : null,
    place >= 0 ? el("span", { class: "badge" }, placeName(place + 1)) : null,
    timed ? el("span", { class: "timer-text", "data-testid": "timer" }, "") : null,
  ];
  const face = avatar(s);
  if (timed) face.querySelector(".ring").classList.remove("hidden");
  const bubble = box.querySelector(".talk-bubble");  // a phrase still being said stays through the render
  box.replaceChildren(face, el("div", { class: "who" },
    el("span", { class: "nm", title: seatName(s) }, seatName(s)),
    el("span", { class: "marks" }, el("span", { class: `badge team-${s % 2}` }, fmt("Team {n}", { n: s % 2 + 1 })), marks)));
  if (bubble) box.append(bubble);
}

function renderTrick(box, s, trick, showLast) {
  const plays = showLast ? trick.last || {} : trick.plays;
  const winner = showLast ? trick.lastWinner : trick.winner;
  const e = plays[s];
  box.classList.toggle("winning", !!e && e.type === E.PLAY && winner === s);
  box.classList.toggle("last-round", showLast);
  box.dataset.seat = s;
  if (!e) { box.replaceChildren(); return; }
  if (e.type === E.PASS) { box.replaceChildren(el("span", { class: "passed" }, t("Pass"))); return; }
  // in the order its combination reads, each wildcard marked in the place it stands for: the server's reading
  const fan = el("div", { class: "cards-fan", title: withLegend(describe(e)) }, playNodes(e, { small: true }));
  if (winner === s) fan.append(el("span", { class: "crown", "aria-hidden": "true" }, "★"));
  box.replaceChildren(fan);
}

function renderTable() {
  const v = S.view;
  const me = S.me ?? 0;
  document.body.dataset.phase = v.phase;
  document.body.dataset.toMove = v.to_move ?? "";
  document.body.dataset.seq = S.seq;
  document.body.dataset.deal = v.deal_index;
  renderSeat($("pos-right"), (me + 1) % 4);
  renderSeat($("pos-top"), (me + 2) % 4);
  renderSeat($("pos-left"), (me + 3) % 4);
  renderSeat($("pos-me"), me);
  const trick = trickState();
  const showLast = S.showLastTrick && !!trick.last;
  renderTrick($("trick-right"), (me + 1) % 4, trick, showLast);
  renderTrick($("trick-top"), (me + 2) % 4, trick, showLast);
  renderTrick($("trick-left"), (me + 3) % 4, trick, showLast);
  renderTrick($("trick-me"), me, trick, showLast);
  $("last-trick").disabled = !trick.last;
  $("last-trick").setAttribute("aria-pressed", String(showLast));
  $("center-note").replaceChildren(S.room.paused  // said in the middle of the table, where every player looks
    ? el("span", { id: "paused", class: "badge warn" }, t(botMatch()  // a page is open on it: only the caps hold it
      ? "This bot match is paused: as many bot matches are running as the server allows (in all, or for your address). It goes on by itself once one stops."
      : "The table is paused: no player is connected. It goes on when one returns."))
    : showLast ? t("Last trick") : tributeNote());
  const lastReview = v.deal_index > 0 && S.room.status !== ROOM.OVER;
  $("info").replaceChildren(...[
    // both teams' levels as two badges in their colours: short enough for a phone's corner
    el("div", { id: "levels", class: "levels", title: t("Levels") }, [0, 1].map((k) =>
      el("span", { class: `badge team-${k}` }, `${fmt("Team {n}", { n: k + 1 })} · ${rankLabel(v.levels[k])}`))),
    // once the match is over the view still shows its last deal, while deal_index counts every deal played
    el("div", {}, `${labelled(t("Level"), rankLabel(v.level))} · ${fmt("Deal {n}", { n: v.ended ? v.deal_index : v.deal_index + 1 })}`),
    // the first deal has no declarer (庄家) yet: the line waits for one
    v.declarer === null ? null : el("div", {}, labelled(t("Declarer"), fmt("Team {n}", { n: v.declarer + 1 }))),
    v.levels.includes("A") ? el("div", {}, labelled(t("A failures"), v.a_failures.join(" / "))) : null,
    v.finish.length ? el("div", { id: "finish" }, labelled(t("Finishing order"), v.finish.map(seatName).join(" > "))) : null,
    S.me === null ? el("div", { class: "badge" }, t("Spectating")) : null,
    // while the next deal is played, the last one's review stays a tap away: here, or atop the log on a phone held
    // sideways, whose corner has no line to spare (a team at A in a double tribute fills it)
    lastReview && !SIDEWAYS.matches ? dealReviewLink(v.deal_index - 1, "last-deal-review", "badge") : null,  // a badge: legible on the felt
    UPRIGHT.matches ? commitmentNode(v.commitment) : null,
    S.room.rated ? el("div", {}, el("a", { class: "badge", id: "rated", href: withLang(`/leaderboard?preset=${encodeURIComponent(S.room.preset)}`) }, t("Rated"))) : null,
    // the deal's tribute (进贡/还贡/抗贡) stays in view for the whole deal: it tells who holds which card
    el("div", { id: "tribute-info" }, S.events.filter((e) => [E.TRIBUTE, E.RETURN, E.ANTI_TRIBUTE].includes(e.type))
      .flatMap(tributeLines)),
  ].filter(Boolean));
  // the commitment's chip: in the header, whose width is free, and among the facts on an upright phone, where it is not
  $("fair").replaceChildren(...(UPRIGHT.matches ? [] : [commitmentNode(v.commitment)]));
  const log = $("log");
  const items = S.events.slice(-40).reverse().filter((e) => eventLines(e).length)
    .map((e) => el("li", { "data-type": e.type }, describe(e)));
  if (items.some((li) => WILD_MARKED.test(li.textContent))) {
    items.unshift(el("li", { class: "legend", "data-testid": "wild-legend" }, t(WILD_LEGEND)));
  }
  const reviewItem = lastReview && SIDEWAYS.matches ? dealReviewLink(v.deal_index - 1, "last-deal-review") : null;
  if (reviewItem) items.unshift(el("li", { class: "review-item" }, reviewItem));
  log.replaceChildren(...items);
  renderCounter();
  renderSummary();
  renderHand();
  // the words a newcomer meets explain themselves on a tap: each place once (glossary.js)
  for (const id of ["info", "log", "center-note", "summary", "pos-top", "pos-left", "pos-right", "pos-me"]) explainTerms($(id));
  // the seats were drawn anew: their timer and ring at once, not blank (or full) until the clock's next tick up to
  // 250 ms later, a flicker on every tap of a card and every play
  renderTimer();
}

// The deal's commitment (SHA-256 of its secret seed), shown before it is played; the seed is revealed in the replay.
// Its chip shows the hash's start (and a practice room's badge: the creator chose the seed); a tap on it opens the
// whole hash, with what it is, over the table: a phone has room for neither in full (both were cut in the corner of
// the table's facts, held sideways). It stays open through the table's renders until it is tapped again, or the
// table elsewhere.
function commitmentNode(hash) {
  const practice = !!S.room.practice;
  // the state is kept at the tap itself, not on "toggle": that event comes a task later, after a frame's render may
  // have drawn the node anew, closed
  const node = el("details", { id: "commitment", class: "commitment", "data-commitment": hash, "data-testid": "commitment" },
    el("summary", { onclick: () => { S.commitmentOpen = !node.open; } },
      practice ? el("span", { class: "badge", id: "practice", title: t("Practice: the creator chose the seed") }, t("Practice")) : null,
      el("span", { class: "label" }, t("Deal commitment")), el("span", { class: "short" }, `${hash.slice(0, 8)}…`)),
    el("div", { class: "commitment-full" },
      el("div", {}, termText("commitment")),
      el("code", { class: "hash", "data-testid": "commitment-hash" }, hash),
      practice ? el("div", {}, t("Practice: the creator chose the seed")) : null));
  node.open = !!S.commitmentOpen;
  return node;
}
document.addEventListener("click", (ev) => {  // a tap anywhere else closes the whole hash
  const open = $("commitment");
  if (open && open.open && !open.contains(ev.target)) { open.open = false; S.commitmentOpen = false; }
});
document.addEventListener("keydown", (ev) => {  // and Esc, as it closes a word's explanation (glossary.js)
  const open = $("commitment");
  if (ev.key === "Escape" && open && open.open) { open.open = false; S.commitmentOpen = false; }
});

// One line a card given (a double tribute has two): the card before the names, so that a narrow corner cuts a
// name, never the card; the whole sentence is the line's tooltip.
function tributeLines(e) {
  if (!e.transfers) return [el("div", { "data-type": e.type, title: describe(e) }, describe(e))];
  const said = eventLines(e);
  return e.transfers.map((tr, i) => el("div", { "data-type": e.type, title: said[i] || describe(e) },
    el("span", { class: "tlabel" }, `${t(e.type === E.TRIBUTE ? "Tribute" : "Return")} `),
    el("span", { class: `tcard${isRed(tr.card) ? " red" : ""}${JOKERS.includes(tr.card) ? " joker" : ""}`, "data-card": tr.card },
      cardText(tr.card)),
    // a narrow column keeps who holds the card now: the giver gives way first (style.css); a phone held sideways
    // names a bot by its seat alone ("Bot 3 · Heuristic" was cut to "Bot 3 · He…"), its tier is on its plate
    el("span", { class: "giver" }, ` ${seatName(tr.giver)}`), el("span", { class: "receiver" }, " → ",
      el("span", { class: "long" }, seatName(tr.receiver)), el("span", { class: "short" }, shortSeatName(tr.receiver)))));
}

// In the tribute and return phases the middle of the table says who pays whom (进贡/还贡): who pays comes
// with the view; once the cards are given, the tribute's own lines say it all.
function tributeNote() {
  const v = S.view;
  const payers = v.tribute_payers || [];
  if (payers.length) {
    const msgid = payers.length > 1 ? "{who} pay tribute" : "{who} pays tribute";
    return el("span", { class: "tribute-note" },
      withWholeNames(fmt(msgid, { who: payers.map(seatName).join(t(", ")) }), seatNames()));
  }
  if (v.phase === PHASE.RETURN) {
    // a double tribute's two givings each on a line of their own: run together, a narrow centre broke them
    // mid-sentence ("… Small Joker · Tribute: Bot 2" over "→ Player 1: Small Joker")
    return el("span", { class: "tribute-note" }, S.events.filter((e) => e.type === E.TRIBUTE).flatMap(eventLines)
      .map((line) => el("span", { class: "tribute-line" }, withWholeNames(line, seatNames()))));
  }
  return "";
}

function renderCounter() {
  const box = $("counter");
  const show = S.room.counter && S.me !== null;
  box.classList.toggle("hidden", !show);
  if (!show) return;
  const left = {};
  for (const r of RANKS) left[r] = 8;
  left.LJ = 2; left.BJ = 2;
  const seen = [...(S.view.hand || [])];
  for (const e of S.events) if (e.type === E.PLAY) seen.push(...e.cards);
  for (const c of seen) left[rankOf(c)] -= 1;
  box.replaceChildren(el("div", {}, t("Card counter")),
    el("div", {}, [...RANKS, "LJ", "BJ"].map((r) => `${r === "T" ? "10" : r}:${left[r]}`).join(" ")));
}

function renderSummary() {
  const box = $("summary");
  const over = S.room.status === ROOM.OVER;
  const showEnd = S.end && S.endClosed !== S.end.deal;
  box.dataset.testid = "deal-end";
  $("table").classList.toggle("ending", !!showEnd);
  if (!showEnd && !over) { box.classList.add("hidden"); box.replaceChildren(); return; }
  box.classList.remove("hidden");
  const { line, links } = over ? matchEnd() : { line: null, links: null };
  box.replaceChildren(...(showEnd ? dealEndPanel(S.end, {
    // the next deal's events (after the last deal there is none: the events are the last deal's own)
    view: S.view, events: over ? [] : S.events, seatName, me: S.me, matchLine: line,
    matchLinks: links || (over ? null : dealReviewLink(S.end.deal, "deal-review-link")),
    onContinue: () => { send({ type: "continue" }); S.endClosed = S.end.deal; render(); },
    onClose: () => { S.endClosed = S.end.deal; render(); },
  }) : [line, links].filter(Boolean)));
}

// The review (复盘) of a finished deal of the match in play, for this page's seat, in a tab of its own (the seat
// stays at the table): a learner learns from the deal just played, not only once the match is over. Refused at
// rated tables and events' (server/deal_reviews.py says why): not offered at either.
function dealReviewLink(deal, id, look = "") {
  if (S.me === null || S.room.rated || S.room.event) return null;
  return el("div", { class: "match-links" }, el("a", {
    id, class: `deal-review ${look}`, href: withLang(`/r/${code}/review/${deal}#review`), target: "_blank", rel: "noopener",
  }, fmt("Review deal {n}", { n: deal + 1 })));
}

// the match's end: who won, after how many deals (the server's first line of it: its second, the final levels, is
// what the panel's ladders and the corner already show); and the links to its replay and review
function matchEnd() {
  const w = S.view.winner;
  const said = S.events.find((e) => e.type === E.MATCH_OVER);
  const line = el("div", { id: "match-over", class: "headline" }, said && eventLines(said).length ? eventLines(said)[0]
    : w !== null ? fmt("{team} wins the match", { team: fmt("Team {n}", { n: w + 1 }) }) : t("Match over"));
  // an online event's table: its players go back to the event's page (their result, the next round)
  const at = S.room.event_table;
  const back = at ? el("a", { id: "event-link", "data-testid": "event-link", href: `/events/${at.event}` }, t("Back to the event")) : null;
  const again = playAgain();
  if (!S.room.replay_id) return { line, links: (back || again) && el("div", { class: "match-links" }, back, again) };
  const mine = S.me === null || S.me === undefined ? "" : `?review=${S.me}`;  // the review of this player's seat
  return { line, links: el("div", { class: "match-links" }, back, back && " ",
    el("a", { id: "replay-link", href: `/replay/${S.room.replay_id}` }, t("Replay")), " ",
    el("a", { id: "review-link", href: `/replay/${S.room.replay_id}${mine}#review` }, t("Review (复盘)")), again) };
}

// 再来一局: a match against bots ends with the next one a tap away, in a new room of the same rules, bots, clocks and
// length, the player in the same seat and ready (as the start page's Play now makes one; a practice room's seed is
// not carried: new cards). Left out where other people sit, and at rated and events' tables, whose next match is
// not one player's to start.
function playAgain() {
  const r = S.room;
  if (S.me === null || r.rated || r.event || r.event_table || !r.seats.every((x, i) => i === S.me || x.kind === "bot")) return null;
  const said = el("span", { class: "error", role: "alert" });
  const go = el("button", { class: "primary", id: "play-again", "data-testid": "play-again", onclick: async () => {
    go.disabled = true;
    said.textContent = "";
    try {
      const { name: _preset, ...rules } = r.rules;  // the preset's own name is no override
      const room = await api("/api/rooms", {
        preset: r.preset, rules, bots: r.seats.map((x) => (x.kind === "bot" ? x.tier : null)), timer: r.timer,
        first_timer: r.first_timer, next_deal_s: r.next_deal_s, counter: r.counter, max_deals: r.max_deals, listed: false,
      });
      saveHostToken(room.code, room.host_token);
      const seat = await api(`/api/rooms/${room.code}/join`, { seat: S.me, name: r.seats[S.me].name || "" });
      saveToken(room.code, seat.token);
      await api(`/api/rooms/${room.code}/ready`, { token: seat.token, ready: true });
      location.href = room.link;
    } catch (e) { go.disabled = false; said.textContent = errorText(e); }
  } }, t("Play again"));
  return el("span", { class: "play-again" }, go, said);
}

function renderHand() {
  const v = S.view;
  const hand = $("hand");
  const controls = $("controls");
  const player = S.me !== null;
  controls.classList.toggle("watching", !player);  // a spectator: the bottom seat's plate there, nothing to press
  $("auto-banner").classList.toggle("hidden", !(player && S.room.seats[S.me].auto));
  if (!player) { hand.replaceChildren(); syncMsg(); return; }
  let lastGroup = 0;
  hand.classList.toggle("grouped", S.sort === "groups" && !!S.groups);
  const may = givable();
  const got = receivedCards();
  hand.replaceChildren(...sortedHand().map(({ c, i, g, kind }, k) => {
    const node = cardNode(c, v.level);
    node.dataset.index = i;
    node.dataset.testid = "card";
    node.dataset.group = g;
    if (k > 0 && g !== lastGroup) node.classList.add("group-start");
    if (kind && kind !== REST && k === 0) node.dataset.kind = kind;
    lastGroup = g;
    if (S.selected.has(i)) node.classList.add("selected");
    if (may && !may.has(c)) { node.classList.add("ineligible"); node.setAttribute("aria-disabled", "true"); }
    const from = got.findIndex((x) => x.card === c);
    if (from >= 0) markReceived(node, got.splice(from, 1)[0].type);  // one node a card given (two decks: twins)
    return node;
  }));
  fanOut(hand);
  $("column").disabled = !S.selected.size;
  $("sort").textContent = { rank: t("By rank"), suit: t("By suit"), groups: t("Groups") }[S.sort];
  const turn = myTurn();
  const legal = v.legal || [];
  const kind = legal.length ? legal[0].kind : null;
  const readings = $("readings");
  readings.replaceChildren();
  const msg = $("msg");
  let canPlay = false;
  if (turn && (kind === K.TRIBUTE || kind === K.RETURN)) {
    msg.textContent = givingPrompt(kind, legal);
    const sel = selectedCards();
    canPlay = sel.length === 1 && legal.some((a) => a.cards[0] === sel[0]);
    $("play").textContent = kind === K.TRIBUTE ? t("Tribute") : t("Return");
  } else if (turn && kind === K.CHOOSE) {
    msg.textContent = t("Choose a tribute card");
    for (const a of legal) readings.append(el("button", { class: "choose", disabled: !S.online, onclick: () => act(a) }, cardText(a.cards[0])));
  } else {
    $("play").textContent = t("Play");
    const sel = selectedCards();
    if (turn) {
      const found = playsFor(sel);
      const pending = found === null;
      const matches = found || [];
      const hint = shownHint();
      const chosen = chosenPlay(matches, sel, hint);
      // the hint's own cards keep its words (its play and why) through a re-render, e.g. a readings answer
      const hinted = hint && sameCards(hint.action.cards, sel) ? hintWords(hint) : "";
      canPlay = chosen !== null;
      if (matches.length > 1) {
        for (const a of matches) {
          readings.append(el("button", { class: a === chosen ? "reading chosen" : "reading", disabled: !S.online,
            "aria-pressed": a === chosen ? "true" : "false", onclick: () => act(a) }, comboName(a.combo)));
        }
      }
      if (pending) msg.textContent = "…";
      else if (sel.length && !matches.length) msg.textContent = whyNot(sel) || t("Not a legal play");
      else if (hinted && (chosen || !sel.length)) msg.textContent = hinted;
      else if (matches.length > 1) msg.textContent = chosen ? comboName(chosen.combo) : t("Choose the reading");
      else msg.textContent = matches.length === 1 ? comboName(matches[0].combo) : t("Your turn");
    } else if (!msg.dataset.sticky) msg.textContent = "";
  }
  msg.textContent = sentence(msg.textContent);
  const notice = S.online ? noticeOn() : "";  // a refusal just told stays readable: until it times out or the player moves on
  if (notice) msg.textContent = notice;
  msg.classList.toggle("notice", !!notice);
  if (!S.online) msg.textContent = t("Your controls come back when the connection does");
  // what a tribute or return may be (a return's limit) is shown whole once at the turn's start, where the row cuts it
  // (at 667 px English kept "Return a card from 2 to 10,…"), as an asked-for hint is
  const giving = turn && !notice && (kind === K.TRIBUTE || kind === K.RETURN) ? `${v.deal_index}:${kind}` : null;
  if (giving && S.promptShown !== giving) { S.promptShown = giving; S.msgOpen = msg.textContent; }
  $("play").disabled = !canPlay || !S.online;
  $("center").classList.toggle("can-play", canPlay && S.online);
  $("pass").disabled = !(turn && legal.some((a) => a.kind === K.PASS)) || !S.online;
  $("hint").disabled = !turn || !S.online;
  $("auto").disabled = S.room.status !== ROOM.PLAYING || !S.online;
  $("auto-off").disabled = !S.online;
  syncMsg();
}

// The words beside the buttons read as a sentence: a combination's English name begins one ("Full house 8: …", where
// the server's words, written to stand inside a sentence of the log, begin "full house").
const sentence = (text) => text.charAt(0).toUpperCase() + text.slice(1);

// What the player is asked to give: the card, where only one may go, and a return's limit under the competition's
// rule (RULES.md §4.2.6: a card from 2 to 10 that is not of the level's rank, else one of the smallest). `legal`: the
// turn's tribute or return actions, one a card.
function givingPrompt(kind, legal) {
  const cards = [...new Set(legal.map((a) => a.cards[0]))];
  const card = cards.length === 1 ? cardText(cards[0]) : null;
  if (kind === K.TRIBUTE) {
    return card ? fmt("Pay tribute: {card}, the only card you may pay", { card }) : t("Pay tribute: pick your card");
  }
  const rule = S.room.rules ? S.room.rules.return_rule : "any";
  const payer = S.events.filter((e) => e.type === E.TRIBUTE).flatMap((e) => e.transfers || [])
    .find((tr) => tr.receiver === S.me)?.giver;
  const capped = rule === "le10" || (rule === "le10_if_partner" && payer === (S.me + 2) % 4);
  if (!capped) return card ? fmt("Return a card: {card}, the only card you may return", { card }) : t("Return a card");
  const low = (c) => !JOKERS.includes(c) && RANKS.indexOf(rankOf(c)) <= RANKS.indexOf("T") && rankOf(c) !== S.view.level;
  if (cards.every(low)) {
    return card ? fmt("Return a card from 2 to 10, not a level card: {card}, the only one you hold", { card })
      : t("Return a card from 2 to 10, not a level card");
  }
  return card ? fmt("Return your smallest card, {card}: you hold no card from 2 to 10 that is not a level card", { card })
    : t("Return one of your smallest cards: you hold no card from 2 to 10 that is not a level card");
}

// The cards this seat was given in the deal's tribute or return (进贡/还贡) and still holds, until its first play:
// marked in the hand, as the apps people play on mark them. [{card, type}], the event's type.
function receivedCards() {
  const got = [];
  if (S.me === null) return got;
  for (const e of S.events) {
    if (e.type === E.PLAY && e.seat === S.me) return [];
    if (e.type !== E.TRIBUTE && e.type !== E.RETURN) continue;
    for (const tr of e.transfers || []) {
      if (tr.receiver === S.me) got.push({ card: tr.card, type: e.type });
      const k = tr.giver === S.me ? got.findIndex((x) => x.card === tr.card) : -1;
      if (k >= 0) got.splice(k, 1);  // given on again
    }
  }
  return got;
}
function markReceived(node, type) {
  const said = t(type === E.TRIBUTE ? "Received in tribute" : "Received as a return");
  const label = `${node.getAttribute("aria-label")} · ${said}`;
  node.classList.add("received");
  node.dataset.received = type;
  node.title = label;
  node.setAttribute("aria-label", label);
}

// The words beside the buttons have three lines at most, and a phone held sideways leaves them a few words' width:
// the hint's play and why lost their end ("straight flush ♠3–7: ♠3 ♠4…"). Words that are cut are marked, and a tap
// on them (or the hint that brought them) shows them whole above the hand, where no card lies; the next tap anywhere,
// or other words, closes it.
function syncMsg() {
  const msg = $("msg"), full = $("msg-full");
  const text = msg.textContent;
  const cut = !!text && (msg.scrollHeight > msg.clientHeight + 1 || msg.scrollWidth > msg.clientWidth + 1);
  if (!cut || S.msgOpen !== text) S.msgOpen = null;
  msg.classList.toggle("more", cut);
  if (cut) {
    msg.setAttribute("role", "button"); msg.tabIndex = 0;
    msg.setAttribute("aria-expanded", String(!!S.msgOpen)); msg.setAttribute("aria-controls", "msg-full");
  } else {
    for (const a of ["role", "tabindex", "aria-expanded", "aria-controls"]) msg.removeAttribute(a);
  }
  full.textContent = S.msgOpen || "";
  full.classList.toggle("hidden", !S.msgOpen);
}
function toggleMsg() {
  if (!$("msg").classList.contains("more")) return;
  S.msgOpen = S.msgOpen ? null : $("msg").textContent;
  syncMsg();
}
$("msg").addEventListener("click", toggleMsg);
$("msg").addEventListener("keydown", (ev) => { if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); toggleMsg(); } });
document.addEventListener("click", (ev) => {  // a tap elsewhere closes it (the hint button's own tap may open it)
  if (S.msgOpen && !ev.target.closest("#msg, #msg-full, #hint")) { S.msgOpen = null; syncMsg(); }
});

// How much of each card shows: the whole hand in one row across the width (two rows when a row would
// show less than a finger's width of each card, as in portrait).
const MIN_STEP_PX = 22;
const GROUP_GAP_PX = 8;  // the extra space before each group of a 理牌 arrangement (style.css .group-start)
function fanOut(hand) {
  const cards = [...hand.querySelectorAll(".card")];
  hand.querySelectorAll(".row-break").forEach((n) => n.remove());
  cards.forEach((n) => n.classList.remove("row-start"));
  if (!cards.length) return;
  const width = hand.clientWidth - 8;
  const cw = cards[0].getBoundingClientRect().width || 40;
  const gaps = (from, to) => cards.slice(from + 1, to).filter((n) => n.classList.contains("group-start")).length;
  const stepFor = (from, to) => {
    const k = to - from;
    return k <= 1 ? cw : Math.min(cw * 0.62, (width - cw - gaps(from, to) * GROUP_GAP_PX) / (k - 1));
  };
  let perRow = cards.length;
  if (stepFor(0, perRow) < MIN_STEP_PX && cards.length > 1) perRow = Math.ceil(cards.length / 2);
  const step = Math.min(stepFor(0, perRow), perRow < cards.length ? stepFor(perRow, cards.length) : Infinity);
  hand.style.setProperty("--step", `${Math.max(8, step)}px`);
  hand.style.setProperty("--group-gap", `${GROUP_GAP_PX}px`);
  if (perRow < cards.length) {
    cards[perRow].classList.add("row-start");
    cards[perRow].before(el("span", { class: "row-break" }));
  }
}
window.addEventListener("resize", () => { const hand = $("hand"); if (hand) fanOut(hand); syncMsg(); });  // cut or not

// Tap a card to select it; press and slide across cards to give each the same state as the first. Press
// a selected card and pull it up: the selection goes where it is let go — into the group of the card
// under the finger, or a group of its own (理牌) anywhere else.
const drag = { on: false, to: true, seen: new Set(), moved: false, pending: null, lifting: false, y0: 0, x0: 0 };
const LIFT_PX = 28;
function cardAt(x, y) {
  const node = document.elementFromPoint(x, y);
  const card = node && node.closest ? node.closest("#hand .card") : null;
  return card ? Number(card.dataset.index) : null;
}
function cardNodeAtX(x) {  // the hand's card under this x (the topmost, as they overlap to the right)
  const cards = [...document.querySelectorAll("#hand .card:not(.selected)")];
  return cards.reverse().find((n) => { const r = n.getBoundingClientRect(); return x >= r.left && x <= r.right; }) || null;
}
// On the player's own tribute or return turn, the cards it may give (the others are dimmed and are not picked: a
// tapped one lifted and Tribute stayed off, with nothing said why); null on any other turn.
function givable() {
  const legal = S.view.legal || [];
  const kind = legal.length ? legal[0].kind : null;
  return myTurn() && (kind === K.TRIBUTE || kind === K.RETURN) ? new Set(legal.map((a) => a.cards[0])) : null;
}
function setSelected(i, on) {
  const legal = S.view.legal || [];
  const single = legal.length && (legal[0].kind === K.TRIBUTE || legal[0].kind === K.RETURN);
  const may = on ? givable() : null;
  if (may && !may.has(S.view.hand[i])) return;
  if (on) { if (single) S.selected.clear(); S.selected.add(i); } else S.selected.delete(i);
}
function currentGroups() {
  return arrangedGroups() || [{ kind: REST, cards: sortedHand().map(({ c }) => c) }];
}
function dropSelection(x) {
  const cards = selectedCards();
  const target = cardNodeAtX(x);
  const groups = currentGroups();
  S.groups = target && S.groups ? moveToGroup(groups, cards, Number(target.dataset.group)) : makeColumn(groups, cards);
  S.sort = "groups"; localStorage.setItem(SORT_KEY, S.sort);
  S.selected.clear(); saveGroups(); render();
}
$("hand").addEventListener("pointerdown", (ev) => {
  const i = cardAt(ev.clientX, ev.clientY);
  if (i === null || !S.view) return;
  ev.preventDefault();
  Object.assign(drag, { on: true, seen: new Set([i]), moved: false, lifting: false, x0: ev.clientX, y0: ev.clientY });
  if (S.selected.has(i)) { drag.pending = i; drag.to = false; return; }  // a tap, a slide or a lift: decided on the move
  drag.pending = null; drag.to = true;
  setSelected(i, true);
  render();
});
$("hand").addEventListener("pointermove", (ev) => {
  if (!drag.on) return;
  if (drag.pending !== null && !drag.lifting && drag.y0 - ev.clientY > LIFT_PX) {
    drag.lifting = true; $("hand").classList.add("lifting");
    return;
  }
  if (drag.lifting) return;
  const i = cardAt(ev.clientX, ev.clientY);
  if (i === null || drag.seen.has(i)) return;
  if (drag.pending !== null) { setSelected(drag.pending, false); drag.pending = null; }
  drag.seen.add(i); drag.moved = true;
  setSelected(i, drag.to);
  render();
});
$("hand").addEventListener("pointerup", (ev) => {
  if (!drag.on) return;
  drag.on = false;
  $("hand").classList.remove("lifting");
  if (drag.lifting) { drag.lifting = false; drag.pending = null; dropSelection(ev.clientX); return; }
  if (drag.pending !== null) { setSelected(drag.pending, false); drag.pending = null; render(); }  // a tap on a selected card
});
for (const type of ["pointercancel", "pointerleave"]) {
  $("hand").addEventListener(type, () => {
    if (drag.lifting) $("hand").classList.remove("lifting");
    Object.assign(drag, { on: false, lifting: false, pending: null });
  });
}

// The refusal on show: its words while it is fresh and the selection is the one it answered, else "".
function noticeOn() {
  const n = S.notice;
  return n && Date.now() < n.until && n.key === selectionKey() ? n.text : "";
}
function selectionKey() { return [...S.selected].sort((a, b) => a - b).join(","); }

function act(a) {
  S.notice = null;
  send({ type: "act", kind: a.kind, cards: a.cards, combo: a.combo ?? null, seq: S.seq });
}

// A hint's play and why, from the server. A pass says why alone: each reason to pass begins with the pass itself,
// and both together read "Pass — pass and keep your cards", "不要 — 不要：对家这一轮最大".
function hintWords(h) {
  const lines = eventLines(h);
  return (h.action.kind === K.PASS && lines.length > 1 ? lines.slice(1) : lines).join(" — ");
}

// The hint on show (the last one showHint selected), or null.
function shownHint() {
  return S.hints.length && S.hintIndex > 0 ? S.hints[(S.hintIndex - 1) % S.hints.length] : null;
}

function showHint() {
  if (!S.hints.length) return;
  const h = S.hints[S.hintIndex % S.hints.length];
  S.hintIndex += 1;
  S.selected.clear();
  const used = new Set();
  for (const c of h.action.cards) {
    const i = S.view.hand.findIndex((x, k) => x === c && !used.has(k));
    if (i >= 0) { used.add(i); S.selected.add(i); }
  }
  render();
  $("msg").textContent = sentence(hintWords(h));
  S.msgOpen = $("msg").textContent;  // asked for: shown whole at once when the row cuts it (syncMsg)
  syncMsg();
  document.body.dataset.hints = String(Number(document.body.dataset.hints || 0) + 1);
}

// The turn timer: a ring round the active human seat's avatar that empties, red in the last 5 s (with a
// warning sound on the player's own turn); the deal-end panel's countdown runs here too.
function renderTimer() {
  if (S.end && S.endClosed !== S.end.deal && S.end.deadline) {
    const btn = document.querySelector("[data-testid=continue]");
    const left = Math.max(0, Math.ceil((S.end.deadline - Date.now()) / 1000));
    if (btn) btn.textContent = counted(t("Continue"), left);
    const waiting = document.querySelector("#summary .waiting");
    if (waiting && waiting.dataset.words) waiting.textContent = counted(waiting.dataset.words, left);
  }
  if (!S.clock) return;
  const st = timerState(S.clock.seconds, S.clock.started, Date.now());
  document.querySelectorAll("[data-testid=timer]").forEach((n) => { n.textContent = `${st.left}s`; n.classList.toggle("warn", st.warn); });
  document.querySelectorAll(".seat-plate.to-move .ring:not(.hidden)").forEach((ring) => {
    ring.style.setProperty("--p", String(st.fraction));
    ring.classList.toggle("warn", st.warn);
  });
  const turn = `${S.seq}:${S.clock.seat}`;
  if (st.warn && S.clock.seat === S.me && S.warned !== turn) { S.warned = turn; playSound("warn"); }
}

// --- table talk: fixed phrases and emotes, each seat mutable on this page ---------------------------
// A phrase's words in the page's language (its msgid comes with /api/meta, from server/talk.py), or an emote.
function phraseText(id) {
  const talk = META.talk || { phrases: {}, emotes: {} };
  if (talk.emotes[id]) return talk.emotes[id];
  return talk.phrases[id] ? t(talk.phrases[id]) : "";
}
function showTalk(seat, phrase) {
  if (S.talkMuted.has(seat) || !S.view) return;
  const box = WHERE.plate(seat);
  if (!box) return;
  box.querySelectorAll(".talk-bubble").forEach((n) => n.remove());
  const bubble = el("div", { class: "talk-bubble", "data-testid": "talk-bubble", role: "status" }, phraseText(phrase));
  box.append(bubble);
  setTimeout(() => bubble.remove(), 3500);
}
function renderTalk() {
  const panel = $("talk-panel");
  const talk = META.talk || { phrases: {}, emotes: {} };
  const now = Date.now();
  const may = talkAllowed(S.talkSent, now) && S.online;
  const say = (id) => el("button", { class: "phrase", "data-phrase": id, disabled: !may, onclick: () => {
    if (!talkAllowed(S.talkSent, Date.now())) return;
    if (send({ type: "talk", phrase: id })) { S.talkSent = [...S.talkSent.slice(-5), Date.now()]; }
    panel.classList.add("hidden");
  } }, phraseText(id));
  const others = [0, 1, 2, 3].filter((s) => s !== S.me && S.room.seats[s].kind === "human");
  panel.replaceChildren(...[
    el("div", { class: "phrases" }, Object.keys(talk.phrases).map(say)),
    el("div", { class: "emotes" }, Object.keys(talk.emotes).map(say)),
    others.length ? el("div", { class: "mutes" }, t("Mute"), others.map((s) => el("label", {},
      el("input", { type: "checkbox", "data-mute-seat": s, checked: S.talkMuted.has(s), onchange: (ev) => {
        if (ev.target.checked) S.talkMuted.add(s); else S.talkMuted.delete(s);
        localStorage.setItem(`guandan:talkmute:${code}`, JSON.stringify([...S.talkMuted]));
      } }), seatName(s)))) : null].filter(Boolean));
}
$("talk").onclick = () => { renderTalk(); $("talk-panel").classList.toggle("hidden"); };
$("mute").onclick = () => { setMuted(!muted()); renderMute(); };
// Small line icons drawn here (an emoji font is not on every machine; no image is downloaded).
const SVG_NS = "http://www.w3.org/2000/svg";
function icon(paths) {
  const svg = document.createElementNS(SVG_NS, "svg");
  svg.setAttribute("viewBox", "0 0 24 24"); svg.setAttribute("width", "22"); svg.setAttribute("height", "22");
  svg.setAttribute("aria-hidden", "true"); svg.setAttribute("class", "icon");
  for (const d of paths) {
    const path = document.createElementNS(SVG_NS, "path");
    path.setAttribute("d", d);
    svg.append(path);
  }
  return svg;
}
const SPEAKER = "M4 9h4l5-4v14l-5-4H4z";
const ICONS = {
  on: [SPEAKER, "M16 8.5a5 5 0 0 1 0 7", "M18.5 6a8.5 8.5 0 0 1 0 12"],
  off: [SPEAKER, "M16 9l6 6", "M22 9l-6 6"],
  talk: ["M4 5h16v10H10l-5 4v-4H4z", "M8 10h.01", "M12 10h.01", "M16 10h.01"],
};
$("talk").replaceChildren(icon(ICONS.talk));
function renderMute() {
  $("mute").replaceChildren(icon(muted() ? ICONS.off : ICONS.on));
  $("mute").setAttribute("aria-pressed", String(muted()));
  $("mute").title = muted() ? t("Sound off") : t("Sound on");
}
renderMute();
UPRIGHT.addEventListener("change", () => render());  // the phone turned: the commitment's chip changes places
SIDEWAYS.addEventListener("change", () => render());  // and the last deal's review link
$("talk").setAttribute("aria-label", t("Talk"));

// A link that leaves this page mid-deal (the title's way to the start page) asks first, saying what becomes of the seat
// (server/table.py: it stays this browser's; on its turns a bot plays after a short grace, 托管, which the player turns
// off on return; a table no player is at pauses). Without a deal in play (the lobby, the pause between deals, a match
// over, a spectator's page) it leaves at once.
function dealInPlay() {
  return S.me !== null && !!S.room && S.room.status === ROOM.PLAYING && !!S.view && !betweenDeals() && !S.gone;
}
function askLeave(href) {
  const box = el("dialog", { class: "leave-ask", "data-testid": "leave-ask", "aria-labelledby": "leave-ask-title" },
    el("h3", { id: "leave-ask-title" }, t("Leave the table?")),
    el("p", {}, t("The deal goes on without you. Your seat stays yours: on your turns a bot plays for you after a few "
      + "seconds (auto-play), and a table no player is at pauses. Open this room's link again in this browser to come "
      + "back and take back control.")),
    el("div", { class: "leave-buttons" },
      el("button", { "data-testid": "leave-go", onclick: () => { box.close(); location.href = href; } }, t("Leave the table")),
      el("button", { class: "primary", "data-testid": "leave-stay", autofocus: true, onclick: () => box.close() },
        t("Stay at the table"))));
  box.addEventListener("close", () => box.remove());
  document.body.append(box);
  box.showModal();
}
document.addEventListener("click", (ev) => {
  const a = ev.target.closest ? ev.target.closest("a[href]") : null;
  if (!a || a.target === "_blank" || ev.defaultPrevented || ev.button !== 0 || ev.metaKey || ev.ctrlKey || ev.shiftKey) return;
  const to = new URL(a.href, location.href);
  if (to.pathname === location.pathname || !dealInPlay()) return;  // the page itself, or nothing to leave
  ev.preventDefault();
  askLeave(to.href);
});

$("play").onclick = () => {
  const legal = S.view.legal || [];
  const sel = selectedCards();
  const kind = legal.length ? legal[0].kind : null;
  const match = (kind === K.TRIBUTE || kind === K.RETURN)
    ? legal.find((a) => sel.length === 1 && a.cards[0] === sel[0])
    : chosenPlay(playsFor(sel) || [], sel, shownHint());
  if (match) act(match);
};
$("center").addEventListener("click", (ev) => {
  if (termAt(ev)) return;  // a word of the middle's note explains itself (glossary.js), nothing is played
  if ($("center").classList.contains("can-play")) $("play").click();  // tap the table to play the selection
});
$("last-trick").onclick = () => { S.showLastTrick = !S.showLastTrick; render(); };
$("log-toggle").onclick = () => {
  const side = $("side");
  side.classList.toggle("hidden");
  $("log-toggle").setAttribute("aria-pressed", String(!side.classList.contains("hidden")));
};
// upright, a log opened while the deal's end (or the match's) is shown starts under the panel (style.css): the panel's
// height as drawn, kept whatever changes it (its content, the screen turning, the panel shown or closed)
new ResizeObserver(() => $("table").style.setProperty("--end-h", `${$("summary").offsetHeight}px`)).observe($("summary"));
$("pass").onclick = () => send({ type: "act", kind: K.PASS, cards: [], seq: S.seq });
$("hint").onclick = () => { S.notice = null; if (S.hints.length) showHint(); else send({ type: "hint" }); };
// 理牌: rank order, suit order, and the groups of the engine's decomposition (asked for once a deal)
$("sort").onclick = () => {
  S.sort = { rank: "suit", suit: "groups", groups: "rank" }[S.sort];
  localStorage.setItem(SORT_KEY, S.sort);
  if (S.sort === "groups") { S.groups = null; send({ type: "arrange" }); }
  render();
};
$("column").onclick = () => { if (S.selected.size) dropSelection(Infinity); };
$("auto").onclick = () => send({ type: "auto", on: !(S.me !== null && S.room.seats[S.me].auto) });
$("auto-off").onclick = () => send({ type: "auto", on: false });

function render() {
  document.body.dataset.online = S.online ? "1" : "0";
  renderClaim();
  $("reconnecting").classList.toggle("hidden", S.online || S.quiet || S.gone);
  if (S.gone) {  // the room closed, or there is none: nothing to reconnect to
    for (const id of ["lobby", "table"]) $(id).classList.add("hidden");
    $("notice").classList.remove("hidden");
    return;
  }
  if (!S.room) return;
  askReplay();
  document.body.dataset.status = S.room.status;
  const lobby = S.room.status === ROOM.LOBBY;
  // a finished match no longer in the server's memory: its end and, for its players, the replay
  const ended = S.room.status === ROOM.OVER && !S.view;
  $("notice").classList.toggle("hidden", !ended && !S.moved);
  if (ended) {
    $("notice-text").textContent = t("Match over");
    $("notice-replay").classList.toggle("hidden", !S.room.replay_id);
    if (S.room.replay_id) $("notice-replay").href = `/replay/${S.room.replay_id}`;
  } else if (S.moved) {  // the seat is played on another device now (TableService.reclaim)
    $("notice-text").textContent = S.moved;
    $("notice-replay").classList.add("hidden");
  }
  $("lobby").classList.toggle("hidden", !lobby);
  $("table").classList.toggle("hidden", lobby || !S.view);
  if (lobby || !S.view) $("fair").replaceChildren();  // the deal's commitment is the table's
  if (lobby) renderLobby();
  else if (S.view) renderTable();
}
