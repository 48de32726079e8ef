/* The page shell's behaviour, shared by every page that extends base.html.

   A table wider than the screen scrolls sideways inside its .table-wrap; a keyboard user can
   only scroll it once it takes focus, so a wrap that overflows becomes a tab stop (and stops
   being one when the screen is wide enough again). */
(function () {
  function markScrollable() {
    document.querySelectorAll(".table-wrap").forEach(function (wrap) {
      if (wrap.scrollWidth > wrap.clientWidth + 1) {
        wrap.setAttribute("tabindex", "0");
      } else if (wrap.getAttribute("tabindex") === "0") {
        wrap.removeAttribute("tabindex");
      }
    });
  }
  document.addEventListener("DOMContentLoaded", markScrollable);
  window.addEventListener("resize", markScrollable);
  document.addEventListener("htmx:afterSettle", markScrollable);
})();
