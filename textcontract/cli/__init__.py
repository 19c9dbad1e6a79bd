"""The command-line interface: thin commands over the library."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import typer

__all__ = ["app", "main"]


def __getattr__(name: str) -> typer.Typer:
    # The typer application is built on first use: a plain `check` never needs it.
    if name == "app":
        from textcontract.cli._app import app

        return app
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def main() -> None:
    """Console-script entry point."""
    from textcontract.cli._signals import (
        Interrupted,
        Stopped,
        received,
        settle,
        stop_on_signals,
    )

    running = _threads()
    code: object = None
    try:
        try:
            stop_on_signals()  # first: SIGINT and SIGTERM end the run with 130 and 143
            from textcontract.cli._actions import inert_stderr

            with inert_stderr():  # no stderr line is a workflow command (SPEC §22)
                code = _command(sys.argv[1:])
        finally:
            settle()  # the run is over: a signal from now on changes nothing
    except Stopped as stopped:  # outside a command: an import, typer's parsing
        code = stopped.end()
    except KeyboardInterrupt:  # Ctrl-C before the handler was set
        code = Interrupted().end()
    except BaseException:  # outside a command (an import, typer's parsing): a signal's
        if received() is None:  # own exception, or one it became; anything else is a bug
            raise
    signalled = received()  # also when Python dropped the signal's exception and went on
    if signalled is not None and code not in (130, 143):
        code = signalled.end()
    _leave(code, running)


def _command(arguments: list[str]) -> object:
    """Run the command ``arguments`` name; its exit code."""
    from textcontract.cli._fast import fast_check

    code = fast_check(arguments)
    if code is not None:
        return code
    from textcontract.cli._app import COMMAND_MODULES, build_app

    # Only the invoked command's module is imported; anything else (no command, --help,
    # --version, a mistyped command) gets the application with every command.
    command = arguments[0] if arguments else None
    try:
        build_app(command if command in COMMAND_MODULES else None)()
    except SystemExit as exited:
        return exited.code
    return None


def _threads() -> set[object]:
    threading = sys.modules.get("threading")
    return set() if threading is None else set(threading.enumerate())


def _leave(code: object, running: set[object]) -> None:
    """Exit with ``code``, without waiting for a helper thread (started since ``running``
    was taken) that cannot end.

    After an audit worker died, the process pool's manager thread can stay blocked on a
    lock the dead process held; the interpreter would join it at exit, for ever. Output
    and temporary files are settled by then, and the workers end with this process.
    """
    threading = sys.modules.get("threading")
    # (this thread is never one: ``running`` is empty when threading was not yet imported)
    stuck = threading is not None and any(
        thread.is_alive()
        and not thread.daemon
        and thread not in running
        and thread is not threading.current_thread()
        for thread in threading.enumerate()
    )
    if stuck:
        import contextlib
        import os

        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(OSError, ValueError):
                stream.flush()
        os._exit(code if isinstance(code, int) else 0 if code is None else 1)
    sys.exit(code)  # type: ignore[arg-type]
