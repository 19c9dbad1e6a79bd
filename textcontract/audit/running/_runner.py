"""Running an audit: the second pass over every case, then the figures, strength and verdict.

Cases are audited in case-id order (in worker processes too, results merged in
that order); each leaves a small record per variant and its share of the corpus
digests. Nothing else is held: the report is built, or written, from the
records when it is asked for.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

from textcontract.audit.reading import Thresholds
from textcontract.audit.results import (
    CaseRecord,
    Findings,
    Interner,
    Part,
    Shard,
    ThresholdCheck,
    check_threshold,
    merge_parts,
    probe_trials,
    report_json,
    rule_severities,
    shard_block,
    streamed_report,
    summarize,
)
from textcontract.audit.running._case_passes import CaseTask, CaseWork, audit_case
from textcontract.audit.running._corpus import Corpus, CorpusDigest, load_into
from textcontract.audit.running._pool import Pool
from textcontract.audit.running._result_cache import CorpusDigests, read_corpus, write_corpus
from textcontract.canonical import digest
from textcontract.errors import ExitCode
from textcontract.model import Severity
from textcontract.rules import Registry
from textcontract.strength import (
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
    "audit_directory",
    "merge_audit",
    "run_audit",
    "run_in",
]

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
    def passed(self) -> bool:
        """Every threshold met and the verdict is not FAIL (SPEC §8, exit 0)."""
        return self.verdict.value is not VerdictValue.FAIL and all(
            check.met for check in self.thresholds
        )

    @property
    def exit_code(self) -> ExitCode:
        """0 or 1 as SPEC §8 says; a shard's part always 0 (``merge`` judges the whole)."""
        return ExitCode.OK if self.passed or self.partial is not None else ExitCode.FAILED

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


def _tasks(corpus: Corpus, shard: Shard | None, known: CorpusDigests | None) -> list[CaseTask]:
    """The second pass's work: every case of the shard; the others only for the digests."""
    tasks = []
    for entry in corpus.entries:
        inside = shard is None or shard.holds(entry.id)
        if inside or known is None:
            tasks.append(CaseTask(entry, evaluate=inside, item=known is None))
    return tasks


def run_in(
    pool: Pool[CaseWork],
    corpus: Corpus,
    *,
    thresholds: Thresholds | None = None,
    progress: Progress | None = None,
    shard: Shard | None = None,
) -> AuditResult:
    """:func:`run_audit` with the cases audited in ``pool`` (started here if it is not yet)."""
    folder = corpus.cache_folder()
    fingerprints = [entry.fingerprint for entry in corpus.entries]
    known = None if folder is None else read_corpus(folder, fingerprints)
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
        if folder is not None:
            write_corpus(folder, fingerprints, known)
    findings = summarize(corpus.contract, corpus.policy, tuple(cases), known.corpus, known.fixture)
    chosen = thresholds if thresholds is not None else corpus.thresholds
    checks = _threshold_checks(findings, chosen.detection, chosen.preservation)
    partial = None
    if shard is not None:
        partial = Partial(shard, len(corpus.entries), rule_severities(corpus.contract))
    counts = None if folder is None else CacheCounts(hits, misses)
    return AuditResult(findings, checks, counts, partial)


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


def merge_audit(
    parts: Sequence[Part], *, detection: float | None = None, preservation: float | None = None
) -> AuditResult:
    """The result of a sharded audit from its part files (SPEC §16); ``detection`` and
    ``preservation`` override the thresholds the parts were run with."""
    merged = merge_parts(parts)
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
    shard: Shard | None = None,
) -> AuditResult:
    """Evaluate every eligible variant of a loaded corpus and sum up what was found.

    ``thresholds`` replaces audit.yaml's (the CLI merges its flags first). The
    result is the same, byte for byte, whatever ``jobs`` is. With ``shard``, only the
    shard's cases are evaluated and the result is a part (``textcontract merge``).
    """
    with Pool[CaseWork](jobs) as pool:
        return run_in(pool, corpus, thresholds=thresholds, progress=progress, shard=shard)


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
    cache: Path | str | None = None,
    shard: Shard | None = None,
) -> AuditResult:
    """Load the corpus in ``directory`` and audit it (the library form of ``textcontract audit``).

    ``detection`` / ``preservation`` override the thresholds of audit.yaml. One set
    of ``jobs`` processes reads, validates and evaluates. ``cache`` is a cache folder
    (SPEC §13, created when missing); ``shard`` makes the result a part file's (SPEC §16).
    """
    with Pool[CaseWork](jobs) as pool:
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
            shard=shard,
        )
