"""CAG-1, CAG-6, CSH-1, CSH-3, CHP-2: random sequences of buy-ins, top-ups, hands, cash-outs and
reversals of purchases and cash-outs at a cash table, some of them invalid, through the desk's
door and the cash game's own services; the books, the chips with them, agree after every step
(tests/cage/books_machine.py)."""

from functools import partial

import pytest
from hypothesis import strategies as st
from hypothesis.stateful import initialize, precondition, rule, run_state_machine_as_test

from cage.services import DeskRequest, correction_approve, correction_request
from cardroom.errors import DomainError
from cashgame.models import Hand, HandStatus, PlayerSession, SeatState
from cashgame.services.hands import hand_end, hand_flop, hand_start
from cashgame.services.sessions import session_seat, session_state_change, session_top_up
from cashier.models import AccountKind, CashierTransaction
from cashier.selectors import account_amount
from tests.cage.books_machine import PLAYERS, SETTINGS, Books, key

pytestmark = pytest.mark.django_db
# The house's smallest cash-game chip: a cash-out is counted in chips (CHP-2).
SMALLEST_CHIP = 50


class CashBooks(Books):
    """Buy-ins, top-ups, hands, cash-outs and reversals at the cash table, which starts with
    three players in play."""

    @initialize()
    def players_in_play(self):
        self.room()
        for seat, player in enumerate(self.players[:3], start=1):
            self.door(
                DeskRequest(
                    kind="cash_buy_in",
                    player_id=player.pk,
                    amount_cents=20_000,
                    table_id=self.table.pk,
                    seat=seat,
                )
            )()
            session_state_change(actor=self.floor, session=self.session_of(player), action="posted")

    def open_sessions(self, **filters):
        return list(
            PlayerSession.objects.filter(table=self.table, ended_at__isnull=True, **filters).order_by("pk")
        )

    @rule(
        who=st.integers(0, PLAYERS - 1),
        seat=st.integers(1, 9),
        amount=st.sampled_from([10_000, 15_000, 20_050, 30_000, 10_000, 25_000, 9_999, 30_001]),
    )
    def buy_in(self, who, seat, amount):
        player = self.players[who]
        request = DeskRequest(
            kind="cash_buy_in", player_id=player.pk, amount_cents=amount, table_id=self.table.pk, seat=seat
        )
        call = self.door(request)
        taken = PlayerSession.objects.filter(table=self.table, seat=seat, ended_at__isnull=True).first()
        mine = self.session_of(player)
        waiting = mine is not None and mine.state == SeatState.AWAITING_BUY_IN
        if mine is not None and not waiting:
            self.refused(call, "already_seated")
        elif waiting and mine.seat != seat:
            self.refused(call, "seat_mismatch")
        elif mine is None and taken is not None:
            self.refused(call, "seat_taken")
        elif not 10_000 <= amount <= 30_000:
            self.refused(call, "buy_in_below_minimum", "buy_in_above_maximum")
        else:
            call()
            assert self.session_of(player).buy_in_cents == amount

    @rule(who=st.integers(0, PLAYERS - 1), seat=st.integers(1, 9))
    def seat_for_the_cage(self, who, seat):
        player = self.players[who]
        taken = PlayerSession.objects.filter(table=self.table, seat=seat, ended_at__isnull=True).exists()
        if self.session_of(player) is None and not taken:
            session_seat(actor=self.floor, table=self.table, player=player, seat=seat)

    @precondition(
        lambda self: PlayerSession.objects.filter(
            state=SeatState.WAITING_FOR_BUTTON, ended_at__isnull=True
        ).exists()
    )
    @rule(which=st.integers(0, 100))
    def post_blinds(self, which):
        waiting = self.open_sessions(state=SeatState.WAITING_FOR_BUTTON)
        session_state_change(actor=self.floor, session=waiting[which % len(waiting)], action="posted")

    @precondition(
        lambda self: PlayerSession.objects.filter(state=SeatState.PLAYING, ended_at__isnull=True).exists()
    )
    @rule(
        which=st.integers(0, 100), amount=st.sampled_from([1_000, 5_000, 10_000, 25_000]), door=st.booleans()
    )
    def top_up(self, which, amount, door):
        playing = self.open_sessions(state=SeatState.PLAYING)
        session = playing[which % len(playing)]
        chips = 10_000
        if door:
            request = DeskRequest(
                kind="top_up", player_id=session.player_id, amount_cents=amount, chips_on_table_cents=chips
            )
            call = self.door(request)
        else:
            call = partial(
                session_top_up,
                actor=self.cashier,
                shift=self.shift,
                session=session,
                amount_cents=amount,
                chips_on_table_cents=chips,
                idempotency_key=key(),
            )
        if self.hand() is not None:
            self.refused(call, "hand_in_progress")  # CSH-3, through every door
        elif chips + amount > 30_000:
            self.refused(call, "top_up_above_maximum")
        else:
            call()

    @rule(which=st.integers(0, 100), stranger=st.booleans(), share=st.integers(1, 100))
    def cash_out(self, which, stranger, share):
        seated = self.open_sessions()
        if stranger or not seated:
            player = self.players[which % PLAYERS]
        else:
            player = seated[which % len(seated)].player
        session = self.session_of(player)
        in_play = account_amount(kind=AccountKind.CHIPS_IN_PLAY, owner=self.table.reference)
        amount = max(SMALLEST_CHIP, in_play * share // 100 // SMALLEST_CHIP * SMALLEST_CHIP)
        if session is not None and not [s for s in seated if s.pk != session.pk]:
            amount = in_play  # the last player at the table takes what is left
        call = self.door(DeskRequest(kind="cash_out", player_id=player.pk, amount_cents=amount))
        hand = self.hand()
        if session is None:
            self.refused(call, "no_session")  # never seated: nothing to cash out (CAG-6)
        elif hand is not None and session.seat in hand.dealt_seats:
            self.refused(call, "in_hand")
        elif amount <= 0:
            self.refused(call, "nothing_to_pay")  # an empty table: nothing moves (CSH-2)
        elif amount % SMALLEST_CHIP:
            # The odd pots this machine deals left cents no chip makes: the cage counts chips (CHP-2).
            self.refused(call, "not_in_chips")
        elif amount > in_play:
            self.refused(call, "insufficient_balance")
        else:
            call()
            assert self.session_of(player) is None

    @precondition(
        lambda self: (
            not Hand.objects.filter(status=HandStatus.IN_PROGRESS).exists()
            and PlayerSession.objects.filter(state=SeatState.PLAYING, ended_at__isnull=True).count() >= 2
        )
    )
    @rule()
    def deal(self):
        playing = self.open_sessions(state=SeatState.PLAYING)
        hand_start(actor=self.floor, table=self.table, seats=[s.seat for s in playing])

    @precondition(lambda self: Hand.objects.filter(status=HandStatus.IN_PROGRESS).exists())
    @rule(flop=st.booleans(), share=st.integers(1, 100), too_much=st.booleans())
    def end_hand(self, flop, share, too_much):
        hand = self.hand()
        if flop:
            hand_flop(actor=self.floor, hand=hand)
        in_play = account_amount(kind=AccountKind.CHIPS_IN_PLAY, owner=self.table.reference)
        if too_much:  # a pot beyond every chip at the table (CSH-4)
            self.refused(
                partial(hand_end, actor=self.floor, hand=hand, pot_cents=in_play + 1),
                "pot_exceeds_chips_in_play",
            )
        elif in_play == 0:  # everything was cashed out meanwhile: no pot can be right
            self.refused(
                partial(hand_end, actor=self.floor, hand=hand, pot_cents=1), "pot_exceeds_chips_in_play"
            )
        else:
            hand_end(actor=self.floor, hand=hand, pot_cents=max(1, in_play * share // 100))

    @rule(which=st.integers(0, 1000))
    def reverse_a_cash_purchase(self, which):
        records = list(
            CashierTransaction.objects.filter(
                kind__in=["cash_buy_in", "top_up"], posting__reversed_by__isnull=True
            )
        )
        if not records:
            return
        record = records[which % len(records)]
        try:
            request = correction_request(actor=self.manager, posting=record.posting, reason="Typed wrong")
        except DomainError as error:
            assert error.code in ("chips_have_played", "already_reversed", "reversal_pending", "shift_closed")
            return
        correction_approve(actor=self.manager2, request=request)

    @rule(which=st.integers(0, 1000))
    def reverse_a_cash_out(self, which):
        """The player is back in the seat with the chips the cage gives back (CAG-6, CHP-2)."""
        records = list(CashierTransaction.objects.filter(kind="cash_out", posting__reversed_by__isnull=True))
        if not records:
            return
        record = records[which % len(records)]
        try:
            request = correction_request(actor=self.manager, posting=record.posting, reason="Wrong player")
        except DomainError as error:
            assert error.code in ("seat_not_free", "already_reversed", "reversal_pending", "shift_closed")
            return
        correction_approve(actor=self.manager2, request=request)


@pytest.mark.long
def test_cash_game_money_keeps_the_books__CAG_1_CAG_6_CSH_1_CSH_3(db):
    run_state_machine_as_test(CashBooks, settings=SETTINGS)
