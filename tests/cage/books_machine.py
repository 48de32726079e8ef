"""The books state machines' room and checks, shared by the cash-game and the tournament
machine (CAG-1, CAG-6): random sequences of real service calls, some of them invalid, through the
desk's door and the games' own services. Every refusal writes nothing, and after every step that
changed something the books agree (`books_problems()` is empty).

Each example runs inside one transaction that is rolled back at its end, so examples never see
each other's rows.
"""

import itertools
from functools import partial

import pytest
from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Max
from hypothesis import HealthCheck, settings
from hypothesis.stateful import RuleBasedStateMachine, invariant

from cage.services import DeskRequest, transaction_route
from cardroom.errors import DomainError
from cardroom.models import AuditRecord, IdempotentRequest
from cardroom.roles import Role
from cardroom.services import staff_role_grant
from cashgame.models import Hand, HandStatus, PlayerSession, SessionEvent
from cashier.models import CashierTransaction
from cashier.models import Entry as LedgerEntry
from cashier.services import shift_open
from chips.models import ChipPosting
from reports.selectors.books import books_problems
from tests.cashgame.conftest import make_game, make_table
from tests.factories import PlayerFactory, cage_stock
from tests.tournaments.conftest import LEVELS
from tests.tournaments.factories import TournamentFactory

_keys = itertools.count(1)
PLAYERS = 6


def key() -> str:
    return f"books-{next(_keys):08d}"


def staff(name: str, role: Role):
    user = get_user_model().objects.create(username=name)
    staff_role_grant(user=user, role=role.value)
    return user


def written() -> tuple[int, ...]:
    """What a refused request must leave as it was."""
    return (
        CashierTransaction.objects.count(),
        IdempotentRequest.objects.count(),
        SessionEvent.objects.count(),
        Hand.objects.count(),
        ChipPosting.objects.count(),
    )


class Books(RuleBasedStateMachine):
    """The room: one cash table (1/2 EUR, buy-in 100-300), one 90+10 freezeout, six players."""

    def __init__(self):
        super().__init__()
        self.atomic = transaction.atomic()
        self.atomic.__enter__()

    def teardown(self):
        try:
            self.books_agree()
        finally:
            transaction.set_rollback(True)
            self.atomic.__exit__(None, None, None)

    def room(self):
        suffix = next(_keys)
        self.cashier = staff(f"c{suffix}", Role.CASHIER)
        self.floor = staff(f"f{suffix}", Role.FLOOR)
        self.manager = staff(f"m{suffix}", Role.MANAGER)
        self.manager2 = staff(f"n{suffix}", Role.MANAGER)
        cage_stock(self.cashier)
        self.shift = shift_open(actor=self.cashier, opening_float_cents=1_000_000)
        self.table = make_table(make_game(name=f"NLHE {suffix}"), number=suffix % 900 + 1)
        self.tournament = TournamentFactory(levels=LEVELS, min_players=2, late_registration_level=0)
        self.players = [PlayerFactory() for _ in range(PLAYERS)]

    def refused(self, call, *codes: str) -> None:
        before = written()
        with pytest.raises(DomainError) as error:
            call()
        assert error.value.code in codes, error.value.code
        assert written() == before

    def door(self, request: DeskRequest):
        """The desk's door (the page's and the API's service) for one request."""
        return partial(
            transaction_route, actor=self.cashier, shift=self.shift, request=request, idempotency_key=key()
        )

    def session_of(self, player):
        return PlayerSession.objects.filter(player=player, ended_at__isnull=True).first()

    def hand(self):
        return Hand.objects.filter(table=self.table, status=HandStatus.IN_PROGRESS).first()

    def changes(self) -> tuple:
        """Every change of money, seating or the clock leaves an audit record, and every posting
        its ledger entries: while neither grows, nothing the books check has changed."""
        return (
            AuditRecord.objects.aggregate(last=Max("pk"))["last"],
            LedgerEntry.objects.aggregate(last=Max("pk"))["last"],
        )

    @invariant()
    def books_agree(self):
        """After every step that changed anything (a refused one changes nothing: `refused`),
        and once more at the end of the sequence."""
        if not hasattr(self, "shift"):
            return
        changes = self.changes()
        if changes != getattr(self, "checked", None):
            assert books_problems() == []
            self.checked = changes


# 30 sequences of each in `make test` (SQLite) and 30 more in CI's PostgreSQL pass, new ones every
# run: both passes have a time budget, and each step that changed anything checks the whole books
# (about 25 queries). The sequences are the same service calls on either database; the PostgreSQL
# pass is there for what SQLite does not do (row locks, its constraints and types), which every
# sequence meets, so its share is no larger than the SQLite pass's. 200 in CI took 250 s a
# machine, 100 about 150 s, and 60 on PostgreSQL 45-50 s a machine, the largest part of its pass.
SETTINGS = settings(
    max_examples=30,
    stateful_step_count=20,  # the longest failing run found so far took 16 steps
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
