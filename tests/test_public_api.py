"""The public API is exactly what ``__all__`` lists (as httpx pins it)."""

from __future__ import annotations

import importlib
import inspect
import json
import subprocess
import sys

import pytest

import textcontract


def test_all_names_the_public_api() -> None:
    exported = {
        name
        for name in dir(textcontract)
        if not name.startswith("_") and not inspect.ismodule(getattr(textcontract, name))
    }
    assert set(textcontract.__all__) - {"__version__"} == exported
    assert all(hasattr(textcontract, name) for name in textcontract.__all__)


def test_an_unknown_attribute_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="has no attribute 'Contracts'"):
        _ = textcontract.Contracts


@pytest.mark.parametrize("package", ["textcontract", "textcontract.testing"])
def test_lazy_names_are_the_real_objects(package: str) -> None:
    module = importlib.import_module(package)
    for name in module.__all__:
        value = getattr(module, name)
        if name != "__version__":
            assert getattr(importlib.import_module(value.__module__), name) is value


def test_importing_the_package_or_its_pytest_plugin_loads_no_library_module() -> None:
    script = (
        "import json, sys, textcontract, textcontract.testing._pytest_plugin\n"
        "print(json.dumps(sorted(m for m in sys.modules if m.startswith('textcontract'))))\n"
    )
    completed = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    )
    assert json.loads(completed.stdout) == [
        "textcontract",
        "textcontract._lazy",
        "textcontract._version",
        "textcontract.testing",
        "textcontract.testing._pytest_plugin",
    ]


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
