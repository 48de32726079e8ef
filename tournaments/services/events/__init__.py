"""Multi-day events (SER-2): the event and its days, bag and tag at the end of a flight, a
manager's acceptance of a difference, and the Day 2 draw.

- setup: the event with its house options, its Day-1 flights and its Day 2
- bags: a flight's end, bag and tag, the void bags, a manager's acceptance of a difference
- day_two: the Day 2 drawn from the bags, with the event's prize pool and guarantee

Locks: a write locks the event row first, then the tournaments it touches in primary-key
order (lock_tournament), so two tablets bagging two flights of one event queue on the event.

The prize pool is the event's. When the Day 2 is drawn each flight's prize pool moves into the
Day 2's by one ledger posting (Dr the flight's prize pool, Cr the Day 2's), recorded as a
PoolTransfer: the Day 2 then pays out from its own account through the ordinary payout and
guarantee code (TRN-5, TRN-10), each account ends at zero, and the books tie each pool to its
entries plus what moved in, less what moved out.
"""

from tournaments.services.events._common import RULE, lock_event
from tournaments.services.events.bags import BagCount, bags_record, flight_difference_accept, flight_end
from tournaments.services.events.day_two import day_two_draw
from tournaments.services.events.setup import event_create, event_day_two_set, event_flight_add

__all__ = [
    "RULE",
    "BagCount",
    "bags_record",
    "day_two_draw",
    "event_create",
    "event_day_two_set",
    "event_flight_add",
    "flight_difference_accept",
    "flight_end",
    "lock_event",
]
