"""Why a tournament floor action is refused right now, said once for the service and the page.

Each function reads the state and returns the `DomainError` the action's service raises, or None
when the rules allow the action now. The service raises what it gets (under the tournament's
lock, on the state it just locked); the page calls the same function to show the button disabled
with the same reason in words and a link to the rule, instead of offering a tap that would be
refused. Nothing here writes (the rules row is read, never created).
"""

from datetime import timedelta

from django.utils.translation import gettext as _

from cardroom.errors import DomainError
from tournaments.models import (
    CLOCK_STARTED,
    TRANSITIONS,
    BountyAward,
    EntryStatus,
    Tournament,
    TournamentStatus,
)
from tournaments.selectors import level_numbers, tournament_rules_get

OVER = (TournamentStatus.FINISHED, TournamentStatus.CANCELLED)


def _transition(tournament: Tournament, to: str) -> DomainError | None:
    if to in TRANSITIONS[tournament.status]:
        return None
    return DomainError(
        "illegal_transition",
        _("A tournament that is %(current)s cannot become %(target)s.")
        % {"current": tournament.get_status_display(), "target": TournamentStatus(to).label},
        status_code=409,
    )


def registered_count(tournament: Tournament) -> int:
    return tournament.entries.filter(status__in=[EntryStatus.ACTIVE, EntryStatus.BUSTED]).count()


def start_refusal(tournament: Tournament) -> DomainError | None:
    """Starting the clock (TRN-1): only a tournament taking registrations, with its minimum."""
    refusal = _transition(tournament, TournamentStatus.RUNNING)
    if refusal is not None:
        return refusal
    count = registered_count(tournament)
    if count < tournament.min_players:
        return DomainError(
            "not_enough_players",
            _(
                "Only %(count)d players are registered; this tournament needs at least %(min)d to start. "
                "Postpone the start or cancel the tournament."
            )
            % {"count": count, "min": tournament.min_players},
            rule="TRN-1",
            status_code=409,
        )
    return None


def level_step_refusal(*, index: int, level_count: int, step: int) -> DomainError | None:
    """Stepping a level forward (+1) or back (-1) from the level at `index` (TRN-8)."""
    if 0 <= index + step < level_count:
        return None
    return DomainError(
        "no_such_level",
        _("This is the last level.") if step > 0 else _("This is the first level."),
        rule="TRN-8",
        status_code=409,
    )


def time_change_refusal(*, left: timedelta | None, seconds: int) -> DomainError | None:
    """Adding (or, negative, removing) `seconds` with `left` of the level to go (TRN-8)."""
    if left is None:
        return DomainError(
            "level_has_no_end",
            _("The last level runs on without an end; there is no time to change."),
            rule="TRN-8",
            status_code=409,
        )
    if left + timedelta(seconds=seconds) <= timedelta(0):
        return DomainError(
            "not_enough_time_left",
            _("Only %(left)d seconds are left in this level; go to the next level instead.")
            % {"left": int(left.total_seconds())},
            rule="TRN-8",
            status_code=409,
        )
    return None


def levels_ended(tournament: Tournament) -> int:
    """The number of the last level (breaks have none) that has ended: late registration until
    the end of level N is over once this reaches N (see level_end.on_level_end)."""
    levels = list(tournament.levels.order_by("order"))
    ended = 0
    for index, number in enumerate(level_numbers(levels)):
        if number is not None and index < tournament.current_level_index:
            ended = number
    return ended


def registration_reopen_refusal(tournament: Tournament, *, until: int | None = None) -> DomainError | None:
    """Reopening late registration (TRN-6) until the end of level `until` (default: the
    tournament's own setting): while the tournament runs, registration is closed, that level has
    not ended and the payouts are not final."""
    if tournament.status not in CLOCK_STARTED:
        return DomainError(
            "registration_not_reopenable",
            _("Late registration is reopened only while the tournament runs; it is %s.")
            % tournament.get_status_display(),
            rule="TRN-6",
            status_code=409,
        )
    rules = tournament_rules_get(tournament=tournament)
    if rules.registration_closed_at is None:
        return DomainError(
            "registration_already_open",
            _("Late registration is open already."),
            rule="TRN-6",
            status_code=409,
        )
    until = tournament.late_registration_level if until is None else until
    level_count = tournament.levels.filter(kind="level").count()
    if not 1 <= until <= level_count:
        return DomainError(
            "invalid_level",
            _("Late registration runs until the end of a level from 1 to %d.") % level_count,
            rule="TRN-6",
        )
    if levels_ended(tournament) >= until:
        return DomainError(
            "late_registration_over",
            _("Level %(until)d has ended; late registration can be reopened only until a level still to end.")
            % {"until": until},
            rule="TRN-6",
            status_code=409,
        )
    if rules.payouts_finalised_at is not None or tournament.entries.filter(finish_place=1).exists():
        return DomainError(
            "payouts_final",
            _("The payouts are final; late registration cannot be reopened."),
            rule="TRN-6",
            status_code=409,
        )
    return None


