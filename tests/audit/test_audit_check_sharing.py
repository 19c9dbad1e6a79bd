"""A rule declaring ``reads_surfaces_only`` runs once per distinct set of surfaces it reads
among a case's trials: the same checks, reports and cache as running it on every trial."""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, ClassVar

import pytest
import yaml
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from tests.audit.audit_builders import case_text, preserve, write_corpus
from textcontract.audit import AuditResult, audit_directory, load_corpus, preflight_directory
from textcontract.audit.running import _evaluation as evaluation_module
from textcontract.audit.running._check_sharing import SharedChecks
from textcontract.canonical import canonical_json
from textcontract.engine import evaluate
from textcontract.engine import run_rule as engine_run_rule
from textcontract.formats.json_text import write_pretty
from textcontract.model import Check, Kind, Status, Surface
from textcontract.rules import (
    BUILTIN_TYPES,
    Code,
    Registry,
    RuleType,
    Subject,
    SurfaceRule,
)
from textcontract.rules.forbidden_pattern import ForbiddenPattern

SHARING = {
    "ForbiddenPattern",
    "RequiredPattern",
    "MinimumTokens",
    "TokenRange",
    "LexicalDiversity",
    "LexicalRestatement",
    "LinkDomains",
}

CONTRACT = """\
textcontract: 1
id: sharing
version: 1
rules:
  - {id: status, type: RequiredFact, key: order.status, equals: shipped}
  - {id: claims, type: DeclaredClaimsConsistent, surfaces: [body]}
  - {id: hedges, type: ForbiddenPattern, patterns: ['\\bvery\\b', '\\breally\\b']}
  - id: hedges-named
    type: ForbiddenPattern
    surfaces: [title, body]
    accent_folding: false
    patterns: ['\\bvery\\b', 'order, really']
  - id: required
    type: RequiredPattern
    surfaces: [body]
    match: all
    patterns: [order, 'ship\\w*']
  - {id: floor, type: MinimumTokens, surfaces: [body], minimum: 5, minimum_unique: 3}
  - {id: range, type: TokenRange, surfaces: [title, body], min: 2, max: 12}
  - {id: diversity, type: LexicalDiversity, min: 0.6, min_tokens: 3}
  - {id: restate, type: LexicalRestatement, source: title, target: body}
  - {id: links, type: LinkDomains, allowed: [shop.example]}
  - {id: links-from, type: LinkDomains, surfaces: [body], allowed_from: shop.domain}
  - {id: norepeat, type: NoRepeatedText, surfaces: [body]}
"""

_BODIES = [
    "Your order has shipped today and is on its way.",
    "Your order is very late, really very late. See https://shop.example/t and https://evil.test/x.",
    "order order order order",
    "Line one of the order.\nLine two is really here,\nthird https://Shop.Example/a very",
    "ご注文の商品を発送しました order",
]
_TITLES = [None, "Your order has shipped", "very really shipped", "Order"]
_CONTEXT = {
    "states": {
        "current": {"order.status": "shipped", "order.total": 10, "shop.domain": "shop.example"}
    },
    "history": ["order order order order"],
}

# a document file: title (or none), body (or none: JSON only), front-matter padding, format
_document = st.tuples(
    st.sampled_from(_TITLES),
    st.one_of(st.none(), st.sampled_from(_BODIES)),
    st.integers(min_value=0, max_value=2),
    st.sampled_from(["md", "json"]),
)
_CHANGES: list[dict[str, Any]] = [
    {"claims": {"body": {"order.total": 11}}},
    {"claims": {"body": {"order.total": 10.0}}},
    {"context": {"current": {"order.status": "pending"}}},
    {"context": {"current": {"shop.domain": "evil.test"}}},
    {"context": {"current": {"order.note": "gift"}}},
    {"replace": [{"surface": "body", "find": "order", "with": "ORDER"}]},
    {"replace": [{"surface": "body", "find": "order", "with": "order, really very"}]},
    {},
]
# a trial: one of the changes above, or the document file with that index
_trial = st.one_of(st.sampled_from(range(len(_CHANGES))), st.integers(0, 5).map(lambda n: -n - 1))
_variant = st.tuples(st.lists(_trial, min_size=1, max_size=3), st.booleans())
_case = st.tuples(
    st.integers(0, 5),
    st.sampled_from([_BODIES[0], *_BODIES]),  # the first is a clean baseline: trials are run
    st.lists(_variant, min_size=1, max_size=5),
)


