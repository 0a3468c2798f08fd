// The end of a deal at the table (局终): every hand turned up, the result in words with every reason a level
// moved (the server's settlement lines: A attempts, streaks, 火拼 points as base × multiplier + bombs), a
// level board for both teams, the coming tribute, and 继续 with the pause's countdown.
import { cardNode, counted, el, eventLines, fmt, lang, placeName, RANKS, t } from "./common.js";
import { countdown, finishingOrder } from "./logic.js";
import { EVENT_TYPE as E, NAMES } from "./vocab.js";

const rankText = (r) => (r === "T" ? "10" : r);

/**
 * `text` cut where any of `names` (the seats' names) begins and ends: runs `{text, name}`, `name` true on a seat's
 * name. The longest name is taken where two begin at one place ("Bot 3 · Heuristic" before a player named "Bot").
 */
export function nameRuns(text, names) {
  const wanted = [...new Set(names.filter(Boolean))].sort((a, b) => b.length - a.length);
  const runs = [];
  let rest = String(text);
  while (rest) {
    let at = -1, found = "";
    for (const n of wanted) {
      const i = rest.indexOf(n);
      if (i >= 0 && (at < 0 || i < at)) { at = i; found = n; }
    }
    if (at < 0) { runs.push({ text: rest, name: false }); break; }
    if (at > 0) runs.push({ text: rest.slice(0, at), name: false });
    runs.push({ text: found, name: true });
    rest = rest.slice(at + found.length);
  }
  return runs;
}

/** `text` as nodes, each seat's name in it a box that a narrow line moves whole to the next line (style.css
 * .whole-name): Chinese breaks between any two characters, and a note in the table's middle read "机" over "器人3". */
export function withWholeNames(text, names) {
  return nameRuns(text, names).map((r) => (r.name ? el("span", { class: "whole-name" }, r.text) : r.text));
}

function levelBoard(view) {
  return el("div", { class: "level-board", "data-testid": "level-board" }, [0, 1].map((team) => {
    const at = view.levels[team];
    const cells = RANKS.map((r) => el("span", {
      class: `lv${r === at ? " here" : ""}${RANKS.indexOf(r) < RANKS.indexOf(at) ? " past" : ""}`,
    }, rankText(r)));
    const tries = view.a_failures[team];
    return el("div", { class: `lv-row team-${team}` },
      el("span", { class: "lv-team" }, fmt("Team {n}", { n: team + 1 }),
        view.declarer === team ? el("span", { class: "badge", "data-testid": "declarer" }, t("Declarer")) : null),
      el("span", { class: "lv-track" }, cells),
      at === "A" ? el("span", { class: `lv-a${tries ? "" : " none"}` }, fmt("A failures: {n}", { n: tries })) : null);
  }));
}

/**
 * The deal's result in a line: "1-2 (double win) · Team 1 +3". A deal that gains no level (the winners pass A and
 * win the match) has the result alone: "Team 1 +0" read as a level refused, and the reasons under it say why.
 */
export function resultHeadline(settled) {
  const names = NAMES[lang()] || NAMES.en;
  const result = names.result[String(settled.partner_place)] || "";
  if (!settled.upgrade) return result;
  const team = fmt("Team {n}", { n: settled.finish[0] % 2 + 1 });
  return `${result} · ${fmt("{team} +{n}", { team, n: settled.upgrade })}`;
}

/**
 * The panel's content. `end` is `{deal, reveal, events, waiting, deadline}` (`waiting`/`deadline`
 * absent once the pause is over or for a table that does not pause); `view` the table's current view
 * (the next deal, already dealt); `events` the table's events of that deal so far, its anti-tribute among them
 * (none after the last deal); `seatName(s)`; `me` the page's seat or null; `onContinue`, `onClose`; at the
 * match's end `matchLine` (read before the buttons) and `matchLinks` (on the buttons' row: a phone held
 * sideways has no height to spare).
 */
