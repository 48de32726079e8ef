"""Reads of the tournaments app: structure lists and exports, tournament lists, and the clock
state every screen shows (TRN-8)."""

from datetime import datetime, timedelta

from django.db.models import Count, Exists, OuterRef, Q, QuerySet, Sum
from django.utils import timezone

from cardroom.selectors import venue_get
from cashier.models import AccountKind
from cashier.selectors import account_amount, prize_pool_balance
from poker.payouts import default_payout_percentages, payout_amounts
from poker.satellites import satellite_payouts
from tournaments.models import (
    CLOCK_RUNNING,
    BlindStructure,
    Entry,
    EntryKind,
    EntryStatus,
    GuaranteeMode,
    GuaranteeOutcome,
    LevelKind,
    PayoutPlace,
    TableStatus,
    Tournament,
    TournamentLevel,
    TournamentRules,
    TournamentStatus,
)
from tournaments.schedule import milliseconds, project

LEVEL_KEYS = [
    "kind",
    "small_blind_chips",
    "big_blind_chips",
    "ante_chips",
    "big_blind_ante",
    "minutes",
    "note",
]


def structure_list() -> QuerySet[BlindStructure]:
    return BlindStructure.objects.annotate(
        level_count=Count("levels", filter=Q(levels__kind=LevelKind.LEVEL)),
        break_count=Count("levels", filter=Q(levels__kind=LevelKind.BREAK)),
    ).order_by("name")


def structure_levels_data(structure: BlindStructure) -> list[dict]:
    """The levels as plain dicts in the import/export shape (structure_io)."""
    return list(structure.levels.order_by("order").values(*LEVEL_KEYS))


def tournament_list(*, include_closed: bool = True) -> QuerySet[Tournament]:
    tournaments = Tournament.objects.all()
    if not include_closed:
        tournaments = tournaments.exclude(status__in=[TournamentStatus.FINISHED, TournamentStatus.CANCELLED])
    return tournaments.order_by("-start_at", "-pk")


def level_numbers(levels: list[TournamentLevel]) -> list[int | None]:
    """The number players know each level by (breaks are not counted and have none)."""
    numbers: list[int | None] = []
    count = 0
    for level in levels:
        if level.kind == LevelKind.LEVEL:
            count += 1
            numbers.append(count)
        else:
            numbers.append(None)
    return numbers


def _level_dict(level: TournamentLevel, *, index: int, number: int | None) -> dict:
    return {
        "index": index,
        "number": number,
        "kind": level.kind,
        "small_blind_chips": level.small_blind_chips,
        "big_blind_chips": level.big_blind_chips,
        "ante_chips": level.ante_chips,
        "big_blind_ante": level.big_blind_ante,
        "duration_ms": level.duration_seconds * 1000,
        "note": level.note_text,
    }


def tournament_clock_get(*, tournament: Tournament, now: datetime | None = None) -> dict:
    """The clock as every screen shows it (TRN-8), public: it carries no personal data.

    The schedule is rolled forward to `now` with the same arithmetic as the scheduled rise, so
    the answer is exact even in the moment between a level's end and the worker raising it.
    `remaining_ms` is what is left of the current level at `server_now` (None: no end);
    screens count down from it locally and correct themselves on the next poll.
    """
    now = now or timezone.now()
    levels = list(tournament.levels.order_by("order"))
    numbers = level_numbers(levels)
    index = tournament.current_level_index
    ends_at = tournament.level_ends_at
    remaining: timedelta | None
    counting = tournament.status in CLOCK_RUNNING
    status = tournament.status
    if counting:
        projection = project(
            durations=[level.duration for level in levels],
            index=index,
            started_at=tournament.level_started_at,
            ends_at=ends_at,
            now=now,
        )
        index, ends_at = projection.index, projection.ends_at
        status = (
            TournamentStatus.ON_BREAK if levels[index].kind == LevelKind.BREAK else TournamentStatus.RUNNING
        )
        remaining = None if ends_at is None else max(ends_at - now, timedelta(0))
    elif tournament.status == TournamentStatus.PAUSED:
        remaining = (
            None
            if tournament.paused_remaining_ms is None
            else timedelta(milliseconds=tournament.paused_remaining_ms)
        )
    elif tournament.status in (TournamentStatus.SCHEDULED, TournamentStatus.REGISTERING):
        remaining = levels[index].duration if levels else None
    else:
        remaining = None
    current = levels[index] if levels else None
    next_break_in = None
    if remaining is not None:
        ahead = remaining
        for later in levels[index + 1 :]:
            if later.kind == LevelKind.BREAK:
                next_break_in = ahead
                break
            ahead += later.duration
    state = {
        "id": tournament.pk,
        "name": tournament.name,
        "status": status,
        "status_label": str(TournamentStatus(status).label),
        "counting": counting and ends_at is not None,
        "server_now": now.isoformat(),
        "clock_version": tournament.clock_version,
        "start_at": tournament.start_at.isoformat(),
        "level_ends_at": ends_at.isoformat() if counting and ends_at is not None else None,
        "remaining_ms": milliseconds(remaining),
        "next_break_in_ms": milliseconds(next_break_in),
        "level": _level_dict(current, index=index, number=numbers[index]) if current else None,
        "next_level": (
            _level_dict(levels[index + 1], index=index + 1, number=numbers[index + 1])
            if index + 1 < len(levels)
            else None
        ),
        "levels": [_level_dict(level, index=i, number=numbers[i]) for i, level in enumerate(levels)],
        "starting_stack_chips": tournament.starting_stack_chips,
    }
    if tournament.guarantee_mode != GuaranteeMode.NONE:
        # The amount and its terms; whether it holds is decided at the deadline (TRN-3) by
        # the guarantee work, which adds its outcome here.
        state["guarantee"] = {
            "amount_cents": tournament.guarantee_cents,
            "mode": tournament.guarantee_mode,
            "player_count": tournament.guarantee_player_count,
            "deadline_level": tournament.guarantee_deadline_level,
        }
    return state


