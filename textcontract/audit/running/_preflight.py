"""The preflight (SPEC §17.3): baselines only, never a trial.

Each case's plan — its baseline checked twice, its variants' eligibility, and for every
expectation of an eligible violation whether the baseline already violates it — is made
in the first pass (:mod:`~textcontract.audit.running._planning`). The verdict also names
the corpus and fixture digests: an audit computes them in its audit pass, and a preflight
that stops the audit, or ``textcontract preflight``, in a pass that reads the cases again
in case-id order and checks nothing.
"""

from __future__ import annotations

from textcontract._pool import Pool
from textcontract.audit.results import CasePlan, Preflight
from textcontract.audit.running._case_passes import (
    CaseEntry,
    CaseWork,
    raise_baseline,
    read_checked,
)
from textcontract.audit.running._corpus import Corpus, CorpusDigest
from textcontract.canonical import digest
from textcontract.errors import ExitCode, TextcontractError

__all__ = ["PreflightFailed", "preflight_of", "run_preflight"]

_DIGEST_BATCH = 8
"""Cases per batch sent to a worker when only the digests are needed."""


class PreflightFailed(TextcontractError):
    """The audit stops before any trial: its preflight verdict failed (exit 5)."""

    exit_code = ExitCode.INVALID

    def __init__(self, preflight: Preflight) -> None:
        self.preflight = preflight
        failed = [check["subject"] for check in preflight.checks() if check["outcome"] == "failed"]
        shown = ", ".join(failed[:3]) + (f" and {len(failed) - 3} more" if len(failed) > 3 else "")
        super().__init__(f"preflight failed: {shown}")

    def __reduce__(self) -> tuple[type[PreflightFailed], tuple[Preflight]]:
        # raised in a Dask worker, it travels back pickled: with its verdict, not its message
        return (PreflightFailed, (self.preflight,))


def _plans(corpus: Corpus) -> tuple[CasePlan, ...]:
    """Every case's plan; a baseline whose check raised in the first pass raises now."""
    plans = []
    for entry in corpus.entries:
        if entry.plan is None:
            raise_baseline(corpus.work(), entry)
        assert entry.plan is not None
        plans.append(entry.plan)
    return tuple(plans)


def preflight_of(
    pool: Pool[CaseWork],
    corpus: Corpus,
    mode: str,
    digests: tuple[str, str] | None = None,
) -> Preflight:
    """The preflight verdict of a loaded corpus; ``digests`` (corpus, fixture) when known."""
    plans = _plans(corpus)
    corpus_digest, fixture_digest = digests if digests is not None else _digests(pool, corpus)
    return Preflight(
        contract=corpus.contract.ref,
        corpus_digest=corpus_digest,
        fixture_digest=fixture_digest,
        policy_digest=corpus.policy.digest,
        mode=mode,
        cases=plans,
    )


def _case_digest(work: CaseWork, entry: CaseEntry) -> tuple[bytes, str]:
    case, _, item = read_checked(work, entry)
    return item, case.baseline_digest


def _digests(pool: Pool[CaseWork], corpus: Corpus) -> tuple[str, str]:
    """The corpus and fixture digests, from the cases read again in case-id order."""
    pool.start(len(corpus.entries))
    streamed = CorpusDigest()
    baselines = []
    found = pool.map(
        _case_digest, corpus.entries, _DIGEST_BATCH, corpus.work(), corpus.worker_setup
    )
    for item, baseline in found:
        streamed.add(item)
        baselines.append(baseline)
    return streamed.hexdigest(), digest(sorted(baselines))


def run_preflight(pool: Pool[CaseWork], corpus: Corpus, mode: str) -> Preflight:
    """The preflight of a loaded corpus, as ``textcontract preflight`` prints it."""
    return preflight_of(pool, corpus, mode)
