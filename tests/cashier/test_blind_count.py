"""The shift closes with a blind count by note and coin (CAG-3): the expected figure is not on
the count's page, the server adds the pieces up again, the count is kept with the shift and in
the close's audit record, and the comparison shows once it is recorded."""

import itertools

import pytest

from cardroom.models import AuditRecord
from cashier.models import Shift
from cashier.services import shift_open

pytestmark = pytest.mark.django_db
_keys = itertools.count(1)


def keyed(pieces: dict) -> dict:
    """The count as the page sends it: with the key the page drew (a second tap is the same count)."""
    return {"idempotency_key": f"count-page-{next(_keys):06d}", **pieces}


@pytest.fixture
def shift(cashier):
    return shift_open(actor=cashier, opening_float_cents=123_456)


@pytest.fixture
def counting(client, cashier, shift):
    client.force_login(cashier)
    return client


def test_the_count_page_is_blind_and_lists_every_note_and_coin__CAG_3(counting, shift):
    page = counting.get(f"/cashier/shifts/{shift.pk}/close/").content.decode()
    assert "1,234.56" not in page  # the expected drawer is not shown before the count
    labels = ["500 EUR", "200 EUR", "100 EUR", "50 EUR", "20 EUR", "10 EUR", "5 EUR", "2 EUR", "1 EUR"]
    labels += ["0.50 EUR", "0.20 EUR", "0.10 EUR", "0.05 EUR", "0.02 EUR", "0.01 EUR"]
    for label in labels:
        assert f">{label}</label>" in page
    assert page.index(">5 EUR</label>") < page.index("Coins") < page.index(">2 EUR</label>")
    assert '<output id="running-total" for="count-form">0.00 EUR</output>' in page


def test_the_coins_are_written_the_slovak_way_on_a_slovak_page__CAG_3(counting, shift):
    from django.conf import settings
    from django.utils import translation

    from cashier.forms import ShiftCloseForm

    form = ShiftCloseForm()  # built in English; its labels follow the page's language
    counting.cookies[settings.LANGUAGE_COOKIE_NAME] = "sk"
    page = counting.get(f"/cashier/shifts/{shift.pk}/close/").content.decode()
    for label in ["0,50 EUR", "0,20 EUR", "0,01 EUR", "500 EUR"]:
        assert f">{label}</label>" in page
    assert ">0.50 EUR</label>" not in page
    with translation.override("en"):
        assert str(form.fields["d_50"].label) == "0.50 EUR"


def test_the_server_adds_the_pieces_up_and_keeps_them_with_the_shift__CAG_3(counting, cashier, shift):
    # 2 x 500 + 4 x 50 + 1 x 20 + 3 x 10 + 7 x 0.50 + 1 x 0.05 + 3 x 0.01 = 1,253.58 EUR
    pieces = {
        "d_50000": "2",
        "d_5000": "4",
        "d_2000": "1",
        "d_1000": "3",
        "d_50": "7",
        "d_5": "1",
        "d_1": "3",
    }
    # 19.02 EUR over: more than the venue's 5.00 EUR, so the drawer is counted once more (CAG-3).
    recount = counting.post(f"/cashier/shifts/{shift.pk}/close/", keyed(pieces))
    assert recount.url == f"/cashier/shifts/{shift.pk}/close/"
    assert Shift.objects.get().status == "open"
    answer = counting.post(f"/cashier/shifts/{shift.pk}/close/", keyed(pieces))
    assert answer.status_code == 302
    shift.refresh_from_db()
    assert (shift.status, shift.counted_cents, shift.expected_cents, shift.variance_cents) == (
        "closed",
        125_358,
        123_456,
        1_902,
    )
    expected_count = {"50000": 2, "5000": 4, "2000": 1, "1000": 3, "50": 7, "5": 1, "1": 3}
    assert shift.denominations == expected_count
    audit = AuditRecord.objects.get(action="shift.close")
    assert audit.after["denominations"] == expected_count and audit.after["counted_cents"] == 125_358
    detail = counting.get(answer.url).content.decode()
    assert "<dd>1,253.58 EUR</dd>" in detail and "<strong>19.02 EUR</strong>" in detail
    assert '<td>0.50 EUR</td><td class="num">7</td><td class="num">3.50 EUR</td>' in detail


@pytest.mark.parametrize(
    ("pieces", "message"),
    [
        ({"d_50000": "-1"}, "Ensure this value is greater than or equal to 0."),
        ({"d_2000": "two"}, "Enter a whole number."),
        ({"d_2000": "3", "counted": "50"}, "The denominations add up to 60.00 EUR, not 50.00 EUR."),
        ({}, "Enter the counted total or the count by denomination."),
    ],
)
def test_a_bad_count_is_refused_with_what_was_typed_and_nothing_written__CAG_3(
    counting, shift, pieces, message
):
    answer = counting.post(f"/cashier/shifts/{shift.pk}/close/", keyed(pieces))
    page = answer.content.decode()
    assert answer.status_code == 200
    assert message in page
    for name, value in pieces.items():
        assert f'name="{name}" value="{value}"' in page
    assert Shift.objects.get().status == "open"
    assert not AuditRecord.objects.filter(action="shift.close").exists()


def test_the_running_total_is_recomputed_by_the_server_after_a_refusal__CAG_3(counting, shift):
    page = counting.post(
        f"/cashier/shifts/{shift.pk}/close/", keyed({"d_2000": "3", "counted": "50"})
    ).content.decode()
    assert '<output id="running-total" for="count-form">60.00 EUR</output>' in page
