"""The project URLs plus /bare-buyin/: the inserts of one API buy-in, in one transaction, with
no service layer, serializer, authentication or audit record. The baseline of cashier_buyins.py."""

import json
import uuid

from django.db import transaction
from django.http import HttpResponse
from django.urls import path
from django.utils import timezone
from django.views.decorators.csrf import csrf_exempt

from cardroom.urls import urlpatterns as base
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

AMOUNT_CENTS = 5_000
_cache: dict = {}


def _lookups(shift_id: int) -> tuple[int, int, int, int]:
    """(cashier, drawer, chips account, receipt counter) ids, read once per process."""
    if shift_id not in _cache:
        shift = Shift.objects.get(pk=shift_id)
        chips, _created = Account.objects.get_or_create(
            kind=AccountKind.CHIPS_IN_PLAY, owner="session:1", defaults={"name": "Chips in play session:1"}
        )
        counter = ReceiptCounter.objects.order_by("pk").first()
        _cache[shift_id] = (shift.cashier_id, shift.drawer_id, chips.pk, counter.pk)
    return _cache[shift_id]


@csrf_exempt
def bare_buyin(request):
    data = json.loads(request.body)
    cashier_id, drawer_id, chips_id, counter_id = _lookups(int(data["shift"]))
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
                Entry(posting=posting, account_id=drawer_id, amount_cents=AMOUNT_CENTS, created_at=now),
                Entry(posting=posting, account_id=chips_id, amount_cents=-AMOUNT_CENTS, created_at=now),
            ]
        )
        record = CashierTransaction.objects.create(
            receipt_number=counter.last_number,
            kind=TransactionKind.CASH_BUY_IN,
            shift_id=int(data["shift"]),
            cashier_id=cashier_id,
            player_id=int(data["player"]),
            amount_cents=AMOUNT_CENTS,
            method=PaymentMethod.CASH,
            posting=posting,
            reference="session:1",
            idempotency_key=key,
            created_at=now,
        )
    return HttpResponse(
        json.dumps({"id": record.pk, "receipt_number": record.receipt_number}),
        status=201,
        content_type="application/json",
    )


urlpatterns = [*base, path("bare-buyin/", bare_buyin)]
