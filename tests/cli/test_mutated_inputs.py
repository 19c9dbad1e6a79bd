"""Mutated copies of the shipped inputs never get a traceback or an internal error.

Each test takes a valid input the shipped ``fixtures/`` hold — the order contract, a context
and a JSON document, a batch, an audit case, a part of a sharded audit, an evidence artifact
— and lets hypothesis mutate its tree: a value replaced by another type or an edge value
(NaN, infinity, a huge integer, NUL, an absolute or parent path, an unknown pack), a key
deleted or added, a subtree moved. The command that reads it must end as the CLI promises
(SPEC §8): with one of its exit codes, never 3 (internal error) and never an exception; an
input error (exit 2) says ``error:`` and names the mutated file.
"""

from __future__ import annotations

import contextlib
import copy
import io
import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from textcontract.cli._app import build_app
from textcontract.cli._fast import fast_check

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "fixtures"

_EDGE_VALUES: list[Any] = [
    None, 0, -1, 1.5, float("nan"), float("inf"), 10**30, "", "x", "{{", "\x00", "é" * 3,
    "/etc/passwd", "../../outside", "builtin:nope", "2026-13-45", [], [1], {}, {"a": 1},
    True, False,
]  # fmt: skip


def _paths(tree: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield path
    if isinstance(tree, dict):
        for key, value in tree.items():
            yield from _paths(value, (*path, key))
    elif isinstance(tree, list):
        for index, value in enumerate(tree):
            yield from _paths(value, (*path, index))


def _at(tree: Any, path: tuple[Any, ...]) -> Any:
    for step in path:
        tree = tree[step]
    return tree


@st.composite
def _mutated(draw: st.DrawFn, tree: Any) -> Any:
    """``tree`` with one to three mutations."""
    tree = copy.deepcopy(tree)
    for _ in range(draw(st.integers(1, 3))):
        paths = [path for path in _paths(tree) if path]
        if not paths:
            break
        path = draw(st.sampled_from(paths))
        parent, key = _at(tree, path[:-1]), path[-1]
        action = draw(st.sampled_from(["replace", "delete", "add", "move"]))
        if action == "replace":
            parent[key] = copy.deepcopy(draw(st.sampled_from(_EDGE_VALUES)))
        elif action == "delete":
            del parent[key]
        elif action == "add" and isinstance(parent, dict):
            name = draw(st.sampled_from(["zzz", "id", "type", "version", "rules", "extends"]))
            parent[name] = copy.deepcopy(draw(st.sampled_from(_EDGE_VALUES)))
        else:
            parent[key] = copy.deepcopy(_at(tree, draw(st.sampled_from(paths))))
    return tree


def _run(arguments: list[str]) -> tuple[int, str]:
    """Exit code and stderr of one command, through the route ``main`` takes."""
    out, err = io.StringIO(), io.StringIO()
    code: object = None
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = fast_check(arguments)
        if code is None:
            try:
                build_app(arguments[0])(args=arguments, prog_name="textcontract")
            except SystemExit as exited:
                code = exited.code
    assert isinstance(code, int), (arguments, code, err.getvalue())
    return code, err.getvalue()


def _ended_as_promised(code: int, err: str, codes: set[int], file: Path) -> None:
    assert code in codes, err
    assert "Traceback" not in err
    if code == 2:
        assert err.startswith("error: "), err
        assert file.name in err, err


def _write(tree: Any, target: Path) -> bool:
    """``tree`` as JSON (which is YAML too); False when it has no JSON form."""
    try:
        text = json.dumps(tree, ensure_ascii=False, allow_nan=True)
    except (TypeError, ValueError):
        return False
    target.write_text(text, encoding="utf-8")
    return True


_SETTINGS = settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)


def _tree(path: Path) -> Any:
    return yaml.safe_load(path.read_text(encoding="utf-8"))


ORDERS = FIXTURES / "orders"
CONTRACT = _tree(ORDERS / "textcontract.yaml")
CONTEXT = _tree(ORDERS / "order-1001.context.json")
DOCUMENT = _tree(ORDERS / "order-1003.json")


@_SETTINGS
@given(contract=_mutated(CONTRACT))
def test_a_mutated_contract(tmp_path: Path, contract: Any) -> None:
    target = tmp_path / "textcontract.yaml"
    if not _write(contract, target):
        return
    document, context = ORDERS / "order-1001.md", ORDERS / "order-1001.context.json"
    for arguments, codes in (
        (["check", str(document), "--context", str(context), "--contract", str(target)], {0, 1, 2}),
        (["lint", str(target)], {0, 1, 2}),
        (["test", str(target)], {0, 1, 2}),
    ):
        _ended_as_promised(*_run(arguments), codes, target)


