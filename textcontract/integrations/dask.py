"""Checking and auditing on a Dask cluster (SPEC §16; extra ``textcontract[dask]``).

- :func:`check_bag` maps a bag of ``{"id", "document", "context"}`` records to report
  dicts (each report's ``source`` is the record's id);
- :func:`check_dataframe` adds ``accepted``, ``complete``, ``violated_rules`` and
  ``report`` (JSON text) columns to a dataframe of texts;
- :func:`audit` runs the shards of an audit on the cluster's workers and merges them.

A contract travels to the workers as a :class:`ContractSource`: its files' text and its
digest. A worker process compiles each contract once (:func:`compiled`, keyed by the
source, digest included) and checks that what it compiled has the digest it was sent; a
worker with another textcontract or other rule plugins installed fails loudly rather than
check with another contract. Reports are the ones ``Contract.check`` gives, byte for
byte: ``report`` is the line ``check --format jsonl`` prints.

Dask and pandas are imported by the functions that need them, never by ``import
textcontract`` (nor by importing this module).
"""

from __future__ import annotations

import functools
import os
import tempfile
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from textcontract.audit import (
    AuditResult,
    Part,
    Shard,
    SourceRevisionOption,
    audit_directory,
    merge_audit,
)
from textcontract.engine import Contract, load_contract, load_contract_text
from textcontract.environment import today_utc
from textcontract.errors import InputError, InternalError
from textcontract.formats.json_text import dumps_compact
from textcontract.model import Context, Document, Report, Status

if TYPE_CHECKING:
    import dask.bag
    import dask.dataframe
    import distributed

__all__ = [
    "ContractSource",
    "audit",
    "check_bag",
    "check_dataframe",
    "check_record",
    "compiled",
    "contract_source",
]

_BUILTIN = "builtin:"
_COLUMNS = ("accepted", "complete", "violated_rules", "report")


@dataclass(frozen=True)
class ContractSource:
    """A contract as it travels: the text of each file it was read from, and its digest.

    ``files`` are ``(path relative to a common folder, text)``, the contract's own file
    first; ``top`` is ``None`` for a contract that includes no file by path, which is
    compiled from its text alone (``builtin:`` packs ship with textcontract).
    """

    digest: str
    name: str
    files: tuple[tuple[str, str], ...]
    top: str | None


def contract_source(contract: Contract | str | os.PathLike[str]) -> ContractSource:
    """What a worker needs to compile ``contract`` (a :class:`Contract` or a path)."""
    if not isinstance(contract, Contract):
        contract = load_contract(contract)
    parsed = contract.parsed
    if len(parsed.texts) != len(parsed.files) or not parsed.texts:
        raise ValueError("this contract does not carry its source text; load it again")
    read = [(f, t) for f, t in zip(parsed.files, parsed.texts, strict=True)]
    own = [(file, text) for file, text in read[1:] if not file.startswith(_BUILTIN)]
    if not own:
        return ContractSource(parsed.digest, parsed.source, ((parsed.source, read[0][1]),), None)
    paths = [os.path.abspath(file) for file, _ in [read[0], *own]]
    common = os.path.commonpath([os.path.dirname(path) for path in paths])
    files = tuple(
        (os.path.relpath(path, common), text)
        for path, (_, text) in zip(paths, [read[0], *own], strict=True)
    )
    return ContractSource(parsed.digest, parsed.source, files, files[0][0])


def _compile(source: ContractSource) -> Contract:
    if source.top is None:
        return load_contract_text(source.files[0][1], source.name)
    with tempfile.TemporaryDirectory(prefix="textcontract-") as folder:
        for relative, text in source.files:
            target = Path(folder, relative)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8")
        return load_contract(Path(folder, source.top))


@functools.lru_cache(maxsize=16)
def compiled(source: ContractSource) -> Contract:
    """The contract ``source`` describes, compiled once per process and held to its digest."""
    contract = _compile(source)
    if contract.digest != source.digest:
        raise InternalError(
            f"the contract {source.name} compiled here has digest {contract.digest}, not "
            f"{source.digest}: is the same textcontract, with the same rule plugins, installed "
            "on every worker?"
        )
    return contract


