"""Start light (docs/architecture.md §4): a command's module is imported only when that command runs."""

from __future__ import annotations

import importlib
import subprocess
import sys

import click

from memrepo.cli.main import LAZY_COMMANDS, main


def test_the_lazy_table_names_every_command_each_module_adds() -> None:
    for module in sorted(set(LAZY_COMMANDS.values())):
        group = click.Group()
        importlib.import_module(f"memrepo.cli.{module}").register(group)
        assert set(group.commands) == {name for name, owner in LAZY_COMMANDS.items() if owner == module}


def test_help_lists_every_command() -> None:
    listed = main.list_commands(click.Context(main))
    assert set(LAZY_COMMANDS) <= set(listed) and {"remember", "show", "init"} <= set(listed)


def test_a_read_command_imports_no_other_command_module() -> None:
    code = (
        "import sys, click\n"
        "from memrepo.cli.main import main\n"
        "assert main.get_command(click.Context(main), 'recall') is not None\n"
        "print(sorted(m for m in sys.modules if m.startswith('memrepo.cli.')))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "['memrepo.cli.main', 'memrepo.cli.read']"
