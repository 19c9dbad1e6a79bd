"""Contract lineage (SPEC §17.7): the ``lineage:`` field, and ``textcontract lineage``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from textcontract.cli import app
from textcontract.contract import parse_contract_file, parse_contract_text
from textcontract.errors import ContractError
from textcontract.lineage import Member, check_lineage

runner = CliRunner()

BODY = """\
textcontract: 1
id: orders
version: {version}
rules:
  - {{id: status, type: RequiredFact, key: order.status, equals: shipped}}
"""


def _contract(folder: Path, name: str, version: int, parent: str | None, count: int) -> Path:
    path = folder / name
    parent_text = "null" if parent is None else f'"{parent}"'
    path.write_text(
        BODY.format(version=version)
        + f"lineage: {{parent_digest: {parent_text}, revision_count: {count}}}\n",
        encoding="utf-8",
    )
    return path


def _chain(folder: Path) -> tuple[Path, Path, Path]:
    v1 = _contract(folder, "v1.yaml", 1, None, 0)
    v2 = _contract(folder, "v2.yaml", 2, parse_contract_file(v1).digest, 1)
    v3 = _contract(folder, "v3.yaml", 3, parse_contract_file(v2).digest, 2)
    return v1, v2, v3


def _lineage(*args: str) -> tuple[int, dict[str, Any], str]:
    result = runner.invoke(app, ["lineage", *args])
    out = json.loads(result.stdout) if result.stdout else {}
    return result.exit_code, out, result.stderr


def test_example_11_lineage(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _chain(tmp_path)
    monkeypatch.chdir(tmp_path)
    code, report, _ = _lineage("v1.yaml", "v3.yaml")
    assert code == 1
    assert [(f["code"], f["subject"]) for f in report["findings"]] == [
        ("lineage-parent-absent", "v3.yaml"),
        ("lineage-length-inconsistent", "v3.yaml"),
    ]
    assert report["checks"] == {
        "length_consistent": False,
        "no_repeated_digest": True,
        "no_gap": False,
    }
    assert report["passed"] is False
    code, report, _ = _lineage("v3.yaml", "v1.yaml", "v2.yaml")
    assert (code, report["passed"], report["findings"]) == (0, True, [])
    assert list(report) == ["lineage_version", "members", "checks", "findings", "passed"]
    assert [m["path"] for m in report["members"]] == ["v1.yaml", "v2.yaml", "v3.yaml"]
    assert report["members"][1] == {
        "path": "v2.yaml",
        "digest": parse_contract_file("v2.yaml").digest,
        "parent_digest": parse_contract_file("v1.yaml").digest,
        "revision_count": 1,
    }


def _member(path: str, digest: str, parent: str | None, count: int) -> Member:
    return Member(
        path, "sha256:" + digest * 64, None if parent is None else "sha256:" + parent * 64, count
    )


def _codes(members: list[Member], cap: int | None = None) -> list[tuple[str, str]]:
    report = check_lineage(members, cap)
    return [(f["code"], f["subject"]) for f in report["findings"]]


def test_each_finding_and_the_check_it_sets() -> None:
    root, child = _member("a", "1", None, 0), _member("b", "2", "1", 1)
    assert _codes([root, child]) == []
    duplicate = check_lineage([root, child, _member("b2", "2", "1", 1)])
    assert [f["code"] for f in duplicate["findings"]] == [
        "lineage-duplicate-digest",
        "lineage-length-inconsistent",
    ]
    assert duplicate["checks"]["no_repeated_digest"] is False
    assert _codes([_member("b", "2", "1", 1), _member("c", "3", "2", 2)]) == [
        ("lineage-no-root", "b"),
        ("lineage-parent-absent", "b"),
        ("lineage-length-inconsistent", "c"),
    ]
    assert _codes([root, _member("r", "9", None, 0)]) == [
        ("lineage-multiple-roots", "a"),
        ("lineage-multiple-roots", "r"),
        ("lineage-length-inconsistent", "r"),
    ]
    assert _codes([root, _member("skip", "2", "1", 2), _member("x", "3", "2", 3)]) == [
        ("lineage-revision-not-successor", "skip"),
        ("lineage-length-inconsistent", "x"),
    ]
    fork = check_lineage([root, child, _member("b-alt", "3", "1", 1)])
    assert [(f["code"], f["subject"]) for f in fork["findings"]] == [
        ("lineage-revision-conflict", "b"),
        ("lineage-revision-conflict", "b-alt"),
        ("lineage-length-inconsistent", "b-alt"),
    ]
    assert fork["checks"]["no_gap"] is False


def test_the_remediation_cap_alone_fails_the_chain() -> None:
    chain = [_member("a", "1", None, 0), _member("b", "2", "1", 1), _member("c", "3", "2", 2)]
    report = check_lineage(chain, 1)
    assert [(f["code"], f["subject"]) for f in report["findings"]] == [
        ("lineage-remediation-cap-exceeded", "c")
    ]
    assert all(report["checks"].values())
    assert report["passed"] is False
    assert check_lineage(chain, 2)["passed"] is True


def test_a_member_without_lineage_is_exit_2(tmp_path: Path) -> None:
    v1 = _contract(tmp_path, "v1.yaml", 1, None, 0)
    bare = tmp_path / "bare.yaml"
    bare.write_text(BODY.format(version=5), encoding="utf-8")
    code, out, err = _lineage(str(v1), str(bare))
    assert (code, out) == (2, {})
    assert f"{bare}: lineage: the contract declares no lineage" in err


def test_max_revisions_through_the_cli(tmp_path: Path) -> None:
    v1, v2, v3 = _chain(tmp_path)
    code, report, _ = _lineage(str(v1), str(v2), str(v3), "--max-revisions", "1")
    assert code == 1
    assert report["findings"][0]["code"] == "lineage-remediation-cap-exceeded"


def test_lineage_is_out_of_the_digest_and_read_from_the_top_file_only(tmp_path: Path) -> None:
    plain = parse_contract_text(BODY.format(version=1))
    declared = parse_contract_text(
        BODY.format(version=1) + "lineage: {parent_digest: null, revision_count: 0}\n"
    )
    assert plain.lineage is None
    assert declared.lineage is not None
    assert declared.lineage.revision_count == 0
    assert declared.digest == plain.digest
    (tmp_path / "pack.yaml").write_text(
        "textcontract: 1\nid: pack\nlineage: {parent_digest: null, revision_count: 7}\n"
        "rules:\n  - {id: other, type: RequiredFact, key: a}\n",
        encoding="utf-8",
    )
    top = tmp_path / "top.yaml"
    top.write_text(BODY.format(version=1) + "include: [pack.yaml]\n", encoding="utf-8")
    assert parse_contract_file(top).lineage is None


@pytest.mark.parametrize(
    ("lineage", "message"),
    [
        (
            "{parent_digest: null, revision_count: 2}",
            "revision_count 0 goes with parent_digest null",
        ),
        ('{parent_digest: "sha256:' + "a" * 64 + '", revision_count: 0}', "revision_count 0 goes"),
        ("{parent_digest: abc, revision_count: 1}", "'abc' is not a contract digest"),
        ("{revision_count: 1}", "missing required key 'parent_digest'"),
        ("{parent_digest: null, revision_count: -1}", "must be at least 0"),
        ("{parent_digest: null, revision_count: 0, note: x}", "unknown key 'note'"),
    ],
)
def test_invalid_lineage_is_a_contract_error_with_a_place(lineage: str, message: str) -> None:
    with pytest.raises(ContractError) as caught:
        parse_contract_text(BODY.format(version=1) + f"lineage: {lineage}\n", "c.yaml")
    rendered = [problem.render() for problem in caught.value.problems]
    assert any(line.startswith("c.yaml:6:") and message in line for line in rendered), rendered
