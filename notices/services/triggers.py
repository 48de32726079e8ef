"""Who is told what, when a piece of news comes (NOT-1). The floor's services send these by
name after their commit (cardroom.task_queue.send_on_commit, robust), so nothing here can hold
or roll back the floor's action: a trigger writes one notice per phone and SMS number of each
consent in force and queues its delivery (notices.deliver), which retries on its own.

Each notice is written in the language the player chose (the subscription's for a phone, the
consent's for SMS), and `about` names the news, so a trigger that runs twice sends nothing twice.
"""

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from cardroom.money import format_eur
from cardroom.selectors import venue_zone
from cardroom.task_queue import send_on_commit
from cashgame.models import WaitingEntry, WaitStatus
from loyalty.selectors import player_link_token
from notices.models import Channel, NoticeConsent, NoticeKind, NoticeLog
from notices.selectors import consents_for
from tournaments.models import Entry, EntryStatus, Tournament


@dataclass(frozen=True)
class News:
    kind: str
    about: str
    words: Callable[[], tuple[str, str]]  # (title, body), called in the reader's language
    expires_at: datetime | None = None


def _page(consent: NoticeConsent, news: News) -> str:
    """The page a tap opens: the one he consented on, except that a member's tournament and
    payout news open his private page (a waiting-list link lasts a day)."""
    if news.kind != NoticeKind.SEAT_READY and consent.player_id is not None:
        return reverse("loyalty_room:me", args=[player_link_token(player_id=consent.player_id)])
    return consent.page_path


def _queue(consent: NoticeConsent, news: News, *, now: datetime) -> list[NoticeLog]:
    targets = [
        (Channel.PUSH, s.endpoint, s.language, s) for s in consent.subscriptions.all() if s.ended_at is None
    ]
    if consent.sms_number:
        targets.append((Channel.SMS, consent.sms_number, consent.language, None))
    written = []
    for channel, to, language, subscription in targets:
        with translation.override(language):
            title, body = news.words()
        try:
            with transaction.atomic():
                log = NoticeLog.objects.create(
                    consent=consent,
                    subscription=subscription,
                    channel=channel,
                    kind=news.kind,
                    about=news.about,
                    to=to,
                    language=language,
                    title=str(title)[:200],
                    body=str(body)[:500],
                    url=_page(consent, news),
                    created_at=now,
                    expires_at=news.expires_at,
                )
        except IntegrityError:
            continue  # told already: this trigger ran before
        send_on_commit("notices.deliver", eta=now, robust=True, log_id=log.pk)
        written.append(log)
    return written


def _tell(consents, news: News, *, now: datetime) -> list[NoticeLog]:
    return [log for consent in consents for log in _queue(consent, news, now=now)]


def _clock(moment: datetime) -> str:
    return timezone.localtime(moment, venue_zone()).strftime("%H:%M")


@transaction.atomic
def notices_seat_ready(*, entry_id: int, now: datetime | None = None) -> list[NoticeLog]:
    """WTL-2's call: the table, the seat, and until when it is held. The news is stale once the
    hold is over, so it is not sent after that."""
    now = now or timezone.now()
    entry = WaitingEntry.objects.select_related("table", "game").filter(pk=entry_id).first()
    if entry is None or entry.status != WaitStatus.CALLED or entry.hold_until is None:
        return []
    minutes = max(1, round((entry.hold_until - now).total_seconds() / 60))

    def words():
        title = _("Your seat is ready")
        body = _(
            "%(game)s: table %(table)s, seat %(seat)s is held for you until %(time)s "
            "(%(minutes)d min). Come to the desk."
        ) % {
            "game": entry.game.name,
            "table": entry.table.number,
            "seat": entry.seat or "—",
            "time": _clock(entry.hold_until),
            "minutes": minutes,
        }
        return title, body

    news = News(
        kind=NoticeKind.SEAT_READY,
        about=f"seat_ready:{entry.pk}:{entry.called_at.isoformat()}",
        words=words,
        expires_at=entry.hold_until,
    )
    return _tell(consents_for(player_ids=[entry.player_id], entry_id=entry.pk), news, now=now)


def _live_players(tournament: Tournament) -> list[int]:
    return list(
        tournament.entries.filter(status=EntryStatus.ACTIVE).values_list("player_id", flat=True).distinct()
    )


@transaction.atomic
def notices_tournament_start(*, tournament_id: int, now: datetime | None = None) -> list[NoticeLog]:
    now = now or timezone.now()
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None:
        return []
    news = News(
        kind=NoticeKind.TOURNAMENT_START,
        about=f"tournament_start:{tournament.pk}",
        words=lambda: (
            _("Your tournament has started"),
            _("%(name)s has started. Take your seat.") % {"name": tournament.name},
        ),
    )
    return _tell(consents_for(player_ids=_live_players(tournament)), news, now=now)


@transaction.atomic
def notices_tournament_break(
    *, tournament_id: int, level: int, ends: str, now: datetime | None = None
) -> list[NoticeLog]:
    """A break began by the clock; `level` is its index, `ends` its end (ISO)."""
    now = now or timezone.now()
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None:
        return []
    ends_at = datetime.fromisoformat(ends)
    news = News(
        kind=NoticeKind.TOURNAMENT_BREAK,
        about=f"tournament_break:{tournament.pk}:{level}",
        words=lambda: (
            _("Break"),
            _("%(name)s is on a break until %(time)s.") % {"name": tournament.name, "time": _clock(ends_at)},
        ),
        expires_at=ends_at,
    )
    return _tell(consents_for(player_ids=_live_players(tournament)), news, now=now)


@transaction.atomic
def notices_table_draw(*, tournament_id: int, now: datetime | None = None) -> list[NoticeLog]:
    """The seat draw: each player is told his own table and seat."""
    now = now or timezone.now()
    written = []
    entries = Entry.objects.select_related("tournament", "table").filter(
        tournament_id=tournament_id, status=EntryStatus.ACTIVE, table__isnull=False
    )
    for entry in entries.order_by("pk"):
        news = News(
            kind=NoticeKind.TABLE_DRAW,
            about=f"table_draw:{entry.pk}:{entry.table_id}:{entry.seat}",
            words=lambda entry=entry: (
                _("Your seat is drawn"),
                _("%(name)s: table %(table)s, seat %(seat)s.")
                % {"name": entry.tournament.name, "table": entry.table.number, "seat": entry.seat},
            ),
        )
        written += _tell(consents_for(player_ids=[entry.player_id]), news, now=now)
    return written


@transaction.atomic
def notices_payout_ready(*, entry_id: int, now: datetime | None = None) -> list[NoticeLog]:
    """A prize became payable: the cage can pay it."""
    now = now or timezone.now()
    entry = Entry.objects.select_related("tournament").filter(pk=entry_id).first()
    if entry is None or not entry.prize_cents:
        return []
    news = News(
        kind=NoticeKind.PAYOUT_READY,
        about=f"payout_ready:{entry.pk}",
        words=lambda: (
            _("Your payout is ready"),
            _("%(name)s: %(amount)s is ready for you at the cage.")
            % {"name": entry.tournament.name, "amount": format_eur(entry.prize_cents)},
        ),
    )
    return _tell(consents_for(player_ids=[entry.player_id]), news, now=now)
