"""The package version and the project's documentation address, each written once.

``pyproject.toml`` reads ``__version__`` from here (``[tool.setuptools.dynamic]``), so the
installed package's metadata, ``textcontract -V``, every report's ``engine.version`` and
the SARIF log's ``tool.driver.version`` are this one string. Reading the metadata back at
run time instead (``importlib.metadata.version``) would cost every cold start the import of
``importlib.metadata`` (about 0.09 s here) and fail in a source tree that is not installed.

Between releases the version is the next release's with ``.dev0`` (PEP 440: it sorts
before that release); CHANGELOG.md's "Unreleased" section lists what it holds so far.
"""

__version__ = "0.3.0.dev0"
ENGINE_NAME = "textcontract"
REPOSITORY_URL = "https://github.com/textcontract/textcontract"
"""Where the project lives; the README's Action and pre-commit examples name it too."""
DOCUMENTATION_URL = f"{REPOSITORY_URL}#readme"
"""The project's documentation (the README, which links every page of docs/): SARIF's
``tool.driver.informationUri`` and ``[project.urls]`` in pyproject.toml."""
