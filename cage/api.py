"""The cage's API: money requests of every kind (CAG-6) and corrections (CAG-1).

`POST /api/cashier/transactions/` takes a request by its kind and carries it out through the
game's service, with the game's checks; a prize/fee split is never typed (the tournament's
own split is used). Amounts are integer cents. The `Idempotency-Key` header (or the
`idempotency_key` field) makes a repeat answer with the first result (CAG-2).
"""

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response

from cage import services
from cardroom.api import CentsField, MoneyRequestSerializer, Pagination, money_response, paginated_response
from cardroom.errors import DomainError
from cardroom.idempotency import replay_watch
from cardroom.roles import CASHIER_ROLES, MANAGER_ROLES, has_role, roles_permission
from cashier.api import CASH_DESK, CashierApi, TransactionSerializer, scoped_transactions
from cashier.models import DESK_METHODS, PaymentMethod, Posting, ReversalRequest, Shift, TransactionKind
from cashier.services import reversal_reject

TYPED_SPLIT_FIELDS = ("prize", "fee", "bounty", "prize_cents", "fee_cents", "bounty_cents")


class TransactionInputSerializer(MoneyRequestSerializer):
    # Refused by `validate` with a message of their own (CAG-6), not as unknown fields.
    refused_elsewhere = TYPED_SPLIT_FIELDS

    kind = serializers.ChoiceField(choices=TransactionKind.choices)
    shift = serializers.IntegerField(min_value=1)
    player = serializers.IntegerField(min_value=1)
    amount_cents = CentsField(
        required=False,
        allow_null=True,
        default=None,
        help_text="Cash-game buy-in, top-up and cash-out. For a payment the game computes (a prize, "
        "a refund, a jackpot share) it may be given and must then be that amount.",
    )
    method = serializers.ChoiceField(choices=DESK_METHODS, default=PaymentMethod.CASH)
    table = serializers.IntegerField(min_value=1, required=False, allow_null=True, default=None)
    seat = serializers.IntegerField(min_value=1, max_value=10, required=False, allow_null=True, default=None)
    chips_on_table_cents = CentsField(
        required=False,
        allow_null=True,
        default=None,
        help_text="Top-up: the chips the dealer counted (CSH-5).",
    )
    tournament = serializers.IntegerField(min_value=1, required=False, allow_null=True, default=None)
    ticket = serializers.IntegerField(
        min_value=1,
        required=False,
        allow_null=True,
        default=None,
        help_text="Tournament buy-in or re-entry paid with this ticket (SER-1): no money moves.",
    )
    idempotency_key = serializers.CharField(
        max_length=80, required=False, default="", help_text="Or the Idempotency-Key header (CAG-2)."
    )

    def validate(self, data):
        typed = [name for name in TYPED_SPLIT_FIELDS if self.initial_data.get(name) not in (None, "")]
        if typed:
            raise DomainError(
                "split_typed",
                _(
                    "A tournament's prize, fee and bounty parts are never typed: the tournament's own "
                    "split is used. Leave out %(fields)s."
                )
                % {"fields": ", ".join(typed)},
                rule="CAG-6",
            )
        return data


class TransactionQuerySerializer(serializers.Serializer):
    shift = serializers.IntegerField(required=False, min_value=1)


class TransactionListApi(CashierApi):
    permission_classes = [CASH_DESK]
    pagination_class = Pagination

    @extend_schema(parameters=[OpenApiParameter("shift", int)], responses=TransactionSerializer(many=True))
    def get(self, request):
        query = TransactionQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        transactions = scoped_transactions(request.user)
        if query.validated_data.get("shift"):
            transactions = transactions.filter(shift_id=query.validated_data["shift"])
        return paginated_response(
            request=request, view=self, items=transactions, serializer_class=TransactionSerializer
        )

    @extend_schema(
        request=TransactionInputSerializer,
        parameters=[OpenApiParameter("Idempotency-Key", str, OpenApiParameter.HEADER)],
        responses={201: TransactionSerializer, 200: TransactionSerializer},
    )
    def post(self, request):
        if not has_role(request.user, *CASHIER_ROLES):
            raise DomainError("role_required", _("Only cashiers post money."), rule="ROL-1", status_code=403)
        data = TransactionInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        key = request.headers.get("Idempotency-Key") or values["idempotency_key"]
        with replay_watch() as outcome:
            record = services.transaction_route(
                actor=request.user,
                shift=Shift(pk=values["shift"]),
                request=services.DeskRequest(
                    kind=values["kind"],
                    player_id=values["player"],
                    amount_cents=values["amount_cents"],
                    method=values["method"],
                    table_id=values["table"],
                    seat=values["seat"],
                    chips_on_table_cents=values["chips_on_table_cents"],
                    tournament_id=values["tournament"],
                    ticket_id=values["ticket"],
                ),
                idempotency_key=key,
            )
        return money_response(TransactionSerializer(record).data, replayed=outcome.replayed)


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


class ReversalInputSerializer(MoneyRequestSerializer):
    posting = serializers.IntegerField(min_value=1)
    reason = serializers.CharField(max_length=2000)


class ReversalListApi(CashierApi):
    permission_classes = [CASH_DESK]
    pagination_class = Pagination

    @extend_schema(responses=ReversalSerializer(many=True))
    def get(self, request):
        # pk breaks ties, so a page never repeats or skips a request of the same moment.
        requests = ReversalRequest.objects.order_by("-requested_at", "-pk")
        if not has_role(request.user, *MANAGER_ROLES):
            requests = requests.filter(requested_by=request.user)
        return paginated_response(
            request=request, view=self, items=requests, serializer_class=ReversalSerializer
        )

    @extend_schema(request=ReversalInputSerializer, responses={201: ReversalSerializer})
    def post(self, request):
        data = ReversalInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        posting = get_object_or_404(Posting, pk=data.validated_data["posting"])
        result = services.correction_request(
            actor=request.user, posting=posting, reason=data.validated_data["reason"]
        )
        return Response(ReversalSerializer(result).data, status=status.HTTP_201_CREATED)


class ReversalApproveApi(CashierApi):
    permission_classes = [roles_permission(*MANAGER_ROLES)]

    @extend_schema(request=None, responses=ReversalSerializer)
    def post(self, request, pk: int):
        reversal_request = get_object_or_404(ReversalRequest, pk=pk)
        services.correction_approve(actor=request.user, request=reversal_request)
        reversal_request.refresh_from_db()
        return Response(ReversalSerializer(reversal_request).data)


class ReversalRejectApi(CashierApi):
    permission_classes = [roles_permission(*MANAGER_ROLES)]

    @extend_schema(request=None, responses=ReversalSerializer)
    def post(self, request, pk: int):
        return Response(
            ReversalSerializer(
                reversal_reject(actor=request.user, request=get_object_or_404(ReversalRequest, pk=pk))
            ).data
        )
