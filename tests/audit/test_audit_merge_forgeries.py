"""SPEC §22: ``merge`` trusts no part — a forged part is refused or changes nothing.

The review behind issue 29 edited one field of a shard part at a time (outcome, states,
canary, severity, class, variant id) and merged: 28 of 80 edits gave exit 0/1 and a result
other than the unsharded audit's. Here every field of a case record (:data:`FIELDS`, one
test per field) is forged in a record of each kind, in the parts of two real sharded
audits — the shipped corpus in two shards, the production corpus (a waiver honoured) in
one. Each forgery is refused (exit 4, naming the part and the record), or merges into the
unsharded audit's bytes and exit code, which only a label of an excluded variant may do
(no figure reads it); one that breaks a record's shape is an input error naming the
record's key path (exit 2).

A forger who also sums the part's report up again from the forged records
(:func:`resummarized`) makes the part agree with itself. Then a derived field (outcome,
reason, statuses) is still refused from the trial states, what docs/scale.md says stays
trusted merges, and a label forgery merges — unless ``--corpus`` is given, which refuses
every label forgery, consistent or not.
"""

from __future__ import annotations

import json
import subprocess
import sys
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from tests.audit.audit_builders import REPO, SHIPPED
from tests.audit.merge_forgeries import (
    FIELDS,
    LABELS,
    SHAPE,
    Sharded,
    Target,
    forged_part,
    forgeries,
    resummarized,
    sharded,
    targets,
    trusted,
)
from textcontract.audit.results import RecordError
from textcontract.cli import app
from textcontract.strength import ScoringPolicy

PRODUCTION = REPO / "fixtures" / "production"
REVIEWED = ("outcome", "states", "canary", "severity", "class", "variant")
"""The fields the review forged."""


@pytest.fixture(scope="module")
def runs() -> tuple[Sharded, ...]:
    return (sharded(SHIPPED, 2), sharded(PRODUCTION, 1, as_of=date(2026, 11, 30)))


def _names_the_record(message: str, target: Target, forged: dict[str, Any]) -> bool:
    """The message names the part and the record (as it was, or as forged)."""
    entry = forged["shard"]["cases"][target.case]
    record = entry["variants"][target.variant]
    named = {target.probe, f"{entry['case']}/{record['variant']}"}
    if entry["case"] != target.case_id:  # the case's id is forged: the case is the record
        named |= {f"({entry['case']}", f"case {entry['case']!r}"}
    if not message.startswith(f"merge refuses part-{target.part + 1}.json: "):
        return False
    if any(name in message for name in named):
        return True
    # an excluded variant's family is read by the family counts alone
    return target.excluded and "its families." in message


def test_every_field_and_every_reviewed_field_is_forged() -> None:
    assert set(REVIEWED) <= set(FIELDS)
    assert set(LABELS) | {"outcome", "reason", "statuses", "states", "waivers"} == set(FIELDS)


@pytest.mark.parametrize("field", list(FIELDS))
def test_a_one_field_forgery_is_refused_or_changes_nothing(
    runs: tuple[Sharded, ...], field: str
) -> None:
    made = 0
    for run, target, forged in forgeries(runs, field):
        made += 1
        how, message = run.merged(target.part, forged)
        shown = (field, target.probe, forged["shard"]["cases"][target.case])
        assert how != "different", shown
        if how == "refused":
            assert _names_the_record(message, target, forged), (message, shown)
        elif how == "malformed":
            assert field in SHAPE, (message, shown)
            assert f"part-{target.part + 1}.json" in message, message
            assert target.path in message, message
        else:  # identical: a label no figure reads
            assert target.excluded, shown
            assert field in LABELS, shown
    assert made > 0


@pytest.mark.parametrize("field", LABELS)
def test_with_the_corpus_every_label_forgery_is_refused(
    runs: tuple[Sharded, ...], field: str
) -> None:
    for run, target, forged in forgeries(runs, field):
        how, message = run.merged(target.part, forged, corpus=True)
        assert how in ("refused", "malformed"), (field, target.probe)
        if how == "refused":
            assert _names_the_record(message, target, forged), message


