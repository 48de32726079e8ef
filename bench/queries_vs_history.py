"""Issue 14: the SQL queries of a request do not grow with the history. Target: each kind of
request makes as many queries with a large history as with a small one.

Run from the project root:  .venv/bin/python bench/queries_vs_history.py [--hands N] [--desk N]
PostgreSQL only (a fresh cardroom_bench_<pid> database unless DATABASE_URL is set), in one
process through Django's test client with the production settings (DEBUG off).

It sets up a small room (bench/room_setup.py's set-up: 2 dealer tables, 1 cage window, a running
tournament of 20 entries, a waiting list) and counts the queries of each kind of request with
django.test.utils.CaptureQueriesContext: a dealer's deal, flop and end, a buy-in and a cash-out
through the cage's door, the TV clock's poll, the waiting-list board's poll and the floor's
tournament dashboard. Each request is sent once to warm the process caches (roles, accounts,
the venue) and counted the second time (the TV poll half a second later, so that it reads the
state the TVs share rather than answer with the last reading). Then it adds a history through
the services, on the very
rows the measured requests touch: thousands of hands at the dealer's table (its players cashed
out and new ones bought in every 250 hands), buy-ins and cash-outs of the window's players at
its table in its shift, entries of the tournament, players added to and removed from the waiting
list; and counts again. Balances read ended gaming days from the reports' rollups, so the clock
then moves a day on (every timezone.now()), the day is rolled up as the nightly task does, and
it counts again; and once more two days on, after as much history again, rolled up too.
Constant means: small = large, and large rolled up = twice as large rolled up. It also prints
the median time of each kind over 10 requests at each point (more rows may cost time without
costing queries; on a busy machine the times move with the load).
"""

import argparse
import contextlib
import os
import statistics
import sys
import time
from datetime import timedelta
from pathlib import Path
from unittest import mock

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import SERVER_SECRET_KEY, collect_static, load_average, prepare_database, setup_django

HANDS = 2_000
DESK_PAIRS = 1_000
ENTRIES = 200
WAITS = 200
TURNOVER_HANDS = 250
TIMING_ROUNDS = 10
KINDS = ["deal", "flop", "end", "buy-in", "cash-out", "TV poll", "board poll", "floor dashboard"]


def production_settings() -> None:
    """As gunicorn runs in the benchmarks (DEBUG off), but over plain HTTP to the test client."""
    os.environ.update(
        {
            "DJANGO_DEBUG": "0",
            "DJANGO_SECRET_KEY": SERVER_SECRET_KEY,
            "DJANGO_SECURE_SSL_REDIRECT": "0",
            "DJANGO_SECURE_COOKIES": "0",
            "DJANGO_ALLOWED_HOSTS": "testserver",
            "AXES_ENABLED": "0",
        }
    )


