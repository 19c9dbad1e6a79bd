"""Running an audit: the preflight, the audit pass over every case, then the figures,
strength and verdict.

The preflight (:mod:`~textcontract.audit.running._preflight`) comes first and a failed
one stops the audit before any trial. Cases are audited in case-id order (in worker
processes too, results merged in that order); each leaves a small record per variant
and its share of the corpus digests. Nothing else is held: the report is built, or written, from the
records when it is asked for.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from datetime import date
from functools import cached_property
from pathlib import Path
from typing import Any, Literal

from textcontract._pool import Pool
from textcontract.audit.reading import Thresholds, read_mode
from textcontract.audit.results import (
    CaseRecord,
    Findings,
    Interner,
    Preflight,
    ThresholdCheck,
    check_threshold,
    counted_trials,
    report_json,
    streamed_report,
    summarize,
)
from textcontract.audit.running._case_passes import CaseWork, audit_case
from textcontract.audit.running._corpus import Corpus, CorpusDigest, load_into
from textcontract.audit.running._preflight import PreflightFailed, preflight_of, run_preflight
from textcontract.canonical import digest
from textcontract.environment import git_source_revision, today_utc
from textcontract.errors import ExitCode
from textcontract.fields import FieldReader
from textcontract.rules import Registry
from textcontract.strength import (
    PRODUCTION,
    RunEvidence,
    SourceRevision,
    StrengthResult,
    Verdict,
    VerdictValue,
    build_trial_records,
    evidence_artifact,
    score_probes,
)

__all__ = [
    "AuditResult",
    "Progress",
    "SourceRevisionOption",
    "audit_directory",
    "preflight_directory",
    "run_audit",
    "run_in",
]

SourceRevisionOption = SourceRevision | Literal["auto"] | None
"""``--source-revision``: attested, read from git (``"auto"``), or not recorded."""

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
    preflight: Preflight | None = None
    """The preflight the audit ran first (it passed, or there would be no result)."""

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
    def invalid(self) -> bool:
        """The verdict is INVALID (a breached re-execution cap): no artifact, no record."""
        return self.verdict.value is VerdictValue.INVALID

    @property
    def passed(self) -> bool:
        """Every threshold met and the verdict neither FAIL nor INVALID (SPEC §8, exit 0)."""
        return self.verdict.value not in (VerdictValue.FAIL, VerdictValue.INVALID) and all(
            check.met for check in self.thresholds
        )

    @property
    def exit_code(self) -> ExitCode:
        if self.invalid:
            return ExitCode.INVALID
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
            [counted_trials(probe_id, labels, c) for probe_id, labels, c in findings.admitted()],
            findings.policy,
            findings.inputs,
            findings.gaps,
            evidence=findings.evidence,
        )

    def artifacts(self) -> Iterator[tuple[str, dict[str, Any]]]:
        """``(relative path, evidence artifact)`` per admitted probe: ``<case>/<variant>.json``.

        Coverage gaps belong to the run, not to one probe: artifacts carry none, so
        that scoring a probe's sealed records reproduces its artifact (SPEC §7). An
        INVALID run mints no artifact: nothing is yielded.
        """
        if self.invalid:
            return
        findings = self.findings
        for probe_id, labels, counted in findings.admitted():
            trials = counted_trials(probe_id, labels, counted)
            yield (
                f"{probe_id}.json",
                evidence_artifact(
                    trials, findings.policy, findings.inputs, evidence=findings.evidence
                ),
            )

    def records(self) -> Iterator[tuple[str, dict[str, Any]]]:
        """``(relative path, sealed record)``: ``<case>/<variant>/trial-<i>.json``.

        An INVALID run writes no record: nothing is yielded.
        """
        if self.invalid:
            return
        findings = self.findings
        for probe_id, labels, counted in findings.admitted():
            yield from build_trial_records(
                counted_trials(probe_id, labels, counted),
                findings.inputs.scoring_version,
                self.contract_digest,
                mode=findings.mode,
                recommendation=findings.evidence.recommendation,
            )


def _checked_mode(mode: str | None, corpus: Corpus) -> str:
    if mode is None:
        return corpus.config.mode
    reader = FieldReader(None)
    chosen = read_mode(reader, mode, ("--mode",))
    reader.raise_if_problems()
    return chosen


def _revision(source_revision: SourceRevisionOption, corpus: Corpus) -> SourceRevision | None:
    if source_revision == "auto":
        return git_source_revision(corpus.root, corpus.contract_path)
    return source_revision


def _audit_pass(
    pool: Pool[CaseWork], corpus: Corpus, progress: Progress | None
) -> tuple[tuple[CaseRecord, ...], str, str]:
    """Every case audited (the first pass's baseline verdicts reused): records and digests."""
    entries = corpus.entries
    interner = Interner()
    cases: list[CaseRecord] = []
    baselines: list[bytes] = []
    streamed = CorpusDigest()
    done, total = 0, corpus.variants
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
    return tuple(cases), streamed.hexdigest(), fixture


def _threshold_checks(chosen: Thresholds, findings: Findings) -> tuple[ThresholdCheck, ...]:
    return tuple(
        check
        for check in (
            check_threshold("detection", chosen.detection, findings.detection.value),
            check_threshold("preservation", chosen.preservation, findings.preservation.value),
        )
        if check is not None
    )


def run_in(
    pool: Pool[CaseWork],
    corpus: Corpus,
    *,
    thresholds: Thresholds | None = None,
    progress: Progress | None = None,
    mode: str | None = None,
    as_of: date | None = None,
    source_revision: SourceRevisionOption = None,
) -> AuditResult:
    """:func:`run_audit` with the cases audited in ``pool`` (started here if it is not yet)."""
    chosen_mode = _checked_mode(mode, corpus)
    pool.start(len(corpus.entries))
    planned = preflight_of(pool, corpus, chosen_mode, ("", ""))
    if not planned.passed:  # the digests it prints need one more read of the cases
        raise PreflightFailed(preflight_of(pool, corpus, chosen_mode))
    waivers = corpus.config.waivers
    day = (as_of if as_of is not None else today_utc()) if waivers else None
    revision = _revision(source_revision, corpus)
    cases, corpus_digest, fixture = _audit_pass(pool, replace(corpus, as_of=day), progress)
    preflight = replace(planned, corpus_digest=corpus_digest, fixture_digest=fixture)
    evidence = RunEvidence(
        recommendation=preflight.recommendation.value if chosen_mode == PRODUCTION else None,
        waivers=waivers,
        as_of=day,
        preflight_digest=preflight.digest,
        source_revision=revision,
    )
    findings = summarize(
        corpus.contract,
        corpus.policy,
        cases,
        corpus_digest,
        fixture,
        mode=chosen_mode,
        evidence=evidence,
    )
    chosen = thresholds if thresholds is not None else corpus.thresholds
    return AuditResult(findings, _threshold_checks(chosen, findings), preflight)


def run_audit(
    corpus: Corpus,
    *,
    jobs: int = 1,
    thresholds: Thresholds | None = None,
    progress: Progress | None = None,
    mode: str | None = None,
    as_of: date | None = None,
    source_revision: SourceRevisionOption = None,
) -> AuditResult:
    """Preflight a loaded corpus, then evaluate every eligible variant and sum up.

    ``thresholds`` replaces audit.yaml's (the CLI merges its flags first); ``mode``
    replaces audit.yaml's ``mode:``; ``as_of`` is the date waivers are judged on
    (default: today, UTC, read only when waivers are declared); ``source_revision``
    is recorded (``"auto"`` reads git). A failed preflight raises
    :class:`PreflightFailed` before any trial. The result is the same, byte for
    byte, whatever ``jobs`` is.
    """
    with Pool[CaseWork](jobs, "audit") as pool:
        return run_in(
            pool,
            corpus,
            thresholds=thresholds,
            progress=progress,
            mode=mode,
            as_of=as_of,
            source_revision=source_revision,
        )


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
    mode: str | None = None,
    as_of: date | None = None,
    source_revision: SourceRevisionOption = None,
) -> AuditResult:
    """Load the corpus in ``directory`` and audit it (the library form of ``textcontract audit``).

    ``detection`` / ``preservation`` override the thresholds of audit.yaml; ``mode``,
    ``as_of`` and ``source_revision`` are as for :func:`run_audit`. One set of ``jobs``
    processes reads, validates, preflights and evaluates.
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
            mode=mode,
            as_of=as_of,
            source_revision=source_revision,
        )


def preflight_directory(
    directory: Path | str,
    *,
    contract: Path | str | None = None,
    jobs: int = 1,
    allow_missing_rules: bool = False,
    registry: Registry | None = None,
    mode: str | None = None,
) -> Preflight:
    """Load the corpus in ``directory`` and preflight it (``textcontract preflight``).

    Loads and validates everything :func:`audit_directory` would (the same input
    errors), then checks baselines only — never a trial.
    """
    with Pool[CaseWork](jobs, "preflight") as pool:
        corpus = load_into(
            pool,
            Path(directory),
            display=str(directory),
            contract=None if contract is None else Path(contract),
            allow_missing_rules=allow_missing_rules,
            registry=registry,
        )
        return run_preflight(pool, corpus, _checked_mode(mode, corpus))
