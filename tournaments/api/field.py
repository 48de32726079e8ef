"""Tournaments API for the field: registration and entries (TRN-1, TRN-2, TRN-6), seating
(TRN-9, HND-2), bust-outs, payouts and deals (TRN-5, TRN-10)."""

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.parsers import JSONParser
from rest_framework.permissions import SAFE_METHODS, BasePermission
from rest_framework.response import Response
from rest_framework.views import APIView

from cardroom.errors import DomainError
from cardroom.roles import CASHIER_ROLES, FLOOR_ROLES, has_role, roles_permission
from cashier.models import PaymentMethod
from cashier.selectors import open_shift_for
from players.models import Player
from tournaments.api import inline_choices
from tournaments.models import Entry, EntryKind, EntryStatus, MoveReason, MoveSlip, Table, Tournament
from tournaments.selectors import (
    deal_calculate,
    entry_list,
    pending_move_slips,
    seating_chart,
    tournament_field_get,
)
from tournaments.services import payouts, registration, seating

FLOOR_AND_CASHIER = (*FLOOR_ROLES, *CASHIER_ROLES)
# "kind", "status", "method" and "reason" name other choice sets in other apps (see inline_choices).
EntryKindField = inline_choices(EntryKind.choices)
EntryStatusField = inline_choices(EntryStatus.choices)
MoveReasonField = inline_choices(MoveReason.choices)
DealMethodField = inline_choices([("icm", "ICM"), ("chip_chop", "Chip chop")])
DealAcceptMethodField = inline_choices([("icm", "ICM"), ("chip_chop", "Chip chop"), ("custom", "Custom")])


class FloorReadsCashierWrites(BasePermission):
    """Floor and cashiers see the entries; only a cashier registers (money, ROL-1)."""

    message = _("Your role does not allow this (ROL-1).")

    def has_permission(self, request, view) -> bool:
        roles = FLOOR_AND_CASHIER if request.method in SAFE_METHODS else CASHIER_ROLES
        return has_role(request.user, *roles)


def _shift(user):
    shift = open_shift_for(cashier=user)
    if shift is None:
        raise DomainError("no_open_shift", _("Open your shift first."), rule="CAG-3", status_code=409)
    return shift


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


class RegisterSerializer(serializers.Serializer):
    player = serializers.PrimaryKeyRelatedField(queryset=Player.objects.all())
    method = serializers.ChoiceField(choices=PaymentMethod.choices, default=PaymentMethod.CASH)
    present = serializers.BooleanField(default=True)
    idempotency_key = serializers.CharField(max_length=80)


class PaySerializer(serializers.Serializer):
    method = serializers.ChoiceField(choices=PaymentMethod.choices, default=PaymentMethod.CASH)
    idempotency_key = serializers.CharField(max_length=80)


class KeySerializer(serializers.Serializer):
    idempotency_key = serializers.CharField(max_length=80)


class PresentSerializer(serializers.Serializer):
    present = serializers.BooleanField()


class PostponeSerializer(serializers.Serializer):
    start_at = serializers.DateTimeField()


class RulesSerializer(serializers.Serializer):
    rebuy_level = serializers.IntegerField(min_value=0, required=False)
    max_rebuys = serializers.IntegerField(min_value=0, required=False)
    rebuy_prize_cents = serializers.IntegerField(min_value=0, required=False)
    rebuy_fee_cents = serializers.IntegerField(min_value=0, required=False)
    rebuy_chips = serializers.IntegerField(min_value=0, required=False)
    add_on_level = serializers.IntegerField(min_value=0, required=False)
    add_on_prize_cents = serializers.IntegerField(min_value=0, required=False)
    add_on_fee_cents = serializers.IntegerField(min_value=0, required=False)
    add_on_chips = serializers.IntegerField(min_value=0, required=False)


class BustedSerializer(serializers.Serializer):
    entry = serializers.IntegerField(min_value=1)
    stack_chips = serializers.IntegerField(min_value=1, help_text="Chips at the start of the hand.")


class BustSerializer(serializers.Serializer):
    busted = BustedSerializer(many=True, min_length=1, max_length=10)


class PayoutTableSerializer(serializers.Serializer):
    percentages = serializers.ListField(
        child=serializers.IntegerField(min_value=0, max_value=10_000),
        max_length=1000,
        help_text="Basis points per place, first place first (10000 = 100 %); empty: the default table.",
    )


class DealStackSerializer(serializers.Serializer):
    entry = serializers.IntegerField(min_value=1)
    stack_chips = serializers.IntegerField(min_value=1)


class DealCalculateSerializer(serializers.Serializer):
    method = DealMethodField()
    stacks = DealStackSerializer(many=True, min_length=2, max_length=1000)


class DealShareSerializer(serializers.Serializer):
    entry = serializers.IntegerField(min_value=1)
    amount_cents = serializers.IntegerField(min_value=0)


class DealAcceptSerializer(serializers.Serializer):
    method = DealAcceptMethodField()
    shares = DealShareSerializer(many=True, min_length=2, max_length=1000)