class Room:
    """The devices of the small room, as test clients, and the requests they send."""

    def __init__(self, room: dict):
        from django.contrib.auth.models import User
        from django.test import Client
        from rest_framework.test import APIClient

        self.room = room
        token, self.table_id = room["dealers"][0]
        self.dealer = APIClient()
        self.dealer.credentials(HTTP_AUTHORIZATION=f"Token {token}")
        self.window = room["windows"][0]
        self.desk = APIClient()
        self.desk.credentials(HTTP_AUTHORIZATION=f"Token {self.window['token']}")
        self.screen = Client()
        self.floor = Client()
        self.manager = User.objects.get(pk=room["manager"])
        self.turn = 0
        self.hand_id = 0

    def _ok(self, response, *statuses: int) -> None:
        if response.status_code not in statuses:
            raise RuntimeError(f"{response.status_code}: {response.content[:300]!r}")

    def deal(self) -> None:
        response = self.dealer.post(
            f"/api/cashgame/tables/{self.table_id}/hands/", {"seats": [1, 2, 3, 4], "button_seat": 1}, "json"
        )
        self._ok(response, 201)
        self.hand_id = response.json()["id"]

    def flop(self) -> None:
        self._ok(self.dealer.post(f"/api/cashgame/hands/{self.hand_id}/flop/", {}, "json"), 200)

    def end(self) -> None:
        self._ok(
            self.dealer.post(f"/api/cashgame/hands/{self.hand_id}/end/", {"pot_cents": 4_000}, "json"), 200
        )

    def _money(self, body: dict) -> None:
        self.turn += 1
        response = self.desk.post(
            "/api/cashier/transactions/",
            {"shift": self.window["shift"], "table": self.window["table"], **body},
            "json",
            HTTP_IDEMPOTENCY_KEY=f"queries-{os.getpid()}-{self.turn}",
        )
        self._ok(response, 201)

    def buy_in(self) -> None:
        players = self.window["players"]
        self.player = players[self.turn % len(players)]
        self._money({"kind": "cash_buy_in", "player": self.player, "seat": 1, "amount_cents": 20_000})

    def cash_out(self) -> None:
        self._money({"kind": "cash_out", "player": self.player, "amount_cents": 20_000})

    def tv_poll(self) -> None:
        self._ok(self.screen.get(f"/tv/{self.room['tournament']}/state.json"), 200)

    def board_poll(self) -> None:
        self._ok(self.screen.get("/board/rows/"), 200)

    def floor_dashboard(self) -> None:
        self._ok(self.floor.get(f"/tournaments/{self.room['tournament']}/"), 200)

    def rounds(self):
        """Each kind in an order that leaves the room as it found it (a hand dealt is ended,
        a player bought in is cashed out)."""
        return [
            ("deal", self.deal),
            ("flop", self.flop),
            ("end", self.end),
            ("buy-in", self.buy_in),
            ("cash-out", self.cash_out),
            ("TV poll", self.tv_poll),
            ("board poll", self.board_poll),
            ("floor dashboard", self.floor_dashboard),
        ]


