"""Surfaces made without the dataclass ``__init__``, and surfaces whose anchors are built
when first read (``new_surface_from_pieces``, what ``textcontract.render`` returns): the
same surfaces as ``Surface(...)`` makes, to every reader — equality both ways, ``repr``,
hashing, pickling, copying, ``asdict``, JSON and digests, attribute errors, threads."""

from __future__ import annotations

import copy
import dataclasses
import json
import pickle
import threading
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from textcontract.model import (
    Anchor,
    Document,
    Surface,
    TextOrigin,
    new_document,
    new_surface,
    new_surface_from_pieces,
)

_piece = st.text(alphabet="ab é€\n😀", max_size=5)
_value = st.one_of(
    st.integers(),
    st.floats(allow_nan=False, allow_infinity=False),
    st.booleans(),
    st.none(),
    _piece,
)


@st.composite
def _surfaces(draw: st.DrawFn) -> tuple[Surface, Any]:
    """An eager surface and the arguments of the same one with deferred anchors."""
    keys = draw(st.lists(st.sampled_from(["a", "b", "order.total", "città", "k"]), unique=True))
    pieces = [draw(_piece)]
    for _ in keys:
        pieces += [draw(_piece), draw(_piece)]
    claims = {key: draw(_value) for key in keys}
    anchors: dict[str, tuple[Anchor, ...]] = {}
    offset = len(pieces[0])
    for index, key in enumerate(keys):  # the reference: offsets counted one by one
        shown = pieces[2 * index + 1]
        anchors[key] = (Anchor(offset, offset + len(shown), shown),)
        offset += len(shown) + len(pieces[2 * index + 2])
    name = draw(st.sampled_from(["body", "subject"]))
    state = draw(st.sampled_from(["current", "after"]))
    text = "".join(pieces)
    eager = Surface(name, text, state, claims, anchors)
    return eager, (name, text, state, dict(claims), pieces, list(keys))


def test_the_constructors_fill_every_field_of_the_dataclasses() -> None:
    names = [field.name for field in dataclasses.fields(Surface)]
    assert names == ["name", "text", "state", "claims", "anchors", "origin", "format"]
    assert [field.name for field in dataclasses.fields(Document)] == ["surfaces"]
    anchors: dict[str, tuple[Anchor, ...]] = {"k": (Anchor(0, 1, "x"),)}
    made = new_surface("subject", "xy", "after", {"k": 1}, anchors)
    built = Surface("subject", "xy", "after", {"k": 1}, anchors)
    assert made == built
    assert vars(made) == vars(built)
    assert made.origin is built.origin
    assert vars(new_document((made,))) == vars(Document((built,)))
    assert new_document((made,)) == Document((built,))


@given(_surfaces())
def test_deferred_anchors_read_as_eager_ones(case: tuple[Surface, Any]) -> None:
    eager, arguments = case

    def fresh() -> Surface:
        return new_surface_from_pieces(*arguments)

    assert fresh() == eager
    assert eager == fresh()
    assert (fresh() != eager) is False
    assert repr(fresh()) == repr(eager)
    assert fresh().to_json() == eager.to_json()
    assert json.dumps(fresh().to_json()) == json.dumps(eager.to_json())
    assert new_document((fresh(),)).digest == Document((eager,)).digest
    assert new_document((fresh(),)) == Document((eager,))
    for copied in (
        pickle.loads(pickle.dumps(fresh())),
        copy.copy(fresh()),
        copy.deepcopy(fresh()),
    ):
        assert copied == eager
        assert vars(copied) == vars(eager)  # the pieces are never kept
    assert dataclasses.asdict(fresh()) == dataclasses.asdict(eager)
    assert dataclasses.replace(fresh(), origin=TextOrigin(3)) == eager
    read = fresh()
    assert type(read.anchors) is dict
    assert read.anchors == eager.anchors
    assert read.anchors is read.anchors  # built once, then kept
    assert {key: vars(read)[key] for key in vars(eager)} == vars(eager)


def test_deferred_anchors_hash_and_fail_as_eager_ones() -> None:
    pieces = ["Total ", "59.90", " EUR"]
    eager = Surface(
        "body", "Total 59.90 EUR", "current", {"t": 59.9}, {"t": (Anchor(6, 11, "59.90"),)}
    )
    deferred = new_surface_from_pieces("body", eager.text, "current", {"t": 59.9}, pieces, ["t"])
    with pytest.raises(TypeError) as from_eager:
        hash(eager)
    with pytest.raises(TypeError) as from_deferred:
        hash(deferred)
    assert str(from_deferred.value) == str(from_eager.value)
    for surface in (eager, deferred):
        with pytest.raises(AttributeError, match=r"^'Surface' object has no attribute 'anchor'$"):
            _ = surface.anchor  # type: ignore[attr-defined]
    assert not hasattr(deferred, "_anchor_piece")
    assert deferred.anchors == eager.anchors


def test_anchors_read_first_in_several_threads_are_the_same() -> None:
    pieces = ["Dear "]
    for number in range(6):
        pieces += [str(number * 111), ", "]
    keys = [f"k{number}" for number in range(6)]
    text = "".join(pieces)
    claims: dict[str, Any] = dict.fromkeys(keys, 1)
    surface = new_surface_from_pieces("body", text, "current", claims, pieces, keys)
    start = threading.Barrier(4)
    seen: list[dict[str, tuple[Anchor, ...]]] = []

    def read() -> None:
        start.wait()
        seen.append(dict(surface.anchors))

    threads = [threading.Thread(target=read) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(seen) == 4
    assert all(found == seen[0] for found in seen)
    for key, (anchor,) in seen[0].items():
        assert text[anchor.start : anchor.end] == anchor.text
        assert key in claims
