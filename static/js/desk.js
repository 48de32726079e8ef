/* The cashier's desk (templates/cashier/desk.html), moved out of the page for the
   Content-Security-Policy: no inline script. */
// Show only the fields the chosen transaction needs (the server validates them all anyway).
var FIELDS = {
  cash_buy_in: ["amount", "method", "table", "seat"], top_up: ["amount", "method", "chips_on_table", "table"],
  cash_out: ["amount", "table"], jackpot_payout: ["amount"],
  tournament_buy_in: ["tournament", "method"], re_entry: ["tournament", "method"],
  rebuy: ["tournament", "method"], add_on: ["tournament", "method"],
  refund: ["tournament", "method"], prize_payout: ["tournament", "amount"], bounty_payout: ["tournament"]
};
var kind = document.getElementById("id_kind");
function showFields() {
  var wanted = FIELDS[kind.value] || [];
  document.querySelectorAll("#transaction-form [data-field]").forEach(function (field) {
    var name = field.dataset.field;
    field.hidden = name !== "kind" && wanted.indexOf(name) === -1;
  });
}
if (kind) { kind.addEventListener("change", showFields); showFields(); }
