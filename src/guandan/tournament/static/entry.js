// A table's page (web_table.py): the team code from the QR code's fragment, one seat per finishing place,
// and a reload when the other phone changed something (unless this phone is halfway through a form).
(function () {
  "use strict";
  var body = document.body;
  // "?done=…" is the answer to this phone's last action only: a reload (a pull to refresh) kept saying
  // "Deal reported" over a page where the other team had since sent the deal back or called the arbiter
  var query = new URLSearchParams(location.search);
  if (query.has("done")) {
    query.delete("done");
    var rest = query.toString();
    history.replaceState(null, "", location.pathname + (rest ? "?" + rest : "") + location.hash);
  }
  var code = document.getElementById("code");
  var m = /(?:^|[#&])code=(\d{4,8})/.exec(location.hash);
  if (code && m) {
    code.value = m[1];
    // the code stays out of the address bar and the history once it is in the form
    history.replaceState(null, "", location.pathname + location.search);
  }
  var report = document.getElementById("report");
  var dirty = false;
  if (report) {
    var radios = report.querySelectorAll("input[type=radio]");
    var sync = function () {
      var taken = {};
      report.querySelectorAll("input[type=radio]:checked").forEach(function (r) { taken[r.value] = r.name; });
      radios.forEach(function (r) { r.disabled = taken[r.value] !== undefined && taken[r.value] !== r.name; });
    };
    report.addEventListener("change", function () { dirty = true; sync(); });
    sync();
  }
  document.querySelectorAll("input[name=reason], input.code").forEach(function (el) {
    el.addEventListener("input", function () { dirty = true; });
  });
  // the round's clock counts down between reloads
  var clock = document.querySelector("[data-testid=clock] .left");
  var box = document.querySelector("[data-testid=clock]");
  if (clock && box && box.dataset.ends) {
    var ends = Date.parse(box.dataset.ends);
    var skew = Date.now() - (ends - Number(box.dataset.left) * 1000);
    var tick = function () {
      var left = Math.max(0, Math.round((ends - (Date.now() - skew)) / 1000));
      clock.textContent = Math.floor(left / 60) + ":" + String(left % 60).padStart(2, "0");
    };
    setInterval(tick, 1000);
  }
  var api = body.dataset.api;
  var seen = body.dataset.version;
  if (api && seen) {
    setInterval(function () {
      if (dirty || document.hidden) { return; }
      fetch(api, { cache: "no-store" }).then(function (r) { return r.ok ? r.json() : null; }).then(function (t) {
        // the address as it stands (its ?lang= kept; the ?done= of the last action is gone from it already)
        if (t && t.version !== seen && !dirty) { location.replace(location.pathname + location.search); }
      }).catch(function () { /* offline for a moment: try again at the next tick */ });
    }, 4000);
  }
})();
