"""``claim(key, value, fmt=None)``: print a value and record it as a claim of the surface.

``claim()`` runs once per printed claim, so the usual case — an ASCII key and a value that
is already an int, float, bool, None or ASCII string — takes a short path; everything else
goes through the full checks, which accept and convert the same values.

Templates reach it two ways. :class:`~textcontract.render.ClaimExtension` rewrites each
call ``claim(…)`` into the filter call ``(none)|textcontract_claim(…)`` at compile time, since
Jinja2 calls a filter directly but a global through ``Context.call`` (about three times the
cost). Templates that bind the name ``claim`` themselves keep calling the ``claim`` global.
A call whose key and format are written as constants (``claim("order.total", total,
fmt=".2f")``, the usual call) compiles into ``textcontract_claim_constant``, which checks
the value only: the extension checked the key and the format when compiling. Both filters
fall back on the same checked path and give what it gives (a property test holds them to
it).
"""

from __future__ import annotations

from math import isfinite
from string import Formatter
from sys import _getframe, float_info, get_int_max_str_digits
from types import FrameType
from typing import Any

from jinja2 import Undefined, pass_context
from jinja2.runtime import Context
from markupsafe import Markup

from textcontract.model import FactValue, describe_value, is_valid_unicode
from textcontract.render._errors import RenderError, Site, site_of, template_frame
from textcontract.render._markers import CLAIM_HEADS, RESERVED, first_reserved
from textcontract.render._recorder import ACTIVE, place_of

__all__ = [
    "CLAIM_FILTER",
    "CONSTANT_CLAIM_FILTER",
    "claim",
    "claim_filter",
    "claim_filter_constant",
    "constant_format",
    "constant_key",
    "refuse_reserved",
]

CLAIM_FILTER = "textcontract_claim"
CONSTANT_CLAIM_FILTER = "textcontract_claim_constant"

_FORMAT_ERRORS = (ValueError, TypeError, KeyError, IndexError, AttributeError, OverflowError)
_PLAIN_TYPES = frozenset({bool, type(None)})
_HEADS = len(CLAIM_HEADS)
_HIGHEST = float_info.max
_LOWEST = -_HIGHEST
# integers the short paths format: larger ones go through _fact_value, which refuses what
# Python will not write in decimal (its int/str digit limit, 4,300 digits by default; str()
# of one raises, which sends it there too)
_HIGHEST_INT = 1 << 64
_LOWEST_INT = -_HIGHEST_INT
_active = ACTIVE.get


def claim(key: Any, value: Any, fmt: Any = None) -> str:
    """The value's text — ``format(value, fmt)``, or ``fmt.format(value)`` when ``fmt``
    holds ``{`` — recorded with its place in the final text when inside ``render()``."""
    frame = template_frame(_getframe(1))
    return _claim(key, value, fmt, frame, -1 if frame is None else frame.f_lasti)


@pass_context
def claim_filter(_context: Context, _target: None, key: Any, value: Any, fmt: Any = None) -> str:
    """``claim()`` as the filter the extension compiles calls into (module docstring).

    Jinja2 calls a filter straight from the template's code, so the caller's frame is the
    template's. ``pass_context`` keeps Jinja2 from evaluating the call at compile time.
    """
    kind = type(value)
    if (
        type(key) is str
        and key.isascii()
        and key
        and (
            (kind is str and value.isascii())
            or (kind is float and _LOWEST <= value <= _HIGHEST)  # finite
            or kind is int
            or kind is bool
            or value is None
        )
    ):
        # The usual claim, in one frame: plain key and value, nothing to convert.
        if fmt is None:
            try:
                text = value if kind is str else str(value)
            except ValueError:  # an integer past the int/str digit limit
                text = "\x80"  # not ASCII: _claim below reports the error
        elif (
            type(fmt) is str
            and "{" not in fmt
            and (kind is not int or _LOWEST_INT <= value <= _HIGHEST_INT)
        ):
            try:
                text = format(value, fmt)
            except _FORMAT_ERRORS:
                text = "\x80"
        else:
            text = "\x80"
        if text.isascii() and RESERVED not in text:
            recorder = _active()
            if recorder is None:
                return text
            claims = recorder.claims
            ident = len(claims)
            if ident < _HEADS:
                # Recorder.claimed(), inlined: this runs once per printed claim.
                caller = _getframe(1)
                claims.append((key, value, caller, caller.f_lasti, text))
                recorder.surface_claims[key] = value
                return f"{recorder.separator}{CLAIM_HEADS[ident]}{text}{recorder.claim_close}"
    caller = _getframe(1)
    return _claim(key, value, fmt, caller, caller.f_lasti)


@pass_context
def claim_filter_constant(
    _context: Context, _target: None, key: str, value: Any, fmt: str | None = None
) -> str:
    """:func:`claim_filter` for a call whose key and format are constants that the
    extension checked when compiling (:func:`constant_key`, :func:`constant_format`):
    only the value is checked here. The text of a number then holds neither U+0000 nor
    anything beyond ASCII, whatever the number: the format has no ``c`` or ``n`` type."""
    kind = type(value)
    if (
        (kind is float and _LOWEST <= value <= _HIGHEST)  # finite
        or kind is int
        or kind is bool
        or value is None
        or (kind is str and value.isascii() and RESERVED not in value)
    ):
        try:
            if fmt is None:
                text = value if kind is str else str(value)
            elif kind is int and not _LOWEST_INT <= value <= _HIGHEST_INT:
                raise OverflowError  # (hex of any size works): _claim checks the digit limit
            else:
                text = format(value, fmt)
        except _FORMAT_ERRORS:
            pass  # _claim reports it
        else:
            recorder = _active()
            if recorder is None:
                return text
            claims = recorder.claims
            ident = len(claims)
            if ident < _HEADS:
                # Recorder.claimed(), inlined (as in claim_filter)
                caller = _getframe(1)
                claims.append((key, value, caller, caller.f_lasti, text))
                recorder.surface_claims[key] = value
                return f"{recorder.separator}{CLAIM_HEADS[ident]}{text}{recorder.claim_close}"
    caller = _getframe(1)
    return _claim(key, value, fmt, caller, caller.f_lasti)


