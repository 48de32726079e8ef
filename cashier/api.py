"""Cashier API: shifts, transactions with idempotency keys (CAG-2), receipts, reversals."""

from django.contrib.auth import get_user_model
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.parsers import JSONParser
from rest_framework.response import Response
from rest_framework.views import APIView

from cardroom.api import FlatSerializer, MoneyField
from cardroom.errors import DomainError
from cardroom.roles import CASHIER_ROLES, MANAGER_ROLES, has_role, roles_permission
from cashier import services
from cashier.models import (
    CashierTransaction,
    PaymentMethod,
    Posting,
    ReversalRequest,
    Shift,
    TransactionKind,
)
from cashier.selectors import drawer_expected, room_balances

CASH_DESK = roles_permission(*CASHIER_ROLES, *MANAGER_ROLES)


class CashierApi(APIView):
    """Money requests are JSON documents: a form encoding cannot say null or a nested count."""

    parser_classes = [JSONParser]


class ShiftSerializer(serializers.ModelSerializer):
    cashier = serializers.CharField(source="cashier.get_username")
    opening_float = MoneyField(source="opening_float_cents")
    expected = MoneyField(source="expected_cents", allow_null=True)
    counted = MoneyField(source="counted_cents", allow_null=True)
    variance = MoneyField(source="variance_cents", allow_null=True)
    drawer_now = serializers.SerializerMethodField()

    class Meta:
        model = Shift
        fields = [
            "id",
            "cashier",
            "status",
            "opened_at",
            "closed_at",
            "opening_float",
            "expected",
            "counted",
            "variance",
            "denominations",
            "drawer_now",
        ]

    def get_drawer_now(self, shift) -> str | None:
        return str(MoneyField().to_representation(drawer_expected(shift=shift))) if shift.is_open else None


class ShiftOpenSerializer(serializers.Serializer):
    opening_float = MoneyField(required=False, allow_null=True, default=None)
    denominations = serializers.DictField(
        child=serializers.IntegerField(min_value=0), required=False, allow_null=True, default=None
    )


class ShiftCloseSerializer(serializers.Serializer):
    counted = MoneyField(required=False, allow_null=True, default=None)
    denominations = serializers.DictField(
        child=serializers.IntegerField(min_value=0), required=False, allow_null=True, default=None
    )


class HandoverSerializer(ShiftCloseSerializer):
    to_cashier = serializers.CharField(max_length=150)


class TransactionSerializer(FlatSerializer):
    # A plain Serializer: it answers every money request, and a ModelSerializer rebuilds its
    # fields from the model on each use.
    id = serializers.IntegerField()
    receipt_number = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=TransactionKind.choices)
    shift = serializers.IntegerField(source="shift_id")
    cashier = serializers.CharField(source="cashier.get_username")
    player = serializers.IntegerField(source="player_id", allow_null=True)
    player_name = serializers.CharField(source="player.full_name", allow_null=True, default=None)
    amount = MoneyField(source="amount_cents")
    method = serializers.ChoiceField(choices=PaymentMethod.choices)
    reference = serializers.CharField()
    note = serializers.CharField()
    posting = serializers.IntegerField(source="posting_id")
    idempotency_key = serializers.CharField()
    created_at = serializers.DateTimeField()


class TransactionInputSerializer(FlatSerializer):
    kind = serializers.ChoiceField(choices=TransactionKind.choices)
    shift = serializers.IntegerField(min_value=1)
    player = serializers.IntegerField(min_value=1)
    amount = MoneyField(
        required=False,
        allow_null=True,
        default=None,
        help_text="Cash-game kinds, prize and jackpot payouts, a cancelled tournament's refund.",
    )
    method = serializers.ChoiceField(choices=PaymentMethod.choices, default=PaymentMethod.CASH)
    reference = serializers.RegexField(
        r"^[a-z_]{1,20}:[0-9]{1,18}$",
        required=False,
        allow_blank=True,
        default="",
        help_text='The cash-game table, e.g. "table:4".',
    )
    tournament = serializers.IntegerField(min_value=1, required=False, allow_null=True, default=None)
    prize = MoneyField(required=False, allow_null=True, default=None)
    fee = MoneyField(required=False, allow_null=True, default=None)
    bounty = MoneyField(required=False, allow_null=True, default=None)
    note = serializers.CharField(max_length=200, required=False, allow_blank=True, default="")
    idempotency_key = serializers.CharField(
        max_length=80, required=False, default="", help_text="Or the Idempotency-Key header (CAG-2)."
    )


def scoped_shifts(user):
    """Managers see every shift; a cashier sees his own."""
    shifts = Shift.objects.select_related("cashier", "drawer")
    return shifts if has_role(user, *MANAGER_ROLES) else shifts.filter(cashier=user)


class ShiftListApi(CashierApi):
    permission_classes = [CASH_DESK]

    @extend_schema(responses=ShiftSerializer(many=True))
    def get(self, request):
        return Response(ShiftSerializer(scoped_shifts(request.user)[:100], many=True).data)

    @extend_schema(request=ShiftOpenSerializer, responses={201: ShiftSerializer})
    def post(self, request):
        data = ShiftOpenSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        shift = services.shift_open(
            actor=request.user,
            opening_float_cents=data.validated_data["opening_float"],
            denominations=data.validated_data["denominations"],
        )
        return Response(ShiftSerializer(shift).data, status=status.HTTP_201_CREATED)


class ShiftDetailApi(CashierApi):
    permission_classes = [CASH_DESK]

    @extend_schema(responses=ShiftSerializer)
    def get(self, request, pk: int):
        return Response(ShiftSerializer(get_object_or_404(scoped_shifts(request.user), pk=pk)).data)