def entry_list(*, tournament: Tournament) -> QuerySet:
    return (
        Entry.objects.filter(tournament=tournament)
        .select_related("player", "table", "cashier_transaction", "prize_transaction", "refund_transaction")
        .order_by("number")
    )


def prizes_due(*, tournament: Tournament) -> QuerySet:
    """Finished (or dealt) entries with a prize the cashier has not paid yet (TRN-10); `pays_ticket`: the
    place is a satellite's seat, paid as a ticket (SER-1)."""
    seat = PayoutPlace.objects.filter(tournament=tournament, place=OuterRef("finish_place"), seat=True)
    return (
        entry_list(tournament=tournament)
        .filter(prize_cents__gt=0, prize_transaction__isnull=True)
        .annotate(pays_ticket=Exists(seat))
    )


def bounties_due(*, tournament: Tournament) -> QuerySet:
    """Entries with bounties won and not paid yet (TRN-6), the sum due in `bounty_due_cents`."""
    return (
        entry_list(tournament=tournament)
        .annotate(
            bounty_due_cents=Sum(
                "bounties_won__amount_cents", filter=Q(bounties_won__transaction__isnull=True)
            )
        )
        .filter(bounty_due_cents__gt=0)
    )


def bounty_awards_list(*, tournament: Tournament) -> QuerySet:
    """Every bounty won (TRN-6), oldest first, with both players and the receipt if paid."""
    return tournament.bounty_awards.select_related(
        "entry__player", "busted_entry__player", "transaction"
    ).order_by("pk")


def bounty_totals(*, tournament: Tournament) -> dict:
    """The bounty pool (TRN-6) in cents: what it holds, what was awarded and paid of it, and
    the bounties of the players still in that no one has won yet (pool - awarded but unpaid)."""
    pool = account_amount(kind=AccountKind.BOUNTY_POOL, owner=f"tournament:{tournament.pk}")
    sums = tournament.bounty_awards.aggregate(
        awarded=Sum("amount_cents"), paid=Sum("amount_cents", filter=Q(transaction__isnull=False))
    )
    awarded, paid = sums["awarded"] or 0, sums["paid"] or 0
    return {
        "bounty_cents": tournament.bounty_cents,
        "pool_cents": pool,
        "awarded_cents": awarded,
        "paid_cents": paid,
        "due_cents": awarded - paid,
        "on_heads_cents": pool - (awarded - paid),
    }


def refunds_due(*, tournament: Tournament) -> QuerySet:
    """Entries of a cancelled tournament waiting for their refund at the cashier (TRN-2)."""
    return entry_list(tournament=tournament).filter(status=EntryStatus.REFUND_DUE)


def tournament_rules_get(*, tournament: Tournament):
    """The tournament's rules and outcomes; an unsaved default row when none was written yet
    (a read never creates one: the services do, under the tournament's lock)."""
    rules = TournamentRules.objects.filter(tournament=tournament).first()
    return rules or TournamentRules(tournament=tournament)


def _rules(tournament: Tournament):
    return tournament_rules_get(tournament=tournament)


def chips_in_play(*, tournament: Tournament) -> int:
    """Every chip sold to the field (TRN-6): each entry's starting stack (buy-in or re-entry) and
    its rebuys and add-ons, busted entries' included (their chips are in the others' stacks);
    entries given back (refunded) are not in play. A Day 2's entries bring their bags (SER-2)."""
    sums = Entry.objects.filter(
        tournament=tournament, status__in=[EntryStatus.ACTIVE, EntryStatus.BUSTED]
    ).aggregate(
        paid=Sum("payments__chips"),
        # A Day 2 seat paid nothing: it brought its bag (SER-2). It has no payments, so the join
        # gives it one row and its stack is counted once.
        bagged=Sum("starting_stack_chips", filter=Q(kind=EntryKind.BAG)),
    )
    return (sums["paid"] or 0) + (sums["bagged"] or 0)


