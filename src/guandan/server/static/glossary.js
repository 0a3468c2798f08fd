// The table's glossary: the words of Guandan a newcomer meets at the table (报牌, 进贡, 逢人配 …), each explained in
// a sentence or two from the catalogue, with a link to the section of the rules page that says it all (a tab of its
// own: the seat stays). explainTerms marks the words where the table writes them, whatever wrote them (the facts, the
// log's lines from the server, the deal-end panel); a tap (or a hover, or the keyboard's focus) opens one small
// popover, which a second tap, a tap elsewhere or Esc closes.
import { el, lang, t, withLang } from "./common.js";

// words: the msgids whose translations are the term as the table writes it; name and text: what the popover says;
// section: the id of the rules page's heading in each language (tests/server/test_browser_glossary.py checks them)
export const TERMS = {
  level: {
    words: () => [t("Level")], name: () => t("Level card (级牌)"),
    text: () => t("The deal is played at one level, the declarer's. Cards of that rank are the level cards: they rank above the ace, below only the jokers. Each team climbs its own level from 2 to A."),
    section: { zh: "31-级数与级牌", en: "31-levels-and-level-cards" },
  },
  wildcard: {
    words: () => [t("wildcard")], name: () => t("Wildcard (逢人配)"),
    text: () => t("The two hearts of the level rank: each stands in for any card but a joker, to complete a pair, a straight or a bomb."),
    section: { zh: "4-逢人配红心级牌", en: "4-wildcards-逢人配-the-heart-level-cards" },
  },
  declarer: {
    words: () => [t("Declarer")], name: () => t("Declarer (庄家)"),
    text: () => t("The team that won the last deal: this deal is played at its level. The first deal has none and is played at 2."),
    section: { zh: "81-坐庄与当前级数", en: "81-declarer-and-current-level" },
  },
  report: {
    words: () => [t("Reported"), t("Report")], name: () => t("Announcing cards (报牌)"),
    text: () => t("A player left with 10 cards or fewer after a play says how many are left: from then on the table shows the count."),
    section: { zh: "73-报牌", en: "73-announcing-cards-报牌" },
  },
  jiefeng: {
    words: () => [t("Jiefeng")], name: () => t("Taking over the lead (接风)"),
    text: () => t("A player who goes out with a play nobody beats hands the lead of the next round to the partner."),
    section: { zh: "71-接风", en: "71-接风-taking-over-the-lead" },
  },
  double: {
    words: () => [t("double win")], name: () => t("Double win (双上) and double loss (双下)"),
    text: () => t("One team finishes 1st and 2nd: the deal ends at once and the team climbs the most levels. The other team, 双下, both pay tribute in the next deal."),
    section: { zh: "72-名次与一副的结束", en: "72-finishing-places-and-the-end-of-a-deal" },
  },
  tribute: {
    words: () => [t("Tribute")], name: () => t("Tribute (进贡)"),
    text: () => t("From the second deal on, before play, the last player of the previous deal (both losers after a double win) gives the winners the highest card in hand, never a wildcard."),
    section: { zh: "6-进贡抗贡与还贡", en: "6-tribute-anti-tribute-and-return" },
  },
  return: {
    words: () => [t("Return")], name: () => t("Return (还贡)"),
    text: () => t("Whoever receives a tribute card gives one card back to its payer; under the competition rules a 2 to 10 that is not a level card."),
    section: { zh: "65-还贡", en: "65-return-还贡" },
  },
  anti: {
    words: () => [t("Anti-tribute")], name: () => t("Anti-tribute (抗贡)"),
    text: () => t("If those who should pay tribute hold both Big Jokers between them, nobody pays, and the winner of the last deal leads."),
    section: { zh: "63-抗贡", en: "63-anti-tribute-抗贡" },
  },
  commitment: {  // shown on its own chip (table.js commitmentNode), which opens with this text and the whole hash
    words: () => [], name: () => t("Deal commitment"),
    text: () => t("A fingerprint of this deal's shuffle, shown before play (the SHA-256 of its secret seed). The replay reveals the seed once the match is over: anyone can check that the cards were not changed."),
    section: null,
  },
};

/** What the term `key` means, in the page's language. */
export function termText(key) { return TERMS[key].text(); }

// text a term is never looked for in: controls, cards, names (a player may be called anything), the commitment's chip
const SKIP = "a, button, summary, details, input, textarea, select, .term, .card, .cards-fan, .nm, .who, .giver, .receiver, #term-pop";

