"""MaxExclamations: a surface holds at most ``maximum`` exclamation marks.

Marks are counted on the ``text`` profile, so the fullwidth ``！`` counts as
``!`` (NFKC); ``?!`` counts one. Evidence gives the count; the metric
``exclamations`` holds it too.

Violated::

    {id: calm-tone, type: MaxExclamations, maximum: 1}
    body: "Great news!! Your order has shipped!"

Satisfied::

    {id: calm-tone, type: MaxExclamations, maximum: 1}
    body: "Great news! Your order has shipped."
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import ClassVar

from textcontract.model import Check, Kind, Status, Surface
from textcontract.rules import INTEGER, SURFACE_MISSING, SURFACES, Code, Param, Subject, SurfaceRule
from textcontract.text import Profile

__all__ = ["MaxExclamations"]


class MaxExclamations(SurfaceRule):
    name = "MaxExclamations"
    kind = Kind.HEURISTIC
    summary = "the surface holds at most `maximum` exclamation marks"
    params: ClassVar[tuple[Param, ...]] = (
        SURFACES,
        Param("maximum", INTEGER, "most exclamation marks allowed", default=1, minimum=0),
    )
    codes: ClassVar[tuple[Code, ...]] = (
        Code.of(
            "TOO_MANY_EXCLAMATIONS",
            "the surface has at most `maximum` exclamation marks",
            Status.SATISFIED,
            Status.VIOLATED,
        ),
        SURFACE_MISSING,
    )
    main_code = "TOO_MANY_EXCLAMATIONS"

    def evaluate_surface(self, subject: Subject, surface: Surface) -> Iterator[Check]:
        count = subject.normalized(surface, Profile.TEXT).count("!")
        maximum = self.options.integer("maximum")
        status = Status.VIOLATED if count > maximum else Status.SATISFIED
        yield self.check(
            status,
            "TOO_MANY_EXCLAMATIONS",
            f"surface:{surface.name}",
            f"{count} exclamation mark(s), at most {maximum} allowed",
            evidence=[{"exclamations": count}],
            metrics={"exclamations": count},
        )
