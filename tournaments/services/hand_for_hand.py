"""Hand-for-hand (SER-3): near the bubble every table plays one hand at a time.

It starts by itself after the bust-out that leaves the paid places plus one player (or on the
floor's call), and ends by itself at the end of the round in which the bubble bursts (or on the
floor's call). Each round, every open table reports its hand done; when the last one has, the
clock pauses (the existing pause, audited as every pause) until the floor starts the next hand,
which resumes it with exactly the time it kept. The clock's scheduled rise only raises counting
clocks, so no level rises while it waits.

Players out in one round, at any table, share one bust number (payouts.eliminations): they are
ranked together by their starting stacks and equal stacks share their places' prizes (TRN-10).
The floor records a table's bust-outs before it reports the hand done.

Every function here expects the caller to hold the tournament's lock (lock_tournament).
"""

from datetime import datetime

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from cardroom.errors import DomainError
from cardroom.roles import FLOOR_ROLES, require_role
from cardroom.services import audit_record
from tournaments import refusals
from tournaments.models import CLOCK_RUNNING, CLOCK_STARTED, HandReport, Table, Tournament, TournamentStatus
from tournaments.selectors.hand_for_hand import hand_for_hand_tables, paid_places, players_left
from tournaments.services import clock
from tournaments.services._common import lock_tournament, rules_for

RULES_FIELDS = [
    "hand_for_hand_at",
    "hand_for_hand_round",
    "hand_for_hand_bust_number",
    "hand_for_hand_paused",
]


def _state(rules) -> dict:
    return {name: getattr(rules, name) for name in RULES_FIELDS}


def _waiting(tournament: Tournament, rules) -> list[int]:
    return [table["number"] for table in hand_for_hand_tables(tournament, rules) if not table["done"]]


def _enter(tournament: Tournament, rules, *, actor, now: datetime, note: str) -> None:
    before = _state(rules)
    rules.hand_for_hand_at = now
    rules.hand_for_hand_round += 1  # rounds count on across sessions, so old reports never clash
    rules.hand_for_hand_bust_number = None
    rules.hand_for_hand_paused = False
    rules.save(update_fields=RULES_FIELDS)
    audit_record(
        actor=actor,
        action="tournament.hand_for_hand_on",
        obj=tournament,
        before=before,
        after=_state(rules),
        note=note,
        now=now,
    )


def _leave(tournament: Tournament, rules, *, actor, now: datetime, note: str) -> None:
    before = _state(rules)
    if rules.hand_for_hand_paused and tournament.status == TournamentStatus.PAUSED:
        clock.resume_locked(tournament, actor=actor, now=now, note=note)
    rules.hand_for_hand_at = None
    rules.hand_for_hand_bust_number = None
    rules.hand_for_hand_paused = False
    rules.save(update_fields=RULES_FIELDS)
    audit_record(
        actor=actor,
        action="tournament.hand_for_hand_off",
        obj=tournament,
        before=before,
        after=_state(rules),
        note=note,
        now=now,
    )


def _round_over(tournament: Tournament, rules, *, actor, now: datetime) -> None:
    """Every table has finished the round's hand: the bubble burst in it (hand for hand ends) or
    the clock pauses until the floor starts the next hand."""
    left = players_left(tournament)
    if left <= paid_places(tournament, rules) or left <= 1:
        _leave(tournament, rules, actor=actor, now=now, note="The bubble burst: hand for hand ends.")
        return
    if tournament.status in CLOCK_RUNNING and not rules.hand_for_hand_paused:
        clock.pause_locked(
            tournament,
            actor=actor,
            now=now,
            note=f"Hand for hand: every table finished hand {rules.hand_for_hand_round}.",
        )
        rules.hand_for_hand_paused = True
        rules.save(update_fields=["hand_for_hand_paused"])


# Called by entry_bust (payouts.eliminations) under the tournament's lock.


def round_bust_number(tournament: Tournament, rules, *, table_numbers: set[int]) -> int | None:
    """The bust number the current round's bust-outs share; None: a new one is needed.

    Each table plays one hand a round, so its players out in that hand come in one bust-out: a
    second one from the same table in the round is refused (the floor starts the next hand
    first), rather than ranked with the first as if it were the same hand."""
    if rules.hand_for_hand_at is None or rules.hand_for_hand_bust_number is None:
        return None
    again = sorted(
        set(
            tournament.entries.filter(
                bust_number=rules.hand_for_hand_bust_number, bust_table_number__in=table_numbers
            ).values_list("bust_table_number", flat=True)
        )
    )
    if again:
        raise DomainError(
            "table_already_busted_this_hand",
            _(
                "Table %(table)d has had its players out in this hand-for-hand hand already; record a "
                "hand's players out together, and start the next hand before the next bust-out."
            )
            % {"table": again[0]},
            rule="SER-3",
            status_code=409,
        )
    return rules.hand_for_hand_bust_number


