"""The room of bench/room_load.py before the doors open, built through the services: tables with
players in play and a dealer tablet's token each, cage windows, a running tournament, a waiting
list, and a logged-in manager's session cookie for the floor views. bench/queries_vs_history.py
sets up a smaller one with the same function."""

from bench.common import bench_staff_and_game

TABLES = 40
PLAYERS_PER_TABLE = 4
CAGE_WINDOWS = 10
CAGE_PLAYERS_PER_WINDOW = 30
TOURNAMENT_ENTRIES = 90
WAITING_PLAYERS = 12


def _player(label: str, number: int, now):
    from players.models import Player, normalize

    return Player(
        first_name="Bench",
        last_name=f"{label}{number}",
        date_of_birth="1980-01-01",
        card_number=f"{label}{number:06d}",
        id_document_type="id_card",
        id_document_number=f"{label}{number:06d}",
        id_verified_at=now,
        first_name_key="bench",
        last_name_key=normalize(f"{label}{number}"),
    )


def setup_room(
    *,
    tables: int = TABLES,
    windows: int = CAGE_WINDOWS,
    entries: int = TOURNAMENT_ENTRIES,
    levels: int = 20,
    level_minutes: int = 20,
) -> dict:
    """The room before the doors open: 40 open 1/2 EUR tables with 4 players bought in and in
    play and a floor user (a tablet's token) each; 10 cage windows, each a cashier with a token,
    an open shift, a table of 10 seats and ID-verified players of its own; a running tournament
    with 90 entries seated; players on the waiting list. Everything through the services."""
    from django.contrib.auth.models import User
    from django.db import connection
    from django.utils import timezone
    from rest_framework.authtoken.models import Token

    from cardroom.services import staff_role_grant
    from cashgame.services.sessions import session_buy_in, session_state_change
    from cashgame.services.tables import table_create, table_open
    from cashgame.services.waiting import waiting_add
    from cashier.services import shift_open
    from players.models import Player
    from tournaments.models import BlindStructure, LevelKind, StructureLevel
    from tournaments.services.registration import entry_register, tournament_start
    from tournaments.services.tournaments import tournament_create, tournament_open_registration

    if connection.vendor != "postgresql":
        raise SystemExit("room_load needs PostgreSQL (DATABASE_URL=postgres://...)")
    now = timezone.now()
    manager, cashier, shift, game = bench_staff_and_game()
    seated = Player.objects.bulk_create(_player("T", i, now) for i in range(tables * PLAYERS_PER_TABLE))
    dealers = []
    for number in range(1, tables + 1):
        table = table_open(actor=manager, table=table_create(actor=manager, number=number, game=game))
        for seat in range(1, PLAYERS_PER_TABLE + 1):
            session = session_buy_in(
                actor=cashier,
                shift=shift,
                table=table,
                player=seated[(number - 1) * PLAYERS_PER_TABLE + seat - 1],
                seat=seat,
                amount_cents=30_000,
                idempotency_key=f"bench-seat-{number}-{seat}",
            )
            session_state_change(actor=manager, session=session, action="posted")
        dealer = User.objects.create_user(username=f"bench-dealer-{number}", password=None)
        staff_role_grant(user=dealer, role="Floor")
        dealers.append((Token.objects.create(user=dealer).key, table.pk))

    desks = []
    for window in range(windows):
        user = User.objects.create_user(username=f"bench-window-{window}", password=None)
        staff_role_grant(user=user, role="Cashier")
        table = table_open(
            actor=manager, table=table_create(actor=manager, number=101 + window, game=game, seats=10)
        )
        players = Player.objects.bulk_create(
            _player(f"W{window}-", i, now) for i in range(CAGE_PLAYERS_PER_WINDOW)
        )
        desks.append(
            {
                "token": Token.objects.create(user=user).key,
                "shift": shift_open(actor=user, opening_float_cents=1_000_000).pk,
                "table": table.pk,
                "players": [p.pk for p in players],
            }
        )

    structure = BlindStructure.objects.create(name=f"Bench {level_minutes} minutes")
    StructureLevel.objects.bulk_create(
        StructureLevel(
            structure=structure,
            order=order,
            kind=LevelKind.LEVEL,
            small_blind_chips=25 * order,
            big_blind_chips=50 * order,
            minutes=level_minutes,
        )
        for order in range(1, levels + 1)
    )
    tournament = tournament_create(
        actor=manager,
        name="Bench Deepstack",
        structure=structure,
        start_at=now,
        prize_cents=9_000,
        fee_cents=1_000,
        starting_stack_chips=20_000,
        late_registration_level=6,
        guarantee_cents=1_000_000,
        guarantee_mode="unconditional",
    )
    tournament_open_registration(actor=manager, tournament=tournament)
    for i, player in enumerate(Player.objects.bulk_create(_player("E", i, now) for i in range(entries))):
        entry_register(
            actor=cashier,
            tournament=tournament,
            player=player,
            shift=shift,
            idempotency_key=f"bench-entry-{i}",
        )
    tournament_start(actor=manager, tournament=tournament)

    for player in Player.objects.bulk_create(_player("Q", i, now) for i in range(WAITING_PLAYERS)):
        waiting_add(actor=manager, game=game, player=player)
    cookie = _logged_in_cookie(manager)
    connection.close()
    return {
        "cookie": cookie,
        "dealers": dealers,
        "windows": desks,
        "tournament": tournament.pk,
        "manager": manager.pk,
        "cashier": cashier.pk,
        "shift": shift.pk,
        "game": game.pk,
    }


def _logged_in_cookie(user) -> str:
    """A session cookie for `user`, as the log-in page would set it (the server shares this
    process's secret key and session store)."""
    from django.conf import settings
    from django.test import Client as TestClient

    client = TestClient()
    client.force_login(user)
    return f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}"
