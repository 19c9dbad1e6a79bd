"""Which documents ``check DOC…`` names: folder searches, their order, and what they refuse."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from textcontract.errors import Problem
from textcontract.inputs import paired_context
from textcontract.inputs._discover import Found, find_documents, search_folder


def _write(root: Path, *names: str) -> None:
    for name in names:
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("Hello.\n", encoding="utf-8")


def _found(*arguments: str) -> tuple[list[Found], list[str]]:
    problems: list[Problem] = []
    found = list(find_documents(arguments, problems))
    return found, [problem.render() for problem in problems]


def _paths(*arguments: str) -> list[str | None]:
    found, problems = _found(*arguments)
    assert problems == []
    return [item.path for item in found]


def test_a_folder_is_searched_in_path_order_for_document_names(tmp_path: Path) -> None:
    _write(
        tmp_path,
        "b.md",
        "a-b.md",
        "a/x.txt",
        "a/z/deep.json",
        "c.markdown",
        "notes.rst",
        "data.tsv",
        "Upper.md",
    )
    root = str(tmp_path)
    assert _paths(root) == [
        f"{root}/Upper.md",  # code point order: capitals first
        f"{root}/a/x.txt",  # a folder's documents where its name sorts: 'a' < 'a-b.md'
        f"{root}/a/z/deep.json",
        f"{root}/a-b.md",
        f"{root}/b.md",
        f"{root}/c.markdown",
    ]


def test_hidden_entries_and_contexts_are_skipped_but_a_hidden_root_is_searched(
    tmp_path: Path,
) -> None:
    _write(tmp_path, ".hidden.md", ".git/x.md", "doc.md", "doc.context.json", "sub/.draft.md")
    assert _paths(str(tmp_path)) == [f"{tmp_path}/doc.md"]
    _write(tmp_path, ".drafts/one.md")
    assert _paths(str(tmp_path / ".drafts")) == [f"{tmp_path}/.drafts/one.md"]


def test_paths_keep_the_form_the_user_gave(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _write(tmp_path, "docs/a/b.md")
    monkeypatch.chdir(tmp_path)
    assert _paths("docs/") == ["docs/a/b.md"]
    assert _paths("docs") == ["docs/a/b.md"]
    assert _paths("./docs") == ["./docs/a/b.md"]
    monkeypatch.chdir(tmp_path / "docs")
    assert _paths(".") == ["./a/b.md"]


def test_explicit_files_of_any_name_and_stdin_keep_their_order(tmp_path: Path) -> None:
    _write(tmp_path, "notes.rst", "x.md")
    found, problems = _found(str(tmp_path / "x.md"), "-", str(tmp_path / "notes.rst"))
    assert problems == []
    assert [(item.path, item.folder) for item in found] == [
        (str(tmp_path / "x.md"), None),
        (None, None),
        (str(tmp_path / "notes.rst"), None),
    ]


def test_documents_of_a_folder_carry_the_argument_they_came_from(tmp_path: Path) -> None:
    _write(tmp_path, "d/a.md", "d/b.md")
    folder = str(tmp_path / "d")
    found, _ = _found(folder, folder)
    assert [item.folder for item in found] == [(0, folder), (0, folder), (1, folder), (1, folder)]


def test_a_folder_named_like_a_document_is_searched(tmp_path: Path) -> None:
    _write(tmp_path, "odd.md/inside.md")
    assert _paths(str(tmp_path)) == [f"{tmp_path}/odd.md/inside.md"]


def test_symbolic_links_are_followed(tmp_path: Path) -> None:
    _write(tmp_path, "real/a.md", "other/b.md")
    (tmp_path / "real" / "link.md").symlink_to(tmp_path / "other" / "b.md")
    (tmp_path / "real" / "more").symlink_to(tmp_path / "other", target_is_directory=True)
    root = str(tmp_path / "real")
    assert _paths(root) == [f"{root}/a.md", f"{root}/link.md", f"{root}/more/b.md"]


def test_a_folder_link_loop_is_an_input_error(tmp_path: Path) -> None:
    _write(tmp_path, "docs/a.md")
    (tmp_path / "docs" / "up").symlink_to(tmp_path / "docs", target_is_directory=True)
    found, problems = _found(str(tmp_path / "docs"))
    assert [item.path for item in found] == [f"{tmp_path}/docs/a.md"]
    assert problems == [
        f"{tmp_path}/docs/up: symbolic link loop: this is the folder '{tmp_path}/docs' again"
    ]


def test_a_link_to_itself_is_an_input_error(tmp_path: Path) -> None:
    _write(tmp_path, "docs/a.md")
    (tmp_path / "docs" / "loop.md").symlink_to("loop.md")
    _, problems = _found(str(tmp_path / "docs"))
    assert problems == [
        f"{tmp_path}/docs/loop.md: symbolic link loop: the link leads back to itself"
    ]


def test_unreadable_entries_are_input_errors_naming_them(tmp_path: Path) -> None:
    _write(tmp_path, "docs/a.md")
    (tmp_path / "docs" / "gone.md").symlink_to(tmp_path / "nowhere.md")
    (tmp_path / "docs" / "gone-folder").symlink_to(tmp_path / "nowhere")
    os.mkfifo(tmp_path / "docs" / "pipe.md")
    found, problems = _found(str(tmp_path / "docs"))
    assert [item.path for item in found] == [f"{tmp_path}/docs/a.md"]
    dangling = "dangling symbolic link: what it points to does not exist"
    assert problems == [
        f"{tmp_path}/docs/gone-folder: {dangling}",
        f"{tmp_path}/docs/gone.md: {dangling}",
        f"{tmp_path}/docs/pipe.md: a named pipe (FIFO): a folder search reads regular files only",
    ]


def test_a_fifo_named_on_the_command_line_is_read_once(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe")
    found, problems = _found(str(tmp_path / "pipe"))
    assert problems == []
    assert found == [Found(str(tmp_path / "pipe"), pipe=True)]


def test_a_missing_path_an_empty_folder_and_a_context_file_are_input_errors(
    tmp_path: Path,
) -> None:
    (tmp_path / "empty").mkdir()
    _write(tmp_path, "empty/.hidden.md", "x.context.json")
    _, problems = _found(
        str(tmp_path / "missing.md"), str(tmp_path / "empty"), str(tmp_path / "x.context.json")
    )
    assert problems == [
        f"{tmp_path}/missing.md: cannot read file: No such file or directory",
        f"{tmp_path}/empty: no documents in this folder (searched for *.md, *.markdown, "
        "*.txt, *.html, *.htm and *.json; hidden files and folders are skipped)",
        f"{tmp_path}/x.context.json: a .context.json file is a context, not a document: give it "
        "with --context, or name the document beside it",
    ]


def test_standard_input_can_be_read_once() -> None:
    _, problems = _found("-", "-")
    assert problems == ["standard input ('-') can be read only once"]


def test_a_name_that_is_not_utf8_is_refused(tmp_path: Path) -> None:
    name = os.fsdecode(b"caf\xe9.md")
    (tmp_path / name).write_text("x", encoding="utf-8")
    found, problems = _found(str(tmp_path))
    assert found == []
    assert len(problems) == 1
    assert "caf\\udce9.md: the path is not valid UTF-8" in problems[0]


def test_a_second_search_gives_the_same_documents(tmp_path: Path) -> None:
    _write(tmp_path, "b/x.md", "a.json", "c.txt")
    first = _paths(str(tmp_path))
    problems: list[Problem] = []
    assert list(search_folder(str(tmp_path), problems)) == first
    assert problems == []


@pytest.mark.parametrize(
    ("document", "context"),
    [
        ("docs/a.md", "docs/a.context.json"),
        ("a.json", "a.context.json"),
        ("docs/reply.txt", "docs/reply.context.json"),
        ("notes", "notes.context.json"),
        ("v1.2/a.b.markdown", "v1.2/a.b.context.json"),
    ],
)
def test_the_paired_context_replaces_the_last_suffix(document: str, context: str) -> None:
    assert paired_context(document) == context
