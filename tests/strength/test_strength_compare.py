"""``compare``: gates, component-wise dominance and the severity-floor override."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.strength.strength_builders import (
    CAUGHT,
    MISSED,
    audit_report,
    policy,
    probe_trials,
    scored,
)
from textcontract.errors import InputError
from textcontract.model import Severity
from textcontract.strength import OutcomeState, ProbeClass, ProbeTrials, compare

GAME = ProbeClass.GAMEABILITY
LOW = Severity.LOW
CRITICAL = Severity.CRITICAL


def run(*probes: ProbeTrials, **policy_fields: Any) -> dict[str, Any]:
    return audit_report(scored(probes, policy(**policy_fields)))


def relation(a: dict[str, Any], b: dict[str, Any]) -> tuple[str, list[str]]:
    result = compare(("a.json", a), ("b.json", b))
    assert list(result) == ["relation", "reasons", "caveats"]
    assert result["caveats"] == []
    return result["relation"], result["reasons"]


def p(probe_id: str, *states: OutcomeState, **kw: Any) -> ProbeTrials:
    return probe_trials(probe_id, list(states), severity=kw.pop("severity", LOW), **kw)


def test_higher_rate_in_one_class_and_no_loss_dominates() -> None:
    a = run(p("d/1", CAUGHT), p("d/2", CAUGHT), p("g/1", CAUGHT, probe_class=GAME))
    b = run(p("d/1", CAUGHT), p("d/2", MISSED), p("g/1", CAUGHT, probe_class=GAME))
    assert relation(a, b) == (
        "a-dominates-b",
        [
            "higher-in-a: defect (2/2 vs 1/2)",
            "same-counts: gameability (1/1)",
            "not-contributing: zero-action (no exercised probe in a and b)",
        ],
    )
    assert relation(b, a)[0] == "b-dominates-a"


def test_identical_counts_are_equivalent() -> None:
    a = run(p("d/1", CAUGHT), p("d/2", MISSED))
    b = run(p("d/1", MISSED), p("d/2", CAUGHT))
    assert relation(a, b) == (
        "equivalent",
        [
            "same-counts: defect (1/2)",
            "not-contributing: gameability (no exercised probe in a and b)",
            "not-contributing: zero-action (no exercised probe in a and b)",
        ],
    )


def test_equal_rates_with_different_counts_are_incomparable() -> None:
    a = run(
        p("d/1", CAUGHT),
        p("d/2", MISSED),
        p("d/3", OutcomeState.NOT_APPLICABLE),
        p("d/4", OutcomeState.NOT_APPLICABLE),
    )
    b = run(p("d/1", CAUGHT), p("d/2", MISSED), p("d/3", CAUGHT), p("d/4", MISSED))
    name, reasons = relation(a, b)
    assert name == "incomparable"
    assert reasons[0] == "equal-rate-different-counts: defect (1/2 vs 2/4)"


def test_an_equal_rate_is_neither_win_nor_loss_beside_a_win() -> None:
    a = run(
        p("d/1", CAUGHT),
        p("d/2", MISSED),
        p("d/3", OutcomeState.NOT_APPLICABLE),
        p("d/4", OutcomeState.NOT_APPLICABLE),
        p("g/1", CAUGHT, probe_class=GAME),
    )
    b = run(
        p("d/1", CAUGHT),
        p("d/2", MISSED),
        p("d/3", CAUGHT),
        p("d/4", MISSED),
        p("g/1", MISSED, probe_class=GAME),
    )
    assert relation(a, b)[0] == "a-dominates-b"


def test_each_side_winning_a_class_is_incomparable() -> None:
    a = run(p("d/1", CAUGHT), p("g/1", MISSED, probe_class=GAME))
    b = run(p("d/1", MISSED), p("g/1", CAUGHT, probe_class=GAME))
    assert relation(a, b) == (
        "incomparable",
        [
            "higher-in-a: defect (1/1 vs 0/1)",
            "higher-in-b: gameability (0/1 vs 1/1)",
            "not-contributing: zero-action (no exercised probe in a and b)",
        ],
    )


def test_no_class_contributing_is_incomparable() -> None:
    a = run(p("d/1", CAUGHT))
    b = run(p("d/1", OutcomeState.NOT_APPLICABLE))
    name, reasons = relation(a, b)
    assert name == "incomparable"
    assert reasons[:2] == [
        "no-contributing-class",
        "not-contributing: defect (no exercised probe in b)",
    ]


def test_severity_floor_override_drops_dominance_to_incomparable() -> None:
    # a wins on rate (3/4 vs 2/4) but misses the one critical probe that b catches
    a = run(
        p("d/1", CAUGHT), p("d/2", CAUGHT), p("d/3", CAUGHT), p("d/4", MISSED, severity=CRITICAL)
    )
    b = run(
        p("d/1", MISSED),
        p("d/2", MISSED),
        p("d/3", OutcomeState.NOT_APPLICABLE),
        p("d/4", CAUGHT, severity=CRITICAL),
    )
    name, reasons = relation(a, b)
    assert name == "incomparable"
    assert reasons[0] == "higher-in-a: defect (3/4 vs 1/3)"
    assert reasons[-1] == "severity-floor-override: d/4 (critical; caught in b, not in a)"


def test_the_override_never_inverts_dominance() -> None:
    a = run(p("d/1", CAUGHT), p("d/2", CAUGHT), p("d/3", MISSED, severity=CRITICAL))
    b = run(p("d/1", MISSED), p("d/2", MISSED), p("d/3", CAUGHT, severity=CRITICAL))
    assert relation(a, b)[0] == "incomparable"
    assert relation(b, a)[0] == "incomparable"


def test_the_override_ignores_probes_below_the_floor_and_unexercised_counts_as_not_caught() -> None:
    below = run(p("d/1", CAUGHT), p("d/2", CAUGHT), p("d/3", MISSED))
    other = run(p("d/1", MISSED), p("d/2", MISSED), p("d/3", CAUGHT))
    assert relation(below, other)[0] == "a-dominates-b"
    unexercised = run(
        p("d/1", CAUGHT), p("d/2", CAUGHT), p("d/3", OutcomeState.ORACLE_ERROR, severity=CRITICAL)
    )
    caught_it = run(p("d/1", MISSED), p("d/2", MISSED), p("d/3", CAUGHT, severity=CRITICAL))
    # a 2/2 vs b 1/3: a wins on rate, yet it never exercised the critical probe b caught
    assert relation(unexercised, caught_it)[0] == "incomparable"


def test_override_severity_is_the_higher_of_the_two_sides() -> None:
    a = run(p("d/1", CAUGHT), p("d/2", CAUGHT), p("d/3", MISSED, severity=CRITICAL))
    b = run(p("d/1", MISSED), p("d/2", MISSED), p("d/3", CAUGHT, severity=LOW))
    name, reasons = relation(a, b)
    assert name == "incomparable"
    assert reasons[-1] == "severity-floor-override: d/3 (critical; caught in b, not in a)"
    assert relation(b, a)[0] == "incomparable"


def test_the_override_never_touches_equivalent() -> None:
    a = run(p("d/1", CAUGHT), p("d/2", MISSED, severity=CRITICAL))
    b = run(p("d/1", MISSED), p("d/2", CAUGHT, severity=CRITICAL))
    assert relation(a, b)[0] == "equivalent"


def test_canaries_do_not_trigger_the_override() -> None:
    a = run(p("d/1", CAUGHT), p("d/c", MISSED, severity=CRITICAL, canary=True))
    b = run(p("d/1", MISSED), p("d/c", CAUGHT, severity=CRITICAL, canary=True))
    assert relation(a, b)[0] == "a-dominates-b"


def test_different_probe_sets_or_policies_fail_the_first_gate() -> None:
    a = run(p("d/1", CAUGHT))
    assert relation(a, run(p("d/2", CAUGHT))) == ("incomparable", ["comparability-key-differs"])
    assert relation(a, run(p("d/1", CAUGHT), catch_threshold=0.6)) == (
        "incomparable",
        ["comparability-key-differs"],
    )


def test_floors_do_not_change_the_comparability_key() -> None:
    a = run(p("d/1", CAUGHT), floors={"defect": 0.9})
    assert relation(a, run(p("d/1", MISSED)))[0] == "a-dominates-b"


def test_a_side_that_is_not_comparable_fails_the_second_gate() -> None:
    a = run(p("d/1", CAUGHT, CAUGHT), minimum_trial_count=2)
    b = run(p("d/1", CAUGHT), minimum_trial_count=2)
    assert relation(a, b) == ("incomparable", ["not-comparable: b"])


def test_a_reduction_that_does_not_recompute_fails_the_third_gate() -> None:
    a = run(p("d/1", CAUGHT))
    b = run(p("d/1", MISSED))
    forged = copy.deepcopy(b)
    forged["strength"]["probes"][0]["reduced"]["caught"] = True
    assert relation(a, forged) == (
        "incomparable",
        ["does-not-recompute: b (reduced outcome of d/1 does not recompute)"],
    )
    inflated = copy.deepcopy(b)
    inflated["strength"]["classes"]["defect"]["caught"] = 1
    assert relation(inflated, a) == (
        "incomparable",
        ["does-not-recompute: a (strength does not recompute from the reduction)"],
    )


def test_two_artifacts_of_one_probe_compare() -> None:
    ((_, caught_artifact),) = scored([p("d/1", CAUGHT, severity=CRITICAL)]).evidence_artifacts()
    ((_, missed_artifact),) = scored([p("d/1", MISSED, severity=CRITICAL)]).evidence_artifacts()
    assert relation(caught_artifact, missed_artifact)[0] == "a-dominates-b"
    assert relation(missed_artifact, caught_artifact)[0] == "b-dominates-a"
    tampered = copy.deepcopy(missed_artifact)
    tampered["scoring_version"] = "sha256:0"
    assert relation(caught_artifact, tampered) == (
        "incomparable",
        ["does-not-recompute: b (scoring_version does not recompute from scoring_version_inputs)"],
    )


def test_an_artifact_and_an_audit_report_compare_when_they_share_the_key() -> None:
    result = scored([p("d/1", CAUGHT)])
    ((_, artifact),) = result.evidence_artifacts()
    assert relation(artifact, audit_report(result))[0] == "equivalent"


def test_neither_artifact_nor_report_is_an_input_error() -> None:
    with pytest.raises(InputError) as caught:
        compare(("a.json", {"report_version": 1}), ("b.json", []))
    assert [problem.render() for problem in caught.value.problems] == [
        "a.json: not an evidence artifact (artifact_version) nor an audit report (audit_version)",
        "b.json: not an evidence artifact (artifact_version) nor an audit report (audit_version)",
    ]


def test_a_malformed_audit_report_names_the_key() -> None:
    report = run(p("d/1", CAUGHT))
    del report["strength"]["probes"][0]["reduced"]
    with pytest.raises(InputError, match=r"b\.json: strength\.probes\[0\]: missing required key"):
        compare(("a.json", run(p("d/1", CAUGHT))), ("b.json", report))


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [prefix]
    if isinstance(value, dict):
        for key, item in value.items():
            found += _paths(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += _paths(item, (*prefix, index))
    return found


REPORT = run(p("d/1", CAUGHT, OutcomeState.UNREACHED), p("c/1", CAUGHT, canary=True))
REPORT_PATHS = [path for path in _paths(REPORT)[1:] if path[0] != "families"]
SCALARS = st.none() | st.booleans() | st.integers(-2, 2) | st.floats(-2, 2) | st.text(max_size=3)


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(REPORT_PATHS), SCALARS | st.lists(SCALARS, max_size=2))
def test_any_edited_report_compares_or_is_an_input_error(
    path: tuple[Any, ...], replacement: Any
) -> None:
    edited = copy.deepcopy(REPORT)
    target = edited
    for part in path[:-1]:
        target = target[part]
    target[path[-1]] = replacement
    try:
        result = compare(("a.json", REPORT), ("b.json", edited))
    except InputError:
        return
    assert result["relation"] in {"a-dominates-b", "b-dominates-a", "equivalent", "incomparable"}
