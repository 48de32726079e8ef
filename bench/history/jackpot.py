"""Bad-beat jackpots of the cash tables (JKP-3): the claim with both hands and the board, and each
share paid in cash from the jackpot fund."""

from cashier.models import AccountKind

BAD_BEATS = [
    ("7c7d", "8h9h", "7h7s5h6h2c", "Four of a kind, sevens", "Straight flush, nine high"),
    ("AcAd", "KsKh", "AhAsKcKd2c", "Four of a kind, aces", "Four of a kind, kings"),
    ("QdQc", "JhTh", "QhQs9h8h3c", "Four of a kind, queens", "Straight flush, queen high"),
]


def bad_beat_claim(room, *, hand_id: int, seats, dealt: list[int], winner: int, now: int, floor) -> None:
    """A bad-beat jackpot (JKP-3): 50 % loser, 25 % winner, 25 % shared by the others dealt in,
    rounded down to the chip with the remainder to the loser; each share paid in cash."""
    rng, chip = room.rng, room.chip
    fund = room.jackpot
    if fund < 100 * chip:
        return
    loser = rng.choice([seat for seat in dealt if seat != winner])
    others = [seat for seat in dealt if seat not in (winner, loser)]
    win_share = fund * 25 // 100 // chip * chip
    table_total = fund * 25 // 100
    each = table_total // len(others) // chip * chip
    loser_share = fund - win_share - each * len(others)
    claim = room.ids("claim")
    cards = rng.choice(BAD_BEATS)
    room.w.add(
        room.s["claim"],
        (
            claim,
            hand_id,
            loser,
            winner,
            cards[0],
            cards[1],
            cards[2],
            cards[3],
            cards[4],
            fund,
            floor[0],
            now + 120,
        ),
    )
    paid_at = min(now + 900, room.shifts[-1].closed - 60)
    for seat, role, amount in [(loser, "loser", loser_share), (winner, "winner", win_share)] + [
        (seat, "table", each) for seat in others
    ]:
        player = seats[seat].player
        tid = None
        if amount:
            tid = room.transact(
                paid_at,
                "jackpot_payout",
                player=player,
                amount=amount,
                reference=f"jackpot:{claim}",
                lines_for=lambda money, amount=amount: [
                    (room.accounts[AccountKind.JACKPOT_FUND], amount),
                    (money, -amount),
                ],
            )
        room.w.add(
            room.s["share"], (room.ids("share"), claim, player, role, amount, tid, paid_at if tid else None)
        )
    room.jackpot -= fund
    room.stats["claims"] += 1
