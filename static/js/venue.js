/* The venue's desk: its live part polled with an ETag (an unchanged venue answers 304 and
   nothing is swapped). */
(function () {
  "use strict";

  function live() {
    return document.getElementById("venue-live");
  }

  document.addEventListener("htmx:configRequest", function (event) {
    var element = live();
    if (event.detail.elt !== element || !element.dataset.etag) return;
    event.detail.headers["If-None-Match"] = '"' + element.dataset.etag + '"';
  });

  document.addEventListener("htmx:beforeSwap", function (event) {
    if (event.detail.elt !== live()) return;
    if (event.detail.xhr.status === 304) event.detail.shouldSwap = false;
  });
})();
