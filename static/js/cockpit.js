/* The arbiter's cockpit: its live part polled with an ETag, the position clock ticking between
   polls, and the table jump (type a table's number anywhere, then Enter, to open its sheet). */
(function () {
  "use strict";

  var CLOCK_HEADER = "X-Position-Clock";
  // The clock as the server last told it, and when (this page's monotonic time).
  var clock = null;

  function live() {
    return document.getElementById("cockpit-live");
  }

  function format(seconds) {
    var h = Math.floor(seconds / 3600);
    var m = Math.floor((seconds % 3600) / 60);
    var s = seconds % 60;
    var mm = h ? String(m).padStart(2, "0") : String(m);
    return (h ? h + ":" : "") + mm + ":" + String(s).padStart(2, "0");
  }

  function remaining() {
    if (!clock) return 0;
    if (!clock.running) return clock.remaining;
    var elapsed = (performance.now() - clock.at) / 1000;
    return Math.max(0, Math.ceil(clock.remaining - elapsed));
  }

  function render() {
    var element = document.getElementById("position-clock");
    if (!element || !clock || !(clock.running || clock.paused)) return;
    var left = remaining();
    element.textContent = format(left);
    element.classList.toggle("expired", left === 0);
  }

  function readElement() {
    var element = document.getElementById("position-clock");
    if (!element) {
      clock = null;
      return;
    }
    var running = element.dataset.running === "1";
    clock = {
      remaining: parseInt(element.dataset.remaining, 10) || 0,
      running: running,
      paused: element.classList.contains("paused"),
      at: performance.now()
    };
  }

  document.addEventListener("htmx:configRequest", function (event) {
    var element = live();
    if (event.detail.elt !== element || !element.dataset.etag) return;
    // The browser keeps nothing (no-store): the page itself says which version it shows.
    event.detail.headers["If-None-Match"] = '"' + element.dataset.etag + '"';
  });

  document.addEventListener("htmx:beforeSwap", function (event) {
    if (event.detail.elt !== live()) return;
    if (event.detail.xhr.status === 304) event.detail.shouldSwap = false;
  });

  document.addEventListener("htmx:afterRequest", function (event) {
    var xhr = event.detail.xhr;
    if (!xhr || event.detail.elt !== live()) return;
    var header = xhr.getResponseHeader(CLOCK_HEADER);
    if (header === null) return;
    try {
      var state = JSON.parse(header);
      clock = state ? {
        remaining: state.remaining,
        running: state.running,
        paused: state.paused,
        at: performance.now()
      } : null;
    } catch (e) {
      /* an unreadable header: keep ticking from the last state */
    }
    render();
  });

  document.addEventListener("htmx:afterSettle", function (event) {
    if (event.detail.elt && event.detail.elt.id === "cockpit-live") render();
  });

  // --- the table jump ------------------------------------------------------------------------

  function jumpInput() {
    return document.querySelector("#cockpit-jump [name=table]");
  }

  function typing(target) {
    if (!target) return false;
    var tag = target.tagName;
    return tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT" || target.isContentEditable;
  }

  document.addEventListener("keydown", function (event) {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    if (!/^[0-9]$/.test(event.key) || typing(event.target)) return;
    var input = jumpInput();
    if (!input) return;
    event.preventDefault();
    input.focus();
    input.value += event.key;
  });

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (form.id !== "cockpit-jump") return;
    event.preventDefault();
    var tables = document.getElementById("cockpit-tables");
    var urls = tables ? JSON.parse(tables.dataset.urls || "{}") : {};
    var input = jumpInput();
    var number = input.value.trim();
    var output = form.querySelector(".jump-error");
    if (urls[number]) {
      // POST: opening a table's sheet may create it, and a GET never writes.
      form.action = urls[number];
      form.submit();
    } else {
      if (output) output.textContent = (form.dataset.unknown || "") + " " + number;
      input.select();
    }
  });

  document.addEventListener("DOMContentLoaded", function () {
    readElement();
    render();
    setInterval(render, 250);
  });
})();
