"""The one bounded input reader (``textcontract._files``), and every loader going through it."""

from __future__ import annotations

import os
import socket
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from textcontract._files import (
    DEFAULT_MAX_INPUT_BYTES,
    MAX_INPUT_ENV,
    RefusedFile,
    describe_size,
    input_size_cap,
    read_bytes_capped,
    read_input_text,
)
from textcontract._json import read_json_file
from textcontract.audit import load_corpus
from textcontract.contract import parse_contract_file, parse_contract_text
from textcontract.errors import InputError
from textcontract.inputs import load_context_file, load_document_file
from textcontract.strength_files import read_policy_file, read_probe_file, read_record_file

REPO = Path(__file__).resolve().parents[1]
ORDERS = REPO / "fixtures" / "orders"
MUTATIONS = REPO / "fixtures" / "mutations"


@pytest.fixture
def fifo(tmp_path: Path) -> Iterator[Callable[[bytes | None], Path]]:
    """A FIFO with a writer thread: the given bytes, or zeros without end (``None``)."""
    threads: list[threading.Thread] = []

    def make(content: bytes | None) -> Path:
        path = tmp_path / f"pipe-{len(threads)}"
        os.mkfifo(path)

        def write() -> None:
            with open(path, "wb") as stream:
                try:
                    if content is not None:
                        stream.write(content)
                        return
                    while True:
                        stream.write(b"\0" * 65536)
                except BrokenPipeError:
                    pass  # the reader stopped, as it should

        thread = threading.Thread(target=write, daemon=True)
        thread.start()
        threads.append(thread)
        return path

    yield make
    for thread in threads:
        thread.join(timeout=10)
        assert not thread.is_alive()


def _reason(path: str | Path) -> str:
    with pytest.raises(RefusedFile) as caught:
        read_bytes_capped(path)
    return str(caught.value.strerror)


def test_a_regular_file_is_read_whole(tmp_path: Path) -> None:
    path = tmp_path / "a.txt"
    path.write_bytes(b"x" * 300_000)
    assert read_bytes_capped(path) == b"x" * 300_000
    assert read_bytes_capped(str(path)) == b"x" * 300_000


def test_a_pipe_is_read_like_a_file(fifo: Callable[[bytes | None], Path]) -> None:
    assert read_bytes_capped(fifo(b"id: c\n" * 50_000)) == b"id: c\n" * 50_000


