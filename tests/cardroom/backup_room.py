"""A small room with money in it for the backup tests: two buy-ins and a raked hand, through the
services. `manage.py shell -c` runs `build()` in a process of its own when a test needs the room
committed (tests/cardroom/test_backups.py)."""

from cardroom.roles import Role
from cashgame.services.hands import hand_end, hand_flop, hand_start
from cashgame.services.sessions import session_buy_in, session_state_change
from cashier.services import shift_open
from tests.cashgame.conftest import make_game, make_table
from tests.conftest import make_staff
from tests.factories import PlayerFactory, cage_stock


def build() -> None:
    cashier = make_staff("backup-cashier", Role.CASHIER)
    floor = make_staff("backup-floor", Role.FLOOR)
    cage_stock(cashier)  # the cage's chips, which follow the cash (CHP-2)
    shift = shift_open(actor=cashier, opening_float_cents=100_000)
    table = make_table(make_game())
    for seat in (1, 2):
        session = session_buy_in(
            actor=cashier,
            shift=shift,
            table=table,
            player=PlayerFactory(id_verified_at="2026-01-01T00:00:00Z"),
            seat=seat,
            amount_cents=20_000,
            idempotency_key=f"backup-room-{seat}",
        )
        session_state_change(actor=floor, session=session, action="posted")
    hand = hand_flop(actor=floor, hand=hand_start(actor=floor, table=table, seats=[1, 2]))
    hand_end(actor=floor, hand=hand, pot_cents=4_000)
