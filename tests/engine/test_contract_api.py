"""The library entry point a renderer uses, and the report's JSON shape."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import textcontract
from textcontract import Context, Document, Status

CONTRACT = """\
textcontract: 1
id: api
version: "2"
rules:
  - {id: shipped, type: RequiredFact, key: order.status, equals: shipped}
  - {id: claims, type: DeclaredClaimsConsistent}
  - {id: promise, type: ForbiddenPattern, patterns: ['\\bguarantee\\b'], code: NO_GUARANTEE}
"""


def test_check_accepts_plain_strings_and_dicts() -> None:
    contract = textcontract.load_contract_text(CONTRACT)
    report = contract.check(
        {"surfaces": {"body": {"text": "It ships today.", "claims": {"order.status": "shipped"}}}},
        {"order.status": "shipped"},
    )
    assert report.accepted
    assert report.complete
    rejected = contract.check("We guarantee it.", {"order.status": "shipped"})
    assert not rejected.accepted
    assert [(c.rule_id, c.status, c.code) for c in rejected.checks] == [
        ("shipped", Status.SATISFIED, "REQUIRED_FACT"),
        ("claims", Status.UNDETERMINED, "CLAIMS_ABSENT"),
        ("promise", Status.VIOLATED, "NO_GUARANTEE"),
    ]


def test_report_json_shape_and_key_order() -> None:
    contract = textcontract.load_contract_text(CONTRACT)
    report = contract.check(
        Document.from_text("ok"), Context.from_json({"order.status": "shipped"})
    )
    data = json.loads(report.to_json())
    assert list(data) == [
        "report_version",
        "engine",
        "contract",
        "input",
        "source",
        "policy",
        "accepted",
        "complete",
        "counts",
        "checks",
    ]
    assert data["contract"] == {"id": "api", "version": "2", "digest": contract.digest}
    assert data["input"]["document"] == Document.from_text("ok").digest
    assert list(data["checks"][0]) == [
        "rule_id",
        "rule_version",
        "type",
        "kind",
        "status",
        "code",
        "scope",
        "severity",
        "enforcement",
        "evidence",
        "metrics",
        "message",
    ]
    assert data["counts"] == {"satisfied": 2, "violated": 0, "undetermined": 1, "error": 0}


def test_same_inputs_give_byte_identical_json() -> None:
    first = textcontract.load_contract_text(CONTRACT).check(
        "We guarantee it.", {"order.status": "x"}
    )
    second = textcontract.load_contract_text(CONTRACT).check(
        "We guarantee it.", {"order.status": "x"}
    )
    assert first.to_json() == second.to_json()


def test_load_contract_from_a_path(tmp_path: Path) -> None:
    path = tmp_path / "c.yaml"
    path.write_text(CONTRACT, encoding="utf-8")
    assert textcontract.load_contract(path).id == "api"
    assert textcontract.load_contract(str(path)).version == "2"


def test_each_surface_is_normalized_once_per_profile(monkeypatch: pytest.MonkeyPatch) -> None:
    import textcontract.rules._subject as subject_module
    from textcontract.text import Profile, fold_text, normalize, profiles

    calls: list[str] = []

    def counting(text: str, profile: Profile) -> str:
        calls.append(profile.value)
        return normalize(text, profile)

    def counting_fold(text: str) -> str:  # the folded profile, derived from the text profile
        calls.append(Profile.FOLDED.value)
        return fold_text(text)

    def counting_both(text: str) -> tuple[str, str]:  # both profiles at once
        calls.extend(profile.value for profile in Profile)
        return profiles(text)

    contract = textcontract.load_contract_text(
        "textcontract: 1\nid: n\nrules:\n"
        "  - {id: a, type: ForbiddenPattern, patterns: [x]}\n"
        "  - {id: b, type: ForbiddenPattern, patterns: [y]}\n"
        "  - {id: c, type: MinimumTokens, minimum: 1}\n"
        "  - {id: d, type: TokenRange, max: 50}\n"
    )
    monkeypatch.setattr(subject_module, "normalize", counting)
    monkeypatch.setattr(subject_module, "fold_text", counting_fold)
    monkeypatch.setattr(subject_module, "profiles", counting_both)
    contract.check("Some words here.")
    assert sorted(calls) == ["folded", "text"]
    calls.clear()
    tokens_first = textcontract.load_contract_text(
        "textcontract: 1\nid: n\nrules:\n"
        "  - {id: c, type: MinimumTokens, minimum: 1}\n"
        "  - {id: a, type: ForbiddenPattern, patterns: [x]}\n"
    )
    tokens_first.check("Some words here.")
    assert sorted(calls) == ["folded", "text"]


def test_a_one_line_flow_mapping_is_yaml_text_only_through_load_contract_text(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Defect 8: no guessing. A string is a path for load_contract, YAML for load_contract_text."""
    flow = "{textcontract: 1, id: flow, rules: [{id: r, type: ForbiddenPattern, patterns: [x]}]}"
    assert textcontract.load_contract_text(flow).id == "flow"
    monkeypatch.chdir(tmp_path)
    with pytest.raises(textcontract.ContractError, match="cannot read file"):
        textcontract.load_contract(flow)
    (tmp_path / flow).write_text(CONTRACT, encoding="utf-8")  # such a file name is legal
    assert textcontract.load_contract(flow).id == "api"


def test_yaml_text_given_as_a_path_gets_a_hint() -> None:
    with pytest.raises(textcontract.ContractError) as caught:
        textcontract.load_contract(CONTRACT)
    assert caught.value.problems[0].hint == (
        "load_contract takes a path; to load YAML text, use load_contract_text"
    )


def test_load_contract_text_names_the_text_in_messages() -> None:
    with pytest.raises(textcontract.ContractError) as caught:
        textcontract.load_contract_text("textcontract: 1\nid: x\nrules: []\n")
    assert str(caught.value).startswith("<string>:3:8: rules: the contract defines no rules")
    with pytest.raises(textcontract.ContractError, match=r"^mail\.yaml:"):
        textcontract.load_contract_text("textcontract: 2\n", name="mail.yaml")


def test_loaders_refuse_the_wrong_kind_of_argument() -> None:
    with pytest.raises(TypeError, match="takes a path"):
        textcontract.load_contract(b"c.yaml")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="takes YAML text"):
        textcontract.load_contract_text(Path("c.yaml"))  # type: ignore[arg-type]


def test_a_report_names_its_source_only_when_the_caller_does() -> None:
    contract = textcontract.load_contract_text(CONTRACT)
    unnamed = contract.check("ok", {"order.status": "shipped"})
    assert unnamed.source is None
    assert json.loads(unnamed.to_json())["source"] is None
    named = contract.check("ok", {"order.status": "shipped"}, source="reply-7")
    assert named.source == "reply-7"
    assert json.loads(named.to_json())["source"] == "reply-7"
    assert named.to_dict()["input"] == unnamed.to_dict()["input"]  # digests do not change
    assert json.loads(named.to_json())["report_version"] == 1
    with pytest.raises(TypeError, match="source must be a string or None, not int"):
        contract.check("ok", None, source=7)  # type: ignore[arg-type]
