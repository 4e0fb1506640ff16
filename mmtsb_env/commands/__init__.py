"""Subcommands of the ``mmtsb`` CLI, one module each, found automatically."""