def constant_key(key: object) -> bool:
    """Whether a key written as a constant needs no check when claimed."""
    return type(key) is str and key.isascii() and bool(key)


def constant_format(fmt: object) -> bool:
    """Whether a format written as a constant lets :func:`claim_filter_constant` skip the
    checks of the text: a format spec (no ``{``) in ASCII without U+0000, whose type is
    neither ``c`` (a code point: any character) nor ``n`` (the locale's digits)."""
    return (
        type(fmt) is str
        and fmt.isascii()
        and "{" not in fmt
        and RESERVED not in fmt
        and not fmt.endswith(("c", "n"))
    )


def _claim(key: Any, value: Any, fmt: Any, frame: FrameType | None, offset: int) -> str:
    """Every other claim: check and convert the key and value, format, record."""
    site = site_of(*place_of(frame, offset))
    safe = False
    if not _plain(key, value):
        safe = isinstance(value, Markup)
        key, value = _claim_key(key, site), _fact_value(key, value, site)
    if fmt is None:
        text = value if type(value) is str else str(value)
        refuse_reserved(text, f"the text of claim {key!r}", site)
    else:
        text = _formatted(key, value, fmt, site)
    recorder = ACTIVE.get()
    if recorder is not None:
        text = recorder.claimed(key, value, frame, offset, text)
    return Markup(text) if safe and fmt is None else text


def _plain(key: Any, value: Any) -> bool:
    """True when the key and value need no conversion: ASCII key, plain JSON-type value."""
    if type(key) is not str or not key or not key.isascii():
        return False
    kind = type(value)
    if kind is str:
        return value.isascii()  # type: ignore[no-any-return]
    if kind is float:
        return isfinite(value)
    if kind is int:
        return _LOWEST_INT <= value <= _HIGHEST_INT  # type: ignore[no-any-return]
    return kind in _PLAIN_TYPES


def _claim_key(key: Any, site: Site) -> str:
    if isinstance(key, Undefined):
        raise RenderError(f"claim(): the key is undefined ({_undefined(key)})", site)
    if not isinstance(key, str) or not key:
        raise RenderError(f"claim(): the key must be a non-empty string, got {key!r}", site)
    if not is_valid_unicode(key):
        raise RenderError("claim(): the key holds a lone surrogate (invalid Unicode)", site)
    return str(key)


def _fact_value(key: Any, value: Any, site: Site) -> FactValue:
    """The claimed value as passed, type kept; anything but a finite JSON scalar is refused."""
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, int):
        number = int(value)
        try:
            str(number)
        except ValueError:  # Python's int/str digit limit: no digest could be taken
            raise RenderError(
                f"claim {key!r}: an integer of more than {get_int_max_str_digits():,} digits "
                "is not a fact value (Python will not write it in decimal, so no digest "
                "could be taken; see sys.set_int_max_str_digits)",
                site,
            ) from None
        return number
    if isinstance(value, float):
        if not isfinite(value):
            raise RenderError(f"claim {key!r}: {value!r} is not a finite number", site)
        return float(value)
    if isinstance(value, str):
        if not is_valid_unicode(value):
            raise RenderError(f"claim {key!r}: the value holds a lone surrogate", site)
        return str(value)
    if isinstance(value, Undefined):
        raise RenderError(f"claim {key!r}: the value is undefined ({_undefined(value)})", site)
    raise RenderError(
        f"claim {key!r}: a {type(value).__name__} is not a fact value; claims are finite "
        "JSON scalars (string, integer, float, boolean, null) — convert it, e.g. with "
        "float(...) or str(...)",
        site,
    )


def _formatted(key: str, value: FactValue, fmt: Any, site: Site) -> str:
    if type(fmt) is not str:
        raise RenderError(f"claim {key!r}: fmt must be a string, got {fmt!r}", site)
    try:
        if "{" in fmt:
            _refuse_fields(key, fmt, site)
            text = fmt.format(value)
        else:
            text = format(value, fmt)
    except _FORMAT_ERRORS as exc:
        raise RenderError(
            f"claim {key!r}: fmt {fmt!r} cannot format {describe_value(value)}: {exc}", site
        ) from None
    refuse_reserved(text, f"the text of claim {key!r}", site)
    return text


def _refuse_fields(key: str, fmt: str, site: Site) -> None:
    """Refuse a template whose fields do more than format the value: ``str.format`` looks
    up field names, indexes and attributes (``{0.__class__}``) on its arguments, which a
    sandboxed template must not reach through ``fmt``. Raises ValueError for a malformed
    template (reported as a format that cannot format the value)."""
    for _, field, spec, conversion in Formatter().parse(fmt):
        if field is None:
            continue
        if field or conversion is not None or "{" in (spec or ""):
            raise RenderError(
                f"claim {key!r}: fmt {fmt!r} may hold only the fields {{}} and {{:spec}} "
                "(a format spec); field names, indexes, attributes, conversions and nested "
                "fields are refused",
                site,
            )


def refuse_reserved(text: str, what: str, site: Site) -> None:
    index = first_reserved(text)
    if index is not None:
        raise RenderError(
            f"{what} contains U+0000 (NUL) at index {index}, which textcontract.render "
            "reserves for its markers",
            site,
        )


def _undefined(value: Undefined) -> str:
    message: str = value._undefined_message
    return message
