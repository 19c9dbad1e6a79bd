"""``merge --corpus DIR``: what the parts of a sharded audit are checked against.

The corpus is loaded and validated as ``audit`` loads it (the same input errors, exit 2)
and preflighted — its baselines checked, never a trial — and its digests computed, so
that ``merge`` can compare every part's run and every record's labels with the case files
(:class:`~textcontract.audit.results.CorpusFacts`).
"""

from __future__ import annotations

from pathlib import Path

from textcontract._pool import Pool
from textcontract.audit.results import CorpusFacts, rule_severities
from textcontract.audit.running._case_passes import CaseWork
from textcontract.audit.running._corpus import load_into
from textcontract.audit.running._preflight import preflight_of
from textcontract.rules import Registry

__all__ = ["corpus_facts"]


def corpus_facts(
    directory: Path | str,
    *,
    contract: Path | str | None = None,
    allow_missing_rules: bool = False,
    registry: Registry | None = None,
    jobs: int = 1,
) -> CorpusFacts:
    """Load and preflight the corpus in ``directory`` (``contract`` overrides audit.yaml's,
    as for ``audit``); ``jobs`` processes read the cases and check the baselines."""
    with Pool[CaseWork](jobs, "merge") as pool:
        corpus = load_into(
            pool,
            Path(directory),
            display=str(directory),
            contract=None if contract is None else Path(contract),
            allow_missing_rules=allow_missing_rules,
            registry=registry,
        )
        preflight = preflight_of(pool, corpus, corpus.config.mode)
    return CorpusFacts(
        name=str(directory),
        preflight=preflight,
        contract=corpus.contract,
        policy=corpus.policy.report_json(),
        rules=rule_severities(corpus.contract),
        waivers=corpus.config.waivers,
    )
