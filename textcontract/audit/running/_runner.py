"""Running an audit: the second pass over every case, then the figures, strength and verdict.

Cases are audited in case-id order (in worker processes too, results merged in
that order); each leaves a small record per variant and its share of the corpus
digests. Nothing else is held: the report is built, or written, from the
records when it is asked for.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

from textcontract._pool import Pool
from textcontract.audit.reading import Thresholds
from textcontract.audit.results import (
    CaseRecord,
    Findings,
    Interner,
    ThresholdCheck,
    check_threshold,
    probe_trials,
    report_json,
    streamed_report,
    summarize,
)
from textcontract.audit.running._case_passes import CaseWork, audit_case
from textcontract.audit.running._corpus import Corpus, CorpusDigest, load_into
from textcontract.canonical import digest
from textcontract.errors import ExitCode
from textcontract.rules import Registry
from textcontract.strength import (
    StrengthResult,
    Verdict,
    VerdictValue,
    build_trial_records,
    evidence_artifact,
    score_probes,
)

__all__ = ["AuditResult", "Progress", "audit_directory", "run_audit", "run_in"]

Progress = Callable[[int, int], None]
"""Called with (variants done, variants in the corpus) as the audit advances."""

_SHA256 = "sha256:"
_AUDIT_BATCH = 4
"""Cases per batch sent to a worker in the second pass (a few ms each)."""


@dataclass(frozen=True)
class AuditResult:
    """What an audit found, and what the command needs for its exit code and side files.

    :attr:`report` (the report as a dict) and :attr:`strength` (the scored probes)
    are built on first use; :meth:`streamed_report` gives the report to write without
    building it.
    """

    findings: Findings
    thresholds: tuple[ThresholdCheck, ...]

    @property
    def contract_digest(self) -> str:
        return self.findings.contract.digest

    @property
    def verdict(self) -> Verdict:
        return self.findings.verdict

    @property
    def detection(self) -> float | None:
        return self.findings.detection.value

    @property
    def preservation(self) -> float | None:
        return self.findings.preservation.value

    @property
    def passed(self) -> bool:
        """Every threshold met and the verdict is not FAIL (SPEC §8, exit 0)."""
        return self.verdict.value is not VerdictValue.FAIL and all(
            check.met for check in self.thresholds
        )

    @property
    def exit_code(self) -> ExitCode:
        return ExitCode.OK if self.passed else ExitCode.FAILED

    @cached_property
    def report(self) -> dict[str, Any]:
        """The audit report (SPEC §6) as a JSON-ready dict."""
        return report_json(self.findings)

    def streamed_report(self) -> dict[str, Any]:
        """The report with its long lists as one-pass iterators, built as they are read.

        ``textcontract.formats.json_text.write_pretty`` writes it as ``--format json``
        prints it, without holding the report or its text.
        """
        return streamed_report(self.findings)

    @cached_property
    def strength(self) -> StrengthResult:
        """Every admitted probe scored by the strength scorer (held all at once)."""
        findings = self.findings
        return score_probes(
            [
                probe_trials(probe_id, labels, c.states)
                for probe_id, labels, c in findings.admitted()
            ],
            findings.policy,
            findings.inputs,
            findings.gaps,
        )

    def artifacts(self) -> Iterator[tuple[str, dict[str, Any]]]:
        """``(relative path, evidence artifact)`` per admitted probe: ``<case>/<variant>.json``.

        Coverage gaps belong to the run, not to one probe: artifacts carry none, so
        that scoring a probe's sealed records reproduces its artifact (SPEC §7).
        """
        findings = self.findings
        for probe_id, labels, counted in findings.admitted():
            trials = probe_trials(probe_id, labels, counted.states)
            yield f"{probe_id}.json", evidence_artifact(trials, findings.policy, findings.inputs)

    def records(self) -> Iterator[tuple[str, dict[str, Any]]]:
        """``(relative path, sealed record)``: ``<case>/<variant>/trial-<i>.json``."""
        findings = self.findings
        for probe_id, labels, counted in findings.admitted():
            trials = probe_trials(probe_id, labels, counted.states)
            yield from build_trial_records(
                trials, findings.inputs.scoring_version, self.contract_digest
            )


def run_in(
    pool: Pool[CaseWork],
    corpus: Corpus,
    *,
    thresholds: Thresholds | None = None,
    progress: Progress | None = None,
) -> AuditResult:
    """:func:`run_audit` with the cases audited in ``pool`` (started here if it is not yet)."""
    pool.start(len(corpus.entries))
    interner = Interner()
    cases: list[CaseRecord] = []
    baselines: list[bytes] = []
    streamed = CorpusDigest()
    done, total = 0, corpus.variants
    entries = corpus.entries
    outcomes = pool.map(audit_case, entries, _AUDIT_BATCH, corpus.work(), corpus.worker_setup)
    for entry, outcome in zip(entries, outcomes, strict=True):
        streamed.add(outcome.item)
        baselines.append(bytes.fromhex(outcome.baseline_digest.removeprefix(_SHA256)))
        cases.append(interner.case(entry.id, outcome.record))
        done += len(outcome.record)
        if progress is not None:
            progress(done, total)
    pool.finish()
    # raw digests sort as their hex forms do, in half the memory
    fixture = digest([_SHA256 + baseline.hex() for baseline in sorted(baselines)])
    findings = summarize(
        corpus.contract, corpus.policy, tuple(cases), streamed.hexdigest(), fixture
    )
    chosen = thresholds if thresholds is not None else corpus.thresholds
    checks = tuple(
        check
        for check in (
            check_threshold("detection", chosen.detection, findings.detection.value),
            check_threshold("preservation", chosen.preservation, findings.preservation.value),
        )
        if check is not None
    )
    return AuditResult(findings, checks)


def run_audit(
    corpus: Corpus,
    *,
    jobs: int = 1,
    thresholds: Thresholds | None = None,
    progress: Progress | None = None,
) -> AuditResult:
    """Evaluate every eligible variant of a loaded corpus and sum up what was found.

    ``thresholds`` replaces audit.yaml's (the CLI merges its flags first). The
    result is the same, byte for byte, whatever ``jobs`` is.
    """
    with Pool[CaseWork](jobs, "audit") as pool:
        return run_in(pool, corpus, thresholds=thresholds, progress=progress)


def audit_directory(
    directory: Path | str,
    *,
    contract: Path | str | None = None,
    jobs: int = 1,
    allow_missing_rules: bool = False,
    detection: float | None = None,
    preservation: float | None = None,
    registry: Registry | None = None,
    progress: Progress | None = None,
) -> AuditResult:
    """Load the corpus in ``directory`` and audit it (the library form of ``textcontract audit``).

    ``detection`` / ``preservation`` override the thresholds of audit.yaml. One set
    of ``jobs`` processes reads, validates and evaluates.
    """
    with Pool[CaseWork](jobs, "audit") as pool:
        corpus = load_into(
            pool,
            Path(directory),
            display=str(directory),
            contract=None if contract is None else Path(contract),
            allow_missing_rules=allow_missing_rules,
            registry=registry,
        )
        return run_in(
            pool,
            corpus,
            thresholds=corpus.thresholds.overridden(detection, preservation),
            progress=progress,
        )
