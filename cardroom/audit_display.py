"""The audit trail as a manager reads it: the stored before/after values (JSON written by the
services) turned into labelled lines, amounts in EUR with two decimals, times in the venue's
zone, choices by their label. The stored record itself is never changed (it is append-only).

A key is labelled by the model field of the record's object when there is one (its translated
verbose name), else by KEY_LABELS, else by the key itself with spaces: the trail must show
every value, even one a later service adds without a label here.
"""

import functools
import re
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal

from django.apps import apps
from django.core.exceptions import FieldDoesNotExist
from django.utils import timezone
from django.utils.formats import date_format, number_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from cardroom.audit_actions import SEAT_ACTION_LABELS
from cardroom.house_rules import rule_title
from cardroom.money import format_chips, format_eur

SYSTEM_ACTOR = "system"

# Keys the services write most, that are not a field of the record's model.
KEY_LABELS = {
    "action": gettext_lazy("Action"),
    "amount": gettext_lazy("Amount"),
    "amount_cents": gettext_lazy("Amount"),
    "player": gettext_lazy("Player"),
    "table": gettext_lazy("Table"),
    "seat": gettext_lazy("Seat"),
    "seats": gettext_lazy("Seats"),
    "shift": gettext_lazy("Shift"),
    "status": gettext_lazy("Status"),
    "state": gettext_lazy("State"),
    "method": gettext_lazy("Payment method"),
    "receipt": gettext_lazy("Receipt"),
    "paid_by_receipt": gettext_lazy("Paid with receipt"),
    "entry": gettext_lazy("Entry"),
    "entries": gettext_lazy("Entries"),
    "tournament": gettext_lazy("Tournament"),
    "name": gettext_lazy("Name"),
    # A league's tournaments (SER-4): the ids that count, and those added and taken out.
    "tournaments": gettext_lazy("Tournaments"),
    "added": gettext_lazy("Added"),
    "removed": gettext_lazy("Removed"),
    "points_table": gettext_lazy("Points table"),
    "reason": gettext_lazy("Reason"),
    "rule": gettext_lazy("House rule"),
    "place": gettext_lazy("Place"),
    "places": gettext_lazy("Places"),
    "chips": gettext_lazy("Chips"),
    "chips_cents": gettext_lazy("Chips"),
    "levels": gettext_lazy("Levels"),
    "level": gettext_lazy("Level"),
    "order": gettext_lazy("Order"),
    "game": gettext_lazy("Game"),
    "hand": gettext_lazy("Hand"),
    "request": gettext_lazy("Request"),
    "reference": gettext_lazy("Reference"),
    "present": gettext_lazy("Present"),
    "prize_cents": gettext_lazy("Prize pool part"),
    "fee_cents": gettext_lazy("Fee"),
    "bounty_cents": gettext_lazy("Bounty"),
    "rake_cents": gettext_lazy("Rake"),
    "guarantee_cents": gettext_lazy("Guarantee"),
    "variance_cents": gettext_lazy("Variance"),
    "button_seat": gettext_lazy("Button seat"),
    "hold_until": gettext_lazy("Seat held until"),
    "moves": gettext_lazy("Moves"),
    "slip": gettext_lazy("Move slip"),
    "tables": gettext_lazy("Tables"),
    "amounts": gettext_lazy("Amounts"),
    "percentages": gettext_lazy("Percentages"),
    "payout_percentages": gettext_lazy("Percentages"),
    "collected_cents": gettext_lazy("Collected"),
    "overlay_cents": gettext_lazy("Overlay"),
    "prize_pool_cents": gettext_lazy("Prize pool"),
    "break_order": gettext_lazy("Break after level"),
    "bust_number": gettext_lazy("Bust-out number"),
    "fee": gettext_lazy("Fee"),
    "prize": gettext_lazy("Prize"),
    "code_from": gettext_lazy("Pairing code given by"),
    "user_agent": gettext_lazy("Browser"),
    "differences": gettext_lazy("Differences"),
    "file": gettext_lazy("Backup file"),
    "sha256": gettext_lazy("Checksum"),
    "kept_bag": gettext_lazy("Bag that goes through"),
    "bag_rule": gettext_lazy("A player with several bags"),
    # LOY-2: a hand's high-hand drops, a period's winners and its carry-over.
    "promotion_drop_cents": gettext_lazy("High-hand drop"),
    "players": gettext_lazy("Players"),
    "carried_out_cents": gettext_lazy("Carried into the next period"),
    "into": gettext_lazy("Next period"),
    # A pot's parts (RAK-6).
    "drop_cents": gettext_lazy("Jackpot drop"),
}
# Keys whose values are the ledger's codes ("table:7", a request's key): shown as code, which the
# trail keeps on purpose. A rule is shown by its title in words, a seat's action by its label.
CODE_KEYS = {"reference", "request_key", "file", "sha256", "best_five"}  # cards: "QhQdQsJcJh"
# Keys the services write in cents or in basis points without saying so in the key's name.
CENTS_KEYS = {"amount", "amounts", "prize", "fee", "bounty", "pot"}
BASIS_POINT_KEYS = {"percentages", "payout_percentages"}
ISO_MOMENT = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}")


