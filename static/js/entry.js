// The desk's keyboard. "T" in the taker field fills the row as "tous passent" and Enter saves
// it, like every other row; Enter on an untouched new row does nothing (the habitual second
// Enter after a save). After a refusal the row is flagged, a sound plays (unless switched off)
// and the focus waits on the message: keys typed blind are not typed, Enter goes to the first
// faulty field. After a save the focus goes to the taker. Escape leaves a correction; Page Down / Page Up open the next / previous
// table's sheet; on the overview a table number opens its sheet.
(function () {
  "use strict";

  function entryForm() {
    return document.getElementById("deal-form");
  }

  function typedFields(form) {
    return Array.prototype.filter.call(
      form.querySelectorAll("input[type=text]"),
      function (input) {
        return input.value.trim() !== "";
      }
    );
  }

  function faultyField(form) {
    return form.querySelector(".has-error input:not([type=hidden]), .has-error select");
  }

  function focusField(target) {
    if (target) {
      target.focus();
      if (target.select) target.select();
    }
  }

  // A refused deal has its own sound (two low notes), which the arbiter may switch off; the
  // choice is kept on this computer.
  var SOUND_KEY = "tarot-desk-refusal-sound";

  function soundOn() {
    try {
      return window.localStorage.getItem(SOUND_KEY) !== "off";
    } catch (e) {
      return true;
    }
  }

  function refusalSound() {
    var errors = document.getElementById("entry-errors");
    if (errors) errors.dataset.sounds = String(Number(errors.dataset.sounds || 0) + 1);
    if (!soundOn()) return;
    var Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return;
    try {
      var audio = refusalSound.audio || (refusalSound.audio = new Context());
      [0, 0.18].forEach(function (start, index) {
        var tone = audio.createOscillator();
        var gain = audio.createGain();
        tone.type = "square";
        tone.frequency.value = index ? 196 : 262;
        gain.gain.value = 0.08;
        tone.connect(gain).connect(audio.destination);
        tone.start(audio.currentTime + start);
        tone.stop(audio.currentTime + start + 0.15);
      });
    } catch (e) {
      /* no sound device: the flagged row and the message remain */
    }
  }

  function focusEntry() {
    var form = entryForm();
    if (!form) return;
    var toggle = document.getElementById("refusal-sound");
    if (toggle) toggle.checked = soundOn();
    var errors = document.getElementById("entry-errors");
    if (form.classList.contains("refused") && errors && faultyField(form)) {
      // Refused: the focus waits on the message, so that keys typed blind for the next deal
      // are not typed into the faulty field; Enter goes back to it.
      errors.focus();
      refusalSound();
    } else {
      focusField(faultyField(form) || form.querySelector("[autofocus]"));
    }
    markPassed(form);
  }

  function isPassedKey(value) {
    return /^\s*t\s*$/i.test(value || "");
  }

  // The row typed as "T": the other fields do not apply; the form says so and Enter saves.
  function markPassed(form) {
    var taker = form.querySelector("[name=taker]");
    var passed = taker && isPassedKey(taker.value);
    form.classList.toggle("passed", !!passed);
    var note = document.getElementById("passed-note");
    if (note) note.hidden = !passed;
  }

  function submitPassed(form) {
    var taker = form.querySelector("[name=taker]");
    if (taker) taker.value = "T";
    form.requestSubmit();
  }

  document.addEventListener("input", function (event) {
    var field = event.target;
    if (field.name === "taker" && field.form && field.form.id === "deal-form") {
      markPassed(field.form);
    }
  });

  document.addEventListener("click", function (event) {
    if (event.target.id === "passed-button") {
      submitPassed(event.target.form);
    }
  });

  function neighbour(which) {
    return document.getElementById(which === "next" ? "next-table" : "previous-table");
  }

  document.addEventListener("change", function (event) {
    if (event.target.id !== "refusal-sound") return;
    try {
      window.localStorage.setItem(SOUND_KEY, event.target.checked ? "on" : "off");
    } catch (e) {
      /* private mode: the switch lasts as long as the page */
    }
  });

  document.addEventListener("keydown", function (event) {
    var form = entryForm();
    if (form && event.target.id === "entry-errors") {
      if (event.key === "Enter") {
        event.preventDefault();
        focusField(faultyField(form));
      } else if (event.key.length === 1 && !event.ctrlKey && !event.metaKey && !event.altKey) {
        // Typed blind after a refusal: nothing goes into a field; the row says it again.
        event.preventDefault();
        event.target.classList.remove("again");
        void event.target.offsetWidth;
        event.target.classList.add("again");
        refusalSound();
      }
      return;
    }
    if (event.key === "Escape") {
      var cancel = document.getElementById("cancel-edit");
      if (cancel) {
        event.preventDefault();
        cancel.click();
      }
      return;
    }
    if (
      event.key === "Enter" &&
      form &&
      form.contains(event.target) &&
      event.target.tagName !== "BUTTON" &&
      !form.classList.contains("editing") &&
      typedFields(form).length === 0
    ) {
      // Nothing typed on a new row: the Enter that habitually follows a save is ignored.
      event.preventDefault();
      return;
    }
    if (
      (event.key === "PageDown" || event.key === "PageUp") &&
      !event.altKey &&
      !event.ctrlKey &&
      !event.metaKey &&
      !event.shiftKey
    ) {
      var link = neighbour(event.key === "PageDown" ? "next" : "previous");
      if (!link) return;
      event.preventDefault();
      var hint = document.getElementById("table-move-hint");
      if (form && (form.classList.contains("editing") || typedFields(form).length)) {
        // A deal being typed would be lost: say so instead of leaving the page.
        if (hint) hint.hidden = false;
        return;
      }
      link.requestSubmit ? link.requestSubmit() : link.submit();
    }
  });

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (form.id !== "table-jump") return;
    event.preventDefault();
    var urls = JSON.parse(form.dataset.urls || "{}");
    var number = form.querySelector("[name=table]").value.trim();
    // POST: opening a table's sheet may create it, and a GET never writes.
    if (urls[number]) {
      form.action = urls[number];
      form.submit();
    }
  });

  // The overview says, as the number is typed, which position's table it opens.
  document.addEventListener("input", function (event) {
    var field = event.target;
    if (!field.form || field.form.id !== "table-jump") return;
    var target = document.getElementById("table-jump-target");
    if (!target) return;
    var urls = JSON.parse(field.form.dataset.urls || "{}");
    var number = field.value.trim();
    var template = urls[number] ? target.dataset.opens : target.dataset.unknown;
    target.textContent = number ? template.replace("__table__", number) : target.dataset.empty;
  });

  document.addEventListener("htmx:afterSettle", function (event) {
    // The live preview settles while the arbiter types: leave the focus where it is.
    var target = event.detail && event.detail.target;
    if (target && (target.id === "preview" || target.id === "overview-live")) return;
    focusEntry();
  });
  document.addEventListener("DOMContentLoaded", focusEntry);
})();
