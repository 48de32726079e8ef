"""A venue's loyalty terms, edited by managers (LOY-1): the settings, a rate per game and
stakes, the tiers; and a player's private link revoked. Every change is audited."""

from datetime import datetime

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from cardroom.roles import MANAGER_ROLES, PLAYER_DESK_ROLES, require_role
from cardroom.services import audit_record, snapshot
from cashgame.models import Game
from loyalty.models import EarnRate, LoyaltySettings, Member, Tier
from loyalty.selectors import settings_get
from loyalty.services._common import member_lock, refuse

SETTINGS_FIELDS = [
    "default_points_per_hour",
    "entry_points",
    "entry_points_per_100_eur",
    "value_cents",
    "value_points",
    "tier_period_days",
    "expiry_months",
]
LIMITS = {"value_cents": 1, "value_points": 1, "tier_period_days": 1, "expiry_months": 1}


@transaction.atomic
def loyalty_settings_update(*, actor, now: datetime | None = None, **changes: int) -> LoyaltySettings:
    require_role(actor, *MANAGER_ROLES)
    unknown = set(changes) - set(SETTINGS_FIELDS)
    if unknown:
        raise refuse("unknown_setting", _("Unknown setting: %s") % ", ".join(sorted(unknown)))
    for name, value in changes.items():
        if (
            not isinstance(value, int)
            or isinstance(value, bool)
            or value < LIMITS.get(name, 0)
            or value > 10**6
        ):
            raise refuse("invalid_setting", _("Each setting is a whole number in its range."))
    terms = settings_get()
    if terms.pk is not None:
        terms = LoyaltySettings.objects.select_for_update(of=("self",)).get(pk=terms.pk)
    before = snapshot(terms, SETTINGS_FIELDS) if terms.pk else None
    for name, value in changes.items():
        setattr(terms, name, value)
    try:
        with transaction.atomic():
            terms.save()
    except IntegrityError as error:  # another manager saved the first settings at this moment
        raise refuse(
            "settings_changed", _("The settings were just saved by someone else: try again."), 409
        ) from error
    audit_record(
        actor=actor,
        action="loyalty.settings",
        obj=terms,
        before=before,
        after=snapshot(terms, SETTINGS_FIELDS),
        now=now or timezone.now(),
    )
    return terms


@transaction.atomic
def earn_rate_set(
    *, actor, game: Game, points_per_hour: int | None, now: datetime | None = None
) -> EarnRate | None:
    """A game's own rate; None removes it (the game earns the venue's default again)."""
    require_role(actor, *MANAGER_ROLES)
    if points_per_hour is not None and not 0 <= points_per_hour <= 10**6:
        raise refuse("invalid_rate", _("A rate is a whole number of points per hour."))
    rate = EarnRate.objects.select_for_update(of=("self",)).filter(game=game).first()
    before = {"points_per_hour": rate.points_per_hour} if rate else None
    if points_per_hour is None:
        if rate:
            rate.delete()
        rate = None
    else:
        rate, _created = EarnRate.objects.update_or_create(
            game=game, defaults={"points_per_hour": points_per_hour}
        )
    audit_record(
        actor=actor,
        action="loyalty.rate",
        obj=game,
        before=before,
        after={"points_per_hour": points_per_hour},
        now=now or timezone.now(),
    )
    return rate


@transaction.atomic
def tier_save(
    *, actor, name: str, min_points: int, tier: Tier | None = None, now: datetime | None = None
) -> Tier:
    require_role(actor, *MANAGER_ROLES)
    name = (name or "").strip()
    if not name or len(name) > 60 or min_points < 0:
        raise refuse("invalid_tier", _("A tier needs a name and the points it starts at."))
    clash = Tier.objects.exclude(pk=tier.pk if tier else None).filter(name=name) | Tier.objects.exclude(
        pk=tier.pk if tier else None
    ).filter(min_points=min_points)
    if clash.exists():
        raise refuse("tier_clash", _("Another tier has this name or starts at these points."), 409)
    before = snapshot(tier, ["name", "min_points"]) if tier else None
    tier = tier or Tier()
    tier.name, tier.min_points = name, min_points
    tier.save()
    audit_record(
        actor=actor,
        action="loyalty.tier",
        obj=tier,
        before=before,
        after=snapshot(tier, ["name", "min_points"]),
        now=now or timezone.now(),
    )
    return tier


@transaction.atomic
def tier_delete(*, actor, tier: Tier, now: datetime | None = None) -> None:
    require_role(actor, *MANAGER_ROLES)
    audit_record(
        actor=actor,
        action="loyalty.tier_delete",
        obj=tier,
        before=snapshot(tier, ["name", "min_points"]),
        now=now or timezone.now(),
    )
    tier.delete()


@transaction.atomic
def member_link_revoke(*, actor, player_id: int, now: datetime | None = None) -> Member:
    """A new private link for the player: every older one stops working (a lost phone)."""
    require_role(actor, *PLAYER_DESK_ROLES)
    member = member_lock(player_id)
    before = member.link_version
    member.link_version += 1
    member.save(update_fields=["link_version"])
    audit_record(
        actor=actor,
        action="loyalty.link_revoke",
        object_type="players.player",
        object_id=player_id,
        before={"link_version": before},
        after={"link_version": member.link_version},
        now=now or timezone.now(),
    )
    return member
