/* The page shell's behaviour, shared by every page that extends base.html: tables that scroll
   sideways, and the menu's groups.

   The Content-Security-Policy allows no inline script, so the pages say what a control does in
   data attributes and this script does it, for content htmx swaps in later too:
   - data-confirm="Question?" on a form: ask before it is sent; Cancel sends nothing.
   - data-print on a button: print the page.
   - data-submit-on-change on a field: send its form as soon as the choice changes.
   - data-close=".selector" on a button: remove the nearest enclosing element that matches.
   - data-hold-while-choosing on an element that polls with htmx: no refresh while a drop-down
     list is open, which the refresh would close under the user's finger.

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

(function () {
  document.addEventListener("submit", function (event) {
    var form = event.target.closest("form[data-confirm]");
    if (form && !window.confirm(form.dataset.confirm)) {
      event.preventDefault();
    }
  });
  document.addEventListener("click", function (event) {
    var print = event.target.closest("[data-print]");
    if (print) {
      window.print();
      return;
    }
    var close = event.target.closest("[data-close]");
    if (close) {
      var sheet = close.closest(close.dataset.close);
      if (sheet) sheet.remove();
    }
  });
  document.addEventListener("change", function (event) {
    var field = event.target.closest("[data-submit-on-change]");
    if (field && field.form) field.form.submit();
  });
  document.addEventListener("htmx:beforeRequest", function (event) {
    var active = document.activeElement;
    if (event.target.closest("[data-hold-while-choosing]") && active && active.tagName === "SELECT") {
      event.preventDefault();
    }
  });
})();
