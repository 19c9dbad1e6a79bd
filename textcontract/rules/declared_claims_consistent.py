"""DeclaredClaimsConsistent: every claim a surface declares matches the surface's snapshot.

A claim is a renderer's annotation ("this surface says order.total = 19.99");
it is compared, type-sensitively, with the same key in the snapshot the
surface speaks about (its ``state``, default ``current``), not with any other
snapshot. The rule proves nothing about prose nobody annotated: it cannot tell
whether every sentence carries a claim, or whether a claim captures what its
sentence says.

Violated::

    {id: claims, type: DeclaredClaimsConsistent}
    document: {"surfaces": {"body": {"text": "Total: 29.99", "claims": {"order.total": 29.99}}}}
    context: {"order.total": 19.99}

Satisfied::

    {id: claims, type: DeclaredClaimsConsistent, keys: [order.total]}
    document: {"surfaces": {"body": {"text": "Shipped!", "state": "after",
                                     "claims": {"order.total": 19.99}}}}
    context: {"states": {"current": {"order.total": 5}, "after": {"order.total": 19.99}}}
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, ClassVar

from textcontract.model import Check, Kind, Status, Surface, describe_value, same_value
from textcontract.rules._base import SURFACE_MISSING, Code, Options, RuleHeader, SurfaceRule
from textcontract.rules._params import BOOLEAN, STRING_LIST, SURFACES, Param
from textcontract.rules._subject import Subject

__all__ = ["DeclaredClaimsConsistent"]


class DeclaredClaimsConsistent(SurfaceRule):
    name = "DeclaredClaimsConsistent"
    kind = Kind.INVARIANT
    summary = "each claim a surface declares equals the fact in the surface's own snapshot"
    params: ClassVar[tuple[Param, ...]] = (
        SURFACES,
        Param(
            "keys",
            STRING_LIST,
            "check only the claims with these keys (default: every claim)",
            default=None,
        ),
        Param(
            "require_claims",
            BOOLEAN,
            "a surface without (selected) claims is undetermined; false: satisfied",
            default=True,
        ),
    )
    codes: ClassVar[tuple[Code, ...]] = (
        Code.of(
            "CLAIM_STATE_MISMATCH",
            "a declared claim equals the fact in the surface's snapshot (violated when not)",
            Status.SATISFIED,
            Status.VIOLATED,
        ),
        Code.of(
            "CLAIM_UNAVAILABLE",
            "the claimed key, or the whole snapshot, is missing from the context",
            Status.UNDETERMINED,
        ),
        Code.of(
            "CLAIMS_ABSENT",
            "the surface declares no claims (selected by keys); satisfied when not required",
            Status.UNDETERMINED,
            Status.SATISFIED,
        ),
        SURFACE_MISSING,
    )
    main_code = "CLAIM_STATE_MISMATCH"

    def __init__(self, header: RuleHeader, options: Options) -> None:
        super().__init__(header, options)
        keys = options.strings("keys")
        self._keys = None if keys is None else frozenset(keys)
        self._listed_keys = keys
        self._require = options.boolean("require_claims")

    def evaluate_surface(self, subject: Subject, surface: Surface) -> Iterator[Check]:
        scope = f"surface:{surface.name}"
        claims = surface.claims
        selected = [key for key in claims if self._keys is None or key in self._keys]
        if not selected:
            yield self._absent(surface, scope)
            return
        state = surface.state
        snapshot = subject.context.states.get(state)
        for key in selected:
            declared = claims[key]
            if snapshot is None or key not in snapshot:
                missing = "snapshot" if snapshot is None else "key"
                where = (
                    f"no snapshot {state!r}" if snapshot is None else f"not in snapshot {state!r}"
                )
                yield self.check(
                    Status.UNDETERMINED,
                    "CLAIM_UNAVAILABLE",
                    scope,
                    f"claim {key} = {describe_value(declared)} cannot be checked: "
                    f"{key} is unknown ({where})",
                    evidence=[
                        {"key": key, "state": state, "declared": declared, "missing": missing}
                    ],
                )
                continue
            actual = snapshot[key]
            held = same_value(declared, actual)
            if held:
                message = f"claim {key} = {describe_value(declared)} matches snapshot {state!r}"
            else:
                message = (
                    f"claim {key} = {describe_value(declared)}, but snapshot {state!r} has "
                    f"{describe_value(actual)}"
                )
                if declared == actual:
                    message += " (equal as numbers, but of a different type)"
            yield self.check(
                Status.SATISFIED if held else Status.VIOLATED,
                "CLAIM_STATE_MISMATCH",
                scope,
                message,
                evidence=[{"key": key, "state": state, "declared": declared, "actual": actual}],
            )

    def _absent(self, surface: Surface, scope: str) -> Check:
        evidence: dict[str, Any] = {"state": surface.state, "declared_claims": len(surface.claims)}
        if self._listed_keys is not None:
            evidence["keys"] = list(self._listed_keys)
        if not surface.claims:
            what = f"surface {surface.name!r} declares no claims"
        else:
            count = len(surface.claims)
            what = (
                f"the only claim of {surface.name!r} is not among keys"
                if count == 1
                else f"none of the {count} claims of {surface.name!r} is among keys"
            )
        if self._require:
            return self.check(
                Status.UNDETERMINED,
                "CLAIMS_ABSENT",
                scope,
                f"{what}; nothing can be checked against snapshot {surface.state!r}",
                evidence=[evidence],
            )
        return self.check(
            Status.SATISFIED,
            "CLAIMS_ABSENT",
            scope,
            f"{what} (claims are not required)",
            evidence=[evidence],
        )
