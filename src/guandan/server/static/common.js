// Shared by every page: translations served by the server, the REST helper, cards, seat tokens.
const LANG_KEY = "guandan:lang";
let STRINGS = {};
export let META = { combo_names: {}, places: {} };

export function lang() {
  const saved = localStorage.getItem(LANG_KEY);
  if (saved === "zh" || saved === "en") return saved;
  return (navigator.language || "en").toLowerCase().startsWith("zh") ? "zh" : "en";
}

export function setLang(value) { localStorage.setItem(LANG_KEY, value); location.reload(); }

export function t(msgid) { return STRINGS[msgid] || msgid; }

export async function init() {
  const [strings, meta] = await Promise.all([api(`/api/i18n/${lang()}`), api("/api/meta")]);
  STRINGS = strings; Object.assign(META, meta);
  document.documentElement.lang = lang() === "zh" ? "zh-CN" : "en";
  document.querySelectorAll("[data-t]").forEach((el) => { el.textContent = t(el.dataset.t); });
  const toggle = document.getElementById("lang");
  if (toggle) {
    toggle.textContent = lang() === "zh" ? "English" : "中文";
    toggle.onclick = () => setLang(lang() === "zh" ? "en" : "zh");
  }
}

export async function api(path, body, method) {
  const opts = body === undefined ? { method: method || "GET" } :
    { method: method || "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) };
  const res = await fetch(path, opts);
  const data = await res.json().catch(() => ({}));
  if (!res.ok) throw new Error(data.detail ? (typeof data.detail === "string" ? data.detail : JSON.stringify(data.detail)) : res.statusText);
  return data;
}

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

export const RANKS = "23456789TJQKA";
const SUITS = { S: "♠", H: "♥", C: "♣", D: "♦" };

export function rankOf(card) { return card === "LJ" || card === "BJ" ? card : card[1]; }

export function cardText(card) {
  if (card === "LJ") return lang() === "zh" ? "小王" : "jkr";
  if (card === "BJ") return lang() === "zh" ? "大王" : "JKR";
  const r = card[1] === "T" ? "10" : card[1];
  return `${SUITS[card[0]]}${r}`;
}

// The value order of a deal at `level` (a rank character): 2…A with the level rank above A, then jokers.
export function cardValue(card, level) {
  if (card === "LJ") return 100;
  if (card === "BJ") return 101;
  const r = RANKS.indexOf(card[1]);
  return (card[1] === level ? 50 : r * 2) + "SHCD".indexOf(card[0]) / 10;
}

export function cardNode(card, level, extra = {}) {
  const red = card === "BJ" || card[0] === "H" || card[0] === "D";
  const wild = level && card === `H${level}`;
  const cls = ["card", red ? "red" : "", wild ? "wild" : "", extra.small ? "small" : ""].join(" ");
  return el("span", { class: cls, "data-card": card, title: card }, cardText(card));
}

export function comboName(combo) {
  if (!combo) return t("Pass");
  const names = META.combo_names[combo.type] || [combo.type, combo.type];
  const key = { LJ: "小王", BJ: "大王", JOKERS: "", T: "10" }[combo.key] ?? combo.key;
  const size = combo.type === "bomb" ? `×${combo.size}` : "";
  return `${lang() === "zh" ? names[0] : names[1]} ${key}${size}`.trim();
}

export function placeName(place) {
  const p = META.places[String(place)] || [String(place), String(place)];
  return lang() === "zh" ? p[0] : p[1];
}

export function tokenFor(code) { return localStorage.getItem(`guandan:token:${code}`); }
export function saveToken(code, token) { localStorage.setItem(`guandan:token:${code}`, token); }
export function dropToken(code) { localStorage.removeItem(`guandan:token:${code}`); }
export function hostTokenFor(code) { return localStorage.getItem(`guandan:host:${code}`); }
export function saveHostToken(code, token) { localStorage.setItem(`guandan:host:${code}`, token); }

export function sameCards(a, b) {
  if (a.length !== b.length) return false;
  const x = [...a].sort(), y = [...b].sort();
  return x.every((c, i) => c === y[i]);
}
