"""What the preserve operators share: one variant rewriting every surface a rewrite changes."""

from __future__ import annotations

from collections.abc import Callable, Iterator

from textcontract.mutate._base import Baseline, Mutation, Proposal, Skip, with_texts

__all__ = ["rewrite_surfaces"]


def rewrite_surfaces(
    baseline: Baseline, rewrite: Callable[[str, str], str | None], what: str
) -> Iterator[Proposal]:
    """One mutation applying ``rewrite(surface name, text)`` to every surface it changes.

    ``rewrite`` returns the new text, or ``None`` to leave the surface alone. A surface with
    anchors (SPEC §15) is left alone: its anchor spans point into the text, and a renderer
    that wrote the new text would record new spans, which a rewrite cannot know.
    """
    texts: dict[str, str] = {}
    anchored = []
    for surface in baseline.document.surfaces:
        if surface.anchors:
            anchored.append(surface.name)
            continue
        new = rewrite(surface.name, surface.text)
        if new is not None and new != surface.text:
            texts[surface.name] = new
    if anchored:
        yield Skip(f"surfaces with anchors are left as they are: {', '.join(anchored)}")
    if not texts:
        yield Skip(f"no surface changes: {what}")
        return
    yield Mutation(
        with_texts(baseline.document, texts),
        baseline.context,
        f"{what} on surface {', '.join(repr(name) for name in texts)}",
    )
