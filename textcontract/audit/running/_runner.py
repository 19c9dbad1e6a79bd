"""Running an audit: the preflight, the audit pass over every case, then the figures,
strength and verdict.

The preflight (:mod:`~textcontract.audit.running._preflight`) comes first and a failed
one stops the audit before any trial. Cases are audited in case-id order (in worker
processes too, results merged in that order); each leaves a small record per variant
and its share of the corpus digests. Nothing else is held: the report is built, or
written, from the records when it is asked for.

A sharded run (SPEC §16) loads and preflights the whole corpus — every shard checks
every baseline, so every shard's preflight is the whole corpus's — and evaluates the
trials of its own cases only; its report is a part file for ``merge``. With a cache
(SPEC §13), a case's records, or its rules' results, may come from an earlier run.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from datetime import date
from functools import cached_property
from pathlib import Path
from typing import Any, Literal

from textcontract._engine import engine_json
from textcontract._pool import Pool
from textcontract.audit.reading import Thresholds, read_mode
from textcontract.audit.results import (
    CaseRecord,
    CorpusFacts,
    Findings,
    Interner,
    Part,
    Preflight,
    Shard,
    ThresholdCheck,
    check_threshold,
    counted_trials,
    merge_parts,
    report_json,
    rule_severities,
    shard_block,
    streamed_report,
    summarize,
)
from textcontract.audit.running._case_passes import CaseTask, CaseWork, audit_case
from textcontract.audit.running._corpus import Corpus, CorpusDigest, load_into
from textcontract.audit.running._preflight import PreflightFailed, preflight_of, run_preflight
from textcontract.audit.running._result_cache import CorpusDigests, read_corpus, write_corpus
from textcontract.canonical import digest
from textcontract.environment import git_source_revision, today_utc
from textcontract.errors import ExitCode
from textcontract.fields import FieldReader
from textcontract.model import Severity
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
    "CacheCounts",
    "Partial",
    "Progress",
    "SourceRevisionOption",
    "audit_directory",
    "merge_audit",
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
class CacheCounts:
    """Rule evaluations on baselines and trials: found in the cache, or computed."""

    hits: int
    misses: int

    def to_json(self) -> dict[str, int]:
        return {"hits": self.hits, "misses": self.misses}


@dataclass(frozen=True)
class Partial:
    """What a shard's part file adds to its report (SPEC §16)."""

    shard: Shard
    cases_in_corpus: int
    rules: tuple[tuple[str, Severity], ...]

    def block(self, result: AuditResult) -> dict[str, Any]:
        thresholds: dict[str, float | None] = {"detection": None, "preservation": None}
        for check in result.thresholds:
            thresholds[check.figure] = check.minimum
        return shard_block(
            self.shard, self.cases_in_corpus, self.rules, thresholds, result.findings.cases
        )


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
    cache: CacheCounts | None = None
    """``audit --cache``: how many rule evaluations came from the cache."""
    partial: Partial | None = None
    """``audit --shard``: the report is a part file."""

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
        """0, 1 or 5 as SPEC §8 and §17 say; a shard's part always 0 (``merge`` judges the
        whole)."""
        if self.partial is not None:
            return ExitCode.OK
        if self.invalid:
            return ExitCode.INVALID
        return ExitCode.OK if self.passed else ExitCode.FAILED

    @cached_property
    def report(self) -> dict[str, Any]:
        """The audit report (SPEC §6) as a JSON-ready dict."""
        report = self._extended(report_json(self.findings))
        if "shard" in report:
            report["shard"] = {**report["shard"], "cases": list(report["shard"]["cases"])}
        return report

    def streamed_report(self) -> dict[str, Any]:
        """The report with its long lists as one-pass iterators, built as they are read.

        ``textcontract.formats.json_text.write_pretty`` writes it as ``--format json``
        prints it, without holding the report or its text.
        """
        return self._extended(streamed_report(self.findings))

    def _extended(self, report: dict[str, Any]) -> dict[str, Any]:
        """The report with the ``shard`` and ``cache`` blocks last, when they apply."""
        if self.partial is not None:
            report["shard"] = self.partial.block(self)
        if self.cache is not None:
            report["cache"] = self.cache.to_json()
        return report

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