function matcher() {
  const words = [];
  for (const [key, term] of Object.entries(TERMS)) for (const w of term.words()) if (w) words.push([w, key]);
  words.sort((a, b) => b[0].length - a[0].length);  // "Anti-tribute" before "Tribute"
  const byWord = new Map(words.map(([w, key]) => [w.toLowerCase(), key]));
  const alt = words.map(([w]) => w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|");
  // a whole word ("tribute" in "pays tribute", not "Reported" inside "Unreported"); Chinese has no spaces to look for
  return { re: new RegExp(`(?<![A-Za-z-])(?:${alt})(?![A-Za-z])`, "gi"), byWord };
}

let open = null;  // {key, pinned, anchor}: the popover's term, opened by a tap (pinned) or a hover / focus
let closing = null;  // a hover's pending close

/** Marks the glossary's words in `root`'s text, each term once (its first place), as buttons that explain it. */
export function explainTerms(root) {
  if (!root) return;
  root.dataset.terms = "";  // a part of the page whose words a tap near them reaches (termAt)
  const { re, byWord } = matcher();
  const seen = new Set();
  // a word the layout hides (a tribute line's label on a narrow phone) is passed over for the next one; in a box not
  // shown yet (the closed log) every word counts
  const shown = root.getClientRects().length > 0;
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT, {
    acceptNode: (n) => (n.parentElement && !n.parentElement.closest(SKIP) && (!shown || n.parentElement.getClientRects().length)
      ? NodeFilter.FILTER_ACCEPT : NodeFilter.FILTER_REJECT),
  });
  const texts = [];
  for (let n = walker.nextNode(); n; n = walker.nextNode()) texts.push(n);
  for (let node of texts) {
    re.lastIndex = 0;
    let m;
    while ((m = re.exec(node.data))) {
      const key = byWord.get(m[0].toLowerCase());
      if (seen.has(key)) continue;
      seen.add(key);
      const word = node.splitText(m.index);
      const rest = word.splitText(m[0].length);
      word.replaceWith(termButton(key, m[0]));
      node = rest;
      re.lastIndex = 0;
    }
  }
}

function termButton(key, word) {
  return el("button", {
    type: "button", class: "term", "data-term": key, "aria-controls": "term-pop",
    "aria-expanded": String(!!open && open.key === key), "data-testid": `term-${key}`,
  }, word);
}

function popover() {
  let pop = document.getElementById("term-pop");
  if (!pop) {
    pop = el("div", { id: "term-pop", class: "term-pop hidden", role: "dialog", "aria-labelledby": "term-pop-name",
      "data-testid": "term-pop" });
    document.body.append(pop);
  }
  return pop;
}

/** Opens the popover of `key` beside `anchor` (a term's button or chip); `pinned`: by a tap, kept until closed. */
export function openTerm(key, anchor, pinned) {
  clearTimeout(closing);
  const term = TERMS[key];
  const pop = popover();
  const section = term.section && term.section[lang()];
  pop.replaceChildren(
    el("strong", { id: "term-pop-name" }, term.name()),
    el("p", {}, term.text()),
    section ? el("a", { href: withLang(`/rules#${section}`), target: "_blank", rel: "noopener",
      "data-testid": "term-rules-link" }, t("More in the rules")) : null);
  pop.dataset.term = key;
  pop.classList.remove("hidden");
  open = { key, pinned, anchor };
  document.querySelectorAll(".term").forEach((b) => b.setAttribute("aria-expanded", String(b.dataset.term === key)));
  place(pop, anchor);
}

export function closeTerm() {
  clearTimeout(closing);
  if (!open) return;
  open = null;
  popover().classList.add("hidden");
  document.querySelectorAll(".term").forEach((b) => b.setAttribute("aria-expanded", "false"));
}

// Beside the word, below it or above it, inside the screen; where it can, clear of the hand and the buttons (the
// player's next tap): a tap anywhere closes it all the same, on the popover too.
function place(pop, anchor) {
  const margin = 6;
  const a = anchor.getBoundingClientRect();
  const w = pop.offsetWidth, h = pop.offsetHeight;
  const zone = document.querySelector(".handzone");
  const handTop = zone && zone.offsetParent ? zone.getBoundingClientRect().top : innerHeight;
  const below = a.bottom + margin, above = a.top - margin - h;
  const candidates = [below, above].filter((top) => top >= margin && top + h <= innerHeight - margin);
  const clear = candidates.filter((top) => top + h <= handTop || a.top >= handTop);
  const top = clear[0] ?? candidates[0] ?? Math.max(margin, innerHeight - margin - h);
  const left = Math.min(Math.max(margin, a.left + a.width / 2 - w / 2), innerWidth - margin - w);
  pop.style.top = `${Math.round(top)}px`;
  pop.style.left = `${Math.round(Math.max(margin, left))}px`;
}

