"""NOT-1: each piece of news queues exactly the notices of the players who asked for them, in
their language, once; the floor's services only send the trigger after their commit."""

import random
from datetime import timedelta

import pytest
from django.utils import timezone, translation

from cashgame.services.waiting import waiting_add, waiting_call_next
from cashier.services import shift_open
from loyalty.selectors import player_id_from_token, player_link_token
from notices.models import NoticeLog
from notices.services import (
    consent_give,
    consent_withdraw,
    notices_payout_ready,
    notices_seat_ready,
    notices_table_draw,
    notices_tournament_break,
    notices_tournament_start,
    subscription_add,
)
from tests.cashgame.conftest import make_game, make_table
from tests.factories import PlayerFactory
from tests.notices.conftest import phone_join
from tests.notices.push_service import LocalPushService
from tests.tournaments.conftest import LEVELS
from tests.tournaments.factories import TournamentFactory
from tournaments.services.clock import clock_advance_due
from tournaments.services.registration import entry_register, tournament_start

pytestmark = pytest.mark.django_db
FCM = "https://fcm.googleapis.com/fcm/send/"
KEYS = LocalPushService()


def sent(callbacks) -> list[tuple[str, dict]]:
    """The tasks the captured on-commit callbacks would send: (name, kwargs without the venue)."""
    tasks = []
    for callback in callbacks:
        signature = callback.func.__self__
        tasks.append((signature.task, {k: v for k, v in signature.kwargs.items() if k != "venue_id"}))
    return tasks


def ask(where: str, token: str, *, phone: str = "", language: str = "en", sms: str = ""):
    with translation.override(language):
        consent_give(where=where, token=token, consent=True, sms_number=sms)
        if phone:
            subscription_add(
                where=where, token=token, endpoint=FCM + phone, p256dh=KEYS.p256dh, auth=KEYS.auth
            )


def logs() -> list[tuple]:
    return list(
        NoticeLog.objects.order_by("pk").values_list("kind", "channel", "to", "language", "title", "body")
    )


def test_the_call_queues_the_seat_ready_notice_after_the_hold_timer__NOT_1_WTL_2(
    floor, member, member_token, django_capture_on_commit_callbacks
):
    game = make_game()
    table = make_table(game, 4)
    ask("me", member_token, phone="member", language="sk", sms="+421905000111")
    waiting_add(actor=floor, game=game, player=member)
    joiner, joiner_token = phone_join(game)
    ask("wait", joiner_token, phone="joiner")
    # Asked and withdrew, and never asked: told nothing.
    _quitter, quitter_token = phone_join(game, nickname="Quit", phone="+421905999888")
    ask("wait", quitter_token, phone="quitter")
    consent_withdraw(where="wait", token=quitter_token)
    waiting_add(actor=floor, game=game, player=PlayerFactory())

    now = timezone.now().replace(microsecond=0)
    with django_capture_on_commit_callbacks() as callbacks:
        entry = waiting_call_next(actor=floor, game=game, table=table, now=now)
    assert sent(callbacks) == [
        ("cashgame.waiting_pass_due", {"entry_id": entry.pk, "due": entry.hold_until.isoformat()}),
        ("notices.seat_ready", {"entry_id": entry.pk}),
    ]
    assert callbacks[1].keywords == {"eta": now}

    hold = timezone.localtime(entry.hold_until).strftime("%H:%M")
    with django_capture_on_commit_callbacks() as deliveries:
        written = notices_seat_ready(entry_id=entry.pk, now=now)
    body_sk = f"NLHE 1/2: stôl 4, miesto 1 vám držíme do {hold} (3 min). Príďte k pultu."
    assert logs() == [
        ("seat_ready", "push", FCM + "member", "sk", "Vaše miesto je pripravené", body_sk),
        ("seat_ready", "sms", "+421905000111", "sk", "Vaše miesto je pripravené", body_sk),
    ]
    assert [log.expires_at for log in written] == [entry.hold_until, entry.hold_until]
    assert sent(deliveries) == [("notices.deliver", {"log_id": log.pk}) for log in written]
    # The same call looked at again (a duplicated message) tells nobody twice.
    assert notices_seat_ready(entry_id=entry.pk, now=now) == []

    # The phone joiner, second on the list, is called to the next seat: his own phone only.
    with django_capture_on_commit_callbacks():
        second = waiting_call_next(actor=floor, game=game, table=table, now=now)
    assert second == joiner
    notices_seat_ready(entry_id=joiner.pk, now=now)
    assert logs()[2:] == [
        (
            "seat_ready",
            "push",
            FCM + "joiner",
            "en",
            "Your seat is ready",
            f"NLHE 1/2: table 4, seat 2 is held for you until {hold} (3 min). Come to the desk.",
        )
    ]
    assert NoticeLog.objects.get(to=FCM + "joiner").url == f"/wait/s/{joiner_token}/"


