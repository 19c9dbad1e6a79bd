"""A small Chrome DevTools Protocol client around Debian's headless Chromium (not a test module).

It starts ``/usr/bin/chromium`` with a fresh profile and no network services, talks to its
page target over a WebSocket, and records what a person's browser would show a developer:
console messages, uncaught exceptions, log entries and every request the page makes. The
test suite starts one browser per session (``tests/formats/conftest.py``); the README's
screenshot script (``docs/screenshot.py``) uses the same client.
"""

from __future__ import annotations

import base64
import json
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from websockets.sync.client import ClientConnection, connect

__all__ = ["CHROMIUM_FLAGS", "Browser", "Page", "chromium_path", "launch"]

CHROMIUM_FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
    "--remote-debugging-port=0",
)
_START_TIMEOUT = 30.0
_CALL_TIMEOUT = 30.0


def chromium_path() -> str | None:
    """Debian's Chromium (never a browser build downloaded by a tool)."""
    for name in ("chromium", "chromium-browser"):
        found = shutil.which(name)
        if found:
            return found
    return None


class Page:
    """One page target: CDP commands, and the events it has seen since the last navigation."""

    def __init__(self, socket: ClientConnection) -> None:
        self._socket = socket
        self._next_id = 0
        self.events: list[dict[str, Any]] = []

    def call(self, method: str, **params: Any) -> dict[str, Any]:
        self._next_id += 1
        ident = self._next_id
        self._socket.send(json.dumps({"id": ident, "method": method, "params": params}))
        deadline = time.monotonic() + _CALL_TIMEOUT
        while True:
            message = json.loads(self._socket.recv(timeout=max(0.1, deadline - time.monotonic())))
            if message.get("id") == ident:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                result: dict[str, Any] = message.get("result", {})
                return result
            if "method" in message:
                self.events.append(message)

    def wait_for(self, method: str, timeout: float = _CALL_TIMEOUT) -> dict[str, Any]:
        """The first event named ``method`` seen from now on (or already recorded)."""
        for event in self.events:
            if event["method"] == method:
                return event
        deadline = time.monotonic() + timeout
        while True:
            message = json.loads(self._socket.recv(timeout=max(0.1, deadline - time.monotonic())))
            if "method" in message:
                self.events.append(message)
                if message["method"] == method:
                    found: dict[str, Any] = message
                    return found

    def open(self, url: str) -> None:
        """Navigate and wait for the load event; events of earlier pages are dropped."""
        self.events.clear()
        self.call("Page.navigate", url=url)
        self.wait_for("Page.loadEventFired")

    def evaluate(self, expression: str) -> Any:
        """The JSON value of a JavaScript expression evaluated in the page."""
        reply = self.call("Runtime.evaluate", expression=expression, returnByValue=True)
        if "exceptionDetails" in reply:
            raise RuntimeError(f"{expression!r} raised: {reply['exceptionDetails']}")
        return reply["result"].get("value")

    def click(self, selector: str) -> None:
        """A real mouse click (press and release) at the centre of the element."""
        box = self.evaluate(
            f"(() => {{ const e = document.querySelector({json.dumps(selector)}); "
            "e.scrollIntoView({block: 'center'}); const r = e.getBoundingClientRect(); "
            "return [r.x + r.width / 2, r.y + r.height / 2]; })()"
        )
        x, y = box
        for kind in ("mousePressed", "mouseReleased"):
            self.call("Input.dispatchMouseEvent", type=kind, x=x, y=y, button="left", clickCount=1)

    def emulate(self, width: int, height: int, *, mobile: bool = False) -> None:
        """A screen of ``width`` × ``height`` CSS pixels; ``mobile`` as a phone shows a page
        (the viewport meta tag applies, and a page wider than the screen is zoomed out)."""
        self.call(
            "Emulation.setDeviceMetricsOverride",
            width=width,
            height=height,
            deviceScaleFactor=1,
            mobile=mobile,
        )

    def screenshot(self, path: Path, width: int, height: int, *, mobile: bool = False) -> None:
        self.emulate(width, height, mobile=mobile)
        data = self.call("Page.captureScreenshot", format="png")["data"]
        path.write_bytes(base64.b64decode(data))

    def requests(self) -> list[str]:
        return [
            e["params"]["request"]["url"]
            for e in self.events
            if e["method"] == "Network.requestWillBeSent"
        ]

    def problems(self) -> list[str]:
        """Console errors and warnings, uncaught exceptions, and error/warning log entries."""
        found = []
        for event in self.events:
            method, params = event["method"], event["params"]
            if method == "Runtime.exceptionThrown":
                found.append(f"exception: {params['exceptionDetails']}")
            elif method == "Runtime.consoleAPICalled" and params["type"] in (
                "error",
                "warning",
                "assert",
            ):
                found.append(f"console.{params['type']}: {params['args']}")
            elif method == "Log.entryAdded" and params["entry"]["level"] in ("error", "warning"):
                found.append(f"log {params['entry']['level']}: {params['entry']['text']}")
        return found


class Browser:
    """A running Chromium and one page of it."""

    def __init__(self, process: subprocess.Popen[bytes], page: Page) -> None:
        self.process = process
        self.page = page


def _debugging_port(profile: Path, process: subprocess.Popen[bytes]) -> int:
    marker = profile / "DevToolsActivePort"
    deadline = time.monotonic() + _START_TIMEOUT
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"chromium exited with {process.returncode} before it listened")
        if marker.exists():
            lines = marker.read_text().split()
            if lines:
                return int(lines[0])
        time.sleep(0.05)
    raise RuntimeError("chromium did not open its debugging port in time")


def _page_socket(port: int) -> str:
    from urllib.request import urlopen

    # the DevTools endpoint on the loopback interface of this machine, opened by our browser
    with urlopen(f"http://127.0.0.1:{port}/json/list", timeout=_START_TIMEOUT) as reply:
        targets = json.loads(reply.read())
    pages = [target for target in targets if target.get("type") == "page"]
    return str(pages[0]["webSocketDebuggerUrl"])


@contextmanager
def launch(executable: str) -> Iterator[Browser]:
    """Start Chromium with a fresh profile; the page records network and console events."""
    with tempfile.TemporaryDirectory(prefix="textcontract-chromium-") as folder:
        profile = Path(folder)
        process = subprocess.Popen(
            [executable, *CHROMIUM_FLAGS, f"--user-data-dir={profile}", "about:blank"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            port = _debugging_port(profile, process)
            # no keepalive pings: their thread draws from `random` at any moment, which
            # hypothesis (rightly) reports when it happens inside another test's data draw
            with connect(
                _page_socket(port),
                max_size=None,
                open_timeout=_START_TIMEOUT,
                ping_interval=None,
            ) as socket:
                page = Page(socket)
                for domain in ("Page", "Runtime", "Log", "Network"):
                    page.call(f"{domain}.enable")
                yield Browser(process, page)
        finally:
            process.terminate()
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
