"""The project URLs plus /bare-buyin/: the inserts of one API buy-in, in one transaction, with
no service layer, serializer, authentication, lock of the table or shift, checks or audit record.
The baseline of cashier_buyins.py; and /select-one/, the calibration request of
cpu_per_request.py.

A cash-game buy-in seats the player (CSH-1, CAG-6), so besides the receipt number, the posting,
its two entries and the cashier transaction it writes the chips' posting and its two entries
(CHP-2: the chips follow the cash, here all in 25.00 EUR chips), the player's session, the
session's buy-in event and the request key (CAG-2), as `cage.services.transaction_route` does.
"""

import json
import uuid

from django.db import connection, transaction
from django.http import HttpResponse
from django.urls import path
from django.utils import timezone
from django.views.decorators.csrf import csrf_exempt

from cardroom.models import IdempotentRequest
from cardroom.urls import urlpatterns as base
from cashgame.models import PlayerSession, SeatState, SessionEvent, SessionEventKind
from cashier.models import (
    Account,
    AccountKind,
    CashierTransaction,
    Entry,
    PaymentMethod,
    Posting,
    ReceiptCounter,
    Shift,
    TransactionKind,
)
from chips.models import ChipAccount, ChipAccountKind, ChipEntry, ChipPosting, ChipPostingKind, ChipSet

_shifts: dict[int, tuple[int, int, int]] = {}
_chips: dict[int, int] = {}
_cash_chips: dict[str, int] = {}


def _cage() -> dict[str, int]:
    """The cash-game set, its cage and players' hands accounts and its 25.00 EUR chip, read once
    per process."""
    if not _cash_chips:
        chip_set = ChipSet.objects.filter(kind="cash").order_by("pk").first()
        accounts = {
            kind: ChipAccount.objects.get_or_create(chip_set=chip_set, kind=kind, table_key="")[0].pk
            for kind in (ChipAccountKind.CAGE, ChipAccountKind.HANDS)
        }
        _cash_chips.update(chip_set=chip_set.pk, chip=chip_set.denominations.get(value=2500).pk, **accounts)
    return _cash_chips


def _desk(shift_id: int) -> tuple[int, int, int]:
    """(cashier, drawer, receipt counter) ids, read once per process."""
    if shift_id not in _shifts:
        shift = Shift.objects.get(pk=shift_id)
        counter = ReceiptCounter.objects.order_by("pk").first()
        _shifts[shift_id] = (shift.cashier_id, shift.drawer_id, counter.pk)
    return _shifts[shift_id]


def _chips_account(table_id: int) -> int:
    """The table's chips-in-play account id, read once per process (the API caches it too)."""
    if table_id not in _chips:
        owner = f"table:{table_id}"
        account, _created = Account.objects.get_or_create(
            kind=AccountKind.CHIPS_IN_PLAY, owner=owner, defaults={"name": f"Chips in play {owner}"}
        )
        _chips[table_id] = account.pk
    return _chips[table_id]


@csrf_exempt
def bare_buyin(request):
    data = json.loads(request.body)
    shift_id, table_id, player_id = int(data["shift"]), int(data["table"]), int(data["player"])
    amount = int(data["amount_cents"])
    cashier_id, drawer_id, counter_id = _desk(shift_id)
    chips_id = _chips_account(table_id)
    cage = _cage()
    key = request.headers.get("Idempotency-Key") or uuid.uuid4().hex
    now = timezone.now()
    with transaction.atomic():
        counter = ReceiptCounter.objects.select_for_update(no_key=True).get(pk=counter_id)
        counter.last_number += 1
        counter.save(update_fields=["last_number"])
        posting = Posting.objects.create(
            created_at=now, created_by_id=cashier_id, description=f"Bare buy-in {counter.last_number}"
        )
        Entry.objects.bulk_create(
            [
                Entry(posting=posting, account_id=drawer_id, amount_cents=amount, created_at=now),
                Entry(posting=posting, account_id=chips_id, amount_cents=-amount, created_at=now),
            ]
        )
        record = CashierTransaction.objects.create(
            receipt_number=counter.last_number,
            kind=TransactionKind.CASH_BUY_IN,
            shift_id=shift_id,
            cashier_id=cashier_id,
            player_id=player_id,
            amount_cents=amount,
            method=PaymentMethod.CASH,
            posting=posting,
            reference=f"table:{table_id}",
            idempotency_key=key,
            created_at=now,
        )
        chips = ChipPosting.objects.create(
            chip_set_id=cage["chip_set"],
            kind=ChipPostingKind.SALE,
            source_kind=ChipAccountKind.CAGE,
            target_kind=ChipAccountKind.HANDS,
            table_key=f"cash:{table_id}",
            created_at=now,
            created_by_id=cashier_id,
        )
        ChipEntry.objects.bulk_create(
            [
                ChipEntry(
                    posting=chips,
                    account_id=cage["cage"],
                    denomination_id=cage["chip"],
                    quantity=-amount // 2500,
                ),
                ChipEntry(
                    posting=chips,
                    account_id=cage["hands"],
                    denomination_id=cage["chip"],
                    quantity=amount // 2500,
                ),
            ]
        )
        session = PlayerSession.objects.create(
            table_id=table_id,
            seat=int(data["seat"]),
            player_id=player_id,
            state=SeatState.WAITING_FOR_BUTTON,
            started_at=now,
            buy_in_cents=amount,
            last_counted_cents=amount,
        )
        SessionEvent.objects.create(
            session=session,
            kind=SessionEventKind.BUY_IN,
            at=now,
            actor_id=cashier_id,
            amount_cents=amount,
            transaction=record,
            chip_posting=chips,
        )
        IdempotentRequest.objects.create(
            key=key, operation="bare.buy_in", fingerprint="-", result_id=session.pk, created_at=now
        )
    return HttpResponse(
        json.dumps({"id": record.pk, "receipt_number": record.receipt_number}),
        status=201,
        content_type="application/json",
    )


def select_one(request):
    """The calibration request of bench/cpu_per_request.py: one `SELECT 1` through the project's
    middleware, the least a request that reads the database can cost."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        (one,) = cursor.fetchone()
    return HttpResponse(json.dumps({"one": one}), content_type="application/json")


urlpatterns = [*base, path("bare-buyin/", bare_buyin), path("select-one/", select_one)]