def _consistent(forged: dict[str, Any]) -> dict[str, Any] | None:
    """The forged part summed up again (``None``: the forgery broke a record's shape, or
    made a probe no scorer takes: a canary control)."""
    try:
        return resummarized(forged)
    except (RecordError, ValueError):
        return None


@pytest.mark.parametrize("field", LABELS)
def test_a_consistent_label_forgery_is_refused_with_the_corpus(
    runs: tuple[Sharded, ...], field: str
) -> None:
    merged_without = 0
    for run, target, forged in forgeries(runs, field, each=1):
        consistent = _consistent(forged)
        if consistent is None:
            continue
        how, message = run.merged(target.part, consistent, corpus=True)
        assert how == "refused", (field, target.probe)
        assert _names_the_record(message, target, consistent), message
        without, said = run.merged(target.part, consistent)
        if without == "refused":  # a label no audit writes, or a case in another shard
            assert f"record shard.cases[{target.case}]" in said or "does not belong" in said, said
        else:  # the part agrees with itself: the corpus is what refuses it
            assert str(run.corpus) in message, message
            merged_without += 1
    if field not in ("relation", "case", "expect-"):
        assert merged_without > 0  # the labels are what only the corpus can check


@pytest.mark.parametrize("field", ["outcome", "reason", "statuses"])
def test_a_consistent_forgery_of_a_derived_field_is_refused(
    runs: tuple[Sharded, ...], field: str
) -> None:
    refused = 0
    for run, target, forged in forgeries(runs, field):
        consistent = _consistent(forged)
        assert consistent is not None
        how, message = run.merged(target.part, consistent)
        if trusted(target, field, forged):
            assert how in ("identical", "different"), message
            continue
        assert how == "refused", (field, target.probe, forged["shard"]["cases"][target.case])
        assert message.startswith(f"merge refuses part-{target.part + 1}.json: record "), message
        assert f"{target.path} ({target.probe})" in message, message
        refused += 1
    assert refused > 0


def test_what_stays_trusted_is_the_trial_states(runs: tuple[Sharded, ...]) -> None:
    """A trial state changed with the part summed up again, the outcome unchanged, merges:
    the states are what docs/scale.md says ``merge`` trusts, with ``--corpus`` too."""
    shipped = runs[0]
    sampled = ["caught", "caught", "missed"]
    target = next(t for t in targets(shipped) if t.record.get("states") == sampled)
    forged = forged_part(shipped.parts[target.part], target, "states", ["caught"] * 3)
    consistent = resummarized(forged)
    assert shipped.merged(target.part, forged)[0] == "refused"  # one field: disagrees
    assert shipped.merged(target.part, consistent) == ("different", "")
    assert shipped.merged(target.part, consistent, corpus=True) == ("different", "")


RUN_FORGERIES = [
    ("corpus.digest", "sha256:" + "0" * 64, "its corpus differs"),
    ("policy.catch_threshold", 0.25, "its policy differs"),
    ("shard.rules.3.severity", "critical", "its shard.rules differs"),  # a gap, now at the floor
    ("evaluator_recommendation", "FAIL", "its evaluator_recommendation differs"),
    ("preflight.digest", "sha256:" + "1" * 64, "its preflight differs"),
]


def _set(report: dict[str, Any], path: str, value: object) -> dict[str, Any]:
    copied: dict[str, Any] = json.loads(json.dumps(report))
    *heads, last = path.split(".")
    target: Any = copied
    for head in heads:
        target = target[int(head)] if head.isdigit() else target[head]
    target[int(last) if last.isdigit() else last] = value
    if path.startswith("policy."):
        policy = {key: value for key, value in copied["policy"].items() if key != "digest"}
        copied["policy"] = ScoringPolicy.from_json(policy, "part").report_json()
    return copied


@pytest.mark.parametrize(("path", "value", "message"), RUN_FORGERIES)
def test_a_consistent_forgery_of_the_run_is_refused_with_the_corpus(
    runs: tuple[Sharded, ...], path: str, value: object, message: str
) -> None:
    """The production part (1/1) with one run field forged and its report summed up again:
    it agrees with itself, and only the corpus tells."""
    run = runs[1]
    consistent = resummarized(_set(run.parts[0], path, value))
    assert run.merged(0, consistent)[0] == "different"
    how, said = run.merged(0, consistent, corpus=True)
    assert how == "refused"
    assert said == f"merge refuses part-1.json: {message} from {run.corpus}'s"


