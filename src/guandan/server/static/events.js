// The site's list of online events (/events): those being played, those open for entry and those finished of late
// (GET /api/events), each linking to its own page (/events/{id}). What an entry says is what that page shows
// anyone: the name, how far it is, how many teams; for a logged-in player also whether they are entered.
import { api, el, errorText, fmt, init, localTime, t } from "./common.js";

const GROUPS = { playing: "events-playing", open: "events-open", finished: "events-finished" };

function eventNode(ev) {
  return el("li", { class: "event-item", "data-testid": "event-item", "data-event": ev.id },
    el("a", { class: "event-item-name", href: ev.link }, ev.name),
    el("span", { class: "event-item-facts" },
      // the group's heading says whether it is open or over: a tag says how far one being played is
      ev.phase === "playing" ? el("span", { class: "tag" }, fmt("Round {n} of {total}", { n: ev.current_round, total: ev.rounds }))
        : el("span", { class: "tag" }, fmt("Rounds: {n}", { n: ev.rounds })),
      el("span", { class: "tag" }, fmt("Teams: {n}", { n: ev.teams })),
      el("span", { class: "tag" }, t(ev.preset)),
      ev.entered ? el("span", { class: "tag mine" }, t("You are entered")) : null),
    ev.phase === "finished"
      ? el("time", { class: "muted", datetime: ev.updated_at }, fmt("Finished {time}", { time: localTime(ev.updated_at) }))
      : null);
}

await init();
try {
  const { events } = await api("/api/events");
  for (const [phase, id] of Object.entries(GROUPS)) {
    const mine = events.filter((ev) => ev.phase === phase);
    const box = document.getElementById(id);
    box.querySelector("ul").replaceChildren(...mine.map(eventNode));
    box.classList.toggle("hidden", !mine.length);
  }
  document.getElementById("events-none").classList.toggle("hidden", events.length > 0);
} catch (e) {
  document.getElementById("events-error").textContent = errorText(e);
}