def test_an_endless_pipe_stops_at_the_cap(
    fifo: Callable[[bytes | None], Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(MAX_INPUT_ENV, "1M")
    reason = _reason(fifo(None))
    assert reason == (f"larger than the input size cap of 1 MiB (set {MAX_INPUT_ENV} to raise it)")


def test_a_regular_file_above_the_cap_is_refused_before_it_is_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "big.json"
    path.write_bytes(b" " * 2048)
    monkeypatch.setenv(MAX_INPUT_ENV, "1K")
    assert _reason(path) == (
        f"larger than the input size cap of 1 KiB (2 KiB; set {MAX_INPUT_ENV} to raise it)"
    )
    monkeypatch.setenv(MAX_INPUT_ENV, "2048")
    assert read_bytes_capped(path) == b" " * 2048


@pytest.mark.parametrize(
    ("path", "reason"),
    [
        pytest.param("/dev/zero", "it is a device, not a regular file", id="endless-device"),
        pytest.param("/dev/null", "it is a device, not a regular file", id="null-device"),
        pytest.param("/", "it is a folder", id="folder"),
        pytest.param("a\0b.yaml", "the path contains a NUL byte", id="nul-byte"),
    ],
)
def test_what_is_not_a_file_is_refused_without_being_opened(path: str, reason: str) -> None:
    assert _reason(path) == reason


def test_a_socket_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "s.sock"
    with socket.socket(socket.AF_UNIX) as server:
        server.bind(str(path))
        assert _reason(path) == "it is a socket, not a regular file"


def test_a_missing_file_is_an_os_error_and_an_input_error_naming_it(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        read_bytes_capped(tmp_path / "nope")
    with pytest.raises(InputError) as caught:
        read_input_text(tmp_path / "nope", "nope.md")
    assert str(caught.value) == "nope.md: cannot read file: No such file or directory"


@pytest.mark.parametrize(
    ("value", "cap"),
    [
        pytest.param(None, DEFAULT_MAX_INPUT_BYTES, id="unset"),
        pytest.param("", DEFAULT_MAX_INPUT_BYTES, id="empty"),
        pytest.param("1000", 1000, id="bytes"),
        pytest.param("64k", 64 * 1024, id="kibibytes"),
        pytest.param(" 128M ", 128 * 1024**2, id="mebibytes"),
        pytest.param("2GiB", 2 * 1024**3, id="gibibytes-with-unit"),
    ],
)
def test_the_cap_comes_from_the_environment(
    value: str | None, cap: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    if value is None:
        monkeypatch.delenv(MAX_INPUT_ENV, raising=False)
    else:
        monkeypatch.setenv(MAX_INPUT_ENV, value)
    assert input_size_cap() == cap


@pytest.mark.parametrize("value", ["x", "0", "-5", "1.5M", "12T"])
def test_a_bad_cap_is_an_input_error_naming_the_variable(
    value: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(MAX_INPUT_ENV, value)
    with pytest.raises(InputError) as caught:
        input_size_cap()
    assert str(caught.value) == (
        f"{MAX_INPUT_ENV}: expected a positive number of bytes such as 67108864 or 64M, "
        f"got {value!r}"
    )


def test_sizes_are_described_as_the_docs_write_them() -> None:
    assert describe_size(64 * 1024**2) == "64 MiB"
    assert describe_size(3 * 1024**3) == "3 GiB"
    assert describe_size(1536) == "1536 bytes"
    assert describe_size(2048) == "2 KiB"


# -- every loader reads through the bounded reader ------------------------------------------

_LOADERS: dict[str, tuple[Callable[[Path], object], Path]] = {
    "contract": (lambda p: parse_contract_file(p, "given"), ORDERS / "textcontract.yaml"),
    "context": (lambda p: load_context_file(p, "given"), ORDERS / "order-1001.context.json"),
    "markdown-document": (lambda p: load_document_file(p, "given"), ORDERS / "order-1001.md"),
    "json-document": (lambda p: load_document_file(p, "given"), ORDERS / "order-1003.json"),
    "json-file": (lambda p: read_json_file(str(p), "given"), ORDERS / "order-1001.context.json"),
    "policy": (lambda p: read_policy_file(p, "given"), ORDERS / "textcontract.yaml"),
    "probe": (lambda p: read_probe_file(p, "given"), ORDERS / "order-1003.json"),
    "record": (lambda p: read_record_file(p, "given"), ORDERS / "order-1003.json"),
}


@pytest.mark.parametrize("loader", sorted(_LOADERS))
def test_every_loader_refuses_an_endless_device_and_an_input_above_the_cap(
    loader: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    load, real = _LOADERS[loader]
    with pytest.raises(InputError) as caught:
        load(Path("/dev/zero"))
    assert str(caught.value).startswith("given: cannot read ")
    assert str(caught.value).endswith(": it is a device, not a regular file")
    monkeypatch.setenv(MAX_INPUT_ENV, "64")
    with pytest.raises(InputError) as caught:
        load(real)
    assert str(caught.value).startswith("given: cannot read ")
    assert "larger than the input size cap of 64 bytes" in str(caught.value)


def test_an_include_is_read_through_the_bounded_reader(tmp_path: Path) -> None:
    (tmp_path / "pack.yaml").symlink_to("/dev/zero")
    text = (
        "textcontract: 1\nid: c\nversion: '1'\ninclude: [pack.yaml, \"a\\0b.yaml\"]\n"
        "rules:\n  - {id: r, type: RequiredFact, key: k}\n"
    )
    contract = tmp_path / "c.yaml"
    contract.write_text(text, encoding="utf-8")
    with pytest.raises(InputError) as caught:
        parse_contract_file(contract, "c.yaml")
    assert [p.render() for p in caught.value.problems] == [
        "c.yaml:4:11: include[0]: cannot include 'pack.yaml': "
        "cannot read file: it is a device, not a regular file",
        "c.yaml:4:22: include[1]: cannot include 'a\\x00b.yaml': "
        "cannot read file: the path contains a NUL byte",
    ]
    with pytest.raises(InputError):
        parse_contract_text(text)


def _corpus(tmp_path: Path) -> Path:
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    for source in MUTATIONS.rglob("*"):
        target = corpus / source.relative_to(MUTATIONS)
        if source.is_dir():
            target.mkdir(exist_ok=True)
        else:
            target.write_bytes(source.read_bytes())
    audit = (corpus / "audit.yaml").read_text(encoding="utf-8")
    contract = f"contract: {ORDERS / 'textcontract.yaml'}"
    (corpus / "audit.yaml").write_text(
        audit.replace("contract: ../orders/textcontract.yaml", contract), encoding="utf-8"
    )
    return corpus


def test_audit_files_are_read_through_the_bounded_reader(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    corpus = _corpus(tmp_path)
    load_corpus(corpus, display="corpus")  # valid as copied
    padding = "\n" + "#" * 200_000 + "\n"
    for name in ("audit.yaml", "order-1001.yaml", "documents/order-1002.md"):
        with open(corpus / name, "a", encoding="utf-8") as stream:
            stream.write(padding)
    monkeypatch.setenv(MAX_INPUT_ENV, "100K")
    with pytest.raises(InputError) as caught:
        load_corpus(corpus, display="corpus")
    assert sorted(p.location.file or "" for p in caught.value.problems) == [
        "corpus/audit.yaml",
        "corpus/documents/order-1002.md",
        "corpus/order-1001.yaml",
    ]
    for problem in caught.value.problems:
        assert problem.message.startswith("cannot read file: larger than the input size cap")
