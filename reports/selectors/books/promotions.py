"""LOY-2: each high-hand promotion's fund holds the drops taken from its qualifying pots and what
the house added to cover a prize, less the awards the cage paid."""

from django.db.models import Sum
from django.utils.translation import gettext_lazy as _

from cashgame.models import HighHandAward, Promotion, PromotionDrop, PromotionPeriod
from cashier.models import AccountKind
from cashier.selectors import account_amounts
from reports.selectors.books._common import BookCheck


def _by_promotion(queryset, path: str, field: str = "amount_cents") -> dict[int, int]:
    return {row[path]: row["total"] or 0 for row in queryset.values(path).annotate(total=Sum(field))}


def promotion_house_cents() -> int:
    """What the house added to the promotions' funds from its promotion expense."""
    return (
        PromotionPeriod.objects.filter(promotion__in=Promotion.objects.all()).aggregate(
            total=Sum("house_cents")
        )["total"]
        or 0
    )


def promotion_checks() -> list[BookCheck]:
    promotions = list(Promotion.objects.order_by("pk"))
    if not promotions:
        return []
    drops = _by_promotion(PromotionDrop.objects.filter(promotion__in=promotions), "promotion_id")
    house = _by_promotion(
        PromotionPeriod.objects.filter(promotion__in=promotions), "promotion_id", "house_cents"
    )
    paid = _by_promotion(
        HighHandAward.objects.filter(period__promotion__in=promotions, transaction__isnull=False),
        "period__promotion_id",
    )
    funds = account_amounts(accounts=[(AccountKind.PROMOTION_FUND, p.reference) for p in promotions])
    return [
        BookCheck(
            str(_("High-hand fund of %(promotion)s = drops + added by the house - prizes paid"))
            % {"promotion": promotion.name},
            drops.get(promotion.pk, 0) + house.get(promotion.pk, 0) - paid.get(promotion.pk, 0),
            funds[(AccountKind.PROMOTION_FUND, promotion.reference)],
        )
        for promotion in promotions
    ]
