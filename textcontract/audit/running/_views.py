"""The documents behind an audit report: each variant's baseline and trials, case by case.

The audit report names variants but holds no text. A report a person reads (``audit
--format html``) shows each variant's change against its baseline, and annotations
(``--format github``) point at the line where a variant is written. :func:`variant_views`
reads a loaded corpus again, one case at a time — as the audit's second pass does, with the
same fingerprint check — and yields what those renderers need, so that no more than one
case's documents is held at once.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from textcontract.audit.reading import Trial
from textcontract.audit.running._case_passes import CaseEntry, CaseWork, case_item
from textcontract.audit.running._corpus import Corpus, CorpusDigest
from textcontract.errors import InternalError, Problem

__all__ = ["VariantView", "variant_views"]


@dataclass(frozen=True)
class VariantView:
    """One variant with the (document, context) pairs it is checked on, and where it is written."""

    case: str
    variant: str
    file: str
    """The case file as the audit names it (the corpus folder as given, then the file)."""
    line: int | None
    """The line of the case file where the variant's entry starts."""
    labels: Mapping[str, Any]
    """The variant's labels and expectations as written (``Variant.labels_json``)."""
    baseline: Trial
    trials: tuple[Trial, ...]

    def to_json(self) -> dict[str, Any]:
        """Plain JSON for renderers: canonical documents and contexts (SPEC §2)."""
        return {
            "case": self.case,
            "variant": self.variant,
            "file": self.file,
            "line": self.line,
            "labels": dict(self.labels),
            "baseline": self.baseline.to_json(),
            "trials": [trial.to_json() for trial in self.trials],
        }


def _changed(display: str) -> InternalError:
    return InternalError(
        f"{display} (or a file it names) changed since the audit read it; run the audit again"
    )


def _case_views(
    corpus: Corpus, work: CaseWork, entry: CaseEntry, digest: CorpusDigest
) -> list[VariantView]:
    problems: list[Problem] = []
    case = work.read(entry.file, problems)
    if case is None or problems:
        raise _changed(work.display(entry.file))
    trials = [corpus.trials(case, variant) for variant in case.variants]
    item = case_item(case, trials)
    if hashlib.sha256(item).digest() != entry.fingerprint:
        raise _changed(work.display(entry.file))
    digest.add(item)
    baseline = Trial(case.document, case.context)
    return [
        VariantView(
            case.id,
            variant.id,
            case.file,
            variant.location.line,
            variant.labels_json(),
            baseline,
            tuple(built),
        )
        for variant, built in zip(case.variants, trials, strict=True)
    ]


def variant_views(corpus: Corpus, expected_digest: str | None = None) -> Iterator[VariantView]:
    """Every variant of ``corpus``, in report order (cases by id, variants in file order).

    Each case file is read again and must still be the file the corpus validated. With
    ``expected_digest`` (an audit report's ``corpus.digest``), the corpus read now must be
    the one that audit measured: :class:`InternalError` after the last case otherwise.
    """
    work = corpus.work()
    digest = CorpusDigest()
    for entry in corpus.entries:
        yield from _case_views(corpus, work, entry, digest)
    if expected_digest is not None and digest.hexdigest() != expected_digest:
        raise InternalError(
            f"the corpus in {corpus.display} is not the one the audit measured "
            f"(digest {digest.hexdigest()}, the report has {expected_digest}); run the audit again"
        )