@_SETTINGS
@given(context=_mutated(CONTEXT), document=_mutated(DOCUMENT))
def test_a_mutated_context_and_json_document(tmp_path: Path, context: Any, document: Any) -> None:
    context_file, document_file = tmp_path / "ctx.json", tmp_path / "doc.json"
    contract = str(ORDERS / "textcontract.yaml")
    if _write(context, context_file):
        arguments = ["check", str(ORDERS / "order-1001.md"), "--context", str(context_file)]
        code, err = _run([*arguments, "--contract", contract, "--format", "json"])
        _ended_as_promised(code, err, {0, 1, 2}, context_file)
    if _write(document, document_file):
        paired = str(ORDERS / "order-1003.context.json")
        arguments = ["check", str(document_file), "--context", paired, "--contract", contract]
        code, err = _run([*arguments, "--format", "sarif"])
        _ended_as_promised(code, err, {0, 1, 2}, document_file)


BATCH = [
    json.loads(line)
    for line in (FIXTURES / "batch" / "replies.jsonl").read_text(encoding="utf-8").splitlines()
    if line.strip()
]


@_SETTINGS
@given(line=_mutated(BATCH[0]), form=st.sampled_from(["jsonl", "json", "text", "junit"]))
def test_a_mutated_batch_line(tmp_path: Path, line: Any, form: str) -> None:
    target = tmp_path / "batch.jsonl"
    try:
        text = "\n".join(json.dumps(item, ensure_ascii=False) for item in [*BATCH, line])
    except (TypeError, ValueError):
        return
    target.write_text(text + "\n", encoding="utf-8")
    contract = str(ORDERS / "textcontract.yaml")
    code, err = _run(["check", "--batch", str(target), "--contract", contract, "--format", form])
    _ended_as_promised(code, err, {0, 1, 2}, target)


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("shipped")
    for name in ("mutations", "orders"):
        shutil.copytree(FIXTURES / name, root / name)
    return root


CASE = _tree(FIXTURES / "mutations" / "order-2001.yaml")


@settings(_SETTINGS, max_examples=10)
@given(case=_mutated(CASE))
def test_a_mutated_audit_case(corpus: Path, case: Any) -> None:
    target = corpus / "mutations" / "order-2001.yaml"
    original = target.read_bytes()
    try:
        if not _write(case, target):
            return
        code, err = _run(["audit", str(corpus / "mutations"), "--format", "json"])
        _ended_as_promised(code, err, {0, 1, 2, 5}, target)
    finally:
        target.write_bytes(original)


@pytest.fixture(scope="module")
def evidence(corpus: Path) -> Path:
    """Two parts of a sharded audit of the shipped corpus, and its artifacts."""
    folder = corpus / "evidence"
    folder.mkdir()
    mutations = str(corpus / "mutations")
    for index in (1, 2):
        part = str(folder / f"part-{index}.json")
        arguments = ["audit", mutations, "--shard", f"{index}/2", "--format", "json"]
        assert _run([*arguments, "--output", part])[0] == 0
    code, _ = _run(["audit", mutations, "--artifacts", str(folder / "artifacts")])
    assert code == 0
    policy = _tree(corpus / "mutations" / "audit.yaml")["policy"]
    (folder / "policy.json").write_text(json.dumps(policy), encoding="utf-8")
    artifacts = sorted(str(path) for path in (folder / "artifacts").rglob("*.json"))
    code, err = _run(["aggregate-strength", *artifacts, "--policy", str(folder / "policy.json")])
    assert code in (0, 1), err  # the unmutated set is read: the mutations are what fails
    return folder


@settings(_SETTINGS, max_examples=25)
@given(data=st.data())
def test_a_mutated_part_or_artifact(evidence: Path, data: st.DataObject) -> None:
    part = _tree(evidence / "part-1.json")
    mutated_part = evidence / "mutated-part.json"
    if _write(data.draw(_mutated(part)), mutated_part):
        arguments = ["merge", str(mutated_part), str(evidence / "part-2.json")]
        code, err = _run([*arguments, "--format", data.draw(st.sampled_from(["json", "text"]))])
        _ended_as_promised(code, err, {0, 1, 2, 4, 5}, mutated_part)
    artifacts = sorted((evidence / "artifacts").rglob("*.json"))
    chosen = data.draw(st.sampled_from(artifacts))
    mutated_artifact = evidence / "mutated-artifact.json"
    if _write(data.draw(_mutated(_tree(chosen))), mutated_artifact):
        others = [str(path) for path in artifacts if path != chosen][:4]
        policy = ["--policy", str(evidence / "policy.json")]
        code, err = _run(["aggregate-strength", str(mutated_artifact), *others, *policy])
        _ended_as_promised(code, err, {0, 1, 2, 4, 5}, mutated_artifact)
        code, err = _run(["compare", str(mutated_artifact), str(artifacts[0])])
        _ended_as_promised(code, err, {0, 1, 2, 4, 5}, mutated_artifact)