def _document_file(title: str | None, body: str | None, pad: int, form: str) -> tuple[str, str]:
    """A document file's suffix and text (markdown needs a body)."""
    if form == "md" and body is not None:
        head = "---\n" + "# padding\n" * pad
        head += (
            "" if title is None else "surfaces:\n  title:\n    text: " + json.dumps(title) + "\n"
        )
        head += "claims:\n  body:\n    order.total: 10\n---\n"
        return ".md", head + body  # no newline after: the text a JSON file holds
    surfaces: dict[str, Any] = {}
    if title is not None:
        surfaces["title"] = {"text": title}
    if body is not None:
        surfaces["body"] = {"text": body, "claims": {"order.total": 10}}
    if not surfaces:
        surfaces["note"] = {"text": "no title, no body"}
    # its texts on line pad + 6, as a markdown body without a title (there, file lines)
    return ".json", "\n" * (pad + 5) + json.dumps({"surfaces": surfaces}, ensure_ascii=False)


def _write(
    root: Path,
    documents: list[tuple[str | None, str | None, int, str]],
    cases: list[tuple[int, str, list[tuple[list[int], bool]]]],
) -> Path:
    files = {}
    names = []
    for index, spec in enumerate(documents):
        suffix, text = _document_file(*spec)
        files[f"docs/d{index}{suffix}"] = text
        names.append(f"docs/d{index}{suffix}")
    cases_text = {}
    for number, (pad, body, variants) in enumerate(cases):
        suffix, text = _document_file("Your order has shipped", body, pad, "md")
        files[f"docs/base{number}{suffix}"] = text
        rows = []
        for index, (trials, is_preserve) in enumerate(variants):
            changes = [
                _CHANGES[t] if t >= 0 else {"document": names[(-t - 1) % len(names)]}
                for t in trials
            ]
            row: dict[str, Any] = {"id": f"v{index}", "validity": "valid", "provenance": "t"}
            if is_preserve:
                row["relation"] = "preserve"
            else:
                row["relation"] = "violation"
                row["expect"] = [
                    {"rule": "hedges", "code": "FORBIDDEN_PATTERN", "scope": "surface:body"}
                ]
            row["trials"] = changes
            rows.append(row)
        case = {
            "id": f"c{number}",
            "baseline": {"document": f"docs/base{number}{suffix}", "context": _CONTEXT},
            "variants": rows,
        }
        cases_text[f"c{number}.yaml"] = yaml.safe_dump(
            json.loads(json.dumps(case)),
            allow_unicode=True,
            sort_keys=False,  # no aliases
        )
    return write_corpus(root, cases_text, contract=CONTRACT, extra_files=files)


def text_of(result: AuditResult) -> str:
    parts: list[str] = []
    write_pretty(result.streamed_report(), parts.append)
    return "".join(parts)


@contextmanager
def sharing_disabled() -> Iterator[None]:
    """Every built-in rule type without its declaration: each rule runs on every trial."""
    with pytest.MonkeyPatch.context() as patch:
        for rule_type in BUILTIN_TYPES:
            patch.setattr(rule_type, "reads_surfaces_only", False)
        yield


