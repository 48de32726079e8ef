"""Hand-for-hand (SER-3): it starts at the paid places plus one, the clock pauses between hands
and resumes with the time it kept, players out in one round share places (TRN-10), and it ends
when the bubble bursts."""

import random
from datetime import timedelta

import pytest

from cardroom.errors import DomainError
from cardroom.models import AuditRecord
from cashier.selectors import ledger_total, prize_pool_balance
from reports.selectors.books import books_problems
from screens.tv import tv_state_get
from tests.tournaments.conftest import key
from tests.tournaments.factories import T0
from tournaments.models import HandReport, Tournament
from tournaments.selectors.hand_for_hand import hand_for_hand_get
from tournaments.services._common import rules_for
from tournaments.services.clock import clock_advance_due
from tournaments.services.hand_for_hand import (
    hand_for_hand_next_hand,
    hand_for_hand_start,
    hand_for_hand_stop,
    hand_for_hand_table_done,
)
from tournaments.services.payouts import entry_bust, payout_table_set, prize_pay
from tournaments.services.registration import tournament_start

pytestmark = pytest.mark.django_db
S = timedelta(seconds=1)
# conftest LEVELS: level 1 runs 600 s from T0.
LEVEL_1_ENDS = T0 + 600 * S


@pytest.fixture
def near_bubble(floor, register, make_tournament):
    """8 entries at tables of 3 (3 tables), 3 places paid (50/30/20 % of 720.00 EUR:
    360.00, 216.00, 144.00), registration closed at the start; four busted one by one at
    T0+1..4 s, which leaves 4 players, the paid places plus one, at two tables of 2."""
    tournament = make_tournament(late_registration_level=0, table_size=3)
    for _ in range(8):
        register(tournament)
    tournament_start(actor=floor, tournament=tournament, now=T0, rng=random.Random(5))
    payout_table_set(actor=floor, tournament=tournament, percentages=[5_000, 3_000, 2_000], now=T0)
    for n in range(1, 5):
        entry = tournament.entries.filter(status="active").order_by("pk").first()
        entry_bust(actor=floor, tournament=tournament, busted=[(entry.pk, None)], now=T0 + n * S)
        if n == 3:
            # 5 left: not yet hand for hand.
            assert rules_for(tournament).hand_for_hand_at is None
    tournament.refresh_from_db()
    return tournament


def h4h(tournament) -> dict:
    return hand_for_hand_get(tournament=tournament, rules=rules_for(tournament))


def tables(tournament) -> dict[int, list[int]]:
    """{table pk: [entry pks seated there]} of the players left."""
    seated: dict[int, list[int]] = {}
    for entry in tournament.entries.filter(status="active").order_by("pk"):
        seated.setdefault(entry.table_id, []).append(entry.pk)
    return seated


def test_starts_by_itself_at_paid_places_plus_one__SER_3(floor, near_bubble):
    tournament = near_bubble
    rules = rules_for(tournament)
    assert (rules.hand_for_hand_at, rules.hand_for_hand_round, rules.hand_for_hand_paused) == (
        T0 + 4 * S,
        1,
        False,
    )
    state = h4h(tournament)
    assert (state["on"], state["round"], state["all_done"], state["text"]) == (
        True,
        1,
        False,
        "Hand for hand",
    )
    assert [(t["players"], t["done"]) for t in state["tables"]] == [(2, False), (2, False)]
    record = AuditRecord.objects.get(action="tournament.hand_for_hand_on")
    assert (record.actor.username, record.note, record.after["hand_for_hand_round"]) == (
        "floor1",
        "4 players left, 3 paid.",
        1,
    )
    # The clock runs on through the round's hand.
    assert (tournament.status, tournament.level_ends_at) == ("running", LEVEL_1_ENDS)


