"""Reads for a player's data rights (GDP-1): whether an erasure is allowed now and why not, how
long the law makes the room keep the identity, and which audit records are about the player.

The games import `players`, never the reverse (docs/architecture.md, Layers), so their records
are read here through the relations that point at the player (`player.cash_sessions`,
`player.tournament_entries`, ...), by the field names and choice values those apps define. The
tests of GDP-1 run each refusal through the games' own services, so a renamed state breaks them.

The register is the operator's (VEN-1): a player's records are read in every venue, whichever
venue the manager works in, through each relation's `all_venues` manager (`player_records`).
"""

from dataclasses import dataclass
from datetime import date, datetime

from django.db.models import Max, Q, QuerySet, Sum
from django.utils import formats, timezone
from django.utils.translation import gettext as _

from cardroom.errors import DomainError
from cardroom.models import AuditRecord
from cardroom.money import format_eur
from cardroom.venues import venue_all
from players.models import ExclusionStatus, Player

RULE = "GDP-1"
# The games' states that keep a player in play or on a list (cashgame and tournaments models).
ENTRY_ACTIVE = "active"
ENTRY_REFUND_DUE = "refund_due"
TOURNAMENT_OVER = ("finished", "cancelled")
WAITING_STATUSES = ("waiting", "called")


def player_records(player: Player, relation: str) -> QuerySet:
    """The player's rows of a venue-scoped relation (`cash_sessions`, `tournament_entries`,
    `waiting_entries`, `cashier_transactions`) in every venue of the operator (VEN-1): a
    relation's default manager would read the active venue's rows only."""
    return getattr(player, relation)(manager="all_venues")


def _refusal(code: str, message: str) -> DomainError:
    return DomainError(code, message, rule=RULE, status_code=409)


def erasure_refusals(*, player: Player, today: date | None = None) -> list[DomainError]:
    """Every reason an erasure of this player is refused now, in words (empty: allowed). The
    erasure service raises the first; the player card shows them all beside the greyed button."""
    today = today or timezone.localdate()
    if player.is_erased:
        when = formats.date_format(timezone.localtime(player.erased_at), "SHORT_DATE_FORMAT")
        return [_refusal("already_erased", _("The personal data was erased on %(date)s.") % {"date": when})]
    refusals = []
    for session in (
        player_records(player, "cash_sessions").filter(ended_at__isnull=True).select_related("table")
    ):
        refusals.append(
            _refusal(
                "erase_seated",
                _("Seated at %(table)s, seat %(seat)s: the player cashes out and leaves the table first.")
                % {"table": session.table, "seat": session.seat},
            )
        )
    playing = (
        player_records(player, "tournament_entries")
        .filter(status=ENTRY_ACTIVE)
        .exclude(tournament__status__in=TOURNAMENT_OVER)
    )
    for entry in playing.select_related("tournament"):
        refusals.append(
            _refusal(
                "erase_playing",
                _("Still in %(tournament)s (entry %(number)s): erase once the player is out of it.")
                % {"tournament": entry.tournament.name, "number": entry.number},
            )
        )
    for entry in (
        player_records(player, "waiting_entries").filter(status__in=WAITING_STATUSES).select_related("game")
    ):
        refusals.append(
            _refusal(
                "erase_waiting",
                _("On the waiting list for %(game)s: take the player off the list first.")
                % {"game": entry.game},
            )
        )
    refusals.extend(_money_owed(player))
    if player.exclusion_status != ExclusionStatus.NONE and (
        player.excluded_until is None or player.excluded_until >= today
    ):
        refusals.append(
            _refusal(
                "erase_excluded",
                _(
                    "On the exclusion list: the room keeps the person's identity while the exclusion lasts, "
                    "so the person is refused everywhere."
                ),
            )
        )
    return refusals


