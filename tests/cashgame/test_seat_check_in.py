"""A phone joiner without a card takes a seat (WTL-1, WTL-2): the seat panel checks them in on the
spot, finding the registered person or registering them, and seats them in the same step; a
refusal at any step writes nothing."""

from datetime import date

import pytest

from cardroom.errors import DomainError
from cardroom.models import AuditRecord
from cashgame.models import PlayerSession, SeatState, WaitingEntry, WaitStatus
from cashgame.services.sessions import session_seat
from cashgame.services.waiting import waiting_add
from cashgame.services.waiting_check_in import waiting_check_in_seat
from cashgame.services.waiting_remote import waiting_join_remote
from players.models import Player
from tests.cashgame.conftest import at, make_table
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
LUCIA = {
    "first_name": "Lucia",
    "last_name": "Nováková",
    "date_of_birth": date(1990, 4, 12),
    "nickname": "Lucky",
}


@pytest.fixture(autouse=True)
def _no_attempts_counted():
    """The phone joins' attempt counter lives in the cache, which outlives a test's database."""
    from django.core.cache import cache

    cache.clear()
    yield
    cache.clear()


def phone_join(game, nickname="Lucky", phone="+421 905 123 456", minute=0) -> WaitingEntry:
    (entry,), _token = waiting_join_remote(
        game_ids=[game.pk], nickname=nickname, phone=phone, address="203.0.113.9", now=at(minute)
    )
    return entry


def panel_url(table, seat: int, action: str = "") -> str:
    return f"/cashgame/tables/{table.pk}/seats/{seat}/" + (f"{action}/" if action else "")


def written(entry: WaitingEntry) -> tuple:
    """What a refusal must leave as it was."""
    entry = WaitingEntry.objects.get(pk=entry.pk)
    return (
        Player.objects.count(),
        PlayerSession.objects.count(),
        AuditRecord.objects.count(),
        (entry.status, entry.player_id, entry.checked_in_at, entry.table_id, entry.seat),
    )


def new_audits(since: int) -> list[tuple[str, str]]:
    return list(AuditRecord.objects.filter(pk__gt=since).order_by("pk").values_list("action", "actor_name"))


def last_audit() -> int:
    return AuditRecord.objects.order_by("-pk").values_list("pk", flat=True).first() or 0


# --- the service: one step, all or nothing ---


def test_a_phone_joiner_found_is_checked_in_and_seated_in_one_step__WTL_1_WTL_2(floor, game12, table12):
    lucia = PlayerFactory(first_name="Lucia", last_name="Nováková", card_number="555001")
    entry = phone_join(game12)
    since = last_audit()
    session = waiting_check_in_seat(actor=floor, entry=entry, table=table12, seat=5, player=lucia, now=at(4))
    assert (session.player, session.table, session.seat, session.state, session.started_at) == (
        lucia,
        table12,
        5,
        SeatState.AWAITING_BUY_IN,
        at(4),
    )
    entry.refresh_from_db()
    assert (entry.player, entry.status, entry.table, entry.seat, entry.checked_in_at, entry.closed_at) == (
        lucia,
        WaitStatus.SEATED,
        table12,
        5,
        at(4),
        at(4),
    )
    assert new_audits(since) == [("cashgame.waiting_check_in", "floor1"), ("cashgame.session_seat", "floor1")]


def test_a_phone_joiner_registered_gets_the_next_card_and_the_seat__WTL_1_WTL_2(floor, game12, table12):
    entry = phone_join(game12)
    since = last_audit()
    session = waiting_check_in_seat(actor=floor, entry=entry, table=table12, seat=5, person=LUCIA, now=at(4))
    player = session.player
    assert (player.full_name, player.nickname, player.date_of_birth, player.card_number) == (
        "Lucia Nováková",
        "Lucky",
        date(1990, 4, 12),
        "100001",  # the room's first six-digit card
    )
    assert (session.table, session.seat, session.state) == (table12, 5, SeatState.AWAITING_BUY_IN)
    entry.refresh_from_db()
    assert (entry.player, entry.status, entry.seat, entry.checked_in_at) == (
        player,
        WaitStatus.SEATED,
        5,
        at(4),
    )
    assert new_audits(since) == [
        ("player.create", "floor1"),
        ("cashgame.waiting_check_in", "floor1"),
        ("cashgame.session_seat", "floor1"),
    ]


