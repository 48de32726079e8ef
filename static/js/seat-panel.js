/* The seat panel of the floor view and the table page (templates/cashgame/_seat_panel.html):
   its Close button takes the panel away. A delegated listener, because htmx swaps the panel in
   and out; no inline handler (the Content-Security-Policy allows no inline script). */
(function () {
  "use strict";
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("[data-close-sheet]");
    var sheet = button && button.closest(".seat-sheet");
    if (sheet) { sheet.remove(); }
  });
})();