def _tasks(corpus: Corpus, shard: Shard | None, known: CorpusDigests | None) -> list[CaseTask]:
    """The audit pass's work: every case of the shard; the others only for the digests."""
    tasks = []
    for entry in corpus.entries:
        inside = shard is None or shard.holds(entry.id)
        if inside or known is None:
            tasks.append(CaseTask(entry, evaluate=inside, item=known is None))
    return tasks


@dataclass(frozen=True)
class _Audited:
    """What the audit pass leaves: the records, the corpus digests and the cache counts."""

    cases: tuple[CaseRecord, ...]
    digests: CorpusDigests
    hits: int
    misses: int


def _audit_pass(
    pool: Pool[CaseWork],
    corpus: Corpus,
    progress: Progress | None,
    shard: Shard | None,
    known: CorpusDigests | None,
) -> _Audited:
    """Every case of the shard audited (the first pass's baseline verdicts reused), and the
    corpus digests from every case unless ``known``."""
    tasks = _tasks(corpus, shard, known)
    pool.start(len(tasks))
    interner = Interner()
    cases: list[CaseRecord] = []
    baselines: list[bytes] = []
    streamed = CorpusDigest()
    hits = misses = done = 0
    total = sum(task.entry.variants for task in tasks if task.evaluate)
    outcomes = pool.map(audit_case, tasks, _AUDIT_BATCH, corpus.work(), corpus.worker_setup)
    for task, outcome in zip(tasks, outcomes, strict=True):
        if outcome.item is not None:
            streamed.add(outcome.item)
            baselines.append(bytes.fromhex(outcome.baseline_digest.removeprefix(_SHA256)))
        if outcome.record is not None:
            cases.append(interner.case(task.entry.id, outcome.record))
            done += len(outcome.record)
        hits, misses = hits + outcome.hits, misses + outcome.misses
        if progress is not None and task.evaluate:
            progress(done, total)
    pool.finish()
    if known is None:
        # raw digests sort as their hex forms do, in half the memory
        fixture = digest([_SHA256 + baseline.hex() for baseline in sorted(baselines)])
        known = CorpusDigests(streamed.hexdigest(), fixture)
    return _Audited(tuple(cases), known, hits, misses)


def _threshold_checks(
    findings: Findings, detection: float | None, preservation: float | None
) -> tuple[ThresholdCheck, ...]:
    return tuple(
        check
        for check in (
            check_threshold("detection", detection, findings.detection.value),
            check_threshold("preservation", preservation, findings.preservation.value),
        )
        if check is not None
    )


def _preflight(pool: Pool[CaseWork], corpus: Corpus, mode: str) -> Preflight:
    """The preflight of the first pass's plans (digests still blank); a failed one raises."""
    pool.start(len(corpus.entries))
    planned = preflight_of(pool, corpus, mode, ("", ""))
    if not planned.passed:  # the digests it prints need one more read of the cases
        raise PreflightFailed(preflight_of(pool, corpus, mode))
    return planned