def tournament_field_get(*, tournament: Tournament, rules=None) -> dict:
    """The field and the money as the TV and the floor show them (TRN-3, TRN-5, TRN-10): public,
    no personal data. Before the payouts are final the prize pool and payouts are a projection:
    collected so far, raised to the guarantee when it holds. `rules`: the tournament's rules row
    when the caller has read it already."""
    rules = rules or _rules(tournament)
    counted = [EntryStatus.ACTIVE, EntryStatus.BUSTED]
    counts = tournament.entries.aggregate(
        entries=Count("pk", filter=Q(status__in=counted)),
        left=Count("pk", filter=Q(status=EntryStatus.ACTIVE)),
    )
    chips = chips_in_play(tournament=tournament)
    entries, left = counts["entries"], counts["left"]
    final = rules.payouts_finalised_at is not None
    seats: list[bool] = []
    if final:
        pool = rules.prize_pool_cents
        places = list(
            PayoutPlace.objects.filter(tournament=tournament)
            .order_by("place")
            .values_list("amount_cents", "seat")
        )
        amounts = [amount for amount, _seat in places]
        seats = [seat for _amount, seat in places]
    else:
        pool = prize_pool_balance(tournament_id=tournament.pk)
        if (
            rules.guarantee_outcome == GuaranteeOutcome.HELD
            or tournament.guarantee_mode == GuaranteeMode.UNCONDITIONAL
        ):
            pool = max(pool, tournament.guarantee_cents)
        amounts = []
        if entries and tournament.is_satellite:
            # SER-1: seats at the target's buy-in, the rest in cash to the next place.
            target = Tournament.all_venues.get(pk=tournament.satellite_target_id)
            places = satellite_payouts(prize_pool_cents=pool, seat_cents=target.buy_in_cents)
            amounts = [place.amount_cents for place in places]
            seats = [place.seat for place in places]
        elif entries:
            percentages = rules.payout_percentages or list(default_payout_percentages(entries))
            if len(percentages) <= entries:
                amounts = payout_amounts(
                    prize_pool_cents=pool,
                    percentages=percentages,
                    smallest_chip_cents=venue_get().smallest_chip_cents,
                )
    state = {
        "entries": entries,
        "players_left": left,
        "chips_in_play": chips,
        "average_stack_chips": chips // left if left else None,
        "prize_pool_cents": pool,
        "payouts_final": final,
        "payouts": [
            {"place": place, "amount_cents": amount} for place, amount in enumerate(amounts, start=1)
        ],
        "registration_open": rules.registration_closed_at is None
        and tournament.status not in (TournamentStatus.FINISHED, TournamentStatus.CANCELLED),
        "guarantee": None,
    }
    if tournament.is_satellite:
        # A satellite's places say which are seats (tickets to the target) and which cash.
        for row, seat in zip(state["payouts"], seats, strict=False):
            row["seat"] = seat
        state["satellite_target"] = tournament.satellite_target.name
    if tournament.guarantee_mode != GuaranteeMode.NONE:
        state["guarantee"] = {
            "amount_cents": tournament.guarantee_cents,
            "mode": tournament.guarantee_mode,
            "outcome": rules.guarantee_outcome or "undecided",
            "outcome_label": str(GuaranteeOutcome(rules.guarantee_outcome).label),
            "present_players": rules.guarantee_count,
            "required_players": None
            if tournament.guarantee_mode == GuaranteeMode.UNCONDITIONAL
            else tournament.guarantee_player_count,
            "deadline_level": tournament.guarantee_deadline_level,
            "overlay_cents": rules.overlay_cents,
        }
    return state


def seating_chart(*, tournament: Tournament) -> list[dict]:
    """Open tables with their seats (TRN-9): [{table, seats: [(seat, entry or None)]}]."""
    tables = list(tournament.tables.filter(status=TableStatus.OPEN).order_by("number"))
    seated: dict[tuple[int, int], object] = {
        (entry.table_id, entry.seat): entry
        for entry in tournament.entries.filter(status=EntryStatus.ACTIVE, table__isnull=False).select_related(
            "player"
        )
    }
    return [
        {
            "table": table,
            "seats": [(seat, seated.get((table.pk, seat))) for seat in range(1, table.seats + 1)],
            "players": sum(1 for seat in range(1, table.seats + 1) if (table.pk, seat) in seated),
        }
        for table in tables
    ]


def pending_move_slips(*, tournament: Tournament) -> QuerySet:
    """The move slips waiting for the floor (TRN-9): not confirmed, not replaced by a later move."""
    return (
        tournament.move_slips.filter(confirmed_at__isnull=True, replaced_at__isnull=True)
        .select_related("entry__player")
        .order_by("pk")
    )
