"""Cold start: ``textcontract check`` of one small document, process start to exit.

The document is fixtures/orders/order-1001.md with its context and contract (eight rules),
``--format json``. The peer's CLI runs on a bundle of the same document and context with
the five of those rules it has (mateprobe ships no example bundle in its wheel; its README's
``examples/valid.json`` is not installed), so the peer does less work than textcontract.

Both interpreters run with the same environment: ``PYTHONDONTWRITEBYTECODE`` removed and
``PYTHONPYCACHEPREFIX`` pointing into benchmarks/out, so that after the warm-up runs every
module of both tools is imported from cached bytecode, as after a regular ``pip install``.
Runs alternate between the tools; medians are reported.

:func:`measure_help`: ``textcontract --help`` and every command's ``-h`` (SPEC §21: each at
most 0.3 s), in the same environment, alternating, medians of wall and CPU time.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

from benchmarks._common import OUT, ROOT, median, run_child

ORDERS = ROOT / "fixtures" / "orders"
DOCUMENT = ORDERS / "order-1001.md"
CONTEXT = ORDERS / "order-1001.context.json"
CONTRACT = ORDERS / "textcontract.yaml"


def cold_environment() -> dict[str, str]:
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPYCACHEPREFIX"] = str(OUT / "pycache")
    return env


def textcontract_command() -> list[str]:
    script = Path(sys.executable).parent / "textcontract"
    head = [str(script)] if script.exists() else [sys.executable, "-m", "textcontract"]
    return [
        *head,
        "check",
        str(DOCUMENT),
        "--context",
        str(CONTEXT),
        "--contract",
        str(CONTRACT),
        "--format",
        "json",
    ]


def peer_bundle(folder: Path) -> Path:
    """The fixture document and context as a mateprobe bundle, with its comparable rules."""
    from textcontract.inputs import load_context_file, load_document_file

    document = load_document_file(DOCUMENT, str(DOCUMENT))
    context = load_context_file(CONTEXT, str(CONTEXT))
    bundle: dict[str, Any] = {
        "document": {
            "surfaces": [
                {
                    "id": surface.name,
                    "text": surface.text,
                    "state_ref": surface.state,
                    "claims": [{"key": k, "value": v} for k, v in surface.claims.items()],
                }
                for surface in document.surfaces
            ]
        },
        "context": {
            "states": {name: dict(facts) for name, facts in context.states.items()},
            "closed_premises": list(context.closed_premises),
            "history": list(context.history),
        },
        "contracts": [
            {
                "type": "RequiredFact",
                "rule_id": "status-shipped",
                "key": "order.status",
                "expected": "shipped",
            },
            {"type": "DeclaredClaimsConsistent", "rule_id": "claims-match-order"},
            {
                "type": "ForbiddenPattern",
                "rule_id": "no-refund-promise",
                "patterns": [
                    r"\bfull refund\b",
                    r"\bmoney back\b",
                    r"\brefund (is|has been) (approved|issued)\b",
                ],
                "surface_ids": ["body"],
            },
            {
                "type": "MinimumTokens",
                "rule_id": "enough-content",
                "surface_ids": ["body"],
                "minimum": 25,
                "minimum_unique": 15,
            },
            {"type": "NoRepeatedText", "rule_id": "not-a-resend", "surface_ids": ["body"]},
        ],
    }
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "peer-bundle.json"
    path.write_text(json.dumps(bundle, ensure_ascii=False, indent=1), encoding="utf-8")
    return path


def peer_command(peer_python: Path, bundle: Path) -> list[str]:
    script = peer_python.parent / "mateprobe"
    head = [str(script)] if script.exists() else [str(peer_python), "-m", "mateprobe.cli"]
    return [*head, str(bundle)]


def measure(peer_python: Path | None, runs: int) -> dict[str, Any]:
    env = cold_environment()
    commands: dict[str, list[str]] = {
        "textcontract": textcontract_command(),
        "python -c pass": [sys.executable, "-c", "pass"],
    }
    if peer_python is not None:
        commands["mateprobe"] = peer_command(peer_python, peer_bundle(OUT / "cold"))
    for command in commands.values():  # warm-up: bytecode caches, page cache
        for _ in range(2):
            run_child(command, env=env, stdout_to_null=True)
    times: dict[str, list[float]] = {name: [] for name in commands}
    cpu: dict[str, list[float]] = {name: [] for name in commands}
    rss: dict[str, int] = dict.fromkeys(commands, 0)
    codes: dict[str, int] = {}
    for _ in range(runs):
        for name, command in commands.items():
            finished = run_child(command, env=env, stdout_to_null=True)
            times[name].append(finished.seconds)
            cpu[name].append(finished.cpu_seconds)
            rss[name] = max(rss[name], finished.peak_rss_kib)
            codes[name] = finished.returncode
    return {
        name: {
            "median_ms": median(values) * 1000,
            "min_ms": min(values) * 1000,
            "median_cpu_ms": median(cpu[name]) * 1000,
            "peak_rss_kib": rss[name],
            "exit": codes[name],
            "command": " ".join(commands[name]),
        }
        for name, values in times.items()
    }


def help_commands() -> dict[str, list[str]]:
    """``textcontract --help`` and ``textcontract COMMAND -h`` for every command."""
    from textcontract.cli._app import COMMAND_MODULES

    script = Path(sys.executable).parent / "textcontract"
    head = [str(script)] if script.exists() else [sys.executable, "-m", "textcontract"]
    commands = {"--help": [*head, "--help"]}
    for name in COMMAND_MODULES:
        commands[f"{name} -h"] = [*head, name, "-h"]
    return commands


def measure_help(runs: int) -> dict[str, Any]:
    """Median wall and CPU time of each help page, process start to exit."""
    env = cold_environment()
    commands = help_commands()
    for command in commands.values():  # warm-up: bytecode caches, page cache
        run_child(command, env=env, stdout_to_null=True)
    wall: dict[str, list[float]] = {name: [] for name in commands}
    cpu: dict[str, list[float]] = {name: [] for name in commands}
    codes: dict[str, int] = {}
    for _ in range(runs):
        for name, command in commands.items():
            finished = run_child(command, env=env, stdout_to_null=True)
            wall[name].append(finished.seconds)
            cpu[name].append(finished.cpu_seconds)
            codes[name] = finished.returncode
    return {
        name: {
            "median_ms": median(wall[name]) * 1000,
            "max_ms": max(wall[name]) * 1000,
            "median_cpu_ms": median(cpu[name]) * 1000,
            "exit": codes[name],
        }
        for name in commands
    }
