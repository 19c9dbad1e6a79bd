"""The pre-commit hook manifest and the composite Action at the repository root: valid under
their own validators, naming real commands, and the Action's script run as a runner runs it."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.formats.actions_runner import acted_on
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
    assert set(action["inputs"]) == {
        "paths",
        "contract",
        "context",
        "format",
        "sarif",
        "upload-sarif",
        "python",
    }
    assert action["inputs"]["format"]["default"] == "github"
    assert action["inputs"]["upload-sarif"]["default"] == "false"
    (step,) = [step for step in action["runs"]["steps"] if step.get("id") == "check"]
    return step["run"], step["env"]


def _steps_after_the_check() -> list[dict[str, Any]]:
    action = yaml.safe_load((ROOT / "action.yml").read_text(encoding="utf-8"))
    steps: list[dict[str, Any]] = action["runs"]["steps"]
    return steps[[step.get("id") for step in steps].index("check") + 1 :]


def _run_step(script: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["bash", "-e", "-c", script], cwd=ROOT, env=env, capture_output=True, text=True, check=False
    )


def _runner_env(tmp_path: Path, **variables: str) -> dict[str, str]:
    temp = tmp_path / "runner-temp"
    (temp / "textcontract" / "bin").mkdir(parents=True, exist_ok=True)
    program = temp / "textcontract" / "bin" / "textcontract"
    if not program.exists():
        program.symlink_to(_tool("textcontract"))
    return {
        **{k: v for k, v in os.environ.items() if not k.startswith("GITHUB_")},
        "RUNNER_TEMP": str(temp),
        "GITHUB_OUTPUT": str(tmp_path / "outputs"),
        "GITHUB_STEP_SUMMARY": str(tmp_path / "summary.md"),
        "TC_PATHS": "fixtures/orders/order-1002.md",
        "TC_CONTRACT": "fixtures/orders/textcontract.yaml",
        "TC_CONTEXT": "",
        "TC_FORMAT": "github",
        "TC_SARIF": "",
        "TC_UPLOAD": "false",
        **variables,
    }


def test_the_upload_comes_before_the_step_that_fails_on_a_rejection() -> None:
    upload, verdict = _steps_after_the_check()
    assert upload["uses"].startswith("github/codeql-action/upload-sarif@")
    assert upload["if"] == "inputs.upload-sarif == 'true'"
    assert upload["with"] == {"sarif_file": "${{ steps.check.outputs.sarif-file }}"}
    assert verdict["env"] == {"TC_EXIT": "${{ steps.check.outputs.exit-code }}"}
    for code in (0, 1):
        completed = _run_step(verdict["run"], {**os.environ, "TC_EXIT": str(code)})
        assert completed.returncode == code


@pytest.mark.skipif(shutil.which("bash") is None, reason="the Action's steps run in bash")
def test_upload_sarif_writes_the_log_into_the_runners_temp_folder(tmp_path: Path) -> None:
    script, _ = _check_step()
    completed = _run_step(script, _runner_env(tmp_path, TC_UPLOAD="true"))
    assert completed.returncode == 0, completed.stderr  # the verdict step fails it later
    sarif = tmp_path / "runner-temp" / "textcontract.sarif"
    outputs = (tmp_path / "outputs").read_text(encoding="utf-8")
    assert outputs == f"sarif-file={sarif}\nexit-code=1\n"
    assert json.loads(sarif.read_text(encoding="utf-8"))["version"] == "2.1.0"


@pytest.mark.skipif(shutil.which("bash") is None, reason="the Action's steps run in bash")
def test_an_unknown_upload_sarif_value_fails_the_step(tmp_path: Path) -> None:
    script, _ = _check_step()
    completed = _run_step(script, _runner_env(tmp_path, TC_UPLOAD="yes"))
    assert completed.returncode == 2
    assert "::error::upload-sarif must be true or false, not 'yes'" in completed.stdout


@pytest.mark.skipif(shutil.which("bash") is None, reason="the Action's steps run in bash")
def test_an_input_error_fails_the_check_step_itself(tmp_path: Path) -> None:
    script, _ = _check_step()
    env = _runner_env(tmp_path, TC_PATHS="fixtures/orders/missing.md")
    completed = _run_step(script, env)
    assert completed.returncode == 2
    assert "missing.md" in completed.stderr


@pytest.mark.skipif(shutil.which("bash") is None, reason="the Action's steps run in bash")
@pytest.mark.parametrize("output_format", ["text", "json"])
def test_the_actions_other_formats_print_no_workflow_command(
    tmp_path: Path, output_format: str
) -> None:
    """``format: text`` (or json, …) is made safe rather than refused (SPEC §22): the runner
    acts on nothing a document or a file name says, the step still reports the verdict."""
    hostile = tmp_path / "::warning::forged.md"
    text = (ROOT / "fixtures/orders/order-1001.md").read_text(encoding="utf-8")
    hostile.write_text(
        text.replace("we will sort it out.", "money back ::error::Forged ##[add-mask]x"),
        encoding="utf-8",
    )
    context = ROOT / "fixtures/orders/order-1001.context.json"
    shutil.copy(context, tmp_path / "::warning::forged.context.json")
    script, _ = _check_step()
    env = _runner_env(
        tmp_path, TC_PATHS=str(hostile), TC_FORMAT=output_format, GITHUB_ACTIONS="true"
    )
    env["COLUMNS"] = "80"
    completed = _run_step(script, env)
    assert completed.returncode == 0, completed.stderr  # the verdict step fails the job
    assert (tmp_path / "outputs").read_text(encoding="utf-8") == "sarif-file=\nexit-code=1\n"
    assert completed.stdout.startswith("::stop-commands::")
    assert acted_on(completed.stdout) == []
    assert acted_on(completed.stderr) == []


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
        "TC_UPLOAD": "false",
    }
    completed = subprocess.run(
        ["bash", "-e", "-c", script],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert completed.returncode == 0, completed.stderr  # the verdict step fails the job
    sarif = tmp_path / "tc.sarif"
    assert outputs.read_text(encoding="utf-8") == f"sarif-file={sarif}\nexit-code=1\n"
    files = {props.get("file") for _, props, _ in parsed_lines(completed.stdout)}
    assert files == {"fixtures/orders/order-1002.md", "fixtures/orders/order-1001.md"}
    log = json.loads((tmp_path / "tc.sarif").read_text(encoding="utf-8"))
    assert {
        r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
        for r in log["runs"][0]["results"]
    } == files
    assert summary.read_text(encoding="utf-8").startswith("## textcontract check")


def _readme_yaml_blocks() -> dict[str, str]:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = readme.split("```yaml\n")[1:]
    found = {}
    for block in (part.split("```", 1)[0] for part in blocks):
        if block.startswith("on: "):
            found["workflow"] = block
        elif block.startswith("# .pre-commit-config.yaml"):
            found["pre-commit"] = block
    return found


def test_the_readmes_workflow_is_valid_and_uses_the_actions_inputs(tmp_path: Path) -> None:
    workflow = _readme_yaml_blocks()["workflow"]
    assert len(workflow.splitlines()) <= 10
    path = tmp_path / "textcontract.yml"
    path.write_text(workflow, encoding="utf-8")
    completed = subprocess.run(
        [_tool("check-jsonschema"), "--builtin-schema", "vendor.github-workflows", str(path)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert completed.returncode == 0, completed.stdout + completed.stderr
    action = yaml.safe_load((ROOT / "action.yml").read_text(encoding="utf-8"))
    steps = yaml.safe_load(workflow)["jobs"]["textcontract"]["steps"]
    (ours,) = [step for step in steps if step["uses"].startswith("textcontract/textcontract@")]
    assert set(ours["with"]) <= set(action["inputs"])
    assert {name for name, spec in action["inputs"].items() if spec["required"]} <= set(
        ours["with"]
    )


def test_the_readmes_pre_commit_config_is_valid_and_names_our_hooks(tmp_path: Path) -> None:
    config = _readme_yaml_blocks()["pre-commit"]
    path = tmp_path / ".pre-commit-config.yaml"
    path.write_text(config, encoding="utf-8")
    completed = subprocess.run(
        [_tool("pre-commit"), "validate-config", str(path)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert completed.returncode == 0, completed.stdout + completed.stderr
    hooks = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    (repo,) = yaml.safe_load(config)["repos"]
    assert {hook["id"] for hook in repo["hooks"]} == {hook["id"] for hook in hooks}


@pytest.mark.skipif(shutil.which("bash") is None, reason="the Action's steps run in bash")
def test_the_action_checks_once_when_a_sarif_log_is_asked_for_too(tmp_path: Path) -> None:
    """The runner's textcontract is a wrapper that logs each run: with ``sarif`` and
    ``upload-sarif`` set there is one ``check``, and its log is the bytes ``--format sarif``
    writes for the same documents."""
    script, _ = _check_step()
    temp = tmp_path / "runner-temp"
    program = temp / "textcontract" / "bin" / "textcontract"
    program.parent.mkdir(parents=True)
    runs = tmp_path / "runs.log"
    program.write_text(
        f'#!/usr/bin/env bash\nprintf "%s\\n" "$*" >> {runs}\nexec {_tool("textcontract")} "$@"\n',
        encoding="utf-8",
    )
    program.chmod(0o755)
    sarif = tmp_path / "tc.sarif"
    env = _runner_env(tmp_path, TC_SARIF=str(sarif), TC_UPLOAD="true")
    completed = _run_step(script, env)
    assert completed.returncode == 0, completed.stderr
    (run,) = runs.read_text(encoding="utf-8").splitlines()
    assert run.startswith("check fixtures/orders/order-1002.md ")
    assert f"--sarif-output {sarif}" in run
    assert "::error file=fixtures/orders/order-1002.md" in completed.stdout  # the annotations
    alone = tmp_path / "alone.sarif"
    subprocess.run(
        [_tool("textcontract"), "check", "fixtures/orders/order-1002.md", "--contract",
         "fixtures/orders/textcontract.yaml", "--format", "sarif", "--output", str(alone)],
        cwd=ROOT, check=False, capture_output=True,
    )  # fmt: skip
    assert sarif.read_bytes() == alone.read_bytes()
