"""Cash games: games and stakes (CSH-1, RAK-3, JKP-1, JKP-2), tables, player sessions with their
buy-ins, top-ups and cash-out (CSH-2..CSH-6), the hand log with rake and jackpot drop (RAK-1..RAK-4),
drop-box counts (RAK-5), bad-beat jackpot claims (JKP-3), waiting lists (CSH-7), the floor's
rulings log (FLR-5) and high-hand promotions (LOY-2).

Money is integer cents. The chips on a table live in the ledger account CHIPS_IN_PLAY owned by
"table:<CashTable id>"; the models here keep the game's own record and link to the cashier's
transactions and postings.

One module per responsibility. Every model is imported here, so Django finds them all and
`from cashgame.models import X` works for any of them.
"""

# isort: off
# The order of the old single module, so the app registry lists the models as before.
from cashgame.models.games import CashTable, Game, GameType, HousePlayers, TableStatus
from cashgame.models.sessions import STATE_ACTIONS, PlayerSession, SeatState, SessionEvent, SessionEventKind
from cashgame.models.hands import Hand, HandStatus, VoidReason
from cashgame.models.dropbox import DropBoxCount
from cashgame.models.jackpot import JackpotClaim, JackpotShare, ShareRole
from cashgame.models.waiting import (
    WAITING_STATUSES,
    QueueEvent,
    QueueLogEntry,
    WaitingEntry,
    WaitSource,
    WaitStatus,
)
from cashgame.models.rulings import Ruling
from cashgame.models.promotions import (
    HighHandAward,
    HighHandClaim,
    MinimumHand,
    PeriodStatus,
    Promotion,
    PromotionDrop,
    PromotionPeriod,
)

# isort: on

__all__ = [
    "STATE_ACTIONS",
    "WAITING_STATUSES",
    "CashTable",
    "DropBoxCount",
    "Game",
    "GameType",
    "Hand",
    "HandStatus",
    "HighHandAward",
    "HighHandClaim",
    "HousePlayers",
    "JackpotClaim",
    "JackpotShare",
    "MinimumHand",
    "PeriodStatus",
    "PlayerSession",
    "Promotion",
    "PromotionDrop",
    "PromotionPeriod",
    "QueueEvent",
    "QueueLogEntry",
    "Ruling",
    "SeatState",
    "SessionEvent",
    "SessionEventKind",
    "ShareRole",
    "TableStatus",
    "VoidReason",
    "WaitSource",
    "WaitStatus",
    "WaitingEntry",
]
