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

// A link into a closed box of the page ("Terminer le tournoi (dans les réglages)" →
// #tournament-finish, inside the settings box) opens the box and brings what it points to on
// screen, as the link promises; on load too, for an address with it.
function openTargetedBox() {
  const id = decodeURIComponent(window.location.hash.slice(1));
  const target = id && document.getElementById(id);
  const box = target && target.closest("details");
  if (!box) return;
  box.open = true;
  target.scrollIntoView({ block: "center" });
}
window.addEventListener("hashchange", openTargetedBox);
document.addEventListener("click", (event) => {
  // The same link clicked again, the box closed meanwhile: no hashchange, open it all the same.
  const link = event.target.closest('a[href^="#"]');
  if (link && link.getAttribute("href") === window.location.hash) openTargetedBox();
});
document.addEventListener("DOMContentLoaded", openTargetedBox);
