"""Strict YAML reading: the YAML 1.2 core schema, with the position of every node.

Only ``true``/``false`` are booleans (``yes``/``no``/``on``/``off`` stay
strings), ``1e3`` is a float, ``1_000`` is a string. Duplicate keys,
anchors/aliases, non-string mapping keys and tags outside the core schema are
errors. Positions are kept per key path so that later validation can point at
the exact line and column of any value.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import yaml
from yaml.composer import Composer
from yaml.events import AliasEvent, CollectionEndEvent, CollectionStartEvent, ScalarEvent
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode
from yaml.parser import Parser
from yaml.reader import Reader, ReaderError
from yaml.resolver import BaseResolver
from yaml.scanner import Scanner

from textcontract._json import MAX_NESTING, integer_too_long
from textcontract.errors import InputError, Location, Problem

try:
    from yaml._yaml import CParser as _CParser
except ImportError:  # PyYAML built without libyaml: the pure-Python parser does the same
    _CParser = None  # type: ignore[assignment,misc]

__all__ = ["Path", "Positions", "load_yaml", "offset_of"]

Path = tuple[str | int, ...]

_TAG = "tag:yaml.org,2002:"
_NULL = re.compile(r"(?:~|null|Null|NULL|)\Z")
_BOOL = re.compile(r"(?:true|True|TRUE|false|False|FALSE)\Z")
_INT = re.compile(r"(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)\Z")
_FLOAT = re.compile(
    r"(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?"
    r"|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))\Z"
)
_SCALAR_TAGS = frozenset(_TAG + name for name in ("str", "int", "float", "bool", "null"))
_CORE_TAGS = _SCALAR_TAGS | {_TAG + "seq", _TAG + "map"}


def _core_tag(value: str) -> str:
    for pattern, name in ((_NULL, "null"), (_BOOL, "bool"), (_INT, "int"), (_FLOAT, "float")):
        if pattern.match(value):
            return _TAG + name
    return _TAG + "str"


def _mark(mark: object) -> Any:
    """A mark with ``line`` and ``column`` (pure-Python or libyaml), or None."""
    return mark if hasattr(mark, "line") and hasattr(mark, "column") else None


class _Failure(Exception):
    def __init__(self, message: str, mark: Any) -> None:
        super().__init__(message)
        self.message = message
        self.mark = mark


class _CoreComposer(Composer, BaseResolver):
    """Composition with core-schema resolution that refuses anchors, aliases and nesting
    deeper than :data:`~textcontract._json.MAX_NESTING`."""

    _depth = 0

    def resolve(self, kind: type[Node], value: Any, implicit: tuple[bool, bool]) -> str:
        if kind is ScalarNode and implicit[0]:
            return _core_tag(value)
        return str(super().resolve(kind, value, implicit))  # type: ignore[no-untyped-call]

    def compose_node(self, parent: Node | None, index: int) -> Node | None:
        event = self.peek_event()  # type: ignore[attr-defined]
        if isinstance(event, AliasEvent):
            raise _Failure("aliases (*name) are not allowed", _mark(event.start_mark))
        if isinstance(event, ScalarEvent | CollectionStartEvent) and event.anchor is not None:
            raise _Failure("anchors (&name) are not allowed", _mark(event.start_mark))
        if not isinstance(event, CollectionStartEvent):
            return super().compose_node(parent, index)
        if self._depth >= MAX_NESTING:
            raise _Failure(f"YAML nests deeper than {MAX_NESTING} levels", _mark(event.start_mark))
        self._depth += 1
        try:
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1


class _PythonLoader(_CoreComposer, Reader, Scanner, Parser):
    """PyYAML's pure-Python reader, scanner and parser under the core composer."""

    def __init__(self, text: str) -> None:
        Reader.__init__(self, text)
        Scanner.__init__(self)
        Parser.__init__(self)
        Composer.__init__(self)
        BaseResolver.__init__(self)


if _CParser is not None:

    class _LibyamlLoader(_CoreComposer, _CParser):
        """libyaml's scanner and parser (C) under the core composer."""

        def __init__(self, text: str) -> None:
            _CParser.__init__(self, text)
            Composer.__init__(self)
            BaseResolver.__init__(self)


def _make_loader(text: str) -> Any:
    """The fastest available loader; libyaml's parser when PyYAML was built with it.

    Only scanning and parsing move to C (about eight times faster on case files);
    composition, resolution and every refusal stay in :class:`_CoreComposer`.
    """
    if _CParser is None:
        return _PythonLoader(text)
    return _LibyamlLoader(text)


@dataclass(frozen=True)
class _Marks:
    key: tuple[int, int] | None
    value: tuple[int, int]


