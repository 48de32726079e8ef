/* Closing a shift (templates/cashier/shift_close.html), moved out of the page for the
   Content-Security-Policy: no inline script. */
// The running total, live: pieces times the note or coin, summed. Only for the eye; the
// server counts again from the pieces sent, and that figure is the one recorded.
(function () {
  var form = document.getElementById("count-form");
  var money = new Intl.NumberFormat(document.documentElement.lang || "en", {
    minimumFractionDigits: 2, maximumFractionDigits: 2, useGrouping: "always"
  });
  function eur(cents) { return money.format(cents / 100) + " EUR"; }
  function recount() {
    var total = 0;
    form.querySelectorAll("input[data-cents]").forEach(function (input) {
      var pieces = /^[0-9]{1,7}$/.test(input.value.trim()) ? parseInt(input.value, 10) : 0;
      var line = pieces * parseInt(input.dataset.cents, 10);
      total += line;
      form.querySelector("[data-line='" + input.dataset.cents + "']").textContent = eur(line);
    });
    document.getElementById("running-total").textContent = eur(total);
  }
  form.addEventListener("input", recount);
})();
