"""Tournaments of one gaming day, posted as the tournament services post them: buy-ins and
re-entries split into prize pool and fee (TRN-6), the guarantee decided at the end of its level
on the distinct players (TRN-3, TRN-4), the overlay posted when the payouts become final (TRN-5),
prizes rounded to the chip and paid at the cage (TRN-10); too few players: cancelled and every
entry refunded (TRN-1, TRN-2)."""

from dataclasses import dataclass

from cashier.models import AccountKind, PaymentMethod
from poker.payouts import default_payout_percentages, payout_amounts


@dataclass(frozen=True)
class Template:
    name: str
    hour: float  # local start, hours after the gaming day's start
    prize: int
    fee: int
    entries: int  # typical field
    reentries: int
    guarantee: int = 0
    mode: str = "none"
    structure: str = "Regular"
    stack: int = 20_000


DAILY = Template("Daily Deepstack 50", 13.0, 4_500, 500, 48, 1, structure="Deep stack", stack=30_000)
FRIDAY = Template("Friday 2,000 GTD", 13.0, 4_500, 500, 60, 1, 200_000, "conditional", "Deep stack", 30_000)
LATE = Template("Late Night Turbo 25", 15.5, 2_250, 250, 26, 1, structure="Turbo", stack=15_000)
OMAHA = Template("Wednesday PLO 60", 14.0, 5_400, 600, 30, 1)
AFTERNOON = Template("Weekend Afternoon 30", 7.0, 2_700, 300, 38, 1, structure="Turbo", stack=15_000)
MAIN = Template("Weekend Main Event 150", 10.0, 13_500, 1_500, 105, 2, 1_000_000, "conditional")
FESTIVAL = Template(
    "Monthly Festival 300", 8.0, 27_000, 3_000, 230, 2, 4_000_000, "unconditional", "Deep stack", 40_000
)


def schedule(day) -> list[Template]:
    """The tournaments of a gaming day by its weekday (and the first Saturday's festival)."""
    weekday = day.weekday()
    templates = [FRIDAY if weekday == 4 else DAILY, LATE]
    if weekday == 2:
        templates.append(OMAHA)
    if weekday >= 5:
        templates += [AFTERNOON, MAIN]
    if weekday == 5 and day.day <= 7:
        templates.append(FESTIVAL)
    return templates


