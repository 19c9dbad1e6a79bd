"""The public API is exactly what ``__all__`` lists (as httpx pins it)."""

from __future__ import annotations

import inspect

import textcontract


def test_all_names_the_public_api() -> None:
    exported = {
        name
        for name, value in vars(textcontract).items()
        if not name.startswith("_") and not inspect.ismodule(value)
    }
    assert set(textcontract.__all__) - {"__version__"} == exported
    assert all(hasattr(textcontract, name) for name in textcontract.__all__)


def test_public_api_is_pinned() -> None:
    assert textcontract.__all__ == [
        "Check",
        "CheckPolicy",
        "Context",
        "Contract",
        "ContractError",
        "Document",
        "Enforcement",
        "ExitCode",
        "InputError",
        "Kind",
        "Problem",
        "RefusedArtifactSet",
        "Report",
        "Severity",
        "Status",
        "Surface",
        "TextcontractError",
        "__version__",
        "load_contract",
        "load_contract_text",
    ]


def test_package_ships_py_typed() -> None:
    from importlib import resources

    assert resources.files("textcontract").joinpath("py.typed").is_file()


def test_loading_functions_take_what_their_names_say() -> None:
    path = inspect.signature(textcontract.load_contract)
    text = inspect.signature(textcontract.load_contract_text)
    assert list(path.parameters) == ["path", "registry"]
    assert list(text.parameters) == ["text", "name", "registry"]
    assert text.parameters["name"].default == "<string>"
