"""A queue players can trust (WTL-1, WTL-2): every change to a list in an append-only queue log,
the floor's override with its reason, "was I skipped?", and the called player's one request for
more time from his phone."""

from datetime import timedelta

import pytest
from django.core.cache import cache
from django.db import DatabaseError, transaction
from django.urls import reverse
from django.utils import timezone

from cardroom.errors import DomainError
from cardroom.models import Venue
from cardroom.venues import venue_cache_clear
from cashgame.models import QueueLogEntry, WaitingEntry
from cashgame.selectors.waiting import queue_history, waiting_status
from cashgame.services.waiting import (
    waiting_add,
    waiting_call_next,
    waiting_pass_due,
    waiting_remove,
    waiting_seat,
)
from cashgame.services.waiting_remote import waiting_join_remote, waiting_more_time
from tests.cashgame.conftest import at
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_cache():
    """The joins' attempt counter and the venue's settings live in caches a test's database
    outlives."""
    cache.clear()
    venue_cache_clear()
    yield
    cache.clear()
    venue_cache_clear()


def events(entry: WaitingEntry) -> list[tuple]:
    return [
        (row.event, row.at, row.table_id, row.seat, row.reason, row.ahead_of)
        for row in QueueLogEntry.objects.filter(entry=entry).order_by("at", "pk")
    ]


def phone_join(game, *, minute: float, phone: str = "905111222", nickname: str = "Lucky"):
    (entry,), token = waiting_join_remote(
        game_ids=[game.pk], nickname=nickname, phone=phone, address="203.0.113.9", now=at(minute)
    )
    return entry, token


def test_every_change_to_a_list_is_in_its_queue_log__WTL_2(floor, game12, table12):
    anna = waiting_add(actor=floor, game=game12, player=PlayerFactory(first_name="Anna"), now=at(0))
    boris = waiting_add(actor=floor, game=game12, player=PlayerFactory(first_name="Boris"), now=at(1))
    waiting_call_next(actor=floor, game=game12, table=table12, now=at(2))  # Anna, seat 1, until 2:03
    waiting_pass_due(entry_id=anna.pk, now=at(5))  # she did not come: to the end of the list
    # The pass calls the next, Boris, to the same seat at the hold's end (2 + 3 minutes).
    waiting_seat(actor=floor, entry=WaitingEntry.objects.get(pk=boris.pk), seat=1, now=at(6))
    waiting_remove(actor=floor, entry=anna, now=at(7))
    assert events(anna) == [
        ("join", at(0), None, None, "", []),
        ("call", at(2), table12.pk, 1, "", []),
        ("no_show", at(5), table12.pk, 1, "", []),
        ("remove", at(7), None, None, "", []),
    ]
    assert events(boris) == [
        ("join", at(1), None, None, "", []),
        ("call", at(5), table12.pk, 1, "", []),
        ("seat", at(6), table12.pk, 1, "", []),
    ]
    # Who acted: the floor, or nobody (the hold that ran out).
    actors = list(
        QueueLogEntry.objects.filter(entry=anna).order_by("at", "pk").values_list("actor", flat=True)
    )
    assert actors == [floor.pk, floor.pk, None, floor.pk]


def test_the_queue_log_cannot_be_rewritten__WTL_2(floor, game12):
    entry = waiting_add(actor=floor, game=game12, player=PlayerFactory(), now=at(0))
    row = QueueLogEntry.objects.get(entry=entry)
    for change in (lambda: QueueLogEntry.objects.filter(pk=row.pk).update(reason="x"), row.delete):
        with pytest.raises(DatabaseError), transaction.atomic():
            change()
    assert QueueLogEntry.objects.get(pk=row.pk).reason == ""


def test_seating_ahead_of_others_needs_a_reason_and_the_log_keeps_it__WTL_2(floor, game12, table12):
    anna = waiting_add(
        actor=floor, game=game12, player=PlayerFactory(first_name="Anna", last_name="Horváth"), now=at(0)
    )
    boris = waiting_add(
        actor=floor, game=game12, player=PlayerFactory(first_name="Boris", last_name="Kráľ"), now=at(1)
    )
    logged = QueueLogEntry.objects.count()
    with pytest.raises(DomainError) as refused:
        waiting_seat(actor=floor, entry=boris, seat=3, table=table12, reason="  ", now=at(2))
    assert (refused.value.code, refused.value.rule) == ("override_reason_required", "WTL-2")
    assert str(refused.value.message) == (
        "Boris Kráľ would go ahead of Anna Horváth: say why, and the list keeps the reason."
    )
    assert QueueLogEntry.objects.count() == logged
    assert WaitingEntry.objects.get(pk=boris.pk).status == "waiting"
    waiting_seat(
        actor=floor, entry=boris, seat=3, table=table12, reason="Plays   with his wife at Table 1", now=at(2)
    )
    assert events(boris)[-1] == (
        "override",
        at(2),
        table12.pk,
        3,
        "Plays with his wife at Table 1",
        [anna.pk],
    )
    # Anna asks: was I skipped? Yes, and why.
    history = queue_history(entry=anna, now=at(3))
    assert history["skipped"] is True
    assert [
        (row["entry"].pk, row["joined_at"], row["seated"].at, row["why"]) for row in history["ahead"]
    ] == [
        (boris.pk, at(1), at(2), "The floor seated this player ahead of you: Plays with his wife at Table 1")
    ]


