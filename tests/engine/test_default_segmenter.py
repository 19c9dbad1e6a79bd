"""Without a ``tokens`` block, every rule reads tokens exactly as 0.2 did (SPEC §19)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from textcontract import Context, Document, load_contract, load_contract_text
from textcontract._engine import engine_json

HERE = Path(__file__).parent / "default_segmenter"
_V02_ENGINE = '"engine":{"name":"textcontract","version":"0.1.0"}'


def _expected() -> list[str]:
    """0.2's lines with this engine's block in place of 0.2's."""
    engine = json.dumps(engine_json(), ensure_ascii=False, separators=(",", ":"))
    text = (HERE / "reports-0.2.jsonl").read_text(encoding="utf-8")
    return [line.replace(_V02_ENGINE, f'"engine":{engine}', 1) for line in text.splitlines()]


def test_the_reports_are_0_2_s_bytes_but_for_the_engine() -> None:
    ran = subprocess.run(
        [
            sys.executable,
            "-m",
            "textcontract",
            "check",
            "--batch",
            "batch.jsonl",
            "--contract",
            "contract.yaml",
            "--format",
            "jsonl",
        ],
        cwd=HERE,
        capture_output=True,
        text=True,
        check=False,
    )
    assert ran.returncode == 1, ran.stderr
    expected = _expected()
    lines = ran.stdout.splitlines()
    assert len(lines) == len(expected) == 30
    for line, wanted in zip(lines, expected, strict=True):
        assert line == wanted


def test_the_contract_keeps_its_0_2_digest() -> None:
    first = json.loads(_expected()[0])
    assert load_contract(HERE / "contract.yaml").digest == first["contract"]["digest"]


def test_tokens_words_written_out_changes_the_digest_and_nothing_else() -> None:
    source = (HERE / "contract.yaml").read_text(encoding="utf-8")
    plain = load_contract_text(source)
    written = load_contract_text(source.replace("rules:", "tokens: {segmenter: words}\nrules:"))
    assert written.digest != plain.digest
    for line in (HERE / "batch.jsonl").read_text(encoding="utf-8").splitlines():
        item = json.loads(line)
        document = Document.from_json(item["document"])
        context = Context.from_json(item["context"])
        assert written.check(document, context).checks == plain.check(document, context).checks
