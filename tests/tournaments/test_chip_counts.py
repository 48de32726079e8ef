"""Chip counts during play (issue 27, item 3): a table's counts entered seat by seat, each new
count superseding the last; the TV's chip leaders and average from real counts and the phones'
last count with its time (SER-2); a deal's stacks prefilled from the counts (TRN-10). A count
typed with a letter, a negative count, an empty seat, a busted player or one of another
tournament, or a tournament not running is refused and nothing is written."""

from datetime import UTC, datetime

import pytest
from django.core.cache import cache
from django.utils import translation

from cardroom.errors import DomainError
from cardroom.models import AuditRecord
from players.models import Player
from screens.tv import tv_state_get
from tests.queries import hold_caches
from tests.tournaments.conftest import grow_history
from tests.tournaments.test_clock_poll_queries import TV_POLL_QUERIES
from tests.tournaments.test_deals import CLOSED, S, final_three  # noqa: F401 (a fixture)
from tournaments.models import ChipCount, Entry, Table, TournamentStatus
from tournaments.selectors.counts import latest_counts
from tournaments.services.counts import chip_counts_record
from tournaments.services.payouts import entry_bust

pytestmark = pytest.mark.django_db

# 20:40 UTC on a December evening is 21:40 in Bratislava (the venue's time zone, CET).
AT = datetime(2026, 12, 5, 20, 40, tzinfo=UTC)
LATER = datetime(2026, 12, 5, 21, 25, tzinfo=UTC)  # 22:25 in Bratislava


@pytest.fixture
def tables(running_tournament):
    """The running tournament's ten players at their drawn tables: (tournament, {table: {seat:
    entry}}), each player nicknamed by his entry number ("P1".."P10") so the public names are
    known."""
    tournament, entries = running_tournament
    for entry in entries:
        Player.objects.filter(pk=entry.player_id).update(nickname=f"P{entry.number}")
    seated: dict[Table, dict[int, Entry]] = {}
    for entry in Entry.objects.filter(tournament=tournament).select_related("table").order_by("seat"):
        seated.setdefault(entry.table, {})[entry.seat] = entry
    return tournament, dict(sorted(seated.items(), key=lambda item: item[0].number))


def first_table(tables):
    tournament, seated = tables
    table, seats = next(iter(seated.items()))
    return tournament, table, seats


def nothing_written():
    return (ChipCount.objects.count(), AuditRecord.objects.filter(action="tournament.chip_counts").count())


def test_a_tables_counts_are_recorded_seat_by_seat_as_staff_write_them_and_audited__SER_2(floor, tables):
    tournament, table, seats = first_table(tables)
    first, second, third = sorted(seats)[:3]
    rows = chip_counts_record(
        tournament=tournament,
        table=table,
        counts={first: "12,500", second: "12 500", third: 31_000},
        actor=floor,
        now=AT,
        note="break 1",
    )
    assert [(row.seat, row.entry_id, row.count, row.table_id) for row in rows] == [
        (first, seats[first].pk, 12_500, table.pk),
        (second, seats[second].pk, 12_500, table.pk),
        (third, seats[third].pk, 31_000, table.pk),
    ]
    assert {(row.counted_at, row.counted_by_id, row.note) for row in rows} == {(AT, floor.pk, "break 1")}
    record = AuditRecord.objects.get(action="tournament.chip_counts")
    numbers = [str(seats[seat].number) for seat in (first, second, third)]
    assert (record.actor_id, record.at, record.object_id) == (floor.pk, AT, str(table.pk))
    assert record.before == dict.fromkeys(numbers)
    assert record.after == dict(zip(numbers, [12_500, 12_500, 31_000], strict=True))


