"""empty-surface: a surface a length rule reads comes out empty.

One variant per MinimumTokens or TokenRange rule (with a ``min``) and surface it reads; the
other surfaces, the claims and the context stay as they are. A TokenRange with only ``max``,
and a MinimumTokens asking for no token, set no floor and are skipped.

Valid by construction: an empty body is the plainest zero-action output — the renderer ran
and said nothing. Where it is not: a surface that may legitimately be empty (an optional
note) should not carry a minimum-length rule.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import ClassVar

from textcontract.mutate._base import (
    Baseline,
    Mutation,
    Operator,
    OperatorClass,
    Proposal,
    with_texts,
)
from textcontract.mutate._choice import Chooser
from textcontract.mutate._lengths import LENGTH_TYPES, length_targets

__all__ = ["EmptySurface"]


class EmptySurface(Operator):
    name = "empty-surface"
    probe_class = OperatorClass.ZERO_ACTION
    targets: ClassVar[tuple[str, ...]] = LENGTH_TYPES
    summary = (
        "a surface a minimum-length rule reads comes out empty: the renderer ran and said nothing"
    )

    def generate(self, baseline: Baseline, chooser: Chooser) -> Iterator[Proposal]:
        del chooser  # nothing to choose
        for target in length_targets(baseline):
            if not isinstance(target, tuple):
                yield target
                continue
            _, surface, expectation = target
            yield Mutation(
                with_texts(baseline.document, {surface.name: ""}),
                baseline.context,
                f"surface {surface.name!r} is empty",
                (expectation,),
            )
