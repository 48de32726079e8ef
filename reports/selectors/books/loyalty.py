"""LOY-1: the loyalty liability is the worth the players' points lots still carry; comps
payable is the worth of the vouchers given (the bar is paid outside the cage's books)."""

from django.db.models import Q, Sum
from django.utils.translation import gettext_lazy as _

from cashier.models import AccountKind
from loyalty.models import Lot, Movement, MovementKind
from reports.selectors.books._common import BookCheck, _sums


def loyalty_checks(amounts: dict) -> list[BookCheck]:
    lots = _sums(Lot.objects.all(), left=Sum("value_left_cents"))
    vouchers = _sums(Movement.objects.filter(Q(kind=MovementKind.VOUCHER)), given=Sum("value_cents"))
    return [
        BookCheck(
            str(_("Loyalty points outstanding = the worth left in the players' points")),
            lots["left"],
            amounts[(AccountKind.LOYALTY_LIABILITY, "")],
        ),
        BookCheck(
            str(_("Food and drink comps payable = the vouchers given for points")),
            -vouchers["given"],
            amounts[(AccountKind.COMPS_PAYABLE, "")],
        ),
    ]