class Positions:
    """Line/column (1-based) of every value, and of every mapping key, by key path."""

    def __init__(self, file: str | None) -> None:
        self.file = file
        self._marks: dict[Path, _Marks] = {}

    def _record(self, path: Path, key: yaml.Mark | None, value: yaml.Mark) -> None:
        self._marks[path] = _Marks(
            (key.line + 1, key.column + 1) if key is not None else None,
            (value.line + 1, value.column + 1),
        )

    def _nearest(self, path: Sequence[str | int]) -> tuple[Path, _Marks | None]:
        current = tuple(path)
        while current and current not in self._marks:
            current = current[:-1]
        return current, self._marks.get(current)

    def value(self, path: Sequence[str | int], key: str | None = None) -> Location:
        """Where the value at ``path`` (or its nearest recorded ancestor) starts."""
        _, marks = self._nearest(path)
        if marks is None:  # an empty document: its start
            return Location(self.file, 1, 1, key=key)
        return Location(self.file, marks.value[0], marks.value[1], key=key)

    def start(self, path: Sequence[str | int]) -> tuple[int, int] | None:
        """Line and column (1-based) where the value at exactly ``path`` starts, if known."""
        marks = self._marks.get(tuple(path))
        return None if marks is None else marks.value

    def key(self, path: Sequence[str | int], key: str | None = None) -> Location:
        """Where the mapping key of ``path`` starts (its value's place if it has no key)."""
        found, marks = self._nearest(path)
        if marks is None:  # an empty document: its start
            return Location(self.file, 1, 1, key=key)
        line, column = marks.key if marks.key is not None and found == tuple(path) else marks.value
        return Location(self.file, line, column, key=key)

    def rebased(self, prefix: Path) -> Positions:
        """A copy whose paths all start with ``prefix`` (for front matter inside a file)."""
        copy = Positions(self.file)
        copy._marks = {prefix + path: marks for path, marks in self._marks.items()}
        return copy

    def shifted(self, lines: int) -> Positions:
        """A copy moved down ``lines`` lines (for YAML embedded after other text)."""
        copy = Positions(self.file)
        copy._marks = {
            path: _Marks(
                (m.key[0] + lines, m.key[1]) if m.key is not None else None,
                (m.value[0] + lines, m.value[1]),
            )
            for path, m in self._marks.items()
        }
        return copy


def _scalar(node: ScalarNode) -> Any:
    tag, text = node.tag, node.value
    if tag in _CORE_TAGS and tag not in _SCALAR_TAGS:
        raise _Failure(f"tag {tag!r} cannot be used on a scalar", node.start_mark)
    if tag not in _SCALAR_TAGS:
        raise _Failure(f"tag {tag!r} is not allowed (only the YAML core schema)", node.start_mark)
    if tag == _TAG + "str":
        return text
    if tag == _TAG + "null" and _NULL.match(text):
        return None
    if tag == _TAG + "bool" and _BOOL.match(text):
        return text.lower() == "true"
    if tag == _TAG + "int" and _INT.match(text):
        return _integer(text, node.start_mark)
    # _FLOAT also matches plain decimal integers (``!!float 1``), not 0x/0o ones.
    if tag == _TAG + "float" and _FLOAT.match(text):
        lowered = text.lower()
        if lowered.endswith(".nan"):
            return float("nan")
        if lowered.endswith(".inf"):
            return float("-inf") if lowered.startswith("-") else float("inf")
        return float(text)
    raise _Failure(f"{text!r} is not a valid {tag.removeprefix(_TAG)}", node.start_mark)


def _integer(text: str, mark: Any) -> int:
    """An int, refused when its decimal form passes Python's int/str conversion limit.

    ``int()`` enforces the limit for decimal text only: a long ``0x…`` literal would be
    read and then fail wherever it is printed (a report, a message).
    """
    try:
        if text.startswith("0o"):
            value = int(text[2:], 8)
        elif text.startswith("0x"):
            value = int(text[2:], 16)
        else:
            value = int(text)
    except ValueError:  # more digits than sys.get_int_max_str_digits() allows
        raise _Failure(integer_too_long(len(text.lstrip("+-"))), mark) from None
    limit = sys.get_int_max_str_digits()
    # below 10**limit for certain: 2**(3 * limit) = 8**limit
    if limit and value.bit_length() > 3 * limit:
        try:
            str(value)
        except ValueError:
            raise _Failure(integer_too_long(None), mark) from None
    return value


