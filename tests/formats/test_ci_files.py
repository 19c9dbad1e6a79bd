"""The pre-commit hook manifest and the composite Action at the repository root: valid under
their own validators, naming real commands, and the Action's script run as a runner runs it."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from tests.formats.ci_builders import ROOT
from tests.formats.test_github import parsed_lines

BIN = Path(sys.executable).parent


def _tool(name: str) -> str:
    found = shutil.which(name, path=str(BIN)) or shutil.which(name)
    assert found is not None, f"{name} is a dev dependency; pip install -e '.[dev]'"
    return found


def test_the_hook_manifest_is_valid() -> None:
    completed = subprocess.run(
        [_tool("pre-commit"), "validate-manifest", ".pre-commit-hooks.yaml"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert completed.returncode == 0, completed.stdout + completed.stderr


def test_the_hooks_run_textcontract_commands() -> None:
    hooks = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    assert [hook["id"] for hook in hooks] == [
        "textcontract-check",
        "textcontract-lint",
        "textcontract-test",
    ]
    for hook in hooks:
        command = hook["entry"].split()
        assert command[0] == "textcontract"
        assert hook["language"] == "python"
        completed = subprocess.run(
            [_tool("textcontract"), command[1], "--help"],
            capture_output=True,
            text=True,
            check=False,
        )
        assert completed.returncode == 0, completed.stderr
        for option in command[2:]:
            assert option in completed.stdout


def test_the_action_is_valid() -> None:
    completed = subprocess.run(
        [_tool("check-jsonschema"), "--builtin-schema", "vendor.github-actions", "action.yml"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert completed.returncode == 0, completed.stdout + completed.stderr


def test_the_schema_check_can_fail(tmp_path: Path) -> None:
    broken = tmp_path / "action.yml"
    broken.write_text("name: x\nruns: {using: composite}\n", encoding="utf-8")
    completed = subprocess.run(
        [_tool("check-jsonschema"), "--builtin-schema", "vendor.github-actions", str(broken)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert completed.returncode == 1


def _check_step() -> tuple[str, dict[str, str]]:
    action = yaml.safe_load((ROOT / "action.yml").read_text(encoding="utf-8"))
    assert set(action["inputs"]) == {"paths", "contract", "context", "format", "sarif", "python"}
    assert action["inputs"]["format"]["default"] == "github"
    (step,) = [step for step in action["runs"]["steps"] if step.get("id") == "check"]
    return step["run"], step["env"]


@pytest.mark.skipif(shutil.which("bash") is None, reason="the Action's steps run in bash")
def test_the_actions_check_step_runs_as_a_runner_runs_it(tmp_path: Path) -> None:
    script, declared = _check_step()
    assert declared["TC_PATHS"] == "${{ inputs.paths }}"  # inputs never pasted into the script
    temp = tmp_path / "runner-temp"
    (temp / "textcontract" / "bin").mkdir(parents=True)
    (temp / "textcontract" / "bin" / "textcontract").symlink_to(_tool("textcontract"))
    outputs, summary = tmp_path / "outputs", tmp_path / "summary.md"
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith("GITHUB_")},
        "RUNNER_TEMP": str(temp),
        "GITHUB_OUTPUT": str(outputs),
        "GITHUB_STEP_SUMMARY": str(summary),
        "TC_PATHS": "fixtures/orders/order-1002.md\n  fixtures/orders/order-1001.md",
        "TC_CONTRACT": "fixtures/orders/textcontract.yaml",
        "TC_CONTEXT": "fixtures/orders/order-1002.context.json",
        "TC_FORMAT": "github",
        "TC_SARIF": str(tmp_path / "tc.sarif"),
    }
    completed = subprocess.run(
        ["bash", "-e", "-c", script],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert completed.returncode == 1, completed.stderr
    assert outputs.read_text(encoding="utf-8") == "exit-code=1\n"
    files = {props.get("file") for _, props, _ in parsed_lines(completed.stdout)}
    assert files == {"fixtures/orders/order-1002.md", "fixtures/orders/order-1001.md"}
    log = json.loads((tmp_path / "tc.sarif").read_text(encoding="utf-8"))
    assert {
        r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
        for r in log["runs"][0]["results"]
    } == files
    assert summary.read_text(encoding="utf-8").startswith("## textcontract check")
