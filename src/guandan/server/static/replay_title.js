// A replay in a list (the start page's replays, the account's games): a title a person reads — who played whom, and
// how it ended — made from the summary the server keeps beside each record (guandan.db.web.replay_summary), in the
// page's language; when it was played, in the reader's own clock; and the replay's id, kept small (the link holds it).
import { dealsText, el, fmt, labelled, levelsText, localTime, t } from "./common.js";

const TEAMS = [[0, 2], [1, 3]];  // North–South, East–West

// each seat as the replay page names it: a bot by its seat and strength, a player who gave no name as "Player N"
export function seatNames(summary) {
  const names = summary.players.map((name, i) => {
    const [kind, tier] = summary.kinds[i] || [null, null];
    if (kind === "bot") return tier ? fmt("Bot {n} · {tier}", { n: i + 1, tier: t(tier) }) : fmt("Bot {n}", { n: i + 1 });
    if (name) return name;
    return kind === "human" ? fmt("Player {n}", { n: i + 1 }) : fmt("Seat {n}", { n: i + 1 });
  });
  return names.map((n, i) => (names.filter((m) => m === n).length > 1 ? `${n} (${i + 1})` : n));
}

// {title, result}: "You / Bot 3 · Heuristic vs Bot 2 · Heuristic / Bot 4 · Heuristic" and "Won · Your team A :
// Opponents 7"; `seat` is the reader's (null when not known): their team comes first, their own name reads "You",
// and the levels are theirs first. With no seat, both teams are named as the table's badges name them, Team 1 (the
// title's first) first: "Team 2 won · Team 1 7 : Team 2 A".
export function replayTitle(summary, seat) {
  const names = seatNames(summary);
  const known = seat !== null && seat !== undefined;
  if (known) names[seat] = t("You");
  const mine = known ? seat % 2 : 0;
  const [us, them] = [TEAMS[mine], TEAMS[1 - mine]];
  const team = (seats) => seats.map((s) => names[s]).join(" / ");
  const title = `${team(us)} ${t("vs")} ${team(them)}`;
  const lv = summary.levels;
  const levels = lv ? levelsText(lv, known ? mine : null) : "";
  // a record with no levels (a summary that could not read them) says how it ended alone
  const alone = (text) => (levels ? text : text.replace(/\s*·\s*$/, ""));
  let result;
  if (summary.ended && summary.winner !== null) {
    if (known) result = alone(fmt(summary.winner === mine ? "Won · {levels}" : "Lost · {levels}", { levels }));
    else result = alone(fmt("{team} won · {levels}", { team: fmt("Team {n}", { n: summary.winner + 1 }), levels }));
  } else {
    result = levels ? labelled(t("Levels"), levels) : "";
  }
  const deals = summary.deals ? dealsText(summary.deals) : "";
  return { title, result: [result, deals].filter(Boolean).join(" · ") };
}

// whether an entry's title names the reader ("You"): a replay of theirs whose title does not (imported, or a match of
// four bots they started) is tagged "yours" instead, and one whose title does is not tagged again
export function titleNamesReader(r, seat) { return !!r.summary && seat !== null && seat !== undefined; }

// the nodes of one list entry: the title as the link, then when, how it ended and the id (small)
export function replayNodes(r, seat) {
  const when = el("time", { class: "replay-when", datetime: r.created_at }, localTime(r.created_at));
  const id = el("small", { class: "replay-id", title: t("Replay") }, r.id);
  if (!r.summary) return [el("a", { class: "replay-title", href: `/replay/${r.id}` }, t("Replay")), when, id];
  const { title, result } = replayTitle(r.summary, seat);
  return [el("a", { class: "replay-title", href: `/replay/${r.id}` }, title), when,
    result ? el("span", { class: "replay-result" }, result) : null, id];
}
