"""The Jinja2 extension: ``claim()`` and the ``{% surface %}`` tag."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from itertools import islice
from typing import Any

from jinja2 import Environment, nodes, pass_context
from jinja2.exceptions import TemplateSyntaxError
from jinja2.ext import Extension
from jinja2.lexer import Token, TokenStream
from jinja2.parser import Parser
from jinja2.runtime import Context

from textcontract.model import FORMATS, NAME_PATTERN, is_valid_unicode
from textcontract.render._claim import (
    CLAIM_FILTER,
    CONSTANT_CLAIM_FILTER,
    claim,
    claim_filter,
    claim_filter_constant,
    constant_format,
    constant_key,
    refuse_reserved,
)
from textcontract.render._errors import RenderError, site_of
from textcontract.render._markers import RESERVED, first_reserved
from textcontract.render._recorder import ACTIVE

__all__ = [
    "SURFACE_END",
    "SURFACE_START",
    "SURFACE_START_CHECKED",
    "ClaimExtension",
    "surface_end",
    "surface_start",
    "surface_start_checked",
]

SURFACE_START = "textcontract_surface_start"
SURFACE_START_CHECKED = "textcontract_surface_start_checked"
SURFACE_END = "textcontract_surface_end"
_NOT_A_CALL_AFTER = frozenset({"macro", "call"})


class ClaimExtension(Extension):
    """``claim(key, value, fmt=None)`` and
    ``{% surface "name"[, state=…][, format=…] %}…{% endsurface %}``.

    Nothing happens at rendering time unless a template calls ``claim()`` or opens a
    surface, so templates that use neither render exactly as fast as without it.
    """

    tags = {"surface"}  # noqa: RUF012 - Extension declares a plain set attribute

    def __init__(self, environment: Environment) -> None:
        super().__init__(environment)
        environment.globals["claim"] = claim
        environment.filters[CLAIM_FILTER] = claim_filter
        environment.filters[CONSTANT_CLAIM_FILTER] = claim_filter_constant
        environment.filters[SURFACE_START] = surface_start
        environment.filters[SURFACE_START_CHECKED] = surface_start_checked
        environment.filters[SURFACE_END] = surface_end

    def preprocess(self, source: str, name: str | None, filename: str | None = None) -> str:
        index = first_reserved(source)
        if index is not None:
            raise TemplateSyntaxError(
                "the template contains U+0000 (NUL), which textcontract.render reserves for "
                "its markers",
                source.count("\n", 0, index) + 1,
                name,
                filename,
            )
        return source

    def filter_stream(self, stream: TokenStream) -> Iterator[Token]:
        """Compile ``claim(…)`` into ``(none)|textcontract_claim(…)`` (see ``_claim``), or
        into ``(none)|textcontract_claim_constant(…)`` when its key and format are
        constants that need no check when rendering (:func:`_constant_arguments`).

        Only when every use of the name ``claim`` in the template is such a call: a
        template that defines, imports or passes ``claim`` keeps Jinja2's usual lookup.
        """
        tokens = list(stream)
        calls = _claim_calls(tokens)
        if calls is None:
            yield from tokens
            return
        for index, token in enumerate(tokens):
            if index in calls:
                line = token.lineno
                yield Token(line, "lparen", "(")
                yield Token(line, "name", "none")
                yield Token(line, "rparen", ")")
                yield Token(line, "pipe", "|")
                constant = _constant_arguments(tokens, index + 2)
                yield Token(line, "name", CONSTANT_CLAIM_FILTER if constant else CLAIM_FILTER)
            else:
                yield token

    def parse(self, parser: Parser) -> list[nodes.Node]:
        lineno = next(parser.stream).lineno
        name = parser.parse_expression()
        options: dict[str, nodes.Expr] = {}
        while True:
            parser.stream.skip_if("comma")
            if not parser.stream.current.test("name"):
                break
            option = next(parser.stream)
            if option.value not in _SURFACE_OPTIONS or option.value in options:
                again = option.value in options
                parser.fail(
                    f"{'repeated' if again else 'unknown'} surface option {option.value!r} "
                    "(expected state=… and format=…, each at most once)",
                    option.lineno,
                )
            parser.stream.expect("assign")
            options[option.value] = parser.parse_expression()
        state = options.get("state", nodes.Const(None))
        written = options.get("format", nodes.Const(None))
        body = parser.parse_statements(("name:endsurface",), drop_needle=True)
        # Filters, as for claim(): Jinja2 calls them directly from the template's code. A
        # name, state and format written as valid constants need no check when rendering.
        target = nodes.Const(None)
        start = SURFACE_START_CHECKED if _checked(name, state, written) else SURFACE_START
        opened = nodes.Filter(target, start, [name, state, written], [], None, None, lineno=lineno)
        closed = nodes.Filter(target, SURFACE_END, [], [], None, None, lineno=lineno)
        return [
            nodes.Output([opened], lineno=lineno),
            *body,
            nodes.Output([closed], lineno=lineno),
        ]


_SURFACE_OPTIONS = frozenset({"state", "format"})


def _checked(name: nodes.Expr, state: nodes.Expr, written: nodes.Expr) -> bool:
    """Whether the name, state and format of a ``{% surface %}`` tag are constants that
    :func:`surface_start` would accept: a surface name, None or a snapshot name, and None
    or a surface format."""
    if not (
        isinstance(name, nodes.Const)
        and isinstance(state, nodes.Const)
        and isinstance(written, nodes.Const)
    ):
        return False
    name_value, state_value, format_value = name.value, state.value, written.value
    return (
        type(name_value) is str
        and NAME_PATTERN.match(name_value) is not None
        and (state_value is None or (type(state_value) is str and _state_name(state_value)))
        and (format_value is None or (type(format_value) is str and format_value in FORMATS))
    )


def _state_name(state: str) -> bool:
    return bool(state) and (state.isascii() or is_valid_unicode(state)) and RESERVED not in state


@pass_context
def surface_start_checked(
    context: Context, _target: None, name: str, state: str | None, format: str | None
) -> str:
    """:func:`surface_start` for a name, state and format checked when the template was
    compiled."""
    del context
    recorder = ACTIVE.get()
    if recorder is None:
        return ""
    caller = sys._getframe(1)
    return recorder.opened(name, state, format, (caller.f_globals, caller.f_code, caller.f_lasti))


@pass_context
def surface_start(context: Context, _target: None, name: Any, state: Any, format: Any) -> str:
    """The marker opening a ``{% surface %}`` block (nothing outside ``render()``)."""
    del context
    caller = sys._getframe(1)
    place = (caller.f_globals, caller.f_code, caller.f_lasti)
    if type(name) is not str or not NAME_PATTERN.match(name):
        raise RenderError(
            f"surface name {name!r} does not match [a-z0-9][a-z0-9_.-]*", site_of(*place)
        )
    if state is not None:
        if not (isinstance(state, str) and state and (state.isascii() or is_valid_unicode(state))):
            raise RenderError(
                f"surface {name!r}: state must be a non-empty snapshot name, got {state!r}",
                site_of(*place),
            )
        if RESERVED in state:
            refuse_reserved(state, f"the state of surface {name!r}", site_of(*place))
        state = str(state)
    if format is not None:
        if not isinstance(format, str) or format not in FORMATS:
            raise RenderError(
                f"surface {name!r}: format must be one of {', '.join(FORMATS)}, got {format!r}",
                site_of(*place),
            )
        format = FORMATS[FORMATS.index(format)]  # the name itself, never a subclass
    recorder = ACTIVE.get()
    return "" if recorder is None else recorder.opened(name, state, format, place)


@pass_context
def surface_end(context: Context, _target: None) -> str:
    """The marker closing a ``{% surface %}`` block (nothing outside ``render()``)."""
    del context
    recorder = ACTIVE.get()
    return "" if recorder is None else recorder.closed()


def _constant_arguments(tokens: list[Token], start: int) -> bool:
    """Whether the arguments of the call ``claim(`` whose first argument token is at
    ``start`` are a constant key, a value, and maybe a constant format — positional or
    ``fmt=`` — that :func:`claim_filter_constant` may take (see ``constant_key``)."""
    arguments = _arguments(tokens, start)
    if arguments is None or len(arguments) not in (2, 3):
        return False
    key, value, *fmt = arguments
    if len(key) != 1 or key[0].type != "string" or not constant_key(key[0].value):
        return False
    if not value or value[0].type in ("mul", "pow") or any(t.type == "assign" for t in value):
        return False  # *args, **kwargs or a keyword argument: Jinja2 says what is wrong
    if not fmt:
        return True
    written = fmt[0]
    if len(written) == 3 and written[0].test("name:fmt") and written[1].type == "assign":
        written = written[2:]
    return len(written) == 1 and written[0].type == "string" and constant_format(written[0].value)


_OPENING = frozenset({"lparen", "lbracket", "lbrace"})
_CLOSING = frozenset({"rparen", "rbracket", "rbrace"})


def _arguments(tokens: list[Token], start: int) -> list[list[Token]] | None:
    """The tokens of each argument of a call, up to its closing parenthesis (None when the
    call does not end, which the parser reports)."""
    arguments: list[list[Token]] = [[]]
    depth = 0
    for token in islice(tokens, start, None):
        kind = token.type
        if depth == 0 and kind == "rparen":
            return arguments
        if depth == 0 and kind == "comma":
            arguments.append([])
            continue
        if kind in _OPENING:
            depth += 1
        elif kind in _CLOSING:
            depth -= 1
        arguments[-1].append(token)
    return None


def _claim_calls(tokens: list[Token]) -> set[int] | None:
    """Indexes of the ``claim`` name tokens of calls ``claim(``; None when ``claim`` has any
    other use in the template (a macro, import, variable or parameter of that name)."""
    calls: set[int] = set()
    for index, token in enumerate(tokens):
        if token.type != "name" or token.value != "claim":
            continue
        before = tokens[index - 1] if index else None
        if before is not None and before.type == "dot":
            continue  # an attribute: something.claim
        after = tokens[index + 1] if index + 1 < len(tokens) else None
        called = after is not None and after.type == "lparen"
        if not called or (
            before is not None and before.type == "name" and before.value in _NOT_A_CALL_AFTER
        ):
            return None
        calls.add(index)
    return calls
