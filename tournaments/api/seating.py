"""Tournaments API for seating (TRN-9, HND-2): the chart, the draw, the final table, the button
draw and move slips."""

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from cardroom.errors import DomainError
from cardroom.parsers import JSONParser
from cardroom.roles import FLOOR_ROLES, roles_permission
from tournaments.api.common import inline_choices
from tournaments.models import MoveReason, MoveSlip, Table, Tournament
from tournaments.selectors import pending_move_slips, seating_chart
from tournaments.services import seating

# "reason" names other choice sets in other apps (see inline_choices).
MoveReasonField = inline_choices(MoveReason.choices)


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
