"""The audit trail's part of an erasure (GDP-1): every value the trail displays that names the
erased person is replaced by the pseudonym, through the trail's one sanctioned rewrite
(`cardroom.services.audit_records_redact`), inside the erasure's transaction.

What is replaced, and where:
- In the records about the player (the card, and each session, waiting-list entry, tournament
  entry and payment, jackpot share and posting of the player's): the identity fields of the
  before and after values by field name (names, nickname, birth date, card and document, notes,
  phone), and in every text of the record (its object label, its note, the text values) each
  name, nickname, card number, document number, birth date and phone number the person ever had.
- In every other record of the trail: the person's full name (as "first last", "last, first"
  or "last first"), document numbers and phone numbers wherever they were written, e.g. in a
  reason typed by staff. A nickname or a card number alone is replaced only in the records about
  the player: elsewhere it could be another person's word or an amount.
Who did what, when, and to which object stays as it was: the database refuses anything else.
"""

import json
import re
from dataclasses import dataclass, field

from django.db.models import Q, TextField
from django.db.models.functions import Cast

from cardroom.models import AuditRecord
from cardroom.services import audit_records_redact

ERASED_TEXT = "—"
IDENTITY_ACTIONS = ("player.create", "player.update")
SHORTEST_NICKNAME = 2
SHORTEST_NUMBER = 4


@dataclass
class Traces:
    """Every value of the person the trail may hold, gathered before the erasure."""

    names: set[tuple[str, str]] = field(default_factory=set)
    nicknames: set[str] = field(default_factory=set)
    card_numbers: set[str] = field(default_factory=set)
    documents: set[str] = field(default_factory=set)
    birth_dates: set[str] = field(default_factory=set)
    phones: set[str] = field(default_factory=set)
    # The whole label a record of the card held ("Ján Novák (Shark) #100001").
    labels: set[str] = field(default_factory=set)

    def add_identity(self, values: dict) -> None:
        first, last = str(values.get("first_name") or "").strip(), str(values.get("last_name") or "").strip()
        nickname, card = (
            str(values.get("nickname") or "").strip(),
            str(values.get("card_number") or "").strip(),
        )
        if first and last:
            self.names.add((first, last))
            nick = f" ({nickname})" if nickname else ""
            if card:
                self.labels.add(f"{first} {last}{nick} #{card}")
        if nickname:
            self.nicknames.add(nickname)
        if card:
            self.card_numbers.add(card)
        if values.get("id_document_number"):
            self.documents.add(str(values["id_document_number"]).strip())
        if values.get("date_of_birth"):
            self.birth_dates.add(str(values["date_of_birth"]))


def _pattern(replacements: dict[str, str]) -> tuple[re.Pattern, dict[str, str]] | None:
    texts = sorted((text for text in replacements if text), key=len, reverse=True)
    if not texts:
        return None
    alternation = "|".join(re.escape(text) for text in texts)
    lowered = {text.casefold(): value for text, value in replacements.items()}
    return re.compile(rf"(?<!\w)(?:{alternation})(?!\w)", re.IGNORECASE), lowered


