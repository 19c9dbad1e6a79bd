"""Seeded choices: a hash of seed, operator and labels — the same on every platform."""

from __future__ import annotations

import hashlib

import pytest

from textcontract.mutate import Chooser


def test_a_choice_is_the_sha256_of_seed_scope_and_labels() -> None:
    digest = hashlib.sha256(b"3\x1ffact-flip\x1fflip\x1fstatus").digest()
    assert Chooser(3, "fact-flip").index(7, "flip", "status") == (
        int.from_bytes(digest[:8], "big") % 7
    )


def test_choices_differ_by_seed_scope_and_label_and_never_by_history() -> None:
    chooser = Chooser(0, "a")
    first = [chooser.index(1000, "x", i) for i in range(20)]
    assert first == [Chooser(0, "a").index(1000, "x", i) for i in range(20)]
    assert first != [Chooser(1, "a").index(1000, "x", i) for i in range(20)]
    assert first != [Chooser(0, "b").index(1000, "x", i) for i in range(20)]
    assert chooser.order([1, 2, 3], "o") in ([1, 2, 3], [2, 3, 1], [3, 1, 2])
    assert chooser.order([], "o") == []
    with pytest.raises(ValueError, match="nothing to choose"):
        chooser.pick([], "p")