def test_a_new_count_supersedes_the_last_and_the_history_stays__SER_2(floor, tables):
    tournament, table, seats = first_table(tables)
    seat = min(seats)
    entry = seats[seat]
    chip_counts_record(tournament=tournament, table=table, counts={seat: "18,000"}, actor=floor, now=AT)
    chip_counts_record(tournament=tournament, table=table, counts={seat: "24,750"}, actor=floor, now=LATER)
    assert list(ChipCount.objects.filter(entry=entry).values_list("count", flat=True)) == [18_000, 24_750]
    last = latest_counts(tournament=tournament)
    assert (last[entry.pk].count, last[entry.pk].counted_at) == (24_750, LATER)
    second = AuditRecord.objects.filter(action="tournament.chip_counts").order_by("pk").last()
    assert (second.before, second.after) == ({str(entry.number): 18_000}, {str(entry.number): 24_750})


REFUSALS = [
    # (what was typed, the error's code)
    ("12a00", "invalid_amount"),
    ("-500", "negative_count"),
    ("1.5", "chips_not_whole"),
    ("0", "zero_count"),
]


@pytest.mark.parametrize(("typed", "code"), REFUSALS)
def test_a_count_typed_wrong_refuses_the_whole_table_and_writes_nothing__SER_2(floor, tables, typed, code):
    tournament, table, seats = first_table(tables)
    good, bad = sorted(seats)[:2]
    with pytest.raises(DomainError) as refused:
        chip_counts_record(
            tournament=tournament, table=table, counts={good: "20,000", bad: typed}, actor=floor, now=AT
        )
    assert refused.value.code == code
    assert f"Seat {bad}" in refused.value.message
    assert nothing_written() == (0, 0)


def test_a_count_for_an_empty_seat_is_refused_and_nothing_written__SER_2(floor, tables):
    tournament, table, seats = first_table(tables)
    empty = next(seat for seat in range(1, table.seats + 1) if seat not in seats)
    with pytest.raises(DomainError) as refused:
        chip_counts_record(
            tournament=tournament,
            table=table,
            counts={min(seats): "20,000", empty: "20,000"},
            actor=floor,
            now=AT,
        )
    assert (refused.value.code, refused.value.message) == (
        "seat_empty",
        f"Seat {empty} has no player: leave it blank.",
    )
    assert nothing_written() == (0, 0)


def test_a_count_for_a_player_busted_since_the_page_was_drawn_is_refused__SER_2(floor, tables):
    tournament, table, seats = first_table(tables)
    seat = min(seats)
    busted = seats[seat]
    entry_bust(actor=floor, tournament=tournament, busted=[(busted.pk, None)], now=AT)
    with pytest.raises(DomainError) as refused:
        chip_counts_record(
            tournament=tournament,
            table=table,
            counts={seat: "20,000"},
            entries={seat: busted.pk},
            actor=floor,
            now=AT,
        )
    assert (refused.value.code, refused.value.message) == (
        "entry_out",
        f"Seat {seat}: entry #{busted.number} is out (Busted); a busted player has no count.",
    )
    assert nothing_written() == (0, 0)


def test_an_entry_or_a_table_of_another_tournament_is_refused__SER_2(
    floor, tables, make_tournament, register
):
    tournament, table, seats = first_table(tables)
    other = make_tournament()
    stranger = register(other)
    seat = min(seats)
    with pytest.raises(DomainError) as refused:
        chip_counts_record(
            tournament=tournament,
            table=table,
            counts={seat: "20,000"},
            entries={seat: stranger.pk},
            actor=floor,
            now=AT,
        )
    assert refused.value.code == "other_tournament"
    with pytest.raises(DomainError) as refused:
        chip_counts_record(tournament=other, table=table, counts={seat: "20,000"}, actor=floor, now=AT)
    assert refused.value.code in ("not_running", "other_tournament")
    assert nothing_written() == (0, 0)


