"""GFM autolinks (mdit-py-plugins' ``gfm_autolink``), kept linear and located.

The plugin's rules copy the rest of the paragraph on every ``:`` and ``@`` and search the
whole pending text for a scheme name, which is quadratic in a paragraph's length (a 300 KB
paragraph: seconds). Each rule is wrapped: it runs only at its own trigger character and
never in silent mode (where it does nothing), it sees the pending text's last characters
only (all its back-scan reads; the rest is flushed as text first, which markdown-it joins
back), and it sees at most :data:`WINDOW` characters ahead, so a bare URL is recognized up
to that length. The wrapper also records, on the link it makes, the span of the paragraph's
text the link came from (``meta["tc_span"]``): the plugin's label may be decoded
(percent-escapes, Punycode) and so cannot be found by its text.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

__all__ = ["SPAN", "WINDOW", "bounded_autolinks", "replace_rule"]

WINDOW = 2048
SPAN = "tc_span"
_SCHEME_BACK_SCAN = 8  # "mailto" and the character before it
_LOCAL = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.+-_")


def replace_rule(ruler: Any, name: str, wrap: Callable[[Any], Any]) -> None:
    """Replace rule ``name`` of ``ruler`` by ``wrap(rule)``, keeping what it may end."""
    rule = ruler.__rules__[ruler.__find__(name)]
    ruler.at(name, wrap(rule.fn), {"alt": list(rule.alt)})


def bounded_autolinks(parser: Any) -> None:
    from mdit_py_plugins.gfm_autolink import gfm_autolink_plugin

    parser.use(gfm_autolink_plugin)
    for name, trigger in (
        ("gfm_autolink_www", "w"),
        ("gfm_autolink_protocol", ":"),
        ("gfm_autolink_email", "@"),
    ):
        replace_rule(parser.inline.ruler, name, partial(_bounded, trigger=trigger))


def _kept(pending: str, trigger: str) -> int:
    """How many characters at the end of the pending text the rule may read."""
    if trigger == "w":
        return 1
    if trigger == ":":
        return _SCHEME_BACK_SCAN
    run = 0  # "@": the local part before it, however long
    while run < len(pending) and pending[-run - 1] in _LOCAL:
        run += 1
    return run + 1


def _bounded(rule: Callable[[Any, bool], bool], trigger: str) -> Callable[[Any, bool], bool]:
    def bounded(state: Any, silent: bool) -> bool:
        position = state.pos
        if silent or state.src[position] != trigger:
            return False
        kept = _kept(state.pending, trigger)
        if len(state.pending) > kept:
            pending = state.pending
            state.pending = pending[:-kept]
            state.pushPending()
            state.pending = pending[-kept:]
        before, count = len(state.pending), len(state.tokens)
        maximum = state.posMax
        state.posMax = min(maximum, position + WINDOW)
        try:
            found = rule(state, silent)
        finally:
            state.posMax = maximum
        if found:
            made = state.tokens[count:]
            flushed = len(made[0].content) if made and made[0].type == "text" else 0
            opening = next(token for token in made if token.type == "link_open")
            opening.meta[SPAN] = (position - (before - flushed), state.pos)
        return found

    return bounded
