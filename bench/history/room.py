"""The room the history generator simulates: ids, accounts, the ledger, cashier shifts and
transactions (with PLY-2 respected), players and the audit trail. The cash tables and the
tournaments (cash.py, tourneys.py) post through it exactly what the live services post.

Times are whole seconds since the epoch (UTC); money is integer cents.
"""

import bisect
import itertools
import json
import random
from dataclasses import dataclass, field
from datetime import date, datetime

from bench.history.specs import specs
from bench.history.writer import Writer, iso
from cashier.models import AccountKind, PaymentMethod, TransactionKind

KIND_LABELS = {kind.value: str(kind.label) for kind in TransactionKind}
CASH_IN = {"cash_buy_in", "top_up", "tournament_buy_in", "re_entry", "rebuy", "add_on"}

FIRST_NAMES = (  # noqa: SIM905 - easier to read and edit as one line of names
    "Ján Peter Martin Tomáš Michal Lukáš Jakub Marek Juraj Milan Pavol Róbert Filip Adam Dávid Matej Roman "
    "Ivan Igor Viktor Anna Mária Eva Zuzana Lucia Katarína Jana Veronika Petra Monika Simona Barbora Lenka"
).split()
LAST_NAMES = (  # noqa: SIM905
    "Horváth Kováč Varga Tóth Nagy Baláž Szabó Molnár Balog Lukáč Novák Kollár Polák Oravec Kučera Král "
    "Hudák Gajdoš Blaho Sloboda Mráz Šimko Vlček Marko Jurík Hruška Bartoš Kráľ Medveď Zajac Holub Urban "
    "Čierny Biely Múdry Kubík Fekete Lakatoš Rusnák Gregor Krajčí Sedlák Dudáš Klein Weiss Schwarz"
).split()


@dataclass
class ShiftPlan:
    id: int
    cashier: int
    cashier_name: str
    drawer: int
    opened: int
    closed: int
    moves: list[tuple[int, int]] = field(default_factory=list)  # (time, +cash in / -cash out)


class Ids:
    """The next id of each table, counted on from what the database holds."""

    def __init__(self, start: dict[str, int]):
        self.counters = {name: itertools.count(value) for name, value in start.items()}

    def __call__(self, name: str) -> int:
        return next(self.counters[name])


