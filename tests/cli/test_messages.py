"""Clean messages (SPEC §21): no doubled prefixes, no ``<input>:`` on usage errors, a "did
you mean" for every choice option, ``--shard 0/2`` saying that K counts from 1, and a position
for every contract error (an empty contract is ``c.yaml:1:1``)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from textcontract.cli import app
from textcontract.cli._help import choice_message

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
ORDERS = FIXTURES / "orders"

COMMANDS_WITH_FORMAT = [
    "check",
    "audit",
    "merge",
    "preflight",
    "lineage",
    "rules",
    "schema",
    "test",
    "lint",
    "score",
    "aggregate-strength",
    "compare",
]


def _run(*arguments: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, list(arguments))
    return result.exit_code, result.output


@pytest.mark.parametrize("command", COMMANDS_WITH_FORMAT)
def test_every_format_option_answers_with_did_you_mean(command: str) -> None:
    code, output = _run(command, "--format", "jsonn")
    assert code == 2
    assert "'jsonn' is not one of " in output
    assert output.rstrip().endswith("(did you mean 'json'?)")
    assert "Value error" not in output


def test_another_choice_option_answers_with_did_you_mean() -> None:
    code, output = _run("check", "x.md", "--stdin-format", "markdwn")
    assert code == 2
    assert (
        "'markdwn' is not one of plain, markdown, html, json (did you mean 'markdown'?)" in output
    )


def test_a_choice_far_from_every_one_gets_no_guess() -> None:
    assert choice_message("Value error, 'yaml' is not one of 'markdown', 'json'.") == (
        "'yaml' is not one of markdown, json"
    )
    assert choice_message("""Value error, "it's" is not one of 'its', 'a, b'.""") == (
        """"it's" is not one of its, a, b (did you mean 'its'?)"""
    )
    assert choice_message("Path 'x' does not exist.") == "Path 'x' does not exist."


def test_a_bad_format_from_a_real_process() -> None:
    completed = subprocess.run(
        [sys.executable, "-m", "textcontract", "check", "x.md", "-f", "sarf"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert completed.returncode == 2
    assert "(did you mean 'sarif'?)" in completed.stderr


@pytest.mark.parametrize(
    ("shard", "said"),
    [
        ("0/2", "error: --shard: K counts from 1: the shards of 2 are 1/2 to 2/2, got '0/2'"),
        ("3/2", "error: --shard: shard 3/2: K must be between 1 and N (1/2 to 2/2)"),
        ("two", "error: --shard: expected K/N, shard K of N counted from 1 (e.g. 2/4), got 'two'"),
    ],
)
def test_a_bad_shard_is_said_once(shard: str, said: str) -> None:
    assert _run("audit", str(FIXTURES / "mutations"), "--shard", shard, "-f", "json") == (
        2,
        said + "\n",
    )


def test_a_file_that_is_no_part_is_named_without_a_key(tmp_path: Path) -> None:
    part = tmp_path / "part.json"
    part.write_text("{}", encoding="utf-8")
    code, output = _run("merge", str(part))
    assert code == 2
    assert output == f"error: {part}: not an audit report (a part file of `audit --shard K/N`)\n"


@pytest.mark.parametrize(
    ("arguments", "said"),
    [
        (("check",), "error: nothing to check: give documents (DOC…) or --batch FILE\n"),
        (
            ("check", "a.md", "-v", "-q"),
            "error: --verbose and --quiet exclude each other; give one\n",
        ),
    ],
)
def test_usage_errors_name_no_input(arguments: tuple[str, ...], said: str) -> None:
    assert _run(*arguments) == (2, said)


EMPTY = {"empty": "", "blank": "\n\n", "comment": "# a contract, some day\n"}


@pytest.mark.parametrize("text", EMPTY.values(), ids=list(EMPTY))
@pytest.mark.parametrize("command", ["check", "lint", "test"])
def test_an_empty_contract_is_an_error_at_its_first_line(
    tmp_path: Path, command: str, text: str
) -> None:
    contract = tmp_path / "c.yaml"
    contract.write_text(text, encoding="utf-8")
    arguments = (
        ["check", str(ORDERS / "order-1001.md"), "--contract", str(contract)]
        if command == "check"
        else [command, str(contract)]
    )
    code, output = _run(*arguments)
    assert (code, output) == (
        2,
        f"error: {contract}:1:1: the contract is empty: expected a mapping with at least "
        "'textcontract: 1' and 'id'\n",
    )


def test_an_empty_included_pack_is_named_at_its_first_line(tmp_path: Path) -> None:
    (tmp_path / "pack.yaml").write_text("# nothing yet\n", encoding="utf-8")
    contract = tmp_path / "c.yaml"
    contract.write_text("textcontract: 1\nid: c\ninclude: [pack.yaml]\n", encoding="utf-8")
    code, output = _run("lint", str(contract))
    assert code == 2
    assert output.startswith(f"error: {tmp_path / 'pack.yaml'}:1:1: the contract is empty")
