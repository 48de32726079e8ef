"""Cashier API: shifts and drawers, transactions as read back, balances. Amounts are integer
cents (`*_cents`). Money requests and corrections go through the cage (cage/api.py, CAG-6)."""

from django.contrib.auth import get_user_model
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from cardroom.api import CentsField, MoneyRequestSerializer, Pagination, paginated_response
from cardroom.errors import DomainError
from cardroom.parsers import JSONParser
from cardroom.roles import CASHIER_ROLES, MANAGER_ROLES, has_role, roles_permission
from cashier import services
from cashier.models import (
    CashierTransaction,
    Shift,
)
from cashier.selectors import drawer_expected, room_balances

CASH_DESK = roles_permission(*CASHIER_ROLES, *MANAGER_ROLES)


class CashierApi(APIView):
    """Money requests are JSON documents: a form encoding cannot say null or a nested count."""

    parser_classes = [JSONParser]


class ShiftSerializer(serializers.ModelSerializer):
    cashier = serializers.CharField(source="cashier.get_username")
    drawer_now_cents = serializers.SerializerMethodField()
    recount_asked = serializers.BooleanField(
        read_only=True,
        help_text="The count differed by more than the venue's recount threshold: count again (CAG-3).",
    )

    class Meta:
        model = Shift
        fields = [
            "id",
            "cashier",
            "status",
            "opened_at",
            "closed_at",
            "opening_float_cents",
            "expected_cents",
            "counted_cents",
            "variance_cents",
            "denominations",
            "first_count_cents",
            "first_counted_at",
            "recount_asked",
            "drawer_now_cents",
        ]

    def get_drawer_now_cents(self, shift) -> int | None:
        return drawer_expected(shift=shift) if shift.is_open else None


class ShiftOpenSerializer(MoneyRequestSerializer):
    opening_float_cents = CentsField(required=False, allow_null=True, default=None)
    denominations = serializers.DictField(
        child=serializers.IntegerField(min_value=0), required=False, allow_null=True, default=None
    )


class ShiftCloseSerializer(MoneyRequestSerializer):
    counted_cents = CentsField(required=False, allow_null=True, default=None)
    denominations = serializers.DictField(
        child=serializers.IntegerField(min_value=0), required=False, allow_null=True, default=None
    )


class HandoverSerializer(ShiftCloseSerializer):
    to_cashier = serializers.CharField(max_length=150)


class TransactionSerializer(serializers.ModelSerializer):
    shift = serializers.IntegerField(source="shift_id")
    cashier = serializers.CharField(source="cashier.get_username")
    player = serializers.IntegerField(source="player_id", allow_null=True)
    player_name = serializers.CharField(source="player.full_name", allow_null=True, default=None)
    posting = serializers.IntegerField(source="posting_id")

    class Meta:
        model = CashierTransaction
        fields = [
            "id",
            "receipt_number",
            "kind",
            "shift",
            "cashier",
            "player",
            "player_name",
            "amount_cents",
            "method",
            "reference",
            "note",
            "posting",
            "idempotency_key",
            "created_at",
        ]


def scoped_shifts(user):
    """Managers see every shift; a cashier sees his own. Newest first, pk breaking ties, so
    pages neither repeat nor skip a shift."""
    shifts = Shift.objects.select_related("cashier", "drawer").order_by("-opened_at", "-pk")
    return shifts if has_role(user, *MANAGER_ROLES) else shifts.filter(cashier=user)


class ShiftListApi(CashierApi):
    permission_classes = [CASH_DESK]
    pagination_class = Pagination

    @extend_schema(responses=ShiftSerializer(many=True))
    def get(self, request):
        return paginated_response(
            request=request, view=self, items=scoped_shifts(request.user), serializer_class=ShiftSerializer
        )

    @extend_schema(request=ShiftOpenSerializer, responses={201: ShiftSerializer})
    def post(self, request):
        data = ShiftOpenSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        shift = services.shift_open(
            actor=request.user,
            opening_float_cents=data.validated_data["opening_float_cents"],
            denominations=data.validated_data["denominations"],
        )
        return Response(ShiftSerializer(shift).data, status=status.HTTP_201_CREATED)


