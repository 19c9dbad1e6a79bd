"""Concurrent renderings never share a recorder: threads and asyncio tasks (SPEC §15)."""

from __future__ import annotations

import asyncio
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest

from textcontract.model import Anchor, Document
from textcontract.render import RenderError, environment, render, render_async
from textcontract.render._recorder import ACTIVE

SOURCE = (
    "{% surface 'subject' %}Order {{ claim('order.id', n) }}{% endsurface %}"
    "{% for i in range(3) %}{{ wait() }}[{{ claim('order.id', n) }}:"
    "{{ claim('line.' ~ i, n * 10 + i) }}]{% endfor %}"
)


def _expected(n: int) -> Document:
    text = "".join(f"[{n}:{n * 10 + i}]" for i in range(3))
    document = render(environment().from_string(SOURCE), {"n": n, "wait": lambda: ""})
    assert document.surfaces[0].text == text
    return document


def test_threads_interleaving_inside_templates_never_mix_claims() -> None:
    workers = 8
    barrier = threading.Barrier(workers)
    template = environment().from_string(SOURCE)

    def wait() -> str:
        barrier.wait(timeout=10)  # every thread is inside its rendering at the same point
        return ""

    def job(n: int) -> Document:
        return render(template, {"n": n, "wait": wait})

    with ThreadPoolExecutor(workers) as pool:
        documents = list(pool.map(job, range(100, 100 + workers)))
    for n, document in zip(range(100, 100 + workers), documents, strict=True):
        assert document == _expected(n)
        body = document.surfaces[0]
        assert body.claims == {"order.id": n, **{f"line.{i}": n * 10 + i for i in range(3)}}
        width = len(str(n))
        assert body.anchors["order.id"][0] == Anchor(1, 1 + width, str(n))
    assert ACTIVE.get() is None


def test_asyncio_tasks_interleaving_inside_templates_never_mix_claims() -> None:
    env = environment(enable_async=True)
    template = env.from_string(SOURCE)

    async def wait() -> str:
        await asyncio.sleep(0)  # hand over to the other renderings mid-template
        return ""

    async def main() -> list[Document]:
        return await asyncio.gather(
            *(render_async(template, {"n": n, "wait": wait}) for n in range(200, 216))
        )

    documents = asyncio.run(main())
    for n, document in zip(range(200, 216), documents, strict=True):
        assert document == _expected(n)
    assert ACTIVE.get() is None


def test_a_rendering_inside_a_rendering_keeps_both_apart() -> None:
    inner = environment().from_string("{{ claim('inner', 2) }}")
    seen: list[Document] = []

    def nested() -> str:
        seen.append(render(inner))
        return "x"

    document = render("{{ claim('outer', 1) }}{{ nested() }}", {"nested": nested})
    assert document.surfaces[0].claims == {"outer": 1}
    assert document.surfaces[0].text == "1x"
    assert seen[0].surfaces[0].claims == {"inner": 2}


def test_a_failed_rendering_leaves_no_recorder_behind() -> None:
    with pytest.raises(RenderError):
        render("{{ claim('k', [1]) }}")
    assert ACTIVE.get() is None


def test_sync_render_of_an_async_environment() -> None:
    # Jinja2 runs the async template in a new event loop, in a task that copies the context.
    template = environment(enable_async=True).from_string("{{ claim('k', 5) }}!")
    assert render(template).surfaces[0].anchors == {"k": (Anchor(0, 1, "5"),)}
