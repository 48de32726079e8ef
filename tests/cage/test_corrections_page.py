"""The corrections list shows what a manager approves: the receipt, the transaction, the
player and the amount, before the Approve button (CAG-1, CAG-4)."""

import re

import pytest

from cage.services import DeskRequest, correction_request, transaction_route
from cashgame.services.sessions import session_seat
from cashier.models import Posting
from tests.cage.conftest import key
from tests.cashgame.conftest import T0
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db


def test_each_correction_shows_amount_player_and_receipt_before_approve__CAG_1(
    client, cashier, floor, manager, shift, table
):
    player = PlayerFactory(first_name="Eva", last_name="Malá", card_number="515151")
    session_seat(actor=floor, table=table, player=player, seat=2, now=T0)
    record = transaction_route(
        actor=cashier,
        shift=shift,
        request=DeskRequest(kind="cash_buy_in", player_id=player.pk, amount_cents=25_050, table_id=table.pk),
        idempotency_key=key(),
    )
    correction_request(actor=cashier, posting=Posting.objects.get(pk=record.posting_id), reason="Wrong table")
    client.force_login(manager)
    page = client.get("/cashier/reversals/").content.decode()
    row = re.search(r"<tbody>(.*?)</tr>", page, re.S).group(1)
    cells = [re.sub(r"<[^>]+>", "", cell).strip() for cell in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)]
    assert cells[:5] == [
        str(record.receipt_number),
        "Cash-game buy-in",
        "Eva Malá #515151",
        "250.50 EUR",
        "Wrong table",
    ]
    assert row.index("250.50 EUR") < row.index("Approve")
    assert f'href="/cashier/receipts/{record.pk}/"' in row
    assert "(CAG-1)" not in page


def test_correction_messages_name_the_receipt_amount_and_player__CAG_1(
    client, cashier, floor, manager, shift, table
):
    from cardroom.roles import Role
    from tests.conftest import make_staff

    player = PlayerFactory(first_name="Eva", last_name="Malá", card_number="515152")
    session_seat(actor=floor, table=table, player=player, seat=2, now=T0)
    record = transaction_route(
        actor=cashier,
        shift=shift,
        request=DeskRequest(kind="cash_buy_in", player_id=player.pk, amount_cents=25_050, table_id=table.pk),
        idempotency_key=key(),
    )
    what = f"receipt {record.receipt_number}, 250.50 EUR, Eva Malá"
    client.force_login(manager)
    page = client.post(f"/cashier/receipts/{record.pk}/reverse/", {"reason": "Wrong table"}, follow=True)
    assert f"Reversal requested ({what}); a manager must approve it." in page.content.decode()
    reversal = record.posting.reversal_requests.get()
    client.force_login(make_staff("manager9", Role.MANAGER))
    page = client.post(f"/cashier/reversals/{reversal.pk}/approve/", follow=True)
    assert f"Reversal posted ({what})." in page.content.decode()
