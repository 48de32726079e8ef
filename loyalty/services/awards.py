"""Points earned (LOY-1): a lot per ended cash-game session and per played tournament entry,
and the points of an entry given back taken back. The sweep (`points_award_due`, every minute
from beat) finds what is not awarded yet; each award re-checks under the player's lock, and a
lot's unique source stops a second award even if two sweeps race.

A session counts whole, from seated to left, by the minute (seconds dropped, points rounded
down), at the rate of the game of its table, and belongs to the gaming day it started in; it is
awarded once it has ended. Money corrections of a session (CAG-6) do not change the time played,
so they change no points. An entry earns once it has played (busted, or its tournament
finished); an entry given back afterwards (refunded, withdrawn) has its points taken back by a
new posting, as far as the player still holds points (what he already spent stays spent).
"""

from datetime import datetime

from django.db import transaction
from django.db.models import Q

from cardroom.selectors import gaming_day_of
from cardroom.services import audit_record
from cardroom.venues import venue_by_pk
from cashgame.models import PlayerSession
from cashier.models import AccountKind
from cashier.services import account_for, ledger_post
from loyalty.models import Lot, Movement, MovementKind
from loyalty.selectors import balance_of, points_worth, rate_for_game, settings_get
from loyalty.services._common import lots_take, member_lock
from loyalty.services.expiry import points_expire_due
from tournaments.models import Entry, EntryStatus, TournamentStatus
from tournaments.models.entries import COUNTED_STATUSES

# Work done per venue and sweep; the next sweep (a minute later) takes the rest.
BATCH = 500


def _award(
    *,
    player_id: int,
    points: int,
    minutes: int,
    played_from: datetime,
    earned_at: datetime,
    description: str,
    now: datetime,
    **source,
) -> Lot:
    """Write the lot, its posting (Dr loyalty expense, Cr points outstanding), its history line
    and its audit record. The caller holds the member lock."""
    terms = settings_get()
    venue = venue_by_pk(terms.venue_id)
    before, _worth = balance_of(player_id=player_id)
    value = points_worth(points=points, terms=terms)
    lot = Lot.objects.create(
        player_id=player_id,
        earned_at=earned_at,
        gaming_day=gaming_day_of(played_from, venue=venue),
        minutes=minutes,
        points=points,
        points_left=points,
        value_cents=value,
        value_left_cents=value,
        **source,
    )
    if points == 0:  # played too briefly to earn: the lot only marks the play as counted
        return lot
    posting = None
    if value:
        posting = ledger_post(
            lines=[
                (account_for(kind=AccountKind.LOYALTY_EXPENSE), value),
                (account_for(kind=AccountKind.LOYALTY_LIABILITY), -value),
            ],
            description=description,
            now=now,
        )
    Movement.objects.create(
        player_id=player_id,
        kind=MovementKind.AWARD,
        at=now,
        points=points,
        value_cents=value,
        balance_after=before + points,
        description=description,
        lot=lot,
        posting=posting,
    )
    audit_record(
        actor=None,
        action="loyalty.award",
        obj=lot,
        before={"points": before},
        after={
            "points": before + points,
            "awarded": points,
            "value_cents": value,
            **{key: getattr(obj, "pk", obj) for key, obj in source.items()},
        },
        now=now,
    )
    return lot


@transaction.atomic
def session_points_award(*, session_id: int, now: datetime) -> Lot | None:
    """Award an ended session's points once (None: already awarded)."""
    session = PlayerSession.objects.select_related("table").get(pk=session_id)
    member_lock(session.player_id)
    if session.ended_at is None or Lot.objects.filter(session_id=session_id).exists():
        return None
    minutes = int((session.ended_at - session.started_at).total_seconds()) // 60
    rate = rate_for_game(game_id=session.table.game_id, terms=settings_get())
    return _award(
        player_id=session.player_id,
        points=minutes * rate // 60,
        minutes=minutes,
        played_from=session.started_at,
        earned_at=session.ended_at,
        description=f"Loyalty points for session {session.pk} ({minutes} min)",
        now=now,
        session=session,
    )