def tournament(
    room, *, template: Template, day_start: int, day_end: int, structure: dict, size: float
) -> None:
    rng, ids, w, s = room.rng, room.ids, room.w, room.s
    tid = ids("tournament")
    owner = f"tournament:{tid}"
    pool = room.account(AccountKind.PRIZE_POOL, owner, f"Tournament prize pool {owner}")
    fees = room.accounts[AccountKind.TOURNAMENT_FEES]
    start = day_start + int(template.hour * 3600)
    levels = structure["levels"]  # (kind, small, big, ante, bb_ante, note, seconds)
    ends, elapsed = [], start
    for level in levels:
        elapsed += level[6]
        ends.append(elapsed)
    late_level = 6 if len(ends) > 8 else 3
    registration_end = ends[min(late_level, len(ends)) - 1]
    guarantee_level = 3
    for order, (kind, small, big, ante, bb_ante, note, seconds) in enumerate(levels, start=1):
        w.add(s["level"], (ids("level"), tid, order, kind, small, big, ante, bb_ante, note, seconds))
    wanted = max(4, int(template.entries * size * rng.lognormvariate(0, 0.3)))
    players: list[int] = []
    chosen: set[int] = set()
    while len(players) < wanted:
        player = room.player_any()
        if player not in chosen:
            chosen.add(player)
            players.append(player)
    # Registrations (time, player, kind): most before the start, the rest during late registration.
    registrations = [
        (
            start - rng.randint(60, 3_600)
            if rng.random() < 0.75
            else rng.randint(start, registration_end - 60),
            p,
            "buy_in",
        )
        for p in players
    ]
    cancelled = sum(1 for at, _p, _k in registrations if at < start) < 9
    early_busts: dict[int, int] = {}
    if cancelled:
        registrations = [row for row in registrations if row[0] < start]
    elif template.reentries:
        # Some of those who sat down at the start bust early and re-enter before registration ends.
        for at, player, _kind in list(registrations):
            if at < start and rng.random() < 0.22:
                bust = rng.randint(start + 600, registration_end - 900)
                early_busts[player] = bust
                registrations.append((bust + rng.randint(60, 600), player, "re_entry"))
    registrations.sort()
    entry_rows = []
    for number, (at, player, kind) in enumerate(registrations, start=1):
        amount = template.prize + template.fee
        method = PaymentMethod.CARD if rng.random() < 0.1 else PaymentMethod.CASH
        transaction = room.transact(
            at,
            "tournament_buy_in" if kind == "buy_in" else "re_entry",
            player=player,
            amount=amount,
            method=method,
            reference=owner,
            lines_for=lambda money, amount=amount: [
                (money, amount),
                (pool, -template.prize),
                (fees, -template.fee),
            ],
        )
        entry_rows.append(
            {
                "id": ids("tentry"),
                "number": number,
                "player": player,
                "kind": kind,
                "at": at,
                "tx": transaction,
            }
        )
    room.stats["tournaments"] += 1
    room.stats["entries"] += len(entry_rows)
    if cancelled:
        _cancel(
            room,
            tid=tid,
            owner=owner,
            pool=pool,
            template=template,
            entries=entry_rows,
            start=start,
            day_end=day_end,
            structure=structure,
        )
        return
    # The guarantee (TRN-3, TRN-4): decided at the end of level 3 on the distinct players present.
    decided = ends[guarantee_level - 1]
    count = len({row["player"] for row in entry_rows if row["at"] < decided})
    outcome = ""
    if template.mode != "none":
        outcome = "held" if template.mode == "unconditional" or count >= 15 else "not_held"
    collected = template.prize * len(entry_rows)
    overlay = template.guarantee - collected if outcome == "held" and collected < template.guarantee else 0
    if overlay:
        room.post(
            registration_end,
            room.staff["manager"][0],
            f"Tournament {tid} guarantee overlay",
            [(room.accounts[AccountKind.OVERLAY_EXPENSE], overlay), (pool, -overlay)],
        )
    prize_pool = collected + overlay
    percentages = default_payout_percentages(len(entry_rows))
    amounts = payout_amounts(
        prize_pool_cents=prize_pool, percentages=percentages, smallest_chip_cents=room.chip
    )
    # Bust-outs: the early ones (no place, before registration closed), then the field in order.
    by_player_first = {}
    for row in entry_rows:
        by_player_first.setdefault(row["player"], row)
    alive = []
    for row in entry_rows:
        first = by_player_first[row["player"]]
        if row is first and row["player"] in early_busts:
            row["busted"] = early_busts[row["player"]]
        else:
            alive.append(row)
    finish = min(day_end - 1_800, registration_end + 900 + len(alive) * rng.randint(100, 200))
    finish = max(finish, registration_end + 600)
    rng.shuffle(alive)
    remaining = len(alive)
    bust_times = sorted(rng.randint(registration_end + 60, finish - 30) for _ in range(remaining - 1))
    sequence = 0
    for row in sorted((r for r in entry_rows if "busted" in r), key=lambda r: r["busted"]):
        sequence += 1
        row["bust_number"] = sequence
    for place, row in zip(range(remaining, 1, -1), alive, strict=False):
        sequence += 1
        row["busted"] = bust_times[remaining - place]
        row["bust_number"], row["place"] = sequence, place
    alive[-1]["place"], alive[-1]["winner"] = 1, True
    floor = room.staff["floor"][0]
    for row in entry_rows:
        place = row.get("place")
        prize = amounts[place - 1] if place and place <= len(amounts) else None
        prize_tx = None
        if prize:
            paid = min(day_end - 120, (row.get("busted") or finish) + rng.randint(60, 600))
            prize_tx = room.transact(
                paid,
                "prize_payout",
                player=row["player"],
                amount=prize,
                reference=owner,
                lines_for=lambda money, prize=prize: [(pool, prize), (money, -prize)],
            )
        w.add(
            s["tentry"],
            (
                row["id"],
                tid,
                row["player"],
                row["number"],
                row["kind"],
                "active" if row.get("winner") else "busted",
                True,
                row["tx"],
                template.stack,
                row["at"],
                None if row.get("winner") else row["busted"],
                row.get("bust_number"),
                place,
                prize,
                prize_tx,
                None,
                None,
            ),
        )
        w.add(
            s["payment"],
            (
                ids("payment"),
                row["id"],
                row["kind"],
                row["tx"],
                template.prize,
                template.fee,
                0,
                template.stack,
                row["at"],
            ),
        )
    for place, amount in enumerate(amounts, start=1):
        w.add(s["payout"], (ids("payout"), tid, place, amount))
    assert room.balances.get(pool, 0) == 0, f"tournament {tid} keeps prize money"
    level_index = sum(1 for end in ends if end <= finish)
    w.add(
        s["tournament"],
        (
            tid,
            template.name,
            structure["id"],
            structure["name"],
            start,
            "finished",
            template.prize,
            template.fee,
            0,
            template.stack,
            9,
            9,
            late_level,
            template.reentries,
            template.guarantee,
            template.mode,
            15,
            guarantee_level,
            min(level_index, len(levels) - 1),
            start,
            finish,
            start - 7 * 86_400,
        ),
    )
    w.add(
        s["rules"],
        (
            ids("rules"),
            tid,
            registration_end,
            outcome,
            count if outcome else None,
            decided if outcome else None,
            registration_end,
            collected,
            prize_pool,
            overlay,
            sequence,
        ),
    )
    room.audit(
        registration_end,
        floor,
        "tournament.payouts_finalised",
        "tournaments.tournament",
        tid,
        template.name,
        {
            "collected_cents": collected,
            "overlay_cents": overlay,
            "prize_pool_cents": prize_pool,
            "amounts": amounts,
        },
    )


