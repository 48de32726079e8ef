"""The audit trail's actions and its notes in the reader's language.

A service records its action as a code ("shift.close", "cashier.top_up"); the trail shows it by
its label here ("Shift closed"), in the page's language, and keeps the code for the filter's
address only. tests/cardroom/test_audit_actions.py fails on an action a service writes that has
no label. A note the services write themselves ("end of level 3") is shown translated too; a
note staff typed is shown as typed.
"""

import re

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

ACTION_LABELS = {
    # Tournaments
    "tournament.create": gettext_lazy("Tournament created"),
    "tournament.open_registration": gettext_lazy("Registration opened"),
    "tournament.rules_update": gettext_lazy("Tournament's rules changed"),
    "tournament.postpone": gettext_lazy("Start postponed"),
    "tournament.level_update": gettext_lazy("Tournament's level changed"),
    "tournament.registration_closed": gettext_lazy("Registration closed"),
    "tournament.registration_reopened": gettext_lazy("Registration reopened"),
    "tournament.rebuys_closed": gettext_lazy("Rebuys closed"),
    "tournament.add_ons_closed": gettext_lazy("Add-ons closed"),
    "tournament.guarantee_decided": gettext_lazy("Guarantee decided"),
    "tournament.colour_up_race": gettext_lazy("Colour-up race recorded"),
    "tournament.chip_counts": gettext_lazy("Chip counts entered"),
    "tournament.payout_table": gettext_lazy("Payout table changed"),
    "tournament.payouts_finalised": gettext_lazy("Payouts finalised"),
    "tournament.places": gettext_lazy("Places given"),
    "tournament.hand_for_hand_on": gettext_lazy("Hand for hand started"),
    "tournament.hand_for_hand_off": gettext_lazy("Hand for hand ended"),
    "tournament.hand_done": gettext_lazy("Table's hand-for-hand hand done"),
    "tournament.hand_for_hand_next": gettext_lazy("Next hand-for-hand hand started"),
    "tournament.deal": gettext_lazy("Deal accepted"),
    "tournament.finish": gettext_lazy("Tournament finished"),
    "tournament.cancel": gettext_lazy("Tournament cancelled"),
    "tournament.refunds_owed": gettext_lazy("Refunds owed"),
    "tournament.satellite": gettext_lazy("Satellite's target set"),
    "ticket.issue": gettext_lazy("Ticket issued to a seat winner"),
    "ticket.grant": gettext_lazy("Ticket given"),
    "ticket.use": gettext_lazy("Ticket used for an entry"),
    "ticket.given_back": gettext_lazy("Ticket given back (entry withdrawn)"),
    "ticket.refund": gettext_lazy("Ticket refunded"),
    "ticket.refund_paid": gettext_lazy("Ticket refund paid"),
    "ticket.expire": gettext_lazy("Ticket expired"),
    "event.create": gettext_lazy("Multi-day event created"),
    "event.flight_add": gettext_lazy("Flight added to an event"),
    "event.day_two_set": gettext_lazy("Day 2 named"),
    "event.flight_end": gettext_lazy("Flight's day ended"),
    "event.bag_difference_accept": gettext_lazy("Bags' difference accepted"),
    "event.day_two_draw": gettext_lazy("Day 2 drawn"),
    "bag.record": gettext_lazy("Bag recorded"),
    "bag.correct": gettext_lazy("Bag corrected"),
    "bag.void": gettext_lazy("Bag void (another bag goes through)"),
    "bag.restore": gettext_lazy("Bag goes through again"),
    "league.create": gettext_lazy("League created"),
    "league.update": gettext_lazy("League changed"),
    "league.tournaments": gettext_lazy("League's tournaments changed"),
    "structure.create": gettext_lazy("Blind structure created"),
    "structure.update": gettext_lazy("Blind structure changed"),
    "clock.start": gettext_lazy("Clock started"),
    "clock.pause": gettext_lazy("Clock paused"),
    "clock.resume": gettext_lazy("Clock resumed"),
    "clock.rise": gettext_lazy("Level rose"),
    "clock.next_level": gettext_lazy("Clock moved to the next level"),
    "clock.previous_level": gettext_lazy("Clock moved back a level"),
    "clock.add_time": gettext_lazy("Time added or taken off"),
    "clock.level_duration": gettext_lazy("Level's length changed"),
    "clock.last_level_open": gettext_lazy("Last level runs on"),
    "entry.register": gettext_lazy("Player registered"),
    "entry.present": gettext_lazy("Player marked present"),
    "entry.rebuy": gettext_lazy("Rebuy"),
    "entry.add_on": gettext_lazy("Add-on"),
    "entry.withdraw": gettext_lazy("Entry withdrawn"),
    "entry.bust": gettext_lazy("Bust-out recorded"),
    "entry.bust_undo": gettext_lazy("Bust-out undone"),
    "entry.winner": gettext_lazy("Winner recorded"),
    "entry.prize_paid": gettext_lazy("Prize paid"),
    "entry.bounty_paid": gettext_lazy("Bounty paid"),
    "entry.refund_paid": gettext_lazy("Refund paid"),
    "entry.prize_due_again": gettext_lazy("Prize due again"),
    "entry.bounty_due_again": gettext_lazy("Bounty due again"),
    "entry.refund_due_again": gettext_lazy("Refund due again"),
    "bounty.award": gettext_lazy("Bounty awarded"),
    "bounty.award_undo": gettext_lazy("Bounty award undone"),
    "bounty.award_lapse": gettext_lazy("Bounty award lapsed"),
    "seating.draw": gettext_lazy("Seats drawn"),
    "seating.seat": gettext_lazy("Player seated at the tournament"),
    "seating.late": gettext_lazy("New table for late entries"),
    "seating.open": gettext_lazy("Players moved to a new table opened by the floor"),
    "seating.table_open": gettext_lazy("New table opened by the floor"),
    "seating.slips_called_off": gettext_lazy("Waiting moves called off"),
    "seating.balance": gettext_lazy("Tables balanced"),
    "seating.break": gettext_lazy("Table broken, its players moved"),
    "seating.break_table": gettext_lazy("Table broken"),
    "seating.final": gettext_lazy("Final table drawn"),
    "seating.close_empty": gettext_lazy("Empty table closed"),
    "seating.slip_confirmed": gettext_lazy("Move slip confirmed"),
    "seating.slips_confirmed": gettext_lazy("Move slips confirmed"),
    "seating.button_draw": gettext_lazy("Button drawn"),
    "seating.button_set": gettext_lazy("Button placed"),
    # Cash games
    "cashgame.game_create": gettext_lazy("Cash game created"),
    "cashgame.game_update": gettext_lazy("Cash game changed"),
    "cashgame.table_create": gettext_lazy("Table created"),
    "cashgame.table_open": gettext_lazy("Table opened"),
    "cashgame.table_close": gettext_lazy("Table closed"),
    "cashgame.table_house_players": gettext_lazy("House players at the table changed"),
    "cashgame.session_seat": gettext_lazy("Player seated"),
    "cashgame.session_buy_in": gettext_lazy("Buy-in at the table"),
    "cashgame.session_top_up": gettext_lazy("Top-up at the table"),
    "cashgame.session_cash_out": gettext_lazy("Player left the table"),
    "cashgame.session_move": gettext_lazy("Player moved to another seat"),
    "cashgame.session_release": gettext_lazy("Seat given up"),
    "cashgame.session_state": gettext_lazy("Seat's state changed"),
    "cashgame.session_correct": gettext_lazy("Player's session corrected"),
    "cashgame.must_move": gettext_lazy("Must-move player moved to the main game"),
    "cashgame.hand_end": gettext_lazy("Hand ended"),
    "cashgame.hand_void": gettext_lazy("Hand voided"),
    "cashgame.dropbox_count": gettext_lazy("Drop box counted"),
    "cashgame.jackpot_claim": gettext_lazy("Jackpot claim recorded"),
    "cashgame.jackpot_share_pay": gettext_lazy("Jackpot share paid"),
    "cashgame.jackpot_share_due_again": gettext_lazy("Jackpot share due again"),
    "cashgame.promotion_create": gettext_lazy("High-hand promotion created"),
    "cashgame.promotion_update": gettext_lazy("High-hand promotion changed"),
    "cashgame.high_hand_claim": gettext_lazy("High hand claimed"),
    "cashgame.high_hand_award": gettext_lazy("High-hand period won"),
    "cashgame.high_hand_carry": gettext_lazy("High-hand prize carried over"),
    "cashgame.high_hand_pay": gettext_lazy("High-hand prize paid"),
    "cashgame.waiting_call": gettext_lazy("Player called from the waiting list"),
    "cashgame.waiting_pass": gettext_lazy("Missed call: taken off the list"),
    "cashgame.waiting_requeue": gettext_lazy("Missed call: moved to the end of the list"),
    "cashgame.waiting_remove": gettext_lazy("Taken off a waiting list"),
    "cashgame.waiting_join_remote": gettext_lazy("Joined a waiting list from a phone"),
    "cashgame.waiting_leave": gettext_lazy("Left a waiting list from a phone"),
    "cashgame.waiting_more_time": gettext_lazy("Asked for more time from a phone"),
    "cashgame.waiting_check_in": gettext_lazy("Player checked in on arrival"),
    "cashgame.waiting_phones_erase": gettext_lazy("Phone numbers erased"),
    "cashgame.interest_open": gettext_lazy("Table opened for an interest list"),
    # The cage
    "cashier.cash_buy_in": gettext_lazy("Cage: cash-game buy-in"),
    "cashier.top_up": gettext_lazy("Cage: top-up"),
    "cashier.cash_out": gettext_lazy("Cage: cash-out"),
    "cashier.tournament_buy_in": gettext_lazy("Cage: tournament buy-in"),
    "cashier.re_entry": gettext_lazy("Cage: re-entry"),
    "cashier.rebuy": gettext_lazy("Cage: rebuy"),
    "cashier.add_on": gettext_lazy("Cage: add-on"),
    "cashier.refund": gettext_lazy("Cage: refund"),
    "cashier.prize_payout": gettext_lazy("Cage: prize payout"),
    "cashier.bounty_payout": gettext_lazy("Cage: bounty payout"),
    "cashier.jackpot_payout": gettext_lazy("Cage: jackpot payout"),
    "cashier.high_hand_payout": gettext_lazy("Cage: high-hand prize payout"),
    "shift.open": gettext_lazy("Shift opened"),
    "shift.handover": gettext_lazy("Shift handed over"),
    "shift.close": gettext_lazy("Shift closed"),
    "shift.recount_asked": gettext_lazy("Drawer to be counted again"),
    "cashier.shift_count": gettext_lazy("Drawer counted"),
    "reversal.request": gettext_lazy("Correction asked for"),
    "reversal.approve": gettext_lazy("Correction approved"),
    "reversal.reject": gettext_lazy("Correction rejected"),
    "chips.receive": gettext_lazy("Chips brought into service"),
    "chips.transfer": gettext_lazy("Chips moved"),
    "chips.fill": gettext_lazy("Chip fill to a table"),
    "chips.credit": gettext_lazy("Chip credit from a table"),
    "chips.sale": gettext_lazy("Chips sold to a player"),
    "chips.redemption": gettext_lazy("Chips redeemed"),
    "chips.count": gettext_lazy("Chips counted"),
    # Players, dealers, tablets, the venue
    "player.create": gettext_lazy("Player added"),
    "player.update": gettext_lazy("Player's details changed"),
    "player.verify_id": gettext_lazy("ID document verified"),
    "player.exclude": gettext_lazy("Player excluded"),
    "player.exclusion_lift": gettext_lazy("Exclusion lifted"),
    "player.refused": gettext_lazy("Excluded player refused"),
    "player.export": gettext_lazy("Player's data exported"),
    "player.erase": gettext_lazy("Player's personal data erased"),
    "player.identity_read": gettext_lazy("Sealed identity read"),
    "player.identity_destroy": gettext_lazy("Sealed identity destroyed"),
    "dealer.create": gettext_lazy("Dealer added"),
    "dealer.clock_in": gettext_lazy("Dealer clocked in"),
    "dealer.clock_out": gettext_lazy("Dealer clocked out"),
    "dealer.send": gettext_lazy("Dealer sent to a table"),
    "dealer.relieved": gettext_lazy("Dealer relieved"),
    "dealer.push": gettext_lazy("Dealers' push"),
    "dealer.push_skipped": gettext_lazy("Dealers' push skipped"),
    "devices.pairing_code_create": gettext_lazy("Pairing code given"),
    "devices.device_pair": gettext_lazy("Tablet paired"),
    "devices.device_unpair": gettext_lazy("Tablet unpaired"),
    "devices.tablet_hand_start": gettext_lazy("Hand started on the tablet"),
    "devices.tablet_hand_flop": gettext_lazy("Flop marked on the tablet"),
    "venue.update": gettext_lazy("Venue settings changed"),
    "venue.create": gettext_lazy("Venue added"),
    "staff.role_grant": gettext_lazy("Role given in a venue"),
    "staff.role_revoke": gettext_lazy("Role taken away in a venue"),
    "report.export": gettext_lazy("Report exported"),
    # Loyalty (LOY-1)
    "ticket.loyalty": gettext_lazy("Ticket bought with loyalty points"),
    "loyalty.award": gettext_lazy("Loyalty points earned"),
    "loyalty.take_back": gettext_lazy("Loyalty points taken back"),
    "loyalty.expire": gettext_lazy("Loyalty points expired"),
    "loyalty.redeem": gettext_lazy("Loyalty points redeemed for a comp"),
    "loyalty.settings": gettext_lazy("Loyalty settings changed"),
    "loyalty.rate": gettext_lazy("Loyalty points rate changed"),
    "loyalty.tier": gettext_lazy("Loyalty tier saved"),
    "loyalty.tier_delete": gettext_lazy("Loyalty tier removed"),
    "loyalty.link_revoke": gettext_lazy("Player's private points link replaced"),
}

