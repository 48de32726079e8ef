"""The room's high-hand promotion (LOY-2): one period of four hours around now at the 1/2 game,
with a full house claimed at table 1, so the floor's page, the TV's promotions screen and the
waiting board's line are walked showing a high hand."""

from datetime import timedelta

from cardroom.selectors import venue_zone
from cashgame.services.hands import hand_end, hand_flop, hand_start
from cashgame.services.highhand import highhand_claim_create
from cashgame.services.promotions import promotion_create


def add_high_hand(*, now, manager, floor, game, table):
    start = (now.astimezone(venue_zone()) - timedelta(hours=1)).replace(minute=0, second=0, microsecond=0)
    promotion = promotion_create(
        actor=manager,
        games=[game],
        name="Večerná promoakcia",
        starts_at=start.time(),
        ends_at=(start + timedelta(hours=4)).time(),
        period_minutes=240,
        prize_cents=25_000,
        both_hole_cards=True,
        min_hand=0,
        min_pot_cents=1_000,
        min_players=3,
        drop_cents=100,
        active=True,
        now=now - timedelta(hours=3),
    )
    hand = hand_start(
        actor=floor, table=table, seats=[1, 2, 3], button_seat=3, now=now - timedelta(minutes=4)
    )
    hand_flop(actor=floor, hand=hand, now=now - timedelta(minutes=3))
    hand_end(actor=floor, hand=hand, pot_cents=6_000, now=now - timedelta(minutes=2))
    highhand_claim_create(
        actor=floor,
        promotion=promotion,
        table=table,
        hand=hand,
        seat=2,
        hole_cards="Qh Qd",
        board="Qs Jc Jh 2d 3c",
        now=now - timedelta(minutes=2),
    )
    return promotion