def test_counts_are_refused_while_the_tournament_is_not_running__SER_2(floor, make_tournament, register):
    tournament = make_tournament()
    register(tournament)
    register(tournament)
    table = Table.objects.create(tournament=tournament, number=1, seats=9, break_rank=1)
    Entry.objects.filter(tournament=tournament, number=1).update(table=table, seat=1)
    with pytest.raises(DomainError) as refused:
        chip_counts_record(tournament=tournament, table=table, counts={1: "20,000"}, actor=floor, now=AT)
    assert (refused.value.code, refused.value.rule) == ("not_running", "SER-2")
    assert (
        refused.value.message == "Chips are counted while the tournament is running; this one is Registering."
    )
    assert nothing_written() == (0, 0)


def test_a_cashier_cannot_enter_counts__ROL_1(cashier, tables):
    tournament, table, seats = first_table(tables)
    with pytest.raises(DomainError):
        chip_counts_record(tournament=tournament, table=table, counts={min(seats): "20,000"}, actor=cashier)
    assert nothing_written() == (0, 0)


def count_everyone(floor, tables, stacks: dict[str, int], now=AT):
    """Record the counts by nickname ("P3": 48_500), table by table."""
    tournament, seated = tables
    for table, seats in seated.items():
        counts = {
            seat: stacks[f"P{entry.number}"] for seat, entry in seats.items() if f"P{entry.number}" in stacks
        }
        if counts:
            chip_counts_record(tournament=tournament, table=table, counts=counts, actor=floor, now=now)


STACKS = {f"P{n}": chips for n, chips in enumerate([48_500, 9_000, 31_250, 22_000, 15_000, 27_750], start=1)}


def test_the_tv_shows_the_chip_leaders_and_the_average_from_real_counts__SER_2(floor, tables):
    tournament, _seated = tables
    with translation.override("en"):
        before = tv_state_get(tournament=tournament)
        assert before["chip_counts"] is None
        assert before["field"]["average_stack_text"] == "20,000"  # computed: 200,000 chips / 10
        count_everyone(floor, tables, STACKS)
        state = tv_state_get(tournament=tournament)
    counts = state["chip_counts"]
    assert [(row["name"], row["chips"], row["chips_text"]) for row in counts["leaders"]] == [
        ("P1", 48_500, "48,500"),
        ("P3", 31_250, "31,250"),
        ("P6", 27_750, "27,750"),
        ("P4", 22_000, "22,000"),
        ("P5", 15_000, "15,000"),
    ]
    # 153,500 chips over the six players counted.
    assert (counts["counted"], counts["average_chips"]) == (6, 25_583)
    assert (counts["counted_at_text"], counts["average_note"]) == ("21:40", "from counts at 21:40")
    assert (state["field"]["average_stack_chips"], state["field"]["average_stack_text"]) == (25_583, "25,583")


def test_a_busted_players_count_leaves_the_leaders_and_the_average__SER_2(floor, tables):
    tournament, seated = tables
    count_everyone(floor, tables, STACKS)
    leader = next(entry for seats in seated.values() for entry in seats.values() if entry.number == 1)
    entry_bust(actor=floor, tournament=tournament, busted=[(leader.pk, None)], now=LATER)
    with translation.override("en"):
        counts = tv_state_get(tournament=tournament)["chip_counts"]
    assert [row["name"] for row in counts["leaders"]] == ["P3", "P6", "P4", "P5", "P2"]
    assert (counts["counted"], counts["average_chips"]) == (5, 21_000)  # 105,000 / 5


def test_the_tv_page_draws_the_leaders_in_slovak__SER_2(client, floor, tables):
    tournament, _seated = tables
    count_everyone(floor, tables, STACKS)
    page = client.get(f"/tv/{tournament.pk}/?lang=sk").content.decode()
    assert "Lídri v žetónoch" in page and "spočítané o 21:40" in page and "z počtov o 21:40" in page
    assert "48\xa0500" in page or "48 500" in page


