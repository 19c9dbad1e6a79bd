"""Contract sources and includes: ``builtin:NAME`` packs and paths relative to the includer."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from textcontract.contract._packs import builtin_pack, builtin_pack_names
from textcontract.errors import ContractError, InputError, Problem
from textcontract.fields import MISSING, FieldReader, KeyPath, did_you_mean
from textcontract.inputs import read_text_file

__all__ = ["ContractSource", "open_include", "read_includes", "source_of_file", "source_of_text"]

_BUILTIN = "builtin:"


@dataclass(frozen=True)
class ContractSource:
    """One contract file to read.

    ``display`` names it in messages; ``identity`` is what an include cycle is found
    by (the resolved path, or the pack's name); ``base`` is the folder its relative
    includes start from (``None`` for text not read from a file).
    """

    text: str
    display: str
    identity: str
    base: Path | None


def source_of_file(path: str | os.PathLike[str], display: str | None = None) -> ContractSource:
    """The contract file at ``path``; an unreadable file is a :class:`ContractError`."""
    file = Path(path)
    shown = display if display is not None else os.fspath(path)
    try:
        text = read_text_file(file, shown)
    except InputError as error:
        raise ContractError(error.problems) from None
    return ContractSource(text, shown, str(file.resolve()), file.parent)


def source_of_text(text: str, name: str, base: Path | None = None) -> ContractSource:
    """Contract YAML given as text; a leading byte-order mark is dropped."""
    return ContractSource(text.removeprefix("\ufeff"), name, name, base)


def read_includes(reader: FieldReader, value: Any) -> list[tuple[str, KeyPath]]:
    """The file's ``include:`` entries with where each is written."""
    if value is MISSING or value is None:
        return []
    found = []
    for index, item in enumerate(reader.sequence(value, ("include",))):
        path: KeyPath = ("include", index)
        name = reader.string(item, path, None)
        if name is not None:
            found.append((name, path))
    return found


def open_include(
    reader: FieldReader, include: str, path: KeyPath, including: ContractSource
) -> ContractSource | None:
    """The source an include names, or ``None`` after reporting why it cannot be read."""
    if include.startswith(_BUILTIN):
        return _builtin(reader, include, path)
    if including.base is None:
        reader.problem(
            path,
            f"cannot include {include!r}: a relative include needs a contract read from a file",
        )
        return None
    target = including.base / include
    shown = str(Path(including.display).parent / include)
    try:
        text = read_text_file(target, shown)
    except InputError as error:
        for problem in error.problems:
            _unreadable(reader, include, path, problem)
        return None
    return ContractSource(text, shown, str(target.resolve()), target.parent)


def _unreadable(reader: FieldReader, include: str, path: KeyPath, problem: Problem) -> None:
    """A problem reading an included file: said at the include unless it has a place inside."""
    where = problem.location
    if where.line is not None or where.byte_offset is not None:
        reader.problems.append(problem)
    else:
        reader.problem(path, f"cannot include {include!r}: {problem.message}", problem.hint)


def _builtin(reader: FieldReader, include: str, path: KeyPath) -> ContractSource | None:
    name = include.removeprefix(_BUILTIN)
    pack = builtin_pack(name)
    if pack is None:
        known = builtin_pack_names()
        reader.problem(
            path,
            f"no shipped rule pack {include!r} (shipped: {', '.join(known) or 'none'})",
            did_you_mean(name, known),
        )
        return None
    return ContractSource(pack.read_text(encoding="utf-8-sig"), include, include, None)
