"""Contract loading: YAML 1.2 scalars, every error at once with positions, includes, digest."""

from __future__ import annotations

from pathlib import Path

import pytest

from textcontract.contract import parse_contract_file, parse_contract_text
from textcontract.errors import ContractError
from textcontract.model import CheckPolicy, Enforcement, Severity


def _errors(text: str) -> list[str]:
    with pytest.raises(ContractError) as caught:
        parse_contract_text(text, "c.yaml")
    return [problem.render() for problem in caught.value.problems]


MINIMAL = """\
textcontract: 1
id: demo
rules:
  - {id: status, type: RequiredFact, key: order.status, equals: shipped}
"""


def test_minimal_contract_defaults() -> None:
    definition = parse_contract_text(MINIMAL)
    assert definition.id == "demo"
    assert definition.version == 1
    assert definition.policy == CheckPolicy(block_heuristics=True, block_undetermined=True)
    [rule] = definition.rules
    assert rule.header.severity is Severity.MEDIUM
    assert rule.header.enforcement is Enforcement.BLOCKING
    assert rule.header.version == 1
    assert definition.digest.startswith("sha256:")


def test_version_is_reported_as_given() -> None:
    as_string = parse_contract_text(MINIMAL.replace("id: demo", 'id: demo\nversion: "3"'))
    as_integer = parse_contract_text(MINIMAL.replace("id: demo", "id: demo\nversion: 3"))
    assert as_string.version == "3"
    assert as_integer.version == 3
    assert as_string.digest != as_integer.digest


@pytest.mark.parametrize(
    ("yaml_value", "context_value", "satisfied"),
    [
        pytest.param("no", "no", True, id="no-is-a-string"),
        pytest.param("yes", "yes", True, id="yes-is-a-string"),
        pytest.param("on", "on", True, id="on-is-a-string"),
        pytest.param("1e3", 1000.0, True, id="1e3-is-a-float"),
        pytest.param("1e3", 1000, False, id="1e3-is-not-an-integer"),
        pytest.param("true", True, True, id="true-is-a-boolean"),
        pytest.param("1", True, False, id="1-is-not-true"),
    ],
)
def test_yaml_12_core_scalars(yaml_value: str, context_value: object, satisfied: bool) -> None:
    definition = parse_contract_text(
        "textcontract: 1\nid: s\nrules:\n"
        f"  - {{id: r, type: RequiredFact, key: k, equals: {yaml_value}}}\n"
    )
    from textcontract.engine import evaluate
    from textcontract.model import Context, Document

    report = evaluate(definition, Document.from_text("x"), Context.from_json({"k": context_value}))
    assert (report.checks[0].status.value == "satisfied") is satisfied


def test_every_error_of_a_file_is_reported_at_once_with_positions() -> None:
    errors = _errors(
        """\
textcontract: 1
id: demo
rules:
  - id: one
    type: RequiredFakt
    key: a
  - id: two
    type: ForbiddenPattern
    patterns: ['(unclosed']
  - id: three
    type: MinimumTokens
    minimum: many
    surfacez: [body]
"""
    )
    assert len(errors) == 4, errors
    assert errors[0].startswith(
        "c.yaml:5:11: rule 'one', field type: unknown rule type 'RequiredFakt'"
    )
    assert "did you mean 'RequiredFact'?" in errors[0]
    assert errors[1].startswith("c.yaml:9:16: rule 'two', field patterns[0]: invalid pattern")
    assert any(
        e.startswith("c.yaml:12:14: rule 'three', field minimum: expected an integer")
        for e in errors
    )
    assert (
        "c.yaml:13:5: rule 'three', field surfacez: unknown key 'surfacez'"
        " (did you mean 'surfaces'?)"
    ) in errors


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param(
            "id: x\nrules: []\n", "c.yaml:1:1: missing required key 'textcontract'", id="no-format"
        ),
        pytest.param(
            "textcontract: 2\nid: x\n",
            "c.yaml:1:15: textcontract: expected 1, got 2"
            " (this textcontract reads contract format 1)",
            id="format-2",
        ),
        pytest.param("textcontract: 1\nid: Bad Id\n", "does not match", id="bad-id"),
        pytest.param(
            "textcontract: 1\nid: x\nrulez: []\n", "did you mean 'rules'?", id="unknown-field"
        ),
        pytest.param(
            "textcontract: 1\nid: x\nid: y\n", "c.yaml:3:1: duplicate key 'id'", id="duplicate-key"
        ),
        pytest.param(
            "textcontract: 1\nid: &a x\n",
            "c.yaml:2:5: anchors (&name) are not allowed",
            id="anchor",
        ),
        pytest.param("textcontract: 1\nid: !custom x\n", "tag '!custom' is not allowed", id="tag"),
        pytest.param("textcontract: 1\nid: x\n", "defines no rules", id="no-rules"),
        pytest.param(
            "textcontract: 1\nid: x\npolicy: {block_heuristic: false}\nrules: []\n",
            "did you mean 'block_heuristics'?",
            id="policy-typo",
        ),
        pytest.param(
            "textcontract: 1\nid: x\npolicy: {block_heuristics: no}\nrules: []\n",
            "expected true or false, got a string",
            id="policy-no-is-a-string",
        ),
        pytest.param(
            "textcontract: 1\nid: x\ndefaults: {severity: huge}\nrules: []\n",
            "c.yaml:3:22: defaults.severity: 'huge' is not one of low, medium, high, critical",
            id="bad-default-severity",
        ),
    ],
)
def test_contract_level_errors(text: str, expected: str) -> None:
    assert any(expected in error for error in _errors(text)), _errors(text)


