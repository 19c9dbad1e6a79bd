"""Which documents ``check DOC…`` names: files, folders searched for documents, stdin.

A folder is searched recursively for ``*.md``, ``*.markdown``, ``*.txt``, ``*.html``,
``*.htm`` and ``*.json`` files, hidden files and folders (a name starting with ``.``)
skipped, in path order (the names of each folder sorted by code point, a folder's documents
where its name sorts). Files named ``*.context.json`` are contexts, never documents.
Symbolic links are followed; a link that leads back into a folder being searched is a loop,
and an entry whose kind cannot be told (a dangling link, one that loops, a folder that
cannot be listed) is an input error, as is a document that is not a regular file: a search
never opens a pipe or a device, and never drops what it cannot read.

Paths keep the form the user gave: a folder's documents are named by joining the folder
as given with their path inside it (``docs/`` → ``docs/a/b.md``, ``.`` → ``./b.md``).

A search also leaves out what :class:`Exclusions` names (SPEC §21): paths matching
``--exclude`` patterns, which follow ``.gitignore`` rules (pathspec's ``GitIgnoreSpec``) and
are matched against the path relative to the folder given, an excluded folder not being
searched at all; and the file the run writes with ``--output``, found by identity (device
and inode), so a second ``check . -o report.json`` does not read the first one's report.
"""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, NamedTuple

from textcontract._files import path_problem
from textcontract.errors import Location, Problem
from textcontract.model import is_valid_unicode

if TYPE_CHECKING:
    from pathspec import GitIgnoreSpec

__all__ = [
    "CONTEXT_SUFFIX",
    "DOCUMENT_SUFFIXES",
    "NO_EXCLUSIONS",
    "STDIN_ARGUMENT",
    "STDIN_NAME",
    "Exclusions",
    "Found",
    "display_path",
    "find_documents",
    "is_context_name",
    "is_document_name",
    "paired_context",
    "search_folder",
    "written_here",
]

DOCUMENT_SUFFIXES = (".md", ".markdown", ".txt", ".html", ".htm", ".json")
CONTEXT_SUFFIX = ".context.json"
STDIN_ARGUMENT = "-"
STDIN_NAME = "<stdin>"
_SEARCHED = "*.md, *.markdown, *.txt, *.html, *.htm and *.json"


class Exclusions:
    """What folder searches leave out: ``--exclude`` patterns and the files this run writes
    (``--output``, ``--sarif-output``).

    Build it before the first pass: the output files' identities are taken then, and the
    second pass leaves out the same files (the run writes each under a hidden temporary
    name, renamed into place at the end).
    """

    def __init__(
        self, patterns: Sequence[str] = (), outputs: Mapping[str, str] | None = None
    ) -> None:
        """``outputs`` maps each file this run writes to the option that names it."""
        self.patterns = tuple(patterns)
        self._spec = _spec(self.patterns) if self.patterns else None
        self._outputs: dict[tuple[int, int], str] = {}
        for output, option in (outputs or {}).items():
            try:
                info = os.stat(output)
            except (OSError, ValueError):
                continue  # not there yet: no search can find it
            self._outputs[info.st_dev, info.st_ino] = option

    def excludes(self, relative: str, folder: bool) -> bool:
        """Whether a pattern excludes ``relative`` (``/``-separated, below the folder)."""
        if self._spec is None:
            return False
        return self._spec.match_file(relative + "/" if folder else relative)

    def written_by(self, info: os.stat_result) -> str | None:
        """The option naming the file ``info`` describes, if this run writes it."""
        return self._outputs.get((info.st_dev, info.st_ino))

    def is_output(self, info: os.stat_result) -> bool:
        return self.written_by(info) is not None


def written_here(option: str) -> str:
    """What an input that this run writes is told."""
    return f"this is the {option} file of this run; it is never read as input"


def _spec(patterns: Sequence[str]) -> GitIgnoreSpec:
    """The patterns as ``.gitignore`` lines; a pattern that cannot be one is an input error."""
    import re

    from pathspec import GitIgnoreSpec

    from textcontract.errors import InputError

    problems = []
    for pattern in patterns:
        try:
            GitIgnoreSpec.from_lines([pattern])
        except re.error as exc:  # the message without the place in pathspec's own regex
            problems.append(
                Problem(f"invalid pattern {pattern!r}: {exc.msg}", Location("--exclude"))
            )
        except ValueError:
            problems.append(
                Problem(
                    f"invalid pattern {pattern!r}: not a .gitignore pattern", Location("--exclude")
                )
            )
    if problems:
        raise InputError(problems)
    return GitIgnoreSpec.from_lines(patterns)


NO_EXCLUSIONS = Exclusions()


class Found(NamedTuple):
    """A document to read: a file (``pipe`` when it is a FIFO named on the command line,
    read once), or standard input (``path`` None). ``folder`` is the argument (its index
    and its text) naming the folder it was found in; None when it named the document."""

    path: str | None
    pipe: bool = False
    folder: tuple[int, str] | None = None


def is_context_name(name: str) -> bool:
    return name.endswith(CONTEXT_SUFFIX)


def is_document_name(name: str) -> bool:
    """Whether a folder search takes a file of this name as a document."""
    return name.endswith(DOCUMENT_SUFFIXES) and not is_context_name(name)


def paired_context(path: str) -> str:
    """The context file that goes with document ``path``: ``X.md`` → ``X.context.json``."""
    folder, name = os.path.split(path)
    return os.path.join(folder, os.path.splitext(name)[0] + CONTEXT_SUFFIX)


def display_path(path: str) -> str:
    """``path`` as reports name it: as given, with ``/`` between its parts."""
    return path if os.sep == "/" else path.replace(os.sep, "/")


