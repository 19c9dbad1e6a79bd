"""``audit --cache DIR`` (SPEC §13): same bytes as a cold run, only changed rules re-evaluated,
every damaged or foreign entry recomputed, safe with ``--jobs``."""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.audit.audit_builders import AUDIT, CONTRACT, REPO, case_text, violation
from textcontract.audit import AuditResult, audit_directory
from textcontract.audit.reading import baseline_digest
from textcontract.audit.running._cache import MAX_ENTRY_BYTES, CacheFolder
from textcontract.audit.running._rule_cache import (
    BaselineResults,
    RuleKey,
    TrialDigests,
    _RulePack,
    located_surface_json,
    rule_keys,
)
from textcontract.canonical import digest
from textcontract.contract import parse_contract_text
from textcontract.formats.json_text import write_pretty
from textcontract.model import (
    Check,
    Context,
    Document,
    Enforcement,
    Kind,
    Severity,
    Status,
    TextOrigin,
)

RULES = 8  # the orders contract's rules


def text_of(result: AuditResult) -> str:
    parts: list[str] = []
    write_pretty(result.streamed_report(), parts.append)
    return "".join(parts)


def with_cache_block(plain: str, hits: int, misses: int) -> str:
    """The cold report's bytes with the cache block a cached run adds, last."""
    block = f'  "cache": {{\n    "hits": {hits},\n    "misses": {misses}\n  }}\n}}\n'
    return plain.removesuffix("\n}\n") + ",\n" + block


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    """A copy of the shipped corpus and its contract, free to edit."""
    shutil.copytree(REPO / "fixtures" / "mutations", tmp_path / "mutations")
    shutil.copytree(REPO / "fixtures" / "orders", tmp_path / "orders")
    return tmp_path / "mutations"


def counts(result: AuditResult) -> tuple[int, int]:
    assert result.cache is not None
    return result.cache.hits, result.cache.misses


def test_a_cold_then_warm_run_give_the_bytes_of_an_uncached_run(
    corpus: Path, tmp_path: Path
) -> None:
    plain = text_of(audit_directory(corpus))
    cache = tmp_path / "new" / "cache"  # created when missing, parents too
    cold = audit_directory(corpus, cache=cache)
    hits, misses = counts(cold)
    assert hits == 0
    assert misses > 0
    assert misses % RULES == 0  # every rule on every evaluated baseline and trial
    assert text_of(cold) == with_cache_block(plain, 0, misses)
    warm = audit_directory(corpus, cache=cache)
    assert counts(warm) == (misses, 0)
    assert text_of(warm) == with_cache_block(plain, misses, 0)
    assert "cache" not in json.loads(plain)


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new), encoding="utf-8")


