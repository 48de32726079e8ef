"""API plumbing shared by every app: the error mapping and the money convention.

Money in the API is integer cents in fields named `*_cents`, in and out: a JSON number such as
150000 for 1,500.00 EUR. A text amount is refused, so no separator is ever guessed (CAG-5).
"""

from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import Http404
from django.utils.translation import gettext_lazy as _
from rest_framework import exceptions, serializers, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from cardroom.errors import DomainError
from cardroom.money import MAX_CENTS


def exception_handler(exc, context):
    """DomainError -> {"code", "detail", "rule"}; DRF's own errors keep their shape but gain a
    code, so every 4xx body a client sees names the problem."""
    if isinstance(exc, DomainError):
        return Response(exc.as_dict(), status=exc.status_code)
    if isinstance(exc, DjangoValidationError):
        detail = exc.message_dict if hasattr(exc, "error_dict") else {"detail": exc.messages}
        return Response({"code": "invalid", "detail": detail, "rule": ""}, status=status.HTTP_400_BAD_REQUEST)
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    if isinstance(exc, exceptions.ValidationError):
        response.data = {"code": "invalid", "detail": response.data, "rule": ""}
    elif isinstance(response.data, dict) and "detail" in response.data:
        code = getattr(response.data["detail"], "code", None) or (
            "not_found" if isinstance(exc, Http404) else "error"
        )
        response.data = {"code": str(code), "detail": str(response.data["detail"]), "rule": ""}
    return response


class CentsField(serializers.IntegerField):
    """An amount of money as a JSON integer of cents. "1,500", 1500.0 and true are refused
    rather than read (DRF's IntegerField would take "12" and 12.0)."""

    default_error_messages = {
        "invalid": _("Give the amount in whole cents as a number, e.g. 150000 for 1,500.00 EUR (CAG-5).")
    }

    def __init__(self, **kwargs):
        kwargs.setdefault("min_value", 0)
        kwargs.setdefault("max_value", MAX_CENTS)
        super().__init__(**kwargs)

    def to_internal_value(self, data):
        if isinstance(data, bool) or not isinstance(data, int):
            self.fail("invalid")
        return super().to_internal_value(data)


def money_response(data, *, replayed: bool) -> Response:
    """The answer to a money request (CAG-2): 201 when it was carried out now; a repeat of its
    key answers 200 with the same body, and says so in the `Idempotent-Replayed` header. The
    caller reads `cardroom.idempotency.key_used(key)` before it runs the request."""
    response = Response(data, status=status.HTTP_200_OK if replayed else status.HTTP_201_CREATED)
    response["Idempotent-Replayed"] = "true" if replayed else "false"
    return response


def request_key(request, data: dict) -> str:
    """A money request's key: the Idempotency-Key header, or the body's idempotency_key (CAG-2)."""
    return request.headers.get("Idempotency-Key") or data.get("idempotency_key") or ""


class ChipCountField(CentsField):
    """A count of tournament chips as a JSON integer (the same strictness as money, CAG-5)."""

    default_error_messages = {"invalid": _("Give the chips as a whole number, e.g. 25000 (CAG-5).")}
