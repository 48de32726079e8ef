// The league standings' TV pages (SER-4): one page of rows shows at a time and the next takes
// its place every data-page-seconds; after showing every page once, the screen loads the
// standings afresh (a finished tournament's points appear on the next round). A single page
// just reloads after the same time. No text here: the page holds it.
(function () {
  "use strict";
  var screen = document.querySelector("[data-page-seconds]");
  if (!screen) return;
  var seconds = Math.max(3, parseInt(screen.getAttribute("data-page-seconds"), 10) || 10);
  var pages = Array.prototype.slice.call(document.querySelectorAll("[data-page]"));
  var current = document.querySelector("[data-page-current]");
  var shown = 0;
  window.setInterval(function () {
    if (pages.length < 2 || shown === pages.length - 1) {
      window.location.reload();
      return;
    }
    pages[shown].hidden = true;
    shown += 1;
    pages[shown].hidden = false;
    if (current) current.textContent = String(shown + 1);
  }, seconds * 1000);
})();
