"""Parsing a contract: its file and every file it includes, with every problem at once.

Each file is read in three jobs — the header, policy and defaults
(:mod:`~textcontract.contract._header`), its includes
(:mod:`~textcontract.contract._includes`, read depth first before the file's own
rules), and its rule entries (:mod:`~textcontract.contract._rule_entries`) — all
through one :class:`~textcontract.fields.FieldReader` per file, so every problem
names file, line, column and the rule and field it concerns. They are raised
together as one :class:`ContractError`.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from textcontract._yaml import load_yaml
from textcontract.contract._header import Header, read_defaults, read_header
from textcontract.contract._includes import (
    ContractSource,
    open_include,
    read_includes,
    source_of_file,
    source_of_text,
)
from textcontract.contract._parsed import ParsedContract, RuleEntry, contract_digest
from textcontract.contract._rule_entries import RuleScope, read_rules
from textcontract.contract._tokens import Tokens, read_tokens
from textcontract.errors import ContractError, InputError, Location, Problem
from textcontract.fields import MISSING, FieldReader
from textcontract.rules import Registry, default_registry, share_patterns

if TYPE_CHECKING:
    from textcontract.contract._lineage import Lineage

__all__ = ["parse_contract_file", "parse_contract_source", "parse_contract_text"]


class _Load:
    """One load: the registry, the files being read, the problems and the rules found so far."""

    def __init__(self, registry: Registry) -> None:
        self.registry = registry
        self.problems: list[Problem] = []
        self.entries: list[RuleEntry] = []
        self.places: dict[str, Location] = {}
        self.reading: list[ContractSource] = []
        self.files: list[str] = []
        self.texts: list[str] = []
        self.lineage: Lineage | None = None
        self.tokens: Tokens | None = None
        """The top file's ``tokens:`` block, when it has a valid one."""

    def file(
        self, source: ContractSource, tokens: Tokens | None = None
    ) -> tuple[Header, FieldReader] | None:
        """Read one file (its includes first); ``None`` when it is not a contract at all.

        ``tokens`` is the block of the nearest including file that has one.
        """
        self.reading.append(source)
        self.files.append(source.display)
        self.texts.append(source.text)
        try:
            return self._read(source, tokens)
        finally:
            self.reading.pop()

    def _read(
        self, source: ContractSource, tokens: Tokens | None
    ) -> tuple[Header, FieldReader] | None:
        try:
            data, positions = load_yaml(source.text, source.display, error=ContractError)
        except InputError as error:
            self.problems.extend(error.problems)
            return None
        reader = FieldReader(source.display, positions, problems=self.problems)
        if data is None:  # nothing but comments and blank lines
            reader.problem(
                (),
                "the contract is empty: expected a mapping with at least 'textcontract: 1' "
                "and 'id'",
            )
            return None
        if not isinstance(data, dict):
            reader.mapping(data)
            return None
        header = read_header(reader, data)
        if len(self.reading) == 1 and data.get("lineage") is not None:  # included files' is ignored
            from textcontract.contract._lineage import read_lineage  # a contract's own, if any

            self.lineage = read_lineage(reader, data["lineage"])
        defaults = read_defaults(reader, data.get("defaults", MISSING))
        if "tokens" in data:
            tokens = read_tokens(reader, data["tokens"])
            if len(self.reading) == 1:
                self.tokens = tokens
        for include, path in read_includes(reader, data.get("include", MISSING)):
            included = open_include(reader, include, path, source)
            if included is not None and not self._cycle(reader, included, path):
                self.file(included, tokens)
        scope = RuleScope(self.registry, defaults, self.places, tokens)
        self.entries.extend(read_rules(reader, data.get("rules", MISSING), scope))
        return header, reader

    def _cycle(
        self, reader: FieldReader, included: ContractSource, path: tuple[str | int, ...]
    ) -> bool:
        identities = [source.identity for source in self.reading]
        if included.identity not in identities:
            return False
        start = identities.index(included.identity)
        chain = [source.display for source in self.reading[start:]]
        reader.problem(path, f"include cycle: {' -> '.join([*chain, included.display])}")
        return True


def parse_contract_source(
    source: ContractSource, registry: Registry | None = None
) -> ParsedContract:
    """Parse a contract from ``source``; raise :class:`ContractError` listing every problem."""
    load = _Load(registry if registry is not None else default_registry())
    read = load.file(source)
    if read is not None and not load.entries and not load.problems:
        read[1].problem(("rules",), "the contract defines no rules (directly or through include)")
    if load.problems or read is None:
        raise ContractError(load.problems)
    header = read[0]
    entries = tuple(load.entries)
    share_patterns(entry.rule for entry in entries)  # one prefilter per profile (built lazily)
    return ParsedContract(
        id=header.id,
        version=header.version,
        policy=header.policy,
        entries=entries,
        digest=contract_digest(header.id, header.version, header.policy, entries, load.tokens),
        source=source.display,
        description=header.description,
        files=tuple(load.files),
        texts=tuple(load.texts),
        lineage=load.lineage,
        tokens=load.tokens,
    )


def parse_contract_file(
    path: str | os.PathLike[str], display: str | None = None, registry: Registry | None = None
) -> ParsedContract:
    """Parse the contract file at ``path`` (``display`` names it in messages)."""
    return parse_contract_source(source_of_file(path, display), registry)


def parse_contract_text(
    text: str, name: str = "<string>", registry: Registry | None = None
) -> ParsedContract:
    """Parse contract YAML given as text; relative includes are refused (no folder)."""
    return parse_contract_source(source_of_text(text, name), registry)