def seat_draw_refusal(tournament: Tournament) -> DomainError | None:
    """Drawing the seats (TRN-9): once, for a tournament not over, with someone registered."""
    if tournament.tables.exists():
        return DomainError(
            "seats_already_drawn", _("Seats are already drawn."), rule="TRN-9", status_code=409
        )
    if tournament.status in OVER:
        return DomainError(
            "tournament_over",
            _("The tournament is %s; there are no seats to draw.") % tournament.get_status_display(),
            rule="TRN-9",
            status_code=409,
        )
    if not tournament.entries.filter(status=EntryStatus.ACTIVE).exists():
        return DomainError("no_entries", _("No one is registered yet."), rule="TRN-9", status_code=409)
    return None


def table_open_refusal(tournament: Tournament) -> DomainError | None:
    """The floor opening a new table (TRN-9): for late entries, so while seats are drawn and
    registration is open (with no late entries to come, the tables in play hold everyone)."""
    if not tournament.tables.exists():
        return DomainError("seats_not_drawn", _("Draw the seats first."), rule="TRN-9", status_code=409)
    rules = tournament_rules_get(tournament=tournament)
    if tournament.status in OVER or rules.registration_closed_at is not None:
        return DomainError(
            "registration_closed",
            _("Registration is closed: the tables in play hold everyone, so no new table opens."),
            rule="TRN-9",
            status_code=409,
        )
    return None


def final_table_refusal(tournament: Tournament) -> DomainError | None:
    """The final table draw (TRN-9): while the tournament runs, with everyone left at one table."""
    if tournament.status not in CLOCK_STARTED:
        return DomainError(
            "tournament_not_running",
            _("The final table is drawn while the tournament runs, once everyone left fits at one table."),
            rule="TRN-9",
            status_code=409,
        )
    left = tournament.entries.filter(status=EntryStatus.ACTIVE, table__isnull=False).count()
    if not left:
        return DomainError("no_players", _("No one is seated."), rule="TRN-9", status_code=409)
    if left > tournament.table_size:
        return DomainError(
            "too_many_for_final",
            _("More players are left than the final table seats; keep busting players first."),
            rule="TRN-9",
            status_code=409,
        )
    return None


def bust_refusal(tournament: Tournament, *, count: int = 1) -> DomainError | None:
    """A bust-out of `count` players in one hand (TRN-10): while the clock runs, leaving at least
    one player in."""
    if not tournament.clock_started:
        return DomainError(
            "tournament_not_running",
            _("Bust-outs are recorded while the tournament runs."),
            rule="TRN-10",
            status_code=409,
        )
    if tournament.entries.filter(status=EntryStatus.ACTIVE).count() - count < 1:
        return DomainError("no_winner", _("At least one player must be left after the hand."), rule="TRN-10")
    return None


