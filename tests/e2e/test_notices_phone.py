"""Browser journey (NOT-1 with WTL-1, WTL-2 and LOY-1) on a player's phone (390x844): he joins a
waiting list from his phone with his card, asks for notices, and closes the page. The floor
calls him: the seat-ready notice goes out as a real Web Push, to a local push service that
checks the room's VAPID token and decrypts the message. He opens his link, asks for more time,
and the floor seats him; he plays and leaves, the loyalty sweep awards his points, and they are
on his private page. The books agree at the end.

Headless Chromium has no connection to a browser vendor's push service, so its own
PushManager.subscribe() cannot finish here: the page's button is pressed and its answer (the
"could not be signed up" line) checked, and the phone's subscription is then posted to the
room's own endpoint from the page, with the local push service's keys, as notices.js does with
the browser's."""

import json
from datetime import timedelta
from unittest import mock

import pytest
from django.core.cache import cache
from django.utils import timezone

from cardroom.celery import app
from cashgame import tasks as cashgame_tasks
from cashgame.models import WaitingEntry, WaitStatus
from cashgame.services.sessions import session_buy_in, session_cash_out, session_state_change
from cashgame.services.waiting import waiting_call_next, waiting_seat
from cashier.services import shift_open
from loyalty.selectors import player_link_token
from loyalty.tasks import points_award
from notices import tasks as notices_tasks
from notices.models import NoticeConsent, NoticeLog
from reports.selectors.books import books_problems
from tests.cashgame.conftest import make_game, make_table
from tests.e2e.conftest import screenshot
from tests.factories import PlayerFactory, cage_stock
from tests.notices.push_service import LocalPushService, vapid_private_key