def test_the_phone_shows_each_players_last_count_with_its_time_in_the_venues_zone__SER_2(
    client, floor, tables
):
    tournament, _seated = tables
    count_everyone(floor, tables, STACKS)
    count_everyone(floor, tables, {"P2": 11_200}, now=LATER)
    page = client.get(f"/room/tournaments/{tournament.pk}/?lang=en&find=P2").content.decode()
    assert "Your last count: 11,200 chips at 22:25" in page
    assert "Chip counts" in page
    # Largest first: P1 48,500 at 21:40 ... P2 11,200 at 22:25 last.
    assert page.index("48,500") < page.index("31,250") < page.index("11,200")
    assert '<time datetime="2026-12-05T21:40:00+01:00">21:40</time>' in page
    assert '<time datetime="2026-12-05T22:25:00+01:00">22:25</time>' in page


def test_the_deal_calculator_starts_from_each_players_last_count__TRN_10(client, floor, final_three):  # noqa: F811
    tournament, (a, b, c) = final_three
    entries = Entry.objects.filter(pk__in=[a, b, c]).select_related("table")
    by_table: dict[Table, dict[int, int]] = {}
    stacks = {a: 70_000, b: 40_000, c: 15_000}
    for entry in entries:
        by_table.setdefault(entry.table, {})[entry.seat] = stacks[entry.pk]
    for table, counts in by_table.items():
        chip_counts_record(tournament=tournament, table=table, counts=counts, actor=floor, now=CLOSED + 2 * S)
    client.force_login(floor)
    page = client.get(f"/tournaments/{tournament.pk}/payouts/?lang=en").content.decode()
    for pk, chips in stacks.items():
        assert f'name="stack_{pk}" inputmode="numeric" value="{chips}"' in page
    # The prefilled stacks calculate as typed ones do.
    query = "&".join(f"stack_{pk}={chips}" for pk, chips in stacks.items())
    page = client.get(f"/tournaments/{tournament.pk}/payouts/?{query}&method=icm").content.decode()
    assert f'name="share_{a}" value="20950"' in page


def test_the_tv_poll_costs_one_statement_for_the_counts_however_many__SER_2(
    client, floor, tables, monkeypatch, django_assert_num_queries
):
    hold_caches(monkeypatch)
    tournament, seated = tables
    count_everyone(floor, tables, STACKS)
    url = f"/tv/{tournament.pk}/state.json"
    assert client.get(url).status_code == 200
    cache.clear()
    with django_assert_num_queries(TV_POLL_QUERIES):
        assert len(client.get(url).json()["chip_counts"]["leaders"]) == 5
    for _round in range(3):  # more counts behind every player
        count_everyone(floor, tables, {name: chips + 100 for name, chips in STACKS.items()}, now=LATER)
    grow_history(floor, tournament, [entry for seats in seated.values() for entry in seats.values()][6:])
    cache.clear()
    with django_assert_num_queries(TV_POLL_QUERIES):
        state = client.get(url).json()
    assert state["chip_counts"]["leaders"][0] == {"name": "P1", "chips": 48_600, "chips_text": "48,600"}


def test_the_floor_page_draws_the_table_and_records_what_was_typed__SER_2(client, floor, tables):
    tournament, table, seats = first_table(tables)
    first, second = sorted(seats)[:2]
    client.force_login(floor)
    url = f"/tournaments/{tournament.pk}/tables/{table.pk}/counts/?lang=en"
    page = client.get(url).content.decode()
    assert page.count('class="count-input"') == len(seats)
    assert "not counted yet" in page
    refused = client.post(url, {f"seat_{first}": "20,000", f"seat_{second}": "2O000"})
    assert refused.status_code == 400
    assert f"Seat {second} is not a number: 2O000" in refused.content.decode()
    assert 'value="2O000"' in refused.content.decode()  # what was typed comes back
    assert nothing_written() == (0, 0)
    done = client.post(
        url, {f"seat_{first}": "20,000", f"entry_{first}": seats[first].pk, f"seat_{second}": "21 500"}
    )
    assert done.status_code == 302
    assert sorted(ChipCount.objects.values_list("seat", "count")) == [(first, 20_000), (second, 21_500)]
    page = client.get(url).content.decode()
    assert "20,000 at " in page and "21,500 at " in page


