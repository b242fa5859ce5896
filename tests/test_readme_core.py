"""The README's language, eval, library and numbers sections show real output: every example runs here."""
import doctest
import os
import re
import shlex

import pytest
from click.testing import CliRunner

from gradcli.cli import main

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SECTIONS = ("## The language", "## `gradcli eval`",
            "## Homework: tangents, directional derivatives, Taylor, critical points, implicit curves", "## The Python library", "## Numbers, domains and conventions")


def section(title):
    text = open(os.path.join(ROOT, "README.md"), encoding="utf-8").read()
    start = text.index(title + "\n")
    end = text.find("\n## ", start + len(title))
    return text[start:end if end != -1 else len(text)]


def blocks(title, kind):
    return re.findall(rf"```{kind}\n(.*?)```", section(title), flags=re.S)


def console_examples():
    for title in SECTIONS:
        for block in blocks(title, "console"):
            lines = block.splitlines()
            i = 0
            while i < len(lines):
                assert lines[i].startswith("$ gradcli "), lines[i]
                command = lines[i][2:]
                j = i + 1
                while j < len(lines) and not lines[j].startswith("$ "):
                    j += 1
                yield title, command, "\n".join(lines[i + 1:j])
                i = j


EXAMPLES = list(console_examples())


def test_every_section_has_examples():
    for title in SECTIONS:
        assert blocks(title, "console") or blocks(title, "python"), title


@pytest.mark.parametrize("title,command,expected", EXAMPLES,
                         ids=[c[:60] for _, c, _ in EXAMPLES])
def test_console_example_is_real_output(title, command, expected):
    result = CliRunner().invoke(main, shlex.split(command)[1:])
    got = "\n".join(line.rstrip() for line in result.output.splitlines())
    assert got == expected


@pytest.mark.parametrize("title", [t for t in SECTIONS if blocks(t, "python")])
def test_python_examples_run(title):
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
    # The blocks of a section continue one session.
    text = "\n".join(blocks(title, "python"))
    runner.run(parser.get_doctest(text, {}, f"README {title}", "README.md", 0))
    assert runner.summarize(verbose=False).failed == 0
