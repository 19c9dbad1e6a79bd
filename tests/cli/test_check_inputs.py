"""``check`` over folders, stdin and batches, through CliRunner and as a real process (SPEC §11)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import CliRunner

from textcontract.cli import app
from textcontract.cli._fast import fast_check

runner = CliRunner()
ROOT = Path(__file__).resolve().parents[2]
ORDERS = ROOT / "fixtures" / "orders"
CONTRACT = ["--contract", str(ORDERS / "textcontract.yaml")]


def _process(*arguments: str, stdin: bytes = b"", cwd: Path = ROOT) -> tuple[int, str, str]:
    completed = subprocess.run(
        [sys.executable, "-m", "textcontract", *arguments],
        input=stdin,
        capture_output=True,
        cwd=cwd,
        env={**os.environ, "COLUMNS": "80"},
        check=False,
        timeout=120,
    )
    return completed.returncode, completed.stdout.decode(), completed.stderr.decode()


def _runner(*arguments: str, stdin: bytes = b"", cwd: Path = ROOT) -> tuple[int, str, str]:
    old = Path.cwd()
    os.chdir(cwd)
    try:
        result = runner.invoke(app, list(arguments), input=stdin, env={"COLUMNS": "80"})
    finally:
        os.chdir(old)
    return result.exit_code, result.stdout, result.stderr


ROUTES = [pytest.param(_runner, id="clirunner"), pytest.param(_process, id="process")]
Route = Callable[..., tuple[int, str, str]]


def _copy_orders(target: Path) -> Path:
    shutil.copytree(ORDERS, target)
    (target / "textcontract.yaml").unlink()
    return target


@pytest.mark.parametrize("route", ROUTES)
def test_a_folder_is_checked_in_order_with_paired_contexts(route: Route, tmp_path: Path) -> None:
    docs = _copy_orders(tmp_path / "docs")
    code, out, err = route("check", "docs/", *CONTRACT, "-f", "jsonl", cwd=tmp_path)
    assert (code, err) == (1, "")
    reports = [json.loads(line) for line in out.splitlines()]
    assert [report["source"] for report in reports] == [
        "docs/order-1001.md",
        "docs/order-1002.md",
        "docs/order-1003.json",
    ]
    assert [report["accepted"] for report in reports] == [True, False, False]
    # the paired contexts were used: a run with one empty context rejects order-1001
    empty = tmp_path / "empty.json"
    empty.write_text("{}", encoding="utf-8")
    code, out, _ = route("check", str(docs), *CONTRACT, "-f", "jsonl", "--context", str(empty))
    assert [json.loads(line)["accepted"] for line in out.splitlines()] == [False, False, False]


@pytest.mark.parametrize("route", ROUTES)
def test_standard_input_is_a_markdown_document_named_stdin(route: Route) -> None:
    text = (ORDERS / "order-1001.md").read_bytes()
    context = ["--context", str(ORDERS / "order-1001.context.json")]
    code, out, err = route("check", "-", *context, *CONTRACT, "-f", "json", stdin=text)
    assert (code, err) == (0, "")
    report = json.loads(out)
    assert report["source"] == "<stdin>"
    assert list(report)[3:5] == ["input", "source"]
    code, out, _ = route("check", "-", *context, *CONTRACT, "-q", stdin=text)
    assert out.splitlines()[0] == "<stdin>: ACCEPTED, complete (12 satisfied)"
    as_json = json.dumps({"surfaces": {"body": "Hi."}}).encode()
    code, out, err = route(
        "check", "-", *CONTRACT, "--stdin-format", "json", "-f", "jsonl", stdin=as_json
    )
    assert (code, err) == (1, "")
    assert json.loads(out)["source"] == "<stdin>"


@pytest.mark.parametrize("route", ROUTES)
def test_a_batch_names_each_report_by_its_id(route: Route) -> None:
    batch = str(ROOT / "fixtures" / "batch" / "replies.jsonl")
    code, out, err = route("check", "--batch", batch, *CONTRACT, "-f", "jsonl")
    assert (code, err) == (1, "")
    reports = [json.loads(line) for line in out.splitlines()]
    assert [(r["source"], r["accepted"]) for r in reports] == [
        ("reply-0001", True),
        ("reply-0002", False),
        ("reply-0003", False),
    ]
    lines = (ROOT / "fixtures" / "batch" / "replies.jsonl").read_bytes()
    code, piped, _ = route("check", "--batch", "-", *CONTRACT, "-f", "jsonl", stdin=lines)
    assert piped == out


@pytest.mark.parametrize("route", ROUTES)
def test_exit_codes_0_when_all_are_accepted_1_when_one_is_not(route: Route, tmp_path: Path) -> None:
    docs = _copy_orders(tmp_path / "docs")
    (docs / "order-1002.md").unlink()
    (docs / "order-1003.json").unlink()
    assert route("check", str(docs), *CONTRACT, "-q")[0] == 0
    assert route("check", str(docs), str(ORDERS / "order-1002.md"), *CONTRACT, "-q")[0] == 1


def _many(tmp_path: Path, count: int) -> Path:
    folder = tmp_path / "many"
    folder.mkdir()
    texts = [
        (ORDERS / name).read_text(encoding="utf-8") for name in ("order-1001.md", "order-1002.md")
    ]
    contexts = [(ORDERS / f"order-100{n}.context.json").read_text(encoding="utf-8") for n in (1, 2)]
    for index in range(count):
        (folder / f"{index:03d}.md").write_text(texts[index % 2], encoding="utf-8")
        if index % 3:
            (folder / f"{index:03d}.context.json").write_text(contexts[index % 2], encoding="utf-8")
    return folder


@pytest.mark.parametrize("output_format", ["jsonl", "json", "text", "sarif"])
def test_jobs_2_writes_the_bytes_of_jobs_1(tmp_path: Path, output_format: str) -> None:
    folder = _many(tmp_path, 70)  # above the pool's 32, so workers do part of the work
    one, two = tmp_path / "one.out", tmp_path / "two.out"
    base = ["check", str(folder), *CONTRACT, "-f", output_format]
    assert _process(*base, "-o", str(one))[0] == 1
    assert _process(*base, "--jobs", "2", "-o", str(two))[0] == 1
    assert one.read_bytes() == two.read_bytes()
    if output_format == "jsonl":
        sources = [json.loads(line)["source"] for line in one.read_text().splitlines()]
        assert sources == [f"{folder}/{index:03d}.md" for index in range(70)]


def test_json_streams_the_array_json_dumps_would_write(tmp_path: Path) -> None:
    folder = _many(tmp_path, 5)
    code, out, _ = _process("check", str(folder), *CONTRACT, "-f", "json")
    assert code == 1
    reports = json.loads(out)
    assert out == json.dumps(reports, ensure_ascii=False, indent=2) + "\n"
    assert len(reports) == 5


def test_reports_are_written_one_at_a_time(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    import textcontract.engine._stream as stream
    from textcontract.cli import _output
    from textcontract.inputs import load_input

    folder = _many(tmp_path, 4)
    events: list[str] = []
    load = load_input

    def loading(item: object, default: object) -> object:
        events.append("read")
        return load(item, default)  # type: ignore[arg-type]

    class Sink:
        def write(self, text: str) -> None:
            events.extend("write" for _ in text.splitlines())

        def flush(self) -> None:
            pass

    monkeypatch.setattr(stream, "load_input", loading)
    monkeypatch.setattr(_output, "_Stdout", Sink)
    code = fast_check(["check", str(folder), *CONTRACT, "-f", "jsonl"])
    assert code == 1
    assert events == ["read", "write"] * 4


BAD_INPUTS: dict[str, Callable[[Path], tuple[list[str], bytes, str]]] = {}


def _bad(
    name: str,
) -> Callable[
    [Callable[[Path], tuple[list[str], bytes, str]]], Callable[[Path], tuple[list[str], bytes, str]]
]:
    def register(
        make: Callable[[Path], tuple[list[str], bytes, str]],
    ) -> Callable[[Path], tuple[list[str], bytes, str]]:
        BAD_INPUTS[name] = make
        return make

    return register


@_bad("dangling-link-in-folder")
def _dangling(tmp_path: Path) -> tuple[list[str], bytes, str]:
    docs = _copy_orders(tmp_path / "docs")
    (docs / "gone.md").symlink_to(tmp_path / "nowhere.md")
    return [str(docs)], b"", f"error: {docs}/gone.md: dangling symbolic link"


@_bad("fifo-in-folder")
def _fifo(tmp_path: Path) -> tuple[list[str], bytes, str]:
    docs = _copy_orders(tmp_path / "docs")
    os.mkfifo(docs / "pipe.md")
    return [str(docs)], b"", f"error: {docs}/pipe.md: a named pipe (FIFO): a folder search"


@_bad("symlink-loop")
def _loop(tmp_path: Path) -> tuple[list[str], bytes, str]:
    docs = _copy_orders(tmp_path / "docs")
    (docs / "again").symlink_to(docs, target_is_directory=True)
    return [str(docs)], b"", f"error: {docs}/again: symbolic link loop"


def _batch_file(tmp_path: Path, *lines: str) -> str:
    path = tmp_path / "cases.jsonl"
    path.write_text("".join(lines), encoding="utf-8")
    return str(path)


_GOOD_LINE = '{"id": "a", "document": "Your order #1 shipped."}\n'


@_bad("empty-batch-line")
def _empty_line(tmp_path: Path) -> tuple[list[str], bytes, str]:
    batch = _batch_file(tmp_path, _GOOD_LINE, "\n", '{"id": "b", "document": "x"}\n')
    return ["--batch", batch], b"", f"error: {batch}:2: empty line"


@_bad("batch-line-not-an-object")
def _not_object(tmp_path: Path) -> tuple[list[str], bytes, str]:
    batch = _batch_file(tmp_path, _GOOD_LINE, '["a", "document"]\n')
    return ["--batch", batch], b"", f"error: {batch}:2: a batch line must be a JSON object"


@_bad("duplicate-batch-ids")
def _duplicates(tmp_path: Path) -> tuple[list[str], bytes, str]:
    batch = _batch_file(tmp_path, _GOOD_LINE, '{"id": "b", "document": "x"}\n', _GOOD_LINE)
    return ["--batch", batch], b"", f"error: {batch}:3: id: duplicate id 'a': line 1 has it too"


@_bad("paired-context-invalid-json")
def _bad_pair(tmp_path: Path) -> tuple[list[str], bytes, str]:
    docs = _copy_orders(tmp_path / "docs")
    (docs / "order-1002.context.json").write_text('{"order.id": 1002,\n}', encoding="utf-8")
    return [str(docs)], b"", f"error: {docs}/order-1002.context.json:2:1: invalid JSON"


@_bad("stdin-not-utf8")
def _stdin(tmp_path: Path) -> tuple[list[str], bytes, str]:
    del tmp_path
    return ["-"], b"Hello \xc3\x28 there", "error: <stdin> (byte 6): invalid UTF-8"


@_bad("missing-path")
def _missing(tmp_path: Path) -> tuple[list[str], bytes, str]:
    missing = tmp_path / "nope"
    return [str(missing)], b"", f"error: {missing}: cannot read file: No such file or directory"


@pytest.mark.parametrize("route", ROUTES)
@pytest.mark.parametrize("case", sorted(BAD_INPUTS))
def test_bad_input_is_exit_2_naming_the_file_with_nothing_written(
    route: Route, case: str, tmp_path: Path
) -> None:
    arguments, stdin, message = BAD_INPUTS[case](tmp_path)
    target = tmp_path / "out" / "report.json"
    target.parent.mkdir()
    code, out, err = route("check", *arguments, *CONTRACT, "-o", str(target), stdin=stdin)
    assert code == 2
    assert out == ""
    assert err.startswith(message), err
    assert "Traceback" not in err
    assert list(target.parent.iterdir()) == []


@pytest.mark.parametrize("route", ROUTES)
def test_output_to_a_folder_is_refused_before_anything_runs(route: Route, tmp_path: Path) -> None:
    bad = tmp_path / "bad.md"
    bad.write_text("---\nunclosed\n", encoding="utf-8")  # would be exit 2 too, but later
    code, _, err = route("check", str(bad), *CONTRACT, "-o", "out/", cwd=tmp_path)
    assert code == 2
    assert "'out/' names a folder (it ends with '/')" in err
    assert not (tmp_path / "out").exists()
    code, _, err = route("check", str(bad), *CONTRACT, "-o", str(tmp_path / "no" / "r.json"))
    assert code == 2
    assert f"the folder '{tmp_path}/no' does not exist" in err
    code, _, err = route("check", str(bad), *CONTRACT, "-o", str(tmp_path))
    assert code == 2
    assert "cannot write output: it is a folder" in err


@pytest.mark.parametrize("route", ROUTES)
def test_usage_errors_of_the_new_options(route: Route) -> None:
    document = str(ORDERS / "order-1001.md")
    code, _, err = route("check", document, *CONTRACT, "-v", "-q")
    assert (code, err) == (
        2,
        "error: --verbose and --quiet exclude each other; give one\n",
    )
    code, _, err = route("check", document, "--batch", "x.jsonl", *CONTRACT)
    assert (code, err) == (2, "error: give documents (DOC…) or --batch FILE, not both\n")
    code, _, err = route("check", document, *CONTRACT, "--jobs", "0")
    assert code == 2
    assert "--jobs" in err


def test_help_shows_the_new_options_as_users_write_them() -> None:
    text = runner.invoke(app, ["check", "-h"], env={"COLUMNS": "200"}).stdout
    for row in (
        "[DOC…]",
        "--batch FILE",
        "-j, --jobs N",
        "--stdin-format <plain|markdown|html|json>",
        "-v, --verbose",
        "-q, --quiet",
        "-V, --version",
        "-h, --help",
    ):
        assert row in text, row


@pytest.mark.parametrize(
    "arguments",
    [
        pytest.param(["fixtures/orders/", "-f", "jsonl"], id="folder"),
        pytest.param(["--batch", "fixtures/batch/replies.jsonl", "-f", "json"], id="batch"),
        pytest.param(["fixtures/orders/", "-q"], id="text-quiet"),
        pytest.param(["fixtures/orders/order-1002.md", "-v"], id="text-verbose"),
        pytest.param(["fixtures/orders/", "-f", "junit", "-j", "2"], id="junit-jobs"),
    ],
)
def test_the_fast_path_prints_what_typer_prints(
    arguments: list[str], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(ROOT)
    monkeypatch.setenv("COLUMNS", "80")
    full = ["check", *arguments, *CONTRACT]
    code = fast_check(full)
    fast = capsys.readouterr()
    result = runner.invoke(app, full)
    assert (code, fast.out, fast.err) == (result.exit_code, result.stdout, result.stderr)


def test_a_terminal_gets_rich_output_at_its_width(monkeypatch: pytest.MonkeyPatch) -> None:
    import io

    from rich.console import Console

    from textcontract.cli import _check_run

    out = io.StringIO()
    console = Console(file=out, width=50, force_terminal=True, color_system="standard")
    monkeypatch.setattr(_check_run, "terminal_console", lambda: console)
    # relative names: the lines must not depend on where the project is cloned
    monkeypatch.chdir(ROOT)
    contract = ["--contract", "fixtures/orders/textcontract.yaml"]
    code = fast_check(["check", "fixtures/orders/order-1002.md", *contract])
    assert code == 1
    rendered = out.getvalue()
    assert "\x1b[" in rendered
    assert "REJECTED" in rendered
    assert max(len(line) for line in _strip_styles(rendered).splitlines()) <= 50


def test_a_word_longer_than_the_terminal_is_left_whole(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import io

    from rich.console import Console

    from textcontract.cli import _check_run

    out = io.StringIO()
    console = Console(file=out, width=30, force_terminal=True, color_system="standard")
    monkeypatch.setattr(_check_run, "terminal_console", lambda: console)
    long_name = tmp_path / ("a-very-long-document-name-" * 2 + ".md")
    long_name.write_bytes((ORDERS / "order-1002.md").read_bytes())
    code = fast_check(["check", str(long_name), *CONTRACT])
    assert code == 1
    # a path is never broken inside: it stays one piece a terminal can select and copy
    assert str(long_name) in _strip_styles(out.getvalue()).splitlines()[0]


def _strip_styles(text: str) -> str:
    import re

    return re.sub(r"\x1b\[[0-9;]*m", "", text)


def test_ci_findings_of_a_batch_point_at_the_case_line() -> None:
    batch = "fixtures/batch/replies.jsonl"
    code, out, _ = _process("check", "--batch", batch, *CONTRACT, "-f", "sarif")
    assert code == 1
    results = json.loads(out)["runs"][0]["results"]
    places = {
        (result["ruleId"], result["locations"][0]["physicalLocation"]["region"]["startLine"])
        for result in results
    }
    assert {
        result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for result in results
    } == {batch}
    # reply-0002 is line 2; reply-0003, whose missing subject is an error, line 3
    assert ("no-refund-promise", 2) in places
    assert ("mentions-order-number", 3) in places
    assert all(line in (2, 3) for _, line in places)
    code, out, _ = _process("check", "--batch", batch, *CONTRACT, "-f", "junit")
    assert '<testsuite name="reply-0002"' in out


def test_github_annotations_of_a_batch_and_its_summary(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    summary = tmp_path / "summary.md"
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary))
    monkeypatch.chdir(ROOT)
    batch = "fixtures/batch/replies.jsonl"
    result = runner.invoke(app, ["check", "--batch", batch, *CONTRACT, "-f", "github"])
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert lines[0].startswith(f"::error file={batch},line=2,endLine=2,title=claims-match-order")
    assert all(f"file={batch},line=" in line for line in lines)
    assert "| reply-0002 | **rejected** |" in summary.read_text(encoding="utf-8")


def _batch_lines(count: int, accepted_only: bool = False) -> list[str]:
    """``count`` batch cases built from the replies fixture, each with an id of its own."""
    cases = [
        json.loads(line)
        for line in (ROOT / "fixtures" / "batch" / "replies.jsonl").read_text().splitlines()
    ]
    if accepted_only:
        cases = cases[:1]  # reply-0001 is accepted
    lines = []
    for index in range(count):
        case = dict(cases[index % len(cases)], id=f"case-{index:03d}")
        lines.append(json.dumps(case, ensure_ascii=False))
    return lines


@pytest.mark.parametrize("output_format", ["jsonl", "json"])
@pytest.mark.parametrize("kind", ["batch", "batch-stdin", "files"])
def test_jobs_2_renders_in_workers_the_bytes_of_jobs_1(
    tmp_path: Path, output_format: str, kind: str
) -> None:
    """json and jsonl reports are rendered by whichever process checked them: above the
    pool's 32 inputs the output is still the bytes of one process, in input order."""
    stdin = b""
    if kind == "files":
        folder = _many(tmp_path, 45)
        inputs = [str(path) for path in sorted(folder.glob("*.md"))]
    else:
        batch = tmp_path / "cases.jsonl"
        batch.write_text("\n".join(_batch_lines(45)) + "\n", encoding="utf-8")
        inputs = ["--batch", str(batch)]
        if kind == "batch-stdin":
            inputs, stdin = ["--batch", "-"], batch.read_bytes()
    base = ["check", *inputs, *CONTRACT, "-f", output_format]
    one = _process(*base, "--jobs", "1", stdin=stdin)
    two = _process(*base, "--jobs", "2", stdin=stdin)
    assert one[0] == two[0] == 1
    assert (one[2], two[2]) == ("", "")
    assert one[1] == two[1]
    reports = (
        json.loads(one[1])
        if output_format == "json"
        else [json.loads(line) for line in one[1].splitlines()]
    )
    assert len(reports) == 45
    if kind != "files":
        assert [report["source"] for report in reports] == [f"case-{i:03d}" for i in range(45)]
        assert [report["accepted"] for report in reports[:3]] == [True, False, False]


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_jobs_2_exits_0_when_every_rendered_report_accepts(tmp_path: Path, jobs: str) -> None:
    batch = tmp_path / "cases.jsonl"
    batch.write_text("\n".join(_batch_lines(40, accepted_only=True)) + "\n", encoding="utf-8")
    for output_format in ("jsonl", "json"):
        code, out, err = _process(
            "check", "--batch", str(batch), *CONTRACT, "-f", output_format, "--jobs", jobs
        )
        assert (code, err) == (0, "")
        assert out.count('"accepted":true') + out.count('"accepted": true') == 40


@pytest.mark.parametrize("output_format", ["jsonl", "json"])
def test_jobs_2_stops_on_the_input_errors_of_jobs_1_and_writes_nothing(
    tmp_path: Path, output_format: str
) -> None:
    lines = _batch_lines(45)
    lines[36] = '{"id": "case-036", "document": 7}'
    lines[40] = lines[2]  # a duplicate id
    batch = tmp_path / "cases.jsonl"
    batch.write_text("\n".join(lines) + "\n", encoding="utf-8")
    results = []
    for jobs in ("1", "2"):
        output = tmp_path / f"out-{jobs}.{output_format}"
        base = ["check", "--batch", str(batch), *CONTRACT, "-f", output_format, "-o", str(output)]
        results.append(_process(*base, "--jobs", jobs))
        assert not output.exists()
    assert results[0] == results[1]
    code, out, err = results[0]
    assert (code, out) == (2, "")
    assert "cases.jsonl:37" in err
    assert "cases.jsonl:41" in err
    assert "duplicate id 'case-002': line 3 has it too" in err
    assert err.index("cases.jsonl:37") < err.index("cases.jsonl:41")
