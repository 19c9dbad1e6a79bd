"""trailing-newline: a multi-line surface gains or loses its final line break."""

from __future__ import annotations

from textcontract.mutate.trailing_newline import toggle_newline

from .baselines import reasons, run


def test_toggling() -> None:
    assert toggle_newline("a\nb") == "a\nb\n"
    assert toggle_newline("a\nb\n\n") == "a\nb\n"
    assert toggle_newline("one line") is None
    assert toggle_newline("one line\n") is None


CONTRACT = "textcontract: 1\nid: c\nrules:\n  - {id: long, type: MinimumTokens, minimum: 2}\n"


def test_only_multi_line_surfaces() -> None:
    document = {"surfaces": {"body": "Hello,\nit ships.\n", "subject": "It ships"}}
    case, _ = run(CONTRACT, document, None, "trailing-newline")
    (variant,) = case.variants
    assert variant.document.surface("body").text == "Hello,\nit ships."  # type: ignore[union-attr]
    assert variant.document.surface("subject").text == "It ships"  # type: ignore[union-attr]
    case, _ = run(CONTRACT, "It ships today", None, "trailing-newline")
    assert reasons(case) == ["no surface changes: final line break toggled"]