const termOf = (node) => (node instanceof Element ? node.closest(".term") : null);
// On a touch screen a word is a few millimetres of text (级牌 is 23×13 px held sideways): a tap within a finger's
// reach of one, in a box of REACH_PX around its middle, opens it as a tap on it does. The look stays a word's, and
// where two words' boxes meet (the facts' lines are 13 px apart) the nearer one takes the tap. A tap on any other
// control, or in another part of the table (the middle, whose tap plays the selection), is never taken.
const COARSE = matchMedia("(pointer: coarse)");
const REACH_PX = 44;
const CONTROLS = "a, button, summary, input, textarea, select, label, [role=button], .card, #term-pop";

/** The glossary's word that the pointer event `ev` is on, or on a touch screen near: its button, or null. */
export function termAt(ev) {
  const target = ev.target;
  if (!(target instanceof Element)) return null;
  const hit = termOf(target);
  if (hit || !COARSE.matches || target.closest(CONTROLS)) return hit;
  const root = target.closest("[data-terms]");
  if (!root) return null;
  let best = null, nearest = Infinity;
  for (const term of root.querySelectorAll(".term")) {
    const r = term.getBoundingClientRect();
    if (!r.width) continue;  // not shown
    const dx = Math.max(r.left - ev.clientX, 0, ev.clientX - r.right);
    const dy = Math.max(r.top - ev.clientY, 0, ev.clientY - r.bottom);
    if (dx > Math.max(0, (REACH_PX - r.width) / 2) || dy > Math.max(0, (REACH_PX - r.height) / 2)) continue;
    const d = Math.hypot(dx, dy);
    if (d < nearest) { nearest = d; best = term; }
  }
  return best;
}
const inPopover = (node) => node instanceof Element && !!node.closest("#term-pop");

document.addEventListener("click", (ev) => {
  const btn = termAt(ev);
  if (btn) {
    // a second tap on the word closes it; a tap on a word opened by the mouse's hover keeps it open
    if (open && open.key === btn.dataset.term && open.pinned) closeTerm();
    else openTerm(btn.dataset.term, btn, true);
    return;
  }
  if (inPopover(ev.target) && !ev.target.closest("a")) closeTerm();  // the rules' link opens them in a tab of their own
});
// a touch elsewhere closes it as it begins: a tap on the hand redraws the cards under the finger, and no click follows
document.addEventListener("pointerdown", (ev) => {
  if (open && !termAt(ev) && !inPopover(ev.target)) closeTerm();
}, true);
document.addEventListener("keydown", (ev) => {
  if (ev.key !== "Escape" || !open) return;
  const back = inPopover(document.activeElement) && open.anchor.isConnected ? open.anchor : null;
  closeTerm();
  if (back) back.focus();
});
// a mouse's hover and the keyboard's focus open it for as long as they stay (a tap pins it)
document.addEventListener("pointerover", (ev) => {
  const btn = ev.pointerType === "mouse" ? termOf(ev.target) : null;
  if (btn && !(open && open.pinned)) openTerm(btn.dataset.term, btn, false);
  else if (open && !open.pinned && inPopover(ev.target)) clearTimeout(closing);
});
document.addEventListener("pointerout", (ev) => {
  if (ev.pointerType !== "mouse" || !open || open.pinned) return;
  if (termOf(ev.relatedTarget) || inPopover(ev.relatedTarget)) return;
  clearTimeout(closing);
  closing = setTimeout(() => { if (open && !open.pinned) closeTerm(); }, 200);
});
document.addEventListener("focusin", (ev) => {
  const btn = termOf(ev.target);
  if (btn && btn.matches(":focus-visible") && !(open && open.pinned)) openTerm(btn.dataset.term, btn, false);
});
document.addEventListener("focusout", (ev) => {
  if (!open || open.pinned || !termOf(ev.target)) return;
  if (!termOf(ev.relatedTarget) && !inPopover(ev.relatedTarget)) closeTerm();
});