def test_a_player_who_missed_his_call_sees_why_a_later_one_sat_first__WTL_2(floor, game12, table12):
    anna = waiting_add(actor=floor, game=game12, player=PlayerFactory(), now=at(0))
    boris = waiting_add(actor=floor, game=game12, player=PlayerFactory(), now=at(1))
    waiting_call_next(actor=floor, game=game12, table=table12, now=at(2))
    waiting_pass_due(entry_id=anna.pk, now=at(5))  # Boris is called at 2:05
    waiting_seat(actor=floor, entry=WaitingEntry.objects.get(pk=boris.pk), seat=1, now=at(6))
    history = queue_history(entry=anna, now=at(7))
    assert history["skipped"] is False
    assert [row["why"] for row in history["ahead"]] == [
        "You had moved to the end of the list after a missed call."
    ]
    # A called player passes over nobody: his turn came.
    assert queue_history(entry=boris, now=at(7))["ahead"] == []


def test_a_phone_joiner_not_checked_in_is_not_passed_over__WTL_1(floor, game12, table12):
    lucky, _token = phone_join(game12, minute=0)
    anna = waiting_add(actor=floor, game=game12, player=PlayerFactory(), now=at(1))
    waiting_seat(actor=floor, entry=anna, seat=2, table=table12, now=at(2))
    assert events(anna)[-1][0] == "seat"
    assert [row["why"] for row in queue_history(entry=lucky, now=at(3))["ahead"]] == [
        "You had not checked in at the floor yet."
    ]


def test_the_called_player_asks_once_for_five_more_minutes__WTL_2(floor, game12, table12):
    entry, token = phone_join(game12, minute=0)
    waiting_call_next(actor=floor, game=game12, table=table12, now=at(1))  # holds until 1:04
    entry.refresh_from_db()
    assert entry.hold_until == at(4)
    extended = waiting_more_time(token=token, entry_id=entry.pk, now=at(2))
    assert (extended.hold_until, extended.more_time_at) == (at(9), at(2))
    # The first timer finds the hold not over and passes nobody; the new one passes him at 1:09.
    assert waiting_pass_due(entry_id=entry.pk, now=at(4)) is False
    assert [row[0:2] for row in events(entry)] == [("join", at(0)), ("call", at(1)), ("more_time", at(2))]
    logged = QueueLogEntry.objects.count()
    with pytest.raises(DomainError) as refused:
        waiting_more_time(token=token, entry_id=entry.pk, now=at(3))
    assert (refused.value.rule, str(refused.value.message)) == (
        "WTL-2",
        "You asked for more time already. Come to the floor now.",
    )
    entry.refresh_from_db()
    assert (entry.hold_until, QueueLogEntry.objects.count()) == (at(9), logged)
    assert waiting_pass_due(entry_id=entry.pk, now=at(9)) is True


def test_more_time_only_while_called_and_where_the_room_allows_it__WTL_2(floor, game12, table12):
    entry, token = phone_join(game12, minute=0)
    with pytest.raises(DomainError) as refused:
        waiting_more_time(token=token, entry_id=entry.pk, now=at(1))
    assert str(refused.value.message) == "You can ask for more time only while your seat is held for you."
    waiting_call_next(actor=floor, game=game12, table=table12, now=at(1))
    Venue.objects.update(waiting_more_time_minutes=0)
    venue_cache_clear()
    with pytest.raises(DomainError) as refused:
        waiting_more_time(token=token, entry_id=entry.pk, now=at(2))
    assert (
        str(refused.value.message)
        == "This room does not hold seats longer on request. Come to the floor now."
    )
    # A link for another entry does not reach this one.
    _other, other_token = phone_join(game12, minute=2, phone="905333444", nickname="Bo")
    with pytest.raises(DomainError) as refused:
        waiting_more_time(token=other_token, entry_id=entry.pk, now=at(2))
    assert refused.value.code == "link_invalid"
    entry.refresh_from_db()
    assert (entry.hold_until, entry.more_time_at) == (at(4), None)


def test_the_phone_shows_the_call_and_the_button_then_why_it_is_gone__WTL_2(client, floor, game12, table12):
    # The phone's pages run on the real clock.
    now = timezone.now()
    (entry,), token = waiting_join_remote(
        game_ids=[game12.pk], nickname="Lucky", phone="905111222", address="203.0.113.9", now=now
    )
    waiting_call_next(actor=floor, game=game12, table=table12, now=now)
    (row,) = waiting_status(entry_ids=[entry.pk], now=now + timedelta(minutes=1))
    assert (row["more_time_minutes"], row["more_time_refusal"], row["hold_text"]) == (5, None, "2:00")
    url = reverse("wait:more-time", args=[token, entry.pk])
    html = client.get(reverse("wait:status", args=[token])).content.decode()
    assert f'action="{url}"' in html and "I need 5 more minutes" in html
    assert client.post(url).status_code == 302
    html = client.get(reverse("wait:status", args=[token])).content.decode()
    assert f'action="{url}"' not in html
    assert "You asked for more time already. Come to the floor now." in html
    entry.refresh_from_db()
    assert (entry.hold_until - entry.called_at, entry.more_time_at is not None) == (
        timedelta(minutes=8),
        True,
    )


def test_the_floor_reads_the_queue_log_and_the_cage_does_not__WTL_2(client, floor, cashier, game12, table12):
    anna = waiting_add(actor=floor, game=game12, player=PlayerFactory(first_name="Anna"), now=at(0))
    boris = waiting_add(actor=floor, game=game12, player=PlayerFactory(first_name="Boris"), now=at(1))
    waiting_seat(actor=floor, entry=boris, seat=3, table=table12, reason="Doctor's order", now=at(2))
    url = reverse("cashgame:waiting-history", args=[anna.pk])
    client.force_login(cashier)
    assert client.get(url).status_code == 403
    client.force_login(floor)
    html = client.get(url).content.decode()
    assert "The floor seated someone ahead of this player; the reason is below." in html
    assert "The floor seated this player ahead of you: Doctor&#x27;s order" in html
