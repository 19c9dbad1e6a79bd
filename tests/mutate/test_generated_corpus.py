"""The shipped generated corpus (fixtures/generated): in step with the generator, audited
unchanged, the same bytes with and without worker processes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import textcontract
from textcontract.audit import audit_directory, load_corpus
from textcontract.inputs import load_context_file, load_document_file
from textcontract.mutate import generate_case

from .baselines import DOCUMENTS, ORDERS, REPO

GENERATED = REPO / "fixtures" / "generated"
SOURCES = {"order-1001": "order-1001.md", "order-2001": "order-2001.json",
           "order-2002": "order-2002.md"}  # fmt: skip


def _generate(case_id: str, source: str, seed: int = 0) -> str:
    document = load_document_file(DOCUMENTS / source)
    context = load_context_file(DOCUMENTS / f"{source.rsplit('.', 1)[0]}.context.json")
    contract = textcontract.load_contract(ORDERS / "textcontract.yaml")
    return generate_case(document, context, contract, case_id, seed=seed).to_yaml()


@pytest.mark.parametrize("case_id", sorted(SOURCES))
def test_the_shipped_case_files_are_what_the_generator_writes(case_id: str) -> None:
    shipped = (GENERATED / f"{case_id}.yaml").read_text(encoding="utf-8")
    assert shipped == _generate(case_id, SOURCES[case_id]), (
        "regenerate fixtures/generated as its audit.yaml says"
    )


def test_the_shipped_contract_on_its_generated_corpus() -> None:
    report = audit_directory(GENERATED).report
    assert report["detection"]["detected"] == report["detection"]["eligible"] == 93
    assert report["preservation"]["preserved"] == report["preservation"]["eligible"] == 8
    assert report["coverage_gaps"] == []
    assert report["excluded"] == []
    assert report["verdict"] == {"value": "PASS", "reasons": []}


def _audit_json(folder: Path, jobs: int) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "textcontract", "audit", str(folder), "--format", "json",
         "--jobs", str(jobs)],
        capture_output=True, text=True, check=False, timeout=300, cwd=REPO,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_jobs_1_and_2_give_the_same_bytes(tmp_path: Path) -> None:
    assert _audit_json(GENERATED, 1) == _audit_json(GENERATED, 2)
    # 32 case files, enough for the audit to start its worker process
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "audit.yaml").write_text(
        f"contract: {ORDERS / 'textcontract.yaml'}\n", encoding="utf-8"
    )
    for index in range(32):
        case_id, source = sorted(SOURCES.items())[index % 3]
        (corpus / f"{case_id}-{index}.yaml").write_text(
            _generate(f"{case_id}-{index}", source, seed=index), encoding="utf-8"
        )
    assert len(load_corpus(corpus).entries) == 32
    single, parallel = _audit_json(corpus, 1), _audit_json(corpus, 2)
    assert single == parallel
    assert json.loads(single)["detection"]["eligible"] > 800
