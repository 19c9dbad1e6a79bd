"""``print_line``: wrapped under a hanging indent, nothing padded, no word cut."""

from __future__ import annotations

import io

from hypothesis import given
from hypothesis import strategies as st
from rich.console import Console
from rich.text import Text

from textcontract.formats.text_lines import print_line


def _console(width: int) -> tuple[Console, io.StringIO]:
    out = io.StringIO()
    return Console(file=out, width=width, color_system=None), out


_WORDS = st.lists(st.text(alphabet="abcdefghij:-_/", min_size=1, max_size=40), max_size=40)


@given(words=_WORDS, width=st.integers(min_value=24, max_value=120))
def test_a_wrapped_line_keeps_its_words_fits_and_hangs(words: list[str], width: int) -> None:
    console, out = _console(width)
    print_line(console, " ".join(words), hanging="    ", indent="  ")
    lines = out.getvalue().splitlines()
    assert " ".join(line.strip() for line in lines) == " ".join(words)
    pieces = [word for line in lines for word in line.split()]
    assert pieces == words  # every word whole: never cut or folded
    for line in lines:  # too long only when it is one word longer than the width
        assert line == line.rstrip()
        assert len(line) <= width or len(line.split()) == 1
    if words:
        assert lines[0].startswith("  ")
        assert all(line.startswith("    ") for line in lines[1:])
    else:
        assert lines == [""]


def test_a_no_wrap_text_is_printed_whole() -> None:
    console, out = _console(20)
    line = Text("  - failed: " + "x" * 40, no_wrap=True)
    print_line(console, line)
    assert out.getvalue() == "  - failed: " + "x" * 40 + "\n"