def count_queries(room: Room) -> tuple[dict[str, int], dict[str, float]]:
    """(queries of each kind, median ms of each kind): one warm-up round, one counted round,
    then TIMING_ROUNDS timed rounds."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    # A session lasts 12 hours: the floor logs in again on the day it is measured.
    room.floor.force_login(room.manager)
    for _kind, send in room.rounds():
        send()
    from cardroom.selectors import venue_get
    from screens.views.tv import TvStateView

    counts = {}
    for kind, send in room.rounds():
        if kind == "TV poll":
            # The TVs share one reading each half second (screens.readings.shared_reading): the
            # counted poll waits for the next period, so that it makes the reading, not reuses it.
            time.sleep(TvStateView.READING_SECONDS)
        # Each process reads the venue again every few seconds (VENUE_CACHE_SECONDS), whatever
        # the history: read it now, so that no counted request happens to be the one that does.
        venue_get()
        with CaptureQueriesContext(connection) as queries:
            send()
        counts[kind] = len(queries.captured_queries)
    times: dict[str, list[float]] = {kind: [] for kind in KINDS}
    for _ in range(TIMING_ROUNDS):
        for kind, send in room.rounds():
            started = time.perf_counter()
            send()
            times[kind].append((time.perf_counter() - started) * 1000)
    return counts, {kind: statistics.median(ms) for kind, ms in times.items()}


def add_history(
    room: dict, *, batch: str, hands: int, desk_pairs: int, entries: int, waits: int
) -> dict[str, int]:
    """A history on the rows the measured requests touch, through the services (`batch` keeps
    the request keys of two histories apart)."""
    from django.contrib.auth.models import User
    from django.utils import timezone
    from rest_framework.authtoken.models import Token

    from bench.room_setup import PLAYERS_PER_TABLE, _player
    from cage.services import DeskRequest, transaction_route
    from cashgame.models import CashTable, Game, PlayerSession
    from cashgame.services.hands import hand_end, hand_flop, hand_start
    from cashgame.services.sessions import session_buy_in, session_cash_out, session_state_change
    from cashgame.services.waiting import waiting_add, waiting_remove
    from cashier.models import AccountKind, Shift
    from cashier.selectors import account_amount
    from players.models import Player
    from tournaments.models import Tournament
    from tournaments.services.registration import entry_register

    now = timezone.now()
    manager = User.objects.get(pk=room["manager"])
    cashier = User.objects.get(pk=room["cashier"])
    shift = Shift.objects.get(pk=room["shift"])
    token, table_id = room["dealers"][0]
    dealer = Token.objects.get(key=token).user
    table = CashTable.objects.get(pk=table_id)

    turnover = 0
    for number in range(hands):
        if number % TURNOVER_HANDS == 0:
            # The players leave with what is left on the table and four new ones buy in.
            left = account_amount(kind=AccountKind.CHIPS_IN_PLAY, owner=table.reference)
            sessions = list(PlayerSession.objects.filter(table=table, ended_at__isnull=True).order_by("seat"))
            for i, session in enumerate(sessions):
                # In whole chips (CHP-2: the cage counts the chips), the last player takes the rest.
                even = left // len(sessions) // 50 * 50
                share = even if i < len(sessions) - 1 else left - even * i
                session_cash_out(
                    actor=cashier,
                    shift=shift,
                    session=session,
                    amount_cents=share,
                    idempotency_key=f"history-{batch}-out-{turnover}-{i}",
                )
            turnover += 1
            for seat in range(1, PLAYERS_PER_TABLE + 1):
                session = session_buy_in(
                    actor=cashier,
                    shift=shift,
                    table=table,
                    player=Player.objects.bulk_create([_player(f"H{batch}{turnover}-", seat, now)])[0],
                    seat=seat,
                    amount_cents=30_000,
                    idempotency_key=f"history-{batch}-in-{turnover}-{seat}",
                )
                session_state_change(actor=manager, session=session, action="posted")
        hand = hand_start(actor=dealer, table=table, seats=[1, 2, 3, 4], button_seat=1 + number % 4)
        hand_flop(actor=dealer, hand=hand)
        hand_end(actor=dealer, hand=hand, pot_cents=4_000)

    window = room["windows"][0]
    desk = Token.objects.get(key=window["token"]).user
    desk_shift = Shift.objects.get(pk=window["shift"])
    players = window["players"]
    for number in range(desk_pairs):
        player = players[number % len(players)]
        for kind in ("cash_buy_in", "cash_out"):
            transaction_route(
                actor=desk,
                shift=desk_shift,
                request=DeskRequest(
                    kind=kind, player_id=player, amount_cents=20_000, table_id=window["table"], seat=1
                ),
                idempotency_key=f"history-{batch}-desk-{number}-{kind}",
            )

    tournament = Tournament.objects.get(pk=room["tournament"])
    for i, player in enumerate(
        Player.objects.bulk_create(_player(f"HE{batch}", i, now) for i in range(entries))
    ):
        entry_register(
            actor=cashier,
            tournament=tournament,
            player=player,
            shift=shift,
            idempotency_key=f"history-{batch}-entry-{i}",
        )

    game = Game.objects.get(pk=room["game"])
    for player in Player.objects.bulk_create(_player(f"HW{batch}", i, now) for i in range(waits)):
        waiting_remove(actor=manager, entry=waiting_add(actor=manager, game=game, player=player))
    return {
        "hands": hands,
        "cashier transactions": 2 * desk_pairs + 8 * turnover,
        "entries": entries,
        "waiting": waits,
    }


def totals() -> dict[str, int]:
    from cardroom.models import AuditRecord
    from cashgame.models import Hand, PlayerSession
    from cashier.models import CashierTransaction, Entry
    from reports.models import RolledUpDay
    from tournaments.models import Entry as TournamentEntry

    return {
        "hands": Hand.objects.count(),
        "cashier transactions": CashierTransaction.objects.count(),
        "ledger entries": Entry.objects.count(),
        "player sessions": PlayerSession.objects.count(),
        "tournament entries": TournamentEntry.objects.count(),
        "audit records": AuditRecord.objects.count(),
        "rolled-up days": RolledUpDay.objects.count(),
    }


@contextlib.contextmanager
def days_later(days: int):
    """The clock `days` gaming days on (every `timezone.now()` of the services and views), so a
    history made today lies in ended gaming days that the reports roll up, as every night."""
    from django.utils import timezone

    real_now = timezone.now
    with mock.patch("django.utils.timezone.now", lambda: real_now() + timedelta(days=days)):
        yield


def roll_up() -> int:
    """What the beat's `reports.rollup_missing` does each night: every ended gaming day."""
    from reports.services import rollup_build_missing

    return len(rollup_build_missing(limit=None))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--hands", type=int, default=HANDS)
    parser.add_argument("--desk", type=int, default=DESK_PAIRS, help="buy-in and cash-out pairs")
    parser.add_argument("--entries", type=int, default=ENTRIES)
    parser.add_argument("--waits", type=int, default=WAITS)
    args = parser.parse_args()
    production_settings()
    os.environ.setdefault("REDIS_URL", "redis://127.0.0.1:6379/6")
    cleanup = prepare_database()
    try:
        setup_django()
        collect_static()
        from bench.room_setup import setup_room

        # Levels long enough that the tournament still runs two days on.
        room_ids = setup_room(tables=2, windows=1, entries=20, levels=60, level_minutes=60)
        room = Room(room_ids)
        sizes = {"hands": args.hands, "desk_pairs": args.desk, "waits": args.waits}
        points: dict[str, tuple] = {}
        points["small"] = (*count_queries(room), totals())
        started = time.monotonic()
        add_history(room_ids, batch="a", entries=args.entries, **sizes)
        points["large"] = (*count_queries(room), totals())
        # The same history a day later, its day rolled up; then as much again, rolled up too.
        with days_later(1):
            rolled = roll_up()
            points["large, rolled up"] = (*count_queries(room), totals())
            add_history(room_ids, batch="b", entries=0, **sizes)
        with days_later(2):
            rolled += roll_up()
            points["2 x large, rolled up"] = (*count_queries(room), totals())
        print(
            f"histories added and rolled up ({rolled} gaming days) in {time.monotonic() - started:.0f} s; "
            f"load average {load_average()}"
        )
        report(points)
    finally:
        from bench.room_load import purge_redis

        purge_redis()
        cleanup()