# --- the command: exit 4 through CliRunner and as a real subprocess ---------------------


def _write(folder: Path, name: str, report: dict[str, Any]) -> Path:
    path = folder / name
    path.write_text(json.dumps(report, indent=2), encoding="utf-8")
    return path


def _raised_severity(run: Sharded) -> tuple[Target, dict[str, Any]]:
    """The review's verdict-changing edit: one medium severity raised to critical."""
    target = next(
        t for t in targets(run) if t.record.get("outcome") == "undetected"
        and t.record["severity"] == "medium"
    )  # fmt: skip
    return target, forged_part(run.parts[target.part], target, "severity", "critical")


def test_merge_refuses_a_forged_part_as_a_subprocess(
    runs: tuple[Sharded, ...], tmp_path: Path
) -> None:
    run = runs[0]
    target, forged = _raised_severity(run)
    paths = [_write(tmp_path, f"part-{i + 1}.json", p) for i, p in enumerate(run.parts)]
    paths[target.part] = _write(tmp_path, "forged.json", forged)
    output = tmp_path / "merged.json"
    done = subprocess.run(
        [sys.executable, "-m", "textcontract", "merge", *map(str, paths), "--output", str(output)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 4, done.stderr
    assert done.stdout == ""
    assert done.stderr.count("\n") == 1
    assert done.stderr.startswith(f"error: merge refuses {paths[target.part]}: its variants[")
    assert f'({target.probe}): severity is "medium", its records give "critical"' in done.stderr
    assert not output.exists()


def test_merge_with_the_corpus_through_the_cli_runner(
    runs: tuple[Sharded, ...], tmp_path: Path
) -> None:
    run = runs[0]
    paths = [_write(tmp_path, f"part-{i + 1}.json", p) for i, p in enumerate(run.parts)]
    honest = CliRunner().invoke(app, ["merge", *map(str, paths), "--corpus", str(run.corpus)])
    assert (honest.exit_code, honest.stdout) == (run.code, run.full)
    target, forged = _raised_severity(run)
    paths[target.part] = _write(tmp_path, "forged.json", resummarized(forged))
    arguments = ["merge", *map(str, paths)]
    accepted = CliRunner().invoke(app, arguments)
    assert accepted.exit_code in (0, 1)
    assert accepted.stdout != run.full  # without the corpus, labels are trusted
    refused = CliRunner().invoke(app, [*arguments, "--corpus", str(run.corpus)])
    assert refused.exit_code == 4
    assert refused.stdout == ""
    assert refused.stderr == (
        f"error: merge refuses {paths[target.part]}: record {target.path} ({target.probe}): "
        f'its severity is "critical", {run.corpus} gives "medium"\n'
    )
    other = CliRunner().invoke(
        app, ["merge", *map(str, paths), "--corpus", str(REPO / "fixtures" / "generated")]
    )
    assert other.exit_code == 4
    assert "its corpus differs from" in other.stderr
    alone = CliRunner().invoke(app, [*arguments, "--contract", "c.yaml"])
    assert alone.exit_code == 2
    assert alone.stderr == "error: --contract: says how to read --corpus DIR, which is not given\n"


def test_failed_preflight_verdicts_are_checked_against_the_corpus(tmp_path: Path) -> None:
    corpus = REPO / "fixtures" / "preflight" / "mutations"
    paths = []
    for index in (1, 2):
        part = tmp_path / f"pf-{index}.json"
        done = CliRunner().invoke(app, ["audit", str(corpus), "--shard", f"{index}/2",
                                        "--format", "json", "--output", str(part)])  # fmt: skip
        assert done.exit_code == 5
        paths.append(str(part))
    assert CliRunner().invoke(app, ["merge", *paths, "--corpus", str(corpus)]).exit_code == 5
    other = CliRunner().invoke(app, ["merge", *paths, "--corpus", str(SHIPPED)])
    assert other.exit_code == 4
    assert f"its preflight verdict is not {SHIPPED}'s" in other.stderr
