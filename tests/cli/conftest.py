from __future__ import annotations

import signal
from collections.abc import Iterator
from pathlib import Path

import pytest

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"


@pytest.fixture
def orders() -> Path:
    return FIXTURES / "orders"


@pytest.fixture(autouse=True)
def _keep_signal_handlers() -> Iterator[None]:
    """``main()`` turns SIGINT and SIGTERM into exceptions; tests calling it must not leave
    that behind."""
    handlers = {number: signal.getsignal(number) for number in (signal.SIGINT, signal.SIGTERM)}
    yield
    for number, handler in handlers.items():
        signal.signal(number, handler)