class ShiftDetailApi(CashierApi):
    permission_classes = [CASH_DESK]

    @extend_schema(responses=ShiftSerializer)
    def get(self, request, pk: int):
        return Response(ShiftSerializer(get_object_or_404(scoped_shifts(request.user), pk=pk)).data)


class ShiftCloseApi(CashierApi):
    """Count the drawer and close the shift (CAG-3). A count further from the expected amount
    than the venue's recount threshold closes nothing the first time: the answer is the shift,
    still open, with `recount_asked`; the next count closes it. An `Idempotency-Key` header makes
    a repeated request the same count, never the recount."""

    permission_classes = [CASH_DESK]

    @extend_schema(request=ShiftCloseSerializer, responses=ShiftSerializer)
    def post(self, request, pk: int):
        data = ShiftCloseSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        shift = services.shift_close(
            actor=request.user,
            shift=get_object_or_404(scoped_shifts(request.user), pk=pk),
            counted_cents=data.validated_data["counted_cents"],
            denominations=data.validated_data["denominations"],
            idempotency_key=request.headers.get("Idempotency-Key") or None,
        )
        return Response(ShiftSerializer(shift).data)


class ShiftHandoverApi(CashierApi):
    """Hand the drawer over: 201 with the receiving cashier's new shift, or 200 with this shift,
    still open with `recount_asked`, when the count must be made again first (CAG-3)."""

    permission_classes = [roles_permission(*CASHIER_ROLES)]

    @extend_schema(request=HandoverSerializer, responses={201: ShiftSerializer, 200: ShiftSerializer})
    def post(self, request, pk: int):
        data = HandoverSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        receiver = get_user_model().objects.filter(username=data.validated_data["to_cashier"]).first()
        if receiver is None:
            raise DomainError("unknown_cashier", _("Unknown cashier."), status_code=404)
        shift = services.shift_handover(
            actor=request.user,
            shift=get_object_or_404(scoped_shifts(request.user), pk=pk),
            to_cashier=receiver,
            counted_cents=data.validated_data["counted_cents"],
            denominations=data.validated_data["denominations"],
        )
        if shift.recount_asked:
            return Response(ShiftSerializer(shift).data)
        return Response(ShiftSerializer(shift).data, status=status.HTTP_201_CREATED)


def scoped_transactions(user):
    transactions = CashierTransaction.objects.select_related("cashier", "player")
    return transactions if has_role(user, *MANAGER_ROLES) else transactions.filter(cashier=user)


class TransactionDetailApi(CashierApi):
    permission_classes = [CASH_DESK]

    @extend_schema(responses=TransactionSerializer)
    def get(self, request, pk: int):
        return Response(
            TransactionSerializer(get_object_or_404(scoped_transactions(request.user), pk=pk)).data
        )


class BalancesSerializer(serializers.Serializer):
    at = serializers.DateTimeField(allow_null=True)
    accounts_cents = serializers.DictField(child=serializers.IntegerField())
    open_drawers_cents = serializers.DictField(
        child=serializers.IntegerField(), help_text="Expected cash per open shift id."
    )


class BalancesQuerySerializer(serializers.Serializer):
    # RFC 3339 with an explicit offset: a moment must not depend on the server's zone.
    at = serializers.RegexField(
        r"^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$", required=False
    )

    def validate_at(self, value: str):
        moment = serializers.DateTimeField().to_internal_value(value)
        if not 2000 <= moment.year <= 9000:
            raise serializers.ValidationError(_("Give a time between the years 2000 and 9000."))
        return moment

    def validate(self, data):
        # An empty ?at= is skipped by the field; it is still a malformed time, not "now".
        if "at" in self.initial_data and "at" not in data:
            raise serializers.ValidationError(
                {"at": _("Give a time with its offset, e.g. 2026-11-29T06:00:00+01:00.")}
            )
        return data


class BalancesApi(CashierApi):
    """Where the room's money is, at any moment (CAG-1): managers only."""

    permission_classes = [roles_permission(*MANAGER_ROLES)]

    @extend_schema(parameters=[OpenApiParameter("at", OpenApiTypes.DATETIME)], responses=BalancesSerializer)
    def get(self, request):
        query = BalancesQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        return Response(BalancesSerializer(room_balances(at=query.validated_data.get("at"))).data)
