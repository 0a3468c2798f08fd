// The arbiter's page: after an action the server sends the browser back here with its outcome in the address
// (?done=…&round=…&table=…); once the page has said it, the address drops it, so that a reload (or the address
// kept in a bookmark) does not repeat "deals set" over a table that has moved on since.
"use strict";

(() => {
  const query = new URLSearchParams(location.search);
  if (!query.has("done")) return;
  for (const name of ["done", "n", "round", "table"]) query.delete(name);
  const rest = query.toString();
  history.replaceState(null, "", location.pathname + (rest ? "?" + rest : "") + location.hash);
})();