class ShiftCloseApi(CashierApi):
    permission_classes = [CASH_DESK]

    @extend_schema(request=ShiftCloseSerializer, responses=ShiftSerializer)
    def post(self, request, pk: int):
        data = ShiftCloseSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        shift = services.shift_close(
            actor=request.user,
            shift=get_object_or_404(scoped_shifts(request.user), pk=pk),
            counted_cents=data.validated_data["counted"],
            denominations=data.validated_data["denominations"],
        )
        return Response(ShiftSerializer(shift).data)


class ShiftHandoverApi(CashierApi):
    permission_classes = [roles_permission(*CASHIER_ROLES)]

    @extend_schema(request=HandoverSerializer, responses={201: ShiftSerializer})
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
            counted_cents=data.validated_data["counted"],
            denominations=data.validated_data["denominations"],
        )
        return Response(ShiftSerializer(shift).data, status=status.HTTP_201_CREATED)


def scoped_transactions(user):
    transactions = CashierTransaction.objects.select_related("cashier", "player")
    return transactions if has_role(user, *MANAGER_ROLES) else transactions.filter(cashier=user)


class TransactionListApi(CashierApi):
    permission_classes = [CASH_DESK]

    @extend_schema(parameters=[OpenApiParameter("shift", int)], responses=TransactionSerializer(many=True))
    def get(self, request):
        query = TransactionQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        transactions = scoped_transactions(request.user)
        if query.validated_data.get("shift"):
            transactions = transactions.filter(shift_id=query.validated_data["shift"])
        return Response(TransactionSerializer(transactions[:200], many=True).data)

    @extend_schema(
        request=TransactionInputSerializer,
        parameters=[OpenApiParameter("Idempotency-Key", str, OpenApiParameter.HEADER)],
        responses={201: TransactionSerializer},
    )
    def post(self, request):
        if not has_role(request.user, *CASHIER_ROLES):
            raise DomainError("role_required", _("Only cashiers post money."), rule="ROL-1", status_code=403)
        data = TransactionInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        key = request.headers.get("Idempotency-Key") or data.validated_data["idempotency_key"]
        record = services.transaction_create(
            actor=request.user, data=data.validated_data, idempotency_key=key
        )
        response = Response(TransactionSerializer(record).data, status=status.HTTP_201_CREATED)
        # A replay answers exactly as the first time, and says so in a header (CAG-2).
        response["Idempotent-Replayed"] = "true" if getattr(record, "replayed", False) else "false"
        return response


class TransactionQuerySerializer(serializers.Serializer):
    shift = serializers.IntegerField(required=False, min_value=1)


class TransactionDetailApi(CashierApi):
    permission_classes = [CASH_DESK]

    @extend_schema(responses=TransactionSerializer)
    def get(self, request, pk: int):
        return Response(
            TransactionSerializer(get_object_or_404(scoped_transactions(request.user), pk=pk)).data
        )


class ReversalSerializer(serializers.ModelSerializer):
    class Meta:
        model = ReversalRequest
        fields = [
            "id",
            "posting",
            "reason",
            "status",
            "requested_by",
            "requested_at",
            "decided_by",
            "decided_at",
            "reversal",
        ]


class ReversalInputSerializer(serializers.Serializer):
    posting = serializers.IntegerField(min_value=1)
    reason = serializers.CharField(max_length=2000)


class ReversalListApi(CashierApi):
    permission_classes = [CASH_DESK]

    @extend_schema(responses=ReversalSerializer(many=True))
    def get(self, request):
        requests = ReversalRequest.objects.order_by("-requested_at")
        if not has_role(request.user, *MANAGER_ROLES):
            requests = requests.filter(requested_by=request.user)
        return Response(ReversalSerializer(requests[:200], many=True).data)

    @extend_schema(request=ReversalInputSerializer, responses={201: ReversalSerializer})
    def post(self, request):
        data = ReversalInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        posting = get_object_or_404(Posting, pk=data.validated_data["posting"])
        result = services.reversal_request(
            actor=request.user, posting=posting, reason=data.validated_data["reason"]
        )
        return Response(ReversalSerializer(result).data, status=status.HTTP_201_CREATED)


class ReversalApproveApi(CashierApi):
    permission_classes = [roles_permission(*MANAGER_ROLES)]

    @extend_schema(request=None, responses=ReversalSerializer)
    def post(self, request, pk: int):
        reversal_request = get_object_or_404(ReversalRequest, pk=pk)
        services.reversal_approve(actor=request.user, request=reversal_request)
        reversal_request.refresh_from_db()
        return Response(ReversalSerializer(reversal_request).data)


class ReversalRejectApi(CashierApi):
    permission_classes = [roles_permission(*MANAGER_ROLES)]

    @extend_schema(request=None, responses=ReversalSerializer)
    def post(self, request, pk: int):
        return Response(
            ReversalSerializer(
                services.reversal_reject(
                    actor=request.user, request=get_object_or_404(ReversalRequest, pk=pk)
                )
            ).data
        )


class BalancesSerializer(serializers.Serializer):
    at = serializers.DateTimeField(allow_null=True)
    accounts = serializers.DictField(child=MoneyField())
    open_drawers = serializers.DictField(child=MoneyField(), help_text="Expected cash per open shift id.")


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
        at = query.validated_data.get("at")
        drawers = {
            str(shift.pk): drawer_expected(shift=shift, at=at)
            for shift in Shift.objects.filter(status="open").select_related("drawer")
        }
        data = {"at": at, "accounts": room_balances(at=at), "open_drawers": drawers}
        return Response(BalancesSerializer(data).data)