@pytest.mark.parametrize(
    ("fields", "expected"),
    [
        pytest.param(
            "severity: urgent",
            "field severity: 'urgent' is not one of low, medium, high, critical",
            id="severity",
        ),
        pytest.param(
            "enforcement: soft",
            "field enforcement: 'soft' is not one of blocking, advisory",
            id="enforcement",
        ),
        pytest.param("code: no-refund", "field code: expected UPPER_SNAKE_CASE", id="code"),
        pytest.param(
            "version: true",
            "field version: expected a non-empty string or an integer, got a boolean",
            id="version",
        ),
        pytest.param(
            "examples: [x]", "field examples: expected a mapping, got a list", id="examples"
        ),
    ],
)
def test_common_rule_field_errors(fields: str, expected: str) -> None:
    text = (
        "textcontract: 1\nid: x\nrules:\n  - id: r\n    type: RequiredFact\n"
        f"    key: k\n    {fields}\n"
    )
    errors = _errors(text)
    assert any(expected in error and "rule 'r'" in error for error in errors), errors


def test_duplicate_rule_ids_name_both_places() -> None:
    errors = _errors(
        "textcontract: 1\nid: x\nrules:\n"
        "  - {id: r, type: RequiredFact, key: a}\n"
        "  - {id: r, type: RequiredFact, key: b}\n"
    )
    assert errors == ["c.yaml:5:10: rule 'r': rule id 'r' is already used at c.yaml:4:10"]


def test_defaults_apply_to_rules_that_declare_the_parameter() -> None:
    definition = parse_contract_text(
        """\
textcontract: 1
id: x
defaults: {severity: high, enforcement: advisory, surfaces: [body], timeout_ms: 50}
rules:
  - {id: fact, type: RequiredFact, key: a}
  - {id: words, type: ForbiddenPattern, patterns: [x]}
  - {id: low, type: ForbiddenPattern, patterns: [y], severity: low, surfaces: [subject]}
"""
    )
    fact, words, low = definition.entries
    assert fact.rule.header.severity is Severity.HIGH
    assert fact.rule.header.enforcement is Enforcement.ADVISORY
    assert "surfaces" not in fact.resolved
    assert words.resolved["surfaces"] == ["body"]
    assert words.resolved["timeout_ms"] == 50
    assert low.rule.header.severity is Severity.LOW
    assert low.resolved["surfaces"] == ["subject"]


def test_digest_ignores_descriptions_and_examples_but_not_parameters() -> None:
    base = parse_contract_text(MINIMAL)
    described = parse_contract_text(
        MINIMAL.replace("id: demo", "id: demo\ndescription: words").replace(
            "equals: shipped}", "equals: shipped, description: more, examples: {satisfied: [a]}}"
        )
    )
    changed = parse_contract_text(MINIMAL.replace("shipped", "delivered"))
    typed = parse_contract_text(MINIMAL.replace("equals: shipped", "equals: 1"))
    typed_float = parse_contract_text(MINIMAL.replace("equals: shipped", "equals: 1.0"))
    assert base.digest == described.digest
    assert base.digest != changed.digest
    assert typed.digest != typed_float.digest


def test_digest_fills_defaults() -> None:
    implicit = parse_contract_text(MINIMAL)
    explicit = parse_contract_text(
        MINIMAL.replace("equals: shipped}", "equals: shipped, state: current, severity: medium}")
    )
    assert implicit.digest == explicit.digest