def _document(value: Any, where: str) -> Document:
    if isinstance(value, str):
        return Document.from_text(value)
    if isinstance(value, Mapping):
        return Document.from_json(dict(value), where)
    raise InputError.at("document: expected a text or the JSON form of a document", where)


def _context(value: Any, where: str) -> Context:
    if value is None:
        return Context.empty()
    if isinstance(value, str):
        from textcontract._json import loads_strict

        value = loads_strict(value, where)
    if isinstance(value, Mapping):
        return Context.from_json(dict(value), where)
    raise InputError.at("context: expected an object, JSON text of one, or nothing", where)


def check_record(source: ContractSource, record: Any) -> dict[str, Any]:
    """One ``{"id", "document", "context"}`` record checked: its report as a dict."""
    if not isinstance(record, Mapping) or not {"id", "document"} <= record.keys():
        raise InputError.at("a record needs 'id' and 'document' (and may have 'context')", "record")
    unknown = sorted(set(record) - {"id", "document", "context"})
    if unknown or not isinstance(record["id"], str):
        problem = f"unknown key {unknown[0]!r}" if unknown else "'id' must be a string"
        raise InputError.at(problem, "record")
    where = f"record {record['id']!r}"
    report = compiled(source).check(
        _document(record["document"], where),
        _context(record.get("context"), where),
        source=record["id"],
    )
    return report.to_dict()


def _check_partition(records: Iterable[Any], source: ContractSource) -> list[dict[str, Any]]:
    return [check_record(source, record) for record in records]


def check_bag(bag: dask.bag.Bag, contract: Contract | str | os.PathLike[str]) -> dask.bag.Bag:
    """A bag of the reports (dicts) of a bag of ``{"id", "document", "context"}`` records.

    ``document`` is a text (one ``body`` surface) or the JSON form of a document;
    ``context`` (optional) either JSON form of a context. Each report's ``source`` is the
    record's ``id``.
    """
    checked = bag.map_partitions(_check_partition, contract_source(contract))  # type: ignore[no-untyped-call]
    return cast("dask.bag.Bag", checked)


def _violated(report: Report) -> list[str]:
    """Rule ids with a violated check, each once, in contract order."""
    found: dict[str, None] = {}
    for check in report.checks:
        if check.status is Status.VIOLATED:
            found.setdefault(check.rule_id, None)
    return list(found)


def _id(value: Any, row: int) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    if hasattr(value, "item") and isinstance(value.item(), int):  # numpy integers
        return str(value.item())
    raise InputError.at(f"id: expected a string or an integer, got {value!r}", f"row {row}")


def _missing(value: Any) -> bool:
    """None, NaN or pandas' NA (an absent context in a column)."""
    import pandas as pd

    if value is None or isinstance(value, str | Mapping | list):
        return value is None
    return bool(pd.isna(value))


@dataclass(frozen=True)
class _Columns:
    text: str
    context: str | None
    id: str | None


def _check_frame(frame: Any, source: ContractSource, columns: _Columns) -> Any:
    import pandas as pd

    contract = compiled(source)
    rows: dict[str, list[Any]] = {name: [] for name in _COLUMNS}
    for position in range(len(frame)):
        ident = None if columns.id is None else _id(frame[columns.id].iat[position], position)
        where = f"row {ident if ident is not None else position}"
        text = frame[columns.text].iat[position]
        if not isinstance(text, str):
            raise InputError.at(f"{columns.text}: expected a text, got {text!r}", where)
        context = None if columns.context is None else frame[columns.context].iat[position]
        if _missing(context):
            context = None
        report = contract.check(Document.from_text(text), _context(context, where), source=ident)
        rows["accepted"].append(report.accepted)
        rows["complete"].append(report.complete)
        rows["violated_rules"].append(_violated(report))
        rows["report"].append(dumps_compact(report.to_dict()))
    added = {
        name: pd.Series(values, index=frame.index, dtype=bool if name in _COLUMNS[:2] else object)
        for name, values in rows.items()
    }
    return frame.assign(**added)


