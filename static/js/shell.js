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
  // On a phone the menu is one row that scrolls sideways: bring the current section into view.
  function showCurrentSection() {
    var nav = document.querySelector(".mainnav");
    var current = nav && nav.querySelector("[aria-current=page]");
    if (current && nav.scrollWidth > nav.clientWidth) {
      nav.scrollLeft = current.offsetLeft - (nav.clientWidth - current.offsetWidth) / 2;
    }
  }
  document.addEventListener("DOMContentLoaded", markScrollable);
  document.addEventListener("DOMContentLoaded", showCurrentSection);
  window.addEventListener("resize", markScrollable);
  document.addEventListener("htmx:afterSettle", markScrollable);
})();
