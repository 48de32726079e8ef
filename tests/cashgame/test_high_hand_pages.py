"""LOY-2 on the pages: the manager's promotion form (English and Slovak), the floor's claim with
its refusal naming the rule, the TV's promotions screen and the waiting board's line."""

import re
from datetime import datetime, timedelta

import pytest
from django.conf import settings
from django.utils import timezone, translation

from cardroom.selectors import venue_zone
from cashgame.models import HighHandClaim, Promotion
from cashgame.services.hands import hand_end, hand_flop, hand_start
from cashgame.services.promotions import promotion_create
from players.selectors import public_names
from reports.selectors.books import books_problems
from tests.cashgame.conftest import seat_players

pytestmark = pytest.mark.django_db


def _hours_around_now() -> tuple:
    """A window of one 4-hour period holding the real now (the pages read the clock)."""
    local = timezone.now().astimezone(venue_zone())
    start = (local - timedelta(hours=1)).replace(minute=0, second=0, microsecond=0)
    return start.time(), (start + timedelta(hours=4)).time()


@pytest.fixture
def running(manager, game12):
    starts, ends = _hours_around_now()
    return promotion_create(
        actor=manager,
        games=[game12],
        name="All-day high hand",
        starts_at=starts,
        ends_at=ends,
        period_minutes=240,
        prize_cents=25_000,
        both_hole_cards=True,
        min_hand=0,
        min_pot_cents=1_000,
        min_players=4,
        drop_cents=100,
        active=True,
    )


@pytest.fixture
def four(cashier, floor, shift, table12):
    return seat_players(cashier=cashier, floor=floor, shift=shift, table=table12, count=4, amount=30_000)


def _hand(floor, table):
    hand = hand_start(actor=floor, table=table, seats=[1, 2, 3, 4])
    hand_flop(actor=floor, hand=hand)
    return hand_end(actor=floor, hand=hand, pot_cents=22_000)


def test_a_manager_creates_and_edits_a_promotion_in_slovak__LOY_2(client, manager, game12):
    client.force_login(manager)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "sk"
    try:
        html = client.get("/cashgame/promotions/new/").content.decode()
        assert "Nová promoakcia o najvyššiu kombináciu" in html and "Musia hrať obe karty v ruke" in html
        form = {
            "name": "Nočný high hand",
            "games": [game12.pk],
            "starts_at": "20:00",
            "ends_at": "02:00",
            "period_minutes": "60",
            "both_hole_cards": "on",
            "min_hand": "0",
            "min_players": "4",
            "active": "on",
            "prize": "200,50",
            "min_pot": "20",
            "drop": "1",
        }
        assert client.post("/cashgame/promotions/new/", form).status_code == 302
        promotion = Promotion.objects.get()
        assert (promotion.prize_cents, promotion.min_pot_cents, promotion.drop_cents) == (20_050, 2_000, 100)
        assert str(promotion.ends_at) == "02:00:00"
        listing = client.get("/cashgame/promotions/").content.decode()
        assert "Nočný high hand" in listing and "200,50" in listing
        form["prize"] = "300"
        assert client.post(f"/cashgame/promotions/{promotion.pk}/", form).status_code == 302
        promotion.refresh_from_db()
        assert promotion.prize_cents == 30_000
        refused = client.post(f"/cashgame/promotions/{promotion.pk}/", {**form, "games": []})
        assert refused.status_code == 200 and "Toto pole je povinné." in refused.content.decode()
    finally:
        translation.activate(settings.LANGUAGE_CODE)


def test_the_floor_claims_and_the_tv_and_board_show_the_high_hand__LOY_2(
    client, floor, table12, four, running
):
    _hand(floor, table12)
    client.force_login(floor)
    page = client.get(f"/cashgame/high-hand/?table={table12.pk}").content.decode()
    assert "Claim a high hand" in page and "No high hand yet in this period." in page
    answer = client.post(
        "/cashgame/high-hand/",
        {
            "promotion": running.pk,
            "table": table12.pk,
            "seat": "2",
            "hole_cards": "qh qd",
            "board": "Qs Jc Jh 2d 3c",
        },
        follow=True,
    )
    assert "Full house is the period&#x27;s high hand." in answer.content.decode()
    claim = HighHandClaim.objects.get()
    assert (claim.seat, claim.hole_cards, claim.best_five.count("Q")) == (2, "QhQd", 3)
    name = public_names([four[1].player])[four[1].player_id]
    tv = client.get("/tv/promotions/rows/").content.decode()
    assert name in tv and "Full house" in tv and "Table 1, seat 2" in tv and "250.00" in tv
    assert '<span class="pcard red"><b>Q</b><i>♥</i></span>' in tv
    # Hours of the 4-hour period left: 2:10:04, not 130:04 (the same as countdown.js counts on).
    seconds, text = re.search(r'data-countdown="(\d+)">([\d:]+)</time>', tv).groups()
    hours, rest = divmod(int(seconds), 3600)
    assert int(seconds) > 3600 and text == f"{hours}:{rest // 60:02d}:{rest % 60:02d}"
    board = client.get("/board/rows/").content.decode()
    assert "High hand · All-day high hand" in board and name in board
    assert books_problems() == []


def test_a_refused_claim_shows_the_reason_and_the_rule_and_writes_nothing__LOY_2(
    client, floor, table12, four, running
):
    _hand(floor, table12)
    client.force_login(floor)
    answer = client.post(
        "/cashgame/high-hand/",
        {
            "promotion": running.pk,
            "table": table12.pk,
            "seat": "1",
            "hole_cards": "Ah 4s",
            "board": "Qs Qh Qd Qc 9s",
        },
    )
    html = answer.content.decode()
    assert answer.status_code == 200
    assert "The hand does not qualify: both hole cards must play" in html
    assert 'href="/rules/#LOY-2"' in html
    assert HighHandClaim.objects.count() == 0


def test_the_tv_screen_in_slovak_with_no_period_running__LOY_2(client, manager, game12):
    now = datetime.now(tz=venue_zone())
    starts = (now + timedelta(hours=2)).replace(minute=0, second=0, microsecond=0)
    promotion_create(
        actor=manager,
        games=[game12],
        name="Later",
        starts_at=starts.time(),
        ends_at=(starts + timedelta(hours=1)).time(),
        period_minutes=60,
        prize_cents=10_000,
        both_hole_cards=True,
        min_hand=0,
        min_pot_cents=0,
        min_players=2,
        drop_cents=0,
        active=True,
    )
    try:
        html = client.get("/tv/promotions/?lang=sk").content.decode()
        assert "Práve nebeží žiadne obdobie promoakcie o najvyššiu kombináciu." in html
        assert 'hx-trigger="every 5s"' in html
    finally:
        translation.activate(settings.LANGUAGE_CODE)
