// Shared by every page: translations served by the server, the REST helper, cards, seat tokens.
// The game's vocabulary (ranks, suits, card order, combo and place names) comes from vocab.js, which
// is generated from the Python core: this file never spells a rank or a combo type out itself.
import { ACTION_KIND, COMBO_TYPE, NAMES, RANK_ORDER, RANKS, RANKS_PER_CARD, SEQUENCES, SUIT_SYMBOLS, SUITS } from "./vocab.js";

export { ACTION_KIND, COMBO_TYPE, RANKS };
export { sameCards } from "./logic.js";
const LANG_KEY = "guandan:lang";
let STRINGS = {};
export let META = {};

// a ?lang= in the address (the server-rendered pages link back with theirs) is the reader's choice from then on
const ASKED = new URLSearchParams(location.search).get("lang");
if (ASKED === "zh" || ASKED === "en") localStorage.setItem(LANG_KEY, ASKED);

export function lang() {
  const saved = localStorage.getItem(LANG_KEY);
  if (saved === "zh" || saved === "en") return saved;
  return (navigator.language || "en").toLowerCase().startsWith("zh") ? "zh" : "en";
}

// a moment the server wrote (ISO 8601, UTC) as the reader's clock shows it, to the minute, in the page's language
export function localTime(iso) {
  return new Date(iso).toLocaleString(lang() === "zh" ? "zh-CN" : "en",
    { year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit" });
}

// a same-site link with the page's language as its ?lang=
export function withLang(href) {
  const url = new URL(href, location.origin);
  url.searchParams.set("lang", lang());
  return url.pathname + url.search + url.hash;
}
export function setLang(value) {
  localStorage.setItem(LANG_KEY, value);
  const url = new URL(location.href);
  if (!url.searchParams.has("lang")) { location.reload(); return; }
  url.searchParams.delete("lang");  // else the address's language would win again on the reload
  location.replace(url.href);
}

export function t(msgid) { return STRINGS[msgid] || msgid; }
const HAN = "\u3400-\u9fff\uf900-\ufaff";  // Chinese characters, as guandan.i18n.fill has them
/**
 * The catalogue's text for `msgid` with each `{name}` replaced by `args[name]`. A value written in Chinese at its edge
 * takes no space between it and the Chinese beside it, as the server's sentences (guandan.i18n.fill): "等待 {who}"
 * reads "等待座位2" but "等待 Alice", "{who} 进贡" "你进贡" but "♠3 进贡".
 */
export function fmt(msgid, args) {
  let text = t(msgid);
  for (const [k, v] of Object.entries(args)) {
    const value = String(v);
    if (new RegExp(`[${HAN}]$`).test(value)) text = text.replace(new RegExp(`(\\{${k}\\}) (?=[${HAN}])`, "g"), "$1");
    if (new RegExp(`^[${HAN}]`).test(value)) text = text.replace(new RegExp(`(?<=[${HAN}]) (\\{${k}\\})`, "g"), "$1");
  }
  return text.replace(/\{(\w+)\}/g, (_, k) => String(args[k]));
}
/** A label and its value with the language's colon: "Level: 4", "级牌：4". */
export function labelled(label, value) { return fmt("{label}: {value}", { label, value }); }
/** Words and a count in the language's brackets: "Continue (15)", "继续（15）". */
export function counted(text, n) { return fmt("{text} ({n})", { text, n }); }

export async function init() {
  const [strings, meta] = await Promise.all([api(`/api/i18n/${lang()}`), api("/api/meta")]);
  STRINGS = strings; Object.assign(META, meta);
  document.documentElement.lang = lang() === "zh" ? "zh-CN" : "en";
  document.querySelectorAll("[data-t]").forEach((el) => { el.textContent = t(el.dataset.t); });
  // the pages the server renders (rules, leaderboard, player pages) read the language from ?lang=: links to them
  // carry this page's, so that a language chosen here holds there (a browser's own would decide otherwise)
  document.querySelectorAll('a[href^="/leaderboard"], a[href^="/rules"], a[href^="/u/"]').forEach((a) => {
    a.setAttribute("href", withLang(a.getAttribute("href")));
  });
  const toggle = document.getElementById("lang");
  if (toggle) {
    toggle.textContent = lang() === "zh" ? "English" : "中文";
    toggle.onclick = () => setLang(lang() === "zh" ? "en" : "zh");
  }
}

// A refused request throws an Error: its message the server's English detail (for the console), `code` the
// refusal's code, `text` what people read in zh and en — the server renders every refusal from the catalogue
// (server/protocol.py Words). An answer that is not the server's own (a proxy's error page, no connection
// at all) gets a text of the catalogue too, in the page's language; `field` the form field a refusal names.
// `csrf`, where given, is the session's token, sent back in X-CSRF-Token as every account change must.
export async function api(path, body, method, csrf) {
  const headers = csrf === undefined ? {} : { "X-CSRF-Token": csrf };
  const opts = body === undefined ? { method: method || "GET", headers } :
    { method: method || "POST", headers: { ...headers, "Content-Type": "application/json" }, body: JSON.stringify(body) };
  let res;
  try { res = await fetch(path, opts); } catch (e) {
    const err = new Error(e.message);
    err.code = "unreachable";
    err.text = { [lang()]: t("The server could not be reached: check the connection and try again.") };
    throw err;
  }
  const data = await res.json().catch(() => ({}));
  if (!res.ok) {
    const err = new Error(detailText(data.detail) || res.statusText);
    err.code = data.error;
    err.field = data.field;
    err.text = data.text || { [lang()]: t("The server refused this request.") };
    throw err;
  }
  return data;
}

// FastAPI's validation detail is a list of {loc, msg}: one line of them, for the console and the fallback
function detailText(detail) {
  if (typeof detail === "string") return detail;
  if (Array.isArray(detail)) return detail.map((d) => `${(d.loc || []).join(".")}: ${d.msg}`).join("; ");
  return detail ? JSON.stringify(detail) : "";
}

const said = (text) => (text && (text[lang()] || text.en)) || "";
// A refused REST request (api() above) as people read it: the server's text in the page's language.
export function errorText(e) { return said(e.text) || e.message; }
// A WebSocket error frame ({type: "error", code, message, text}) as people read it: its text in the page's
// language, the English message only from a server too old to send one.
export function frameErrorText(frame) { return said(frame.text) || frame.message || frame.code || ""; }

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") node.className = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (v === true) node.setAttribute(k, "");
    else if (v !== false && v !== null && v !== undefined) node.setAttribute(k, v);
  }
  for (const c of children.flat()) if (c !== null && c !== undefined) node.append(c.nodeType ? c : String(c));
  return node;
}

