"""Subcommands of the boardtrack CLI (see service/cli.py)."""
