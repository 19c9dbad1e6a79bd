"""``textcontract mutate`` through typer's CliRunner and as a real subprocess: exit 0, 1, 2."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from textcontract.cli import app
from textcontract.mutate import BUILTIN_OPERATORS, generate_case

from .baselines import DOCUMENTS, ORDERS, REPO, baselines

runner = CliRunner()
CONTRACT = str(ORDERS / "textcontract.yaml")
BASELINE = str(DOCUMENTS / "order-1001.md")
CONTEXT = str(DOCUMENTS / "order-1001.context.json")


def _invoke(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, ["mutate", *args])
    return result.exit_code, result.stdout, result.stderr


def _expected_yaml() -> str:
    table = baselines()[0]
    return generate_case(table.document, table.context, table.contract, "order-1001").to_yaml()


def test_prints_the_case_file_and_names_what_it_skipped_on_stderr() -> None:
    code, out, err = _invoke(BASELINE, "--contract", CONTRACT, "--case-id", "order-1001")
    assert code == 0, err
    assert out == _expected_yaml()
    assert f"context: {CONTEXT} (beside the baseline)" in err
    assert "skipped: no-op-transition: the contract has no rule of type StateChanged" in err
    assert err.rstrip().splitlines()[-1] == (
        "generated 36 variants for case order-1001 with 15 of 22 operators; no variant from: "
        "fact-retype, claim-from-other-snapshot, no-op-transition, restate-source, anchor-edit, "
        "unicode-nfd, smart-quotes"
    )


def test_output_writes_exactly_what_would_be_printed(tmp_path: Path) -> None:
    target = tmp_path / "order-1001.yaml"
    code, out, _ = _invoke(
        BASELINE, "--context", CONTEXT, "-c", CONTRACT, "--case-id", "order-1001", "-o", str(target)
    )
    assert (code, out) == (0, "")
    assert target.read_text(encoding="utf-8") == _expected_yaml()


def test_operators_and_seed() -> None:
    args = [BASELINE, "-c", CONTRACT, "--case-id", "c", "--operators", "refusal, fact-flip"]
    code, out, _ = _invoke(*args)
    assert code == 0
    assert "id: refusal-1" in out
    assert "id: fact-flip-1" in out
    assert "claim-perturb" not in out
    assert out.index("refusal-1") < out.index("fact-flip-1")
    assert _invoke(*args, "--seed", "5")[1] == _invoke(*args, "--seed", "5")[1]
    planted = [
        _invoke(BASELINE, "-c", CONTRACT, "--case-id", "c", "--operators", "forbidden-inject",
                "--seed", str(seed))[1].replace(f"seed {seed}", "seed")
        for seed in range(4)
    ]  # fmt: skip
    assert len(set(planted)) > 1  # the seed moves where the texts are planted


def test_list_prints_one_line_per_operator() -> None:
    code, out, _ = _invoke("--list")
    assert code == 0
    lines = out.splitlines()
    assert [line.split()[0] for line in lines] == [op.name for op in BUILTIN_OPERATORS]
    assert lines[0].split()[1] == "defect"
    assert "RequiredFact, CompareFields, AllowedTransition — " in lines[0]
    assert lines[-1].split()[1] == "preserve"


def test_a_rejected_baseline_exits_1_and_writes_nothing(tmp_path: Path) -> None:
    target = tmp_path / "out.yaml"
    code, out, err = _invoke(
        str(DOCUMENTS / "order-1002.md"), "-c", CONTRACT, "--case-id", "x", "-o", str(target)
    )
    assert (code, out) == (1, "")
    assert "error: the baseline is not accepted under contract 'order-confirmation'" in err
    assert "violated no-refund-promise NO_REFUND_PROMISE surface:body (blocking)" in err
    assert not target.exists()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--operators", "fact-flp"], "unknown operator 'fact-flp' (did you mean 'fact-flip'?)"),
        (["--operators", "fact-flip,,refusal"], "an empty name"),
        (["--case-id", "bad id"], "case id 'bad id' does not match"),
        (["--seed", "-1"], "Invalid value for '--seed'"),
        (["--context", str(ORDERS / "order-1002.md")], "order-1002.md:1:1"),
    ],
)
def test_input_and_usage_errors_exit_2(args: list[str], message: str) -> None:
    base = [BASELINE, "-c", CONTRACT]
    if "--case-id" not in args:
        base += ["--case-id", "c"]
    code, out, err = _invoke(*base, *args)
    assert code == 2
    assert out == ""
    assert message in err


def test_missing_arguments_exit_2(tmp_path: Path) -> None:
    assert "missing BASELINE" in _invoke("--case-id", "c")[2]
    assert "missing --case-id" in _invoke(BASELINE, "-c", CONTRACT)[2]
    assert "--list takes no BASELINE" in _invoke(BASELINE, "--list")[2]
    assert (
        "--output names a folder"
        in _invoke(BASELINE, "-c", CONTRACT, "--case-id", "c", "-o", str(tmp_path))[2]
    )
    for args in (["--case-id", "c"], [BASELINE, "-c", CONTRACT], [BASELINE, "--list"]):
        assert _invoke(*args)[0] == 2


def _subprocess(*args: str, cwd: Path = REPO) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "textcontract", *args],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
        cwd=cwd,
        env={**os.environ, "PYTHONIOENCODING": "utf-8"},
    )


def test_a_real_subprocess_exits_0_1_and_2() -> None:
    done = _subprocess("mutate", BASELINE, "-c", CONTRACT, "--case-id", "order-1001")
    assert done.returncode == 0, done.stderr
    assert done.stdout == _expected_yaml()
    rejected = _subprocess(
        "mutate", str(DOCUMENTS / "order-1002.md"), "-c", CONTRACT, "--case-id", "x"
    )
    assert (rejected.returncode, rejected.stdout) == (1, "")
    unknown = _subprocess(
        "mutate", BASELINE, "-c", CONTRACT, "--case-id", "x", "--operators", "nope"
    )
    assert (unknown.returncode, unknown.stdout) == (2, "")
    assert "unknown operator 'nope'" in unknown.stderr


def test_mutate_then_audit_as_the_readme_shows(tmp_path: Path) -> None:
    corpus = tmp_path / "mutations"
    corpus.mkdir()
    (corpus / "audit.yaml").write_text(f"contract: {CONTRACT}\n", encoding="utf-8")
    made = _subprocess(
        "mutate", BASELINE, "--context", CONTEXT, "--contract", CONTRACT,
        "--case-id", "order-1001", "--output", str(corpus / "order-1001.yaml"),
    )  # fmt: skip
    assert made.returncode == 0, made.stderr
    audited = _subprocess("audit", str(corpus), "--format", "json")
    assert audited.returncode == 0, audited.stderr
    assert '"detected": 33' in audited.stdout
