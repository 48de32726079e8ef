"""CAG-1, CAG-6, TRN-6, TRN-10: random sequences of registrations, withdrawals, reversals, the
start, bust-outs and prizes of a freezeout, some of them invalid, through the desk's door and the
tournament's own services; the books agree after every step (tests/cage/books_machine.py)."""

import pytest
from hypothesis import strategies as st
from hypothesis.stateful import initialize, precondition, rule, run_state_machine_as_test

from cage.services import DeskRequest, correction_approve, correction_request
from cardroom.errors import DomainError
from tests.cage.books_machine import PLAYERS, SETTINGS, Books, key
from tournaments.models import EntryStatus
from tournaments.services.payouts import entry_bust, payouts_finalise, prize_pay
from tournaments.services.registration import entry_register, tournament_start

pytestmark = pytest.mark.django_db


class TournamentBooks(Books):
    """Registrations, withdrawals, reversals, the start, bust-outs and prizes; three players
    are registered to begin with."""

    @initialize()
    def field(self):
        self.room()
        for player in self.players[:3]:
            self.door(
                DeskRequest(kind="tournament_buy_in", player_id=player.pk, tournament_id=self.tournament.pk)
            )()

    @rule(who=st.integers(0, PLAYERS - 1), door=st.booleans())
    def register(self, who, door):
        player = self.players[who]
        if door:
            request = DeskRequest(
                kind="tournament_buy_in", player_id=player.pk, tournament_id=self.tournament.pk
            )
            call = self.door(request)
        else:
            call = lambda: entry_register(  # noqa: E731
                actor=self.cashier,
                tournament=self.tournament,
                player=player,
                shift=self.shift,
                idempotency_key=key(),
            )
        self.tournament.refresh_from_db()
        counted = self.tournament.entries.filter(
            player=player, status__in=[EntryStatus.ACTIVE, EntryStatus.BUSTED]
        )
        if self.tournament.clock_started:
            self.refused(call, "registration_closed", "registration_not_open")
        elif counted.exists():
            self.refused(call, "entry_still_active", "reentry_limit")
        else:
            call()

    @rule(who=st.integers(0, PLAYERS - 1))
    def withdraw_at_the_desk(self, who):
        player = self.players[who]
        request = DeskRequest(kind="refund", player_id=player.pk, tournament_id=self.tournament.pk)
        call = self.door(request)
        entry = self.tournament.entries.filter(player=player, status=EntryStatus.ACTIVE).first()
        self.tournament.refresh_from_db()
        if entry is None:
            self.refused(call, "no_entry")
        elif self.tournament.clock_started:
            self.refused(call, "entry_has_played")
        else:
            call()

    @rule(which=st.integers(0, 1000))
    def reverse_an_entry(self, which):
        entries = list(self.tournament.entries.exclude(status=EntryStatus.WITHDRAWN).order_by("pk"))
        if not entries:
            return
        entry = entries[which % len(entries)]
        self.tournament.refresh_from_db()
        played = entry.status == EntryStatus.BUSTED or self.tournament.clock_started
        if played:
            self.refused(
                lambda: correction_request(
                    actor=self.manager, posting=entry.cashier_transaction.posting, reason="x"
                ),
                "entry_has_played",
                "entry_not_withdrawable",
            )
            return
        request = correction_request(
            actor=self.manager, posting=entry.cashier_transaction.posting, reason="Wrong player"
        )
        correction_approve(actor=self.manager2, request=request)
        entry.refresh_from_db()
        assert entry.status == EntryStatus.WITHDRAWN

    @precondition(
        lambda self: (
            not self.tournament.clock_started
            and self.tournament.entries.filter(status=EntryStatus.ACTIVE).count() >= 2
        )
    )
    @rule()
    def start(self):
        tournament_start(actor=self.floor, tournament=self.tournament)
        self.tournament.refresh_from_db()

    @precondition(lambda self: self.tournament.clock_started)
    @rule(which=st.integers(0, 1000))
    def bust(self, which):
        self.tournament.refresh_from_db()
        live = list(self.tournament.entries.filter(status=EntryStatus.ACTIVE).order_by("pk"))
        if not self.tournament.clock_started or len(live) < 2:
            return
        entry = live[which % len(live)]
        entry_bust(actor=self.floor, tournament=self.tournament, busted=[(entry.pk, 1_000)])

    @precondition(lambda self: self.tournament.clock_started)
    @rule()
    def pay_prizes(self):
        self.tournament.refresh_from_db()
        rules = getattr(self.tournament, "rules", None)
        if rules is None or rules.payouts_finalised_at is None:
            if self.tournament.clock_started:
                try:
                    payouts_finalise(actor=self.floor, tournament=self.tournament)
                except DomainError:
                    return
            return
        for entry in self.tournament.entries.filter(
            prize_cents__gt=0, prize_transaction__isnull=True, finish_place__isnull=False
        ):
            prize_pay(actor=self.cashier, entry=entry, shift=self.shift, idempotency_key=key())


@pytest.mark.long
def test_tournament_money_keeps_the_books__CAG_1_CAG_6_TRN_6_TRN_10(db):
    run_state_machine_as_test(TournamentBooks, settings=SETTINGS)
