// Behaviour every page of the site layout shares, kept out of the HTML: the CSP forbids inline handlers.
"use strict";

document.addEventListener("change", (event) => {
  // The language menu applies the language as soon as one is picked.
  const select = event.target.closest("select[data-submit-on-change]");
  if (select && select.form) select.form.submit();
});

document.addEventListener("click", (event) => {
  // A link to copy (the hall screen's): one click selects all of it.
  const input = event.target.closest("input[data-select-on-click]");
  if (input) input.select();
});