def report(points: dict[str, tuple]) -> None:
    names = list(points)
    print(f"{'rows when counted':<22}" + "".join(f"{name:>22}" for name in names))
    for row in points["small"][2]:
        print(f"{row:<22}" + "".join(f"{points[name][2][row]:>22}" for name in names))
    print(f"{'queries':<22}" + "".join(f"{name:>22}" for name in names))
    for kind in KINDS:
        print(f"{kind:<22}" + "".join(f"{points[name][0][kind]:>22}" for name in names))
    print(f"{'median ms':<22}" + "".join(f"{name:>22}" for name in names))
    for kind in KINDS:
        print(f"{kind:<22}" + "".join(f"{points[name][1][kind]:>22.1f}" for name in names))
    # Constant in the size: the same count for a small and a large history, and for a history
    # rolled up and one twice its size rolled up.
    differ = [
        kind
        for kind in KINDS
        if points["small"][0][kind] != points["large"][0][kind]
        or points["large, rolled up"][0][kind] != points["2 x large, rolled up"][0][kind]
    ]
    rollups = {
        kind: points["large, rolled up"][0][kind] - points["large"][0][kind]
        for kind in KINDS
        if points["large, rolled up"][0][kind] != points["large"][0][kind]
    }
    print(f"queries that rolled-up days add (the same for 1 and 2 of them): {rollups or 'none'}")
    print(f"RESULT queries constant in the history: {'yes' if not differ else 'no: ' + ', '.join(differ)}")


if __name__ == "__main__":
    main()
