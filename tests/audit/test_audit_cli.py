"""``textcontract audit`` through typer's CliRunner (on a local app) and one real subprocess."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from tests.audit.audit_builders import (
    REFUND,
    REWORD,
    SHIPPED,
    case_text,
    preserve,
    violation,
    write_corpus,
)
from textcontract.cli._atomic import OutputFile
from textcontract.cli._audit import register
from textcontract.cli._file_set import FileSet
from textcontract.errors import InputError

runner = CliRunner()


def local_app() -> typer.Typer:
    """The audit command on an app of its own (independent of the main app's wiring)."""
    app = typer.Typer(add_completion=False, pretty_exceptions_enable=False)

    @app.callback()
    def _root() -> None:
        """textcontract (test app)."""

    register(app)
    return app


def invoke(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(local_app(), ["audit", *args])
    return result.exit_code, result.stdout, result.stderr


def test_shipped_corpus_json() -> None:
    code, out, _ = invoke(str(SHIPPED), "--format", "json")
    assert code == 0, out
    report = json.loads(out)
    assert report["audit_version"] == 2
    assert report["contract"]["id"] == "order-confirmation"
    assert str(SHIPPED) not in out
    assert "/work" not in out


def test_shipped_corpus_text() -> None:
    code, out, _ = invoke(str(SHIPPED))
    assert code == 0
    for expected in (
        "detection",
        "18/23",
        "preservation",
        "6/7",
        "canaries",
        "verdict: CONCERNS",
        "oracle-unreached",
        "undetected faults",
        "order-1001/wrong-parcel-link",
        "valid variations not preserved",
        "excluded (in no figure)",
        "invalid-baseline",
    ):
        assert expected in out, expected


@pytest.mark.parametrize("columns", ["40", "80", "132"])
def test_shipped_corpus_text_lines_fit_and_end_without_padding(columns: str) -> None:
    result = runner.invoke(local_app(), ["audit", str(SHIPPED)], env={"COLUMNS": columns})
    lines = result.stdout.splitlines()
    assert result.exit_code == 0
    assert [line for line in lines if line != line.rstrip()] == []
    assert any(line.startswith("strength vector (per class,") for line in lines)  # a title
    reason = lines.index(next(line for line in lines if "- oracle-unreached:" in line))
    words = "an expected check was undetermined, so the probe could not be judged"
    continued = [lines[reason]]
    for line in lines[reason + 1 :]:
        if not line.startswith("    "):
            break
        continued.append(line)
    assert " ".join(line.strip() for line in continued).endswith(words)  # continuations hang
    assert all(len(line) <= max(int(columns), 24) for line in continued)


def test_a_missed_threshold_exits_1() -> None:
    code, _, _ = invoke(str(SHIPPED), "--min-detection", "0.9", "--format", "json")
    assert code == 1
    code, _, _ = invoke(str(SHIPPED), "--min-preservation", "0.95", "--format", "json")
    assert code == 1


def test_a_null_figure_never_meets_a_threshold(tmp_path: Path) -> None:
    corpus = write_corpus(tmp_path, {"c1.yaml": case_text(violation("v1", REFUND))})
    code, out, _ = invoke(str(corpus), "--min-preservation", "0")
    assert code == 1
    assert "not met (null figure: nothing measured)" in " ".join(out.split())


def test_a_fail_verdict_exits_1(tmp_path: Path) -> None:
    nothing = "{replace: [{find: today, with: tomorrow}]}"
    corpus = write_corpus(
        tmp_path, {"c1.yaml": case_text(violation("v1", nothing, extra="  severity: high\n"))}
    )
    code, out, _ = invoke(str(corpus), "--format", "json")
    assert code == 1
    assert json.loads(out)["verdict"]["value"] == "FAIL"


def test_input_errors_exit_2_with_file_and_line_and_write_nothing(tmp_path: Path) -> None:
    corpus = write_corpus(
        tmp_path,
        {
            "c1.yaml": case_text(
                preserve("p1", "{replace: [{find: zzz, with: y}]}") + preserve("p1", REWORD)
            )
        },
    )
    target = tmp_path / "out.json"
    artifacts = tmp_path / "artifacts"
    code, out, err = invoke(
        str(corpus), "--output", str(target), "--artifacts", str(artifacts), "--format", "json"
    )
    assert code == 2
    assert out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 2
    assert lines[0].startswith(f"error: {corpus}/c1.yaml:15:9: variants[1].id: duplicate")
    assert lines[1].startswith(f"error: {corpus}/c1.yaml:14:")
    assert "replace finds nothing" in lines[1]
    assert not target.exists()
    assert not artifacts.exists()


def test_bad_option_values_are_usage_errors() -> None:
    assert invoke(str(SHIPPED), "--min-detection", "1.5")[0] == 2
    assert invoke(str(SHIPPED), "--jobs", "0")[0] == 2


def test_missing_folder_exits_2(tmp_path: Path) -> None:
    code, _, err = invoke(str(tmp_path / "nope"))
    assert code == 2
    assert "the corpus folder does not exist" in err


def test_output_file_artifacts_and_records(tmp_path: Path) -> None:
    corpus = write_corpus(
        tmp_path, {"c1.yaml": case_text(violation("v1", REFUND) + preserve("p1", REWORD))}
    )
    target = tmp_path / "report.json"
    code, out, _ = invoke(
        str(corpus),
        "--format",
        "json",
        "--output",
        str(target),
        "--artifacts",
        str(tmp_path / "art"),
        "--records",
        str(tmp_path / "rec"),
    )
    assert code == 0
    assert out == ""
    report = json.loads(target.read_text(encoding="utf-8"))
    assert [v["variant"] for v in report["variants"]] == ["v1", "p1"]
    artifact = json.loads((tmp_path / "art" / "c1" / "v1.json").read_text(encoding="utf-8"))
    assert artifact["probe"]["probe_id"] == "c1/v1"
    assert (tmp_path / "art" / "c1" / "p1.json").is_file()
    record = json.loads((tmp_path / "rec" / "c1" / "v1" / "trial-0.json").read_text("utf-8"))
    assert record["outcomes"][0]["state"] == "caught"
    assert not list(tmp_path.glob(".report.json.*"))


def test_text_output_to_a_file_has_no_terminal_codes(tmp_path: Path) -> None:
    target = tmp_path / "report.txt"
    code, _, _ = invoke(str(SHIPPED), "--output", str(target))
    assert code == 0
    text = target.read_text(encoding="utf-8")
    assert "\x1b[" not in text
    assert "verdict: CONCERNS" in text


def test_contract_option_and_allow_missing_rules(tmp_path: Path) -> None:
    expect = "{rule: retired, code: X, scope: '$'}"
    corpus = write_corpus(
        tmp_path,
        {"c1.yaml": case_text(violation("v1", REFUND, expect))},
        audit="contract: nowhere.yaml\n",
    )
    contract = str(tmp_path / "contract.yaml")
    code, _, err = invoke(str(corpus), "--contract", contract)
    assert code == 2
    assert "no rule 'retired'" in err
    code, out, _ = invoke(
        str(corpus), "--contract", contract, "--allow-missing-rules", "-f", "json"
    )
    assert json.loads(out)["variants"][0]["reason"] == "not-applicable"


@pytest.mark.parametrize("jobs", ["2"])
def test_real_subprocess_with_jobs(jobs: str) -> None:
    script = (
        "import typer\n"
        "from textcontract.cli._audit import register\n"
        "app = typer.Typer(add_completion=False)\n"
        "@app.callback()\n"
        "def root() -> None: pass\n"
        "register(app)\n"
        "app()\n"
    )
    completed = subprocess.run(
        [sys.executable, "-c", script, "audit", str(SHIPPED), "--format", "json", "--jobs", jobs],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert completed.returncode == 0, completed.stderr
    assert completed.stderr == ""
    in_process = invoke(str(SHIPPED), "--format", "json")[1]
    assert completed.stdout == in_process


# -- artifact and record sets: written whole, swapped into place, never a mix -----------------


def _two_variant_corpus(tmp_path: Path) -> Path:
    return write_corpus(
        tmp_path / "two", {"c1.yaml": case_text(violation("v1", REFUND) + preserve("p1", REWORD))}
    )


def _one_variant_corpus(tmp_path: Path) -> Path:
    return write_corpus(tmp_path / "one", {"c2.yaml": case_text(violation("v9", REFUND), "c2")})


def _files(folder: Path) -> list[str]:
    return sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file())


def _sets(corpus: Path, out: Path, *extra: str) -> tuple[int, str, str]:
    return invoke(
        str(corpus),
        "--format",
        "json",
        "--artifacts",
        str(out / "art"),
        "--records",
        str(out / "rec"),
        *extra,
    )


def test_a_rerun_replaces_each_set_whole(tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    assert _sets(_two_variant_corpus(tmp_path), out)[0] == 0
    assert _files(out / "art") == ["c1/p1.json", "c1/v1.json"]
    assert _sets(_one_variant_corpus(tmp_path), out)[0] == 0
    assert _files(out / "art") == ["c2/v9.json"]  # nothing of the old set is left
    assert _files(out / "rec") == ["c2/v9/trial-0.json"]
    assert sorted(p.name for p in out.iterdir()) == ["art", "rec"]  # no temporary folder


def test_set_files_get_ordinary_modes_and_a_replaced_set_keeps_its_folder_mode(
    tmp_path: Path,
) -> None:
    out = tmp_path / "out"
    out.mkdir()
    old = os.umask(0o022)
    try:
        assert _sets(_two_variant_corpus(tmp_path), out)[0] == 0
        assert stat.S_IMODE((out / "art" / "c1" / "v1.json").stat().st_mode) == 0o644
        assert stat.S_IMODE((out / "art" / "c1").stat().st_mode) == 0o755
        assert stat.S_IMODE((out / "art").stat().st_mode) == 0o755
        (out / "art").chmod(0o750)
        assert _sets(_one_variant_corpus(tmp_path), out)[0] == 0
        assert stat.S_IMODE((out / "art").stat().st_mode) == 0o750
    finally:
        os.umask(old)


def test_a_symlinked_set_folder_stays_a_link(tmp_path: Path) -> None:
    (tmp_path / "real").mkdir()
    link = tmp_path / "art"
    link.symlink_to("real")
    code, _, _ = invoke(str(_two_variant_corpus(tmp_path)), "-f", "json", "--artifacts", str(link))
    assert code == 0
    assert link.is_symlink()
    assert _files(tmp_path / "real") == ["c1/p1.json", "c1/v1.json"]


@pytest.mark.parametrize(
    ("prepare", "message"),
    [
        pytest.param(
            lambda art: (art.mkdir(), (art / "notes.txt").write_text("mine")),
            "it holds 'notes.txt', which is no part of a set of JSON files; the whole folder "
            "is replaced, so name a new or empty folder, or one written before",
            id="foreign-file",
        ),
        pytest.param(lambda art: art.write_text("x"), "it is not a folder", id="a-file"),
        pytest.param(
            lambda art: art,
            "the folder '{parent}' does not exist",
            id="missing-parent",
        ),
    ],
)
def test_an_unusable_set_folder_is_an_input_error_before_anything_runs(
    tmp_path: Path, prepare: Any, message: str
) -> None:
    art = tmp_path / "art"
    if "{parent}" in message:
        art = tmp_path / "missing" / "art"
        message = message.format(parent=art.parent)
    prepare(art)
    before = _files(tmp_path)
    # the corpus does not even exist: the folder is checked first
    code, out, err = invoke(str(tmp_path / "no-corpus"), "--artifacts", str(art))
    assert (code, out, err) == (2, "", f"error: {art}: cannot write the artifact set: {message}\n")
    assert _files(tmp_path) == before


def _file_size_limit(limit: int) -> str:
    return (
        "import resource, signal\n"
        "signal.signal(signal.SIGXFSZ, signal.SIG_IGN)\n"
        f"resource.setrlimit(resource.RLIMIT_FSIZE, ({limit}, {limit}))\n"
    )


def _audit_process(*args: str, preexec: str = "") -> subprocess.CompletedProcess[str]:
    script = f"{preexec}\nfrom textcontract.cli import main\nmain()\n"
    return subprocess.run(
        [sys.executable, "-c", script, "audit", *args],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )


def test_a_write_failure_in_a_set_keeps_the_old_sets_and_report(tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    report = out / "report.json"
    assert _sets(_two_variant_corpus(tmp_path), out, "--output", str(report))[0] == 0
    old = {name: _files(out / name) for name in ("art", "rec")}
    old_report = report.read_text(encoding="utf-8")
    failed = _audit_process(
        str(_one_variant_corpus(tmp_path)),
        "--format",
        "json",
        "--output",
        str(report),
        "--artifacts",
        str(out / "art"),
        "--records",
        str(out / "rec"),
        preexec=_file_size_limit(200),
    )
    assert (failed.returncode, failed.stdout) == (2, "")
    assert failed.stderr == (
        f"error: {out}/art/c2/v9.json: cannot write the artifact set: File too large\n"
    )
    assert {name: _files(out / name) for name in ("art", "rec")} == old
    assert report.read_text(encoding="utf-8") == old_report
    assert sorted(p.name for p in out.iterdir()) == ["art", "rec", "report.json"]


def test_a_failing_report_leaves_the_old_sets(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "out"
    out.mkdir()
    assert _sets(_two_variant_corpus(tmp_path), out)[0] == 0
    old = {name: _files(out / name) for name in ("art", "rec")}

    def disk_full(self: object, text: str) -> None:
        del self, text
        raise InputError.at("cannot write output: No space left on device", "report.json")

    monkeypatch.setattr(OutputFile, "write", disk_full)
    code, _, err = _sets(_one_variant_corpus(tmp_path), out, "--output", str(out / "report.json"))
    assert (code, err) == (2, "error: report.json: cannot write output: No space left on device\n")
    assert {name: _files(out / name) for name in ("art", "rec")} == old
    assert sorted(p.name for p in out.iterdir()) == ["art", "rec"]


def test_an_interrupted_set_leaves_the_old_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "out"
    out.mkdir()
    assert _sets(_two_variant_corpus(tmp_path), out)[0] == 0
    old = _files(out / "art")
    written: list[str] = []

    def interrupted(self: FileSet, relative: str, text: str) -> None:
        written.append(relative)
        if len(written) == 2:
            raise KeyboardInterrupt
        original(self, relative, text)

    original = FileSet.write
    monkeypatch.setattr(FileSet, "write", interrupted)
    code, _, err = _sets(
        write_corpus(
            tmp_path / "new",
            {"c3.yaml": case_text(violation("a", REFUND) + violation("b", REFUND), "c3")},
        ),
        out,
    )
    assert (code, err) == (130, "interrupted\n")
    assert _files(out / "art") == old
    assert sorted(p.name for p in out.iterdir()) == ["art", "rec"]


# -- hostile corpora ------------------------------------------------------------------------


def test_a_dangling_symlink_or_fifo_named_yaml_is_an_input_error(tmp_path: Path) -> None:
    corpus = _two_variant_corpus(tmp_path)
    (corpus / "gone.yaml").symlink_to("nowhere.yaml")
    os.mkfifo(corpus / "sub.yaml")
    (corpus / "folder.yaml").mkdir()  # a folder is only a folder
    code, out, err = invoke(str(corpus), "--format", "json")
    assert (code, out) == (2, "")
    assert err.splitlines() == [
        f"error: {corpus}/gone.yaml: case file is a symbolic link to 'nowhere.yaml', whose "
        "target fails: No such file or directory",
        f"error: {corpus}/sub.yaml: case file is not a regular file (a FIFO, device or socket)",
    ]


def test_a_nul_byte_in_a_path_is_an_input_error_at_its_yaml_location(tmp_path: Path) -> None:
    corpus = write_corpus(
        tmp_path,
        {
            "c1.yaml": 'id: c1\nbaseline:\n  document: "doc\\0.md"\n'
            '  context: "ctx\\0.json"\nvariants: []\n'
        },
        audit='contract: "../contract\\0.yaml"\n',
    )
    code, out, err = invoke(str(corpus), "--format", "json")
    assert (code, out) == (2, "")
    assert err.splitlines() == [
        f"error: {corpus}/audit.yaml:1:11: contract: the path contains a NUL byte",
        f"error: {corpus}/c1.yaml:3:13: baseline.document: the path contains a NUL byte",
        f"error: {corpus}/c1.yaml:4:12: baseline.context: the path contains a NUL byte",
    ]
