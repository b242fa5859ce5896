"""The README's tour and the manual's language, eval, library and numbers pages show real output: every
example runs here."""
import doctest
import os
import re
import shlex

import pytest
from click.testing import CliRunner

from gradcli.cli import main

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# A page of the manual, whole, or a section of README.md ("README.md ## Title").
SECTIONS = ("README.md ## A tour", "docs/language.md", "docs/eval.md", "docs/homework.md",
            "docs/library.md", "docs/numbers.md",
            "docs/check.md ## Homework answers: tangents, directional derivatives, critical "
            "points, Taylor, dy/dx")


def section(title):
    path, _, heading = title.partition(" ")
    text = open(os.path.join(ROOT, path), encoding="utf-8").read()
    if not heading:
        return text
    start = text.index(heading + "\n")
    end = text.find("\n## ", start + len(heading))
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
    runner.run(parser.get_doctest(text, {}, title, title.split()[0], 0))
    assert runner.summarize(verbose=False).failed == 0