@transaction.atomic
def entry_points_award(*, entry_id: int, now: datetime) -> Lot | None:
    """Award a played entry's points once (None: already awarded, or not played)."""
    entry = Entry.objects.select_related("tournament").get(pk=entry_id)
    member_lock(entry.player_id)
    if entry.status not in COUNTED_STATUSES or Lot.objects.filter(entry_id=entry_id).exists():
        return None
    tournament = entry.tournament
    ended = entry.busted_at or tournament.finished_at
    if ended is None:
        return None
    terms = settings_get()
    points = terms.entry_points + terms.entry_points_per_100_eur * (tournament.buy_in_cents // 10_000)
    return _award(
        player_id=entry.player_id,
        points=points,
        minutes=0,
        played_from=entry.registered_at,
        earned_at=ended,
        description=f"Loyalty points for entry {entry.pk} in tournament {tournament.pk}",
        now=now,
        entry=entry,
    )


@transaction.atomic
def entry_points_take_back(*, lot_id: int, now: datetime) -> Movement | None:
    """An entry given back after its award: its points leave the balance (its own lot's first,
    then the oldest), as many as the player still holds. Dr points outstanding, Cr expense."""
    lot = Lot.objects.get(pk=lot_id)
    member_lock(lot.player_id)
    lot = Lot.objects.select_related("entry").get(pk=lot_id)
    if lot.taken_back_at is not None or lot.entry is None or lot.entry.status in COUNTED_STATUSES:
        return None
    before, _worth = balance_of(player_id=lot.player_id)
    own = lot.points_left
    own_worth = lot.value_left_cents
    lot.points_left = 0
    lot.value_left_cents = 0
    lot.taken_back_at = now
    lot.save(update_fields=["points_left", "value_left_cents", "taken_back_at"])
    rest = lots_take(player_id=lot.player_id, points=min(lot.points - own, before - own))
    points, value = own + rest.points, own_worth + rest.value_cents
    description = f"Loyalty points taken back: entry {lot.entry_id} given back"
    posting = None
    if value:
        posting = ledger_post(
            lines=[
                (account_for(kind=AccountKind.LOYALTY_LIABILITY), value),
                (account_for(kind=AccountKind.LOYALTY_EXPENSE), -value),
            ],
            description=description,
            now=now,
        )
    movement = Movement.objects.create(
        player_id=lot.player_id,
        kind=MovementKind.TAKE_BACK,
        at=now,
        points=-points,
        value_cents=-value,
        balance_after=before - points,
        description=description,
        lot=lot,
        posting=posting,
    )
    audit_record(
        actor=None,
        action="loyalty.take_back",
        obj=lot,
        before={"points": before},
        after={"points": before - points, "taken_back": points, "value_cents": value, "entry": lot.entry_id},
        now=now,
    )
    return movement


def points_award_due(*, now: datetime) -> int:
    """The sweep of the active venue: awards, take-backs and expiries due. Idempotent; returns
    the number of changes made."""
    done = 0
    sessions = PlayerSession.objects.filter(
        ended_at__isnull=False, ended_at__lte=now, loyalty_lot__isnull=True
    ).order_by("ended_at", "pk")
    for session_id in sessions.values_list("pk", flat=True)[:BATCH]:
        done += session_points_award(session_id=session_id, now=now) is not None
    entries = Entry.objects.filter(
        Q(busted_at__isnull=False, busted_at__lte=now) | Q(tournament__status=TournamentStatus.FINISHED),
        status__in=COUNTED_STATUSES,
        loyalty_lot__isnull=True,
    ).order_by("pk")
    for entry_id in entries.values_list("pk", flat=True)[:BATCH]:
        done += entry_points_award(entry_id=entry_id, now=now) is not None
    given_back = Lot.objects.filter(
        entry__status__in=[EntryStatus.WITHDRAWN, EntryStatus.REFUNDED, EntryStatus.REFUND_DUE],
        taken_back_at__isnull=True,
    ).order_by("pk")
    for lot_id in given_back.values_list("pk", flat=True)[:BATCH]:
        done += entry_points_take_back(lot_id=lot_id, now=now) is not None
    return done + points_expire_due(now=now)
