"""Tournaments API for bust-outs, payouts, prizes, bounties and deals (TRN-5, TRN-6, TRN-10)."""

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from cardroom.api import CentsField, ChipCountField, MoneyRequestSerializer, money_response, request_key
from cardroom.idempotency import replay_watch
from cardroom.parsers import JSONParser
from cardroom.roles import CASHIER_ROLES, FLOOR_ROLES, roles_permission
from tournaments.api.common import FLOOR_AND_CASHIER, inline_choices, open_shift_of
from tournaments.api.entries import CashierEntryAction, EntrySerializer, KeySerializer, entry_of
from tournaments.models import BountyAward, BountyReason, Tournament
from tournaments.selectors import bounty_awards_list, bounty_totals, tournament_field_get
from tournaments.selectors.deals import deal_calculate
from tournaments.services import payouts
from tournaments.services.payouts.bounties import MAX_ELIMINATORS

# "method" and "reason" name other choice sets in other apps (see inline_choices).
DealMethodField = inline_choices([("icm", "ICM"), ("chip_chop", "Chip chop")])
DealAcceptMethodField = inline_choices([("icm", "ICM"), ("chip_chop", "Chip chop"), ("custom", "Custom")])
BountyReasonField = inline_choices(BountyReason.choices)


class BustedSerializer(MoneyRequestSerializer):
    entry = serializers.IntegerField(min_value=1)
    stack_chips = ChipCountField(
        min_value=1,
        required=False,
        allow_null=True,
        default=None,
        help_text="Chips at the start of the hand; needed only when two or more are out in the same hand.",
    )
    eliminators = serializers.ListField(
        child=serializers.IntegerField(min_value=1),
        max_length=MAX_ELIMINATORS,
        required=False,
        default=list,
        help_text=(
            "Entries still in that knocked him out; required when he carries a bounty, which "
            "goes to them (TRN-6). On a split pot name each winner, from the button's left: the "
            "bounty splits equally to the cent and the cents left over go one each to the first named."
        ),
    )


class BustSerializer(MoneyRequestSerializer):
    busted = BustedSerializer(many=True, min_length=1, max_length=10)


class PayoutTableSerializer(serializers.Serializer):
    percentages = serializers.ListField(
        child=serializers.IntegerField(min_value=0, max_value=10_000),
        max_length=1000,
        help_text="Basis points per place, first place first (10000 = 100 %); empty: the default table.",
    )


class DealStackSerializer(MoneyRequestSerializer):
    entry = serializers.IntegerField(min_value=1)
    stack_chips = ChipCountField(min_value=1)


class DealCalculateSerializer(MoneyRequestSerializer):
    method = DealMethodField()
    stacks = DealStackSerializer(many=True, min_length=2, max_length=1000)


class DealShareSerializer(MoneyRequestSerializer):
    entry = serializers.IntegerField(min_value=1)
    amount_cents = CentsField(min_value=0)


class DealAcceptSerializer(MoneyRequestSerializer):
    method = DealAcceptMethodField()
    shares = DealShareSerializer(many=True, min_length=2, max_length=1000)
    stacks = DealStackSerializer(
        many=True,
        min_length=2,
        max_length=1000,
        required=False,
        help_text="The counted stacks an ICM or chip-chop deal was calculated from (required for them).",
    )


class BountyAwardSerializer(serializers.ModelSerializer):
    entry_number = serializers.IntegerField(source="entry.number", read_only=True)
    player_name = serializers.CharField(source="entry.player.full_name", read_only=True)
    busted_entry_number = serializers.IntegerField(source="busted_entry.number", read_only=True)
    busted_player_name = serializers.CharField(source="busted_entry.player.full_name", read_only=True)
    reason = BountyReasonField(read_only=True)
    paid = serializers.SerializerMethodField()
    receipt = serializers.IntegerField(source="transaction.receipt_number", read_only=True, allow_null=True)

    class Meta:
        model = BountyAward
        fields = [
            "id",
            "entry",
            "entry_number",
            "player_name",
            "busted_entry",
            "busted_entry_number",
            "busted_player_name",
            "reason",
            "amount_cents",
            "bust_number",
            "created_at",
            "paid",
            "receipt",
        ]
        read_only_fields = fields

    def get_paid(self, award: BountyAward) -> bool:
        return award.transaction_id is not None


class BountiesSerializer(serializers.Serializer):
    bounty_cents = serializers.IntegerField(help_text="The bounty each buy-in and re-entry carries.")
    pool_cents = serializers.IntegerField(help_text="What the bounty pool holds now.")
    awarded_cents = serializers.IntegerField()
    paid_cents = serializers.IntegerField()
    due_cents = serializers.IntegerField(help_text="Awarded, not paid yet.")
    on_heads_cents = serializers.IntegerField(help_text="Bounties of the players still in, not won yet.")
    awards = BountyAwardSerializer(many=True)


class BountyPaymentSerializer(serializers.Serializer):
    entry = serializers.IntegerField()
    amount_cents = serializers.IntegerField()
    receipt = serializers.IntegerField()
    transaction = serializers.IntegerField(help_text="The cashier transaction, for its receipt page.")
    awards = serializers.ListField(child=serializers.IntegerField())


class BountyListApi(APIView):
    """The bounties won (TRN-6): who knocked out whom, for how much, and whether it is paid."""

    permission_classes = [roles_permission(*FLOOR_AND_CASHIER)]

    @extend_schema(responses=BountiesSerializer)
    def get(self, request, pk: int):
        tournament = get_object_or_404(Tournament, pk=pk)
        state = {**bounty_totals(tournament=tournament), "awards": bounty_awards_list(tournament=tournament)}
        return Response(BountiesSerializer(state).data)


class EntryBountyApi(APIView):
    """Pay in cash every bounty the entry won and was not paid yet, with one receipt (TRN-6)."""

    permission_classes = [roles_permission(*CASHIER_ROLES)]

    @extend_schema(request=KeySerializer, responses=BountyPaymentSerializer)
    def post(self, request, pk: int, entry_id: int):
        data = KeySerializer(data=request.data)
        data.is_valid(raise_exception=True)
        entry = entry_of(pk, entry_id)
        key = request_key(request, data.validated_data)
        with replay_watch() as outcome:
            record = payouts.bounty_pay(
                actor=request.user, entry=entry, shift=open_shift_of(request.user), idempotency_key=key
            )
            awards = sorted(record.tournament_bounties.values_list("pk", flat=True))
        return money_response(
            BountyPaymentSerializer(
                {
                    "entry": entry.pk,
                    "amount_cents": record.amount_cents,
                    "receipt": record.receipt_number,
                    "transaction": record.pk,
                    "awards": awards,
                }
            ).data,
            replayed=outcome.replayed,
        )


class EntryPrizeApi(CashierEntryAction):
    """Pay a prize in cash (TRN-10); a second payment of the same place is refused."""

    serializer = KeySerializer
    service = staticmethod(payouts.prize_pay)

    @extend_schema(request=KeySerializer, responses=EntrySerializer)
    def post(self, request, pk: int, entry_id: int):
        return super().post(request, pk, entry_id)


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
            eliminators={row["entry"]: row["eliminators"] for row in data.validated_data["busted"]},
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
            stacks=(
                {row["entry"]: row["stack_chips"] for row in data.validated_data["stacks"]}
                if "stacks" in data.validated_data
                else None
            ),
        )
        return Response(EntrySerializer(entries, many=True).data)
