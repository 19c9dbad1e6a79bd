"""Generation never looks at outcomes: a deliberately weak contract gets the very same corpus
as the sound one, and its audit reports the faults it misses."""

from __future__ import annotations

from pathlib import Path

from textcontract.audit import audit_directory
from textcontract.mutate import generate_case

from .baselines import ORDERS, baselines, write_corpus

SOUND = (ORDERS / "textcontract.yaml").read_text(encoding="utf-8")
# Same rule ids and types; the weaknesses are in what generation does not read: the refund
# pattern no longer folds accents, the length rule no longer counts distinct words.
WEAK = SOUND.replace(
    "    patterns: ['\\bfull refund\\b', '\\bmoney back\\b', '\\brefund (is|has been) "
    "(approved|issued)\\b']\n",
    "    patterns: ['\\bfull refund\\b', '\\bmoney back\\b', '\\brefund (is|has been) "
    "(approved|issued)\\b']\n    accent_folding: false\n",
).replace("    minimum_unique: 15\n", "")


def test_the_weak_contract_differs_from_the_sound_one() -> None:
    assert WEAK != SOUND
    assert "accent_folding: false" in WEAK
    assert "minimum_unique" not in WEAK


def test_a_weak_contract_gets_the_same_corpus_and_its_audit_reports_misses(
    tmp_path: Path,
) -> None:
    table = baselines()[0]
    import textcontract

    sound = textcontract.load_contract_text(SOUND, "sound.yaml")
    weak = textcontract.load_contract_text(WEAK, "weak.yaml")
    assert sound.digest != weak.digest
    sound_case = generate_case(table.document, table.context, sound, "order-1001")
    weak_case = generate_case(table.document, table.context, weak, "order-1001")
    assert weak_case.to_yaml() == sound_case.to_yaml()

    sound_report = audit_directory(write_corpus(tmp_path / "sound", SOUND, [sound_case])).report
    weak_report = audit_directory(write_corpus(tmp_path / "weak", WEAK, [weak_case])).report
    assert sound_report["detection"]["detected"] == sound_report["detection"]["eligible"] == 33
    missed = {
        (row["variant"], row["reason"])
        for row in weak_report["variants"]
        if row["outcome"] == "undetected"
    }
    # the stuffed e-mail also lost its tracking link: rejected, but not for the fault planted
    assert missed == {
        ("forbidden-disguise-2", "accepted"),
        ("keyword-stuffing-1", "unrelated-rejection"),
    }
    assert weak_report["detection"]["detected"] == 31
    assert weak_report["strength"]["classes"]["gameability"]["caught"] == 2
    assert weak_report["verdict"]["value"] == "FAIL"
    assert "behavioural-failure-at-or-above-floor" in weak_report["verdict"]["reasons"]
