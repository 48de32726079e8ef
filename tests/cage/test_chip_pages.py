"""The cage's chip pages (CHP-2) and the floor's colour-up page (CHP-1), through the Django
client: what a cashier or the floor types, the refusals shown on the page, nothing written."""

import random

import pytest
from django.urls import reverse
from django.utils import timezone

from cardroom.models import AuditRecord
from cardroom.venues import venue_cache_clear
from cashgame.models import TableStatus
from chips.models import ChipCount, ChipEntry, ChipPosting, ChipSet, ChipSetKind
from chips.services import chips_receive, chips_transfer
from tests.cashgame.conftest import T0, make_game, make_table
from tests.tournaments.conftest import LEVELS
from tests.tournaments.factories import TournamentFactory, seat_players
from tournaments.models import ColourUpRace, Entry
from tournaments.services.registration import tournament_start

pytestmark = pytest.mark.django_db


@pytest.fixture
def cash(cashier) -> ChipSet:
    chip_set = ChipSet.objects.get(kind=ChipSetKind.CASH)
    chips_receive(actor=cashier, chip_set=chip_set, chips={500: 400}, now=T0)
    chips_transfer(actor=cashier, chip_set=chip_set, source="vault", target="cage", chips={500: 300}, now=T0)
    return chip_set


def written() -> tuple[int, int, int, int]:
    return (
        ChipPosting.objects.count(),
        ChipEntry.objects.count(),
        ChipCount.objects.count(),
        AuditRecord.objects.filter(action__startswith="chips.").count(),
    )


def slip_form(table, **extra) -> dict:
    return {
        "request_key": "page-test-fill-0001",
        "kind": "fill",
        "table": f"cash:{table.pk}",
        "chip_500": "1,000" if extra.pop("many", False) else "40",
        "dealer_name": "Eva",
        "floor_name": "Marek",
        **extra,
    }


def test_fill_through_the_page_posts_once_and_prints_its_slip__CHP_2(client, cashier, cash) -> None:
    table = make_table(make_game())
    client.force_login(cashier)
    url = reverse("cashier:chip-slip-new", args=[cash.pk])
    first = client.post(url, slip_form(table))
    again = client.post(url, slip_form(table))  # a double tap: the same page key
    posting = ChipPosting.objects.get(kind="fill")
    assert first.url == again.url == reverse("cashier:chip-slip", args=[posting.pk])
    assert list(posting.entries.values_list("account__kind", "quantity").order_by("quantity")) == [
        ("cage", -40),
        ("tray", 40),
    ]
    slip = client.get(first.url).content.decode()
    assert "200.00 EUR" in slip and "Eva" in slip and "Marek" in slip


def test_fill_to_a_closed_table_refused_on_the_page__CHP_2(client, cashier, cash) -> None:
    table = make_table(make_game())
    table.status = TableStatus.CLOSED
    table.save()
    client.force_login(cashier)
    before = written()
    answer = client.post(reverse("cashier:chip-slip-new", args=[cash.pk]), slip_form(table))
    assert answer.status_code == 200
    page = answer.content.decode()
    assert "Table 1 is closed: a closed table gets no fill. Open it first." in page
    assert '<a class="rule-link" href="/rules/#CHP-2">House rule: Chip inventory</a>' in page
    assert "(CHP-2)" not in page
    assert written() == before


def test_negative_count_refused_on_the_page__CHP_2(client, cashier, cash) -> None:
    client.force_login(cashier)
    before = written()
    data = {"request_key": "page-test-count-01", "account": "cage"}
    data.update({f"chip_{value}": "0" for value in (50, 100, 200, 2500, 10000, 50000)})
    data["chip_500"] = "-2"
    answer = client.post(reverse("cashier:chip-count-new", args=[cash.pk]), data)
    assert answer.status_code == 200
    page = answer.content.decode()
    assert "A count cannot be negative." in page
    assert '<a class="rule-link" href="/rules/#CHP-2">House rule: Chip inventory</a>' in page
    assert written() == before
    data["chip_500"] = "297"
    answer = client.post(reverse("cashier:chip-count-new", args=[cash.pk]), data)
    count = ChipCount.objects.get()
    assert answer.url == reverse("cashier:chip-count", args=[count.pk])
    assert [(line.denomination.value, line.difference) for line in count.lines.all() if line.difference] == [
        (500, -3)
    ]


