"""Errors of the web and the workers to the operator's Sentry or GlitchTip (OPS-2), when
`SENTRY_DSN` is set (cardroom/settings.py calls `sentry_init`), with what is private scrubbed:
players' names, card numbers, phone numbers and amounts never leave the room.

What the SDK is told not to collect: the signed-in user, cookies, request bodies and queries,
the SQL's parameters, local variables of the stack frames (a frame holding a player would send
the player). What
`before_send` and `before_breadcrumb` then scrub from what is left:

- the request keeps its method and path; its query's values (a search for a name) are filtered
  and only harmless headers kept;
- an exception's text and every message keep their words, but numbers (amounts, phone numbers,
  card numbers, and any word holding three digits or more), quoted values ('Novák') and the
  values PostgreSQL quotes in its errors ("Key (card_number)=(...)", "Failing row contains
  (...)") are filtered;
- a log call's arguments are filtered and its message rebuilt from the format without them;
- wherever a value under a private-sounding key (name, phone, card, amount, ...) appears in
  the data sent, it is filtered;
- and the values found in the failing frames' variables (a player's names, card number, phone,
  any `*_cents`) and in a log call's arguments are searched for in the texts sent and
  filtered, so a message built with an f-string does not carry them out either.

This module imports nothing of Django's models: the settings import it before the apps load.
"""

import re
from types import TracebackType
from typing import Any

import sentry_sdk
from sentry_sdk.integrations.celery import CeleryIntegration
from sentry_sdk.integrations.django import DjangoIntegration

FILTERED = "[Filtered]"
NUMBER = "[number]"
# Keys whose values are private wherever they appear in what is sent.
PRIVATE_KEY = re.compile(
    r"(^|[_\-. ])(name|names|nickname|username|player|players|phone|mobile|card|membership|amount|cents|"
    r"balance|total|float|document|birth|email|address|ip|note|notes|reason|q|query|search|term|"
    r"password|secret|token|cookie|session|authorization|csrf|dsn|key)($|[_\-. ])",
    re.IGNORECASE,
)
SAFE_KEYS = frozenset({"task_name", "logger", "module", "type", "level", "category"})
HEADERS_KEPT = frozenset(
    {"content-type", "content-length", "user-agent", "accept", "accept-language", "host"}
)
# PostgreSQL's error details quote the row's values.
PG_KEY = re.compile(r"(Key \([^)]*\)=\().*?(\)(?: already exists| is not present|\.|$))", re.MULTILINE)
PG_ROW = re.compile(r"(Failing row contains \().*$", re.MULTILINE)
QUOTED = re.compile(r"(['\"])(.*?)\1")
# An identifier in quotes (a table, a field, a setting) is kept: lower case, digits, _ and dots.
IDENTIFIER = re.compile(r"[a-z_][a-z0-9_.]*")
# A number: digits with the separators people and the site write them with (1 500,00; +421 905 ...).
NUMBER_RE = re.compile(r"(?<![\w.])\+?\d(?:[\d\u00a0\u202f .,/()\-]*\d)?(?!\w)")
WORD_WITH_DIGITS = re.compile(r"\b\w*\d\w*\b")
MIN_HARVESTED = 3  # shorter values are not searched for (they would blank out every word)


def _quoted(match: re.Match) -> str:
    quote, text = match.group(1), match.group(2)
    return match.group(0) if IDENTIFIER.fullmatch(text) else f"{quote}{FILTERED}{quote}"


def _word(match: re.Match) -> str:
    word = match.group(0)
    return NUMBER if sum(char.isdigit() for char in word) >= 3 else word


def scrub_text(text: str, harvested: frozenset[str] = frozenset()) -> str:
    """A message or an exception's text with the private values taken out."""
    text = PG_KEY.sub(rf"\1{FILTERED}\2", text)
    text = PG_ROW.sub(rf"\1{FILTERED})", text)
    text = QUOTED.sub(_quoted, text)
    text = NUMBER_RE.sub(NUMBER, text)
    text = WORD_WITH_DIGITS.sub(_word, text)
    for value in sorted(harvested, key=len, reverse=True):
        text = text.replace(value, FILTERED)
    return text


def _scrub_data(value: Any, harvested: frozenset[str], key: str = "") -> Any:
    """Data sent beside a message (extra, tags, contexts, breadcrumbs' data): private keys'
    values filtered, texts scrubbed."""
    if key and key not in SAFE_KEYS and PRIVATE_KEY.search(key):
        return FILTERED
    if isinstance(value, dict):
        return {k: _scrub_data(v, harvested, str(k)) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_scrub_data(item, harvested) for item in value]
    if isinstance(value, str):
        return scrub_text(value, harvested)
    return value


# Harvesting: the private values the failing code held --------------------------------------


def _add(found: set[str], value: Any) -> None:
    if isinstance(value, int | float) and not isinstance(value, bool):
        value = str(value)
    if isinstance(value, str) and len(value.strip()) >= MIN_HARVESTED:
        found.add(value.strip())
        found.update(part for part in value.split() if len(part) >= MIN_HARVESTED)