def bust_undo_refusal(tournament: Tournament) -> DomainError | None:
    """Undoing the last bust-out (TRN-10): while the clock runs, when none of its prizes or
    bounties is paid and none of its players has re-entered."""
    if not tournament.clock_started:
        return DomainError(
            "tournament_not_running",
            _("Bust-outs are undone while the tournament runs."),
            rule="TRN-10",
            status_code=409,
        )
    last = tournament_rules_get(tournament=tournament).bust_sequence
    if not last:
        return DomainError("nothing_to_undo", _("No bust-out to undo."), rule="TRN-10", status_code=409)
    if BountyAward.objects.filter(
        tournament=tournament, bust_number=last, transaction__isnull=False
    ).exists():
        return DomainError(
            "cannot_undo",
            _("This bust-out cannot be undone: a bounty it awarded is already paid."),
            rule="TRN-10",
            status_code=409,
        )
    entries = list(
        tournament.entries.filter(bust_number=last, status=EntryStatus.BUSTED).select_related("player")
    )
    winner_paid = tournament.entries.filter(
        status=EntryStatus.ACTIVE, finish_place=1, prize_transaction__isnull=False
    ).exists()
    if winner_paid or not entries or any(entry.prize_transaction_id for entry in entries):
        return DomainError(
            "cannot_undo",
            _("This bust-out cannot be undone: a prize of it is already paid, or a player re-entered."),
            rule="TRN-10",
            status_code=409,
        )
    back = tournament.entries.filter(
        status=EntryStatus.ACTIVE, player__in=[entry.player_id for entry in entries]
    ).first()
    if back is not None:
        return DomainError(
            "cannot_undo",
            _("%s has re-entered; the bust-out cannot be undone.") % back.player.full_name,
            rule="TRN-10",
            status_code=409,
        )
    return None


def colour_up_race_refusal(tournament: Tournament) -> DomainError | None:
    """Entering a table's chip race (CHP-1): at the open tables of a running tournament."""
    if tournament.status in CLOCK_STARTED:
        return None
    return DomainError(
        "not_running", _("Chips are raced at an open table of a running tournament."), rule="CHP-1"
    )


def chip_count_refusal(tournament: Tournament) -> DomainError | None:
    """Entering a table's chip counts (SER-2): while the tournament's clock has started (running,
    on a break or paused)."""
    if tournament.status in CLOCK_STARTED:
        return None
    return DomainError(
        "not_running",
        _("Chips are counted while the tournament is running; this one is %(status)s.")
        % {"status": tournament.get_status_display()},
        rule="SER-2",
        status_code=409,
    )


# Hand-for-hand (SER-3). `rules` is the tournament's rules row (tournament_rules_get or, in a
# service, the locked one); `reported` the numbers of the tables that reported the current round.


def _not_in_hand_for_hand(rules) -> DomainError | None:
    if rules.hand_for_hand_at is not None:
        return None
    return DomainError(
        "not_hand_for_hand",
        _("The tournament is not playing hand for hand; call hand for hand first."),
        rule="SER-3",
        status_code=409,
    )


def hand_for_hand_start_refusal(tournament: Tournament, rules) -> DomainError | None:
    """The floor calling hand for hand: while the clock runs, with tables in play, not twice."""
    if tournament.status not in CLOCK_STARTED or not tournament.tables.filter(status="open").exists():
        return DomainError(
            "tournament_not_running",
            _("Hand for hand is played while the tournament runs, with its seats drawn."),
            rule="SER-3",
            status_code=409,
        )
    if rules.hand_for_hand_at is not None:
        return DomainError(
            "already_hand_for_hand",
            _("The tournament is playing hand for hand already."),
            rule="SER-3",
            status_code=409,
        )
    return None


def hand_for_hand_stop_refusal(tournament: Tournament, rules) -> DomainError | None:
    return _not_in_hand_for_hand(rules)


def hand_done_refusal(rules, *, table, reported: set[int]) -> DomainError | None:
    """A table reporting its hand of the round done: once a round, an open table."""
    refusal = _not_in_hand_for_hand(rules)
    if refusal is not None:
        return refusal
    if table.status != "open":
        return DomainError(
            "table_not_open",
            _("Table %d is broken; it plays no hand.") % table.number,
            rule="SER-3",
            status_code=409,
        )
    if table.number in reported:
        return DomainError(
            "hand_already_reported",
            _("Table %d has reported this hand done already; wait for the other tables.") % table.number,
            rule="SER-3",
            status_code=409,
        )
    return None


def next_hand_refusal(rules, *, waiting: list[int]) -> DomainError | None:
    """The floor starting the next hand-for-hand hand: once every table has finished this one."""
    refusal = _not_in_hand_for_hand(rules)
    if refusal is not None:
        return refusal
    if waiting:
        return DomainError(
            "tables_still_playing",
            _("Tables still playing this hand: %s. Start the next hand when every table has reported.")
            % ", ".join(str(number) for number in waiting),
            rule="SER-3",
            status_code=409,
        )
    return None