export const JOKERS = ["LJ", "BJ"];
const names = () => NAMES[lang()] || NAMES.en;
const rankText = (r) => (r === "T" ? "10" : r);

export function rankOf(card) { return JOKERS.includes(card) ? card : card[1]; }

export function cardText(card) {
  if (JOKERS.includes(card)) return names().joker[card];
  return `${SUIT_SYMBOLS[card[0]]}${rankText(card[1])}`;
}

// The value order of a deal at `level` (a rank character), lowest first: the generated RANK_ORDER.
export function cardValue(card, level) {
  const order = RANK_ORDER[level] || RANK_ORDER["2"];
  const suit = JOKERS.includes(card) ? 0 : SUITS.indexOf(card[0]);
  return order.indexOf(rankOf(card)) * 4 + suit;
}

// hearts, diamonds and the big joker are printed red
export function isRed(card) { return card === "BJ" || card[0] === "H" || card[0] === "D"; }

// A room's turn clock as a tag says it ("15 s per turn", "No timer")
export function timerText(seconds) { return seconds ? fmt("{n} s per turn", { n: seconds }) : t("No timer"); }
// how long the room plays: its max_deals, or (none) a whole match, until a team passes A
export function dealsText(maxDeals) {
  return !maxDeals ? t("Whole match, to A") : maxDeals === 1 ? t("1 deal") : fmt("{n} deals", { n: maxDeals });
}
// Where a Chinese character meets a figure or a Latin letter: a line may break there ("队" over "1")
const HAN_MEETS_LATIN = new RegExp(`(?<=[${HAN}])(?=[0-9A-Za-z])|(?<=[0-9A-Za-z])(?=[${HAN}])`, "g");
// Both teams' levels, each after its name, as the presenter writes them (Presenter.levels): `ours` a seat's team
// (0 or 1) puts it first ("我方 2 : 对方 5"); null names Team 1 first, as the table's badges name the teams
// ("队1 2 : 队2 5"). 10 is written "10", never a record's T. A narrow place breaks the line after the colon only:
// the spaces are no-break, and a word joiner (U+2060, unseen) holds a Chinese name to its number, as the server's
// PagePresenter.levels has them: a team's name is never parted from its number, nor from its level.
export function levelsText(levels, ours = null) {
  const rk = (r) => (String(r) === "T" ? "10" : String(r));
  const text = ours === null || ours === undefined
    ? fmt("Team 1 {a} : Team 2 {b}", { a: rk(levels[0]), b: rk(levels[1]) })
    : fmt("Your team {a} : Opponents {b}", { a: rk(levels[ours]), b: rk(levels[1 - ours]) });
  return text.replace(/ /g, "\u00a0").replace(/:\u00a0/, ": ").replace(HAN_MEETS_LATIN, "\u2060");
}