def test_the_seating_chart_offers_counts_per_table_and_prompts_at_a_break__SER_2(client, floor, tables):
    tournament, seated = tables
    client.force_login(floor)
    page = client.get(f"/tournaments/{tournament.pk}/seating/?lang=en").content.decode()
    for table in seated:
        assert f"/tournaments/{tournament.pk}/tables/{table.pk}/counts/" in page
    assert "On a break" not in page
    type(tournament).objects.filter(pk=tournament.pk).update(status=TournamentStatus.ON_BREAK)
    page = client.get(f"/tournaments/{tournament.pk}/seating/?lang=en").content.decode()
    assert "On a break: count every table's stacks now." in page


def test_cashiers_get_no_count_page__ROL_1(client, cashier, tables):
    tournament, table, _seats = first_table(tables)
    client.force_login(cashier)
    assert client.get(f"/tournaments/{tournament.pk}/tables/{table.pk}/counts/").status_code == 403


def test_the_api_posts_a_tables_counts_and_reads_every_players_last__SER_2(api, floor, cashier, tables):
    tournament, table, seats = first_table(tables)
    first, second = sorted(seats)[:2]
    url = f"/api/tournaments/{tournament.pk}/tables/{table.pk}/counts/"
    refused = api(floor).post(url, {"counts": {str(first): "12,5OO"}}, format="json")
    assert refused.status_code == 400 and refused.json()["code"] == "invalid_amount"
    assert nothing_written() == (0, 0)
    assert api(cashier).post(url, {"counts": {str(first): "12,500"}}, format="json").status_code == 403
    posted = api(floor).post(
        url,
        {"counts": {str(first): "12,500", str(second): 30_000}, "entries": {str(first): seats[first].pk}},
        format="json",
    )
    assert posted.status_code == 201
    assert [(row["seat"], row["count"], row["table"]) for row in posted.json()] == [
        (first, 12_500, table.number),
        (second, 30_000, table.number),
    ]
    listed = api(floor).get(f"/api/tournaments/{tournament.pk}/counts/").json()["results"]
    assert [(row["entry"], row["count"], row["counted_by"]) for row in listed] == [
        (seats[first].pk, 12_500, "floor1"),
        (seats[second].pk, 30_000, "floor1"),
    ]
    assert api(cashier).get(f"/api/tournaments/{tournament.pk}/counts/").status_code == 403


def test_the_dashboard_prompts_for_counts_at_a_break__SER_2(client, floor, tables):
    tournament, _seated = tables
    client.force_login(floor)
    url = f"/tournaments/{tournament.pk}/?lang=en"
    assert "On a break" not in client.get(url).content.decode()
    type(tournament).objects.filter(pk=tournament.pk).update(status=TournamentStatus.ON_BREAK)
    page = client.get(url).content.decode()
    assert "On a break: count every table's stacks now." in page
    assert f'href="/tournaments/{tournament.pk}/seating/">Enter counts</a>' in page


def test_the_count_page_greys_out_recording_when_the_tournament_is_over__SER_2(client, floor, tables):
    tournament, table, _seats = first_table(tables)
    type(tournament).objects.filter(pk=tournament.pk).update(status=TournamentStatus.FINISHED)
    client.force_login(floor)
    page = client.get(f"/tournaments/{tournament.pk}/tables/{table.pk}/counts/?lang=en").content.decode()
    assert '<button type="button" class="primary big" disabled aria-describedby="why-no-counts">' in page
    assert "Chips are counted while the tournament is running; this one is Finished." in page
    assert 'type="submit">Record the counts' not in page
