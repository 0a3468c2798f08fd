// The start page's header: the logged-in player's name (a link to the account page), or 登录 / Log in.
// Asks GET /api/auth/session, which answers a guest without a refusal.
import { api } from "./common.js";

const link = document.getElementById("account-link");
// another page with this header (the list of events): the account page comes back to it after a log-in
if (link && location.pathname !== "/") link.href = `/account?next=${encodeURIComponent(location.pathname)}`;
// offline, or the server refusing: the link stays 登录 / Log in
const state = await api("/api/auth/session").catch(() => ({ user: null }));
if (link && state.user) {
  link.removeAttribute("data-t");  // the page's translation pass (common.js init) must not overwrite the name
  link.textContent = state.user.display_name || state.user.username;
  link.classList.add("logged-in");
  link.dataset.user = state.user.username;
}
// the list of events offers an organiser a new one (the server refuses anyone else's)
const newEvent = document.getElementById("new-event-row");
if (newEvent && state.user && state.user.organiser) newEvent.classList.remove("hidden");
