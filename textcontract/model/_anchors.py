"""Anchors: where a renderer printed a claim, as a span of the surface text and that text.

An anchor is a declaration made at rendering time ("order.total was printed at
[31, 36) as 59.90"). Loading a document checks only its shape: two integers
``0 <= start <= end`` and a text of ``end - start`` code points. Whether the
surface text still holds that text at that span is a question for the
ClaimsAnchored rule, since the text may have been edited after rendering —
which is exactly what the rule is there to notice.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import partial
from itertools import accumulate
from typing import Any, NamedTuple, TypeAlias

from textcontract.errors import Location, Problem
from textcontract.model._facts import is_valid_unicode, type_name

__all__ = ["Anchor", "Anchors", "anchors_json", "anchors_of_pieces", "validate_anchors"]


class Anchor(NamedTuple):
    """One printed occurrence of a claim: ``text`` stood at code points ``[start, end)``.

    A named tuple rather than a dataclass: a renderer makes one per printed claim.
    """

    start: int
    end: int
    text: str

    @property
    def span(self) -> tuple[int, int]:
        return (self.start, self.end)

    def holds_in(self, text: str) -> bool:
        """Whether ``text`` still has this anchor's text at its span."""
        return self.end <= len(text) and text[self.start : self.end] == self.text

    def to_json(self) -> dict[str, Any]:
        return {"span": [self.start, self.end], "text": self.text}


Anchors: TypeAlias = Mapping[str, tuple[Anchor, ...]]

_new_anchor = partial(tuple.__new__, Anchor)  # Anchor((start, end, text)) at C speed


def anchors_of_pieces(pieces: Sequence[str], keys: Sequence[str]) -> dict[str, tuple[Anchor, ...]]:
    """The anchors of a text given as its pieces — the text before the first claim, then
    each claim's printed text and the text after it — where piece ``2 * i + 1`` printed
    ``keys[i]``, each key once: one anchor per key, in the order printed."""
    ends = list(accumulate(map(len, pieces)))  # where each piece ends
    found = map(_new_anchor, zip(ends[0:-1:2], ends[1::2], pieces[1::2], strict=True))
    return dict(zip(keys, zip(found), strict=True))


def anchors_json(anchors: Anchors) -> dict[str, list[dict[str, Any]]]:
    return {key: [anchor.to_json() for anchor in found] for key, found in anchors.items()}


def validate_anchors(
    value: object, path: Sequence[str | int], file: str | None, problems: list[Problem]
) -> dict[str, tuple[Anchor, ...]]:
    """Check a ``key -> [{span: [s, e], text}]`` object, one problem per offending item."""
    if not isinstance(value, Mapping):
        problems.append(
            Problem(
                f"'anchors' must map claim keys to lists of anchors, got {type_name(value)}",
                Location.of_path(file, path),
            )
        )
        return {}
    anchors: dict[str, tuple[Anchor, ...]] = {}
    for key, items in value.items():
        where = [*path, key]
        if not isinstance(items, list | tuple) or not items:
            got = (
                "an empty list (leave the key out)"
                if isinstance(items, list | tuple)
                else type_name(items)
            )
            problems.append(
                Problem(
                    f"expected a non-empty list of anchors {{span: [start, end], text}}, got {got}",
                    Location.of_path(file, where),
                )
            )
            continue
        found = [_anchor(item, [*where, index], file, problems) for index, item in enumerate(items)]
        if all(anchor is not None for anchor in found):
            anchors[str(key)] = tuple(anchor for anchor in found if anchor is not None)
    return anchors


def _anchor(
    item: object, path: list[str | int], file: str | None, problems: list[Problem]
) -> Anchor | None:
    where = Location.of_path(file, path)
    if not isinstance(item, Mapping) or set(item) != {"span", "text"}:
        problems.append(Problem("an anchor is an object with exactly 'span' and 'text'", where))
        return None
    span, text = item["span"], item["text"]
    if not (
        isinstance(span, list | tuple)
        and len(span) == 2
        and all(isinstance(n, int) and not isinstance(n, bool) for n in span)
        and 0 <= span[0] <= span[1]
    ):
        problems.append(
            Problem(
                "'span' must be [start, end]: two integers with 0 <= start <= end",
                Location.of_path(file, [*path, "span"]),
            )
        )
        return None
    if not isinstance(text, str) or not is_valid_unicode(text):
        problems.append(
            Problem(
                f"'text' must be a valid Unicode string, got {type_name(text)}",
                Location.of_path(file, [*path, "text"]),
            )
        )
        return None
    start, end = span
    if end - start != len(text):
        problems.append(
            Problem(
                f"the span [{start}, {end}] covers {end - start} code points but 'text' has "
                f"{len(text)}",
                where,
            )
        )
        return None
    return Anchor(start, end, text)
