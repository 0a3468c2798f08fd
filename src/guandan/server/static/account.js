// The account page (/account): log in or sign up as a guest; once logged in, the display name, the games,
// log-out (here, or every other device), the password and deletion. The server's answers carry the session's
// CSRF token, which every change sends back in X-CSRF-Token; the session id itself stays in an HttpOnly cookie.
import { allTokens, api, el, errorText, fmt, init, lang, t } from "./common.js";
import { replayNodes } from "./replay_title.js";

let csrf = "";

// common.js's api() with the session's CSRF token; a refusal throws with the server's text
const call = (path, body, method) => api(path, body, method, csrf);

const $ = (id) => document.getElementById(id);

// The page that sent a guest here to log in (?next=/events/3, a rated room): where a log-in or a sign-up goes back
// to. Only a page of this site, read as the browser reads it ("//host", "/\\host" are other sites).
const NEXT = (() => {
  const next = new URLSearchParams(location.search).get("next");
  if (!next || !next.startsWith("/")) return null;
  const url = new URL(next, location.origin);
  return url.origin === location.origin ? url.pathname + url.search + url.hash : null;
})();

// once logged in: back to the page that asked for it, else this page's member view
async function loggedIn(me) {
  if (NEXT) { location.assign(NEXT); return; }
  await showMember(me);
}

function showGames(replays) {
  const list = $("my-games");
  // each titled by who played whom and how it ended, from the account's seat (replay_title.js)
  list.replaceChildren(...(replays.length ? replays.map((r) => el("li", { class: "replay-entry", "data-replay": r.id },
    ...replayNodes(r, r.seat),
    r.seat === null ? el("span", { class: "muted" }, t("Imported")) : null,
    r.public ? el("span", { class: "tag" }, t("public")) : null))
    : [el("li", { class: "muted" }, t("No games yet: the matches you play appear here once they are over"))]));
}

// The member view's own requests: each answer renews the session cookie, so a logout waits for them — an
// answer landing after the logout's would set the ended session's cookie again.
let memberLoad = Promise.resolve();

function showMember(me) {
  memberLoad = loadMember(me);
  return memberLoad;
}

async function loadMember(me) {
  csrf = me.csrf;
  $("guest").classList.add("hidden");
  $("member").classList.remove("hidden");
  $("me-username").textContent = me.user.username;
  // the account these forms' passwords belong to, for a password manager to save or fill them under
  for (const form of ["password-form", "delete-form"]) $(form).elements.username.value = me.user.username;
  $("me-display").value = me.user.display_name;
  $("player-page").href = `/u/${encodeURIComponent(me.user.username)}?lang=${lang()}`;  // ratings, matches (players.py)
  // the games this browser played since (its seat tokens): claimed on every visit, so the list is whole
  const tokens = allTokens();
  const { replays } = tokens.length ? await call("/api/me/replays/claim", { tokens }) : await call("/api/me/replays");
  showGames(replays);
  const full = await call("/api/me");
  $("sessions").textContent = fmt("Open sessions: {n}", { n: full.sessions });
}

function showGuest() {
  csrf = "";
  $("member").classList.add("hidden");
  $("guest").classList.remove("hidden");
}

function form(id, errorId, run) {
  $(id).addEventListener("submit", async (ev) => {
    ev.preventDefault();
    $(errorId).textContent = "";
    const button = ev.submitter;
    if (button) button.disabled = true;
    try { await run(); } catch (e) { $(errorId).textContent = errorText(e); }
    finally { if (button) button.disabled = false; }
  });
}

await init();
form("login-form", "login-error", async () => {
  const me = await call("/api/auth/login", { username: $("login-username").value, password: $("login-password").value,
    tokens: allTokens() });
  $("login-password").value = "";
  if (!localStorage.getItem("guandan:name") && me.user.display_name) localStorage.setItem("guandan:name", me.user.display_name);
  await loggedIn(me);
});
form("signup-form", "signup-error", async () => {
  const me = await call("/api/auth/signup", { username: $("signup-username").value, password: $("signup-password").value,
    display_name: $("signup-display").value, tokens: allTokens() });
  $("signup-password").value = "";
  if (me.user.display_name) localStorage.setItem("guandan:name", me.user.display_name);
  await loggedIn(me);
});
form("profile-form", "profile-error", async () => {
  const { user } = await call("/api/me/profile", { display_name: $("me-display").value });
  $("me-display").value = user.display_name;
  localStorage.setItem("guandan:name", user.display_name);
  $("profile-msg").textContent = t("Saved");
});
form("password-form", "password-error", async () => {
  const { ended } = await call("/api/auth/password", { old_password: $("old-password").value,
    new_password: $("new-password").value });
  $("old-password").value = $("new-password").value = "";
  $("password-msg").textContent = ended ? fmt("Password changed. Other sessions logged out: {n}", { n: ended })
    : t("Password changed.");
  $("sessions").textContent = fmt("Open sessions: {n}", { n: 1 });
});
form("delete-form", "delete-error", async () => {
  await memberLoad.catch(() => {});
  await call("/api/me", { password: $("delete-password").value }, "DELETE");
  $("delete-password").value = "";
  showGuest();
});
$("logout").addEventListener("click", async () => {
  await memberLoad.catch(() => {});
  try { await call("/api/auth/logout", { scope: "this" }); showGuest(); }
  catch (e) { $("logout-msg").textContent = errorText(e); }
});
$("logout-others").addEventListener("click", async () => {
  try {
    const { ended } = await call("/api/auth/logout", { scope: "others" });
    $("logout-msg").textContent = fmt("Other sessions logged out: {n}", { n: ended });
    $("sessions").textContent = fmt("Open sessions: {n}", { n: 1 });
  } catch (e) { $("logout-msg").textContent = errorText(e); }
});

const state = await call("/api/auth/session");
if (state.user) await showMember(state); else showGuest();
