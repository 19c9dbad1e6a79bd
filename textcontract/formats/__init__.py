"""Renderers: turn reports into text for the CLI. They import no engine code."""
