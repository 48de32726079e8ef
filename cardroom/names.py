"""One rule for the names of people: players' names and nicknames, the nickname a player gives
from a phone, dealers' names.

A name is what the floor calls out and what the room's screens show, so it must be something a
person can read. Refused:

- a name of invisible characters only (zero-width spaces, joiners, format marks, blank letters
  such as the Hangul filler): it shows as nothing on a screen and cannot be searched for;
- a character that turns the text's direction (the embeddings, overrides and isolates U+202A to
  U+202E and U+2066 to U+2069): a right-to-left override makes "Anna" show as another name
  and the rest of its line backwards;
- a control character (a line break, a tab, NUL): a name is one line.

Letters of every script stay, with their marks; so do the left-to-right and right-to-left marks
(U+200E, U+200F) inside a name that has visible letters.

`validate_person_name` is the validator of form and serializer fields; services call
`person_name_clean`, which raises the same refusal as a DomainError naming the field, so every
door refuses it and nothing is written.
"""

import unicodedata

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from cardroom.errors import DomainError

DIRECTION_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
# Letters and symbols that draw nothing: Hangul fillers, the Mongolian vowel separator, Khmer's
# inherent vowels, the blank Braille pattern.
BLANK_CHARACTERS = frozenset("\u115f\u1160\u3164\uffa0\u180e\u17b4\u17b5\u2800")
# Unicode categories that show nothing by themselves: format characters, controls, separators,
# combining marks with no letter to sit on, private-use, unassigned and surrogate code points.
INVISIBLE_CATEGORIES = frozenset({"Cf", "Cc", "Zs", "Zl", "Zp", "Mn", "Me", "Co", "Cn", "Cs"})


def _invisible(character: str) -> bool:
    return character in BLANK_CHARACTERS or unicodedata.category(character) in INVISIBLE_CATEGORIES


def person_name_problem(value: str) -> tuple[str, str] | None:
    """(code, message) of what is wrong with a person's name, or None. An empty name is no
    problem here: whether a name is required is the field's business."""
    if not value:
        return None
    if any(unicodedata.category(character) == "Cc" for character in value):
        return (
            "name_control_character",
            _("It holds a control character, such as a line break or a tab. Type the name on one line."),
        )
    if any(character in DIRECTION_CONTROLS for character in value):
        return (
            "name_direction_override",
            _(
                "It holds a character that turns the direction of the text (a right-to-left "
                "override). Type the name without it."
            ),
        )
    if all(_invisible(character) for character in value):
        return "name_invisible", _("It has no visible letter. Type the name as it is written.")
    return None


def validate_person_name(value: str) -> None:
    """A form or serializer field's validator (Django's ValidationError; DRF reads it too)."""
    problem = person_name_problem(value)
    if problem is not None:
        code, message = problem
        raise ValidationError(message, code=code)


def person_name_clean(value: str, *, label: str, rule: str) -> str:
    """`value` unchanged, or a DomainError that names the field (`label`) and the problem."""
    problem = person_name_problem(value)
    if problem is not None:
        code, message = problem
        raise DomainError(code, _("%(field)s: %(problem)s") % {"field": label, "problem": message}, rule=rule)
    return value
