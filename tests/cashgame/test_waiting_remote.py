"""Players join waiting lists from their phones (WTL-1): the join and its refusals, the signed
status link, the estimated wait, leaving, and the floor's check-in."""

import pytest
from django.core.cache import cache
from django.urls import reverse
from django.utils import timezone

from cardroom.errors import DomainError
from cardroom.models import AuditRecord, Venue
from cardroom.venues import venue_cache_clear
from cashgame.models import WaitingEntry
from cashgame.selectors.waiting import waiting_status
from cashgame.services.sessions import session_release, session_seat
from cashgame.services.waiting import waiting_seat
from cashgame.services.waiting_check_in import waiting_check_in
from cashgame.services.waiting_remote import (
    address_key,
    status_entry_ids,
    status_token,
    waiting_join_remote,
    waiting_leave,
)
from tests.cashgame.conftest import at, make_game
from tests.factories import PlayerFactory
from tests.pages.walker import text_nodes

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _no_attempts_counted():
    """The joins' attempt counter lives in the cache, which outlives a test's database."""
    cache.clear()
    yield
    cache.clear()


ADDRESS = "203.0.113.7"


def join(games, nickname="Ace", phone="+421 905 123 456", card="", address=ADDRESS, minute=0):
    return waiting_join_remote(
        game_ids=[game.pk for game in games],
        nickname=nickname,
        phone=phone,
        card_number=card,
        address=address,
        now=at(minute),
    )


def written() -> tuple[int, int]:
    return WaitingEntry.objects.count(), AuditRecord.objects.count()


def refused(code: str, status: int, **kwargs):
    before = written()
    with pytest.raises(DomainError) as error:
        join(**kwargs)
    assert (error.value.code, error.value.status_code) == (code, status)
    assert written() == before
    return error.value


def test_a_phone_join_puts_a_nickname_on_each_list_chosen__WTL_1(game12, game25):
    entries, token = join([game12, game25])
    rows = [(e.game_id, e.player, e.nickname, e.phone, e.source, e.added_by, e.added_at) for e in entries]
    assert rows == [
        (game12.pk, None, "Ace", "+421905123456", "remote", None, at(0)),
        (game25.pk, None, "Ace", "+421905123456", "remote", None, at(0)),
    ]
    assert entries[0].join_address == address_key(ADDRESS) != ADDRESS
    assert status_entry_ids(token, now=at(1)) == sorted(e.pk for e in entries)
    assert AuditRecord.objects.filter(action="cashgame.waiting_join_remote").count() == 2


def test_a_card_join_is_the_known_players__WTL_1(game12):
    player = PlayerFactory(card_number="777123")
    (entry,), _token = join([game12], phone="", card="777123")
    assert (entry.player, entry.nickname, entry.phone) == (player, "Ace", "")


@pytest.mark.parametrize(
    ("kwargs", "code", "status"),
    [
        ({"nickname": "  "}, "nickname_required", 400),
        ({"nickname": "x" * 31}, "invalid_nickname", 400),
        ({"phone": "", "card": ""}, "contact_required", 400),
        ({"phone": "call me"}, "invalid_phone", 400),
        ({"phone": "", "card": "000000"}, "unknown_card", 400),
    ],
)
def test_bad_input_is_refused_and_writes_nothing__WTL_1(game12, kwargs, code, status):
    refused(code, status, games=[game12], **kwargs)


def test_a_game_that_does_not_exist_or_is_not_offered_is_refused__WTL_1(game12):
    retired = make_game(name="Retired", active=False)
    refused("unknown_game", 404, games=[game12, retired])
    ghost = make_game(name="Ghost")
    ghost_pk = ghost.pk
    ghost.delete()
    before = written()
    with pytest.raises(DomainError) as error:
        waiting_join_remote(game_ids=[ghost_pk], nickname="A", phone="905111222", address=ADDRESS, now=at(0))
    assert (error.value.code, written()) == ("unknown_game", before)


