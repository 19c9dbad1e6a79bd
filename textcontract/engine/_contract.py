"""The library entry point: ``load_contract(path)`` once, ``contract.check(...)`` per output."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from textcontract.contract import ParsedContract, parse_contract_file, parse_contract_text
from textcontract.engine._evaluate import evaluate
from textcontract.errors import ContractError, Problem
from textcontract.model import CheckPolicy, Context, Document, Report, RuleVersion
from textcontract.rules import Registry, RuleType

__all__ = ["Contract", "load_contract", "load_contract_text"]


class Contract:
    """A compiled contract. Patterns are compiled once, at load; ``check`` is pure."""

    __slots__ = ("parsed",)

    def __init__(self, parsed: ParsedContract) -> None:
        self.parsed = parsed

    @property
    def id(self) -> str:
        return self.parsed.id

    @property
    def version(self) -> RuleVersion:
        return self.parsed.version

    @property
    def digest(self) -> str:
        return self.parsed.digest

    @property
    def policy(self) -> CheckPolicy:
        return self.parsed.policy

    @property
    def rules(self) -> tuple[RuleType, ...]:
        return self.parsed.rules

    def check(
        self,
        document: Document | str | Mapping[str, Any],
        context: Context | Mapping[str, Any] | None = None,
        source: str | None = None,
    ) -> Report:
        """Check one output.

        ``document`` is a :class:`Document`, a plain string (one ``body``
        surface) or the JSON form as a dict; ``context`` is a :class:`Context`,
        either JSON form as a dict, or None for the empty context. ``source``
        names the input in the report (its ``source``: a path, an id), else null.
        """
        if source is not None and not isinstance(source, str):
            raise TypeError(f"source must be a string or None, not {type(source).__name__}")
        if isinstance(document, str):
            document = Document.from_text(document)
        elif not isinstance(document, Document):
            document = Document.from_json(document)
        if context is None:
            context = Context.empty()
        elif not isinstance(context, Context):
            context = Context.from_json(context)
        return evaluate(self.parsed, document, context, source=source)

    def __repr__(self) -> str:
        return f"Contract(id={self.id!r}, version={self.version!r}, rules={len(self.rules)})"


def load_contract(path: str | os.PathLike[str], *, registry: Registry | None = None) -> Contract:
    """Load and compile the contract file at ``path`` (a ``str`` or :class:`os.PathLike`).

    ``path`` is always a path, never YAML text (that is :func:`load_contract_text`);
    relative includes start from the file's folder. Raises
    :class:`~textcontract.errors.ContractError` with every problem found.
    """
    if not isinstance(path, str | os.PathLike):
        raise TypeError(
            f"load_contract takes a path (str or os.PathLike), not {type(path).__name__}"
        )
    try:
        return Contract(parse_contract_file(path, os.fspath(path), registry=registry))
    except ContractError as error:
        if isinstance(path, str) and "\n" in path:
            raise ContractError(_text_hint(error.problems)) from None
        raise


def load_contract_text(
    text: str, name: str = "<string>", *, registry: Registry | None = None
) -> Contract:
    """Load and compile contract YAML given as text; ``name`` names it in messages.

    Text has no folder, so a relative ``include:`` is an error (``builtin:`` packs work).
    """
    if not isinstance(text, str):
        raise TypeError(f"load_contract_text takes YAML text (str), not {type(text).__name__}")
    return Contract(parse_contract_text(text, name, registry=registry))


def _text_hint(problems: tuple[Problem, ...]) -> list[Problem]:
    """A path holding a line break was probably meant as YAML text: say so."""
    hint = "load_contract takes a path; to load YAML text, use load_contract_text"
    return [replace(problem, hint=problem.hint or hint) for problem in problems]
