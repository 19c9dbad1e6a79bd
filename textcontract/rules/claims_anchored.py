"""ClaimsAnchored: each claim still stands where the renderer printed it.

A renderer that records anchors (``textcontract.render``, or any adapter that
writes ``anchors`` into the document) says "order.total was printed at
[31, 36) as 59.90". This rule checks every such anchor against the surface text
as it is now: an LLM polish pass, a string replace or a hand edit after rendering
that moved or changed a claimed value breaks the anchor. A claim without an
anchor is undetermined, unless ``search: true`` looks for the value's usual
written forms in the text (for LLM answers nobody annotated); search proves that
the value is written somewhere on the surface, not that the sentence around it
asserts it about the right thing.

Violated::

    {id: anchored, type: ClaimsAnchored}
    document: {"surfaces": {"body": {"text": "Total: 59.95 EUR",
               "claims": {"order.total": 59.9},
               "anchors": {"order.total": [{"span": [7, 12], "text": "59.90"}]}}}}

Satisfied::

    {id: anchored, type: ClaimsAnchored}
    document: {"surfaces": {"body": {"text": "Total: 59.90 EUR",
               "claims": {"order.total": 59.9},
               "anchors": {"order.total": [{"span": [7, 12], "text": "59.90"}]}}}}
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, ClassVar

from textcontract.model import Anchor, Check, FactValue, Kind, Status, Surface, describe_value
from textcontract.rules._base import SURFACE_MISSING, Code, Options, RuleHeader, SurfaceRule
from textcontract.rules._params import BOOLEAN, SURFACES, Param
from textcontract.rules._subject import Subject
from textcontract.rules._written_forms import find_written, written_forms

__all__ = ["ClaimsAnchored"]


class ClaimsAnchored(SurfaceRule):
    name = "ClaimsAnchored"
    kind = Kind.INVARIANT
    summary = (
        "every anchor of a claim still holds in the surface text; search: finds unanchored ones"
    )
    params: ClassVar[tuple[Param, ...]] = (
        SURFACES,
        Param(
            "search",
            BOOLEAN,
            "look for a claim without anchors in the text by its usual written forms",
            default=False,
        ),
    )
    codes: ClassVar[tuple[Code, ...]] = (
        Code.of(
            "CLAIM_ANCHORED",
            "the text at each recorded anchor span still equals the anchor's text",
            Status.SATISFIED,
            Status.VIOLATED,
        ),
        Code.of(
            "CLAIM_UNANCHORED",
            "the claim has no anchor (and search is off, or the value has no written form)",
            Status.UNDETERMINED,
        ),
        Code.of(
            "CLAIM_PRESENT",
            "search: one of the unanchored claim's written forms occurs in the surface text",
            Status.SATISFIED,
            Status.VIOLATED,
        ),
        Code.of(
            "CLAIMS_ABSENT",
            "the surface declares no claims, so nothing can be anchored",
            Status.UNDETERMINED,
        ),
        SURFACE_MISSING,
    )
    main_code = "CLAIM_ANCHORED"

    def __init__(self, header: RuleHeader, options: Options) -> None:
        super().__init__(header, options)
        self._search = options.boolean("search")

    def evaluate_surface(self, subject: Subject, surface: Surface) -> Iterator[Check]:
        # Anchors are compared with the original text, not a normalized one; the subject
        # only places them in it (lines and columns, SPEC §10).
        scope = f"surface:{surface.name}"
        if not surface.claims:
            yield self.check(
                Status.UNDETERMINED,
                "CLAIMS_ABSENT",
                scope,
                f"surface {surface.name!r} declares no claims; nothing is anchored",
                evidence=[{"surface": surface.name}],
            )
            return
        for key, value in surface.claims.items():
            anchors = surface.anchors.get(key)
            if anchors:
                yield self._anchored(subject, surface, scope, key, value, anchors)
            elif self._search and written_forms(value):
                yield self._searched(subject, surface, scope, key, value)
            else:
                yield self._unanchored(scope, key, value)

    def _anchored(
        self,
        subject: Subject,
        surface: Surface,
        scope: str,
        key: str,
        value: FactValue,
        anchors: tuple[Anchor, ...],
    ) -> Check:
        text = surface.text
        broken = [anchor for anchor in anchors if not anchor.holds_in(text)]
        shown = broken or list(anchors)
        # Each item is located where its "found" text is: the anchor span, cut at the text's
        # end when the text is now shorter than the span.
        spans = [(min(a.start, len(text)), min(a.end, len(text))) for a in shown]
        places = subject.locate_original(surface, spans)
        evidence = [
            {
                "key": key,
                "span": list(anchor.span),
                "expected": anchor.text,
                "found": text[anchor.start : anchor.end],
                "location": place.to_json(),
            }
            for anchor, place in zip(shown, places, strict=True)
        ]
        metrics = {"anchors": len(anchors), "anchors_held": len(anchors) - len(broken)}
        claim = f"claim {key} = {describe_value(value)}"
        if not broken:
            where = ", ".join(_span(anchor) for anchor in anchors)
            return self.check(
                Status.SATISFIED,
                "CLAIM_ANCHORED",
                scope,
                f"{claim} still stands where it was printed ({where})",
                evidence=evidence,
                metrics=metrics,
            )
        first = broken[0]
        return self.check(
            Status.VIOLATED,
            "CLAIM_ANCHORED",
            scope,
            f"{claim}: {_drift(first, text)}; {len(broken)} of {len(anchors)} anchor(s) broken "
            "(the text was edited after rendering)",
            evidence=evidence,
            metrics=metrics,
        )

    def _searched(
        self, subject: Subject, surface: Surface, scope: str, key: str, value: FactValue
    ) -> Check:
        forms = list(written_forms(value))
        evidence: dict[str, Any] = {"key": key, "value": value, "forms": forms}
        found = find_written(value, surface.text)
        claim = f"claim {key} = {describe_value(value)}"
        if found is None:
            shown = ", ".join(repr(form) for form in forms)
            return self.check(
                Status.VIOLATED,
                "CLAIM_PRESENT",
                scope,
                f"{claim} has no anchor and none of its written forms ({shown}) occurs "
                f"in surface {surface.name!r}",
                evidence=[evidence],
            )
        start, end = found
        evidence["found"] = {"span": [start, end], "text": surface.text[start:end]}
        [place] = subject.locate_original(surface, [(start, end)])
        evidence["location"] = place.to_json()
        return self.check(
            Status.SATISFIED,
            "CLAIM_PRESENT",
            scope,
            f"{claim} is written at [{start}, {end}] as {surface.text[start:end]!r} "
            "(search proves presence, not what the sentence says about it)",
            evidence=[evidence],
        )

    def _unanchored(self, scope: str, key: str, value: FactValue) -> Check:
        if not self._search:
            why = "nothing records where it was printed (search: true looks for its written forms)"
        else:
            why = f"{describe_value(value)} has no written form to search for"
        return self.check(
            Status.UNDETERMINED,
            "CLAIM_UNANCHORED",
            scope,
            f"claim {key} = {describe_value(value)} has no anchor: {why}",
            evidence=[{"key": key, "value": value}],
        )


def _span(anchor: Anchor) -> str:
    return f"[{anchor.start}, {anchor.end}]"


def _drift(anchor: Anchor, text: str) -> str:
    if anchor.end > len(text):
        return (
            f"the anchor {_span(anchor)} ({anchor.text!r}) runs past the end of the text "
            f"({len(text)} code points)"
        )
    return (
        f"the text at {_span(anchor)} is {text[anchor.start : anchor.end]!r}, not {anchor.text!r}"
    )
