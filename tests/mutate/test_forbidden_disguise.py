"""forbidden-disguise: fullwidth, ligatures, accents, case — a test of the normalization."""

from __future__ import annotations

from textcontract.mutate.forbidden_disguise import accents, changed_case, fullwidth, ligatures

from .baselines import caught, reasons, run


def test_the_four_disguises() -> None:
    assert fullwidth("full refund!") == "ｆｕｌｌ\u3000ｒｅｆｕｎｄ！"
    assert ligatures("affluent first stuff") == "a\ufb04uent \ufb01r\ufb06 \ufb06u\ufb00"
    assert accents("money back") == "mo\u0301ney ba\u0301ck"
    assert changed_case("Full") == "FULL"
    assert changed_case("FULL") == "full"


CONTRACT = """\
textcontract: 1
id: c
rules:
  - {id: folded, type: ForbiddenPattern, patterns: ['\\bfinal offer\\b']}
  - {id: strict, type: ForbiddenPattern, patterns: ['\\bfinal offer\\b'], accent_folding: false}
  - {id: marks, type: ForbiddenPattern, patterns: ['<!--']}
"""


def test_the_normalization_undoes_every_form_but_accents_without_folding() -> None:
    case, contract = run(CONTRACT, "Your lamp ships today.", None, "forbidden-disguise")
    forms = [
        (v.expect[0].rule, v.description.split(" in ")[1].split(" form")[0]) for v in case.variants
    ]
    assert forms == [
        ("folded", "fullwidth"), ("folded", "ligatures"), ("folded", "accents"), ("folded", "case"),
        ("strict", "fullwidth"), ("strict", "ligatures"), ("strict", "accents"), ("strict", "case"),
        ("marks", "fullwidth"),
    ]  # fmt: skip
    assert caught(contract, case) == [True, True, True, True, True, True, False, True, True]
    assert reasons(case) == [
        "marks: the ligatures form changes none of its texts",
        "marks: the accents form changes none of its texts",
        "marks: the case form changes none of its texts",
    ]