def _construct(node: Node, path: Path, positions: Positions) -> Any:
    if isinstance(node, ScalarNode):
        return _scalar(node)
    if node.tag not in _CORE_TAGS:
        raise _Failure(
            f"tag {node.tag!r} is not allowed (only the YAML core schema)", node.start_mark
        )
    expected = _TAG + ("seq" if isinstance(node, SequenceNode) else "map")
    if node.tag != expected:
        kind = "a sequence" if isinstance(node, SequenceNode) else "a mapping"
        raise _Failure(f"tag {node.tag!r} cannot be used on {kind}", node.start_mark)
    if isinstance(node, SequenceNode):
        items = []
        for index, child in enumerate(node.value):
            positions._record((*path, index), None, child.start_mark)
            items.append(_construct(child, (*path, index), positions))
        return items
    if isinstance(node, MappingNode):
        mapping: dict[str, Any] = {}
        for key_node, value_node in node.value:
            if key_node.tag == _TAG + "merge" or (
                isinstance(key_node, ScalarNode) and key_node.value == "<<" and not key_node.style
            ):
                raise _Failure("merge keys (<<) are not allowed", key_node.start_mark)
            key = (
                _construct(key_node, path, positions) if isinstance(key_node, ScalarNode) else None
            )
            if not isinstance(key, str):
                raise _Failure("mapping keys must be strings", key_node.start_mark)
            if key in mapping:
                raise _Failure(f"duplicate key {key!r}", key_node.start_mark)
            positions._record((*path, key), key_node.start_mark, value_node.start_mark)
            mapping[key] = _construct(value_node, (*path, key), positions)
        return mapping
    raise _Failure("unsupported YAML node", node.start_mark)


_BREAK = re.compile("\r\n|[\n\r\x85\u2028\u2029]")


def _line_column(text: str, position: int) -> tuple[int, int]:
    """1-based line/column of a character offset, counting line breaks as PyYAML does."""
    line, start = 1, 0
    for found in _BREAK.finditer(text, 0, position):
        line, start = line + 1, found.end()
    return line, position - start + 1


def offset_of(text: str, line: int, column: int) -> int:
    """The character offset of a 1-based line/column as PyYAML counts them (see above)."""
    start = 0
    if line > 1:
        for number, found in enumerate(_BREAK.finditer(text), start=2):
            start = found.end()
            if number == line:
                break
    return min(start + column - 1, len(text))


def _deepest(text: str) -> tuple[int | None, int | None]:
    """Line/column (1-based) where the most deeply nested collection starts.

    Only for the rare case where Python's recursion limit stops the composer before
    :data:`~textcontract._json.MAX_NESTING` does (called deep inside another stack): the
    parser's events come without recursion.
    """
    loader = _make_loader(text)
    depth, deepest, where = 0, 0, None
    try:
        while loader.check_event():
            event = loader.get_event()
            if isinstance(event, CollectionStartEvent):
                depth += 1
                if depth > deepest:
                    deepest, where = depth, _mark(event.start_mark)
            elif isinstance(event, CollectionEndEvent):
                depth -= 1
    except yaml.YAMLError:
        pass  # the events up to a syntax error still tell where the nesting was
    finally:
        loader.dispose()
    return (where.line + 1, where.column + 1) if where is not None else (None, None)


def load_yaml(
    text: str, file: str | None = None, error: type[InputError] = InputError
) -> tuple[Any, Positions]:
    """Parse one YAML document; raise ``error`` (an :class:`InputError`) naming file:line:col."""
    positions = Positions(file)
    loader: Any = None
    try:
        # The reader checks for non-printable characters already while constructed.
        loader = _make_loader(text)
        node = loader.get_single_node()
        if node is None:
            return None, positions
        positions._record((), None, node.start_mark)
        return _construct(node, (), positions), positions
    except _Failure as failure:
        mark = failure.mark
        line = mark.line + 1 if mark is not None else None
        column = mark.column + 1 if mark is not None else None
        raise error(Problem(failure.message, Location(file, line, column))) from None
    except ReaderError as exc:
        # Raised for a non-printable character; it carries an offset, not a line/column.
        line, column = _line_column(text, exc.position)
        message = f"invalid YAML: unacceptable character #x{exc.character:04x} ({exc.reason})"
        raise error(Problem(message, Location(file, line, column))) from None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        said = ", ".join(part for part in (exc.context, exc.problem) if part)
        message = f"invalid YAML: {said}"
        line = mark.line + 1 if mark is not None else None
        column = mark.column + 1 if mark is not None else None
        raise error(Problem(message, Location(file, line, column))) from None
    except yaml.YAMLError as exc:
        raise error(Problem(f"invalid YAML: {exc}", Location(file))) from None
    except RecursionError:
        line, column = _deepest(text)
        raise error(Problem("YAML nests too deeply", Location(file, line, column))) from None
    finally:
        if loader is not None:
            loader.dispose()
