"""Tournaments API for registration and entries (TRN-1, TRN-2, TRN-6): register, presence,
rebuys, add-ons, refunds, the field, postponing and the rebuy and add-on rules."""

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.permissions import SAFE_METHODS, BasePermission
from rest_framework.response import Response
from rest_framework.views import APIView

from cardroom.api import (
    CentsField,
    ChipCountField,
    MoneyRequestSerializer,
    Pagination,
    money_response,
    paginated_response,
    request_key,
)
from cardroom.idempotency import replay_watch
from cardroom.roles import CASHIER_ROLES, FLOOR_ROLES, has_role, roles_permission
from cashier.models import DESK_METHODS, PaymentMethod
from players.models import Player
from tournaments.api.common import FLOOR_AND_CASHIER, inline_choices, open_shift_of
from tournaments.models import Entry, EntryKind, EntryStatus, Tournament
from tournaments.selectors import entry_list, tournament_field_get
from tournaments.services import registration

# "kind" and "status" name other choice sets in other apps (see inline_choices).
EntryKindField = inline_choices(EntryKind.choices)
EntryStatusField = inline_choices(EntryStatus.choices)


class FloorReadsCashierWrites(BasePermission):
    """Floor and cashiers see the entries; only a cashier registers (money, ROL-1)."""

    message = gettext_lazy("Your role does not allow this.")

    def has_permission(self, request, view) -> bool:
        roles = FLOOR_AND_CASHIER if request.method in SAFE_METHODS else CASHIER_ROLES
        return has_role(request.user, *roles)


class EntrySerializer(serializers.ModelSerializer):
    player_name = serializers.CharField(source="player.full_name", read_only=True)
    table_number = serializers.IntegerField(source="table.number", read_only=True, allow_null=True)
    receipt = serializers.IntegerField(
        source="cashier_transaction.receipt_number", read_only=True, allow_null=True
    )
    prize_paid = serializers.SerializerMethodField()
    kind = EntryKindField(read_only=True)
    status = EntryStatusField(read_only=True)

    class Meta:
        model = Entry
        fields = [
            "id",
            "number",
            "player",
            "player_name",
            "kind",
            "status",
            "present",
            "receipt",
            "starting_stack_chips",
            "table_number",
            "seat",
            "rebuys",
            "add_ons",
            "registered_at",
            "busted_at",
            "finish_place",
            "prize_cents",
            "prize_paid",
            "refund_cents",
        ]
        read_only_fields = fields

    def get_prize_paid(self, entry: Entry) -> bool:
        return entry.prize_transaction_id is not None


class RegisterSerializer(MoneyRequestSerializer):
    player = serializers.PrimaryKeyRelatedField(queryset=Player.objects.all())
    method = serializers.ChoiceField(choices=DESK_METHODS, default=PaymentMethod.CASH)
    present = serializers.BooleanField(default=True)
    ticket = serializers.IntegerField(
        source="ticket_id",
        min_value=1,
        required=False,
        allow_null=True,
        default=None,
        help_text="Pay the entry with this ticket (SER-1): no money moves, `method` is ignored.",
    )
    idempotency_key = serializers.CharField(max_length=80)


class KeySerializer(MoneyRequestSerializer):
    idempotency_key = serializers.CharField(
        max_length=80, required=False, default="", help_text="Or the Idempotency-Key header (CAG-2)."
    )


class PaySerializer(KeySerializer):
    method = serializers.ChoiceField(choices=DESK_METHODS, default=PaymentMethod.CASH)


class PresentSerializer(serializers.Serializer):
    present = serializers.BooleanField()


class PostponeSerializer(serializers.Serializer):
    start_at = serializers.DateTimeField()


class RulesSerializer(MoneyRequestSerializer):
    rebuy_level = serializers.IntegerField(min_value=0, required=False)
    max_rebuys = serializers.IntegerField(min_value=0, required=False)
    rebuy_prize_cents = CentsField(min_value=0, required=False)
    rebuy_fee_cents = CentsField(min_value=0, required=False)
    rebuy_chips = ChipCountField(min_value=0, required=False)
    add_on_level = serializers.IntegerField(min_value=0, required=False)
    add_on_prize_cents = CentsField(min_value=0, required=False)
    add_on_fee_cents = CentsField(min_value=0, required=False)
    add_on_chips = ChipCountField(min_value=0, required=False)