def test_the_tournament_tells_its_start_its_draw_its_break_and_the_prize__NOT_1(
    floor, cashier, django_capture_on_commit_callbacks
):
    shift = shift_open(actor=cashier, opening_float_cents=100_000)
    tournament = TournamentFactory(levels=LEVELS, min_players=2, late_registration_level=0, name="Friday 50")
    told, quiet = PlayerFactory(), PlayerFactory()
    entries = [
        entry_register(
            actor=cashier,
            tournament=tournament,
            player=player,
            shift=shift,
            idempotency_key=f"not1-entry-{n:04d}",
        )
        for n, player in enumerate([told, quiet])
    ]
    ask("me", player_link_token(player_id=told.pk), phone="told", language="sk")
    now = timezone.now().replace(microsecond=0)
    with django_capture_on_commit_callbacks() as callbacks:
        tournament_start(actor=floor, tournament=tournament, now=now, rng=random.Random(5))
    assert [name for name, _kwargs in sent(callbacks) if name.startswith("notices.")] == [
        "notices.table_draw",
        "notices.tournament_start",
    ]
    notices_table_draw(tournament_id=tournament.pk, now=now)
    notices_tournament_start(tournament_id=tournament.pk, now=now)
    entries[0].refresh_from_db()
    assert logs() == [
        (
            "table_draw",
            "push",
            FCM + "told",
            "sk",
            "Vaše miesto je vyžrebované",
            f"Friday 50: stôl {entries[0].table.number}, miesto {entries[0].seat}.",
        ),
        (
            "tournament_start",
            "push",
            FCM + "told",
            "sk",
            "Váš turnaj začal",
            "Friday 50 začal. Zaujmite svoje miesto.",
        ),
    ]

    # Three levels pass by the clock; the fourth is the break: its start is told, once.
    tournament.refresh_from_db()
    with django_capture_on_commit_callbacks() as callbacks:
        for _level in range(3):
            tournament.refresh_from_db()
            clock_advance_due(tournament_id=tournament.pk, now=tournament.level_ends_at)
    tournament.refresh_from_db()
    breaks = [kwargs for name, kwargs in sent(callbacks) if name == "notices.tournament_break"]
    assert breaks == [
        {"tournament_id": tournament.pk, "level": 3, "ends": tournament.level_ends_at.isoformat()}
    ]
    notices_tournament_break(**breaks[0], now=tournament.level_started_at)
    ends = timezone.localtime(tournament.level_ends_at).strftime("%H:%M")
    assert logs()[2] == (
        "tournament_break",
        "push",
        FCM + "told",
        "sk",
        "Prestávka",
        f"Friday 50 má prestávku do {ends}.",
    )

    # A prize becomes payable: told to its winner only when he asked.
    entries[0].prize_cents = 12_345
    entries[0].save(update_fields=["prize_cents"])
    notices_payout_ready(entry_id=entries[0].pk, now=now + timedelta(hours=1))
    notices_payout_ready(entry_id=entries[1].pk, now=now + timedelta(hours=1))
    assert logs()[3][:5] == ("payout_ready", "push", FCM + "told", "sk", "Vaša výplata je pripravená")
    assert logs()[3][5] == "Friday 50: 123,45 EUR je pre vás pripravených v pokladni."
    assert NoticeLog.objects.count() == 4
    # A tap opens his private page (a link signed when the notice was written: its time differs).
    urls = list(NoticeLog.objects.values_list("url", flat=True))
    assert [player_id_from_token(url.removeprefix("/room/me/").rstrip("/")) for url in urls] == [told.pk] * 4
