// The desk's venue pages: the round's clock counts down between page loads from the seconds the server gave,
// turning to the warning (no new deal) and to time-up by itself (the page shows the server's time without it);
// a name too long for its cell is cut in the middle; a venue screen turns to its next page.
"use strict";

(() => {
  const text = (seconds) => {
    const s = Math.max(0, seconds);
    const h = Math.floor(s / 3600);
    const m = Math.floor((s % 3600) / 60);
    const r = s % 60;
    const two = (n) => String(n).padStart(2, "0");
    return h ? `${h}:${two(m)}:${two(r)}` : `${m}:${two(r)}`;
  };

  const run = (clock) => {
    const phase0 = clock.dataset.phase;
    if (phase0 !== "play" && phase0 !== "warning") return; // not started, or over: nothing to count
    const left0 = Number(clock.dataset.secondsLeft);
    const warning = Number(clock.dataset.warningLeft);
    const start = performance.now();
    const tick = () => {
      const left = Math.max(0, Math.ceil(left0 - (performance.now() - start) / 1000));
      const phase = left <= 0 ? "over" : left <= warning ? "warning" : "play";
      if (phase !== clock.dataset.phase) {
        clock.dataset.phase = phase;
        for (const s of clock.querySelectorAll("[data-phase-text]")) s.hidden = s.dataset.phaseText !== phase;
      }
      for (const t of clock.querySelectorAll("[data-clock-time]")) t.textContent = text(left);
      if (left > 0) setTimeout(tick, 1000 - ((performance.now() - start) % 1000));
    };
    tick();
  };

  for (const clock of document.querySelectorAll("[data-clock]")) run(clock);

  // A team's name too long for its cell ([data-fit], the whole name in its title) is cut in the middle, its end
  // kept: names alike differ at the end (淮安市清江浦区第一代表队, …第二代表队; Team One, Team Two), and the cell's
  // own cut at the end made them read the same. As many characters as the cell holds, three fifths of them from
  // the end, or more: the end that tells the name from every other (data-keep, from the server) when it fits.
  const overflows = (box) => box.scrollWidth > box.clientWidth;
  const cut = (chars, k, keep) => {
    const tail = keep > Math.ceil(k * 0.6) && keep <= k ? keep : Math.ceil(k * 0.6);
    return chars.slice(0, k - tail).join("").trimEnd() + "…" + chars.slice(chars.length - tail).join("").trimStart();
  };
  const fit = (el) => {
    const full = el.title;
    const box = el.parentElement;
    if (!full || !box) return;
    if (el.textContent !== full) el.textContent = full;
    if (!overflows(box)) return;
    const chars = Array.from(full);
    const keep = Number(el.dataset.keep) || 0;
    let lo = 1;
    let hi = chars.length - 1;
    while (lo < hi) { // the most characters that fit
      const k = Math.ceil((lo + hi) / 2);
      el.textContent = cut(chars, k, keep);
      if (overflows(box)) hi = k - 1;
      else lo = k;
    }
    el.textContent = cut(chars, lo, keep);
  };
  const fitAll = () => { for (const el of document.querySelectorAll("[data-fit]")) fit(el); };
  fitAll();
  if (document.fonts) document.fonts.ready.then(fitAll); // a font loaded late measures differently
  let frame = 0;
  addEventListener("resize", () => { cancelAnimationFrame(frame); frame = requestAnimationFrame(fitAll); });

  // The venue screen's next page (its <meta name="next-page">: seconds; url) replaces this one: a <meta> refresh
  // adds each load to the history, so a player's back button stepped through every refresh before leaving.
  const next = document.querySelector('meta[name="next-page"]');
  const found = next && /^(\d+);\s*url=(.+)$/.exec(next.content);
  if (found) setTimeout(() => location.replace(found[2]), Number(found[1]) * 1000);
})();
