"""history-replay: a surface repeats each earlier text of the thread."""

from __future__ import annotations

from .baselines import caught, reasons, run

CONTRACT = "textcontract: 1\nid: c\nrules:\n  - {id: fresh, type: NoRepeatedText}\n"


def test_each_history_text_replayed_on_each_surface() -> None:
    context = {"states": {"current": {}}, "history": ["We got your order.", "It is packed."]}
    case, contract = run(CONTRACT, "It shipped today.", context, "history-replay")
    assert [v.document.surface("body").text for v in case.variants] == [  # type: ignore[union-attr]
        "We got your order.",
        "It is packed.",
    ]
    assert caught(contract, case) == [True, True]


def test_no_history_nothing_to_replay() -> None:
    case, _ = run(CONTRACT, "It shipped today.", None, "history-replay")
    assert reasons(case) == ["fresh: the context has no history to replay"]
