// A receipt opened from a desk's "Print receipt" link (?print=1) prints itself once it is drawn
// (CAG-4). In a file, not inline: the page's Content-Security-Policy allows only files.
(function () {
  if (new URLSearchParams(window.location.search).get("print") !== "1") { return; }
  window.addEventListener("load", function () { window.print(); });
})();