@dataclass
class Redactor:
    """Rewrites a record's displayed values; `strong` for any record of the trail, `full` for
    the records about the player."""

    pseudonym: str
    card_number: str
    identity_keys: dict
    strong: tuple | None
    full: tuple | None

    @classmethod
    def build(cls, traces: Traces, *, pseudonym: str, card_number: str, first_name: str, last_name: str):
        strong: dict[str, str] = {}
        for first, last in traces.names:
            for text in (f"{first} {last}", f"{last}, {first}", f"{last} {first}"):
                strong[text] = pseudonym
        for label in traces.labels:
            strong[label] = pseudonym
        strong.update({number: ERASED_TEXT for number in traces.documents if len(number) >= SHORTEST_NUMBER})
        strong.update({phone: ERASED_TEXT for phone in traces.phones if len(phone) >= SHORTEST_NUMBER})
        full = dict(strong)
        full.update({nick: pseudonym for nick in traces.nicknames if len(nick) >= SHORTEST_NICKNAME})
        full.update(dict.fromkeys(traces.card_numbers, card_number))
        full.update(dict.fromkeys(traces.birth_dates, ERASED_TEXT))
        identity_keys = {
            "first_name": first_name,
            "last_name": last_name,
            "nickname": "",
            "date_of_birth": None,
            "card_number": card_number,
            "id_document_type": "",
            "id_document_number": "",
            "notes": "",
            "phone": "",
        }
        return cls(pseudonym, card_number, identity_keys, _pattern(strong), _pattern(full))

    @staticmethod
    def _text(text: str, compiled) -> str:
        if compiled is None or not text:
            return text
        pattern, values = compiled
        return pattern.sub(lambda match: values[match.group(0).casefold()], text)

    def _value(self, value, compiled, *, by_key: bool):
        if isinstance(value, str):
            return self._text(value, compiled)
        if isinstance(value, list):
            return [self._value(item, compiled, by_key=by_key) for item in value]
        if isinstance(value, dict):
            return {
                key: (
                    self.identity_keys[key]
                    if by_key and key in self.identity_keys and item not in (None, "", False)
                    else self._value(item, compiled, by_key=by_key)
                )
                for key, item in value.items()
            }
        return value

    def redact(self, record: AuditRecord, *, about_player: bool) -> bool:
        """Rewrite the record in memory; True if anything changed."""
        compiled = self.full if about_player else self.strong
        changed = {
            "object_repr": self._text(record.object_repr, compiled),
            "note": self._text(record.note, compiled),
            "before": self._value(record.before, compiled, by_key=about_player),
            "after": self._value(record.after, compiled, by_key=about_player),
        }
        if all(getattr(record, name) == value for name, value in changed.items()):
            return False
        for name, value in changed.items():
            setattr(record, name, value)
        return True


def identity_traces(records: list[AuditRecord]) -> list[dict]:
    """The identities the card's own records show the person had (created, then each change)."""
    found = []
    for record in records:
        if record.object_type != "players.player" or record.action not in IDENTITY_ACTIONS:
            continue
        for values in (record.before, record.after):
            if isinstance(values, dict) and values.get("last_name"):
                found.append(values)
    return found


def _mentioning(traces: Traces, *, exclude: list[int]):
    """Records outside the player's own that hold one of the strong traces somewhere."""
    texts = {f"{first} {last}" for first, last in traces.names}
    texts |= {f"{last}, {first}" for first, last in traces.names}
    texts |= {text for text in traces.documents | traces.phones if len(text) >= SHORTEST_NUMBER}
    condition = Q()
    for text in texts:
        # JSON is stored with its non-ASCII letters escaped on SQLite, as they are on PostgreSQL.
        escaped = json.dumps(text)[1:-1]
        for form in {text, escaped}:
            condition |= (
                Q(object_repr__icontains=form)
                | Q(note__icontains=form)
                | Q(before_text__icontains=form)
                | Q(after_text__icontains=form)
            )
    if not condition:
        return AuditRecord.all_venues.none()
    return (
        AuditRecord.all_venues.annotate(
            before_text=Cast("before", TextField()), after_text=Cast("after", TextField())
        )
        .filter(condition)
        .exclude(pk__in=exclude)
    )


def audit_trail_redact(*, related: list[AuditRecord], traces: Traces, redactor: Redactor) -> list[int]:
    """Replace the person in the trail (the caller holds the erasure's transaction); the ids of
    the records rewritten."""
    changed = [record for record in related if redactor.redact(record, about_player=True)]
    others = _mentioning(traces, exclude=[record.pk for record in related])
    changed += [record for record in others if redactor.redact(record, about_player=False)]
    audit_records_redact(records=changed)
    return sorted(record.pk for record in changed)
