// The 规则 / Rules page (rules_page.py). The lobby keeps the reader's language in localStorage
// ("guandan:lang"): follow it when no ?lang= was given, and remember the choice made with this page's own switch.
(function () {
  var key = "guandan:lang", cur = document.documentElement.dataset.lang;
  var asked = new URLSearchParams(location.search).get("lang");
  var saved = null;
  try { saved = localStorage.getItem(key); } catch (e) {}
  if (!asked && (saved === "zh" || saved === "en") && saved !== cur) {
    location.replace("?lang=" + saved + location.hash);
    return;
  }
  document.querySelectorAll("a[data-lang]").forEach(function (a) {
    a.addEventListener("click", function () { try { localStorage.setItem(key, a.dataset.lang); } catch (e) {} });
  });
})();