# Values of the "action" key the seat's state changes write (cashgame's STATE_ACTIONS).
SEAT_ACTION_LABELS = {
    "posted": gettext_lazy("Posted the blinds"),
    "button_passed": gettext_lazy("The button passed"),
    "sit_out": gettext_lazy("Sits out"),
    "missed_blinds": gettext_lazy("Missed the blinds"),
    "back": gettext_lazy("Back in play"),
}


def action_label(code: str) -> str:
    """An action by its label in the page's language; one the trail has no label for yet is
    "Other change", never its code."""
    label = ACTION_LABELS.get(code)
    return str(label) if label is not None else _("Other change")


# Notes the services write themselves, in English, and their text for the catalogue.
NOTE_PATTERNS = [
    (re.compile(r"^end of level (?P<level>\d+)$"), gettext_lazy("end of level %(level)s")),
    (re.compile(r"^level (?P<level>\d+)$"), gettext_lazy("level %(level)s")),
    (re.compile(r"^registration closed$"), gettext_lazy("registration closed")),
    (re.compile(r"^after the guarantee decision$"), gettext_lazy("after the guarantee decision")),
    (re.compile(r"^receipt (?P<receipt>\d+) reversed$"), gettext_lazy("receipt %(receipt)s reversed")),
    (re.compile(r"^(?P<seconds>[+-]\d+) s$"), gettext_lazy("%(seconds)s s")),
    (
        re.compile(r"^level (?P<level>\d+): (?P<old>\d+) s -> (?P<new>\d+) s$"),
        gettext_lazy("level %(level)s: %(old)s s → %(new)s s"),
    ),
    (
        re.compile(r"^The last level runs on without an end\.$"),
        gettext_lazy("The last level runs on without an end."),
    ),
    (re.compile(r"^left from (his|the player's) phone$"), gettext_lazy("left from the player's phone")),
    # Hand for hand (SER-3): the notes tournaments.services.hand_for_hand writes.
    (
        re.compile(r"^(?P<left>\d+) players left, (?P<paid>\d+) paid\.$"),
        gettext_lazy("%(left)s players left, %(paid)s paid."),
    ),
    (re.compile(r"^Called by the floor\.$"), gettext_lazy("Called by the floor.")),
    (re.compile(r"^Called off by the floor\.$"), gettext_lazy("Called off by the floor.")),
    (
        re.compile(r"^The bubble burst: hand for hand ends\.$"),
        gettext_lazy("The bubble burst: hand for hand ends."),
    ),
    (
        re.compile(r"^Hand for hand: every table finished hand (?P<round>\d+)\.$"),
        gettext_lazy("Hand for hand: every table finished hand %(round)s."),
    ),
    (
        re.compile(r"^Hand for hand: hand (?P<round>\d+) starts\.$"),
        gettext_lazy("Hand for hand: hand %(round)s starts."),
    ),
]


def note_text(note: str) -> tuple[str, bool]:
    """A record's note in the page's language, and whether it is the system's own text (True) or
    what staff typed (False, shown as typed)."""
    for pattern, text in NOTE_PATTERNS:
        match = pattern.match(note)
        if match:
            return str(text) % match.groupdict(), True
    return note, False