def _collect(found: set[str], key: str, value: Any, depth: int = 0) -> None:
    private = bool(PRIVATE_KEY.search(key))
    if private and isinstance(value, str | int | float):
        # A lower-case word under a name-like key of the code ("name = 'home'") is a name of
        # the code's own, not a person's.
        if not (isinstance(value, str) and IDENTIFIER.fullmatch(value)):
            _add(found, value)
    elif hasattr(value, "_meta") and hasattr(value, "__dict__"):
        # A model instance: its private-sounding fields, read from memory (no query).
        for field, field_value in vars(value).items():
            if PRIVATE_KEY.search(field):
                _add(found, field_value)
    elif depth < 2 and hasattr(value, "POST") and hasattr(value, "GET"):
        for data in (value.GET, value.POST):
            for data_key in data:
                _collect(found, data_key, data.get(data_key), depth + 1)
    elif depth < 2 and isinstance(value, dict):
        for item_key, item in list(value.items())[:200]:
            _collect(found, str(item_key), item, depth + 1)
    elif depth < 2 and isinstance(value, list | tuple | set):
        for item in list(value)[:200]:
            _collect(found, key, item, depth + 1)


def _frames(tb: TracebackType | None):
    """The project's own frames of a traceback (not the installed packages')."""
    while tb is not None:
        if "-packages" not in tb.tb_frame.f_code.co_filename:
            yield tb.tb_frame
        tb = tb.tb_next


def harvest(hint: dict | None) -> frozenset[str]:
    found: set[str] = set()
    hint = hint or {}
    exc_info = hint.get("exc_info")
    if exc_info and exc_info[1] is not None:
        error = exc_info[1]
        seen = set()
        while error is not None and id(error) not in seen:
            seen.add(id(error))
            for frame in _frames(error.__traceback__):
                for name, value in frame.f_locals.items():
                    _collect(found, name, value)
            error = error.__cause__ or error.__context__
    record = hint.get("log_record")
    if record is not None and record.args:
        args = record.args.values() if isinstance(record.args, dict) else record.args
        for arg in args:
            _collect(found, "param", arg)
            _add(found, arg if isinstance(arg, str | int | float) else None)
    return frozenset(found)


# The hooks ------------------------------------------------------------------------------------


def _log_message(record) -> str:
    """The log call's message with its arguments filtered: the format, with [Filtered] in place."""
    try:
        if isinstance(record.args, dict):
            return str(record.msg) % dict.fromkeys(record.args, FILTERED)
        return str(record.msg) % ((FILTERED,) * len(record.args or ()))
    except (TypeError, ValueError, KeyError):
        return str(record.msg)


def _request(request: dict, harvested: frozenset[str]) -> dict:
    kept = {key: request[key] for key in ("method",) if request.get(key)}
    if request.get("url"):
        kept["url"] = scrub_text(request["url"], harvested)
    query = request.get("query_string")
    if query:
        kept["query_string"] = "&".join(
            f"{part.partition('=')[0]}={FILTERED}" for part in str(query).split("&")
        )
    headers = request.get("headers") or {}
    kept["headers"] = {k: v for k, v in headers.items() if k.lower() in HEADERS_KEPT}
    return kept


def _exceptions(exception: dict, harvested: frozenset[str]) -> dict:
    for value in exception.get("values") or []:
        if isinstance(value.get("value"), str):
            value["value"] = scrub_text(value["value"], harvested)
        for frame in (value.get("stacktrace") or {}).get("frames") or []:
            frame.pop("vars", None)
    return exception


def before_send(event: dict, hint: dict | None) -> dict:
    harvested = harvest(hint)
    event.pop("user", None)
    if "request" in event:
        event["request"] = _request(event["request"], harvested)
    if "exception" in event:
        event["exception"] = _exceptions(event["exception"], harvested)
    record = (hint or {}).get("log_record")
    logentry = event.get("logentry")
    if logentry:
        message = _log_message(record) if record is not None else str(logentry.get("formatted") or "")
        logentry["message"] = scrub_text(str(logentry.get("message") or ""), harvested)
        logentry["params"] = [FILTERED] * len(logentry.get("params") or ())
        logentry["formatted"] = scrub_text(message, harvested)
    if isinstance(event.get("message"), str):
        event["message"] = scrub_text(event["message"], harvested)
    for crumb in (event.get("breadcrumbs") or {}).get("values") or []:
        if isinstance(crumb.get("message"), str):
            crumb["message"] = scrub_text(crumb["message"], harvested)
        if "data" in crumb:
            crumb["data"] = _scrub_data(crumb["data"], harvested)
    for part in ("extra", "tags"):
        if part in event:
            event[part] = _scrub_data(event[part], harvested)
    return event


def before_breadcrumb(crumb: dict, hint: dict | None) -> dict:
    harvested = harvest(hint)
    record = (hint or {}).get("log_record")
    if record is not None:
        crumb["message"] = _log_message(record)
    if isinstance(crumb.get("message"), str):
        crumb["message"] = scrub_text(crumb["message"], harvested)
    if "data" in crumb:
        crumb["data"] = _scrub_data(crumb["data"], harvested)
    return crumb


def sentry_init(*, dsn: str, environment: str, transport: Any = None) -> None:
    """Send the web's and the workers' errors to `dsn`, scrubbed. `transport` is for tests."""
    sentry_sdk.init(
        dsn=dsn,
        environment=environment or None,
        integrations=[DjangoIntegration(), CeleryIntegration()],
        # Nothing of the user, the cookies, the request's body or query, the SQL's parameters or
        # the frames' variables is collected at all.
        data_collection={
            "user_info": False,
            "cookies": {"mode": "off"},
            "http_headers": {"request": {"mode": "allowlist", "terms": sorted(HEADERS_KEPT)}},
            "http_bodies": [],
            "url_query_params": {"mode": "off"},
            "database_query_data": False,
            "stack_frame_variables": False,
        },
        before_send=before_send,
        before_breadcrumb=before_breadcrumb,
        # Errors only: no performance traces leave the room.
        traces_sample_rate=None,
        **({"transport": transport} if transport is not None else {}),
    )