def test_clock_pauses_between_hands_and_resumes_with_the_time_it_kept__SER_3(floor, near_bubble):
    tournament = near_bubble
    first, second = tables(tournament)
    hand_for_hand_table_done(actor=floor, tournament=tournament, table_id=first, now=T0 + 100 * S)
    tournament.refresh_from_db()
    assert (tournament.status, tournament.level_ends_at) == ("running", LEVEL_1_ENDS)
    hand_for_hand_table_done(actor=floor, tournament=tournament, table_id=second, now=T0 + 130 * S)
    tournament.refresh_from_db()
    # Every table is done: paused with 600 - 130 = 470 s of level 1 left.
    assert (tournament.status, tournament.level_ends_at, tournament.paused_remaining_ms) == (
        "paused",
        None,
        470_000,
    )
    assert h4h(tournament)["all_done"] is True and rules_for(tournament).hand_for_hand_paused is True
    pause = AuditRecord.objects.filter(action="clock.pause").latest("pk")
    assert (pause.actor.username, pause.note) == ("floor1", "Hand for hand: every table finished hand 1.")
    # Long past the level's scheduled end, the paused clock does not rise.
    assert clock_advance_due(tournament_id=tournament.pk, now=T0 + 900 * S) == 0
    tournament.refresh_from_db()
    assert (tournament.current_level_index, tournament.paused_remaining_ms) == (0, 470_000)

    hand_for_hand_next_hand(actor=floor, tournament=tournament, now=T0 + 1000 * S)
    tournament.refresh_from_db()
    # Running again with exactly the 470 s it kept.
    assert (tournament.status, tournament.level_ends_at, tournament.paused_remaining_ms) == (
        "running",
        T0 + 1470 * S,
        None,
    )
    resume = AuditRecord.objects.filter(action="clock.resume").latest("pk")
    assert (resume.actor.username, resume.note) == ("floor1", "Hand for hand: hand 2 starts.")
    state = h4h(tournament)
    assert (state["round"], state["all_done"], state["paused"]) == (2, False, False)
    # Round 2's reports are new ones.
    hand_for_hand_table_done(actor=floor, tournament=tournament, table_id=first, now=T0 + 1010 * S)
    assert list(HandReport.objects.order_by("pk").values_list("round", flat=True)) == [1, 1, 2]


@pytest.mark.parametrize(
    ("stack_a", "stack_c", "prize_a", "prize_c"),
    [
        (5_000, 5_000, 7_200, 7_200),  # equal stacks share 3rd and 4th: 144.00 / 2 each
        (8_000, 5_000, 14_400, None),  # the larger stack finishes 3rd
        (3_000, 5_000, None, 14_400),
    ],
)
def test_busts_at_two_tables_in_one_round_share_places_then_bubble_bursts__SER_3(
    floor, cashier, shift, near_bubble, stack_a, stack_c, prize_a, prize_c
):
    tournament = near_bubble
    (_first, (a, b)), (second, (c, d)) = tables(tournament).items()
    # Table 1's hand: a is out; the bubble bursts, but the round goes on at table 2. Table 1 is
    # broken (table 2 seats the three left), so only table 2 has a hand to report.
    entry_bust(actor=floor, tournament=tournament, busted=[(a, stack_a)], now=T0 + 50 * S)
    assert rules_for(tournament).hand_for_hand_at is not None
    assert [t["pk"] for t in h4h(tournament)["tables"]] == [second]
    # Table 2's hand of the same round: c is out too; a and c are placed together.
    entry_bust(actor=floor, tournament=tournament, busted=[(c, stack_c)], now=T0 + 60 * S)
    placed = dict(tournament.entries.filter(pk__in=[a, c]).values_list("pk", "finish_place"))
    prizes = dict(tournament.entries.filter(pk__in=[a, c]).values_list("pk", "prize_cents"))
    assert sorted(placed.values()) == [3, 4]
    assert (prizes[a], prizes[c]) == (prize_a, prize_c)
    if stack_a != stack_c:
        assert placed[a if stack_a > stack_c else c] == 3
    assert rules_for(tournament).bust_sequence == 5  # one bust number for the round
    # The last table to report ends hand for hand: the bubble burst in this round.
    waiting = h4h(tournament)["tables"]
    assert [t["done"] for t in waiting] == [False]
    hand_for_hand_table_done(actor=floor, tournament=tournament, table_id=waiting[0]["pk"], now=T0 + 61 * S)
    rules = rules_for(tournament)
    assert (rules.hand_for_hand_at, rules.hand_for_hand_paused) == (None, False)
    off = AuditRecord.objects.get(action="tournament.hand_for_hand_off")
    assert off.note == "The bubble burst: hand for hand ends."
    tournament.refresh_from_db()
    assert (tournament.status, tournament.level_ends_at) == ("running", LEVEL_1_ENDS)  # never paused

    # Heads-up: d then b, b wins; every prize is paid and the books agree.
    entry_bust(actor=floor, tournament=tournament, busted=[(d, None)], now=T0 + 70 * S)
    final = dict(tournament.entries.filter(pk__in=[b, d]).values_list("pk", "prize_cents"))
    assert final == {d: 21_600, b: 36_000}
    for entry in tournament.entries.filter(prize_cents__gt=0).order_by("pk"):
        prize_pay(actor=cashier, entry=entry, shift=shift, idempotency_key=key(), now=T0 + 80 * S)
    assert prize_pool_balance(tournament_id=tournament.pk) == 0
    assert ledger_total() == 0
    assert books_problems() == []


