"""Tournaments API for the chip counts taken during play (issue 27, item 3): a table's counts
posted seat by seat, and every player's latest count. Floor staff and managers only."""

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from cardroom.api import Pagination, paginated_response
from cardroom.errors import DomainError
from cardroom.parsers import JSONParser
from cardroom.roles import FLOOR_ROLES, roles_permission
from tournaments.models import ChipCount, Table, Tournament
from tournaments.selectors.counts import tournament_counts_list
from tournaments.services.counts import chip_counts_record


class TableCountsInSerializer(serializers.Serializer):
    counts = serializers.DictField(
        child=serializers.CharField(max_length=16, allow_blank=True),
        help_text='{seat: chips as typed}: {"1": "12,500", "4": 9000}',
    )
    entries = serializers.DictField(
        child=serializers.IntegerField(min_value=1),
        required=False,
        help_text="{seat: entry id} the counter saw in each seat; a seat whose player changed is refused",
    )
    note = serializers.CharField(max_length=200, required=False, allow_blank=True, default="")


class ChipCountSerializer(serializers.ModelSerializer):
    entry_number = serializers.IntegerField(source="entry.number", read_only=True)
    player = serializers.SerializerMethodField()
    table = serializers.IntegerField(source="table.number", read_only=True)
    counted_by = serializers.CharField(source="counted_by.username", read_only=True, default=None)

    class Meta:
        model = ChipCount
        fields = [
            "id",
            "entry",
            "entry_number",
            "player",
            "table",
            "seat",
            "count",
            "counted_at",
            "counted_by",
            "note",
        ]
        read_only_fields = fields

    def get_player(self, row: ChipCount) -> str:
        return row.entry.player.nickname or row.entry.player.full_name


def _seats(mapping: dict, field: str) -> dict[int, object]:
    try:
        return {int(seat): value for seat, value in mapping.items()}
    except ValueError:
        raise DomainError(
            "invalid_seat", _("Seats are numbers (%(field)s).") % {"field": field}, rule="SER-2"
        ) from None


class ChipCountListApi(APIView):
    """Every player still in with his latest count, by table and seat."""

    permission_classes = [roles_permission(*FLOOR_ROLES)]
    pagination_class = Pagination

    @extend_schema(responses=ChipCountSerializer(many=True))
    def get(self, request, pk: int):
        tournament = get_object_or_404(Tournament, pk=pk)
        return paginated_response(
            request=request,
            view=self,
            items=tournament_counts_list(tournament=tournament),
            serializer_class=ChipCountSerializer,
        )


class TableCountsApi(APIView):
    """A table's counts, seat by seat, in one transaction; refused as a whole (nothing written)."""

    permission_classes = [roles_permission(*FLOOR_ROLES)]
    parser_classes = [JSONParser]

    @extend_schema(request=TableCountsInSerializer, responses=ChipCountSerializer(many=True))
    def post(self, request, pk: int, table_id: int):
        data = TableCountsInSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        table = get_object_or_404(Table, pk=table_id, tournament_id=pk)
        rows = chip_counts_record(
            tournament=table.tournament,
            table=table,
            counts=_seats(data.validated_data["counts"], "counts"),
            entries=_seats(data.validated_data.get("entries") or {}, "entries") or None,
            actor=request.user,
            note=data.validated_data["note"],
        )
        return Response(ChipCountSerializer(rows, many=True).data, status=status.HTTP_201_CREATED)
