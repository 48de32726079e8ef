"""The tournaments app's models, one module per part of the game; every name is importable from
`tournaments.models` as before.

- structures: blind structure templates and their levels (TRN-7)
- tournament: tournaments, their own levels, the clock (TRN-8), rules and outcomes
- seating: tables and move slips (TRN-9)
- entries: entries and what each paid (TRN-2, TRN-6)
- payouts: the finalised places (TRN-10) and bounty awards
- colour_up: the chip races of colour-ups (CHP-1)
- counts: the chip counts taken during play
- hand_for_hand: the tables' reports of hand-for-hand play (SER-3)
- events: multi-day events, their flights' bags and the Day 2 (SER-2)
- tickets: tickets won in satellites or granted, seats in a target tournament (SER-1)
"""

from tournaments.models.colour_up import ColourUpRace
from tournaments.models.counts import ChipCount
from tournaments.models.entries import (
    COUNTED_STATUSES,
    Entry,
    EntryKind,
    EntryPayment,
    EntryPaymentKind,
    EntryStatus,
)
from tournaments.models.events import Bag, BagRule, Event, FlightAcceptance, PoolTransfer
from tournaments.models.hand_for_hand import HandReport
from tournaments.models.payouts import BountyAward, BountyReason, PayoutPlace
from tournaments.models.seating import MoveReason, MoveSlip, Table, TableStatus
from tournaments.models.structures import (
    MAX_LEVEL_MINUTES,
    MAX_LEVELS,
    MIN_LEVEL_MINUTES,
    BlindStructure,
    LevelFields,
    LevelKind,
    StructureLevel,
)
from tournaments.models.tickets import Ticket, TicketSource, TicketStatus
from tournaments.models.tournament import (
    CLOCK_RUNNING,
    CLOCK_STARTED,
    TRANSITIONS,
    GuaranteeMode,
    GuaranteeOutcome,
    Tournament,
    TournamentLevel,
    TournamentRules,
    TournamentStatus,
)

__all__ = [
    "CLOCK_RUNNING",
    "CLOCK_STARTED",
    "COUNTED_STATUSES",
    "MAX_LEVELS",
    "MAX_LEVEL_MINUTES",
    "MIN_LEVEL_MINUTES",
    "TRANSITIONS",
    "Bag",
    "BagRule",
    "BlindStructure",
    "BountyAward",
    "BountyReason",
    "ChipCount",
    "ColourUpRace",
    "Entry",
    "EntryKind",
    "EntryPayment",
    "EntryPaymentKind",
    "EntryStatus",
    "Event",
    "FlightAcceptance",
    "GuaranteeMode",
    "GuaranteeOutcome",
    "HandReport",
    "LevelFields",
    "LevelKind",
    "MoveReason",
    "MoveSlip",
    "PayoutPlace",
    "PoolTransfer",
    "StructureLevel",
    "Table",
    "TableStatus",
    "Ticket",
    "TicketSource",
    "TicketStatus",
    "Tournament",
    "TournamentLevel",
    "TournamentRules",
    "TournamentStatus",
]