def test_a_flood_from_one_address_is_refused__WTL_1(game12, game25):
    Venue.objects.update(remote_joins_per_hour=3)
    venue_cache_clear()
    join([game12, game25], phone="905000001")
    join([game12], phone="905000002", minute=10)
    refused("too_many_joins", 429, games=[game25], phone="905000003", minute=20)
    # Another address is not held back, and an hour later this one may join again.
    join([game25], phone="905000004", address="198.51.100.1", minute=20)
    join([game25], phone="905000005", minute=61)
    assert WaitingEntry.objects.count() == 5


def test_the_venue_switch_stops_remote_joins__WTL_1(game12):
    Venue.objects.update(remote_join_enabled=False)
    venue_cache_clear()
    refused("remote_join_off", 403, games=[game12])


def test_a_second_join_with_the_same_phone_on_the_same_list_is_refused__WTL_1(game12, game25):
    join([game12], phone="0905 123 456")
    refused("already_waiting", 409, games=[game25, game12], phone="0905123456", nickname="Other")
    # The same phone on another list is fine.
    (entry,), _token = join([game25], phone="0905123456", minute=1)
    assert entry.game == game25


def test_a_forged_or_expired_status_link_is_refused__WTL_1(game12):
    entries, token = join([game12])
    assert status_entry_ids(token, now=at(24 * 60)) == [entries[0].pk]
    with pytest.raises(DomainError) as error:
        status_entry_ids(token, now=at(24 * 60 + 1))
    assert (error.value.code, error.value.status_code) == ("link_expired", 410)
    forged = status_token([entries[0].pk + 1], now=at(0))[:-3] + "abc"
    for bad in (forged, "not-a-token", token.replace(":", ";")):
        with pytest.raises(DomainError) as error:
            status_entry_ids(bad, now=at(1))
        assert error.value.code == "link_invalid"


def test_he_leaves_a_list_himself_and_only_his_own__WTL_1(game12):
    (mine,), token = join([game12])
    (theirs,), _other = join([game12], phone="905999888", nickname="Bo", minute=1)
    before = written()
    with pytest.raises(DomainError):
        waiting_leave(token=token, entry_id=theirs.pk, now=at(2))
    assert written() == before
    entry = waiting_leave(token=token, entry_id=mine.pk, now=at(2))
    assert (entry.status, entry.closed_at) == ("removed", at(2))
    with pytest.raises(DomainError) as error:
        waiting_leave(token=token, entry_id=mine.pk, now=at(3))
    assert error.value.code == "not_waiting"


def test_position_and_estimated_wait_from_the_seats_opened_lately__WTL_1(floor, game12, table12):
    # Seats opened at minutes 0, 10, 20 and 40 (and one 3 hours before, outside the window):
    # 3 gaps in the 45 minutes from the first opening to now, one seat every 15 minutes.
    for minute in (-180, 0, 10, 20, 40):
        session = session_seat(actor=floor, table=table12, player=PlayerFactory(), seat=1, now=at(minute - 1))
        session_release(actor=floor, session=session, now=at(minute))
    join([game12], phone="905000001", minute=41)
    (entry,), _token = join([game12], phone="905000002", minute=42)
    (row,) = waiting_status(entry_ids=[entry.pk], now=at(45))
    assert (row["position"], row["waiting"], row["running"]) == (2, 2, True)
    # Second in line: about 29 minutes; three gaps say little about the rate, so the range
    # is wide (poker.waitlist): 5 to 155 minutes.
    assert (row["wait"].low_minutes, row["wait"].high_minutes, row["wait"].middle_seconds) == (5, 155, 1732)


def test_phone_join_is_checked_in_with_his_card_before_he_sits__WTL_1(floor, game12, table12):
    (entry,), _token = join([game12])
    before = written()
    with pytest.raises(DomainError) as error:
        waiting_seat(actor=floor, entry=entry, seat=3, table=table12, now=at(1))
    assert (error.value.code, error.value.rule, written()) == ("check_in_first", "WTL-1", before)
    with pytest.raises(DomainError) as error:
        waiting_check_in(actor=floor, entry=entry, now=at(2))
    assert error.value.code == "card_required"
    player = PlayerFactory(card_number="555001")
    entry = waiting_check_in(actor=floor, entry=entry, card_number="555001", now=at(3))
    assert (entry.player, entry.checked_in_at) == (player, at(3))
    session = waiting_seat(actor=floor, entry=entry, seat=3, table=table12, now=at(4))
    assert (session.player, session.seat) == (player, 3)


