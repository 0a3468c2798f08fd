// An account's seats on any device: the rooms not over where the logged-in account holds a seat it took
// (GET /api/me/tables), and one of them taken for this browser (POST /api/rooms/{code}/reclaim, with the session's
// CSRF token): a fresh seat token, kept as a seat taken here is, and the device that held the seat watches from then
// on. The start page's "Back to the table" (lobby.js) and the room page's "Take your seat here" (table.js).
import { api, saveToken } from "./common.js";

// {csrf, tables}: none for a guest, or when the server cannot be asked (offline, the session ended)
export async function accountTables() {
  try {
    const session = await api("/api/auth/session");
    if (!session.user) return { csrf: "", tables: [] };
    return { csrf: session.csrf, tables: (await api("/api/me/tables")).tables };
  } catch { return { csrf: "", tables: [] }; }
}

// The seat of room `code` that the account took, for this browser: the server's answer ({token, seat, link, room}),
// its token kept; a refusal throws as api() does (its `text` the server's words, in both languages).
export async function reclaimSeat(code, csrf) {
  const data = await api(`/api/rooms/${encodeURIComponent(code)}/reclaim`, {}, undefined, csrf);
  saveToken(data.room.code, data.token);
  return data;
}
