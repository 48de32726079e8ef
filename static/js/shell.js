/* The page shell's behaviour, shared by every page that extends base.html: tables that scroll
   sideways, and the menu's groups.

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
  // The menu's groups are <details> disclosures that work without this script; with it, one
  // group is open at a time, and a tap outside the menu or Escape closes it.
  function closeMenus(except) {
    document.querySelectorAll(".menu details[open]").forEach(function (group) {
      if (group !== except) group.removeAttribute("open");
    });
  }
  document.addEventListener("toggle", function (event) {
    var group = event.target;
    if (group.matches && group.matches(".menu details") && group.open) closeMenus(group);
  }, true);
  document.addEventListener("click", function (event) {
    if (!event.target.closest || !event.target.closest(".menu")) closeMenus(null);
  });
  document.addEventListener("keydown", function (event) {
    if (event.key !== "Escape") return;
    var open = document.querySelector(".menu details[open]");
    if (open) {
      open.removeAttribute("open");
      open.querySelector("summary").focus();
    }
  });
  document.addEventListener("DOMContentLoaded", markScrollable);
  window.addEventListener("resize", markScrollable);
  document.addEventListener("htmx:afterSettle", markScrollable);
})();
