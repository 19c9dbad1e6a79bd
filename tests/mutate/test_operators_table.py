"""Every operator on every baseline of the table: labels as SPEC §14 says, targets that exist,
and trials that the audit's own loader rebuilds exactly from the case file written."""

from __future__ import annotations

from pathlib import Path

import pytest

from textcontract.mutate import BUILTIN_OPERATORS, OperatorClass, generate_case

from .baselines import Table, baselines, canonical, loaded_trials, write_corpus

TABLE = baselines()
NAMES = [operator.name for operator in BUILTIN_OPERATORS]

# How many variants each operator makes of each baseline; an operator missing from a row
# makes none there (and names why on stderr).
COUNTS = {
    "orders": {
        "fact-flip": 1, "claim-perturb": 4, "claim-retype": 5, "forbidden-inject": 3,
        "forbidden-disguise": 3, "required-delete": 3, "empty-surface": 1, "refusal": 1,
        "keyword-stuffing": 1, "history-replay": 1, "link-lookalike": 4,
        "reflow-whitespace": 1, "trailing-newline": 1, "code-wrap": 6, "emphasis-toggle": 1,
    },
    "rich": {
        "fact-flip": 6, "fact-retype": 2, "claim-perturb": 3, "claim-retype": 4,
        "claim-from-other-snapshot": 2, "no-op-transition": 1, "forbidden-inject": 5,
        "forbidden-disguise": 9, "required-delete": 4, "empty-surface": 2, "refusal": 2,
        "keyword-stuffing": 2, "restate-source": 1, "history-replay": 1, "link-lookalike": 2,
        "reflow-whitespace": 1, "unicode-nfd": 1, "smart-quotes": 1, "trailing-newline": 1,
    },
    "rendered": {
        "fact-flip": 1, "claim-perturb": 4, "claim-retype": 5, "link-lookalike": 4,
        "anchor-edit": 4,
    },
    "french": {
        "forbidden-inject": 1, "forbidden-disguise": 3, "empty-surface": 1, "refusal": 1,
        "keyword-stuffing": 1, "unicode-nfd": 1, "smart-quotes": 1, "trailing-newline": 1,
    },
}  # fmt: skip


@pytest.mark.parametrize("operator", NAMES)
@pytest.mark.parametrize("table", TABLE, ids=lambda table: table.name)
def test_operator_on_baseline(tmp_path: Path, table: Table, operator: str) -> None:
    case = generate_case(
        table.document, table.context, table.contract, "case-1", operators=[operator]
    )
    if table.name in COUNTS:
        assert len(case.variants) == COUNTS[table.name].get(operator, 0)
    if not case.variants:
        assert case.idle_operators == (operator,)
        assert any(skipped.operator == operator for skipped in case.skipped)
        return
    kind = BUILTIN_OPERATORS[NAMES.index(operator)]
    baseline = canonical(table.document, table.context)
    for variant in case.variants:
        assert canonical(variant.document, variant.context) != baseline
        if kind.probe_class is OperatorClass.PRESERVE:
            assert variant.expect == ()
            continue
        (expectation,) = variant.expect
        entry = table.contract.entry(expectation.rule)
        assert entry is not None
        assert entry.rule.header.type in kind.targets
    rebuilt = {
        variant: canonical(trial.document, trial.context)
        for _, variant, (trial,) in loaded_trials(
            write_corpus(tmp_path / "corpus", table.contract_text, [case])
        )
    }
    assert rebuilt == {v.id: canonical(v.document, v.context) for v in case.variants}


def test_every_operator_makes_variants_of_some_baseline() -> None:
    assert set(COUNTS["rich"]) | set(COUNTS["rendered"]) | set(COUNTS["orders"]) == set(NAMES)
