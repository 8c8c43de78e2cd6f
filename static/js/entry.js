// The desk's keyboard: "T" in the taker field records "tous passent", Escape leaves a
// correction, the taker field takes the focus after every save, a table number opens its sheet.
(function () {
  "use strict";

  function focusTaker() {
    var taker = document.querySelector("#deal-form [autofocus]");
    if (taker) {
      taker.focus();
      if (taker.select) taker.select();
    }
  }

  function submitPassed(form) {
    var taker = form.querySelector("[name=taker]");
    if (taker) taker.value = "T";
    form.requestSubmit();
  }

  document.addEventListener("input", function (event) {
    var field = event.target;
    if (field.name === "taker" && field.closest("#deal-form") && /^t$/i.test(field.value)) {
      submitPassed(field.form);
    }
  });

  document.addEventListener("click", function (event) {
    if (event.target.id === "passed-button") {
      submitPassed(event.target.form);
    }
  });

  document.addEventListener("keydown", function (event) {
    if (event.key === "Escape") {
      var cancel = document.getElementById("cancel-edit");
      if (cancel) {
        event.preventDefault();
        cancel.click();
      }
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

  document.addEventListener("htmx:afterSettle", function (event) {
    // The live preview settles while the arbiter types: leave the focus where it is.
    var target = event.detail && event.detail.target;
    if (target && target.id === "preview") return;
    focusTaker();
  });
  document.addEventListener("DOMContentLoaded", focusTaker);
})();