class EntryListApi(APIView):
    permission_classes = [FloorReadsCashierWrites]
    pagination_class = Pagination

    @extend_schema(responses=EntrySerializer(many=True))
    def get(self, request, pk: int):
        return paginated_response(
            request=request,
            view=self,
            items=entry_list(tournament=get_object_or_404(Tournament, pk=pk)),
            serializer_class=EntrySerializer,
        )

    @extend_schema(request=RegisterSerializer, responses={201: EntrySerializer, 200: EntrySerializer})
    def post(self, request, pk: int):
        """Register (or re-enter) a player; the buy-in is posted at the cashier (TRN-6, PLY-1)."""
        data = RegisterSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        key = request_key(request, data.validated_data)
        with replay_watch() as outcome:
            entry = registration.entry_register(
                actor=request.user,
                tournament=get_object_or_404(Tournament, pk=pk),
                shift=open_shift_of(request.user),
                **{**data.validated_data, "idempotency_key": key},
            )
        return money_response(EntrySerializer(entry).data, replayed=outcome.replayed)


def entry_of(pk: int, entry_id: int) -> Entry:
    return get_object_or_404(Entry, pk=entry_id, tournament_id=pk)


class EntryPresentApi(APIView):
    permission_classes = [roles_permission(*FLOOR_ROLES)]

    @extend_schema(request=PresentSerializer, responses=EntrySerializer)
    def post(self, request, pk: int, entry_id: int):
        data = PresentSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        entry = registration.entry_mark_present(
            actor=request.user, entry=entry_of(pk, entry_id), **data.validated_data
        )
        return Response(EntrySerializer(entry).data)


class CashierEntryAction(APIView):
    permission_classes = [roles_permission(*CASHIER_ROLES)]
    serializer = PaySerializer
    service = None

    def post(self, request, pk: int, entry_id: int):
        data = self.serializer(data=request.data)
        data.is_valid(raise_exception=True)
        key = request_key(request, data.validated_data)
        with replay_watch() as outcome:
            entry = type(self).service(
                actor=request.user,
                entry=entry_of(pk, entry_id),
                shift=open_shift_of(request.user),
                **{**data.validated_data, "idempotency_key": key},
            )
        return money_response(EntrySerializer(entry).data, replayed=outcome.replayed)


class EntryRebuyApi(CashierEntryAction):
    """A rebuy (TRN-6)."""

    service = staticmethod(registration.entry_rebuy)

    @extend_schema(request=PaySerializer, responses=EntrySerializer)
    def post(self, request, pk: int, entry_id: int):
        return super().post(request, pk, entry_id)


class EntryAddOnApi(CashierEntryAction):
    """The add-on (TRN-6)."""

    service = staticmethod(registration.entry_add_on)

    @extend_schema(request=PaySerializer, responses=EntrySerializer)
    def post(self, request, pk: int, entry_id: int):
        return super().post(request, pk, entry_id)


class EntryRefundApi(CashierEntryAction):
    """Pay a cancelled tournament's refund in cash (TRN-2)."""

    serializer = KeySerializer
    service = staticmethod(registration.refund_pay)

    @extend_schema(request=KeySerializer, responses=EntrySerializer)
    def post(self, request, pk: int, entry_id: int):
        return super().post(request, pk, entry_id)


class FieldApi(APIView):
    """Entries, players left, average stack, prize pool, guarantee and payouts (TRN-3 to TRN-10)."""

    permission_classes = [roles_permission(*FLOOR_AND_CASHIER)]

    @extend_schema(responses=dict)
    def get(self, request, pk: int):
        return Response(tournament_field_get(tournament=get_object_or_404(Tournament, pk=pk)))


class PostponeApi(APIView):
    permission_classes = [roles_permission(*FLOOR_ROLES)]

    @extend_schema(request=PostponeSerializer, responses=dict)
    def post(self, request, pk: int):
        data = PostponeSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        tournament = registration.tournament_postpone(
            actor=request.user, tournament=get_object_or_404(Tournament, pk=pk), **data.validated_data
        )
        return Response({"id": tournament.pk, "start_at": tournament.start_at})


class RulesApi(APIView):
    permission_classes = [roles_permission(*FLOOR_ROLES)]

    @extend_schema(request=RulesSerializer, responses=RulesSerializer)
    def patch(self, request, pk: int):
        data = RulesSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        rules = registration.tournament_rules_update(
            actor=request.user, tournament=get_object_or_404(Tournament, pk=pk), **data.validated_data
        )
        return Response({name: getattr(rules, name) for name in registration.RULE_FIELDS})
