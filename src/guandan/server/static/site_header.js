// The site's header on every page but the game table: 掼蛋 (掼蛋 Guandan in English) leading home, the same few
// links (events, leaderboard, rules, the account: 登录 / Log in, or the logged-in player's name), the current
// page's link marked, and the language switch. A page holds an empty <header class="site-header" data-here="…">
// (here: home, events, leaderboard, rules or account; any other, as the replay page's, marks none) and loads this
// module before its own script, which calls common.js init(): that translates the links (data-t) and wires the switch
// (#lang). The server-rendered pages (players.py, rules_page.py) write the same markup themselves (site_header.py).
import { api, el } from "./common.js";

const LINKS = [
  { here: "events", href: "/events", msgid: "Events", id: "events-link" },
  { here: "leaderboard", href: "/leaderboard", msgid: "Leaderboard" },
  { here: "rules", href: "/rules", msgid: "Rules" },
];

// the session (GET /api/auth/session, which answers a guest without a refusal); offline, or the server refusing: a guest
export const session = api("/api/auth/session").catch(() => ({ user: null }));

const current = (here, name) => (here === name ? { "aria-current": "page" } : {});

function build(header) {
  const here = header.dataset.here || "";
  // a page other than the start page and the account page: the account page comes back to it after a log-in
  const next = here === "home" || here === "account" ? "" : `?next=${encodeURIComponent(location.pathname)}`;
  const account = el("a", { href: `/account${next}`, id: "account-link", "data-testid": "account-link",
    "data-nav": "account", "data-t": "Log in", ...current(here, "account") }, "Log in");
  header.replaceChildren(
    el("h1", { class: "site-name" }, el("a", { href: "/", "data-nav": "home", ...current(here, "home") },
      "掼蛋", el("span", { class: "latin-name" }, " Guandan"))),
    el("nav", { class: "site-nav", "data-testid": "site-nav" },
      ...LINKS.map((l) => el("a", { href: l.href, id: l.id, "data-testid": l.id, "data-nav": l.here, "data-t": l.msgid,
        ...current(here, l.here) }, l.msgid)),
      account),
    el("button", { type: "button", id: "lang", class: "site-lang", "data-testid": "lang" }, "中文"));
  return account;
}

const header = document.querySelector("header.site-header");
const link = header ? build(header) : null;
session.then((state) => {
  if (link && state.user) {
    link.removeAttribute("data-t");  // the page's translation pass (common.js init) must not overwrite the name
    link.textContent = state.user.display_name || state.user.username;
    link.classList.add("logged-in");
    link.dataset.user = state.user.username;
    link.setAttribute("href", "/account");
  }
  // the list of events offers an organiser a new one (the server refuses anyone else's: events_online.py)
  const newEvent = document.getElementById("new-event-row");
  if (newEvent && state.user && state.user.organiser) newEvent.classList.remove("hidden");
});
