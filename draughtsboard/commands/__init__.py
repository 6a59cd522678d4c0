"""Subcommands of the `draughtsboard` program that need no hardware adapter.

Each module has ``add_parser(subparsers)``; `draughtsboard.cli` registers them and is the
only place that wires hardware or serial adapters to the core.
"""