def bust_recorded(rules, *, bust_number: int) -> None:
    """Remember the round's bust number (the caller saves `hand_for_hand_bust_number`)."""
    if rules.hand_for_hand_at is not None:
        rules.hand_for_hand_bust_number = bust_number


def after_bust_locked(tournament: Tournament, rules, *, actor, now: datetime) -> None:
    """After a bust-out (and the seating that follows it): start hand for hand when the players
    left are the paid places plus one, or close the round a broken table completed."""
    if rules.hand_for_hand_at is None:
        paid = paid_places(tournament, rules)
        # One table left plays one hand at a time anyway: hand for hand is for several.
        if (
            paid
            and len(hand_for_hand_tables(tournament, rules)) > 1
            and rules.registration_closed_at is not None
            and rules.deal_accepted_at is None
            and tournament.status in CLOCK_STARTED
            and players_left(tournament) == paid + 1
        ):
            _enter(tournament, rules, actor=actor, now=now, note=f"{paid + 1} players left, {paid} paid.")
        return
    if not _waiting(tournament, rules):
        _round_over(tournament, rules, actor=actor, now=now)


# The floor's actions.


@transaction.atomic
def hand_for_hand_start(*, actor, tournament: Tournament, now: datetime | None = None) -> Tournament:
    """The floor calls hand for hand (SER-3); the hand now in play at each table is round one."""
    require_role(actor, *FLOOR_ROLES)
    now = now or timezone.now()
    tournament = lock_tournament(tournament.pk)
    clock.advance_locked(tournament, now=now)
    rules = rules_for(tournament)
    refusal = refusals.hand_for_hand_start_refusal(tournament, rules)
    if refusal is not None:
        raise refusal
    _enter(tournament, rules, actor=actor, now=now, note="Called by the floor.")
    return tournament


@transaction.atomic
def hand_for_hand_stop(*, actor, tournament: Tournament, now: datetime | None = None) -> Tournament:
    """The floor calls hand for hand off (SER-3); a clock it paused between hands resumes."""
    require_role(actor, *FLOOR_ROLES)
    now = now or timezone.now()
    tournament = lock_tournament(tournament.pk)
    rules = rules_for(tournament)
    refusal = refusals.hand_for_hand_stop_refusal(tournament, rules)
    if refusal is not None:
        raise refusal
    _leave(tournament, rules, actor=actor, now=now, note="Called off by the floor.")
    return tournament


@transaction.atomic
def hand_for_hand_table_done(
    *, actor, tournament: Tournament, table_id: int, now: datetime | None = None
) -> HandReport:
    """A table's hand of the current round is done (SER-3), its bust-outs recorded. The last
    table to report pauses the clock (or ends hand for hand when the bubble burst)."""
    require_role(actor, *FLOOR_ROLES)
    now = now or timezone.now()
    tournament = lock_tournament(tournament.pk)
    clock.advance_locked(tournament, now=now)
    table = Table.objects.filter(tournament=tournament, pk=table_id).first()
    if table is None:
        raise DomainError("not_found", _("That table is not in this tournament."), status_code=404)
    rules = rules_for(tournament)
    reported = set(
        HandReport.objects.filter(tournament=tournament, round=rules.hand_for_hand_round).values_list(
            "table__number", flat=True
        )
    )
    refusal = refusals.hand_done_refusal(rules, table=table, reported=reported)
    if refusal is not None:
        raise refusal
    report = HandReport.objects.create(
        tournament=tournament,
        table=table,
        round=rules.hand_for_hand_round,
        reported_by=actor,
        reported_at=now,
    )
    audit_record(
        actor=actor,
        action="tournament.hand_done",
        obj=tournament,
        after={"round": rules.hand_for_hand_round, "table": table.number},
        now=now,
    )
    if not _waiting(tournament, rules):
        _round_over(tournament, rules, actor=actor, now=now)
    return report


@transaction.atomic
def hand_for_hand_next_hand(*, actor, tournament: Tournament, now: datetime | None = None) -> Tournament:
    """The floor starts the next hand at every table (SER-3): the clock resumes with the time it
    kept when the last table finished."""
    require_role(actor, *FLOOR_ROLES)
    now = now or timezone.now()
    tournament = lock_tournament(tournament.pk)
    rules = rules_for(tournament)
    refusal = refusals.next_hand_refusal(
        rules, waiting=_waiting(tournament, rules) if rules.hand_for_hand_at else []
    )
    if refusal is not None:
        raise refusal
    before = _state(rules)
    if tournament.status == TournamentStatus.PAUSED:
        clock.resume_locked(
            tournament,
            actor=actor,
            now=now,
            note=f"Hand for hand: hand {rules.hand_for_hand_round + 1} starts.",
        )
    rules.hand_for_hand_round += 1
    rules.hand_for_hand_bust_number = None
    rules.hand_for_hand_paused = False
    rules.save(update_fields=RULES_FIELDS)
    audit_record(
        actor=actor,
        action="tournament.hand_for_hand_next",
        obj=tournament,
        before=before,
        after=_state(rules),
        now=now,
    )
    return tournament
