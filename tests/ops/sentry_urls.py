"""A page that fails while it pays a player, for tests/ops/test_sentry.py."""

import logging

from django.urls import path

from players.models import Player

logger = logging.getLogger("cardroom.tests")


def failing_payout(request, pk):
    player = Player.objects.get(pk=pk)
    amount_cents = int(request.POST["amount_cents"])
    phone = request.POST["phone"]
    logger.error("payout of %s EUR to %s failed", request.POST["amount"], player.full_name)
    raise RuntimeError(
        f"payout of {amount_cents / 100:.2f} EUR to {player.first_name} {player.last_name} "
        f"(card {player.card_number}, phone {phone}) failed"
    )


urlpatterns = [path("ops-test/payout/<int:pk>/", failing_payout)]