def test_includes_come_first_and_keep_their_own_defaults(tmp_path: Path) -> None:
    (tmp_path / "packs").mkdir()
    (tmp_path / "packs" / "base.yaml").write_text(
        "textcontract: 1\nid: base\ndefaults: {severity: critical}\n"
        "policy: {block_heuristics: false}\n"
        "rules:\n  - {id: inherited, type: RequiredFact, key: a}\n",
        encoding="utf-8",
    )
    top = tmp_path / "contract.yaml"
    top.write_text(
        "textcontract: 1\nid: top\ninclude: [packs/base.yaml]\n"
        "rules:\n  - {id: own, type: RequiredFact, key: b}\n",
        encoding="utf-8",
    )
    definition = parse_contract_file(top, "contract.yaml")
    assert [r.header.id for r in definition.rules] == ["inherited", "own"]
    assert [r.header.severity for r in definition.rules] == [Severity.CRITICAL, Severity.MEDIUM]
    assert definition.policy.block_heuristics is True


def test_include_cycle_and_duplicate_ids_across_files(tmp_path: Path) -> None:
    (tmp_path / "a.yaml").write_text(
        "textcontract: 1\nid: a\ninclude: [b.yaml]\n"
        "rules:\n  - {id: r, type: RequiredFact, key: a}\n",
        encoding="utf-8",
    )
    (tmp_path / "b.yaml").write_text(
        "textcontract: 1\nid: b\ninclude: [a.yaml]\n"
        "rules:\n  - {id: r, type: RequiredFact, key: b}\n",
        encoding="utf-8",
    )
    with pytest.raises(ContractError) as caught:
        parse_contract_file(tmp_path / "a.yaml", "a.yaml")
    rendered = [problem.render() for problem in caught.value.problems]
    assert "b.yaml:3:11: include[0]: include cycle: a.yaml -> b.yaml -> a.yaml" in rendered
    assert "a.yaml:5:10: rule 'r': rule id 'r' is already used at b.yaml:5:10" in rendered


def test_missing_include_and_unknown_builtin_pack(tmp_path: Path) -> None:
    top = tmp_path / "c.yaml"
    top.write_text(
        "textcontract: 1\nid: x\ninclude: [nope.yaml, 'builtin:no-such-pack']\n"
        "rules:\n  - {id: r, type: RequiredFact, key: a}\n",
        encoding="utf-8",
    )
    with pytest.raises(ContractError) as caught:
        parse_contract_file(top, "c.yaml")
    rendered = [problem.render() for problem in caught.value.problems]
    assert rendered[0].startswith(
        "c.yaml:3:11: include[0]: cannot include 'nope.yaml': cannot read file:"
    )
    assert rendered[1].startswith(
        "c.yaml:3:22: include[1]: no shipped rule pack 'builtin:no-such-pack'"
    )


def test_unreadable_includes_are_located_errors(tmp_path: Path) -> None:
    (tmp_path / "folder.yaml").mkdir()
    (tmp_path / "latin1.yaml").write_bytes(b"textcontract: 1\nid: caf\xe9\n")
    top = tmp_path / "c.yaml"
    top.write_text(
        "textcontract: 1\nid: x\ninclude: [folder.yaml, latin1.yaml]\n"
        "rules:\n  - {id: r, type: RequiredFact, key: a}\n",
        encoding="utf-8",
    )
    with pytest.raises(ContractError) as caught:
        parse_contract_file(top, "c.yaml")
    rendered = [problem.render() for problem in caught.value.problems]
    assert rendered[0] == (
        "c.yaml:3:11: include[0]: cannot include 'folder.yaml': cannot read file: it is a folder"
    )
    assert rendered[1] == "latin1.yaml (byte 23): invalid UTF-8 (invalid continuation byte)"


def test_bom_is_dropped_and_invalid_utf8_names_the_offset(tmp_path: Path) -> None:
    good = tmp_path / "good.yaml"
    good.write_bytes(b"\xef\xbb\xbf" + MINIMAL.encode())
    assert parse_contract_file(good).id == "demo"
    bad = tmp_path / "bad.yaml"
    bad.write_bytes(MINIMAL.encode() + b"# \xff\n")
    with pytest.raises(ContractError) as caught:
        parse_contract_file(bad, "bad.yaml")
    assert caught.value.problems[0].location.byte_offset == len(MINIMAL.encode()) + 2


def test_examples_are_loaded_with_contexts() -> None:
    definition = parse_contract_text(
        """\
textcontract: 1
id: x
rules:
  - id: r
    type: ForbiddenPattern
    patterns: ['\\bguarantee\\b']
    examples:
      violated: ["We guarantee it."]
      satisfied: [{text: "We hope so.", context: {a: 1}}]
"""
    )
    [entry] = definition.entries
    assert [e.text for e in entry.violated_examples] == ["We guarantee it."]
    assert entry.satisfied_examples[0].context is not None
    assert entry.satisfied_examples[0].context.fact("current", "a") == (True, 1)


