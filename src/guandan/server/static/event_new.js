// An organiser's form for a new online event (/events/new): name, format, rounds, each round's deals and minutes,
// the rules' preset — what `guandan tournament new NAME --online` asks, checked by the server as the command
// checks it (POST /api/events, with the session's CSRF token). A refusal names the field, which is marked; once
// made, the event's page is opened, and shows its organiser the arbiter key (kept for this tab only).
import { META, api, el, errorText, init, t, withLang } from "./common.js";

const $ = (id) => document.getElementById(id);
const FIELDS = { name: "ev-name", format: "ev-format", rounds: "ev-rounds", max_deals: "ev-deals",
  max_minutes: "ev-minutes", preset: "ev-preset" };

// common.js's api() with the session's CSRF token; a refusal throws with the server's text and the field it names
const call = (path, body, csrf) => api(path, body, undefined, csrf);

// an empty number box is null: the server's default, as an option left out of the command
const number = (id) => ($(id).value.trim() === "" ? null : Number($(id).value));

await init();
$("ev-preset").replaceChildren(...META.presets.map((name) => el("option", { value: name }, t(name))));
const session = await call("/api/auth/session").catch(() => ({}));
const user = session.user;  // the header (site_header.js) names the account, or offers a guest the log-in
$("guest-note").classList.toggle("hidden", Boolean(user));
$("not-organiser").classList.toggle("hidden", !user || user.organiser);
$("new-event-form").classList.toggle("hidden", !user || !user.organiser);

$("new-event-form").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  $("new-event-error").textContent = "";
  for (const id of Object.values(FIELDS)) $(id).removeAttribute("aria-invalid");
  $("ev-create").disabled = true;
  try {
    const made = await call("/api/events", {
      name: $("ev-name").value, format: $("ev-format").value, rounds: number("ev-rounds"),
      max_deals: number("ev-deals"), max_minutes: number("ev-minutes"), preset: $("ev-preset").value,
    }, session.csrf || "");
    sessionStorage.setItem(`guandan:arbiter:${made.id}`, made.key);
    location.assign(withLang(made.link));
  } catch (e) {
    $("new-event-error").textContent = errorText(e);
    const field = FIELDS[e.field] && $(FIELDS[e.field]);
    if (field) { field.setAttribute("aria-invalid", "true"); field.focus(); }
    $("ev-create").disabled = false;
  }
});