def _money_owed(player: Player) -> list[DomainError]:
    """Prizes, refunds, bounties and jackpot shares the cage has still to pay the player."""
    owed = []
    entries = player_records(player, "tournament_entries").select_related("tournament")
    for entry in entries.filter(prize_cents__gt=0, prize_transaction__isnull=True):
        owed.append(
            _refusal(
                "erase_owed",
                _("Owed a prize of %(amount)s in %(tournament)s: the cage pays it first.")
                % {"amount": format_eur(entry.prize_cents), "tournament": entry.tournament.name},
            )
        )
    for entry in entries.filter(status=ENTRY_REFUND_DUE, refund_transaction__isnull=True):
        owed.append(
            _refusal(
                "erase_owed",
                _("Owed a refund of %(amount)s for %(tournament)s: the cage pays it first.")
                % {"amount": format_eur(entry.refund_cents), "tournament": entry.tournament.name},
            )
        )
    bounties = (
        player_records(player, "tournament_entries")
        .filter(bounties_won__isnull=False, bounties_won__transaction__isnull=True)
        .values("tournament__name")
        .annotate(total=Sum("bounties_won__amount_cents"))
        .order_by("tournament__name")
    )
    for row in bounties:
        owed.append(
            _refusal(
                "erase_owed",
                _("Owed bounties of %(amount)s in %(tournament)s: the cage pays them first.")
                % {"amount": format_eur(row["total"]), "tournament": row["tournament__name"]},
            )
        )
    for share in player.jackpot_shares.filter(transaction__isnull=True, amount_cents__gt=0):
        owed.append(
            _refusal(
                "erase_owed",
                _("Owed a jackpot share of %(amount)s: the cage pays it first.")
                % {"amount": format_eur(share.amount_cents)},
            )
        )
    return owed


def _years_later(day: date, years: int) -> date:
    try:
        return day.replace(year=day.year + years)
    except ValueError:  # 29 February in a year without one
        return day.replace(year=day.year + years, day=28)


def last_transaction_at(player: Player) -> datetime | None:
    return player_records(player, "cashier_transactions").aggregate(last=Max("created_at"))["last"]


def identity_retained_until(*, player: Player, today: date | None = None) -> date | None:
    """The last day the law makes the room keep the player's identity (GDP-1): the venues'
    `identity_retention_years` after the day of the player's last cashier transaction in any
    venue (the anti-money-laundering records: the due diligence and the ledger). The obligation
    is the operator's (VEN-1), so the longest of its venues' periods counts. None when that day
    has passed, or the player never moved money: then nothing has to be kept."""
    today = today or timezone.localdate()
    last = last_transaction_at(player)
    if last is None:
        return None
    until = _years_later(
        timezone.localdate(last), max(venue.identity_retention_years for venue in venue_all())
    )
    return until if until >= today else None


@dataclass(frozen=True)
class ErasureOutlook:
    """What the player card's confirm step says an erasure would do now."""

    refusals: list[DomainError]
    retain_until: date | None
    last_transaction: datetime | None
    sessions: int
    entries: int
    transactions: int
    waiting_entries: int
    audit_records: int


def erasure_outlook(*, player: Player, today: date | None = None) -> ErasureOutlook:
    today = today or timezone.localdate()
    return ErasureOutlook(
        refusals=erasure_refusals(player=player, today=today),
        retain_until=identity_retained_until(player=player, today=today),
        last_transaction=last_transaction_at(player),
        sessions=player_records(player, "cash_sessions").count(),
        entries=player_records(player, "tournament_entries").count(),
        transactions=player_records(player, "cashier_transactions").count(),
        waiting_entries=player_records(player, "waiting_entries").count(),
        audit_records=player_audit_records(player=player).count(),
    )


def player_audit_records(*, player: Player) -> QuerySet[AuditRecord]:
    """The audit records about the player: the player's card, and each session, waiting-list
    entry, tournament entry and its payments, jackpot share and cashier posting of the player's,
    oldest first."""
    entries = list(player_records(player, "tournament_entries").values_list("pk", flat=True))
    related = {
        "players.player": [player.pk],
        "cashgame.playersession": list(player_records(player, "cash_sessions").values_list("pk", flat=True)),
        "cashgame.waitingentry": list(player_records(player, "waiting_entries").values_list("pk", flat=True)),
        "cashgame.jackpotshare": list(player.jackpot_shares.values_list("pk", flat=True)),
        "tournaments.entry": entries,
        "tournaments.entrypayment": list(
            player_records(player, "tournament_entries")
            .filter(payments__isnull=False)
            .values_list("payments", flat=True)
        ),
        "cashier.posting": list(
            player_records(player, "cashier_transactions").values_list("posting_id", flat=True)
        ),
    }
    about = Q(pk__in=[])
    for object_type, ids in related.items():
        if ids:
            about |= Q(object_type=object_type, object_id__in=[str(pk) for pk in ids])
    return AuditRecord.all_venues.filter(about).order_by("at", "pk")
