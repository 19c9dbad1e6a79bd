"""The library entry point: ``load_contract(...)`` once, ``contract.check(...)`` per output."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from textcontract.contract import ContractDefinition, load_contract_file, load_contract_text
from textcontract.engine._evaluate import evaluate
from textcontract.model import CheckPolicy, Context, Document, Report, RuleVersion
from textcontract.rules import Registry, RuleType

__all__ = ["Contract", "load_contract"]


class Contract:
    """A compiled contract. Patterns are compiled once, at load; ``check`` is pure."""

    __slots__ = ("definition",)

    def __init__(self, definition: ContractDefinition) -> None:
        self.definition = definition

    @property
    def id(self) -> str:
        return self.definition.id

    @property
    def version(self) -> RuleVersion:
        return self.definition.version

    @property
    def digest(self) -> str:
        return self.definition.digest

    @property
    def policy(self) -> CheckPolicy:
        return self.definition.policy

    @property
    def rules(self) -> tuple[RuleType, ...]:
        return self.definition.rules

    def check(
        self,
        document: Document | str | Mapping[str, Any],
        context: Context | Mapping[str, Any] | None = None,
    ) -> Report:
        """Check one output.

        ``document`` is a :class:`Document`, a plain string (one ``body``
        surface) or the JSON form as a dict; ``context`` is a :class:`Context`,
        either JSON form as a dict, or None for the empty context.
        """
        if isinstance(document, str):
            document = Document.from_text(document)
        elif not isinstance(document, Document):
            document = Document.from_json(document)
        if context is None:
            context = Context.empty()
        elif not isinstance(context, Context):
            context = Context.from_json(context)
        return evaluate(self.definition, document, context)

    def __repr__(self) -> str:
        return f"Contract(id={self.id!r}, version={self.version!r}, rules={len(self.rules)})"


def load_contract(source: str | Path, *, registry: Registry | None = None) -> Contract:
    """Load and compile a contract.

    ``source`` is a :class:`~pathlib.Path`, a path string, or contract YAML
    text: a string containing a line break is read as YAML text, any other
    string as a path. Raises :class:`~textcontract.errors.ContractError` with
    every problem found.
    """
    if isinstance(source, str) and "\n" in source:
        return Contract(load_contract_text(source, registry=registry))
    return Contract(load_contract_file(Path(source), str(source), registry=registry))