@pytest.mark.parametrize("found", [True, False])
def test_the_same_check_in_again_answers_with_the_seat_and_writes_nothing__WTL_1(
    floor, game12, table12, found
):
    """A double tap on the panel: the second request finds the entry seated there with this person."""
    entry = phone_join(game12)
    chosen = {"player": PlayerFactory(first_name="Lucia")} if found else {"person": LUCIA}
    first = waiting_check_in_seat(actor=floor, entry=entry, table=table12, seat=5, now=at(4), **chosen)
    before = written(entry)
    again = {"player": first.player} if found else {"person": {**LUCIA, "first_name": " lucia "}}
    second = waiting_check_in_seat(actor=floor, entry=entry, table=table12, seat=5, now=at(5), **again)
    assert second.pk == first.pk
    assert written(entry) == before
    # Another seat, or another person, is not the same request: refused as the entry is seated.
    with pytest.raises(DomainError) as error:
        waiting_check_in_seat(actor=floor, entry=entry, table=table12, seat=6, now=at(6), **again)
    name = first.player.full_name
    assert (error.value.code, error.value.message) == (
        "not_waiting",
        f"{name} is no longer waiting (seated).",
    )
    assert written(entry) == before


def _seat_taken(floor, table12, game12):
    session_seat(actor=floor, table=table12, player=PlayerFactory(), seat=5, now=at(2))
    return {"person": LUCIA}


def _duplicate_person(floor, table12, game12):
    PlayerFactory(first_name="Lucia", last_name="Nováková", date_of_birth=date(1990, 4, 12))
    return {"person": LUCIA}


def _found_plays_elsewhere(floor, table12, game12):
    lucia = PlayerFactory(first_name="Lucia", last_name="Nováková")
    session_seat(actor=floor, table=make_table(game12, 2), player=lucia, seat=3, now=at(2))
    return {"player": lucia}


def _found_on_the_list_already(floor, table12, game12):
    lucia = PlayerFactory(first_name="Lucia", last_name="Nováková")
    waiting_add(actor=floor, game=game12, player=lucia, now=at(2))
    return {"player": lucia}


def _nobody_chosen(floor, table12, game12):
    return {}


def _both_chosen(floor, table12, game12):
    return {"player": PlayerFactory(), "person": LUCIA}


@pytest.mark.parametrize(
    ("make", "code"),
    [
        (_seat_taken, "seat_taken"),
        (_duplicate_person, "duplicate_player"),
        (_found_plays_elsewhere, "already_seated"),
        (_found_on_the_list_already, "already_waiting"),
        (_nobody_chosen, "person_required"),
        (_both_chosen, "person_required"),
    ],
)
def test_a_refused_check_in_at_the_seat_writes_nothing__WTL_1(floor, game12, table12, make, code):
    entry = phone_join(game12)
    chosen = make(floor, table12, game12)
    before = written(entry)
    with pytest.raises(DomainError) as error:
        waiting_check_in_seat(actor=floor, entry=entry, table=table12, seat=5, now=at(4), **chosen)
    assert error.value.code == code
    assert written(entry) == before  # no new player, no session, no audit; the entry still waits


def test_a_cashier_may_not_check_in_and_seat__ROL_1(cashier, game12, table12):
    entry = phone_join(game12)
    before = written(entry)
    with pytest.raises(DomainError) as error:
        waiting_check_in_seat(actor=cashier, entry=entry, table=table12, seat=5, person=LUCIA)
    assert (error.value.code, error.value.rule) == ("role_required", "ROL-1")
    assert written(entry) == before


# --- the panel: the check-in is its main action, never a button then refused ---


def test_the_panel_checks_in_a_phone_joiner_instead_of_a_seat_button_refused__WTL_1_WTL_2(
    client, floor, game12, table12
):
    entry = phone_join(game12)
    client.force_login(floor)
    html = client.get(panel_url(table12, 5), **HTMX).content.decode()
    assert 'data-action="seat-next"' not in html  # the service would refuse it: no card yet
    assert "Check in Lucky" in html
    assert "Lucky joined from a phone without a player card. Find the person or register them" in html
    assert 'name="nickname" value="Lucky"' in html  # the new player's form starts from the nickname
    assert 'href="tel:+421905123456"' in html
    assert written(entry)[1] == 0


