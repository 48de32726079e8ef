"""The seating chart drawn as tables (TRN-9): a seat's panel, the bust-out in two taps with chips
asked only when two or more are out in one hand (TRN-10), the eliminator on the same panel
(TRN-6), the button at seat N, the moves with their reasons, confirmed all at once."""

import random

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from cardroom.models import AuditRecord
from cardroom.venues import venue_cache_clear
from tests.tournaments.factories import T0, seat_players
from tournaments.models import Entry, MoveSlip, Table
from tournaments.selectors.floor import seat_position
from tournaments.services.payouts import entry_bust
from tournaments.services.registration import tournament_start

pytestmark = pytest.mark.django_db


def started(floor, make_tournament, players: int, **kwargs):
    kwargs.setdefault("late_registration_level", 0)
    tournament = make_tournament(min_players=2, **kwargs)
    entries = seat_players(tournament, players)
    tournament_start(actor=floor, tournament=tournament, now=T0, rng=random.Random(1))
    return tournament, [Entry.objects.get(pk=entry.pk) for entry in entries]


def test_seat_positions_go_round_the_oval_clockwise_from_the_dealer():
    assert seat_position(1, 9)[1] < 50 and seat_position(1, 9)[0] > 50  # top right of the dealer
    assert seat_position(5, 9) == (50.0, 91.0)  # bottom middle, across from the dealer
    assert seat_position(9, 9)[0] < 50  # top left, the dealer's right


def test_seating_chart_draws_tables_with_seats(client, floor, make_tournament):
    tournament, entries = started(floor, make_tournament, 12)
    entries[0].player.nickname = "Ace"
    entries[0].player.save()
    client.force_login(floor)
    page = client.get(f"/tournaments/{tournament.pk}/seating/").content.decode()
    assert page.count('class="floor-table"') == 2
    assert page.count('class="seat taken') == 12
    assert page.count('class="seat empty"') == 6
    assert ">Ace<" in page
    assert "HND-2" not in page and "Record the card draw" in page


def panel(client, tournament, entry, **params):
    query = {"seat": entry.pk, **params}
    return client.get(
        f"/tournaments/{tournament.pk}/seating/", query, HTTP_HX_REQUEST="true"
    ).content.decode()


def test_seat_tap_opens_panel_and_bust_tap_busts_alone_without_chips__TRN_10(client, floor, make_tournament):
    tournament, entries = started(floor, make_tournament, 12)
    target = entries[3]
    client.force_login(floor)
    html = panel(client, tournament, target)  # tap 1: the seat
    assert html.startswith('<aside id="seat-panel"') and "floor-table" not in html
    assert f'name="entry" value="{target.pk}"' in html and "stack_" not in html
    assert f"Table {target.table.number}, seat {target.seat}" in html
    response = client.post(f"/tournaments/{tournament.pk}/seating/bust/", {"entry": [target.pk]})  # tap 2
    assert response["Location"] == f"/tournaments/{tournament.pk}/seating/"
    target.refresh_from_db()
    assert (target.status, target.finish_place, target.bust_stack_chips) == ("busted", 12, None)
    record = AuditRecord.objects.get(action="entry.bust")
    assert record.after == {"bust_number": 1, "entries": [[target.number, None, 12]]}


def test_two_out_in_one_hand_need_chips_and_bigger_stack_finishes_higher__TRN_10(
    client, floor, make_tournament
):
    tournament, entries = started(floor, make_tournament, 12)
    first, second = entries[0], entries[1]
    client.force_login(floor)
    html = panel(client, tournament, first, more=1)
    assert f'name="hand" value="{first.pk}"' in html and "stack_" not in html
    html = panel(client, tournament, second, hand=first.pk)
    assert f'name="stack_{first.pk}"' in html and f'name="stack_{second.pk}"' in html
    url = f"/tournaments/{tournament.pk}/seating/bust/"
    response = client.post(url, {"entry": [first.pk, second.pk], f"stack_{first.pk}": "3,000"}, follow=True)
    assert "Two or more players are out in this hand" in response.content.decode()
    assert Entry.objects.filter(status="busted").count() == 0
    assert not AuditRecord.objects.filter(action="entry.bust").exists()
    stacks = {f"stack_{first.pk}": "3,000", f"stack_{second.pk}": "9000"}
    client.post(url, {"entry": [first.pk, second.pk], **stacks})
    assert list(
        Entry.objects.filter(status="busted").order_by("finish_place").values_list("pk", "finish_place")
    ) == [
        (second.pk, 11),
        (first.pk, 12),
    ]


def test_second_tap_on_a_player_takes_him_out_of_the_hand(client, floor, make_tournament):
    tournament, entries = started(floor, make_tournament, 12)
    client.force_login(floor)
    html = panel(client, tournament, entries[1], hand=[entries[0].pk, entries[1].pk])
    assert f'name="entry" value="{entries[0].pk}"' in html
    assert f'name="entry" value="{entries[1].pk}"' not in html


def test_bounty_eliminator_is_one_tap_on_the_same_panel__TRN_6(
    client, floor, shift, register, make_tournament
):
    tournament = make_tournament(min_players=2, late_registration_level=0, bounty_cents=2_500)
    entries = [register(tournament) for _ in range(4)]
    tournament_start(actor=floor, tournament=tournament, now=T0, rng=random.Random(11))
    out = Entry.objects.get(pk=entries[0].pk)
    winner = (
        Entry.objects.filter(table=out.table, status="active").exclude(pk=out.pk).order_by("seat").first()
    )
    client.force_login(floor)
    html = panel(client, tournament, out)
    assert f'name="by_{out.pk}" value="{winner.number}"' in html
    url = f"/tournaments/{tournament.pk}/seating/bust/"
    refused = client.post(url, {"entry": [out.pk]}, follow=True).content.decode()
    assert Entry.objects.get(pk=out.pk).status == "active" and "error" in refused
    client.post(url, {"entry": [out.pk], f"by_{out.pk}": str(winner.number)})
    award = tournament.bounty_awards.get()
    assert (award.busted_entry_id, award.entry_id, award.amount_cents) == (out.pk, winner.pk, 2_500)