def _folder_bytes(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


def _checks_json(checks: tuple[Check, ...] | list[Check]) -> list[bytes]:
    return [canonical_json(check.to_json()) for check in checks]


def test_the_declaration_is_on_the_surface_rules_alone_and_never_inherited() -> None:
    assert {t.name for t in BUILTIN_TYPES if t.reads_surfaces_only} == SHARING

    class Stricter(ForbiddenPattern):
        """Inherits the evaluation, not the declaration."""

    assert Stricter.reads_surfaces_only is False


@settings(
    max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    documents=st.lists(_document, min_size=1, max_size=6),
    cases=st.lists(_case, min_size=1, max_size=3),
)
@example(  # one text at other lines of a markdown file, and in a JSON one (origins differ)
    documents=[
        ("Your order has shipped", _BODIES[0], 2, "md"),
        ("Your order has shipped", _BODIES[0], 0, "json"),
        (None, _BODIES[3], 1, "md"),
        (None, _BODIES[3], 0, "md"),
        ("Order", None, 0, "json"),
        (None, _BODIES[3], 0, "json"),
    ],
    cases=[
        (0, _BODIES[0], [([-1, -2, 0], True), ([-5, 4], True)]),
        (1, _BODIES[3], [([-3, -4, 2, 3], False), ([6, 5, -3, -6], True)]),
    ],
)
def test_shared_checks_equal_every_rule_run_on_every_trial(
    tmp_path_factory: pytest.TempPathFactory,
    documents: list[tuple[str | None, str | None, int, str]],
    cases: list[tuple[int, str, list[tuple[list[int], bool]]]],
) -> None:
    root = tmp_path_factory.mktemp("sharing")
    corpus = _write(root, documents, cases)
    # check by check, trial after trial: what the engine gives with every rule run
    loaded = load_corpus(corpus)
    evaluated = 0
    for case in loaded.cases:
        memo, shared = evaluation_module.TextMemo(), SharedChecks(loaded.contract.rules)
        for variant in case.variants:
            for trial in loaded.trials(case, variant):
                judged = evaluation_module.check_trial(
                    loaded.contract, trial.document, trial.context, memo, shared
                )
                report = evaluate(loaded.contract, trial.document, trial.context)
                assert _checks_json(judged.checks) == _checks_json(report.checks)
                evaluated += 1
    assert evaluated
    # the report, and with a cache cold, unchanged and after each sharing rule edit
    with sharing_disabled():
        plain = text_of(audit_directory(corpus))
    assert text_of(audit_directory(corpus)) == plain
    contract = root / "contract.yaml"
    for old, new in [
        ("", ""),
        ("", ""),
        ("'order, really'", "'order, really', '\\bshipped\\b'"),
        ("minimum: 5", "minimum: 7"),
    ]:
        contract.write_text(contract.read_text("utf-8").replace(old, new, 1), "utf-8")
        with sharing_disabled():
            expected = text_of(audit_directory(corpus, cache=root / "cache-plain"))
        assert text_of(audit_directory(corpus, cache=root / "cache-shared")) == expected
        assert _folder_bytes(root / "cache-shared") == _folder_bytes(root / "cache-plain")


# --- what runs: rules that do not declare, and the baseline's second check ---------------


class Counted:
    calls: ClassVar[list[str]] = []


class ReadsContext(RuleType, Counted):
    """Reads a fact: declares nothing, so it runs on every trial.

    Violated::

        (never)

    Satisfied::

        {id: reads, type: ReadsContext}
        document: "Any text"
    """

    name = "ReadsContext"
    kind = Kind.INVARIANT
    summary = "satisfied, naming the order note of the context"
    codes: ClassVar[tuple[Code, ...]] = (Code.of("NOTED", "noted", Status.SATISFIED),)
    main_code = "NOTED"

    def evaluate(self, subject: Subject) -> Iterator[Check]:
        Counted.calls.append(self.header.id)
        _, note = subject.context.fact("current", "order.note")
        yield self.check(Status.SATISFIED, "NOTED", "$", f"note {note!r}")


class ReadsBody(SurfaceRule, Counted):
    """Reads its surfaces only, and says so.

    Violated::

        (never)

    Satisfied::

        {id: body, type: ReadsBody}
        document: "Any text"
    """

    name = "ReadsBody"
    kind = Kind.HEURISTIC
    summary = "satisfied, counting the surface's characters"
    codes: ClassVar[tuple[Code, ...]] = (Code.of("COUNTED", "counted", Status.SATISFIED),)
    main_code = "COUNTED"
    reads_surfaces_only = True

    def evaluate_surface(self, subject: Subject, surface: Surface) -> Iterator[Check]:
        del subject
        Counted.calls.append(self.header.id)
        yield self.check(Status.SATISFIED, "COUNTED", f"surface:{surface.name}", "counted")


class ReadsBodyAndMore(ReadsBody):
    """A subclass that does not declare again: it may read more than its base.

    Violated::

        (never)

    Satisfied::

        {id: more, type: ReadsBodyAndMore}
        document: "Any text"
    """

    name = "ReadsBodyAndMore"


PLUGIN_CONTRACT = """\
textcontract: 1
id: plugins
rules:
  - {id: reads, type: ReadsContext}
  - {id: body, type: ReadsBody, surfaces: [body]}
  - {id: more, type: ReadsBodyAndMore, surfaces: [body]}
"""


def _registry(*types: type[RuleType]) -> Registry:
    return Registry([*(("builtin", t) for t in BUILTIN_TYPES), *(("test", t) for t in types)])


def test_a_rule_that_does_not_declare_runs_on_every_trial(tmp_path: Path) -> None:
    notes = "".join(
        preserve(f"p{n}", f"{{context: {{current: {{order.note: n{n}}}}}}}") for n in range(4)
    )
    reword = "{replace: [{find: 'Your order', with: 'The order'}]}"
    corpus = write_corpus(
        tmp_path,
        {"c1.yaml": case_text(notes + preserve("p-reword", reword))},
        contract=PLUGIN_CONTRACT,
    )
    Counted.calls = []
    registry = _registry(ReadsContext, ReadsBody, ReadsBodyAndMore)
    audit_directory(corpus, registry=registry)
    runs = {rule: Counted.calls.count(rule) for rule in ("reads", "body", "more")}
    # the baseline twice (the preflight), then the five trials: four with the baseline's body
    assert runs == {"reads": 2 + 5, "body": 2 + 2, "more": 2 + 5}


class Wobbly(SurfaceRule):
    """Declares that it reads surfaces only, yet flips between satisfied and violated.

    Violated::

        (every other run)

    Satisfied::

        {id: wobbly, type: Wobbly}
        document: "Any text"
    """

    name = "Wobbly"
    kind = Kind.HEURISTIC
    summary = "satisfied, then violated, then satisfied (a rule breaking its declaration)"
    codes: ClassVar[tuple[Code, ...]] = (
        Code.of("WOBBLE", "steady", Status.SATISFIED, Status.VIOLATED),
    )
    main_code = "WOBBLE"
    reads_surfaces_only = True
    runs: ClassVar[Iterator[int]] = itertools.count()

    def evaluate_surface(self, subject: Subject, surface: Surface) -> Iterator[Check]:
        del subject
        status = Status.VIOLATED if next(Wobbly.runs) % 2 else Status.SATISFIED
        yield self.check(status, "WOBBLE", f"surface:{surface.name}", status.value)


def test_the_baselines_second_check_runs_a_declaring_rule_again(tmp_path: Path) -> None:
    contract = "textcontract: 1\nid: w\nrules:\n  - {id: wobbly, type: Wobbly, surfaces: [body]}\n"
    corpus = write_corpus(
        tmp_path,
        {"c1.yaml": case_text(preserve("p1", "{context: {current: {order.note: x}}}"))},
        contract=contract,
    )
    Wobbly.runs = itertools.count()
    preflight = preflight_directory(corpus, registry=_registry(Wobbly))
    (check,) = [c for c in preflight.checks() if c["kind"] == "baseline-deterministic"]
    assert check["outcome"] == "failed"
    assert check["note"] == (
        "check 1 (wobbly WOBBLE at surface:body) was satisfied on the first run and violated "
        "(WOBBLE) on the second"
    )


def test_sharing_runs_each_declaring_rule_once_per_read_surfaces(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The differential tests above would pass if nothing were shared: here it is counted."""
    documents: list[tuple[str | None, str | None, int, str]] = [(None, _BODIES[1], 0, "md")]
    variants = [([0, 2, 4], True), ([5, -1], False), ([4], True)]
    corpus = _write(tmp_path, documents, [(0, _BODIES[0], variants)])
    runs: list[str] = []

    def counting(rule: RuleType, subject: Subject) -> list[Check]:
        runs.append(rule.header.id)
        return engine_run_rule(rule, subject)

    monkeypatch.setattr(evaluation_module, "run_rule", counting)
    audit_directory(corpus)
    # six trials: four with the baseline's surfaces, one reworded, one another document
    counts = {rule: runs.count(rule) for rule in dict.fromkeys(runs)}
    # (and the baseline's two check runs, never shared)
    assert counts["hedges"] == counts["restate"] == counts["links"] == 2 + 3
    assert counts["status"] == counts["links-from"] == counts["norepeat"] == 2 + 6
