"""The first pass of a cached case planned from its entry's outline (SPEC §13, §17.3):
labels, trial counts and identical flags kept in the ``validated`` entry, the baseline
rebuilt alone, quoted files hashed instead of read.

Differential: on generated corpora — quoted and inline baselines, a shared context file,
documents quoted by changes, identical trials, every validity, canaries, declared
severities, exposures — and generated edits between runs (of the contract, of a case
file's labels, of a quoted file's bytes, of where a reference points), every cached
report equals the plain report of the same inputs apart from its ``cache`` block, the
preflight verdict included; a damaged outline is recomputed, never trusted.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.audit.audit_builders import AUDIT, CONTRACT
from tests.audit.test_audit_cache import counts, text_of, with_cache_block
from textcontract.audit import audit_directory, preflight_directory
from textcontract.audit.reading import CaseReader
from textcontract.audit.running._cache import CacheFolder
from textcontract.audit.running._case_memo import KIND as VALIDATED
from textcontract.audit.running._case_memo import file_sha256, recall_tree
from textcontract.audit.running._case_passes import CaseWork, WorkSetup, _build, _keys_of

BODY = "Your order has shipped today and is on its way to you."
OTHER_BODY = "Your order has shipped today. It is on its way to you now, as promised."
CONTEXT = '{"order.status": "shipped", "order.total": 10}'

_CHANGES = [
    "{replace: [{find: today, with: 'today, money back'}]}",
    "{replace: [{find: today, with: today}]}",  # identical to the baseline
    "{}",  # identical too
    "{claims: {body: {order.total: 11}}}",
    "{claims: {body: {order.total: 10}}}",  # identical: the baseline claims 10
    "{context: {current: {order.status: pending}}}",
    "{document: other.md}",
    "{document: same.md}",  # the baseline's text again, from another file
]
_EXPECT = [
    "{rule: no-refund, code: NO_REFUND_PROMISE, scope: 'surface:body'}",
    "{rule: claims, code: CLAIM_STATE_MISMATCH, scope: 'surface:body'}",
    "{rule: status, code: REQUIRED_FACT, scope: 'state:current:order.status'}",
]

_variant = st.fixed_dictionaries(
    {
        "changes": st.lists(st.sampled_from(_CHANGES), min_size=1, max_size=3),
        "expect": st.sampled_from(_EXPECT),
        "preserve": st.booleans(),
        "validity": st.sampled_from(["valid", "unreviewed", "equivalent"]),
        "canary": st.booleans(),
        "severity": st.sampled_from([None, "low", "critical"]),
        "exposure": st.sampled_from(["known", "held-out"]),
    }
)
_case = st.fixed_dictionaries(
    {
        "variants": st.lists(_variant, min_size=1, max_size=4),
        "quoted": st.booleans(),
        "exposure": st.sampled_from([None, "held-out"]),
        "claims": st.sampled_from([10, 12]),  # 12: the baseline itself is rejected
    }
)
_EDITS = [
    ("contract", "patterns: ['money back']", "patterns: ['money back', 'shipped today']"),
    ("contract", "equals: shipped", "equals: pending"),
    ("contract", "minimum: 5", "minimum: 50"),
    ("contract", "severity: critical", "severity: medium"),
    ("labels", "validity: unreviewed", "validity: equivalent"),
    ("labels", "exposure: known", "exposure: held-out"),
    ("labels", "exposure: held-out", "exposure: known"),
    ("labels", "severity: low", "severity: high"),
    ("file", "base.md", OTHER_BODY),
    ("file", "other.md", BODY),
    ("file", "context.json", '{"order.status": "pending", "order.total": 10}'),
    ("swap", "same.md", "other.md"),
]


def _variant_text(number: int, variant: dict[str, Any]) -> str:
    relation = "preserve" if variant["preserve"] else "violation"
    text = f"  - id: v{number}\n    relation: {relation}\n    validity: {variant['validity']}\n"
    text += f"    provenance: test\n    exposure: {variant['exposure']}\n"
    if variant["canary"] and not variant["preserve"]:
        text += "    canary: true\n"
    if variant["severity"] is not None:
        text += f"    severity: {variant['severity']}\n"
    if not variant["preserve"]:
        text += f"    expect: [{variant['expect']}]\n"
    return text + "    trials:\n" + "".join(f"    - {change}\n" for change in variant["changes"])


def _case_text(case_id: str, case: dict[str, Any]) -> str:
    text = f"id: {case_id}\n"
    if case["exposure"] is not None:
        text += f"exposure: {case['exposure']}\n"
    if case["quoted"]:
        text += "baseline:\n  document: base.md\n  context: context.json\n"
    else:
        text += (
            "baseline:\n  document:\n    surfaces:\n      body:\n"
            f'        text: "{BODY}"\n        claims: {{order.total: {case["claims"]}}}\n'
            f"  context: {CONTEXT}\n"
        )
    variants = "".join(_variant_text(n, v) for n, v in enumerate(case["variants"]))
    return text + "variants:\n" + variants


def _write(folder: Path, cases: list[dict[str, Any]]) -> Path:
    shutil.rmtree(folder, ignore_errors=True)
    corpus = folder / "corpus"
    corpus.mkdir(parents=True)
    (folder / "contract.yaml").write_text(CONTRACT, encoding="utf-8")
    (corpus / "audit.yaml").write_text(AUDIT, encoding="utf-8")
    (corpus / "base.md").write_text(BODY + "\n", encoding="utf-8")
    (corpus / "same.md").write_text(BODY + "\n", encoding="utf-8")
    (corpus / "other.md").write_text(OTHER_BODY + "\n", encoding="utf-8")
    (corpus / "context.json").write_text(CONTEXT, encoding="utf-8")
    for index, case in enumerate(cases):
        (corpus / f"c{index}.yaml").write_text(_case_text(f"c{index}", case), encoding="utf-8")
    return corpus


def _edit(folder: Path, edit: tuple[str, str, str]) -> None:
    kind, old, new = edit
    corpus = folder / "corpus"
    if kind == "contract":
        path = folder / "contract.yaml"
        path.write_text(path.read_text(encoding="utf-8").replace(old, new), encoding="utf-8")
    elif kind == "labels":
        for path in sorted(corpus.glob("c*.yaml"))[:2]:
            path.write_text(path.read_text(encoding="utf-8").replace(old, new, 1), "utf-8")
    elif kind == "file":
        (corpus / old).write_text(new + "\n", encoding="utf-8")
    else:  # every case quoting one file quotes another: same YAML bytes nowhere
        for path in sorted(corpus.glob("c*.yaml")):
            path.write_text(path.read_text(encoding="utf-8").replace(old, new), "utf-8")


def _plain_and_cached(corpus: Path, cache: Path) -> None:
    plain = text_of(audit_directory(corpus))
    for _ in range(2):  # the second run plans every case from its outline
        cached = audit_directory(corpus, cache=cache)
        assert text_of(cached) == with_cache_block(plain, *counts(cached))
    _keys_are_those_of_the_rebuilt_trials(corpus, cache)


def _keys_are_those_of_the_rebuilt_trials(corpus: Path, cache: Path) -> None:
    """The trial keys an entry keeps (taken on the trials of the YAML read) are those of
    the trials rebuilt from its YAML value, as the second pass builds them."""
    setup = WorkSetup(str(corpus), str(corpus), None, False, 0.5, None, cache=str(cache))
    work = CaseWork(setup)
    for path in sorted(corpus.glob("c*.yaml")):
        file = path.name
        content = file_sha256(path)
        assert content is not None
        body = recall_tree(CacheFolder(cache), file, content)
        assert body is not None
        fingerprint = bytes.fromhex(body["fingerprint"])
        case, known = work.from_entry(file, body, content, fingerprint, [])
        assert case is not None
        assert known
        assert body["keys"] == _keys_of(_build(case, []))
        _outlined_case_is_the_read_case(work, file, body, case)


def _outlined_case_is_the_read_case(work: CaseWork, file: str, body: Any, case: Any) -> None:
    """A known case rebuilt with its variants from the entry's outline (only their changes
    read) is the case its whole YAML value gives, variant for variant and trial for trial."""
    problems: list[Any] = []
    reader = work.reader(problems)
    path = Path(work.setup.root, file)
    whole = reader.case_tree(body["tree"][0], None, path, work.display(file))
    assert whole is not None
    assert problems == []
    assert case == whole
    assert _build(case, []) == _build(whole, [])


@settings(
    max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    cases=st.lists(_case, min_size=1, max_size=3),
    edits=st.lists(st.sampled_from(_EDITS), min_size=1, max_size=3),
)
def test_outlined_first_passes_equal_plain_audits_on_generated_corpora_and_edits(
    tmp_path: Path, cases: list[dict[str, Any]], edits: list[tuple[str, str, str]]
) -> None:
    folder = tmp_path / "generated"
    corpus = _write(folder, cases)
    cache = folder / "cache"
    _plain_and_cached(corpus, cache)
    for edit in edits:
        _edit(folder, edit)
        _plain_and_cached(corpus, cache)


def _outlined_corpus(tmp_path: Path) -> Path:
    variants = [
        {"changes": [_CHANGES[0], _CHANGES[2]], "expect": _EXPECT[0], "preserve": False}
        | {"validity": "valid", "canary": False, "severity": None, "exposure": "known"},
        {"changes": [_CHANGES[2]], "expect": _EXPECT[0], "preserve": True}
        | {"validity": "valid", "canary": False, "severity": None, "exposure": "known"},
        {"changes": [_CHANGES[6]], "expect": _EXPECT[0], "preserve": False}
        | {"validity": "unreviewed", "canary": False, "severity": "low", "exposure": "held-out"},
    ]
    case = {"variants": variants, "quoted": True, "exposure": None, "claims": 10}
    return _write(tmp_path / "fixed", [case, case])


def _rewrite_validated(cache: Path, change: Any) -> int:
    """Apply ``change`` to the body of every ``validated`` entry, checksum made to match."""
    folder = CacheFolder(cache)
    changed = 0
    for path in sorted((cache / VALIDATED).rglob("*.json")):
        header = json.loads(path.read_text(encoding="utf-8").split("\n", 1)[0])
        body = folder.read(VALIDATED, header["key"])
        assert body is not None
        change(body)
        folder.write(VALIDATED, header["key"], body)
        changed += 1
    return changed


@pytest.mark.parametrize(
    "change",
    [
        lambda body: body["outline"][1].update(identical=None),  # silent on an eligible one
        lambda body: body["outline"][2].update(relation="sideways"),
        lambda body: body["outline"][0].update(trials=0),
        lambda body: body["outline"].pop(),
        lambda body: body.pop("outline"),
        lambda body: body["files"].pop(),  # a quoted file left out
        lambda body: body["files"][0].__setitem__(2, "0" * 64),
    ],
)
def test_a_damaged_outline_is_recomputed_never_trusted(tmp_path: Path, change: Any) -> None:
    corpus = _outlined_corpus(tmp_path)
    cache = tmp_path / "cache"
    plain = text_of(audit_directory(corpus))
    audit_directory(corpus, cache=cache)
    assert _rewrite_validated(cache, change) == 2
    cached = audit_directory(corpus, cache=cache)
    # the case file is read and validated again, as without a cache
    assert text_of(cached) == with_cache_block(plain, *counts(cached))
    assert _rewrite_validated(cache, lambda _: None) == 2  # and its entry written anew
    assert all(
        len(json.loads(path.read_text(encoding="utf-8").split("\n", 1)[1])["outline"]) == 3
        for path in (cache / VALIDATED).rglob("*.json")
    )


def test_the_preflight_of_an_outlined_corpus_is_the_plain_one(tmp_path: Path) -> None:
    corpus = _outlined_corpus(tmp_path)
    cache = tmp_path / "cache"
    audit_directory(corpus, cache=cache)
    again = audit_directory(corpus, cache=cache)
    plain = preflight_directory(corpus)
    assert again.preflight is not None
    assert again.preflight.digest == audit_directory(corpus).preflight.digest  # type: ignore[union-attr]
    assert plain.passed == again.preflight.passed


def test_a_case_evaluated_again_takes_its_variants_from_the_outline(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """After a contract edit the second pass rebuilds each case with its variants from the
    outline (only their changes read), and the report is still the plain one."""
    corpus = _outlined_corpus(tmp_path)
    cache = tmp_path / "cache"
    audit_directory(corpus, cache=cache)
    contract = corpus.parent / "contract.yaml"
    text = contract.read_text(encoding="utf-8")
    contract.write_text(text.replace("['money back']", "['money back', 'refund']"), "utf-8")
    plain = text_of(audit_directory(corpus))
    calls: list[int] = []
    outlined = CaseReader.outlined_variants

    def spy(self: CaseReader, *args: Any) -> Any:
        found = outlined(self, *args)
        calls.append(len(found))
        return found

    monkeypatch.setattr(CaseReader, "outlined_variants", spy)
    cached = audit_directory(corpus, cache=cache)
    assert text_of(cached) == with_cache_block(plain, *counts(cached))
    hits, misses = counts(cached)
    assert hits > 0
    assert misses > 0
    assert calls == [3, 3]  # both cases, every variant
