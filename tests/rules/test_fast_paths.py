"""Shortcuts in the rules and the registry give what the slow definitions give."""

from __future__ import annotations

import sys
from importlib.metadata import entry_points
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from textcontract.rules import ENTRY_POINT_GROUP
from textcontract.rules import _registry as registry
from textcontract.rules.lexical_restatement import LexicalRestatement


def _slow_novel(tokens: tuple[str, ...], source: frozenset[str]) -> list[str]:
    novel: dict[str, None] = {}
    for token in tokens:
        if token not in source:
            novel.setdefault(token)
    return list(novel)


_tokens = st.lists(st.sampled_from([f"w{i}" for i in range(30)]), max_size=60).map(tuple)


@settings(max_examples=500, deadline=None)
@given(_tokens, _tokens)
def test_novel_tokens_shown_and_counted_as_before(
    target: tuple[str, ...], source_tokens: tuple[str, ...]
) -> None:
    source = frozenset(source_tokens)
    expected = _slow_novel(target, source)
    count = len(frozenset(target) - source)
    assert count == len(expected)
    assert LexicalRestatement._novel(target, source, min(count, 10)) == expected[:10]


def test_no_plugin_scan_agrees_with_entry_points() -> None:
    if not registry._plugins_possible():
        assert list(entry_points(group=ENTRY_POINT_GROUP)) == []


def _dist(folder: Path, name: str, entry_points_text: str | None) -> None:
    info = folder / f"{name}-1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.0\n")
    if entry_points_text is not None:
        (info / "entry_points.txt").write_text(entry_points_text)


@pytest.mark.parametrize(
    ("entry_points_text", "possible"),
    [
        pytest.param(None, False, id="no-entry-points"),
        pytest.param("[console_scripts]\nx = y:z\n", False, id="other-groups"),
        pytest.param(f"[{ENTRY_POINT_GROUP}]\nX = y:Z\n", True, id="rule-plugin"),
    ],
)
def test_plugin_scan_sees_dist_info_folders(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, entry_points_text: str | None, possible: bool
) -> None:
    _dist(tmp_path, "somepkg", entry_points_text)
    monkeypatch.setattr(sys, "path", [str(tmp_path)])
    assert registry._plugins_possible() is possible
    assert bool(list(entry_points(group=ENTRY_POINT_GROUP))) is possible


def test_plugin_scan_defers_to_importlib_for_archives_and_eggs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    archive = tmp_path / "packages.zip"
    archive.write_bytes(b"PK\x05\x06" + b"\0" * 18)
    monkeypatch.setattr(sys, "path", [str(archive)])
    assert registry._plugins_possible() is True
    egg = tmp_path / "thing-1.0.egg"
    egg.mkdir()
    monkeypatch.setattr(sys, "path", [str(egg)])
    assert registry._plugins_possible() is True
    monkeypatch.setattr(sys, "path", [str(tmp_path / "missing")])
    assert registry._plugins_possible() is False


def test_plugin_scan_defers_to_custom_distribution_finders(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    class Finder:
        @staticmethod
        def find_distributions(*args: object) -> list[object]:
            del args
            return []

    monkeypatch.setattr(sys, "meta_path", [*sys.meta_path, Finder()])
    assert registry._plugins_possible() is True