def test_editing_one_rule_re_evaluates_that_rule_alone(corpus: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    _, evaluations = counts(audit_directory(corpus, cache=cache))
    contract = corpus.parent / "orders" / "textcontract.yaml"
    _edit(contract, "minimum: 25", "minimum: 26")
    edited = audit_directory(corpus, cache=cache)
    assert counts(edited) == (evaluations - evaluations // RULES, evaluations // RULES)
    assert text_of(edited) == with_cache_block(text_of(audit_directory(corpus)), *counts(edited))
    # the old revision's results are still there: going back re-evaluates nothing
    _edit(contract, "minimum: 26", "minimum: 25")
    assert counts(audit_directory(corpus, cache=cache)) == (evaluations, 0)


def _files(cache: Path, kind: str) -> dict[str, tuple[bytes, int]]:
    """Each entry of a kind: its bytes and its inode (a replaced file gets a new one)."""
    return {
        str(path.relative_to(cache)): (path.read_bytes(), path.stat().st_ino)
        for path in _entries(cache, kind)
    }


def test_a_one_rule_edit_files_the_baseline_results_with_that_rule(
    corpus: Path, tmp_path: Path
) -> None:
    """The baselines' files are not rewritten for one rule: its results on each baseline
    go into that rule's own files, where the next run finds them."""
    cache = tmp_path / "cache"
    _, evaluations = counts(audit_directory(corpus, cache=cache))
    baselines, rules = _files(cache, "baselines"), _files(cache, "rules")
    assert baselines
    _edit(corpus.parent / "orders" / "textcontract.yaml", "minimum: 25", "minimum: 26")
    edited = audit_directory(corpus, cache=cache)
    assert counts(edited) == (evaluations - evaluations // RULES, evaluations // RULES)
    assert _files(cache, "baselines") == baselines
    created = set(_files(cache, "rules")) - set(rules)
    assert len(created) == len(baselines)  # one file per case: the edited rule's
    for case in cache.glob("cases/*/*.json"):
        case.unlink()  # every case evaluated again, from the rules' files alone
    again = audit_directory(corpus, cache=cache)
    assert counts(again) == (evaluations, 0)
    assert text_of(again) == text_of(edited).replace(
        f'"hits": {counts(edited)[0]},\n    "misses": {counts(edited)[1]}',
        f'"hits": {evaluations},\n    "misses": 0',
    )
    assert _files(cache, "baselines") == baselines


def _satisfied(rule: RuleKey, message: str) -> list[Check]:
    header = rule.rule.header
    return [
        Check(
            header.id,
            header.version,
            header.type,
            header.kind,
            Status.SATISFIED,
            "OK",
            "$",
            Severity.LOW,
            Enforcement.BLOCKING,
            message=message,
        )
    ]


def _first_run(folder: CacheFolder, rules: list[RuleKey], trial: str) -> BaselineResults:
    """A baseline's first check run: each rule looked up, computed when missing."""
    results = BaselineResults(folder, "c1", rules)
    for index, rule in enumerate(rules):
        if results.lookup(trial, index) is None:
            results.add(trial, index, _satisfied(rule, f"computed by {rule.digest}"))
    return results


_T, _U = "sha256:" + "1" * 64, "sha256:" + "2" * 64
"""Two baselines' trial keys."""


def test_a_baseline_file_is_rewritten_once_it_lacks_most_rules(tmp_path: Path) -> None:
    folder = CacheFolder(tmp_path)
    (key,) = rule_keys(parse_contract_text(CONTRACT))[:1]
    rules = [RuleKey(key.rule, digest(f"rule-{n}")) for n in range(4)]
    first = _first_run(folder, rules, _T)
    assert (first.misses, first.save()) == (4, None)  # no file: written whole
    written = _files(tmp_path, "baselines")
    # two of four rules edited: their results are handed on, the file stays
    edited = [*rules[:2], RuleKey(key.rule, digest("rule-4")), RuleKey(key.rule, digest("rule-5"))]
    second = _first_run(folder, edited, _T)
    pending = second.save()
    assert (second.hits, second.misses) == (2, 2)
    assert pending is not None
    assert (pending.trial, pending.computed) == (_T, True)
    assert [index for index, _ in pending.results] == [2, 3]
    assert _files(tmp_path, "baselines") == written
    # a third edit: the file lacks three of four rules now, and is written whole again
    third_rules = [rules[0], *edited[2:], RuleKey(key.rule, digest("rule-6"))]
    third = _first_run(folder, third_rules, _T)
    assert third.misses == 3  # rule-4 and rule-5 were never filed in their own files here
    assert third.save() is None
    assert _files(tmp_path, "baselines") != written
    fourth = _first_run(folder, third_rules, _T)
    assert (fourth.hits, fourth.misses, fourth.save()) == (4, 0, None)
    # another baseline (an edited case) replaces the file, whatever it lacks
    other = _first_run(folder, third_rules, _U)
    assert (other.misses, other.save()) == (4, None)
    assert _first_run(folder, third_rules, _U).hits == 4


def test_a_description_edit_changes_no_rule_digest(corpus: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    _, evaluations = counts(audit_directory(corpus, cache=cache))
    contract = corpus.parent / "orders" / "textcontract.yaml"
    text = contract.read_text(encoding="utf-8")
    contract.write_text(text.replace("description:", "description: edited,", 1), "utf-8")
    assert counts(audit_directory(corpus, cache=cache)) == (evaluations, 0)


def _entries(cache: Path, kind: str) -> list[Path]:
    return sorted(path for path in (cache / kind).rglob("*.json"))


def _damage_all(cache: Path, how: str) -> None:
    for kind in _KINDS:
        files = _entries(cache, kind)
        assert files, kind
        if how == "truncate":
            for file in files:
                file.write_bytes(file.read_bytes()[: len(file.read_bytes()) // 2])
        elif how == "flip":
            for file in files:
                flipped = bytearray(file.read_bytes())
                flipped[-3] ^= 0x01  # inside the body: the checksum no longer holds
                file.write_bytes(bytes(flipped))
        else:  # swap: every entry gets another entry's bytes (a foreign entry)
            contents = [file.read_bytes() for file in files]
            for file, data in zip(files, contents[1:] + contents[:1], strict=True):
                file.write_bytes(data)


@pytest.mark.parametrize("how", ["truncate", "flip", "swap"])
def test_damaged_or_foreign_entries_are_recomputed_never_trusted(
    corpus: Path, tmp_path: Path, how: str
) -> None:
    cache = tmp_path / "cache"
    plain = text_of(audit_directory(corpus))
    _, evaluations = counts(audit_directory(corpus, cache=cache))
    _damage_all(cache, how)
    again = audit_directory(corpus, cache=cache)
    assert counts(again) == (0, evaluations)
    assert text_of(again) == with_cache_block(plain, 0, evaluations)
    assert counts(audit_directory(corpus, cache=cache)) == (evaluations, 0)  # rewritten


def _replace_all(cache: Path, what: str) -> None:
    """Every entry replaced by something that is not a regular file, or is far too large."""
    for kind in _KINDS:
        for file in _entries(cache, kind):
            data = file.read_bytes()
            file.unlink()
            if what == "fifo":
                os.mkfifo(file)
            elif what == "link-to-its-copy":  # the very bytes, through a link: still a miss
                file.with_suffix(".copy").write_bytes(data)
                file.symlink_to(file.with_suffix(".copy").name)
            elif what == "link-to-dev-zero":
                file.symlink_to("/dev/zero")
            elif what == "device":
                os.mknod(file, stat.S_IFCHR | 0o600, os.makedev(1, 5))  # /dev/zero's
            elif what == "folder":
                file.mkdir()
            else:  # over the size cap: a sparse file, never read
                with open(file, "wb") as stream:
                    stream.truncate(MAX_ENTRY_BYTES + 1)


_KINDS = ("validated", "baselines", "rules", "cases", "corpus")


@pytest.mark.parametrize(
    "what", ["fifo", "link-to-dev-zero", "link-to-its-copy", "device", "folder", "oversized"]
)
def test_what_is_not_an_entry_file_is_a_miss_and_replaced_never_a_hang(
    corpus: Path, tmp_path: Path, what: str
) -> None:
    """SPEC §22: every entry of a warm cache swapped for a FIFO (a plain read would wait for
    a writer for ever), a link to /dev/zero (endless), a link to an entry, a device, a folder
    or a 1 GiB + 1 byte file: each is a miss, the audit gives the uncached bytes, and the
    entries it writes replace them — all but folders, which stay (and stay misses)."""
    cache = tmp_path / "cache"
    plain = text_of(audit_directory(corpus))
    _, evaluations = counts(audit_directory(corpus, cache=cache))
    try:
        _replace_all(cache, what)
    except PermissionError:
        pytest.skip(f"cannot make a {what} here")
    again = audit_directory(corpus, cache=cache)
    assert counts(again) == (0, evaluations)
    assert text_of(again) == with_cache_block(plain, 0, evaluations)
    third = counts(audit_directory(corpus, cache=cache))
    assert third == ((0, evaluations) if what == "folder" else (evaluations, 0))


def test_a_fifo_and_a_link_to_dev_zero_in_a_cache_never_stop_the_command(
    corpus: Path, tmp_path: Path
) -> None:
    """Through a real process: FIFOs, links to /dev/zero and folders in the place of
    entries (taken in turn), and the command ends as an uncached run does."""
    cache = tmp_path / "cache"
    command = [sys.executable, "-m", "textcontract", "audit", str(corpus), "-f", "json"]
    plain = subprocess.run(command, capture_output=True, text=True, check=True, timeout=120)
    subprocess.run([*command, "--cache", str(cache)], capture_output=True, check=True, timeout=120)
    files = [file for kind in _KINDS for file in _entries(cache, kind)]
    for index, file in enumerate(files):
        file.unlink()
        [os.mkfifo, lambda path: path.symlink_to("/dev/zero"), Path.mkdir][index % 3](file)
    done = subprocess.run(
        [*command, "--cache", str(cache)], capture_output=True, text=True, check=False, timeout=120
    )
    assert (done.returncode, done.stderr) == (0, "")
    hits, misses = json.loads(done.stdout)["cache"].values()
    assert done.stdout == with_cache_block(plain.stdout, hits, misses)
    assert misses > 0
    assert not any(stat.S_ISFIFO(file.lstat().st_mode) or file.is_symlink() for file in files)


def _forge(cache: Path, kind: str, change: Callable[[dict[str, Any]], None]) -> None:
    """Every entry of ``kind`` with its body changed, under a checksum that holds."""
    folder = CacheFolder(cache)
    for file in _entries(cache, kind):
        header, body = file.read_bytes().split(b"\n", 1)
        value = json.loads(body)
        change(value)
        folder.write(kind, json.loads(header)["key"], value)


def _set(key: str, value: Any) -> Callable[[dict[str, Any]], None]:
    def change(body: dict[str, Any]) -> None:
        body[key] = value

    return change


def _keys_to(value: str) -> Callable[[dict[str, Any]], None]:
    def change(body: dict[str, Any]) -> None:
        body["keys"] = [[value for _ in trials] for trials in body["keys"]]

    return change


@pytest.mark.parametrize(
    ("kind", "field", "forged"),
    [
        ("corpus", "corpus", "x"),
        ("corpus", "fixture", "sha256:" + "A" * 64),
        ("cases", "baseline", "sha256:" + "0" * 63),
        ("baselines", "baseline", "sha256:" + "0" * 64 + "\n"),
        ("validated", "fingerprint", "sha256:" + "F" * 64),
        ("validated", "keys", "x"),
    ],
    ids=lambda value: value if len(value) < 12 else value[:9] + "…",
)
def test_an_entry_whose_digest_is_not_a_digest_is_a_miss(
    corpus: Path, tmp_path: Path, kind: str, field: str, forged: str
) -> None:
    """SPEC §22: a forged entry with a valid checksum cannot put a digest of another form in
    the report (``"corpus_digest": "x"``) or anywhere else: the entry is a miss, the report
    the uncached run's. (A case summary is forged with the corpus entry gone, so that the
    fixture digest is summed from the summaries' baselines.)"""
    cache = tmp_path / "cache"
    plain = text_of(audit_directory(corpus))
    audit_directory(corpus, cache=cache)
    if field == "keys":
        _forge(cache, kind, _keys_to(forged))
    else:
        hexed = forged.removeprefix("sha256:") if field == "fingerprint" else forged
        _forge(cache, kind, _set(field, hexed))
    if kind == "cases":
        shutil.rmtree(cache / "corpus")
    again = audit_directory(corpus, cache=cache)
    assert text_of(again) == with_cache_block(plain, *counts(again))
    assert json.dumps(forged) not in json.dumps(again.report)


def test_a_forged_result_with_a_valid_checksum_but_another_key_is_foreign(
    tmp_path: Path,
) -> None:
    folder = CacheFolder(tmp_path)
    key = folder.key("rules", {"rule": "a", "case": "c"})
    other = folder.key("rules", {"rule": "b", "case": "c"})
    folder.write("rules", key, {"x": 1})
    assert folder.read("rules", key) == {"x": 1}
    Path(folder.path("rules", other)).parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(folder.path("rules", key), folder.path("rules", other))
    assert folder.read("rules", other) is None
    assert folder.read("cases", key) is None  # another kind
    assert folder.read("rules", "0" * 64) is None  # absent


def test_an_edited_document_is_read_and_checked_again(corpus: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    audit_directory(corpus, cache=cache)
    document = next((corpus / "documents").glob("*.md"))
    document.write_text(document.read_text(encoding="utf-8") + "\nP.S. extra words.\n", "utf-8")
    edited = audit_directory(corpus, cache=cache)
    assert counts(edited)[1] > 0
    assert text_of(edited) == with_cache_block(text_of(audit_directory(corpus)), *counts(edited))


def test_a_case_that_became_invalid_is_an_input_error_with_the_cache_too(
    corpus: Path, tmp_path: Path
) -> None:
    cache = tmp_path / "cache"
    audit_directory(corpus, cache=cache)
    case = corpus / "order-1001.yaml"
    _edit(case, "relation: violation", "relation: violaton")
    from textcontract.errors import InputError

    with pytest.raises(InputError, match="violaton"):
        audit_directory(corpus, cache=cache)


def test_a_missing_rule_named_by_a_cached_case_is_still_an_input_error(
    corpus: Path, tmp_path: Path
) -> None:
    cache = tmp_path / "cache"
    audit_directory(corpus, cache=cache)
    contract = corpus.parent / "orders" / "textcontract.yaml"
    _edit(contract, "id: tracking-link", "id: tracking-url")
    from textcontract.errors import InputError

    with pytest.raises(InputError, match="the contract has no rule 'tracking-link'"):
        audit_directory(corpus, cache=cache)
    assert counts(audit_directory(corpus, cache=cache, allow_missing_rules=True))[1] > 0


def test_error_results_are_never_stored() -> None:
    parsed = parse_contract_text(CONTRACT)
    key = rule_keys(parsed)[0]
    assert key.digest is not None
    folder = CacheFolder("/nonexistent-textcontract-cache")
    pack = _RulePack(folder, "c1", key, key.digest)
    header = key.rule.header
    error = Check(
        header.id,
        header.version,
        header.type,
        Kind.INVARIANT,
        Status.ERROR,
        "RULE_ERROR",
        "$",
        Severity.HIGH,
        Enforcement.BLOCKING,
    )
    assert pack.add("sha256:t", [error]) is False
    assert pack.kept == {}


def test_trial_keys_are_digests_of_the_canonical_trial_with_surface_origins() -> None:
    document = Document.from_json(
        {"surfaces": {"zeta": {"text": 'a"\\é', "claims": {"x": 1.0}}, "body": "hi", "a.b": "x"}}
    )
    context = Context.from_json({"states": {"current": {"k": True}}, "history": ["h"]})
    digests = TrialDigests()

    def located(document: Document, context: Context) -> str:
        surfaces = {s.name: located_surface_json(s) for s in document.surfaces}
        return digest({"document": {"surfaces": surfaces}, "context": context.to_json()})

    assert digests.trial(document, context) == located(document, context)
    assert digests.trial(document, Context.empty()) == located(document, Context.empty())
    # a surface's origin is in no digest, but located evidence counts lines from it
    moved = document.with_origins({"body": TextOrigin(7, file_lines=True)})
    assert baseline_digest(moved, context) == baseline_digest(document, context)
    assert TrialDigests().trial(moved, context) == located(moved, context)
    assert TrialDigests().trial(moved, context) != digests.trial(document, context)


def test_an_unusable_cache_folder_is_exit_2(corpus: Path, tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder", encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "textcontract", "audit", str(corpus), "--cache", str(blocker)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 2
    assert "cannot use the cache folder" in done.stderr
    assert str(blocker) in done.stderr


def test_the_command_with_jobs_and_a_cache_writes_the_same_report(
    corpus: Path, tmp_path: Path
) -> None:
    # enough case files for --jobs to start a worker (SPEC: the same bytes whatever --jobs is)
    for index in range(40):
        case = (corpus / "order-2001.yaml").read_text(encoding="utf-8")
        (corpus / f"copy-{index:02d}.yaml").write_text(
            case.replace("id: order-2001", f"id: copy-{index:02d}", 1), encoding="utf-8"
        )
    outputs = []
    for jobs, cache in (("1", None), ("2", "cache"), ("2", "cache"), ("1", "cache")):
        command = [sys.executable, "-m", "textcontract", "audit", str(corpus), "--format", "json"]
        command += ["--jobs", jobs] + ([] if cache is None else ["--cache", str(tmp_path / cache)])
        done = subprocess.run(command, capture_output=True, text=True, check=False)
        assert done.returncode == 0, done.stderr
        outputs.append(done.stdout)
    plain = outputs[0]
    misses = json.loads(outputs[1])["cache"]["misses"]
    assert outputs[1] == with_cache_block(plain, 0, misses)
    assert outputs[2] == with_cache_block(plain, misses, 0)
    assert outputs[3] == outputs[2]


# --- the cache against the plain path, on generated corpora and contract edits -------------

_CHANGES = [
    "{replace: [{find: today, with: 'today, money back'}]}",
    "{replace: [{find: today, with: TODAY}]}",
    "{claims: {body: {order.total: 11}}}",
    "{claims: {body: {order.total: 10.0}}}",
    "{context: {current: {order.status: pending}}}",
    "{replace: [{find: 'is on its way to you', with: 'left'}]}",
    "{}",
]
_EXPECT = [
    "{rule: no-refund, code: NO_REFUND_PROMISE, scope: 'surface:body'}",
    "{rule: claims, code: CLAIM_STATE_MISMATCH, scope: 'surface:body'}",
    "{rule: status, code: REQUIRED_FACT, scope: 'state:current:order.status'}",
    "{rule: length, code: LOW_LEXICAL_CONTENT, scope: 'surface:body'}",
]
_EDITS = [
    ("patterns: ['money back']", "patterns: ['money back', 'refund']"),
    ("minimum: 5", "minimum: 9"),
    ("equals: shipped", "equals: pending"),
    ("severity: critical", "severity: low"),
    ("version: 2", "version: 3"),
    ("", ""),
]

_case = st.lists(
    st.tuples(
        st.sampled_from(_CHANGES),
        st.sampled_from(_EXPECT),
        st.booleans(),
        st.sampled_from(["valid", "unreviewed"]),
    ),
    min_size=1,
    max_size=4,
)


def _write_corpus(folder: Path, cases: list[list[tuple[str, str, bool, str]]]) -> None:
    shutil.rmtree(folder, ignore_errors=True)
    (folder / "corpus").mkdir(parents=True)
    (folder / "contract.yaml").write_text(CONTRACT, encoding="utf-8")
    (folder / "corpus" / "audit.yaml").write_text(AUDIT, encoding="utf-8")
    for index, variants in enumerate(cases):
        text = ""
        for number, (change, expect, preserve, validity) in enumerate(variants):
            if preserve:
                text += (
                    f"- id: v{number}\n  relation: preserve\n  validity: {validity}\n"
                    f"  provenance: test\n  change: {change}\n"
                )
            else:
                text += violation(f"v{number}", change, expect).replace(
                    "validity: valid", f"validity: {validity}"
                )
        case = case_text(text, f"c{index}")
        (folder / "corpus" / f"c{index}.yaml").write_text(case, encoding="utf-8")


@settings(
    max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    cases=st.lists(_case, min_size=1, max_size=4),
    edits=st.lists(st.sampled_from(_EDITS), min_size=1, max_size=3),
)
def test_cached_audits_equal_plain_audits_on_generated_corpora(
    tmp_path: Path, cases: list[list[tuple[str, str, bool, str]]], edits: list[tuple[str, str]]
) -> None:
    folder = tmp_path / "generated"
    _write_corpus(folder, cases)
    cache = folder / "cache"
    contract = folder / "contract.yaml"
    for old, new in [("", ""), *edits]:
        contract.write_text(contract.read_text(encoding="utf-8").replace(old, new), "utf-8")
        plain = text_of(audit_directory(folder / "corpus"))
        cached = audit_directory(folder / "corpus", cache=cache)
        assert text_of(cached) == with_cache_block(plain, *counts(cached))
    # and after a case file is edited (its first variant dropped, or its id changed)
    first = folder / "corpus" / "c0.yaml"
    first.write_text(case_text(violation("w", _CHANGES[0]), "c0-renamed"), encoding="utf-8")
    cached = audit_directory(folder / "corpus", cache=cache)
    assert text_of(cached) == with_cache_block(
        text_of(audit_directory(folder / "corpus")), *counts(cached)
    )