pytestmark = [pytest.mark.e2e, pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def push_service(settings):
    settings.VAPID_PRIVATE_KEY = vapid_private_key()
    settings.VAPID_SUBJECT = "mailto:floor@room.example"
    with LocalPushService() as service:
        settings.PUSH_ENDPOINT_ALLOW_PREFIXES = [service.origin + "/"]
        yield service


@pytest.fixture
def tasks_run_here():
    """The tasks the services send after their commits run in this process, as a worker would
    run them (no worker is started for this journey). Celery runs a task eagerly only when this
    process has loaded it (cardroom/task_queue.py): the imports below load them."""
    assert (notices_tasks.seat_ready.name, cashgame_tasks.waiting_pass_due.name) == (
        "notices.seat_ready",
        "cashgame.waiting_pass_due",
    )
    eager = app.conf.task_always_eager
    app.conf.task_always_eager = True
    yield
    app.conf.task_always_eager = eager


def narrow(page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= 390, "the page scrolls sideways"


def test_notice_reaches_the_closed_phone_then_seat_more_time_and_points__NOT_1(
    browser, live_server, floor, cashier, push_service, tasks_run_here
):
    cache.clear()  # the joins' attempt counter (WTL-1) of earlier runs from this address
    now = timezone.now()
    game = make_game()
    table = make_table(game, number=5)
    cage_stock(cashier)
    shift = shift_open(actor=cashier, opening_float_cents=100_000)
    for seat in range(1, 9):
        session = session_buy_in(
            actor=cashier,
            shift=shift,
            table=table,
            player=PlayerFactory(id_verified_at=now),
            seat=seat,
            amount_cents=15_000,
            idempotency_key=f"e2e-not1-buy-in-{seat}",
        )
        session_state_change(actor=floor, session=session, action="posted")
    player = PlayerFactory(first_name="Marek", last_name="Hudák", nickname="", id_verified_at=now)

    context = browser.new_context(
        viewport={"width": 390, "height": 844},
        locale="en-GB",
        is_mobile=True,
        has_touch=True,
        permissions=["notifications"],
    )
    context.grant_permissions(["notifications"], origin=live_server.url)
    phone = context.new_page()
    phone.set_default_timeout(30_000)
    try:
        # 1. He joins from his phone with his membership card.
        phone.goto(f"{live_server.url}/wait/")
        phone.check(f"input[name=game][value='{game.pk}']")
        phone.fill("input[name=nickname]", "Marek")
        phone.fill("input[name=card_number]", player.card_number)
        phone.click("button[type=submit].primary")
        phone.wait_for_url("**/wait/s/**")
        status_url = phone.url.split("#")[0]
        token = status_url.rstrip("/").rsplit("/", 1)[-1]
        assert "Tell me on this phone" in phone.inner_text("#notices")
        screenshot(phone, "notices-offer-390x844")
        narrow(phone)

        # 2. He asks for notices: the consent's words, no SMS number.
        phone.check("#notices input[name=consent]")
        phone.click("#notices button[type=submit]")
        phone.wait_for_selector("#notices :text('Notices are on since')")
        consent = NoticeConsent.objects.get()
        assert (consent.given_on, consent.language, consent.withdrawn_at) == ("waiting_page", "en", None)
        # He joined with his card: he consents as himself, for this list and his other news.
        assert (consent.player, list(consent.entries.values_list("player_id", flat=True))) == (
            player,
            [player.pk],
        )

        # 3. "Turn on notices on this phone": the browser's own subscription needs a vendor's
        # push service that headless Chromium cannot reach; the page says so and offers SMS.
        phone.click("[data-notices-subscribe]")
        state = "idle"
        for _poll in range(150):  # the page's CSP forbids wait_for_function's eval
            state = phone.evaluate("window.noticesState")
            if state != "idle":
                break
            phone.wait_for_timeout(100)
        assert state in ("failed", "subscribed"), state
        # The phone's subscription, posted to the room's endpoint from the page (the local push
        # service's endpoint and keys in place of the vendor's).
        answer = phone.evaluate(
            """([url, body]) => fetch(url, {method: "POST", credentials: "same-origin",
                 headers: {"Content-Type": "application/json",
                           "X-CSRFToken": document.querySelector("[data-notices-subscribe]").dataset.csrf},
                 body: body}).then(r => r.status)""",
            [f"/notices/wait/{token}/subscription/", json.dumps(push_service.subscription())],
        )
        assert answer == 201
        assert phone.evaluate("navigator.serviceWorker.getRegistration('/').then(r => Boolean(r))") is True
        screenshot(phone, "notices-on-390x844")
        narrow(phone)
        # 4. He closes the page.
        phone.close()

        # 5. The floor calls him (a seat opens at table 5): the notice goes out as Web Push.
        entry = WaitingEntry.objects.get(player=player)
        called = waiting_call_next(actor=floor, game=game, table=table)
        assert called == entry
        entry.refresh_from_db()
        (message,) = push_service.received
        hold = timezone.localtime(entry.hold_until).strftime("%H:%M")
        assert message["payload"] == {
            "title": "Your seat is ready",
            "body": f"NLHE 1/2: table 5, seat 9 is held for you until {hold} (3 min). Come to the desk.",
            "url": f"/wait/s/{token}/",
            "tag": f"seat_ready-{consent.pk}",
        }
        assert message["claims"]["aud"] == push_service.origin and push_service.refused == []
        assert NoticeLog.objects.get().status == "sent"

        # 6. He opens his link and asks for more time.
        phone = context.new_page()
        phone.set_default_timeout(30_000)
        phone.goto(status_url)
        phone.wait_for_selector("#rows .call")
        screenshot(phone, "notices-called-390x844")
        narrow(phone)
        first_hold = entry.hold_until
        phone.click("#rows button.more-time")
        phone.wait_for_selector("#rows button.more-time[disabled]")  # asked: once only
        entry.refresh_from_db()
        assert entry.hold_until == first_hold + timedelta(minutes=5)

        # 7. The floor seats him; he buys in, plays two hours and leaves.
        session = waiting_seat(actor=floor, entry=entry, seat=9)
        session = session_buy_in(
            actor=cashier,
            shift=shift,
            table=table,
            player=player,
            seat=9,
            amount_cents=20_000,
            idempotency_key="e2e-not1-buy-in-marek",
        )
        entry.refresh_from_db()
        assert entry.status == WaitStatus.SEATED
        left = session.started_at + timedelta(hours=2, minutes=3)
        session_cash_out(
            actor=cashier,
            shift=shift,
            session=session,
            amount_cents=20_000,
            idempotency_key="e2e-not1-cash-out-marek",
            now=left,
        )

        # 8. The loyalty sweep awards his two hours: 10 points an hour, the venue's default. The
        # sweep's clock is pinned just after he left (he "left" two hours from now).
        with mock.patch("loyalty.tasks.timezone.now", return_value=left + timedelta(minutes=1)):
            assert points_award() == 1
        phone.goto(f"{live_server.url}/room/me/{player_link_token(player_id=player.pk)}/")
        assert "20 points" in phone.inner_text(".entry")
        assert "Notices are on since" in phone.inner_text("#notices")  # his consent, here too
        screenshot(phone, "notices-my-points-390x844")
        narrow(phone)
        phone.goto(f"{live_server.url}/room/me/{player_link_token(player_id=player.pk)}/?lang=sk")
        assert "Upozornenia sú zapnuté od" in phone.inner_text("#notices")
        screenshot(phone, "notices-my-points-sk-390x844")
        narrow(phone)
    finally:
        context.close()
    assert books_problems() == []
