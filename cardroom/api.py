"""API plumbing shared by every app: the error mapping, the money convention and pagination.

Money in the API is integer cents in fields named `*_cents`, in and out: a JSON number such as
150000 for 1,500.00 EUR. A text amount is refused, so no separator is ever guessed (CAG-5).

Every list goes out a page at a time through `Pagination` and `paginated_response()`, in DRF's
envelope `{"count", "next", "previous", "results"}`; no list is cut silently.
"""

from collections.abc import Mapping

from django.core.exceptions import ImproperlyConfigured
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db.models import QuerySet
from django.http import Http404
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from rest_framework import exceptions, serializers, status
from rest_framework.pagination import LimitOffsetPagination
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler
from rest_framework.views import set_rollback

from cardroom.errors import DomainError
from cardroom.failures import (
    RETRY_AFTER_SECONDS,
    close_broken_connections,
    is_transient,
    log_transient,
    unavailable_body,
)
from cardroom.money import MAX_CENTS


def exception_handler(exc, context):
    """DomainError -> {"code", "detail", "rule"}; DRF's own errors keep their shape but gain a
    code, so every 4xx body a client sees names the problem. A failure for a cause outside the
    request (the database lost in the middle) is a 503 with Retry-After saying that sending it
    again with the same request key is safe (cardroom/failures.py)."""
    if is_transient(exc):
        set_rollback()
        close_broken_connections()
        request = context.get("request")
        log_transient(exc, where=f"{request.method} {request.path}" if request else "API request")
        return Response(
            unavailable_body(),
            status=status.HTTP_503_SERVICE_UNAVAILABLE,
            headers={"Retry-After": str(RETRY_AFTER_SECONDS)},
        )
    if isinstance(exc, DomainError):
        return Response(exc.as_dict(), status=exc.status_code)
    if isinstance(exc, DjangoValidationError):
        detail = exc.message_dict if hasattr(exc, "error_dict") else {"detail": exc.messages}
        return Response({"code": "invalid", "detail": detail, "rule": ""}, status=status.HTTP_400_BAD_REQUEST)
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    if isinstance(exc, exceptions.ValidationError):
        response.data = {"code": "invalid", "detail": response.data, "rule": _rule_of(response.data)}
    elif isinstance(response.data, dict) and "detail" in response.data:
        code = getattr(response.data["detail"], "code", None) or (
            "not_found" if isinstance(exc, Http404) else "error"
        )
        rule = "ROL-1" if isinstance(exc, exceptions.PermissionDenied) else ""
        response.data = {"code": str(code), "detail": str(response.data["detail"]), "rule": rule}
    return response


# The house rule behind a field's own error code: the message says what is wrong in words, the
# body's `rule` names the rule (as a DomainError's does).
RULE_OF_CODE = {"not_cents": "CAG-5", "not_chips": "CAG-5"}


def _rule_of(detail) -> str:
    """The rule of the first field error that has one, anywhere in DRF's nested detail."""
    if isinstance(detail, dict):
        detail = list(detail.values())
    if isinstance(detail, list):
        return next((rule for item in detail if (rule := _rule_of(item))), "")
    return RULE_OF_CODE.get(getattr(detail, "code", ""), "")


class CentsField(serializers.IntegerField):
    """An amount of money as a JSON integer of cents. "1,500", 1500.0 and true are refused
    rather than read (DRF's IntegerField would take "12" and 12.0)."""

    default_error_messages = {
        "not_cents": _("Give the amount in whole cents as a number, e.g. 150000 for 1,500.00 EUR.")
    }
    not_a_number = "not_cents"

    def __init__(self, **kwargs):
        kwargs.setdefault("min_value", 0)
        kwargs.setdefault("max_value", MAX_CENTS)
        super().__init__(**kwargs)

    def to_internal_value(self, data):
        if isinstance(data, bool) or not isinstance(data, int):
            self.fail(self.not_a_number)
        return super().to_internal_value(data)


def money_response(data, *, replayed: bool) -> Response:
    """The answer to a money request (CAG-2): 201 when it was carried out now; a repeat of its
    key answers 200 with the same body, and says so in the `Idempotent-Replayed` header: the
    caller runs the request inside `cardroom.idempotency.replay_watch()` and passes its outcome,
    so the loser of two identical requests racing says it too."""
    response = Response(data, status=status.HTTP_200_OK if replayed else status.HTTP_201_CREATED)
    response["Idempotent-Replayed"] = "true" if replayed else "false"
    return response


def request_key(request, data: dict) -> str:
    """A money request's key: the Idempotency-Key header, or the body's idempotency_key (CAG-2)."""
    return request.headers.get("Idempotency-Key") or data.get("idempotency_key") or ""


