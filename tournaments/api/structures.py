"""Blind structures API (TRN-7): templates, import and export."""

from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from django.utils.text import slugify
from django.utils.translation import gettext_lazy
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema, extend_schema_field
from rest_framework import serializers, status
from rest_framework.permissions import SAFE_METHODS, BasePermission
from rest_framework.response import Response
from rest_framework.views import APIView

from cardroom.api import Pagination, paginated_response
from cardroom.roles import FLOOR_ROLES, MANAGER_ROLES, has_role, roles_permission
from cardroom.spreadsheet import XLSX_CONTENT_TYPE
from tournaments import structure_io
from tournaments.api.common import KindField
from tournaments.models import BlindStructure, LevelKind
from tournaments.selectors import structure_levels_data, structure_list
from tournaments.services import structures


class FloorReadsManagerWrites(BasePermission):
    """Floor staff and managers read structures; only managers change them (ROL-1)."""

    message = gettext_lazy("Your role does not allow this.")

    def has_permission(self, request, view) -> bool:
        roles = FLOOR_ROLES if request.method in SAFE_METHODS else MANAGER_ROLES
        return has_role(request.user, *roles)


class LevelSerializer(serializers.Serializer):
    kind = KindField(default=LevelKind.LEVEL)
    small_blind_chips = serializers.IntegerField(min_value=0, default=0)
    big_blind_chips = serializers.IntegerField(min_value=0, default=0)
    ante_chips = serializers.IntegerField(min_value=0, default=0)
    big_blind_ante = serializers.BooleanField(default=False)
    minutes = serializers.IntegerField(min_value=0, max_value=10_000)
    note = serializers.CharField(max_length=200, required=False, allow_blank=True, default="")


class StructureSerializer(serializers.ModelSerializer):
    levels = serializers.SerializerMethodField()

    class Meta:
        model = BlindStructure
        fields = ["id", "name", "description", "levels", "created_at", "updated_at"]
        read_only_fields = fields

    @extend_schema_field(LevelSerializer(many=True))
    def get_levels(self, structure: BlindStructure) -> list[dict]:
        return structure_levels_data(structure)


class StructureSummarySerializer(serializers.ModelSerializer):
    level_count = serializers.IntegerField(read_only=True)
    break_count = serializers.IntegerField(read_only=True)

    class Meta:
        model = BlindStructure
        fields = ["id", "name", "description", "level_count", "break_count"]
        read_only_fields = fields


class StructureInputSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=120)
    description = serializers.CharField(max_length=2000, required=False, allow_blank=True, default="")
    levels = LevelSerializer(many=True, max_length=200)


class StructureUpdateSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=120, required=False)
    description = serializers.CharField(max_length=2000, required=False, allow_blank=True)
    levels = LevelSerializer(many=True, max_length=200, required=False)


class StructureImportSerializer(serializers.Serializer):
    name = serializers.CharField(
        max_length=120, required=False, allow_blank=True, default="", help_text="Required for CSV files."
    )
    file_format = serializers.ChoiceField(choices=["csv", "json"])
    content = serializers.CharField(max_length=structure_io.MAX_FILE_CHARS, trim_whitespace=False)


class StructureListApi(APIView):
    permission_classes = [FloorReadsManagerWrites]
    pagination_class = Pagination

    @extend_schema(responses=StructureSummarySerializer(many=True))
    def get(self, request):
        return paginated_response(
            request=request, view=self, items=structure_list(), serializer_class=StructureSummarySerializer
        )

    @extend_schema(request=StructureInputSerializer, responses={201: StructureSerializer})
    def post(self, request):
        data = StructureInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        structure = structures.structure_create(actor=request.user, **data.validated_data)
        return Response(StructureSerializer(structure).data, status=status.HTTP_201_CREATED)


class StructureDetailApi(APIView):
    permission_classes = [FloorReadsManagerWrites]

    @extend_schema(responses=StructureSerializer)
    def get(self, request, pk: int):
        return Response(StructureSerializer(get_object_or_404(BlindStructure, pk=pk)).data)

    @extend_schema(request=StructureUpdateSerializer, responses=StructureSerializer)
    def patch(self, request, pk: int):
        data = StructureUpdateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        structure = structures.structure_update(
            actor=request.user, structure=get_object_or_404(BlindStructure, pk=pk), **data.validated_data
        )
        return Response(StructureSerializer(structure).data)


class StructureImportApi(APIView):
    permission_classes = [roles_permission(*MANAGER_ROLES)]

    @extend_schema(request=StructureImportSerializer, responses={201: StructureSerializer})
    def post(self, request):
        data = StructureImportSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        structure = structures.structure_import(actor=request.user, **data.validated_data)
        return Response(StructureSerializer(structure).data, status=status.HTTP_201_CREATED)


def structure_export_response(structure: BlindStructure, file_format: str) -> HttpResponse:
    """The structure as a downloadable CSV, XLSX or JSON file (shared by the API and the pages)."""
    levels = structure_levels_data(structure)
    if file_format == "csv":
        body, content_type = structure_io.to_csv(levels), "text/csv; charset=utf-8"
    elif file_format == "xlsx":
        body, content_type = structure_io.to_xlsx(levels), XLSX_CONTENT_TYPE
    else:
        body, content_type = structure_io.to_json(structure.name, levels), "application/json"
    response = HttpResponse(body, content_type=content_type)
    filename = f"{slugify(structure.name) or 'structure'}.{file_format}"
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


class StructureExportApi(APIView):
    permission_classes = [roles_permission(*FLOOR_ROLES)]

    @extend_schema(
        responses={
            (200, "text/csv"): OpenApiResponse(OpenApiTypes.STR, description="CSV with a header row"),
            (200, XLSX_CONTENT_TYPE): OpenApiResponse(OpenApiTypes.BINARY, description="XLSX, one sheet"),
            (200, "application/json"): OpenApiResponse(OpenApiTypes.OBJECT, description='{"name", "levels"}'),
        }
    )
    def get(self, request, pk: int, file_format: str):
        return structure_export_response(get_object_or_404(BlindStructure, pk=pk), file_format)
