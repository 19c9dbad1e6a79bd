"""``print_line`` and ``print_table``: wrapped under a hanging indent, nothing padded."""

from __future__ import annotations

import io

from hypothesis import given
from hypothesis import strategies as st
from rich.console import Console
from rich.table import Table
from rich.text import Text

from textcontract.formats.text_lines import print_line, print_table


def _console(width: int) -> tuple[Console, io.StringIO]:
    out = io.StringIO()
    return Console(file=out, width=width, color_system=None), out


_WORDS = st.lists(st.text(alphabet="abcdefghij", min_size=1, max_size=12), max_size=40)


@given(words=_WORDS, width=st.integers(min_value=24, max_value=120))
def test_a_wrapped_line_keeps_its_words_fits_and_hangs(words: list[str], width: int) -> None:
    console, out = _console(width)
    print_line(console, " ".join(words), hanging="    ", indent="  ")
    lines = out.getvalue().splitlines()
    assert " ".join(line.strip() for line in lines) == " ".join(words)
    assert all(line == line.rstrip() and len(line) <= width for line in lines)
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


def test_a_table_title_and_caption_are_lines_of_their_own_without_padding() -> None:
    console, out = _console(80)
    table = Table()
    table.add_column("a wide column heading")
    table.add_row("1")
    print_table(console, "the title", table, "the caption")
    lines = out.getvalue().splitlines()
    assert lines[0] == "the title"
    assert lines[-1] == "the caption"
    assert "a wide column heading" in lines[2]
