"""Small corpora written to a temporary folder, shared by the audit tests (not a test module)."""

from __future__ import annotations

import textwrap
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any, ClassVar

from textcontract.audit import AuditResult, Corpus, load_corpus, run_audit
from textcontract.model import Check, Kind, Status
from textcontract.rules import BUILTIN_TYPES, Code, Registry, RuleType, Subject

REPO = Path(__file__).resolve().parents[2]
SHIPPED = REPO / "fixtures" / "mutations"

CONTRACT = """\
textcontract: 1
id: mini
version: 2
rules:
  - id: status
    type: RequiredFact
    key: order.status
    equals: shipped
    severity: high
  - id: claims
    type: DeclaredClaimsConsistent
    severity: critical
  - id: no-refund
    type: ForbiddenPattern
    code: NO_REFUND_PROMISE
    surfaces: [body]
    patterns: ['money back']
  - id: length
    type: MinimumTokens
    surfaces: [body]
    minimum: 5
    severity: low
"""

AUDIT = "contract: ../contract.yaml\n"

BASELINE_TEXT = "Your order has shipped today and is on its way to you."

CASE_HEAD = """\
id: {case_id}
baseline:
  document:
    surfaces:
      body:
        text: "Your order has shipped today and is on its way to you."
        claims: {{order.total: 10}}
  context: {{order.status: shipped, order.total: 10}}
variants:
"""


def case_text(variants: str, case_id: str = "c1") -> str:
    """A case file with the standard baseline and the given (unindented) variant list."""
    return CASE_HEAD.format(case_id=case_id) + textwrap.indent(textwrap.dedent(variants), "  ")


def violation(
    variant_id: str,
    change: str,
    expect: str = "{rule: no-refund, code: NO_REFUND_PROMISE, scope: 'surface:body'}",
    extra: str = "",
) -> str:
    """One valid violation variant (YAML), ``change`` given as a flow mapping."""
    return (
        f"- id: {variant_id}\n"
        "  relation: violation\n"
        "  validity: valid\n"
        "  provenance: test\n"
        f"{extra}"
        f"  expect: [{expect}]\n"
        f"  change: {change}\n"
    )


def preserve(variant_id: str, change: str, extra: str = "") -> str:
    return (
        f"- id: {variant_id}\n"
        "  relation: preserve\n"
        "  validity: valid\n"
        "  provenance: test\n"
        f"{extra}"
        f"  change: {change}\n"
    )


REFUND = "{replace: [{find: 'on its way', with: 'on its way; money back if late'}]}"
"""A change the no-refund rule catches."""
REWORD = "{replace: [{find: 'Your order', with: 'The order'}]}"
"""A valid variation every rule accepts."""


def write_corpus(
    root: Path,
    cases: Mapping[str, str],
    *,
    audit: str = AUDIT,
    contract: str = CONTRACT,
    extra_files: Mapping[str, str] | None = None,
) -> Path:
    """``root/contract.yaml`` and ``root/corpus/`` holding audit.yaml and the case files."""
    root.mkdir(parents=True, exist_ok=True)
    (root / "contract.yaml").write_text(contract, encoding="utf-8")
    corpus = root / "corpus"
    corpus.mkdir(exist_ok=True)
    (corpus / "audit.yaml").write_text(audit, encoding="utf-8")
    for name, text in cases.items():
        (corpus / name).parent.mkdir(parents=True, exist_ok=True)
        (corpus / name).write_text(text, encoding="utf-8")
    for name, text in (extra_files or {}).items():
        (corpus / name).parent.mkdir(parents=True, exist_ok=True)
        (corpus / name).write_text(text, encoding="utf-8")
    return corpus


def audit_of(
    corpus: Path, *, jobs: int = 1, registry: Registry | None = None, **options: Any
) -> AuditResult:
    loaded: Corpus = load_corpus(corpus, registry=registry, **options)
    return run_audit(loaded, jobs=jobs)


def variant_row(result: AuditResult, variant: str) -> dict[str, Any]:
    for row in result.report["variants"]:
        if row["variant"] == variant:
            found: dict[str, Any] = row
            return found
    raise KeyError(variant)


class Exploding(RuleType):
    """A plugin-like rule type with a bug: it raises when the body says "explode".

    Violated::

        (never: it raises instead)

    Satisfied::

        {id: boom, type: Exploding}
        document: "Any text"
    """

    name = "Exploding"
    kind = Kind.INVARIANT
    summary = "satisfied, except that it raises on the word 'explode' (a broken plugin)"
    codes: ClassVar[tuple[Code, ...]] = (
        Code.of("NO_EXPLOSION", "the body does not explode", Status.SATISFIED, Status.VIOLATED),
    )
    main_code = "NO_EXPLOSION"

    def evaluate(self, subject: Subject) -> Iterator[Check]:
        body = subject.document.surface("body")
        if body is not None and "explode" in body.text:
            raise RuntimeError("the plugin cannot parse this body")
        yield self.check(Status.SATISFIED, "NO_EXPLOSION", "surface:body", "no explosion")


def registry_with_exploding() -> Registry:
    return Registry([*(("builtin", t) for t in BUILTIN_TYPES), ("test plugin", Exploding)])