def test_refused_actions_write_nothing__SER_3(floor, register, make_tournament, near_bubble):
    tournament = near_bubble
    first, second = tables(tournament)
    hand_for_hand_table_done(actor=floor, tournament=tournament, table_id=first, now=T0 + 10 * S)

    def refused(call, code):
        before = (
            AuditRecord.objects.count(),
            HandReport.objects.count(),
            rules_for(tournament).hand_for_hand_round,
        )
        clock = Tournament.objects.values_list("status", "level_ends_at", "paused_remaining_ms").get(
            pk=tournament.pk
        )
        with pytest.raises(DomainError) as error:
            call()
        assert (error.value.code, error.value.rule) == (code, "SER-3")
        assert (
            AuditRecord.objects.count(),
            HandReport.objects.count(),
            rules_for(tournament).hand_for_hand_round,
        ) == before
        assert (
            Tournament.objects.values_list("status", "level_ends_at", "paused_remaining_ms").get(
                pk=tournament.pk
            )
            == clock
        )

    # A second 'hand done' from the same table.
    refused(
        lambda: hand_for_hand_table_done(actor=floor, tournament=tournament, table_id=first, now=T0 + 11 * S),
        "hand_already_reported",
    )
    # The next hand before every table is done.
    refused(
        lambda: hand_for_hand_next_hand(actor=floor, tournament=tournament, now=T0 + 12 * S),
        "tables_still_playing",
    )
    refused(
        lambda: hand_for_hand_start(actor=floor, tournament=tournament, now=T0 + 12 * S),
        "already_hand_for_hand",
    )

    # Outside hand for hand, none of its actions does anything.
    hand_for_hand_stop(actor=floor, tournament=tournament, now=T0 + 13 * S)
    refused(
        lambda: hand_for_hand_table_done(
            actor=floor, tournament=tournament, table_id=second, now=T0 + 14 * S
        ),
        "not_hand_for_hand",
    )
    refused(
        lambda: hand_for_hand_next_hand(actor=floor, tournament=tournament, now=T0 + 14 * S),
        "not_hand_for_hand",
    )
    refused(
        lambda: hand_for_hand_stop(actor=floor, tournament=tournament, now=T0 + 14 * S), "not_hand_for_hand"
    )


def test_floor_calls_it_on_and_off_audited_and_off_resumes_the_clock__SER_3(floor, near_bubble):
    tournament = near_bubble
    hand_for_hand_stop(actor=floor, tournament=tournament, now=T0 + 5 * S)
    assert (
        AuditRecord.objects.filter(action="tournament.hand_for_hand_off").get().note
        == "Called off by the floor."
    )
    hand_for_hand_start(actor=floor, tournament=tournament, now=T0 + 6 * S)
    record = AuditRecord.objects.filter(action="tournament.hand_for_hand_on").latest("pk")
    assert (record.actor.username, record.note, record.after["hand_for_hand_round"]) == (
        "floor1",
        "Called by the floor.",
        2,
    )
    for n, table in enumerate(tables(tournament), start=1):
        hand_for_hand_table_done(actor=floor, tournament=tournament, table_id=table, now=T0 + (300 + n) * S)
    tournament.refresh_from_db()
    assert (tournament.status, tournament.paused_remaining_ms) == ("paused", 298_000)
    hand_for_hand_stop(actor=floor, tournament=tournament, now=T0 + 400 * S)
    tournament.refresh_from_db()
    assert (tournament.status, tournament.level_ends_at) == ("running", T0 + 698 * S)