class ButtonDrawSerializer(serializers.Serializer):
    cards = serializers.DictField(
        child=serializers.CharField(max_length=2), help_text='{"1": "Ks", "2": "9h"}'
    )


class SlipSerializer(serializers.ModelSerializer):
    text = serializers.CharField(source="__str__", read_only=True)
    entry_number = serializers.IntegerField(source="entry.number", read_only=True)
    reason = MoveReasonField(read_only=True)

    class Meta:
        model = MoveSlip
        fields = [
            "id",
            "entry",
            "entry_number",
            "from_table",
            "from_seat",
            "to_table",
            "to_seat",
            "reason",
            "text",
            "created_at",
            "confirmed_at",
        ]
        read_only_fields = fields


class EntryListApi(APIView):
    permission_classes = [FloorReadsCashierWrites]

    @extend_schema(responses=EntrySerializer(many=True))
    def get(self, request, pk: int):
        return Response(
            EntrySerializer(entry_list(tournament=get_object_or_404(Tournament, pk=pk)), many=True).data
        )

    @extend_schema(request=RegisterSerializer, responses={201: EntrySerializer, 200: EntrySerializer})
    def post(self, request, pk: int):
        """Register (or re-enter) a player; the buy-in is posted at the cashier (TRN-6, PLY-1)."""
        data = RegisterSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        entry = registration.entry_register(
            actor=request.user,
            tournament=get_object_or_404(Tournament, pk=pk),
            shift=_shift(request.user),
            **data.validated_data,
        )
        code = status.HTTP_200_OK if entry.replayed else status.HTTP_201_CREATED
        return Response(EntrySerializer(entry).data, status=code)


def _entry(pk: int, entry_id: int) -> Entry:
    return get_object_or_404(Entry, pk=entry_id, tournament_id=pk)


class EntryPresentApi(APIView):
    permission_classes = [roles_permission(*FLOOR_ROLES)]

    @extend_schema(request=PresentSerializer, responses=EntrySerializer)
    def post(self, request, pk: int, entry_id: int):
        data = PresentSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        entry = registration.entry_mark_present(
            actor=request.user, entry=_entry(pk, entry_id), **data.validated_data
        )
        return Response(EntrySerializer(entry).data)


class _CashierEntryAction(APIView):
    permission_classes = [roles_permission(*CASHIER_ROLES)]
    serializer = PaySerializer
    service = None

    def post(self, request, pk: int, entry_id: int):
        data = self.serializer(data=request.data)
        data.is_valid(raise_exception=True)
        entry = type(self).service(
            actor=request.user, entry=_entry(pk, entry_id), shift=_shift(request.user), **data.validated_data
        )
        return Response(EntrySerializer(entry).data)


class EntryRebuyApi(_CashierEntryAction):
    """A rebuy (TRN-6)."""

    service = staticmethod(registration.entry_rebuy)

    @extend_schema(request=PaySerializer, responses=EntrySerializer)
    def post(self, request, pk: int, entry_id: int):
        return super().post(request, pk, entry_id)


class EntryAddOnApi(_CashierEntryAction):
    """The add-on (TRN-6)."""

    service = staticmethod(registration.entry_add_on)

    @extend_schema(request=PaySerializer, responses=EntrySerializer)
    def post(self, request, pk: int, entry_id: int):
        return super().post(request, pk, entry_id)


class EntryRefundApi(_CashierEntryAction):
    """Pay a cancelled tournament's refund in cash (TRN-2)."""

    serializer = KeySerializer
    service = staticmethod(registration.refund_pay)

    @extend_schema(request=KeySerializer, responses=EntrySerializer)
    def post(self, request, pk: int, entry_id: int):
        return super().post(request, pk, entry_id)


class EntryPrizeApi(_CashierEntryAction):
    """Pay a prize in cash (TRN-10); a second payment of the same place is refused."""

    serializer = KeySerializer
    service = staticmethod(payouts.prize_pay)

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


def _seating_state(tournament: Tournament) -> dict:
    return {
        "tables": [
            {
                "number": row["table"].number,
                "id": row["table"].pk,
                "button_seat": row["table"].button_seat,
                "seats": [
                    {
                        "seat": seat,
                        "entry": entry.pk if entry else None,
                        "entry_number": entry.number if entry else None,
                    }
                    for seat, entry in row["seats"]
                ],
            }
            for row in seating_chart(tournament=tournament)
        ],
        "pending_slips": SlipSerializer(pending_move_slips(tournament=tournament), many=True).data,
    }


class SeatingApi(APIView):
    permission_classes = [roles_permission(*FLOOR_ROLES)]

    @extend_schema(responses=dict)
    def get(self, request, pk: int):
        return Response(_seating_state(get_object_or_404(Tournament, pk=pk)))


class SeatingDrawApi(APIView):
    permission_classes = [roles_permission(*FLOOR_ROLES)]

    @extend_schema(request=None, responses=dict)
    def post(self, request, pk: int):
        tournament = get_object_or_404(Tournament, pk=pk)
        seating.seating_draw(actor=request.user, tournament=tournament)
        return Response(_seating_state(tournament), status=status.HTTP_201_CREATED)


