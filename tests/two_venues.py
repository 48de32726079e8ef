"""Two venues of one operator for the tests of VEN-1, the one builder of a second venue: the
installation's first venue ("Card Room", where the shared fixtures' staff hold their roles) and a
second one made here, with its own chip sets; staff who hold roles per venue; and a cash room in
a venue (a game, an open table, a cashier's shift with chips in the cage), at the cash games'
moments (tests/cashgame/conftest.py: T0, at, key). The reports' Casino Two
(tests/reports/venue_two.py) is this second venue with a known day of its own."""

from datetime import datetime, timedelta

from django.contrib.auth import get_user_model
from django.db.models import Max

from cardroom.models import AuditRecord, Venue
from cardroom.roles import Role
from cardroom.services import staff_role_grant
from cardroom.venues import venue_activate, venue_cache_clear
from cashgame.models import Hand
from cashgame.services.sessions import session_buy_in, session_cash_out
from cashier.models import CashierTransaction, Posting, ReceiptCounter
from cashier.services import shift_open
from chips.defaults import default_chip_sets_ensure
from reports.selectors.books import books_problems
from tests.cashgame.conftest import at, key, make_game, make_table
from tests.conftest import PASSWORD
from tests.factories import cage_stock
from tests.tournaments.factories import TournamentFactory
from tournaments.services.registration import entry_register


def venue_two(*, name: str = "Casino Two", slug: str = "two", **settings) -> Venue:
    """A second venue, with the chip sets a new room starts with; `settings` are the venue's own
    (time_zone, gaming_day_start_hour, host_names...)."""
    venue = Venue.objects.create(name=name, slug=slug, **settings)
    # Lookups by key reload a table of venues that misses one, lookups by address name do not:
    # without this, /v/two/ and X-Venue: two would be "not found" for the table's few seconds.
    venue_cache_clear()
    with venue_activate(venue):
        default_chip_sets_ensure()
    return venue


def roles_grant(user, roles: dict) -> None:
    """Give `user` roles per venue: {venue: [Role, ...]}."""
    for venue, held in roles.items():
        for role in held:
            staff_role_grant(user=user, role=Role(role).value, venue=venue)


def staff(username: str, roles: dict) -> object:
    """A new staff member with roles per venue: {venue: [Role, ...]}."""
    user = get_user_model().objects.create_user(username=username, password=PASSWORD)
    roles_grant(user, roles)
    return user


class Room:
    """One venue's cash game, open table and cashier's shift with chips in the cage (moments
    from T0)."""

    def __init__(self, venue, *, cashier, max_buy_in: int = 300_000):
        self.venue = venue
        self.cashier = cashier
        with venue_activate(venue):
            self.game = make_game(max_buy_in=max_buy_in)
            self.table = make_table(self.game, 1)
            self.shift = shift_open(actor=cashier, opening_float_cents=500_000, now=at(-60))
            cage_stock(cashier, now=at(-60))

    def buy_in(self, player, cents: int, *, seat: int, when: datetime):
        with venue_activate(self.venue):
            return session_buy_in(
                actor=self.cashier,
                shift=self.shift,
                table=self.table,
                player=player,
                seat=seat,
                amount_cents=cents,
                idempotency_key=key(),
                now=when,
            )

    def register(self, player, cents: int, *, when: datetime):
        """A tournament's buy-in of `cents` (prize pool and fee) at this venue's cage."""
        with venue_activate(self.venue):
            tournament = TournamentFactory(
                start_at=when + timedelta(hours=1), prize_cents=cents - 1_000, fee_cents=1_000
            )
            return entry_register(
                actor=self.cashier,
                tournament=tournament,
                player=player,
                shift=self.shift,
                idempotency_key=key(),
                now=when,
            )

    def cash_out(self, session, cents: int, *, when: datetime):
        with venue_activate(self.venue):
            return session_cash_out(
                actor=self.cashier,
                shift=self.shift,
                session=session,
                amount_cents=cents,
                idempotency_key=key(),
                now=when,
            )


def written() -> tuple[int, int, int, int]:
    """The rows a refused request must not add, in every venue."""
    return (
        Posting.all_venues.count(),
        CashierTransaction.all_venues.count(),
        Hand.all_venues.count(),
        AuditRecord.all_venues.count(),
    )


# Two checks of reports.selectors.books hold for one venue only, left out here until the books
# check reads the venue's own rows: it compares the venue's last receipt number with the sum of
# every venue's receipt counter (checked here per venue instead), and the chips in the venue's
# players' hands with the chips sold in every venue (cashgame's SessionEvent names no venue).
RECEIPT_COUNTER_CHECK = "Receipts: the counter stands at the last receipt"
CHIPS_IN_HANDS_CHECK = "Cash-game chips in players' hands = chips sold - chips taken back at cash-outs"


def books_problems_everywhere() -> dict[str, list]:
    """The books check of each venue, run as that venue's (each keeps its own receipts, drawers
    and ledger): {venue's name: the checks that found a difference}."""
    found = {}
    for venue in Venue.objects.order_by("pk"):
        with venue_activate(venue):
            problems = [
                check
                for check in books_problems()
                if check.name not in (RECEIPT_COUNTER_CHECK, CHIPS_IN_HANDS_CHECK)
            ]
            last = CashierTransaction.objects.aggregate(last=Max("receipt_number"))["last"] or 0
            counter = ReceiptCounter.objects.filter(venue=venue).values_list("last_number", flat=True).first()
            if (counter or 0) != last:
                problems.append((RECEIPT_COUNTER_CHECK, last, counter))
            found[venue.name] = problems
    return found


def books_agree() -> dict[str, list]:
    """What books_problems_everywhere returns when every venue's books agree."""
    return {venue.name: [] for venue in Venue.objects.order_by("pk")}