def _cancel(room, *, tid, owner, pool, template, entries, start, day_end, structure) -> None:
    """TRN-1, TRN-2: fewer than the minimum at the start; every entry is owed back in one posting
    and the cashier pays each refund."""
    rng, w, s = room.rng, room.w, room.s
    payable = room.account(AccountKind.REFUNDS_PAYABLE, owner, f"Refunds payable {owner}")
    prize, fee = template.prize * len(entries), template.fee * len(entries)
    if entries:
        room.post(
            start,
            room.staff["manager"][0],
            f"Tournament {tid} cancelled: refunds owed",
            [(pool, prize), (room.accounts[AccountKind.TOURNAMENT_FEES], fee), (payable, -(prize + fee))],
        )
    for row in entries:
        amount = template.prize + template.fee
        paid = min(day_end - 120, start + rng.randint(300, 3_600))
        refund = room.transact(
            paid,
            "refund",
            player=row["player"],
            amount=amount,
            reference=owner,
            lines_for=lambda money, amount=amount: [(payable, amount), (money, -amount)],
        )
        w.add(
            s["tentry"],
            (
                row["id"],
                tid,
                row["player"],
                row["number"],
                row["kind"],
                "refunded",
                True,
                row["tx"],
                template.stack,
                row["at"],
                None,
                None,
                None,
                None,
                None,
                amount,
                refund,
            ),
        )
        w.add(
            s["payment"],
            (
                room.ids("payment"),
                row["id"],
                row["kind"],
                row["tx"],
                template.prize,
                template.fee,
                0,
                template.stack,
                row["at"],
            ),
        )
    w.add(
        s["tournament"],
        (
            tid,
            template.name,
            structure["id"],
            structure["name"],
            start,
            "cancelled",
            template.prize,
            template.fee,
            0,
            template.stack,
            9,
            9,
            3,
            template.reentries,
            template.guarantee,
            template.mode,
            15,
            3,
            0,
            None,
            start,
            start - 7 * 86_400,
        ),
    )
    w.add(s["rules"], (room.ids("rules"), tid, None, "", None, None, None, None, None, 0, 0))