def test_join_page_to_status_page_without_log_in__WTL_1(client, game12, table12):
    page = client.get(reverse("wait:join"))
    assert page.status_code == 200 and b"NLHE 1/2" in page.content
    response = client.post(
        reverse("wait:join"),
        {"game": [game12.pk], "nickname": "Ace", "phone": "905123456"},
        REMOTE_ADDR=ADDRESS,
    )
    assert response.status_code == 302
    status = client.get(response["Location"])
    assert b"Number 1 of 1 waiting" in status.content
    assert b"905123456" not in status.content


def test_join_page_refusals_are_shown_with_their_status__WTL_1(client, game12):
    before = written()
    ghost = client.post(reverse("wait:join"), {"game": ["999999"], "nickname": "A", "phone": "905123456"})
    text = client.post(reverse("wait:join"), {"game": ["x"], "nickname": "A", "phone": "905123456"})
    forged = client.get(reverse("wait:status", args=["abc:def"]))
    assert (ghost.status_code, text.status_code, forged.status_code) == (404, 404, 400)
    page = ghost.content.decode()
    assert "That game is not offered" in page
    # The rule is a link in words to its text (the players' page too), not a code in the sentence.
    assert '<a class="rule-link" href="/rules/#WTL-1">House rule: Joining a list</a>' in page
    assert [node for node in text_nodes(page) if "WTL-1" in node] == []
    assert b"This link is not valid" in forged.content
    assert written() == before


def test_trying_card_numbers_one_after_another_is_stopped__WTL_1(game12):
    Venue.objects.update(remote_joins_per_hour=2)
    venue_cache_clear()
    # Up to 3 attempts per join allowed (6 here), refused ones counted too.
    for number in range(6):
        refused("unknown_card", 400, games=[game12], phone="", card=f"90000{number}")
    PlayerFactory(card_number="900009")
    refused("too_many_joins", 429, games=[game12], phone="", card="900009")
    # The next hour's window starts afresh.
    (entry,), _token = join([game12], phone="", card="900009", minute=60)
    assert entry.player.card_number == "900009"


def test_he_leaves_from_his_page_and_it_says_so__WTL_1(client, game12):
    (entry,), _token = waiting_join_remote(
        game_ids=[game12.pk], nickname="Ace", phone="905123456", address=ADDRESS
    )
    token = status_token([entry.pk], now=timezone.now())
    response = client.post(reverse("wait:leave", args=[token, entry.pk]) + "?lang=sk")
    assert (response.status_code, response["Location"]) == (
        302,
        reverse("wait:status", args=[token]) + "?lang=sk",
    )
    entry.refresh_from_db()
    assert entry.status == "removed"
    assert "Nie ste na tejto listine." in client.get(response["Location"]).content.decode()
    again = client.post(reverse("wait:leave", args=[token, entry.pk]))
    assert (again.status_code, b"You are no longer on this list." in again.content) == (409, True)


def test_phones_behind_the_proxy_are_counted_each_on_its_own__WTL_1(client, settings, game12):
    """Every phone's request comes from the HTTPS proxy's address: counted by that address, one
    busy evening's joins would hold back every phone in the room."""
    settings.TRUSTED_PROXIES = ["127.0.0.1"]
    Venue.objects.update(remote_joins_per_hour=1)
    venue_cache_clear()

    def join_page(phone: str, device: str) -> int:
        return client.post(
            reverse("wait:join"),
            {"game": [game12.pk], "nickname": "Ace", "phone": phone},
            REMOTE_ADDR="127.0.0.1",
            HTTP_X_FORWARDED_FOR=device,
        ).status_code

    assert join_page("905000001", ADDRESS) == 302
    assert join_page("905000002", "198.51.100.1") == 302
    assert join_page("905000003", ADDRESS) == 429
    assert list(WaitingEntry.objects.order_by("pk").values_list("phone", "join_address")) == [
        ("905000001", address_key(ADDRESS)),
        ("905000002", address_key("198.51.100.1")),
    ]