// A card face: rank over suit in the corner (what stays visible when cards overlap); a joker's name runs
// down its edge. The full name is the tooltip and the accessible label. The ♥ card of `level` is marked as the
// wildcard (逢人配) unless `extra.wild` says whether it is one (a play's, as the server read it).
export function cardNode(card, level, extra = {}) {
  const red = isRed(card);
  const wild = extra.wild ?? (!!level && card === `H${level}`);
  const joker = JOKERS.includes(card);
  const cls = ["card", red ? "red" : "", wild ? "wild" : "", joker ? "joker" : "", extra.small ? "small" : ""].join(" ");
  const face = joker ? [el("span", { class: "jk" }, lang() === "zh" ? names().joker[card] : "JOKER")]
    : [el("span", { class: "rk" }, rankText(card[1])), el("span", { class: "st" }, SUIT_SYMBOLS[card[0]])];
  const label = wild ? `${cardText(card)} · ${t("wildcard")}` : cardText(card);
  return el("span", { class: cls, "data-card": card, title: label, "aria-label": label }, face);
}

// A play's cards as the server shows them (a `play` event's `order` and `wild`: the order its combination reads,
// each wildcard in the place of the card it stands for, and marked); `cards` as they are, unmarked, if it says none.
export function playNodes(e, extra = {}) {
  const order = e.order || e.cards || [];
  const wild = new Set(e.wild || []);
  return order.map((c, i) => cardNode(c, null, { ...extra, wild: wild.has(i) }));
}

// Run positions: 1 is the ace below 2, 2…14 are 2…A.
const position = (p) => (p === 1 ? "A" : rankText(RANKS[p - 2]));

// A combo as the presentation layer (guandan.present) writes it: "pair 9", "straight 10–A", "bomb 9 ×5" (炸弹 9×5).
export function comboName(combo) {
  if (!combo) return t("Pass");
  const n = names();
  const name = n.combo[combo.type] || combo.type;
  let text;
  if (combo.key === "JOKERS") text = name;
  else if (JOKERS.includes(combo.key)) text = `${name} ${n.joker[combo.key]}`;
  else if (SEQUENCES.includes(combo.type)) {
    const top = RANKS.indexOf(combo.key) + 2;
    const span = combo.type === COMBO_TYPE.CHAIN_BOMB ? combo.y : combo.size / RANKS_PER_CARD[combo.type];
    text = `${name} ${combo.suit ? SUIT_SYMBOLS[combo.suit] : ""}${position(top - span + 1)}–${position(top)}`;
    if (combo.type === COMBO_TYPE.CHAIN_BOMB) text += ` ×${combo.x}`;
  } else {
    text = `${name} ${rankText(combo.key)}`;
    if (combo.type === COMBO_TYPE.BOMB) text = fmt("{bomb} ×{n}", { bomb: text, n: combo.size }); // 炸弹 9×5
  }
  return combo.stars ? `${text} ${combo.stars}★` : text;
}

export function placeName(place) { return names().place[String(place)] || String(place); }

// What an event says, rendered by the server from the catalogue in every language.
export function eventLines(e) { return (e.text && (e.text[lang()] || e.text.en)) || []; }

export function tokenFor(code) { return localStorage.getItem(`guandan:token:${code}`); }
export function saveToken(code, token) {
  localStorage.setItem(`guandan:token:${code}`, token);
  localStorage.setItem(RECENT_SEATS, JSON.stringify([code, ...recentSeats().filter((c) => c !== code)].slice(0, 5)));
}
export function dropToken(code) {
  localStorage.removeItem(`guandan:token:${code}`);
  localStorage.setItem(RECENT_SEATS, JSON.stringify(recentSeats().filter((c) => c !== code)));
}
// the codes of the last rooms this browser took a seat in, newest first: the start page offers the way back to
// any still open (a phone's back gesture leaves a table in one swipe)
const RECENT_SEATS = "guandan:recent-seats";
export function recentSeats() {
  try {
    const codes = JSON.parse(localStorage.getItem(RECENT_SEATS) || "[]");
    return Array.isArray(codes) ? codes.filter((c) => typeof c === "string") : [];
  } catch { return []; }
}
export function hostTokenFor(code) { return localStorage.getItem(`guandan:host:${code}`); }
export function saveHostToken(code, token) { localStorage.setItem(`guandan:host:${code}`, token); }

// Replays are private: the server lists a match's replay to the seat tokens that played it (kept above) and
// an imported record's to the token its import was answered with (kept here), until one marks it public.
export function replayTokenFor(id) { return localStorage.getItem(`guandan:replay:${id}`); }
export function saveReplayToken(id, token) { localStorage.setItem(`guandan:replay:${id}`, token); }
export function allTokens() {
  const out = [];
  for (let i = 0; i < localStorage.length; i++) {
    const key = localStorage.key(i);
    if (key.startsWith("guandan:token:") || key.startsWith("guandan:replay:")) out.push(localStorage.getItem(key));
  }
  return out.slice(-500);  // the server takes up to 500
}
// the host tokens of the rooms this browser created: a match of four bots keeps its replay for its creator's
export function hostTokens() {
  const out = [];
  for (let i = 0; i < localStorage.length; i++) {
    const key = localStorage.key(i);
    if (key.startsWith("guandan:host:")) out.push(localStorage.getItem(key));
  }
  return out;
}

