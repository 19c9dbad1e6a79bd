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
def _keep_sigterm_handler() -> Iterator[None]:
    """``main()`` turns SIGTERM into an exception; tests calling it must not leave that behind."""
    handler = signal.getsignal(signal.SIGTERM)
    yield
    signal.signal(signal.SIGTERM, handler)
