/* Tournament registration (templates/tournaments/register.html), moved out of the page for
   the Content-Security-Policy: no inline script. */
// Tap a search result: it becomes the chosen player without leaving the page (without
// JavaScript the result is a link that reloads this screen with the player chosen).
document.addEventListener("click", function (event) {
  var pick = event.target.closest("[data-player-id]");
  if (!pick) return;
  event.preventDefault();
  document.getElementById("id_player").value = pick.dataset.playerId;
  document.getElementById("chosen-player").innerHTML = pick.innerHTML;
  document.getElementById("player-picks").innerHTML = "";
  document.getElementById("player-search").value = "";
  document.getElementById("pay-button").focus();
});
