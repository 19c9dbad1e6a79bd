"""``tokens: {segmenter, locale}`` and a rule's ``segmenter`` / ``locale`` (SPEC §19)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator
from typer.testing import CliRunner

from tests.text.icu_missing import HIDE_ICU4PY_SCRIPT, hide_icu4py
from textcontract._yaml import load_yaml
from textcontract.cli import app
from textcontract.contract import parse_contract_file, parse_contract_text
from textcontract.errors import ContractError
from textcontract.text import WORDS, IcuSegmenter

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = ROOT / "textcontract" / "schema" / "contract.schema.json"

RULES = """\
rules:
  - {id: floor, type: MinimumTokens, minimum: 1}
  - {id: status, type: RequiredFact, key: order.status}
"""


def _contract(header: str = "", rules: str = RULES) -> str:
    return f"textcontract: 1\nid: c\n{header}{rules}"


def _errors(text: str) -> list[str]:
    with pytest.raises(ContractError) as caught:
        parse_contract_text(text, "c.yaml")
    return [problem.render() for problem in caught.value.problems]


def _params(text: str) -> dict[str, Any]:
    return dict(parse_contract_text(text).entries[0].resolved)


def test_without_tokens_nothing_enters_the_digest() -> None:
    plain = parse_contract_text(_contract())
    assert _params(_contract()) == {"surfaces": None, "minimum": 1, "minimum_unique": 1}
    assert plain.tokens is None
    assert plain.rules[0].segmenter is WORDS
    assert plain.icu_version is None


@pytest.mark.parametrize(
    ("header", "params"),
    [
        pytest.param("tokens: {segmenter: words}\n", {"segmenter": "words"}, id="words"),
        pytest.param(
            "tokens: {segmenter: icu}\n", {"segmenter": "icu", "locale": "root"}, id="icu-root"
        ),
        pytest.param(
            "tokens: {segmenter: icu, locale: ja}\n",
            {"segmenter": "icu", "locale": "ja"},
            id="icu-ja",
        ),
    ],
)
def test_a_tokens_block_enters_each_token_rule_and_the_digest(
    header: str, params: dict[str, Any]
) -> None:
    parsed = parse_contract_text(_contract(header))
    assert _params(_contract(header)) == {
        "surfaces": None,
        "minimum": 1,
        "minimum_unique": 1,
        **params,
    }
    assert "segmenter" not in parsed.entries[1].resolved
    assert parsed.digest != parse_contract_text(_contract()).digest
    assert parsed.tokens is not None
    assert parsed.tokens.to_json() == params


def test_each_segmenter_and_locale_is_its_own_digest() -> None:
    digests = {
        parse_contract_text(_contract(header)).digest
        for header in (
            "",
            "tokens: {segmenter: words}\n",
            "tokens: {segmenter: icu}\n",
            "tokens: {segmenter: icu, locale: ja}\n",
            "tokens: {segmenter: icu, locale: th}\n",
        )
    }
    assert len(digests) == 5
    # the root locale written out is the default filled in
    assert (
        parse_contract_text(_contract("tokens: {segmenter: icu, locale: root}\n")).digest
        == parse_contract_text(_contract("tokens: {segmenter: icu}\n")).digest
    )


def test_the_rule_s_own_segmenter_overrides_the_header() -> None:
    rules = (
        "rules:\n"
        "  - {id: a, type: MinimumTokens, minimum: 1}\n"
        "  - {id: b, type: MinimumTokens, minimum: 1, segmenter: words}\n"
        "  - {id: c, type: MinimumTokens, minimum: 1, segmenter: icu, locale: th}\n"
        "  - {id: d, type: NoRepeatedText}\n"
        "  - {id: e, type: LexicalRestatement, source: a, target: b}\n"
    )
    parsed = parse_contract_text(_contract("tokens: {segmenter: icu, locale: ja}\n", rules))
    segmenters = [rule.segmenter for rule in parsed.rules]
    assert [getattr(s, "locale", None) for s in segmenters] == ["ja", None, "th", "ja", "ja"]
    assert segmenters[1] is WORDS
    assert all(isinstance(s, IcuSegmenter) for s in (segmenters[0], *segmenters[2:]))
    assert parsed.entries[1].resolved["segmenter"] == "words"
    assert "locale" not in parsed.entries[1].resolved
    assert parsed.icu_version == segmenters[0].icu_version


def test_a_rule_asking_for_icu_alone_gets_the_root_locale() -> None:
    rules = "rules:\n  - {id: a, type: TokenRange, max: 3, segmenter: icu}\n"
    parsed = parse_contract_text(_contract("", rules))
    assert parsed.entries[0].resolved["locale"] == "root"
    assert parsed.tokens is None
    assert parsed.icu_version is not None


def test_tokens_apply_through_includes_unless_the_included_file_has_its_own(
    tmp_path: Path,
) -> None:
    (tmp_path / "plain.yaml").write_text(
        "textcontract: 1\nid: plain\nrules:\n  - {id: p, type: MinimumTokens, minimum: 1}\n",
        encoding="utf-8",
    )
    (tmp_path / "pinned.yaml").write_text(
        "textcontract: 1\nid: pinned\ntokens: {segmenter: words}\ninclude: [deep.yaml]\n"
        "rules:\n  - {id: w, type: MinimumTokens, minimum: 1}\n",
        encoding="utf-8",
    )
    (tmp_path / "deep.yaml").write_text(
        "textcontract: 1\nid: deep\nrules:\n  - {id: d, type: MinimumTokens, minimum: 1}\n",
        encoding="utf-8",
    )
    (tmp_path / "top.yaml").write_text(
        "textcontract: 1\nid: top\ntokens: {segmenter: icu, locale: ja}\n"
        "include: [plain.yaml, pinned.yaml]\n"
        "rules:\n  - {id: t, type: MinimumTokens, minimum: 1}\n",
        encoding="utf-8",
    )
    parsed = parse_contract_file(tmp_path / "top.yaml")
    by_id = {entry.rule.header.id: entry.resolved.get("segmenter") for entry in parsed.entries}
    assert by_id == {"p": "icu", "d": "words", "w": "words", "t": "icu"}


@pytest.mark.parametrize(
    ("header", "rules", "expected"),
    [
        pytest.param(
            "tokens: icu\n",
            RULES,
            ["c.yaml:3:9: tokens: expected a mapping, got a string"],
            id="not-a-mapping",
        ),
        pytest.param(
            "tokens: {locale: ja}\n",
            RULES,
            ["c.yaml:3:9: tokens: missing required key 'segmenter'"],
            id="segmenter-required",
        ),
        pytest.param(
            "tokens: {segmentr: icu}\n",
            RULES,
            [
                "c.yaml:3:10: tokens.segmentr: unknown key 'segmentr' (did you mean 'segmenter'?)",
                "c.yaml:3:9: tokens: missing required key 'segmenter'",
            ],
            id="did-you-mean",
        ),
        pytest.param(
            "tokens: {segmenter: icuu}\n",
            RULES,
            [
                "c.yaml:3:21: tokens.segmenter: 'icuu' is not one of words, icu"
                " (did you mean 'icu'?)"
            ],
            id="unknown-segmenter",
        ),
        pytest.param(
            "tokens: {segmenter: words, locale: ja}\n",
            RULES,
            ["c.yaml:3:36: tokens.locale: tokens.locale applies to segmenter: icu only"],
            id="locale-with-words",
        ),
        pytest.param(
            "tokens: {segmenter: icu, locale: 'ja JP'}\n",
            RULES,
            [
                "c.yaml:3:34: tokens.locale: expected a locale id such as root, ja, zh_Hant or"
                " th_TH, got 'ja JP'"
            ],
            id="bad-locale",
        ),
        pytest.param(
            "",
            "rules:\n  - {id: f, type: ForbiddenPattern, patterns: [x], segmenter: icu}\n",
            [
                "c.yaml:4:52: rule 'f', field segmenter: unknown key 'segmenter' (known keys:"
                " patterns, surfaces, accent_folding, timeout_ms, read, within, id, type,"
                " version, code, severity, enforcement, description, examples)"
            ],
            id="not-a-token-rule",
        ),
        pytest.param(
            "",
            "rules:\n  - {id: m, type: MinimumTokens, minimum: 1, locale: ja}\n",
            ["c.yaml:4:54: rule 'm', field locale: locale applies to segmenter: icu only"],
            id="rule-locale-without-icu",
        ),
    ],
)
def test_errors_name_file_line_column_and_field(
    header: str, rules: str, expected: list[str]
) -> None:
    assert _errors(_contract(header, rules)) == expected


@pytest.fixture
def icu4py_missing(monkeypatch: pytest.MonkeyPatch) -> None:
    hide_icu4py(monkeypatch)


_MISSING = (
    "the icu segmenter needs icu4py, which cannot be imported here: install the optional"
    " extra 'icu' (pip install 'textcontract[icu]')"
)


@pytest.mark.usefixtures("icu4py_missing")
def test_asking_for_icu_without_icu4py_is_a_contract_error_naming_the_extra() -> None:
    rules = (
        "rules:\n  - {id: a, type: MinimumTokens, minimum: 1, segmenter: icu}\n"
        "  - {id: b, type: MinimumTokens, minimum: 1}\n"
    )
    assert _errors(_contract("tokens: {segmenter: icu}\n", rules)) == [
        f"c.yaml:3:21: tokens.segmenter: {_MISSING}",
        f"c.yaml:5:57: rule 'a', field segmenter: {_MISSING}",
    ]
    # the words segmenter needs nothing optional
    assert parse_contract_text(_contract("tokens: {segmenter: words}\n")).rules


@pytest.mark.usefixtures("icu4py_missing")
def test_check_with_an_icu_contract_and_no_icu4py_exits_2(tmp_path: Path) -> None:
    (tmp_path / "c.yaml").write_text(_contract("tokens: {segmenter: icu}\n"), encoding="utf-8")
    (tmp_path / "doc.md").write_text("これは日本語です。", encoding="utf-8")
    result = CliRunner().invoke(
        app, ["check", str(tmp_path / "doc.md"), "--contract", str(tmp_path / "c.yaml")]
    )
    assert result.exit_code == 2
    assert f"c.yaml:3:21: tokens.segmenter: {_MISSING}" in result.output


def test_a_real_process_without_icu4py_exits_2_naming_the_extra(tmp_path: Path) -> None:
    (tmp_path / "c.yaml").write_text(_contract("tokens: {segmenter: icu}\n"), encoding="utf-8")
    (tmp_path / "doc.md").write_text("これは日本語です。", encoding="utf-8")
    script = (
        HIDE_ICU4PY_SCRIPT + "from textcontract.cli import main\n"
        "sys.argv = ['textcontract', 'check', 'doc.md', '--contract', 'c.yaml']\n"
        "main()\n"
    )
    ran = subprocess.run(
        [sys.executable, "-c", script], cwd=tmp_path, capture_output=True, text=True, check=False
    )
    assert (ran.returncode, ran.stdout) == (2, "")
    assert ran.stderr == f"error: c.yaml:3:21: tokens.segmenter: {_MISSING}\n"


def test_the_shipped_schema_knows_tokens_and_segmenter() -> None:
    validator = Draft202012Validator(load_yaml(SCHEMA.read_text(encoding="utf-8"), "s")[0])
    good = _contract(
        "tokens: {segmenter: icu, locale: zh_Hant}\n",
        "rules:\n  - {id: a, type: TokenRange, max: 3, segmenter: words}\n",
    )
    assert list(validator.iter_errors(load_yaml(good, "c")[0])) == []
    for bad in (
        _contract("tokens: {segmenter: icu, locale: 'x y'}\n"),
        _contract("tokens: {locale: ja}\n"),
        _contract("", "rules:\n  - {id: f, type: ForbiddenPattern, patterns: [x], locale: ja}\n"),
    ):
        assert list(validator.iter_errors(load_yaml(bad, "c")[0])) != []