@pytest.mark.parametrize(
    ("language", "typed"), [("en", "1,500"), ("en", "1 500"), ("sk", "1 500"), ("sk", "1.500")]
)
def test_a_count_typed_as_people_write_it_is_read_exactly__CHP_2_CAG_5(
    client, cashier, cash, language, typed
) -> None:
    client.force_login(cashier)
    client.cookies["django_language"] = language
    data = {"request_key": "page-typed-count-01", "account": "vault"}
    data.update({f"chip_{value}": "0" for value in (50, 100, 200, 2500, 10000, 50000)})
    data["chip_500"] = typed
    answer = client.post(reverse("cashier:chip-count-new", args=[cash.pk]), data)
    again = client.post(reverse("cashier:chip-count-new", args=[cash.pk]), data)  # a double tap
    count = ChipCount.objects.get()
    assert answer.url == again.url == reverse("cashier:chip-count", args=[count.pk])
    line = count.lines.get(denomination__value=500)
    assert (line.expected, line.counted) == (100, 1500)


def test_colour_up_page_refuses_a_race_out_and_keeps_what_was_typed__CHP_1(client, floor) -> None:
    tournament = TournamentFactory(levels=LEVELS, min_players=2)
    seat_players(tournament, 3)
    # The page reads the real clock: the tournament starts now, at level 1 (the 25s leave at 6).
    tournament_start(actor=floor, tournament=tournament, now=timezone.now(), rng=random.Random(3))
    entries = list(Entry.objects.filter(tournament=tournament).order_by("seat"))
    table, (s1, s2, _s3) = entries[0].table, [entry.seat for entry in entries]
    client.force_login(floor)
    url = reverse("tournaments:colour-up", args=[tournament.pk])
    data = {
        "table": str(table.pk),
        "seat": [str(s1), str(s2)],
        f"chips_{s1}_25": "1",
        f"card_{s1}": "2c",
        f"last_{s1}": "on",
        f"chips_{s2}_25": "1",
        f"card_{s2}": "Ks",
        f"got_{s2}": "on",
    }
    answer = client.post(url, data)
    page = answer.content.decode()
    assert answer.status_code == 400
    assert f"Seat {s1} would be raced out of the tournament" in page and "(CHP-1)" not in page
    assert '<a class="rule-link" href="/rules/#CHP-1">House rule: Colour-up</a>' in page
    assert f'name="card_{s1}" value="2c"' in page
    assert ColourUpRace.objects.count() == 0
    data[f"got_{s1}"] = "on"
    assert client.post(url, data).status_code == 302
    race = ColourUpRace.objects.get()
    assert [(row["seat"], row["saved"], row["won"]) for row in race.seats[:2]] == [
        (s1, True, False),
        (s2, False, True),
    ]


def test_chip_inventory_page_reads_the_same_queries_however_long_the_history__CHP_2(
    client, cashier, cash
) -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    tables = [make_table(make_game(name=f"NLHE {n}"), number=n) for n in (1, 2)]
    client.force_login(cashier)
    url = reverse("cashier:chips")

    def queries() -> int:
        with CaptureQueriesContext(connection) as seen:
            assert client.get(url).status_code == 200
        return len(seen)

    def fill(n: int) -> None:
        client.post(
            reverse("cashier:chip-slip-new", args=[cash.pk]),
            slip_form(tables[n % 2], request_key=f"page-k-{n:04d}", chip_500="10"),
        )

    # A fill to each table first: the page names the tables whose trays hold chips.
    fill(0)
    fill(1)
    venue_cache_clear()  # read again by the request, as every few seconds
    first = queries()
    for n in range(2, 14):
        fill(n)
    assert ChipPosting.objects.filter(kind="fill").count() == 14
    venue_cache_clear()
    assert queries() == first