# The input of a request that carries money or chips, or a money request's key (CAG-2): a field
# it does not know is refused by name, never ignored. An ignored `opening_float` (the old name of
# `opening_float_cents`) or `amount` made the request fail for another reason, or worse, go
# through without what the client meant to say. `refused_elsewhere` names fields the serializer
# refuses itself with a message of their own (the cage's typed prize, fee and bounty). The
# schema marks these bodies `additionalProperties: false` (cardroom.schema.AutoSchema).
# A comment, not a docstring: drf-spectacular would publish it in every subclass's component.
class MoneyRequestSerializer(serializers.Serializer):
    refuses_unknown_fields = True
    refused_elsewhere: tuple[str, ...] = ()

    def to_internal_value(self, data):
        if isinstance(data, Mapping):
            known = [name for name, field in self.fields.items() if not field.read_only]
            unknown = [name for name in data if name not in known and name not in self.refused_elsewhere]
            if unknown:
                raise serializers.ValidationError({name: [_unknown_field(name, known)] for name in unknown})
        return super().to_internal_value(data)


def _unknown_field(name: str, known: list[str]) -> str:
    if f"{name}_cents" in known:
        return gettext(
            "Unknown field. The amount goes in %(field)s, in whole cents (150000 is 1,500.00 EUR)."
        ) % {"field": f"{name}_cents"}
    if f"{name}_chips" in known:
        return gettext("Unknown field. The chips go in %(field)s, as a whole number.") % {
            "field": f"{name}_chips"
        }
    return gettext("Unknown field. This request takes: %(fields)s.") % {"fields": ", ".join(known)}


class ChipCountField(CentsField):
    """A count of tournament chips as a JSON integer (the same strictness as money, CAG-5)."""

    default_error_messages = {"not_chips": _("Give the chips as a whole number, e.g. 25000.")}
    not_a_number = "not_chips"


class Pagination(LimitOffsetPagination):
    """The one paginator of the API (settings' DEFAULT_PAGINATION_CLASS, and every list view's
    `pagination_class`): `?limit=` rows, 50 unless asked, at most 200, from `?offset=` (0
    first). A limit or offset that is not a whole number in its range is refused with a 400
    naming the parameter; DRF's own paginator would quietly use its default instead, and a client
    would page through the wrong rows without knowing."""

    default_limit = 50
    max_limit = 200
    # An offset past the end answers an empty page without reading rows; the bound keeps a
    # number of thousands of digits away from int() and the database.
    max_offset = 2**31 - 1
    template = None

    def get_limit(self, request) -> int:
        return _query_number(
            request, self.limit_query_param, default=self.default_limit, low=1, high=self.max_limit
        )

    def get_offset(self, request) -> int:
        return _query_number(request, self.offset_query_param, default=0, low=0, high=self.max_offset)

    def get_paginated_response_schema(self, schema):
        envelope = super().get_paginated_response_schema(schema)
        # The four keys are always there; next and previous are null on the last and first page.
        envelope["required"] = ["count", "next", "previous", "results"]
        envelope["properties"]["next"]["example"] = (
            "https://cardroom.example/api/players/?limit=50&offset=100"
        )
        envelope["properties"]["previous"]["example"] = "https://cardroom.example/api/players/?limit=50"
        return envelope

    def get_schema_operation_parameters(self, view):
        limit, offset = super().get_schema_operation_parameters(view)
        limit["description"] = f"Rows per page: 1 to {self.max_limit}, {self.default_limit} if not given."
        limit["schema"] = {"type": "integer", "minimum": 1, "maximum": self.max_limit}
        offset["description"] = "How many rows to skip: 0 (the default) for the first page."
        offset["schema"] = {"type": "integer", "minimum": 0, "maximum": self.max_offset}
        return [limit, offset]


def _query_number(request, name: str, *, default: int, low: int, high: int) -> int:
    if name not in request.query_params:
        return default
    text = request.query_params[name]
    if not (text.isascii() and text.isdigit() and len(text) <= 12 and low <= int(text) <= high):
        raise exceptions.ValidationError(
            {name: [_("Give a whole number from %(low)d to %(high)d.") % {"low": low, "high": high}]}
        )
    return int(text)


def paginated_response(*, request, view, items, serializer_class) -> Response:
    """The one way an API view answers a list (HackSoft's get_paginated_response): one page of
    `items` (a queryset in a total order, or a list) through `serializer_class`, in the envelope.
    The view declares `pagination_class = Pagination`, which is what drf-spectacular reads to put
    the envelope and the parameters in the schema; a view that forgets it fails here, in its
    first test, rather than documenting a bare array."""
    if getattr(view, "pagination_class", None) is not Pagination:
        raise ImproperlyConfigured(
            f"{type(view).__name__} answers a list: give it pagination_class = cardroom.api.Pagination."
        )
    if isinstance(items, QuerySet) and not items.ordered:
        # Each page is its own query: without an order the database may repeat or skip rows.
        raise ImproperlyConfigured(f"{type(view).__name__} pages a list in no order: order it.")
    paginator = Pagination()
    page = paginator.paginate_queryset(items, request, view=view)
    return paginator.get_paginated_response(serializer_class(page, many=True).data)
