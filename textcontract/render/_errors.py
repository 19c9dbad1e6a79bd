"""Render errors: a template's mistake, named by its template and line."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import CodeType, FrameType
from typing import Any

from textcontract.errors import InputError, Location, Problem

__all__ = ["RenderError", "Site", "site_of", "template_frame"]

_UNNAMED = "<template>"
_SEARCH_DEPTH = 6


@dataclass(frozen=True, slots=True)
class Site:
    """Where in a template something happened: the template, and the compiled code and
    instruction offset that were running (reading a frame's offset is free, its line
    number is not), mapped back to a template line only when a message needs it."""

    template: Any
    code: CodeType | None = None
    offset: int = -1

    @property
    def name(self) -> str:
        name = getattr(self.template, "name", None)
        return name if isinstance(name, str) else _UNNAMED

    def template_line(self) -> int | None:
        if self.template is None or self.code is None:
            return None
        python_line = None
        for start, end, line in self.code.co_lines():
            if start <= self.offset < end:
                python_line = line
                break
        if python_line is None:
            return None
        found: int = self.template.get_corresponding_lineno(python_line)
        return found

    def describe(self) -> str:
        line = self.template_line()
        return f"{self.name}, line {line}" if line is not None else self.name


def template_frame(frame: FrameType | None) -> FrameType | None:
    """The nearest frame, from ``frame`` outwards, running a compiled Jinja2 template.

    Jinja2 gives a compiled template's module the global ``__jinja_template__`` and keeps
    a map from its Python lines to template lines (what its tracebacks use).
    """
    for _ in range(_SEARCH_DEPTH):
        if frame is None or "__jinja_template__" in frame.f_globals:
            return frame
        frame = frame.f_back
    return None


def site_of(code_globals: Mapping[str, Any] | None, code: CodeType | None, offset: int) -> Site:
    """The site of template code from its frame's globals, code object and offset."""
    template = None if code_globals is None else code_globals.get("__jinja_template__")
    return Site(template, code, offset)


class RenderError(InputError):
    """A template claimed or rendered something textcontract cannot record (exit code 2)."""

    def __init__(self, message: str, site: Site) -> None:
        super().__init__(Problem(message, Location(site.name, site.template_line())))
        self.template_name = site.name
        self.line = site.template_line()
