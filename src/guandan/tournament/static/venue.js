// The round's clock on the desk's pages: counts down between page loads from the seconds the server gave,
// turns to the warning (no new deal) and to time-up by itself. The page shows the server's time without it.
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

  // The venue screen's next page (its <meta name="next-page">: seconds; url) replaces this one: a <meta> refresh
  // adds each load to the history, so a player's back button stepped through every refresh before leaving.
  const next = document.querySelector('meta[name="next-page"]');
  const found = next && /^(\d+);\s*url=(.+)$/.exec(next.content);
  if (found) setTimeout(() => location.replace(found[2]), Number(found[1]) * 1000);
})();
