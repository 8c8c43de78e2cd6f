// The positions page: a progress bar while a long generation runs. The POST stays an ordinary
// synchronous form submission; the bar follows the budget the server announced (data-seconds)
// until the next page replaces this one.
(() => {
  "use strict";
  const box = document.getElementById("generate-progress");
  if (!box) return;
  const bar = box.querySelector('[role="progressbar"]');
  const fill = bar.querySelector(".progress-fill");
  const seconds = Number(bar.dataset.seconds) || 1;
  let timer = null;

  function show(started) {
    const elapsed = (performance.now() - started) / 1000;
    // Never 100 before the answer comes: the budget is a ceiling, not a promise.
    const percent = Math.min(99, Math.floor((elapsed / seconds) * 100));
    bar.setAttribute("aria-valuenow", String(percent));
    fill.style.width = `${percent}%`;
  }

  for (const form of document.querySelectorAll("form[data-generates]")) {
    form.addEventListener("submit", () => {
      if (timer !== null) return;
      const started = performance.now();
      box.hidden = false;
      show(started);
      timer = window.setInterval(() => show(started), 250);
    });
  }
  // Back from the next page (bfcache): no generation is running any more.
  window.addEventListener("pageshow", (event) => {
    if (!event.persisted) return;
    window.clearInterval(timer);
    timer = null;
    box.hidden = true;
  });
})();
