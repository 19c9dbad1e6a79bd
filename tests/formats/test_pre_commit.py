"""The pre-commit hooks run by the real pre-commit on scratch git repositories (SPEC §12, §21).

pre-commit installs the hook repository into an environment of its own (a ``pip install``
of this project: the slow part, done once here). The hook repository is a git copy of this
working tree, committed, so that ``pre-commit try-repo`` and a configuration naming it by path
and commit use the same environment. Two users are played: one who takes the manifest's
defaults (``try-repo``, contract named ``textcontract.yaml``) and one who copies the
README's configuration (contracts in ``contracts/``, documents in ``outputs/``); for both,
every hook must run on its files — none "(no files to check) Skipped".
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import yaml

from tests.formats.ci_builders import ROOT

ORDERS = ROOT / "fixtures" / "orders"
HOOK_NAMES = ("textcontract check", "textcontract lint", "textcontract test")
_RESULT = re.compile(r"^(textcontract (?:check|lint|test))\.+(?:\([^)]*\))?(\w+)$", re.MULTILINE)
_GIT_IDENTITY = {
    "GIT_AUTHOR_NAME": "test",
    "GIT_AUTHOR_EMAIL": "test@example.com",
    "GIT_COMMITTER_NAME": "test",
    "GIT_COMMITTER_EMAIL": "test@example.com",
}


def _pre_commit() -> str:
    found = shutil.which("pre-commit", path=str(Path(sys.executable).parent))
    assert found is not None, "pre-commit is a dev dependency; pip install -e '.[dev]'"
    return found


def _git(folder: Path, *arguments: str) -> str:
    completed = subprocess.run(
        ["git", "-C", str(folder), *arguments],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, **_GIT_IDENTITY},
    )
    return completed.stdout.strip()


def _repository(folder: Path, files: dict[str, Path | str]) -> Path:
    """A git repository holding ``files`` (path → a file to copy, or text), all added."""
    folder.mkdir()
    _git(folder, "init", "-q")
    for name, source in files.items():
        target = folder / name
        target.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(source, Path):
            shutil.copyfile(source, target)
        else:
            target.write_text(source, encoding="utf-8")
    _git(folder, "add", "-A")
    return folder


def _hook_repository(folder: Path) -> tuple[Path, str]:
    """This working tree (tracked and new files, as they are now) committed in a git copy."""
    listed = _git(ROOT, "ls-files", "--cached", "--others", "--exclude-standard", "-z")
    names = [name for name in listed.split("\0") if name and (ROOT / name).is_file()]
    folder = _repository(folder, {name: ROOT / name for name in names})
    _git(folder, "commit", "-q", "-m", "the working tree under test")
    return folder, _git(folder, "rev-parse", "HEAD")


def _run(folder: Path, home: Path, *arguments: str) -> tuple[int, str]:
    env = {**os.environ, **_GIT_IDENTITY, "PRE_COMMIT_HOME": str(home), "PRE_COMMIT_COLOR": "never"}
    env.pop("GITHUB_STEP_SUMMARY", None)
    completed = subprocess.run(
        [_pre_commit(), *arguments],
        cwd=folder,
        env=env,
        capture_output=True,
        text=True,
        check=False,
        timeout=900,
    )
    return completed.returncode, completed.stdout + completed.stderr


def _results(output: str) -> dict[str, str]:
    """Each hook's last word on pre-commit's summary line: Passed, Failed or Skipped."""
    return dict(_RESULT.findall(output))


def _readme_config(repository: Path, commit: str) -> str:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    found = re.search(r"^```yaml\n(# \.pre-commit-config\.yaml\n.*?)^```$", readme, re.M | re.S)
    assert found is not None
    config = found.group(1)
    (repo,) = yaml.safe_load(config)["repos"]
    return config.replace(f"repo: {repo['repo']}", f"repo: {repository}").replace(
        f"rev: {repo['rev']}", f"rev: {commit}"
    )


def test_every_hook_runs_with_the_defaults_and_with_the_readmes_config(tmp_path: Path) -> None:
    repository, commit = _hook_repository(tmp_path / "textcontract")
    home = tmp_path / "pre-commit-home"
    # the manifest's defaults: the contract is textcontract.yaml, documents anywhere
    defaults = _repository(
        tmp_path / "defaults",
        {
            "textcontract.yaml": ORDERS / "textcontract.yaml",
            "outputs/order-1001.md": ORDERS / "order-1001.md",
            "outputs/order-1001.context.json": ORDERS / "order-1001.context.json",
        },
    )
    code, output = _run(
        defaults, home, "try-repo", str(repository), "--ref", commit, "--all-files", "--verbose"
    )
    assert _results(output) == dict.fromkeys(HOOK_NAMES, "Passed"), output
    assert code == 0, output
    assert "outputs/order-1001.md: ACCEPTED" in output
    assert "textcontract.yaml: 0 examples, 0 mismatches" in output
    assert "order-1001.context.json: " not in output  # a context is never checked as a document
    # the README's configuration: contracts/ and outputs/, one rejected document
    readme = _repository(
        tmp_path / "readme",
        {
            ".pre-commit-config.yaml": _readme_config(repository, commit),
            "contracts/order.yaml": ORDERS / "textcontract.yaml",
            "outputs/order-1001.md": ORDERS / "order-1001.md",
            "outputs/order-1001.context.json": ORDERS / "order-1001.context.json",
            "outputs/order-1002.md": ORDERS / "order-1002.md",
            "outputs/order-1002.context.json": ORDERS / "order-1002.context.json",
            "notes.md": "Not an output: no hook reads it.\n",
        },
    )
    code, output = _run(readme, home, "run", "--all-files", "--verbose")
    assert _results(output) == {
        "textcontract check": "Failed",
        "textcontract lint": "Passed",
        "textcontract test": "Passed",
    }, output
    assert code == 1, output
    assert "outputs/order-1002.md: REJECTED" in output
    assert "outputs/order-1001.md: ACCEPTED" in output
    assert "notes.md" not in output
    assert "contracts/order.yaml: 0 examples, 0 mismatches" in output