def test_second_bust_out_at_one_table_in_a_round_refused__SER_3(floor, register, make_tournament):
    """A table plays one hand a round: its players out in it come in one bust-out."""
    tournament = make_tournament(late_registration_level=0, table_size=3)
    for _ in range(10):
        register(tournament)
    tournament_start(actor=floor, tournament=tournament, now=T0, rng=random.Random(5))
    payout_table_set(actor=floor, tournament=tournament, percentages=[4_000, 3_000, 2_000, 1_000], now=T0)
    for n in range(1, 6):
        entry = tournament.entries.filter(status="active").order_by("pk").first()
        entry_bust(actor=floor, tournament=tournament, busted=[(entry.pk, None)], now=T0 + n * S)
    assert rules_for(tournament).hand_for_hand_round == 1  # 5 left, 4 paid
    seated = tables(tournament)
    three = next(pks for pks in seated.values() if len(pks) == 3)
    entry_bust(actor=floor, tournament=tournament, busted=[(three[0], 4_000)], now=T0 + 10 * S)
    before = (AuditRecord.objects.count(), rules_for(tournament).bust_sequence)
    with pytest.raises(DomainError) as error:
        entry_bust(actor=floor, tournament=tournament, busted=[(three[1], 4_000)], now=T0 + 11 * S)
    assert (error.value.code, error.value.rule) == ("table_already_busted_this_hand", "SER-3")
    assert (AuditRecord.objects.count(), rules_for(tournament).bust_sequence) == before
    assert tournament.entries.get(pk=three[1]).status == "active"


def test_floor_pages_and_tv_show_hand_for_hand__SER_3(client, floor, near_bubble):
    tournament = near_bubble
    first, second = tables(tournament)
    numbers = dict(tournament.tables.values_list("pk", "number"))
    client.force_login(floor)
    page = client.get(f"/tournaments/{tournament.pk}/").content.decode()
    assert 'data-hand-for-hand="on"' in page
    assert f"Table {numbers[first]}: hand done</button>" in page
    response = client.post(
        f"/tournaments/{tournament.pk}/hand-for-hand/tables/{first}/done/", {"back": "seating"}
    )
    assert response.status_code == 302 and response.url == f"/tournaments/{tournament.pk}/seating/"
    assert list(HandReport.objects.values_list("table_id", "round")) == [(first, 1)]
    seating = client.get(f"/tournaments/{tournament.pk}/seating/").content.decode()
    # The table that reported shows its button greyed with the reason; the next hand waits.
    assert f"Table {numbers[first]} has reported this hand done already" in seating
    assert f"Tables still playing this hand: {numbers[second]}." in seating
    shown = tv_state_get(tournament=tournament)["hand_for_hand"]
    assert shown == {
        "text": "Hand for hand",
        "round": 1,
        "waiting": [numbers[second]],
        "detail": f"Hand 1 · still playing: table {numbers[second]}",
    }


def test_big_blind_ante_calculator_shows_what_a_short_big_blind_posts__SER_5(client, floor):
    client.force_login(floor)
    page = client.get(
        "/cashgame/calculators/",
        {"calc": "bba", "stack": "600", "big_blind": "400", "ante": "400", "players_dealt": "3"},
    ).content.decode()
    assert "Big blind ante: the big blind posts it, before the big blind." in page
    assert "First to the ante: <strong>400</strong>" in page
    assert "Then to the big blind: <strong>200</strong> (200 short of the big blind)" in page
    assert "He is all in." in page