def check_dataframe(
    df: dask.dataframe.DataFrame,
    contract: Contract | str | os.PathLike[str],
    *,
    text: str = "text",
    context: str | None = None,
    id: str | None = None,
) -> dask.dataframe.DataFrame:
    """``df`` with ``accepted``, ``complete``, ``violated_rules`` and ``report`` added.

    ``text`` names the column of texts (each checked as one ``body`` surface); ``context``
    an optional column of contexts (dicts, JSON text, or missing for the empty one); ``id``
    an optional column whose value becomes each report's ``source`` (integers as their
    decimal text). ``violated_rules`` lists the rules with a violated check, each once, in
    contract order; ``report`` is the report as one line of JSON.
    """
    import pandas as pd

    for name in (text, context, id):
        if name is not None and name not in df.columns:
            raise KeyError(f"the dataframe has no column {name!r}")
    clashing = [name for name in _COLUMNS if name in df.columns]
    if clashing:
        raise ValueError(f"the dataframe already has a column {clashing[0]!r}")
    meta = df._meta.assign(
        accepted=pd.Series(dtype=bool),
        complete=pd.Series(dtype=bool),
        violated_rules=pd.Series(dtype=object),
        report=pd.Series(dtype=object),
    )
    source = contract_source(contract)
    columns = _Columns(text, context, id)
    checked = df.map_partitions(_check_frame, source, columns, meta=meta)  # type: ignore[no-untyped-call]
    return cast("dask.dataframe.DataFrame", checked)


def _audit_shard(directory: str, shard: Shard, options: dict[str, Any]) -> dict[str, Any]:
    return audit_directory(directory, shard=shard, **options).report


def audit(
    directory: str | os.PathLike[str],
    client: distributed.Client,
    *,
    shards: int | None = None,
    contract: str | os.PathLike[str] | None = None,
    cache: str | os.PathLike[str] | None = None,
    allow_missing_rules: bool = False,
    detection: float | None = None,
    preservation: float | None = None,
    mode: str | None = None,
    as_of: date | None = None,
    source_revision: SourceRevisionOption = None,
) -> AuditResult:
    """Audit ``directory`` as ``shards`` shards (default: one per worker) on ``client``'s
    cluster and merge them: the result's report is the unsharded audit's, byte for byte.

    Every worker must see ``directory`` (and ``cache``) at the same path: a shared file
    system, or a local cluster. ``mode``, ``as_of`` and ``source_revision`` are
    :func:`~textcontract.audit.audit_directory`'s; the date waivers are judged on is
    taken here (today, UTC, when not given), so every shard judges them on the same day.
    A failed preflight raises :class:`~textcontract.audit.PreflightFailed`, as the
    unsharded audit does.
    """
    count = shards if shards is not None else max(1, len(client.scheduler_info()["workers"]))
    options: dict[str, Any] = {
        "contract": None if contract is None else os.fspath(contract),
        "cache": None if cache is None else os.fspath(cache),
        "allow_missing_rules": allow_missing_rules,
        "detection": detection,
        "preservation": preservation,
        "mode": mode,
        "as_of": as_of if as_of is not None else today_utc(),
        "source_revision": source_revision,
    }
    folder = os.fspath(directory)
    futures = [
        client.submit(_audit_shard, folder, Shard(index, count), options, pure=False)
        for index in range(1, count + 1)
    ]
    reports: Sequence[dict[str, Any]] = client.gather(futures)  # type: ignore[no-untyped-call]
    parts = [Part(f"shard {i}/{count}", report) for i, report in enumerate(reports, start=1)]
    return merge_audit(parts, detection=detection, preservation=preservation)
