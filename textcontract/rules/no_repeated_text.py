"""NoRepeatedText: a surface must not repeat, word for word, a text from the context's history.

Both sides are compared as sequences of word tokens on the ``text`` profile,
so case, compatibility forms, punctuation, spacing and numbers do not count:
"Thanks!  See you soon." repeats "thanks, see you SOON". A change of word
order or of a single word is enough to pass; near-duplicates are not caught.
A surface without tokens repeats an empty history text (two empty sequences
are equal). No history: satisfied.

Violated::

    {id: fresh-reply, type: NoRepeatedText}
    context: {"states": {}, "history": ["Thanks, we are looking into it."]}
    body: "THANKS — we are looking into it!"

Satisfied::

    {id: fresh-reply, type: NoRepeatedText}
    context: {"states": {}, "history": ["Thanks, we are looking into it."]}
    body: "We found the cause and refunded the charge."
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import ClassVar

from textcontract.model import Check, Kind, Status, Surface
from textcontract.rules._base import SURFACE_MISSING, Code, SegmentingRule, SurfaceRule
from textcontract.rules._params import VIEW_PARAMS, Param
from textcontract.rules._segmenting import SEGMENTING_PARAMS
from textcontract.rules._subject import Subject

__all__ = ["NoRepeatedText"]


class NoRepeatedText(SegmentingRule, SurfaceRule):
    name = "NoRepeatedText"
    kind = Kind.HEURISTIC
    summary = "the surface's word sequence equals none of the context's history texts"
    codes: ClassVar[tuple[Code, ...]] = (
        Code.of(
            "REUSED_TEXT",
            "the surface does not repeat a history text word for word",
            Status.SATISFIED,
            Status.VIOLATED,
        ),
        SURFACE_MISSING,
    )
    main_code = "REUSED_TEXT"
    params: ClassVar[tuple[Param, ...]] = (
        *SurfaceRule.params,
        *SEGMENTING_PARAMS,
        *VIEW_PARAMS,
    )

    def evaluate(self, subject: Subject) -> Iterator[Check]:
        history = subject.history_index(self.segmenter)
        for name, surface in self.surfaces(subject):
            if surface is None:
                yield self.missing_surface(name)
            else:
                yield self._judge(subject, surface, history)

    def evaluate_surface(self, subject: Subject, surface: Surface) -> Iterator[Check]:
        yield self._judge(subject, surface, subject.history_index(self.segmenter))

    def _judge(
        self, subject: Subject, surface: Surface, history: dict[tuple[str, ...], int]
    ) -> Check:
        scope = f"surface:{surface.name}"
        tokens = subject.tokens(surface, self.segmenter, self.view)
        index = history.get(tokens)
        if index is None:
            count = len(subject.context.history)
            message = (
                f"surface {surface.name!r} repeats none of the {count} history text(s)"
                if count
                else "the context has no history to compare against"
            )
            return self.check(Status.SATISFIED, "REUSED_TEXT", scope, message)
        return self.check(
            Status.VIOLATED,
            "REUSED_TEXT",
            scope,
            f"surface {surface.name!r} repeats history text {index} word for word",
            evidence=[{"history_index": index, "tokens": len(tokens)}],
        )
