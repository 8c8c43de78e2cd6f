// Check-in at the door: type a few letters, ↑ ↓ to choose, Enter to mark present (or undo).
// The server folds every row's text once (tournament/collation.py fold); the typed words are
// folded the same way here, so "helene" finds HÉLÈNE and "cote" finds CÔTÉ.
(function () {
  "use strict";

  // Same as collation.fold: ligatures spelled out, accents dropped, lower case, letters and
  // digits only.
  var LIGATURES = { "œ": "oe", "Œ": "OE", "æ": "ae", "Æ": "AE", "ß": "ss" };
  function fold(text) {
    return (text || "")
      .replace(/[œŒæÆß]/g, function (c) { return LIGATURES[c]; })
      .normalize("NFKD")
      .replace(/[\u0300-\u036f]/g, "")
      .toLowerCase()
      .replace(/[^0-9a-z]/g, "");
  }
  function words(text) {
    return (text || "").split(/\s+/).map(fold).filter(Boolean);
  }

  function init() {
    var root = document.getElementById("checkin");
    if (!root) return;
    var input = document.getElementById("checkin-q");
    var list = document.getElementById("checkin-list");
    var message = document.getElementById("checkin-message");
    var csrf = root.querySelector("input[name=csrfmiddlewaretoken]").value;
    var rows = Array.prototype.slice.call(list.querySelectorAll("li[data-url]"));
    var current = null;
    var busy = false;

    function visible() {
      return rows.filter(function (row) { return !row.hidden; });
    }

    function choose(row) {
      if (current) {
        current.classList.remove("current");
        current.setAttribute("aria-selected", "false");
      }
      current = row;
      if (row) {
        row.classList.add("current");
        row.setAttribute("aria-selected", "true");
        input.setAttribute("aria-activedescendant", row.id);
        row.scrollIntoView({ block: "nearest" });
      } else {
        input.removeAttribute("aria-activedescendant");
      }
    }

    function filter() {
      var typed = words(input.value);
      rows.forEach(function (row) {
        var haystack = row.getAttribute("data-search");
        row.hidden = typed.length > 0 && !typed.every(function (w) { return haystack.indexOf(w) !== -1; });
      });
      var shown = visible();
      // Typing chooses the first match; with nothing typed, nobody is chosen (Enter does nothing).
      choose(typed.length && shown.length ? shown[0] : null);
    }

    function move(step) {
      var shown = visible();
      if (!shown.length) return;
      var index = current ? shown.indexOf(current) : -1;
      index = Math.max(0, Math.min(shown.length - 1, index + step));
      choose(shown[index]);
    }

    function show(row, present, label) {
      row.setAttribute("data-present", present ? "1" : "0");
      row.classList.toggle("present", present);
      row.classList.toggle("expected", !present);
      row.querySelector(".state").textContent = label;
      var form = row.querySelector("form");
      if (form) {
        form.querySelector("input[name=present]").value = present ? "0" : "1";
        form.querySelector("button").textContent = root.getAttribute(
          present ? "data-uncheck-label" : "data-check-label"
        );
      }
    }

    function toggle(row) {
      if (!row || busy || row.classList.contains("withdrawn")) return;
      var wanted = row.getAttribute("data-present") === "1" ? "0" : "1";
      var body = new URLSearchParams();
      body.set("present", wanted);
      busy = true;
      fetch(row.getAttribute("data-url"), {
        method: "POST",
        headers: { "X-CSRFToken": csrf, "Accept": "application/json" },
        body: body,
        credentials: "same-origin",
      })
        .then(function (response) {
          return response.json().then(function (data) { return { ok: response.ok, data: data }; });
        })
        .then(function (result) {
          if (!result.ok) throw new Error(result.data.error || root.getAttribute("data-error-label"));
          show(row, result.data.present, result.data.status);
          document.getElementById("present-count").textContent = result.data.present_count;
          document.getElementById("expected-count").textContent = result.data.expected_count;
          message.classList.remove("err");
          message.textContent = row.querySelector(".name").textContent + " : " + result.data.status;
          // Ready for the next player: typing replaces the search.
          input.select();
        })
        .catch(function (error) {
          message.classList.add("err");
          message.textContent = error.message || root.getAttribute("data-error-label");
        })
        .then(function () { busy = false; });
    }

    input.addEventListener("input", filter);
    input.addEventListener("keydown", function (event) {
      if (event.key === "ArrowDown") { move(1); event.preventDefault(); }
      else if (event.key === "ArrowUp") { move(-1); event.preventDefault(); }
      else if (event.key === "Enter") { event.preventDefault(); toggle(current); }
      else if (event.key === "Escape") { input.value = ""; filter(); event.preventDefault(); }
    });
    rows.forEach(function (row) {
      var form = row.querySelector("form");
      if (form) {
        form.addEventListener("submit", function (event) {
          event.preventDefault();
          choose(row);
          toggle(row);
        });
      }
      row.addEventListener("click", function (event) {
        if (event.target.closest("form")) return;
        choose(row);
        input.focus();
      });
    });
    root.setAttribute("data-ready", "1");
    if (input.value) filter();
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
