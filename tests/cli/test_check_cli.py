"""``textcontract check`` through typer's CliRunner and as a real subprocess."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from textcontract.cli import app

runner = CliRunner()


def _invoke(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_accepted_document_exits_0(orders: Path) -> None:
    code, out, _ = _invoke(
        "check",
        str(orders / "order-1001.md"),
        "--context",
        str(orders / "order-1001.context.json"),
        "--contract",
        str(orders / "textcontract.yaml"),
        "--format",
        "json",
    )
    assert code == 0, out
    report = json.loads(out)
    assert report["accepted"] is True
    assert report["complete"] is True
    assert report["contract"]["id"] == "order-confirmation"


def test_rejected_document_exits_1_and_text_shows_the_checks(orders: Path) -> None:
    code, out, _ = _invoke(
        "check",
        str(orders / "order-1002.md"),
        "--context",
        str(orders / "order-1002.context.json"),
        "--contract",
        str(orders / "textcontract.yaml"),
    )
    assert code == 1
    assert "NO_REFUND_PROMISE" in out
    assert "CLAIM_STATE_MISMATCH" in out
    assert "rejected" in out


def test_several_documents_json_is_an_array_and_jsonl_one_per_line(orders: Path) -> None:
    docs = [str(orders / "order-1001.md"), str(orders / "order-1003.json")]
    contract = ["--contract", str(orders / "textcontract.yaml")]
    code, out, _ = _invoke("check", *docs, *contract, "--format", "json")
    assert code == 1
    reports = json.loads(out)
    assert isinstance(reports, list)
    assert len(reports) == 2
    code, out, _ = _invoke("check", *docs, *contract, "--format", "jsonl")
    lines = out.splitlines()
    assert len(lines) == 2
    assert [json.loads(line)["input"] for line in lines] == [r["input"] for r in reports]


def test_input_error_in_a_later_document_stops_before_any_output(
    orders: Path, tmp_path: Path
) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"surfaces": {"body": {"text": "x", "claims": {"a": NaN}}}}', encoding="utf-8")
    target = tmp_path / "out.json"
    code, out, err = _invoke(
        "check",
        str(orders / "order-1001.md"),
        str(bad),
        "--contract",
        str(orders / "textcontract.yaml"),
        "--format",
        "json",
        "--output",
        str(target),
    )
    assert code == 2
    assert out == ""
    assert f"{bad}: surfaces.body.claims.a: NaN is not a finite JSON number" in err
    assert not target.exists()


def test_output_is_written_atomically(orders: Path, tmp_path: Path) -> None:
    target = tmp_path / "report.json"
    target.write_text("old", encoding="utf-8")
    code, out, _ = _invoke(
        "check",
        str(orders / "order-1001.md"),
        "--context",
        str(orders / "order-1001.context.json"),
        "--contract",
        str(orders / "textcontract.yaml"),
        "--format",
        "json",
        "--output",
        str(target),
    )
    assert code == 0
    assert out == ""
    assert json.loads(target.read_text(encoding="utf-8"))["accepted"] is True
    assert [p.name for p in tmp_path.iterdir()] == ["report.json"]


def test_contract_is_found_in_a_parent_folder(
    orders: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "textcontract.yaml").write_text(
        "textcontract: 1\nid: found\nrules:\n  - {id: r, type: MinimumTokens, minimum: 1}\n",
        encoding="utf-8",
    )
    nested = tmp_path / "a" / "b"
    nested.mkdir(parents=True)
    monkeypatch.chdir(nested)
    code, out, _ = _invoke("check", str(orders / "order-1001.md"), "--format", "json")
    assert code == 0
    assert json.loads(out)["contract"]["id"] == "found"


def test_no_contract_anywhere_is_a_usage_error(
    orders: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    code, _, err = _invoke("check", str(orders / "order-1001.md"))
    assert code == 2
    assert "no contract given" in err


def test_contract_errors_exit_2_with_positions(orders: Path, tmp_path: Path) -> None:
    contract = tmp_path / "c.yaml"
    contract.write_text(
        "textcontract: 1\nid: x\nrules:\n  - {id: r, type: ForbiddenPatern, patterns: [a]}\n",
        encoding="utf-8",
    )
    code, _, err = _invoke("check", str(orders / "order-1001.md"), "--contract", str(contract))
    assert code == 2
    assert f"{contract}:4:19: rule 'r', field type: unknown rule type 'ForbiddenPatern'" in err
    assert "did you mean 'ForbiddenPattern'?" in err
    assert "Traceback" not in err


def test_unknown_option_is_a_usage_error() -> None:
    code, _, _ = _invoke("check", "--no-such-option")
    assert code == 2


def _subprocess(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    return subprocess.run(
        [sys.executable, "-m", "textcontract", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=env,
        check=False,
    )


def test_exit_codes_through_a_real_process(orders: Path, tmp_path: Path) -> None:
    contract = ["--contract", str(orders / "textcontract.yaml"), "--format", "json"]
    ok = _subprocess(
        "check",
        str(orders / "order-1001.md"),
        "--context",
        str(orders / "order-1001.context.json"),
        *contract,
    )
    assert ok.returncode == 0, ok.stderr
    rejected = _subprocess(
        "check",
        str(orders / "order-1003.json"),
        "--context",
        str(orders / "order-1003.context.json"),
        *contract,
    )
    assert rejected.returncode == 1
    assert json.loads(rejected.stdout)["accepted"] is False
    missing = _subprocess("check", str(tmp_path / "absent.md"), *contract)
    assert missing.returncode == 2
    assert "absent.md: cannot read file" in missing.stderr
    assert "Traceback" not in missing.stderr
    again = _subprocess(
        "check",
        str(orders / "order-1001.md"),
        "--context",
        str(orders / "order-1001.context.json"),
        *contract,
    )
    assert again.stdout == ok.stdout


def test_integers_beyond_the_digit_limit_are_input_errors_not_crashes(
    orders: Path, tmp_path: Path
) -> None:
    contract = tmp_path / "c.yaml"
    contract.write_text(
        "textcontract: 1\nid: x\nversion: '1'\nrules:\n"
        f"  - {{id: r, type: RequiredFact, key: order.id, equals: 0x{'f' * 4000}}}\n",
        encoding="utf-8",
    )
    document = tmp_path / "d.md"
    document.write_text(f"---\nclaims:\n  body: {{order.id: 0x{'f' * 4000}}}\n---\nHi\n", "utf-8")
    for arguments, where in (
        (["check", str(document), "-c", str(orders / "textcontract.yaml"), "-f", "json"], document),
        (["check", str(orders / "order-1001.md"), "-c", str(contract), "-f", "json"], contract),
    ):
        completed = _subprocess(*arguments)
        assert (completed.returncode, completed.stdout) == (2, "")
        [line] = completed.stderr.splitlines()
        assert line.startswith(f"error: {where}:")
        assert "integer of more than 4300 digits is too long to read" in line