@dataclass(frozen=True)
class AuditLine:
    label: str
    value: str
    code: bool = False


@functools.cache
def _choices_by_field_name() -> dict[str, dict[str, str]]:
    """Every model field with choices, by field name: a service writes {"method": "cash"} or
    {"state": "posted"} about an object whose own model may not have that field."""
    found: dict[str, dict] = {}
    for model in apps.get_models():
        for field in model._meta.get_fields():
            if getattr(field, "choices", None) and not field.is_relation:
                found.setdefault(field.name, {}).update(dict(field.flatchoices))
    return found


# A dealer tablet's own user is named "tablet-<table>-<random>" (devices.services._device_user):
# the trail names it by its table, not by the random part.
DEVICE_ACTOR = re.compile(r"^tablet-(\d+)-[0-9a-f]+$")


def actor_label(actor_name: str) -> str:
    if actor_name == SYSTEM_ACTOR:
        return _("System (clock and timers)")
    device = DEVICE_ACTOR.match(actor_name)
    if device:
        return _("Dealer tablet of table %(number)s") % {"number": device.group(1)}
    return actor_name


def object_label(object_type: str) -> str:
    """The record's kind of object by its model's translated name ("Cash table"), or the stored
    type when the model is gone."""
    model = _model(object_type)
    if model is None:
        return object_type
    name = str(model._meta.verbose_name)
    return name[:1].upper() + name[1:]


def _model(object_type: str):
    try:
        return apps.get_model(object_type) if "." in object_type else None
    except (LookupError, ValueError):
        return None


def _field(model, key: str):
    if model is None:
        return None
    try:
        return model._meta.get_field(key)
    except FieldDoesNotExist:
        return None


def _label(model, key: str) -> str:
    field = _field(model, key)
    if field is not None and getattr(field, "verbose_name", None):
        name = str(field.verbose_name)
        return name[:1].upper() + name[1:]
    if key in KEY_LABELS:
        return str(KEY_LABELS[key])
    return key.removesuffix("_cents").replace("_", " ").capitalize()


def _moment(text: str) -> str:
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        return text
    if timezone.is_naive(moment):
        return text
    return date_format(timezone.localtime(moment), "Y-m-d H:i:s")


def format_value(value, *, key: str = "", field=None) -> str:
    """One stored value as text: EUR for cents, local time for a moment, a choice's label."""
    if value is None or value == "":
        return "—"
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if isinstance(value, int) and (key.endswith("_cents") or key in CENTS_KEYS):
        return format_eur(value)
    if isinstance(value, int) and key in BASIS_POINT_KEYS:
        return number_format(Decimal(value) / 100, decimal_pos=2, use_l10n=True) + " %"
    if isinstance(value, int) and key.endswith("_chips"):
        return format_chips(value)
    if isinstance(value, str) and key == "rule" and rule_title(value):
        return rule_title(value)
    if isinstance(value, str) and key == "action" and value in SEAT_ACTION_LABELS:
        return str(SEAT_ACTION_LABELS[value])
    if isinstance(value, str):
        choices = dict(field.flatchoices) if field is not None and field.choices else {}
        choices = choices or _choices_by_field_name().get(key, {})
        if value in choices:
            return str(choices[value])
        return _moment(value) if ISO_MOMENT.match(value) else value
    if isinstance(value, list) and any(isinstance(item, list) for item in value):
        return "; ".join(format_value(item, key=key) for item in value) or "—"  # rows of a table
    if isinstance(value, list):
        return ", ".join(format_value(item, key=key) for item in value) or "—"
    if isinstance(value, dict):
        return "; ".join(
            f"{_label(None, name)}: {format_value(item, key=name)}" for name, item in value.items()
        )
    return str(value)


def audit_lines(values, object_type: str) -> list[AuditLine]:
    """A record's before or after values as labelled lines, in the order the service wrote them."""
    if values is None:
        return []
    if not isinstance(values, dict):
        return [AuditLine(label="", value=format_value(values))]
    model = _model(object_type)
    return [
        AuditLine(
            label=_label(model, key),
            value=format_value(value, key=key, field=_field(model, key)),
            code=key in CODE_KEYS,
        )
        for key, value in values.items()
    ]