def test_button_at_seat_n_is_set_and_audited_and_an_empty_seat_refused__TRN_9(client, floor, make_tournament):
    tournament, entries = started(floor, make_tournament, 12)
    table = entries[0].table
    taken = sorted(Entry.objects.filter(table=table).values_list("seat", flat=True))
    empty = next(seat for seat in range(1, 10) if seat not in taken)
    client.force_login(floor)
    url = f"/tournaments/{tournament.pk}/tables/{table.pk}/button/"
    client.post(url, {"seat": str(empty)})
    assert Table.objects.get(pk=table.pk).button_seat is None
    assert not AuditRecord.objects.filter(action="seating.button_set").exists()
    client.post(url, {"seat": str(taken[2])})
    assert Table.objects.get(pk=table.pk).button_seat == taken[2]
    record = AuditRecord.objects.get(action="seating.button_set")
    assert (record.before, record.after) == ({"button_seat": None}, {"button_seat": taken[2]})
    page = client.get(f"/tournaments/{tournament.pk}/seating/").content.decode()
    assert page.count('class="dealer-button"') == 1


def test_moves_show_their_reason_print_one_slip_each_and_confirm_all__TRN_9(client, floor, make_tournament):
    tournament, entries = started(floor, make_tournament, 12)
    table = entries[0].table
    at_table = list(Entry.objects.filter(table=table).order_by("seat"))
    entry_bust(
        actor=floor, tournament=tournament, busted=[(at_table[0].pk, 100), (at_table[1].pk, 200)], now=T0
    )
    slip = MoveSlip.objects.get()
    assert (slip.to_table, slip.from_table_players, slip.to_table_players) == (table.number, 6, 4)
    client.force_login(floor)
    page = client.get(f"/tournaments/{tournament.pk}/seating/").content.decode()
    assert f"Table {slip.from_table} has 6, table {table.number} has 4" in page
    assert page.count('<article class="move-slip">') == 1
    assert f"Table {slip.to_table}, seat {slip.to_seat}" in page
    client.post(f"/tournaments/{tournament.pk}/seating/confirm-moves/")
    slip.refresh_from_db()
    assert (slip.confirmed_at is not None, slip.confirmed_by) == (True, floor)
    record = AuditRecord.objects.get(action="seating.slips_confirmed")
    assert record.after == {"moves": [[slip.entry.number, str(slip)]]}
    again = client.post(f"/tournaments/{tournament.pk}/seating/confirm-moves/", follow=True).content.decode()
    assert "There are no moves waiting." in again
    assert AuditRecord.objects.filter(action="seating.slips_confirmed").count() == 1


def test_seating_chart_queries_do_not_grow_with_the_field(client, floor, make_tournament):
    tournament, _entries = started(floor, make_tournament, 12)
    client.force_login(floor)
    url = f"/tournaments/{tournament.pk}/seating/"
    client.get(url)  # the venue row is read once per process
    with CaptureQueriesContext(connection) as few:
        assert client.get(url).status_code == 200
    big, _more = started(floor, make_tournament, 40)
    with CaptureQueriesContext(connection) as many:
        assert client.get(f"/tournaments/{big.pk}/seating/").status_code == 200
    assert len(many) == len(few)


def test_seating_chart_query_count_is_pinned(client, floor, make_tournament, django_assert_num_queries):
    tournament, _entries = started(floor, make_tournament, 30)
    client.force_login(floor)
    venue_cache_clear()  # read again by the request, as every few seconds
    # 12, 2 for hand for hand's panel (the rules row, whether tables are drawn: SER-3), and 1
    # for the floor desk's printer (TRN-9; its failed prints are read only when there is one).
    with django_assert_num_queries(15):
        client.get(f"/tournaments/{tournament.pk}/seating/")


def test_seat_pages_are_for_the_floor__ROL_1(client, cashier, floor, make_tournament):
    tournament, entries = started(floor, make_tournament, 4)
    client.force_login(cashier)
    assert (
        client.post(f"/tournaments/{tournament.pk}/seating/bust/", {"entry": [entries[0].pk]}).status_code
        == 403
    )
    assert client.post(f"/tournaments/{tournament.pk}/seating/confirm-moves/").status_code == 403
    assert Entry.objects.filter(status="busted").count() == 0


def test_api_bust_of_one_player_needs_no_chips_two_do__TRN_10(api, floor, make_tournament):
    tournament, entries = started(floor, make_tournament, 6)
    url = f"/api/tournaments/{tournament.pk}/bust/"
    two = {"busted": [{"entry": entries[0].pk}, {"entry": entries[1].pk, "stack_chips": 900}]}
    refused = api(floor).post(url, two, format="json")
    assert (refused.status_code, refused.json()["code"], refused.json()["rule"]) == (
        400,
        "bad_stack",
        "TRN-10",
    )
    assert Entry.objects.filter(status="busted").count() == 0
    response = api(floor).post(url, {"busted": [{"entry": entries[0].pk}]}, format="json")
    assert response.status_code == 200
    assert Entry.objects.get(pk=entries[0].pk).finish_place == 6
