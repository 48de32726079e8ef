"""The tournaments app's models, one module per part of the game; every name is importable from
`tournaments.models` as before.

- structures: blind structure templates and their levels (TRN-7)
- tournament: tournaments, their own levels, the clock (TRN-8), rules and outcomes
- seating: tables and move slips (TRN-9)
- entries: entries and what each paid (TRN-2, TRN-6)
- payouts: the finalised places (TRN-10) and bounty awards
- colour_up: the chip races of colour-ups (CHP-1)
- tickets: tickets won in satellites or granted, seats in a target tournament (SER-1)
"""

from tournaments.models.colour_up import ColourUpRace
from tournaments.models.entries import (
    COUNTED_STATUSES,
    Entry,
    EntryKind,
    EntryPayment,
    EntryPaymentKind,
    EntryStatus,
)
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
    "BlindStructure",
    "BountyAward",
    "BountyReason",
    "ColourUpRace",
    "Entry",
    "EntryKind",
    "EntryPayment",
    "EntryPaymentKind",
    "EntryStatus",
    "GuaranteeMode",
    "GuaranteeOutcome",
    "LevelFields",
    "LevelKind",
    "MoveReason",
    "MoveSlip",
    "PayoutPlace",
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
