"""Reading JSON that comes from outside: the API's bodies and the files staff import.

`json_loads` is the one way the project reads such a document. Besides what `json.loads`
refuses, it refuses two things that would otherwise get past the parser and fail later, as a
500 instead of a 400:

- nesting deeper than `MAX_DEPTH` objects and lists (a thousand levels make `json.loads` itself
  overflow Python's recursion limit; nothing the room sends nests more than a few levels);
- a NUL character (`\\u0000`) in any text or key: PostgreSQL cannot store one in a text column,
  and no name, note or key needs it.

`JSONParser` is DRF's parser over `json_loads`; settings' `DEFAULT_PARSER_CLASSES` and every view
that narrows its parsers use it.
"""

import json

from django.conf import settings
from django.utils.translation import gettext as _
from rest_framework import exceptions, parsers

MAX_DEPTH = 32


class UnsafeJSON(ValueError):
    """A JSON document refused: `code` names the reason, the message says it to a person."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code
        self.message = message


def too_deep() -> UnsafeJSON:
    return UnsafeJSON(
        "json_too_deep",
        _("The JSON nests objects and lists more than %(depth)d levels deep. Send a flatter document.")
        % {"depth": MAX_DEPTH},
    )


def nul_refused() -> UnsafeJSON:
    return UnsafeJSON(
        "nul_character",
        _(
            "The request holds a NUL character (\\u0000), which no text may contain. "
            "Remove it and send again."
        ),
    )


def _check(data) -> None:
    """Walk the parsed document without recursion: depth and NUL characters."""
    pending = [(data, 1)]
    while pending:
        value, depth = pending.pop()
        if isinstance(value, str):
            if "\x00" in value:
                raise nul_refused()
        elif isinstance(value, dict | list):
            if depth > MAX_DEPTH:
                raise too_deep()
            items = value.items() if isinstance(value, dict) else ((None, item) for item in value)
            for key, item in items:
                if key is not None and "\x00" in key:
                    raise nul_refused()
                if isinstance(item, str | dict | list):
                    pending.append((item, depth + 1))


def _strict_constant(name: str):
    raise ValueError(f"{name} is not a JSON number")


def json_loads(text: str):
    """The document in `text`, or UnsafeJSON / ValueError (the message says what is wrong)."""
    try:
        # NaN and Infinity are not JSON (DRF's strict parser refuses them too).
        data = json.loads(text, parse_constant=_strict_constant)
    except RecursionError:
        # Deeper than the interpreter's stack: deeper than MAX_DEPTH by far.
        raise too_deep() from None
    _check(data)
    return data


class JSONParser(parsers.JSONParser):
    """DRF's JSON parser with the checks of `json_loads`: a document nested too deep or holding
    a NUL character is a 400 naming the problem, before any view reads it."""

    def parse(self, stream, media_type=None, parser_context=None):
        encoding = (parser_context or {}).get("encoding", settings.DEFAULT_CHARSET)
        try:
            return json_loads(stream.read().decode(encoding))
        except UnsafeJSON as error:
            raise exceptions.ParseError(error.message, code=error.code) from None
        except ValueError as error:
            # DRF's own words for a syntax error.
            raise exceptions.ParseError(f"JSON parse error - {error}") from None