def test_every_invalid_pattern_of_a_rule_is_reported_with_its_place() -> None:
    """Defect 6 (SPEC §11 "Contract errors"): not only the first invalid pattern."""
    errors = _errors(
        "textcontract: 1\nid: x\nrules:\n"
        "  - id: words\n"
        "    type: ForbiddenPattern\n"
        "    patterns: ['(unclosed', fine, '[bad', '*']\n"
        "  - id: premises\n"
        "    type: SettledPremise\n"
        "    premises: {paid: ['(', ok], sent: ['+']}\n"
    )
    assert [error.split(": invalid pattern")[0] for error in errors] == [
        "c.yaml:6:16: rule 'words', field patterns[0]",
        "c.yaml:6:35: rule 'words', field patterns[2]",
        "c.yaml:6:43: rule 'words', field patterns[3]",
        "c.yaml:9:23: rule 'premises', field premises.paid[0]",
        "c.yaml:9:40: rule 'premises', field premises.sent[0]",
    ]


def test_defaults_are_validated_even_when_no_rule_uses_them() -> None:
    """Defect 14: an invalid default is an error although no rule takes the parameter."""
    errors = _errors(
        "textcontract: 1\nid: x\n"
        "defaults: {timeout_ms: 0, surfaces: [Body], accent_folding: maybe, colour: red}\n"
        "rules:\n  - {id: fact, type: RequiredFact, key: a}\n"
    )
    assert errors == [
        "c.yaml:3:68: defaults.colour: unknown key 'colour'"
        " (known keys: severity, enforcement, surfaces, accent_folding, timeout_ms)",
        "c.yaml:3:38: defaults.surfaces[0]: surface name 'Body' does not match"
        " [a-z0-9][a-z0-9_.-]*",
        "c.yaml:3:61: defaults.accent_folding: expected true or false, got a string",
        "c.yaml:3:24: defaults.timeout_ms: must be at least 1, got 0",
    ]


def test_an_invalid_default_is_reported_once_not_per_rule() -> None:
    errors = _errors(
        "textcontract: 1\nid: x\ndefaults: {timeout_ms: 0}\nrules:\n"
        "  - {id: a, type: ForbiddenPattern, patterns: [x]}\n"
        "  - {id: b, type: ForbiddenPattern, patterns: [y]}\n"
    )
    assert errors == ["c.yaml:3:24: defaults.timeout_ms: must be at least 1, got 0"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param(
            "textcontract: 1\nid: x\nrules: []\n",
            "c.yaml:3:8: rules: the contract defines no rules (directly or through include)",
            id="empty-list",
        ),
        pytest.param(
            "textcontract: 1\nid: x\n",
            "c.yaml:1:1: rules: the contract defines no rules (directly or through include)",
            id="no-rules-key",
        ),
    ],
)
def test_no_rules_names_line_and_column(text: str, expected: str) -> None:
    """Defect 14: "the contract defines no rules" carries line:column."""
    assert _errors(text) == [expected]


def test_example_context_problems_point_into_the_example() -> None:
    errors = _errors(
        "textcontract: 1\nid: x\nrules:\n"
        "  - id: r\n"
        "    type: ForbiddenPattern\n"
        "    patterns: [x]\n"
        "    examples:\n"
        "      satisfied: [{text: fine, context: {states: {current: 3}}}]\n"
        "      violated: [{txt: x}]\n"
    )
    assert errors == [
        "c.yaml:8:60: rule 'r', field examples.satisfied[0].context.states.current:"
        " expected an object of facts, got an integer",
        "c.yaml:9:19: rule 'r', field examples.violated[0].txt: unknown key 'txt'"
        " (did you mean 'text'?)",
        "c.yaml:9:18: rule 'r', field examples.violated[0]: missing required key 'text'",
    ]


def test_rule_without_id_or_type_and_a_rule_that_is_not_a_mapping() -> None:
    errors = _errors(
        "textcontract: 1\nid: x\nrules:\n  - {type: RequiredFact, key: a}\n  - {id: t}\n  - 3\n"
    )
    assert errors == [
        "c.yaml:4:5: rules[0]: missing required key 'id'",
        "c.yaml:5:5: rule 't': missing required key 'type'",
        "c.yaml:6:5: rules[2]: expected a mapping, got an integer",
    ]