def test_the_panel_finds_the_person_and_one_tap_seats_them__WTL_1_WTL_2(client, floor, game12, table12):
    lucia = PlayerFactory(first_name="Lucia", last_name="Nováková", card_number="555001")
    seated = PlayerFactory(first_name="Lucia", last_name="Novotná", card_number="555002")
    session_seat(actor=floor, table=make_table(game12, 2), player=seated, seat=3, now=at(1))
    entry = phone_join(game12)
    client.force_login(floor)
    found = client.get(panel_url(table12, 5), {"entry": entry.pk, "q": "lucia nov"}, **HTMX).content.decode()
    assert f'name="player" value="{lucia.pk}"' in found and "card 555001" in found
    # Lucia Novotná plays at table 2: shown, but not a button to tap, and why.
    assert f'name="player" value="{seated.pk}"' not in found
    assert "Plays at Table 2, seat 3: a player has one seat at a time." in found
    since = last_audit()
    response = client.post(panel_url(table12, 5, "check-in"), {"entry": entry.pk, "player": lucia.pk}, **HTMX)
    html = response.content.decode()
    assert response["HX-Trigger"] == "room-changed"
    assert "Lucia Nováková takes seat 5 at Table 1 and buys in at the cage." in html
    session = PlayerSession.objects.get(table=table12, seat=5, ended_at__isnull=True)
    assert (session.player, session.state) == (lucia, SeatState.AWAITING_BUY_IN)
    entry.refresh_from_db()
    assert (entry.player, entry.status, entry.seat) == (lucia, WaitStatus.SEATED, 5)
    assert [action for action, _actor in new_audits(since)] == [
        "cashgame.waiting_check_in",
        "cashgame.session_seat",
    ]


def test_the_panel_registers_a_new_player_and_seats_them__WTL_1_WTL_2(client, floor, game12, table12):
    entry = phone_join(game12)
    client.force_login(floor)
    form = {
        "entry": entry.pk,
        "first_name": " Lucia ",
        "last_name": "Nováková",
        "date_of_birth": "1990-04-12",
    }
    form |= {"nickname": "Lucky", "id_document_type": "", "id_document_number": ""}
    html = client.post(panel_url(table12, 5, "check-in"), form, **HTMX).content.decode()
    assert (
        "New player card 100001 for Lucia Nováková, who takes seat 5 at Table 1 and buys in at the cage."
        in html
    )
    player = Player.objects.get(card_number="100001")
    assert (player.first_name, player.last_name, player.nickname, player.date_of_birth) == (
        "Lucia",
        "Nováková",
        "Lucky",
        date(1990, 4, 12),
    )
    session = PlayerSession.objects.get(table=table12, seat=5, ended_at__isnull=True)
    assert session.player == player
    assert WaitingEntry.objects.get(pk=entry.pk).status == WaitStatus.SEATED


def test_the_new_players_form_names_the_missing_field_and_writes_nothing__WTL_1(
    client, floor, game12, table12
):
    entry = phone_join(game12)
    before = written(entry)
    client.force_login(floor)
    form = {"entry": entry.pk, "first_name": "Lucia", "last_name": "Nováková", "date_of_birth": ""}
    html = client.post(panel_url(table12, 5, "check-in"), form, **HTMX).content.decode()
    assert "Check the new player&#x27;s details marked below." in html
    assert '<div class="field has-error">\n  <label for="check-in-date_of_birth">' in html
    assert 'id="check-in-date_of_birth_error"><small>This field is required.</small>' in html
    assert 'value="Nováková"' in html  # what was typed stays
    assert written(entry) == before


def test_a_duplicate_person_is_refused_on_the_panel_and_nothing_is_written__WTL_1(
    client, floor, game12, table12
):
    existing = PlayerFactory(first_name="Lucia", last_name="Nováková", date_of_birth=date(1990, 4, 12))
    entry = phone_join(game12)
    before = written(entry)
    client.force_login(floor)
    form = {"entry": entry.pk, "first_name": "Lucia", "last_name": "Nováková", "date_of_birth": "1990-04-12"}
    html = client.post(panel_url(table12, 5, "check-in"), form, **HTMX).content.decode()
    assert f"This person looks already registered: {existing}. Open that card instead." in html
    assert written(entry) == before