def _problem(path: str, message: str) -> Problem:
    return Problem(message, Location(display_path(path)))


def _unreadable(path: str, exc: OSError) -> Problem:
    if exc.errno == errno.ELOOP:
        return _problem(path, "symbolic link loop: the link leads back to itself")
    if exc.errno == errno.ENOENT and os.path.lexists(path):
        return _problem(path, "dangling symbolic link: what it points to does not exist")
    return _problem(path, f"cannot read file: {exc.strerror or exc}")


def _kind_name(mode: int) -> str:
    if stat.S_ISFIFO(mode):
        return "a named pipe (FIFO)"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    return "not a regular file"


def find_documents(
    arguments: Sequence[str], problems: list[Problem], exclusions: Exclusions = NO_EXCLUSIONS
) -> Iterator[Found]:
    """The documents ``arguments`` name, in order; what is wrong goes to ``problems``."""
    stdin_seen = False
    for index, argument in enumerate(arguments):
        if argument == STDIN_ARGUMENT:
            if stdin_seen:
                problems.append(Problem("standard input ('-') can be read only once"))
            stdin_seen = True
            yield Found(None)
            continue
        yield from _argument(index, argument, problems, exclusions)


def _name_problem(path: str) -> str | None:
    problem = path_problem(path)
    if problem is None and not is_valid_unicode(path):
        problem = "the path is not valid UTF-8 (reports could not name it); rename it"
    return problem


def _argument(
    index: int, argument: str, problems: list[Problem], exclusions: Exclusions
) -> Iterator[Found]:
    problem = _name_problem(argument)
    if problem is not None:
        problems.append(Problem(problem, Location(ascii(argument)[1:-1])))
        return
    try:
        info = os.stat(argument)
    except OSError as exc:
        problems.append(_unreadable(argument, exc))
        return
    if stat.S_ISDIR(info.st_mode):
        before = len(problems)
        found = 0
        for path in _search(argument, info, problems, exclusions):
            found += 1
            yield Found(path, folder=(index, argument))
        if not found and len(problems) == before:
            skipped = "hidden files and folders" + (
                " and --exclude patterns" if exclusions.patterns else ""
            )
            problems.append(
                _problem(
                    argument,
                    f"no documents in this folder (searched for {_SEARCHED}; "
                    f"{skipped} are skipped)",
                )
            )
    elif is_context_name(os.path.basename(argument)):
        problems.append(
            _problem(
                argument,
                f"a {CONTEXT_SUFFIX} file is a context, not a document: give it with "
                "--context, or name the document beside it",
            )
        )
    elif (option := exclusions.written_by(info)) is not None:
        problems.append(_problem(argument, written_here(option)))
    else:
        yield Found(argument, pipe=stat.S_ISFIFO(info.st_mode))


def search_folder(
    root: str, problems: list[Problem], exclusions: Exclusions = NO_EXCLUSIONS
) -> Iterator[str]:
    """The documents under folder ``root`` again, in the same order (the second pass)."""
    try:
        info = os.stat(root)
    except OSError as exc:
        problems.append(_unreadable(root, exc))
        return
    yield from _search(root, info, problems, exclusions)


def _search(
    root: str, info: os.stat_result, problems: list[Problem], exclusions: Exclusions
) -> Iterator[str]:
    """The documents under folder ``root``, in path order (depth first, names sorted)."""
    searching = {(info.st_dev, info.st_ino): root}
    stack = [(root, iter(_names(root, problems)), (info.st_dev, info.st_ino), "")]
    while stack:
        folder, names, key, prefix = stack[-1]
        name = next(names, None)
        if name is None:
            stack.pop()
            del searching[key]
            continue
        path = os.path.join(folder, name)
        relative = prefix + name  # below root, "/"-separated
        if exclusions.excludes(relative, folder=False):
            continue  # before stat: an excluded dangling link is no problem
        entry = _entry(path, problems)
        if entry is None or exclusions.is_output(entry):
            continue
        if stat.S_ISDIR(entry.st_mode):
            if exclusions.excludes(relative, folder=True):
                continue
            inner = (entry.st_dev, entry.st_ino)
            if inner in searching:
                problems.append(
                    _problem(
                        path,
                        "symbolic link loop: this is the folder "
                        f"{display_path(searching[inner])!r} again",
                    )
                )
                continue
            searching[inner] = path
            stack.append((path, iter(_names(path, problems)), inner, relative + "/"))
        elif is_document_name(name):
            if stat.S_ISREG(entry.st_mode):
                yield path
            else:
                problems.append(
                    _problem(
                        path,
                        f"{_kind_name(entry.st_mode)}: a folder search reads regular files only",
                    )
                )


def _searched(name: str) -> bool:
    """Whether the search looks at a name: not hidden, and not a context file."""
    return not name.startswith(".") and not is_context_name(name)


def _entry(path: str, problems: list[Problem]) -> os.stat_result | None:
    """What ``path`` is (links followed), or None with the problem recorded."""
    problem = _name_problem(path)
    if problem is not None:
        problems.append(Problem(problem, Location(ascii(display_path(path))[1:-1])))
        return None
    try:
        return os.stat(path)
    except OSError as exc:
        problems.append(_unreadable(path, exc))
        return None


def _names(folder: str, problems: list[Problem]) -> list[str]:
    """The names in ``folder`` the search looks at, sorted; an unlistable folder is a problem.

    Context files are left out here, so a folder of many documents and their contexts
    holds only the documents' names while it is searched.
    """
    try:
        with os.scandir(folder) as entries:
            return sorted(entry.name for entry in entries if _searched(entry.name))
    except OSError as exc:
        problems.append(_problem(folder, f"cannot list folder: {exc.strerror or exc}"))
        return []
