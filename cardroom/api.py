"""API plumbing shared by every app: the error mapping and small helpers."""

from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import Http404
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from cardroom.errors import DomainError


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
