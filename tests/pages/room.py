"""A room in the middle of a night, built through the real services, for the tests that walk
every page (tests/pages/test_slovak.py on SQLite, tests/e2e/test_every_page.py in a browser).

Every page needs something real to show: a cash table with players seated and a hand in
progress, a waiting list, a running tournament with its seats drawn and one bust-out, a second
tournament open for registration, a cashier's open shift with receipts, a correction waiting
for a manager, a blind structure. Times are set around the real clock (the pages read
`timezone.now()`), so the clock and the shift look live.
"""

import itertools
from dataclasses import dataclass, field
from datetime import timedelta

from django.utils import timezone

from cage.services import correction_request, table_chips_move
from cardroom.models import Venue
from cardroom.roles import Role
from cardroom.services import staff_role_grant
from cashgame.models import GameType
from cashgame.services.games import game_create
from cashgame.services.hands import hand_start
from cashgame.services.sessions import session_buy_in, session_state_change
from cashgame.services.tables import table_create, table_open
from cashgame.services.waiting import waiting_add, waiting_call_next
from cashgame.services.waiting_remote import waiting_join_remote
from cashier.models import CashierTransaction
from cashier.services import shift_open
from chips.models import ChipAccountKind, ChipSet, ChipSetKind
from chips.services import chip_account_for, chip_count_record, chips_receive, chips_transfer
from dealers.models import Dealer
from dealers.services.shifts import shift_clock_in
from devices.services import device_pair, pairing_code_create
from leagues.services import league_create, league_tournaments_set
from tests.conftest import PASSWORD, make_staff
from tests.factories import PlayerFactory
from tests.pages.room_promotions import add_high_hand
from tests.tournaments.factories import TournamentFactory, structure_with
from tournaments.models import Entry
from tournaments.services.events import (
    BagCount,
    bags_record,
    day_two_draw,
    event_create,
    event_day_two_set,
    event_flight_add,
    flight_end,
)
from tournaments.services.payouts import entry_bust
from tournaments.services.registration import entry_register, tournament_start

# Real-looking people: a name the Slovak check must not mistake for English (ALLOWED_WORDS is
# built from these rows, not typed twice).
PEOPLE = [
    ("Ján", "Novák", "Shark"),
    ("Zuzana", "Horváth", ""),
    ("Peter", "Kováč", "Rock"),
    ("Eva", "Varga", ""),
    ("Lukáš", "Tóth", "Ace"),
    ("Mária", "Nagy", ""),
    ("Marek", "Baláž", ""),
    ("Ivana", "Szabó", "Bluff"),
    ("Andrej", "Molnár", ""),
    ("Lucia", "Šimko", ""),
]
# The key of room.staff for the manager of the operator's two venues (tests/pages/walker.py).
OPERATOR = "operator"
# What staff typed, in the room's language (the pages show it as typed).
TYPED = {"break": "Výmena žetónov", "reason": "Zlé miesto pri stole"}
_keys = itertools.count(1)


def key() -> str:
    return f"room-key-{next(_keys):06d}"


@dataclass
class Room:
    staff: dict = field(default_factory=dict)  # role -> user
    players: list = field(default_factory=list)
    objects: dict = field(default_factory=dict)  # what the pages' URLs point at
    tablet_token: str = ""  # the dealer tablet paired to table 1 (its cookie's token)

    def names(self) -> set[str]:
        """Words of the room's own names: people, games, tournaments, staff log-ins, venues."""
        words = set()
        for venue in Venue.objects.all():
            words.update(venue.name.split())
        for player in self.players:
            words.update({player.first_name, player.last_name, player.nickname})
        for user in self.staff.values():
            words.add(user.get_username())
        for thing in (
            "game12",
            "game25",
            "tournament",
            "upcoming",
            "structure",
            "event",
            "flight",
            "day_two",
            "league",
            "promotion",
        ):
            words.update(str(self.objects[thing].name).split())
        words.update(TYPED.values())
        words.update(DEALERS)
        return {word for word in words if word}


DEALERS = ("Eva", "Jana", "Ivo")


