"""A player with a history in every part of the room, built through the real services, for the
tests of GDP-1 (export and erasure): registered, renamed, the ID verified, excluded and the
exclusion lifted, joined a waiting list from the phone (checked in, then off the list) and at
the desk, a cash-game session bought in and cashed out, a tournament entered, won and the prize
paid. Another player, Eva, shares the tournament and the table (still seated) so that the tests can see that
only Ján's traces go.

Times are fixed (T0 in the venue's zone); `key()` draws idempotency keys.
"""

import itertools
import random
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

from cardroom.models import AuditRecord
from cashgame.models import WaitingEntry
from cashgame.services.sessions import session_buy_in, session_cash_out
from cashgame.services.waiting import waiting_add, waiting_remove
from cashgame.services.waiting_check_in import waiting_check_in
from cashgame.services.waiting_remote import waiting_join_remote
from cashier.models import CashierTransaction, Posting
from cashier.services import shift_open
from chips.models import ChipAccountKind, ChipSet, ChipSetKind
from chips.services import chips_receive, chips_transfer
from players.models import Player, PlayerErasure
from players.services import (
    player_create,
    player_exclude,
    player_exclusion_lift,
    player_update,
    player_verify_id,
)
from tests.cashgame.conftest import make_game, make_table
from tests.tournaments.factories import TournamentFactory
from tournaments.services.payouts import entry_bust, payout_table_set, prize_pay
from tournaments.services.registration import entry_register, tournament_start
from tournaments.services.tournaments import tournament_finish

BRATISLAVA = ZoneInfo("Europe/Bratislava")
T0 = datetime(2026, 11, 10, 18, 0, tzinfo=BRATISLAVA)
_keys = itertools.count(1)

FIRST, LAST, NICK, OLD_NICK = "Ján", "Šťastný", "Kobra", "Kobrík"
BORN = date(1980, 3, 4)
DOCUMENT = "EA123456"
PHONE = "+421905123456"


def written() -> tuple:
    """What any write would add to: a refusal leaves every count and row as it was."""
    return (
        AuditRecord.objects.count(),
        PlayerErasure.objects.count(),
        Posting.objects.count(),
        CashierTransaction.objects.count(),
        list(Player.objects.order_by("pk").values()),
        list(WaitingEntry.objects.order_by("pk").values()),
    )


def stock_cage(cashier, *, now) -> None:
    """Cash-game chips into the vault and on to the cage, as a room does before its first buy-in
    (the cage hands out no chips it does not hold)."""
    cash = ChipSet.objects.filter(kind=ChipSetKind.CASH).order_by("pk").first()
    chips = {500: 400, 2500: 200, 10000: 50}
    chips_receive(actor=cashier, chip_set=cash, chips=chips, now=now)
    chips_transfer(
        actor=cashier,
        chip_set=cash,
        source=ChipAccountKind.VAULT,
        target=ChipAccountKind.CAGE,
        chips=chips,
        now=now,
    )


def key() -> str:
    return f"gdp-key-{next(_keys):06d}"


def at(minutes: float) -> datetime:
    return T0 + timedelta(minutes=minutes)


@dataclass
class History:
    player: object
    other: object
    shift: object
    game: object
    table: object
    tournament: object
    session: object
    entry: object


def build_history(*, floor, cashier, manager, prize_paid: bool = True, cashed_out: bool = True) -> History:
    player = player_create(
        actor=cashier,
        first_name=FIRST,
        last_name=LAST,
        nickname=OLD_NICK,
        date_of_birth=BORN,
        id_document_type="id_card",
        id_document_number=DOCUMENT,
        notes="Prefers table 1",
        now=at(0),
    )
    player = player_update(actor=cashier, player=player, nickname=NICK, now=at(1))
    player = player_verify_id(actor=cashier, player=player, now=at(2))
    player = player_exclude(
        actor=manager,
        player=player,
        status="self_excluded",
        reason="Asked for a break",
        excluded_from=date(2026, 11, 10),
        excluded_until=date(2026, 11, 10),
        now=at(3),
    )
    player = player_exclusion_lift(actor=manager, player=player, reason="Break over", now=at(4))
    other = player_create(
        actor=cashier, first_name="Eva", last_name="Horváthová", date_of_birth=date(1990, 6, 1), now=at(5)
    )

    game = make_game()
    table = make_table(game, 1)
    shift = shift_open(actor=cashier, opening_float_cents=500_000, now=at(6))
    stock_cage(cashier, now=at(6))

    # The waiting list: from the phone (then checked in by card and taken off), and at the desk.
    (joined,), _token = waiting_join_remote(
        game_ids=[game.pk], nickname=NICK, phone=PHONE, address="192.0.2.7", now=at(10)
    )
    waiting_check_in(actor=floor, entry=joined, card_number=player.card_number, now=at(11))
    waiting_remove(actor=floor, entry=joined, now=at(12))
    desk = waiting_add(actor=floor, game=game, player=player, now=at(13))
    waiting_remove(actor=floor, entry=desk, now=at(14))

    session_buy_in(
        actor=cashier,
        shift=shift,
        table=table,
        player=other,
        seat=5,
        amount_cents=15_000,
        idempotency_key=key(),
        now=at(19),
    )
    session = session_buy_in(
        actor=cashier,
        shift=shift,
        table=table,
        player=player,
        seat=3,
        amount_cents=15_000,
        idempotency_key=key(),
        now=at(20),
    )
    if cashed_out:
        session = session_cash_out(
            actor=cashier,
            shift=shift,
            session=session,
            amount_cents=21_000,
            idempotency_key=key(),
            now=at(80),
        )

    tournament = TournamentFactory(
        name="Friday Freezeout",
        start_at=at(90),
        min_players=2,
        late_registration_level=0,
        levels=[(25, 50, 1200), (50, 100, 1200)],
    )
    entry = entry_register(
        actor=cashier, tournament=tournament, player=player, shift=shift, idempotency_key=key(), now=at(85)
    )
    second = entry_register(
        actor=cashier, tournament=tournament, player=other, shift=shift, idempotency_key=key(), now=at(86)
    )
    tournament_start(actor=floor, tournament=tournament, now=at(90), rng=random.Random(3))
    payout_table_set(actor=floor, tournament=tournament, percentages=[10_000], now=at(91))
    entry_bust(actor=floor, tournament=tournament, busted=[(second.pk, 100)], now=at(120))
    tournament_finish(actor=floor, tournament=tournament, now=at(121))
    if prize_paid:
        entry = prize_pay(actor=cashier, entry=entry, shift=shift, idempotency_key=key(), now=at(130))
    player.refresh_from_db()
    entry.refresh_from_db()
    session.refresh_from_db()
    return History(player, other, shift, game, table, tournament, session, entry)