export function dealEndPanel(end, { view, events, seatName, me, onContinue, onClose, matchLine = null, matchLinks = null, now = Date.now() }) {
  const settled = end.events.find((e) => e.type === E.DEAL_SETTLED);
  const parts = [el("h3", {}, fmt("Deal {n} is over", { n: end.deal + 1 }))];
  if (settled) {
    parts.push(el("div", { class: "headline", "data-testid": "deal-result" }, resultHeadline(settled)));
    // the first line restates the headline; the rest are the reasons a level moved, and 火拼 points
    parts.push(el("div", { class: "reasons" }, eventLines(settled).slice(1).map((line) => el("div", {}, line))));
  }
  const finish = settled ? settled.finish : [];
  // in finishing order, 头游 first, as players read a result (each row keeps its seat's name and team colour)
  parts.push(el("div", { class: "reveal", "data-testid": "reveal" }, finishingOrder(finish).map((s) => {
    const place = finish.indexOf(s);
    const cards = (end.reveal || [])[s] || [];
    // a long hand takes the panel's whole width, where it fits in fewer rows
    return el("div", { class: `reveal-row team-${s % 2}${cards.length > 10 ? " wide" : ""}`, "data-seat": s },
      // the name and the place each in a column of the panel's grid (style.css; held sideways, the place under the name
      // in one), shared by every row: the places and the cards start at one edge down the panel, whatever the names'
      // lengths; the whole name is the title too, as a column too narrow for a long one ends it in an ellipsis
      el("span", { class: "who" }, el("span", { class: "name", title: seatName(s) }, seatName(s)),
        el("span", { class: "place" }, place >= 0 ? el("span", { class: "badge" }, placeName(place + 1)) : null)),
      cards.length ? el("span", { class: "cards-fan" }, cards.map((c) => cardNode(c, end.level ?? view.level, { small: true })))
        : el("span", { class: "none" }, t("No cards left")));
  })));
  parts.push(levelBoard(view));
  // the next deal's 抗贡 is among its opening events (the table's: an update's view carries none)
  const anti = (events || []).find((e) => e.type === E.ANTI_TRIBUTE);
  const seats = [0, 1, 2, 3].map(seatName);
  if (anti) parts.push(el("div", { class: "tribute-next" }, withWholeNames(eventLines(anti).join(" "), seats)));
  else if ((view.tribute_payers || []).length) {
    const payers = view.tribute_payers;  // the server's: the core decides who pays
    const msgid = payers.length > 1 ? "Next deal: {who} pay tribute" : "Next deal: {who} pays tribute";
    parts.push(el("div", { class: "tribute-next" },
      withWholeNames(fmt(msgid, { who: payers.map(seatName).join(t(", ")) }), seats)));
  }
  const left = end.deadline ? countdown(end.deadline, now) : null;
  const waitingMe = me !== null && (end.waiting || []).includes(me);
  if (matchLine) parts.push(matchLine);
  const buttons = el("div", { class: "end-buttons" }, matchLinks);
  if (waitingMe) {
    buttons.append(el("button", { class: "primary", "data-testid": "continue", onclick: onContinue },
      left !== null ? counted(t("Continue"), left) : t("Continue")));
  } else {
    const others = (end.waiting || []).filter((s) => s !== me).map(seatName);
    if (others.length) {
      const words = fmt("Waiting for {who}", { who: others.join(t(", ")) });  // the countdown ticks on it (table.js)
      buttons.append(el("span", { class: "waiting", "data-words": words }, left !== null ? counted(words, left) : words));
    } else if (left !== null) {  // nobody to wait for (a match of bots being watched): the pause runs out
      buttons.append(el("span", { class: "waiting", "data-words": t("Next deal") }, counted(t("Next deal"), left)));
    }
    buttons.append(el("button", { "data-testid": "deal-end-close", onclick: onClose }, t("Close")));
  }
  parts.push(buttons);
  return parts;
}
