"""A printout as plain lines, whichever page made it: what the thermal printer prints and what
a print job keeps for "print again". The pages that print build their documents (the cage its
receipts and slips, the floor its move slips); this app only lays them out on paper."""

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Line:
    """One line of paper: `text` on the left, `right` (an amount) against the right edge.
    `heading` prints it centred in double size, `bold` in bold; `rule` is a line of dashes."""

    text: str = ""
    right: str = ""
    heading: bool = False
    bold: bool = False
    rule: bool = False


@dataclass(frozen=True)
class Document:
    title: str
    lines: list[Line] = field(default_factory=list)

    def as_json(self) -> dict:
        return {
            "title": self.title,
            "lines": [
                {
                    "text": line.text,
                    "right": line.right,
                    "heading": line.heading,
                    "bold": line.bold,
                    "rule": line.rule,
                }
                for line in self.lines
            ],
        }

    @classmethod
    def from_json(cls, data: dict) -> "Document":
        return cls(title=data.get("title", ""), lines=[Line(**line) for line in data.get("lines", [])])


def fitted(line: Line, width: int) -> str:
    """The line as it fits `width` characters: the right part against the edge, the left part
    cut short when both do not fit (a long name never pushes an amount onto the next line)."""
    if line.rule:
        return "-" * width
    if not line.right:
        return line.text
    room = width - len(line.right) - 1
    left = line.text if len(line.text) <= room else line.text[: max(room, 0)]
    return f"{left}{' ' * (width - len(left) - len(line.right))}{line.right}"
