// Rated rooms (guandan.ratings): a rated seat is a logged-in account's, so its join carries the session's
// CSRF token (GET /api/auth/session answers it), which the plain api() helper does not send.
import { api } from "./common.js";

export async function joinRated(code, seat) {
  const session = await api("/api/auth/session");
  const headers = { "Content-Type": "application/json" };
  if (session.csrf) headers["X-CSRF-Token"] = session.csrf;
  const res = await fetch(`/api/rooms/${code}/join`, { method: "POST", headers, body: JSON.stringify({ seat, name: "" }) });
  const data = await res.json().catch(() => ({}));
  if (!res.ok) {
    const err = new Error(typeof data.detail === "string" ? data.detail : res.statusText);
    err.code = data.error;
    err.text = data.text;
    throw err;
  }
  return data;
}
