"""What the session services share: the open session, the hand in progress, a free seat, events."""

from datetime import datetime

from django.utils.translation import gettext as _

from cardroom.errors import DomainError
from cashgame.models import CashTable, Hand, HandStatus, PlayerSession, SessionEvent


def _open_session(session_id: int) -> PlayerSession:
    """The session re-read under its table's lock (the caller holds it)."""
    session = PlayerSession.objects.select_related("player").get(pk=session_id)
    if not session.is_open:
        raise DomainError("session_ended", _("This session has ended."), status_code=409)
    return session


def _current_hand(table: CashTable) -> Hand | None:
    if not table.hand_in_progress:
        return None
    return Hand.objects.filter(table=table, status=HandStatus.IN_PROGRESS).first()


def _check_seat_free(
    table: CashTable, seat: int, *, exclude: int | None = None, taken: bool | None = None
) -> None:
    """Refuse a seat the table does not have or someone holds. `taken` is for a caller that
    read the seat's open session already, in a read of its own (the buy-in's)."""
    if not 1 <= seat <= table.seats:
        raise DomainError(
            "invalid_seat", _("%(table)s has seats 1 to %(seats)d.") % {"table": table, "seats": table.seats}
        )
    if taken is None:
        holders = PlayerSession.objects.filter(table=table, seat=seat, ended_at__isnull=True)
        if exclude is not None:
            holders = holders.exclude(pk=exclude)
        taken = holders.exists()
    if taken:
        raise DomainError(
            "seat_taken",
            _("Seat %(seat)d at %(table)s is taken.") % {"seat": seat, "table": table},
            status_code=409,
        )


def _event(session: PlayerSession, kind: str, *, actor, now: datetime, **fields) -> SessionEvent:
    return SessionEvent.objects.create(session=session, kind=kind, actor=actor, at=now, **fields)
