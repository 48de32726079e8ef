"""A money request refuses a field it does not know, naming it (cardroom.api.MoneyRequestSerializer):
an old or mistyped name must not be ignored while the request fails for another reason, or goes
through without what the client meant. Nothing is written."""

import pytest
from drf_spectacular.generators import SchemaGenerator
from rest_framework import serializers

from cardroom.api import CentsField, MoneyRequestSerializer
from cardroom.models import AuditRecord, IdempotentRequest
from cashier.models import CashierTransaction, Posting, Shift
from cashier.services import shift_open
from tests.cage.conftest import key
from tests.cashgame.conftest import make_game, make_table
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db

AMOUNT_HINT = "Unknown field. The amount goes in {}, in whole cents (150000 is 1,500.00 EUR)."


def written() -> tuple[int, ...]:
    return (
        Shift.objects.count(),
        CashierTransaction.objects.count(),
        Posting.objects.count(),
        IdempotentRequest.objects.count(),
        AuditRecord.objects.count(),
    )


def test_shift_opened_with_the_old_float_name_refused_naming_it__CAG_3(api, cashier):
    response = api(cashier).post("/api/cashier/shifts/", {"opening_float": 10_000}, format="json")
    assert (response.status_code, response.json()) == (
        400,
        {
            "code": "invalid",
            "detail": {"opening_float": [AMOUNT_HINT.format("opening_float_cents")]},
            "rule": "",
        },
    )
    assert written() == (0, 0, 0, 0, 0)


def test_unknown_field_without_a_near_name_lists_what_the_request_takes__CAG_3(api, cashier):
    body = {"opening_float_cents": 10_000, "note": "evening"}
    response = api(cashier).post("/api/cashier/shifts/", body, format="json")
    assert response.json()["detail"] == {
        "note": ["Unknown field. This request takes: opening_float_cents, denominations."]
    }
    assert written() == (0, 0, 0, 0, 0)


def test_transaction_with_an_amount_string_refused_naming_it__CAG_5(api, cashier):
    shift = shift_open(actor=cashier, opening_float_cents=100_000)
    table = make_table(make_game(), 1)
    player = PlayerFactory()
    before = written()
    body = {"kind": "cash_buy_in", "shift": shift.pk, "player": player.pk, "table": table.pk, "seat": 1}
    response = api(cashier).post(
        "/api/cashier/transactions/", {**body, "amount": "150"}, format="json", HTTP_IDEMPOTENCY_KEY=key()
    )
    assert (response.status_code, response.json()) == (
        400,
        {"code": "invalid", "detail": {"amount": [AMOUNT_HINT.format("amount_cents")]}, "rule": ""},
    )
    assert written() == before


def test_tournament_chips_under_a_wrong_name_point_to_the_chips_field__CAG_5(api, manager):
    response = api(manager).post(
        "/api/tournaments/",
        {"name": "Friday", "prize_cents": 9_000, "fee_cents": 1_000, "starting_stack": 20_000},
        format="json",
    )
    assert response.status_code == 400
    assert response.json()["detail"] == {
        "starting_stack": ["Unknown field. The chips go in starting_stack_chips, as a whole number."]
    }


def _subclasses(cls):
    for sub in cls.__subclasses__():
        yield sub
        yield from _subclasses(sub)


def _carries_money(field) -> bool:
    if isinstance(field, CentsField):
        return True
    if getattr(field, "child", None) is not None and _carries_money(field.child):
        return True
    nested = getattr(field, "_declared_fields", None)
    return bool(nested) and any(_carries_money(f) for f in nested.values())


def test_every_input_with_money_or_a_request_key_refuses_unknown_fields__CAG_2_CAG_5():
    """A new money endpoint's serializer that forgets the base fails here, not in a night."""
    from django.urls import get_resolver

    get_resolver().url_patterns  # noqa: B018 (imports every API module)
    loose, checked = [], set()
    for cls in _subclasses(serializers.Serializer):
        if cls.__module__.split(".")[0] in ("rest_framework", "drf_spectacular", "tests"):
            continue
        if issubclass(cls, serializers.ModelSerializer):
            continue  # answers, read only
        fields = {name: f for name, f in cls._declared_fields.items() if not f.read_only}
        money = any(_carries_money(f) for f in fields.values()) or "idempotency_key" in fields
        if money:
            checked.add(cls.__name__)
            if not issubclass(cls, MoneyRequestSerializer):
                loose.append(f"{cls.__module__}.{cls.__name__}")
    assert loose == []
    assert {
        "TransactionInputSerializer",
        "ShiftOpenSerializer",
        "RegisterSerializer",
        "BuyInSerializer",
    } <= checked


def test_schema_says_money_requests_take_no_other_field():
    schema = SchemaGenerator().get_schema(request=None, public=True)
    components = schema["components"]["schemas"]
    for name in ("ShiftOpenRequest", "TransactionInputRequest", "BuyInRequest", "RegisterRequest"):
        assert components[name]["additionalProperties"] is False, name
    assert "additionalProperties" not in components["PlayerInputRequest"]