class FinalTableApi(APIView):
    permission_classes = [roles_permission(*FLOOR_ROLES)]

    @extend_schema(request=None, responses=dict)
    def post(self, request, pk: int):
        tournament = get_object_or_404(Tournament, pk=pk)
        seating.seating_final_table_draw(actor=request.user, tournament=tournament)
        return Response(_seating_state(tournament))


class ButtonDrawApi(APIView):
    permission_classes = [roles_permission(*FLOOR_ROLES)]
    # Lists and maps travel as JSON (a form of 1,000 places would exceed Django's field limit).
    parser_classes = [JSONParser]

    @extend_schema(request=ButtonDrawSerializer, responses=dict)
    def post(self, request, pk: int, table_id: int):
        data = ButtonDrawSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        try:
            cards = {int(seat): card for seat, card in data.validated_data["cards"].items()}
        except ValueError:
            raise DomainError("invalid_seat", _("Seats are numbers."), rule="HND-2") from None
        table = seating.table_button_draw(
            actor=request.user, table=get_object_or_404(Table, pk=table_id, tournament_id=pk), cards=cards
        )
        return Response({"table": table.number, "button_seat": table.button_seat})


class SlipConfirmApi(APIView):
    permission_classes = [roles_permission(*FLOOR_ROLES)]

    @extend_schema(request=None, responses=SlipSerializer)
    def post(self, request, pk: int, slip_id: int):
        slip = seating.move_slip_confirm(
            actor=request.user, slip=get_object_or_404(MoveSlip, pk=slip_id, tournament_id=pk)
        )
        return Response(SlipSerializer(slip).data)


class BustApi(APIView):
    permission_classes = [roles_permission(*FLOOR_ROLES)]
    # Lists and maps travel as JSON (a form of 1,000 places would exceed Django's field limit).
    parser_classes = [JSONParser]

    @extend_schema(request=BustSerializer, responses=EntrySerializer(many=True))
    def post(self, request, pk: int):
        """Players knocked out in one hand with their chips at its start (TRN-10)."""
        data = BustSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        entries = payouts.entry_bust(
            actor=request.user,
            tournament=get_object_or_404(Tournament, pk=pk),
            busted=[(row["entry"], row["stack_chips"]) for row in data.validated_data["busted"]],
        )
        return Response(EntrySerializer(entries, many=True).data)


class BustUndoApi(APIView):
    permission_classes = [roles_permission(*FLOOR_ROLES)]

    @extend_schema(request=None, responses=EntrySerializer(many=True))
    def post(self, request, pk: int):
        entries = payouts.bust_undo(actor=request.user, tournament=get_object_or_404(Tournament, pk=pk))
        return Response(EntrySerializer(entries, many=True).data)


class PayoutTableApi(APIView):
    permission_classes = [roles_permission(*FLOOR_ROLES)]
    # Lists and maps travel as JSON (a form of 1,000 places would exceed Django's field limit).
    parser_classes = [JSONParser]

    @extend_schema(request=PayoutTableSerializer, responses=dict)
    def put(self, request, pk: int):
        data = PayoutTableSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        tournament = get_object_or_404(Tournament, pk=pk)
        payouts.payout_table_set(actor=request.user, tournament=tournament, **data.validated_data)
        return Response(tournament_field_get(tournament=tournament))


class PayoutsFinaliseApi(APIView):
    permission_classes = [roles_permission(*FLOOR_ROLES)]

    @extend_schema(request=None, responses=dict)
    def post(self, request, pk: int):
        tournament = payouts.payouts_finalise(
            actor=request.user, tournament=get_object_or_404(Tournament, pk=pk)
        )
        return Response(tournament_field_get(tournament=tournament))


class DealCalculateApi(APIView):
    permission_classes = [roles_permission(*FLOOR_ROLES)]
    # Lists and maps travel as JSON (a form of 1,000 places would exceed Django's field limit).
    parser_classes = [JSONParser]

    @extend_schema(request=DealCalculateSerializer, responses=DealShareSerializer(many=True))
    def post(self, request, pk: int):
        """ICM or chip-chop shares of the prizes left; nothing is written."""
        data = DealCalculateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        shares = deal_calculate(
            tournament=get_object_or_404(Tournament, pk=pk),
            stacks={row["entry"]: row["stack_chips"] for row in data.validated_data["stacks"]},
            method=data.validated_data["method"],
        )
        return Response([{"entry": entry, "amount_cents": amount} for entry, amount in shares.items()])


class DealAcceptApi(APIView):
    permission_classes = [roles_permission(*FLOOR_ROLES)]
    # Lists and maps travel as JSON (a form of 1,000 places would exceed Django's field limit).
    parser_classes = [JSONParser]

    @extend_schema(request=DealAcceptSerializer, responses=EntrySerializer(many=True))
    def post(self, request, pk: int):
        data = DealAcceptSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        entries = payouts.deal_accept(
            actor=request.user,
            tournament=get_object_or_404(Tournament, pk=pk),
            amounts={row["entry"]: row["amount_cents"] for row in data.validated_data["shares"]},
            method=data.validated_data["method"],
        )
        return Response(EntrySerializer(entries, many=True).data)
