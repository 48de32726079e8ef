"""A reversed cash-game buy-in leaves the floor one next step, and the approval says which
(CAG-6): the seat waits for the player to buy in again, or the floor frees it."""

import pytest

from cage.services import DeskRequest, transaction_route
from cardroom.roles import Role
from cashgame.models import PlayerSession, SeatState
from cashgame.selectors import seat_actions
from cashgame.services.sessions import session_seat
from tests.cage.conftest import key
from tests.cashgame.conftest import T0
from tests.conftest import make_staff
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db


def test_a_reversed_buy_in_names_the_floors_next_step__CAG_6(client, cashier, floor, manager, shift, table):
    player = PlayerFactory(first_name="Eva", last_name="Malá", card_number="515153")
    session_seat(actor=floor, table=table, player=player, seat=2, now=T0)
    record = transaction_route(
        actor=cashier,
        shift=shift,
        request=DeskRequest(kind="cash_buy_in", player_id=player.pk, amount_cents=25_050, table_id=table.pk),
        idempotency_key=key(),
    )
    client.force_login(manager)
    client.post(f"/cashier/receipts/{record.pk}/reverse/", {"reason": "Wrong player"})
    reversal = record.posting.reversal_requests.get()
    client.force_login(make_staff("manager9", Role.MANAGER))
    page = client.post(f"/cashier/reversals/{reversal.pk}/approve/", follow=True).content.decode()
    assert (
        f"Reversal posted (receipt {record.receipt_number}, 250.50 EUR, Eva Malá). Table 1, seat 2 waits "
        "for Eva Malá to buy in again: the player buys in at the cage, or the floor frees the seat."
    ) in page
    session = PlayerSession.objects.get(player=player)
    assert (session.state, session.buy_in_cents) == (SeatState.AWAITING_BUY_IN, 0)
    # The floor's seat panel offers exactly that: free the seat.
    assert "release" in seat_actions(session, table=table, dealt=False)
