"""The linear-time edit window (``_edit_window``) against the plain loop it replaced.

``text_edit`` used to test every step's window with ``str.count`` and ``str.replace``
(quadratic on repetitive text, SPEC §22). The fast search must pick the very same window,
so generated case files stay byte-identical: the plain loop is kept here, and the two are
run on texts built to split them — periodic runs (where a window occurs more than once and
then overlaps itself), edits that insert or delete a whole period (where replacing the
first occurrence rebuilds the text by coincidence), edits at either end, deletions longer
than the period, and plain random text.
"""

from __future__ import annotations

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from textcontract.mutate._edit_window import common_prefix, common_suffix, widen
from textcontract.mutate._encode import text_edit


def _whole_lines(text: str, start: int, end: int) -> tuple[int, int]:
    start = text.rfind("\n", 0, start) + 1
    newline = text.find("\n", end)
    return start, len(text) if newline < 0 else newline


def plain_text_edit(old: str, new: str) -> tuple[str, str] | None:
    """``text_edit`` as it was before the linear search: one full test per step."""
    if not old:
        return None
    prefix = common_prefix(old, new)
    suffix = common_suffix(old, new, limit=min(len(old), len(new)) - prefix)
    start, end = widen(old, prefix, len(old) - suffix)
    if "\n" in old[start:end]:
        start, end = _whole_lines(old, start, end)
    if 2 * (end - start) > len(old):
        start, end = 0, len(old)
    while True:
        find = old[start:end]
        replacement = new[start : len(new) - (len(old) - end)]
        if old.count(find) == 1 and old.replace(find, replacement) == new:
            return find, replacement
        assert (start, end) != (0, len(old))
        start, end = widen(old, max(start - 1, 0), min(end + 1, len(old)))


_unit = st.text(st.sampled_from(list("ab \n")), min_size=1, max_size=5)
_noise = st.text(st.sampled_from(list("ab \nc.")), max_size=6)


@st.composite
def _repetitive_edit(draw: st.DrawFn) -> tuple[str, str]:
    """A periodic text (with a little noise around it) and an edit of it."""
    unit = draw(_unit)
    old = draw(_noise) + unit * draw(st.integers(2, 40)) + draw(_noise)
    at = draw(st.integers(0, len(old)))
    removed = draw(st.integers(0, min(len(old) - at, 3 * len(unit) + 2)))
    inserted = draw(
        st.one_of(
            st.just(""),
            st.just(unit),
            st.just(unit * 2),
            st.just(unit[::-1]),
            st.text(st.sampled_from(list("ab \nc")), max_size=4),
        )
    )
    new = old[:at] + inserted + old[at + removed :]
    return old, new


@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(_repetitive_edit())
@example(("x\n\n" * 30, "x\n\n" * 30 + "y"))
@example(("ab ab ab ab ab ab\n" * 6, ("ab ab ab ab ab ab\n" * 6)[:-1]))
@example(("aaaaaaaa", "aaaaaaaaa"))
@example(("ab" * 20, "ab" * 21))
@example(("ab" * 20, "ab" * 19))
def test_the_linear_window_is_the_plain_loops_window(edit: tuple[str, str]) -> None:
    old, new = edit
    if old == new:
        return
    assert text_edit(old, new) == plain_text_edit(old, new)


@settings(max_examples=400, deadline=None)
@given(st.text(st.sampled_from(list("ab \n.é")), max_size=40), st.text(max_size=10))
def test_the_linear_window_equals_the_plain_one_on_random_text(old: str, noise: str) -> None:
    for new in (noise + old, old + noise, old[: len(old) // 2] + noise, noise):
        if new != old:
            assert text_edit(old, new) == plain_text_edit(old, new)