class Room:
    def __init__(self, *, writer: Writer, rng: random.Random, ids: Ids, accounts: dict, staff: dict, venue):
        self.w = writer
        self.s = specs()
        self.rng = rng
        self.ids = ids
        self.accounts = accounts  # kind -> id, ("chips", table id) -> id
        self.staff = staff  # "cashiers": [(id, name)], "floor": [(id, name)], "manager": (id, name)
        self.threshold = venue.aml_threshold_cents
        self.chip = venue.smallest_chip_cents
        self.balances: dict[int, int] = {}
        self.jackpot = 0  # the fund's balance (cents)
        self.verified: dict[int, int | None] = {}  # player -> time the ID was verified (None: never)
        self.verified_late: dict[int, int] = {}  # verified during the history (written at the end)
        self.excluded: set[int] = set()
        self.busy_until: dict[int, int] = {}
        self.cash_today: dict[int, int] = {}
        self.receipt = 0
        self.transactions: list[tuple] = []  # the day's, written sorted by time
        self.shifts: list[ShiftPlan] = []
        self.stats: dict[str, int] = dict.fromkeys(("hands", "tournaments", "entries", "claims"), 0)

    # Players ---------------------------------------------------------------------------------

    def players_create(self, *, count: int, first_day: date, start_id: int, created: int) -> None:
        """`count` players: regulars, weekly players and occasional visitors (the weights of the
        draw), about half with a verified ID; a few excluded (PLY-1), never seated."""
        from players.models import normalize

        rng = self.rng
        self.player_ids, weights = [], []
        for n in range(count):
            pid = start_id + n
            first, last = rng.choice(FIRST_NAMES), rng.choice(LAST_NAMES)
            roll = rng.random()
            weight = 60 if roll < 0.03 else 12 if roll < 0.18 else 3 if roll < 0.45 else 1
            verified = created if rng.random() < (0.9 if weight >= 12 else 0.35) else None
            excluded = rng.random() < 0.004
            self.w.add(
                self.s["player"],
                (
                    pid,
                    first,
                    last,
                    "",
                    date(1950 + rng.randrange(52), 1 + rng.randrange(12), 1 + rng.randrange(28)),
                    f"9{pid:08d}",
                    "id_card",
                    f"HX{pid:08d}",
                    verified,
                    "self_excluded" if excluded else "none",
                    first_day if excluded else None,
                    normalize(first),
                    normalize(last),
                    "",
                    created,
                    created,
                ),
            )
            self.verified[pid] = verified
            if excluded:
                self.excluded.add(pid)
            else:
                self.player_ids.append(pid)
                weights.append(weight)
        self.cumulative = list(itertools.accumulate(weights))

    def player_pick(self, t: int, busy_until: int) -> int | None:
        """A player free at `t` (not seated elsewhere, not excluded); he is then busy until."""
        total = self.cumulative[-1]
        for _attempt in range(12):
            pid = self.player_ids[bisect.bisect_right(self.cumulative, self.rng.random() * total)]
            if self.busy_until.get(pid, 0) <= t:
                self.busy_until[pid] = busy_until
                return pid
        return None

    def player_any(self) -> int:
        """A player for a tournament (drawn by the same weights, seated or not)."""
        return self.player_ids[bisect.bisect_right(self.cumulative, self.rng.random() * self.cumulative[-1])]

    # The ledger ------------------------------------------------------------------------------

    def post(self, t: int, user: int | None, description: str, lines: list[tuple[int, int]]) -> int:
        """One balanced posting; zero lines are dropped, as ledger_post does."""
        posting = self.ids("posting")
        self.w.add(self.s["posting"], (posting, t, user, description))
        entry, spec, balances = self.ids, self.s["entry"], self.balances
        total = 0
        for account, amount in lines:
            if amount:
                self.w.add(spec, (entry("entry"), posting, account, amount, t))
                balances[account] = balances.get(account, 0) + amount
                total += amount
        assert total == 0, description
        return posting

    def shift_at(self, t: int) -> ShiftPlan:
        for shift in self.shifts:
            if shift.opened <= t < shift.closed:
                return shift
        return self.shifts[-1] if t >= self.shifts[-1].opened else self.shifts[0]

    def transact(
        self,
        t: int,
        kind: str,
        *,
        player: int | None,
        amount: int,
        lines_for,
        method: str = PaymentMethod.CASH,
        reference: str = "",
    ) -> int:
        """A cashier transaction in the shift open at `t`: its posting, and the receipt numbered
        at the end of the day in time order. A player reaching the PLY-2 threshold in cash has
        his ID verified first, as the cashier must."""
        shift = self.shift_at(t)
        money = shift.drawer if method == PaymentMethod.CASH else self.accounts[AccountKind.CARD_CLEARING]
        posting = self.post(t, shift.cashier, KIND_LABELS[kind], lines_for(money))
        tid = self.ids("transaction")
        self.transactions.append(
            (t, tid, kind, shift.id, shift.cashier, player, amount, method, posting, reference)
        )
        if method == PaymentMethod.CASH:
            shift.moves.append((t, amount if kind in CASH_IN else -amount))
            if player is not None:
                total = self.cash_today.get(player, 0) + amount
                self.cash_today[player] = total
                if total >= self.threshold and self.verified.get(player) is None:
                    self.verified[player] = self.verified_late[player] = t - 60
        return tid

    def audit(
        self,
        t: int,
        actor: tuple[int, str] | None,
        action: str,
        object_type: str,
        object_id,
        repr_: str,
        after,
    ) -> None:
        self.w.add(
            self.s["audit"],
            (
                self.ids("audit"),
                t,
                actor[0] if actor else None,
                actor[1] if actor else "system",
                action,
                object_type,
                str(object_id),
                repr_,
                None,
                json.dumps(after, ensure_ascii=False) if after is not None else None,
            ),
        )

    def account(self, kind: str, owner: str, name: str) -> int:
        account = self.ids("account")
        self.w.add(self.s["account"], (account, kind, owner, name))
        return account

    # The day's cage --------------------------------------------------------------------------

    def day_open(self, day_start: int) -> None:
        """Two shifts: 10:00-20:00 and 20:00 until just before the gaming day ends."""
        self.transactions, self.cash_today = [], {}
        cashiers = self.staff["cashiers"]
        rotation = (day_start // 86400) % len(cashiers)
        self.shifts = []
        for n, (opened, closed) in enumerate(((4 * 3600, 14 * 3600), (14 * 3600, 24 * 3600 - 90))):
            cashier, name = cashiers[(rotation + n) % len(cashiers)]
            shift_id = self.ids("shift")
            drawer = self.account(
                AccountKind.DRAWER, f"drawer:h{shift_id:012d}", f"Drawer of shift {shift_id} ({name})"
            )
            self.shifts.append(
                ShiftPlan(shift_id, cashier, name, drawer, day_start + opened, day_start + closed)
            )

    def day_close(self) -> None:
        """Floats sized to the day's busiest moment, counts with an occasional variance (CAG-3),
        and the day's transactions numbered in time order (CAG-4)."""
        rng, vault = self.rng, self.accounts[AccountKind.VAULT]
        for shift in self.shifts:
            running, lowest = 0, 0
            for _t, move in sorted(shift.moves):
                running += move
                lowest = min(lowest, running)
            opening = max(300_000, (-lowest + 200_000) // 10_000 * 10_000)
            self.post(
                shift.opened,
                shift.cashier,
                f"Opening float, shift {shift.id}",
                [(shift.drawer, opening), (vault, -opening)],
            )
            expected = opening + running
            variance = 0 if rng.random() < 0.9 else rng.choice((-1, 1)) * self.chip * rng.randint(1, 40)
            counted = max(0, expected + variance)
            variance = counted - expected
            self.post(
                shift.closed,
                shift.cashier,
                f"Close shift {shift.id}: counted drawer to vault",
                [
                    (vault, counted),
                    (shift.drawer, -expected),
                    (self.accounts[AccountKind.CASH_VARIANCE], -variance),
                ],
            )
            self.w.add(
                self.s["shift"],
                (
                    shift.id,
                    shift.cashier,
                    "closed",
                    shift.opened,
                    opening,
                    shift.drawer,
                    shift.closed,
                    expected,
                    counted,
                    variance,
                ),
            )
            who = (shift.cashier, shift.cashier_name)
            self.audit(
                shift.opened,
                who,
                "shift.open",
                "cashier.shift",
                shift.id,
                f"Shift #{shift.id} {shift.cashier_name}",
                {"status": "open", "opening_float_cents": opening},
            )
            self.audit(
                shift.closed,
                who,
                "shift.close",
                "cashier.shift",
                shift.id,
                f"Shift #{shift.id} {shift.cashier_name}",
                {
                    "status": "closed",
                    "expected_cents": expected,
                    "counted_cents": counted,
                    "variance_cents": variance,
                    "closed_at": iso(shift.closed),
                },
            )
        spec = self.s["transaction"]
        for t, tid, kind, shift_id, cashier, player, amount, method, posting, reference in sorted(
            self.transactions
        ):
            self.receipt += 1
            self.w.add(
                spec,
                (
                    tid,
                    self.receipt,
                    kind,
                    shift_id,
                    cashier,
                    player,
                    amount,
                    method,
                    posting,
                    reference,
                    f"history-{tid}",
                    t,
                ),
            )

    def epoch(self, moment: datetime) -> int:
        return int(moment.timestamp())