def build_room() -> Room:
    room = Room()
    now = timezone.now()
    floor = room.staff[Role.FLOOR] = make_staff("floor1", Role.FLOOR)
    cashier = room.staff[Role.CASHIER] = make_staff("cashier1", Role.CASHIER)
    manager = room.staff[Role.MANAGER] = make_staff("manager1", Role.MANAGER)
    make_staff("manager2", Role.MANAGER)
    room.staff[Role.ADMINISTRATOR] = make_staff("admin1", Role.ADMINISTRATOR)
    # The operator's second room, and a manager of both, who opens the consolidated reports.
    second = Venue.objects.create(name="Kasíno Dva", slug="dva")
    group_manager = room.staff[OPERATOR] = make_staff("manager-group", Role.MANAGER)
    staff_role_grant(user=group_manager, role=Role.MANAGER.value, venue=second)
    room.players = [
        PlayerFactory(
            first_name=first, last_name=last, nickname=nick, id_verified_at=now - timedelta(days=30)
        )
        for first, last, nick in PEOPLE
    ]
    shift = shift_open(actor=cashier, opening_float_cents=500_000, now=now - timedelta(hours=2))
    room.objects["shift"] = shift

    # Cash games: table 1 (1/2) with three players in a hand, table 2 (2/5) empty, a waiting list.
    game12 = game_create(
        actor=manager,
        name="NLHE 1/2",
        game_type=GameType.NLHE,
        small_blind_cents=100,
        big_blind_cents=200,
        min_buy_in_cents=10_000,
        max_buy_in_cents=30_000,
        now=now - timedelta(hours=3),
    )
    game25 = game_create(
        actor=manager,
        name="NLHE 2/5",
        game_type=GameType.NLHE,
        small_blind_cents=200,
        big_blind_cents=500,
        min_buy_in_cents=20_000,
        max_buy_in_cents=100_000,
        now=now - timedelta(hours=3),
    )
    table1 = table_create(actor=manager, number=1, game=game12, now=now - timedelta(hours=2))
    table_open(actor=floor, table=table1, now=now - timedelta(hours=2))
    table2 = table_create(actor=manager, number=2, game=game25, now=now - timedelta(hours=2))
    table_open(actor=floor, table=table2, now=now - timedelta(hours=2))
    # Cash chips: brought into the vault, some to the cage, before the first buy-in takes some
    # (CHP-2: chips follow cash).
    cash_chips = ChipSet.objects.get(kind=ChipSetKind.CASH)
    chips_receive(
        actor=cashier,
        chip_set=cash_chips,
        chips={500: 400, 2500: 200, 10000: 50},
        now=now - timedelta(hours=3),
    )
    chips_transfer(
        actor=cashier,
        chip_set=cash_chips,
        source=ChipAccountKind.VAULT,
        target=ChipAccountKind.CAGE,
        chips={500: 200, 2500: 100, 10000: 20},
        now=now - timedelta(hours=3),
    )
    sessions = []
    for seat, player in enumerate(room.players[:3], start=1):
        session = session_buy_in(
            actor=cashier,
            shift=shift,
            table=table1,
            player=player,
            seat=seat,
            amount_cents=15_000,
            idempotency_key=key(),
            now=now - timedelta(minutes=90 - seat),
        )
        sessions.append(
            session_state_change(
                actor=floor, session=session, action="posted", now=now - timedelta(minutes=80)
            )
        )
    promotion = add_high_hand(now=now, manager=manager, floor=floor, game=game12, table=table1)
    hand_start(actor=floor, table=table1, seats=[1, 2, 3], button_seat=1, now=now - timedelta(minutes=1))
    for player in room.players[3:5]:
        waiting_add(actor=floor, game=game12, player=player, now=now - timedelta(minutes=20))
    # A player who joined both lists from his phone (WTL-1) and is called to table 2 (WTL-2).
    wait_entries, wait_token = waiting_join_remote(
        game_ids=[game12.pk, game25.pk],
        nickname="Bluff",
        phone="+421905000111",
        address="192.0.2.1",
        now=now - timedelta(minutes=5),
    )
    waiting_call_next(actor=floor, game=game25, table=table2, now=now - timedelta(seconds=30))

    # Tournaments: one running with its seats drawn and one bust-out, one open for registration.
    structure = structure_with(
        [(25, 50, 20), (50, 100, 20), ("break", 10, TYPED["break"]), (100, 200, 20)], name="Regular 20"
    )
    tournament = TournamentFactory(
        name="Friday Freezeout",
        start_at=now - timedelta(minutes=30),
        min_players=2,
        table_size=9,
        levels=[(25, 50, 1200), (50, 100, 1200), ("break", 600, TYPED["break"]), (100, 200, 1200)],
    )
    for player in room.players[4:]:
        entry_register(
            actor=cashier,
            tournament=tournament,
            player=player,
            shift=shift,
            idempotency_key=key(),
            now=now - timedelta(minutes=40),
        )
    tournament_start(actor=floor, tournament=tournament, now=now - timedelta(minutes=30))
    busted = Entry.objects.filter(tournament=tournament).order_by("number").first()
    entry_bust(
        actor=floor, tournament=tournament, busted=[(busted.pk, 20_000)], now=now - timedelta(minutes=10)
    )
    # The factory makes it open for registration already.
    upcoming = TournamentFactory(
        name="Sunday Deepstack", start_at=now + timedelta(days=2), levels=[(25, 50, 1800)]
    )
    entry_register(
        actor=cashier,
        tournament=upcoming,
        player=room.players[0],
        shift=shift,
        idempotency_key=key(),
        now=now,
    )

    # A league of the season with the running tournament in it (SER-4).
    league = league_create(
        actor=manager,
        name="Jarná liga",
        season_start=(now - timedelta(days=30)).date(),
        season_end=(now + timedelta(days=60)).date(),
        best_n=8,
        kind="formula",
    )
    league_tournaments_set(actor=manager, league=league, tournament_ids=[tournament.pk, upcoming.pk])

    # A correction waiting for a manager: the upcoming tournament's buy-in (nothing played yet).
    receipt = CashierTransaction.objects.filter(shift=shift).order_by("pk").last()
    correction_request(
        actor=cashier, posting=receipt.posting, reason=TYPED["reason"], now=now - timedelta(minutes=5)
    )

    # Table 1's dealer tablet, paired as the pairing page pairs one.
    _pairing, code = pairing_code_create(actor=manager, table=table1, now=now - timedelta(hours=1))
    _device, room.tablet_token = device_pair(code=code, now=now - timedelta(hours=1))

    # Dealers: two on shift at the open tables, one off shift.
    for name in DEALERS:
        dealer = Dealer.objects.create(name=name)
        if name != "Ivo":
            shift_clock_in(actor=floor, dealer=dealer, now=now - timedelta(minutes=40))
    # A fill to table 1 the dealer and the floor signed, and a count of the cage two chips short.
    chip_slip = table_chips_move(
        actor=cashier,
        chip_set=cash_chips,
        table_key=f"cash:{table1.pk}",
        kind="fill",
        chips={500: 100, 2500: 20},
        dealer_name="Eva",
        floor_name="Marek",
        now=now - timedelta(hours=2),
    )
    cage_chips = chip_account_for(chip_set=cash_chips, kind=ChipAccountKind.CAGE)
    chip_count = chip_count_record(
        actor=cashier,
        account=cage_chips,
        counted={50: 0, 100: 0, 200: 0, 500: 98, 2500: 62, 10000: 20, 50000: 0},
        now=now - timedelta(minutes=2),
    )

    # A two-day event (SER-2): flight 1A ended with two survivors bagged, the Day 2 drawn.
    event = event_create(actor=manager, name="Spring Main", now=now - timedelta(hours=3))
    flight = TournamentFactory(
        name="Spring Main 1A", start_at=now - timedelta(hours=3), min_players=2, levels=[(25, 50, 1200)]
    )
    event_flight_add(actor=manager, event=event, tournament=flight, label="1A", now=now - timedelta(hours=3))
    for player in room.players[:2]:
        entry_register(
            actor=cashier,
            tournament=flight,
            player=player,
            shift=shift,
            idempotency_key=key(),
            now=now - timedelta(hours=3),
        )
    tournament_start(actor=floor, tournament=flight, now=now - timedelta(hours=3))
    flight_end(actor=floor, flight=flight, now=now - timedelta(hours=2))
    bags_record(
        actor=floor,
        flight=flight,
        counts=[
            BagCount(entry.pk, text)
            for entry, text in zip(flight.entries.order_by("number"), ["25,000", "15,000"], strict=True)
        ],
        witness_id=room.staff[Role.MANAGER].pk,
        witness_password=PASSWORD,
        now=now - timedelta(hours=2),
    )
    day_two = TournamentFactory(
        name="Spring Main Day 2",
        start_at=now + timedelta(days=1),
        status="scheduled",
        min_players=2,
        prize_cents=0,
        fee_cents=0,
        levels=[(50, 100, 1200)],
    )
    event_day_two_set(actor=manager, event=event, tournament=day_two, now=now - timedelta(hours=2))
    day_two_draw(actor=floor, event=event, now=now - timedelta(hours=1))

    room.objects.update(
        event=event,
        flight=flight,
        day_two=day_two,
        cash_chips=cash_chips,
        chip_slip=chip_slip,
        chip_count=chip_count,
        game12=game12,
        game25=game25,
        table1=table1,
        table2=table2,
        session=sessions[0],
        structure=structure,
        tournament=tournament,
        upcoming=upcoming,
        receipt=receipt,
        player=room.players[0],
        wait_token=wait_token,
        wait_entry=wait_entries[0],
        league=league,
        promotion=promotion,
    )
    return room
