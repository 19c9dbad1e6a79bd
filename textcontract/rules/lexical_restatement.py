"""LexicalRestatement: a target surface must not merely restate a source surface.

On token sets (``text`` profile), ``overlap`` = |S∩T| / |S| and ``novel`` =
|T − S|; the target restates the source iff overlap > ``overlap_threshold``
and novel < ``minimum_novel_tokens`` (ties hold). Sets ignore order and count,
so a reshuffled source is a restatement and a handful of unrelated unique
words defeats the rule: novelty is not meaning. Every check except
SURFACE_MISSING has scope ``surface:<target>``.

Violated::

    {id: summary-adds, type: LexicalRestatement, source: body, target: summary}
    body: "Your order shipped today."   summary: "Order shipped today."

Satisfied::

    {id: summary-adds, type: LexicalRestatement, source: body, target: summary}
    body: "Your order shipped today."
    summary: "It should reach you by Friday; track it with the link below."
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import ClassVar

from textcontract.model import Check, Document, Kind, Status, Surface
from textcontract.rules._base import (
    SURFACE_MISSING,
    UNSUPPORTED_SCRIPT,
    Code,
    Options,
    RuleHeader,
    SegmentingRule,
)
from textcontract.rules._params import INTEGER, NUMBER, SURFACE, VIEW_PARAMS, Param
from textcontract.rules._segmenting import SEGMENTING_PARAMS
from textcontract.rules._subject import Subject

__all__ = ["LexicalRestatement"]

_NOVEL_SHOWN = 10


class LexicalRestatement(SegmentingRule):
    name = "LexicalRestatement"
    kind = Kind.HEURISTIC
    summary = "the target surface adds words of its own instead of restating the source"
    params: ClassVar[tuple[Param, ...]] = (
        Param("source", SURFACE, "the surface that may be restated"),
        Param("target", SURFACE, "the surface that must add something"),
        Param(
            "overlap_threshold",
            NUMBER,
            "share of the source's distinct tokens above which the target overlaps it",
            default=0.7,
            minimum=0,
            maximum=1,
        ),
        Param(
            "minimum_novel_tokens",
            INTEGER,
            "fewest distinct target tokens absent from the source for an overlapping target",
            default=4,
            minimum=0,
        ),
        *SEGMENTING_PARAMS,
        *VIEW_PARAMS,
    )
    codes: ClassVar[tuple[Code, ...]] = (
        Code.of(
            "LEXICAL_RESTATEMENT",
            "the target is not a near-copy of the source's words",
            Status.SATISFIED,
            Status.VIOLATED,
        ),
        Code.of("SOURCE_EMPTY", "the source surface has no word tokens", Status.UNDETERMINED),
        UNSUPPORTED_SCRIPT,
        SURFACE_MISSING,
    )
    main_code = "LEXICAL_RESTATEMENT"
    reads_surfaces_only = True

    def __init__(self, header: RuleHeader, options: Options) -> None:
        super().__init__(header, options)
        self._source = options.text("source")
        self._target = options.text("target")
        self._threshold = options.number("overlap_threshold")
        self._minimum_novel = options.integer("minimum_novel_tokens")
        self._scope = f"surface:{self._target}"

    def surfaces_read(self, document: Document) -> tuple[str, ...] | None:
        del document
        return (self._source, self._target) if type(self).reads_surfaces_only else None

    def evaluate(self, subject: Subject) -> Iterator[Check]:
        source = subject.document.surface(self._source)
        target = subject.document.surface(self._target)
        if source is None or target is None:
            yield from self._missing(source, target)
            return
        refusal = self._unsupported_script(subject, source, target)
        if refusal is not None:
            yield refusal
            return
        source_set = subject.token_set(source, self.segmenter, self.view)
        if not source_set:
            yield self.check(
                Status.UNDETERMINED,
                "SOURCE_EMPTY",
                self._scope,
                f"source surface {self._source!r} has no word tokens to compare against",
                evidence=[{"source": self._source, "target": self._target}],
            )
            return
        target_set = subject.token_set(target, self.segmenter, self.view)
        shared = source_set & target_set
        overlap = len(shared) / len(source_set)
        novel_count = len(target_set - source_set)
        wanted = min(novel_count, _NOVEL_SHOWN)
        novel = self._novel(subject.tokens(target, self.segmenter, self.view), source_set, wanted)
        restated = overlap > self._threshold and novel_count < self._minimum_novel
        if restated:
            message = (
                f"surface {self._target!r} restates {self._source!r}: it reuses "
                f"{overlap:.0%} of the source's distinct words and adds only {novel_count} new "
                f"(at least {self._minimum_novel} needed)"
            )
        else:
            message = (
                f"surface {self._target!r} reuses {overlap:.0%} of the distinct words of "
                f"{self._source!r} and adds {novel_count} new"
            )
        yield self.check(
            Status.VIOLATED if restated else Status.SATISFIED,
            "LEXICAL_RESTATEMENT",
            self._scope,
            message,
            evidence=[
                {
                    "source": self._source,
                    "target": self._target,
                    "shared_tokens": len(shared),
                    "source_unique_tokens": len(source_set),
                    "novel": novel,
                }
            ],
            metrics={"overlap": overlap, "novel_tokens": novel_count},
        )

    @staticmethod
    def _novel(
        target_tokens: tuple[str, ...], source_set: frozenset[str], wanted: int
    ) -> list[str]:
        """The first ``wanted`` distinct target tokens absent from the source, in order.

        Order is of first appearance; the scan stops once it has them (the count of novel
        tokens comes from the token sets).
        """
        if wanted <= 0:
            return []
        novel: dict[str, None] = {}
        for token in target_tokens:
            if token not in source_set and token not in novel:
                novel[token] = None
                if len(novel) == wanted:
                    break
        return list(novel)

    def _missing(self, source: Surface | None, target: Surface | None) -> Iterator[Check]:
        pairs = [(self._source, source)]
        if self._target != self._source:
            pairs.append((self._target, target))
        for name, surface in pairs:
            if surface is None:
                yield self.check(
                    Status.ERROR,
                    SURFACE_MISSING.name,
                    f"surface:{name}",
                    f"the document has no surface {name!r}",
                )

    def _unsupported_script(
        self, subject: Subject, source: Surface, target: Surface
    ) -> Check | None:
        if self.segmenter.every_script:
            return None
        refused = []
        for role, surface in (("source", source), ("target", target)):
            share = subject.unsupported_share(surface, self.view)
            if share is not None:
                refused.append((role, surface.name, share))
            if source.name == target.name:
                break
        if not refused:
            return None
        described = "; ".join(
            f"{role} {name!r}: {share.share:.0%} {', '.join(s for s, _ in share.scripts)}"
            for role, name, share in refused
        )
        return self.check(
            Status.UNDETERMINED,
            UNSUPPORTED_SCRIPT.name,
            self._scope,
            f"letters of scripts written without spaces ({described}); "
            "word tokens cannot be compared",
            evidence=[
                {"role": role, "surface": name, **share.to_evidence()}
                for role, name, share in refused
            ],
        )
