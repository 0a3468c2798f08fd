// Rated rooms (guandan.ratings): a rated seat is a logged-in account's, so its join carries the session's
// CSRF token (GET /api/auth/session answers it; a guest has none, and is refused as not logged in).
import { api } from "./common.js";

export async function joinRated(code, seat) {
  const session = await api("/api/auth/session");
  return api(`/api/rooms/${code}/join`, { seat, name: "" }, undefined, session.csrf || undefined);
}
