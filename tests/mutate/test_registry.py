"""Operators are plugins like rule types: entry-point group ``textcontract.operators``, one
immutable registry that refuses duplicates and bad declarations, the same discovery code."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from importlib.metadata import EntryPoint
from pathlib import Path

import pytest

from textcontract import _plugins
from textcontract.mutate import (
    BUILTIN_OPERATORS,
    ENTRY_POINT_GROUP,
    OperatorClass,
    OperatorRegistry,
    OperatorRegistryError,
    default_operators,
    generate_case,
)
from textcontract.mutate import _registry as operator_registry
from textcontract.rules import _registry as rule_registry

from .baselines import baselines

SRC = Path(__file__).parent / "plugin_src"
if str(SRC) not in sys.path:
    sys.path.insert(0, str(SRC))


def _entry_point(name: str, value: str) -> EntryPoint:
    return EntryPoint(name=name, value=value, group=ENTRY_POINT_GROUP)


SHOUT = _entry_point("shout-subject", "textcontract_shout:ShoutSubject")


def test_the_builtin_operators_in_order_with_their_classes() -> None:
    registry = default_operators(plugins=[])
    assert list(registry) == [operator.name for operator in BUILTIN_OPERATORS]
    assert len(registry) == 22
    preserve = [name for name, op in registry.items() if op.probe_class is OperatorClass.PRESERVE]
    assert preserve == [
        "reflow-whitespace",
        "unicode-nfd",
        "smart-quotes",
        "trailing-newline",
        "emphasis-toggle",
    ]
    assert registry.origin("fact-flip") == "builtin"
    assert registry.suggest("fact-flp") == "fact-flip"


def test_a_plugin_operator_is_registered_after_the_builtins_and_runs() -> None:
    registry = default_operators(plugins=[SHOUT])
    assert list(registry)[-1] == "shout-subject"
    assert registry.origin("shout-subject") == (
        "plugin shout-subject (textcontract_shout:ShoutSubject)"
    )
    table = baselines()[0]
    case = generate_case(
        table.document,
        table.context,
        table.contract,
        "c",
        operators=["shout-subject"],
        registry=registry,
    )
    assert [v.id for v in case.variants] == ["shout-subject-1"]
    assert case.variants[0].change == {
        "replace": [
            {
                "surface": "subject",
                "find": "Your order #1001 has shipped",
                "with": "YOUR ORDER #1001 HAS SHIPPED",
            }
        ]
    }


@pytest.mark.parametrize(
    ("entry_points", "message"),
    [
        pytest.param([SHOUT, SHOUT], "operator 'shout-subject' is registered twice", id="twice"),
        pytest.param(
            [_entry_point("gone", "textcontract_missing:Gone")],
            "cannot load operator plugin: ModuleNotFoundError",
            id="missing",
        ),
        pytest.param(
            [_entry_point("x", "textcontract_shout:NoName")],
            "operator NoName declares no name",
            id="no-name",
        ),
        pytest.param(
            [_entry_point("x", "textcontract_shout:PreserveWithTargets")],
            "a preserve operator targets no rule",
            id="preserve-with-targets",
        ),
        pytest.param(
            [_entry_point("x", "json:dumps")], "is not an Operator subclass", id="not-operator"
        ),
    ],
)
def test_bad_plugins_are_refused_with_their_origin(
    entry_points: list[EntryPoint], message: str
) -> None:
    with pytest.raises(OperatorRegistryError) as caught:
        default_operators(plugins=entry_points)
    assert message in str(caught.value)


def test_the_registry_is_immutable() -> None:
    registry = OperatorRegistry(("builtin", op) for op in BUILTIN_OPERATORS)
    with pytest.raises(TypeError):
        registry["x"] = BUILTIN_OPERATORS[0]  # type: ignore[index]


def test_both_registries_use_the_one_discovery_with_its_pre_check(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shared = _plugins.installed_entry_points
    assert vars(operator_registry)["installed_entry_points"] is shared
    assert vars(rule_registry)["installed_entry_points"] is shared
    info = tmp_path / "shout-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: shout\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(f"[{ENTRY_POINT_GROUP}]\nx = y:Z\n")
    monkeypatch.setattr(sys, "path", [str(tmp_path)])
    assert _plugins.plugins_possible(ENTRY_POINT_GROUP) is True
    assert _plugins.plugins_possible("textcontract.rules") is False
    assert rule_registry._plugins_possible() is False


_DISCOVERY = """
import json
from textcontract.mutate import default_operators
registry = default_operators()
print(json.dumps({"last": list(registry)[-1], "origin": registry.origin("shout-subject")}))
"""


def test_real_entry_point_discovery_in_a_subprocess(tmp_path: Path) -> None:
    info = tmp_path / "textcontract_shout-0.1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: textcontract-shout\nVersion: 0.1.0\n", encoding="utf-8"
    )
    (info / "entry_points.txt").write_text(
        f"[{ENTRY_POINT_GROUP}]\nshout-subject = textcontract_shout:ShoutSubject\n",
        encoding="utf-8",
    )
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), str(SRC)])}
    done = subprocess.run(
        [sys.executable, "-c", _DISCOVERY],
        capture_output=True,
        text=True,
        env=environment,
        check=False,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {
        "last": "shout-subject",
        "origin": "plugin shout-subject (textcontract_shout:ShoutSubject)",
    }