def run_in(
    pool: Pool[CaseWork],
    corpus: Corpus,
    *,
    thresholds: Thresholds | None = None,
    progress: Progress | None = None,
    mode: str | None = None,
    as_of: date | None = None,
    source_revision: SourceRevisionOption = None,
    shard: Shard | None = None,
) -> AuditResult:
    """:func:`run_audit` with the cases audited in ``pool`` (started here if it is not yet)."""
    chosen_mode = _checked_mode(mode, corpus)
    planned = _preflight(pool, corpus, chosen_mode)
    waivers = corpus.config.waivers
    day = (as_of if as_of is not None else today_utc()) if waivers else None
    revision = _revision(source_revision, corpus)
    folder = corpus.cache_folder()
    fingerprints = [entry.fingerprint for entry in corpus.entries]
    known = None if folder is None else read_corpus(folder, fingerprints)
    audited = _audit_pass(pool, replace(corpus, as_of=day), progress, shard, known)
    digests = audited.digests
    if folder is not None and known is None:
        write_corpus(folder, fingerprints, digests)
    preflight = replace(planned, corpus_digest=digests.corpus, fixture_digest=digests.fixture)
    evidence = RunEvidence(
        recommendation=preflight.recommendation.value if chosen_mode == PRODUCTION else None,
        waivers=waivers,
        as_of=day,
        preflight_digest=preflight.digest,
        source_revision=revision,
        engine=engine_json(corpus.contract.icu_version),
    )
    findings = summarize(
        corpus.contract,
        corpus.policy,
        audited.cases,
        digests.corpus,
        digests.fixture,
        mode=chosen_mode,
        evidence=evidence,
    )
    chosen = thresholds if thresholds is not None else corpus.thresholds
    checks = _threshold_checks(findings, chosen.detection, chosen.preservation)
    partial = None
    if shard is not None:
        partial = Partial(shard, len(corpus.entries), rule_severities(corpus.contract))
    counts = None
    if folder is not None:
        hits, misses = corpus.baseline_cache
        counts = CacheCounts(hits + audited.hits, misses + audited.misses)
    return AuditResult(findings, checks, preflight, counts, partial)


def merge_audit(
    parts: Sequence[Part],
    *,
    detection: float | None = None,
    preservation: float | None = None,
    corpus: CorpusFacts | None = None,
) -> AuditResult:
    """The result of a sharded audit from its part files (SPEC §16); ``detection`` and
    ``preservation`` override the thresholds the parts were run with. Every part is
    checked against itself, and against ``corpus`` when given (SPEC §22)."""
    merged = merge_parts(parts, corpus)
    chosen = Thresholds(merged.thresholds["detection"], merged.thresholds["preservation"])
    chosen = chosen.overridden(detection, preservation)
    checks = _threshold_checks(merged.findings, chosen.detection, chosen.preservation)
    return AuditResult(merged.findings, checks)


def run_audit(
    corpus: Corpus,
    *,
    jobs: int = 1,
    thresholds: Thresholds | None = None,
    progress: Progress | None = None,
    mode: str | None = None,
    as_of: date | None = None,
    source_revision: SourceRevisionOption = None,
    shard: Shard | None = None,
) -> AuditResult:
    """Preflight a loaded corpus, then evaluate every eligible variant and sum up.

    ``thresholds`` replaces audit.yaml's (the CLI merges its flags first); ``mode``
    replaces audit.yaml's ``mode:``; ``as_of`` is the date waivers are judged on
    (default: today, UTC, read only when waivers are declared); ``source_revision``
    is recorded (``"auto"`` reads git). A failed preflight raises
    :class:`PreflightFailed` before any trial. The result is the same, byte for
    byte, whatever ``jobs`` is. With ``shard``, only the shard's cases are evaluated
    and the result is a part (``textcontract merge``).
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
            shard=shard,
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
    cache: Path | str | None = None,
    shard: Shard | None = None,
) -> AuditResult:
    """Load the corpus in ``directory`` and audit it (the library form of ``textcontract audit``).

    ``detection`` / ``preservation`` override the thresholds of audit.yaml; ``mode``,
    ``as_of`` and ``source_revision`` are as for :func:`run_audit`. One set of ``jobs``
    processes reads, validates, preflights and evaluates. ``cache`` is a cache folder
    (SPEC §13, created when missing); ``shard`` makes the result a part file's (SPEC §16).
    """
    with Pool[CaseWork](jobs, "audit") as pool:
        corpus = load_into(
            pool,
            Path(directory),
            display=str(directory),
            contract=None if contract is None else Path(contract),
            allow_missing_rules=allow_missing_rules,
            registry=registry,
            cache=None if cache is None else Path(cache),
        )
        return run_in(
            pool,
            corpus,
            thresholds=corpus.thresholds.overridden(detection, preservation),
            progress=progress,
            mode=mode,
            as_of=as_of,
            source_revision=source_revision,
            shard=shard,
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
