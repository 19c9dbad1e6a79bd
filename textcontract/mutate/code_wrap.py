"""code-wrap: a text the rule forbids, planted as code — in an inline code span, and
separately in a fenced block (SPEC §18).

On Markdown and HTML surfaces only (a plain surface has no code). The text is the rule's
``examples.violated`` (else a literal its pattern matches, as ``forbidden-inject`` builds
it), wrapped in a code span (`` `…` ``, ``<code>…</code>``) and in a fenced block
(```` ``` ````, ``<pre>…</pre>``), each planted as a paragraph of its own.

Whether the variant is a fault depends on what the rule reads, never on what it finds: a
rule that reads code (``read: raw``, the default, or a list naming ``code``) must catch it
(``violation``); a rule that reads prose only must let it pass (``preserve``): quoting a
forbidden command in a code sample is not saying it. An audit of these variants shows
whether a contract is scoped as its authors meant.

Valid by construction: the planted text is the rule's own example of a violation, and the
code around it is the markup's own. Where it is not: a pattern that relies on the text
around it may not match inside a code span; in HTML the text is escaped (``<`` reads
``&lt;`` in the raw text).
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from typing import ClassVar

from textcontract.model import PLAIN, Surface
from textcontract.mutate._base import (
    Baseline,
    Mutation,
    Operator,
    OperatorClass,
    Proposal,
    Skip,
    expected,
    with_texts,
)
from textcontract.mutate._choice import Chooser
from textcontract.mutate._forbidden import FORBIDDING_TYPES, spread_texts
from textcontract.mutate._texts import insertion_points
from textcontract.rules import RuleType

__all__ = ["CodeWrap"]

_BACKTICKS = re.compile(r"`+")


def _fence(text: str) -> str:
    """Backticks one longer than the longest run of them in ``text``."""
    longest = max((len(run) for run in _BACKTICKS.findall(text)), default=0)
    return "`" * (longest + 1)


def code_span(text: str, written: str) -> str:
    if written == "html":
        return f"<code>{html.escape(text, quote=False)}</code>"
    fence = _fence(text)
    padded = f" {text} " if text.startswith("`") or text.endswith("`") else text
    return f"{fence}{padded}{fence}"


def code_block(text: str, written: str) -> str:
    if written == "html":
        return f"<pre>{html.escape(text, quote=False)}</pre>"
    fence = "`" * max(3, len(_fence(text)))
    return f"{fence}\n{text}\n{fence}"


def insert_block(text: str, block: str, chooser: Chooser, *labels: object) -> str:
    """``text`` with ``block`` as a paragraph of its own at a seeded point."""
    point = chooser.pick(insertion_points(text), "insert", *labels)
    body = text.rstrip()
    if point >= len(body):
        return f"{body}\n\n{block}{text[len(body) :]}" if body else block
    return f"{text[:point]}{block}\n\n{text[point:]}"


def reads_code(rule: RuleType) -> bool:
    """Whether the rule reads code: raw text (the default) or a view naming ``code``."""
    return rule.view is None or "code" in rule.view[0]


class CodeWrap(Operator):
    name = "code-wrap"
    probe_class = OperatorClass.DEFECT
    targets: ClassVar[tuple[str, ...]] = FORBIDDING_TYPES
    summary = (
        "a text the rule forbids, planted in an inline code span and in a fenced block on a "
        "Markdown or HTML surface: a violation for a rule that reads code (raw, the "
        "default), preserved for one that reads prose only"
    )

    def generate(self, baseline: Baseline, chooser: Chooser) -> Iterator[Proposal]:
        for entry in baseline.entries(self.targets):
            rule = entry.rule
            surfaces = [s for s in baseline.surfaces_read(rule) if s.format != PLAIN]
            if not surfaces:
                yield Skip(f"{rule.header.id}: no Markdown or HTML surface it reads")
                continue
            spread = spread_texts(entry, surfaces, baseline.context, chooser)
            if isinstance(spread, Skip):
                yield spread
                continue
            for index, item, surface in spread:
                for shape, wrap in (("code span", code_span), ("fenced block", code_block)):
                    yield self._mutation(
                        baseline,
                        rule,
                        surface,
                        wrap(item.text, surface.format),
                        chooser,
                        f"{item.origin} in a {shape}",
                        (index, shape),
                    )

    def _mutation(
        self,
        baseline: Baseline,
        rule: RuleType,
        surface: Surface,
        planted: str,
        chooser: Chooser,
        what: str,
        labels: tuple[object, ...],
    ) -> Mutation:
        text = insert_block(surface.text, planted, chooser, rule.header.id, *labels)
        caught = reads_code(rule)
        return Mutation(
            with_texts(baseline.document, {surface.name: text}),
            baseline.context,
            f"planted on surface {surface.name!r}: {what}"
            + ("" if caught else f" (rule {rule.header.id} reads prose only: preserved)"),
            (expected(rule, rule.main_code, f"surface:{surface.name}"),) if caught else (),
            preserve=not caught,
        )
