"""House rule for the words users and maintainers read: no issue numbers, no process markers.

A docstring, a comment or a help text says what the code does, which strategy version (``heuristic_v1``
.. ``heuristic_v7``, card-play version ``play``) made it the default, and the rule it implements
(docs/RULES.md §x); "issue 47" tells a reader nothing without the tracker, so none may appear.  Nor may
a process marker such as ``# hooks lane`` (where a merge put a block, not why the code is there).

The check reads the sources, not their text line by line, so strings that are data do not count:

* comments (:mod:`tokenize`), consecutive comment lines read as one text (an issue number split
  over two lines is still found);
* docstrings and bare string statements (the attribute docstrings under constants) (:mod:`ast`);
* help texts: string arguments of ``print``, ``warn``, ``add_argument``, ``add_parser``,
  ``ArgumentParser``, a registry's ``add`` / ``add_version`` (the ``cardsim strategies`` listing)
  and of any call's ``help=``, ``doc=``, ``description=``, ``epilog=`` …; messages of ``raise``;
  values assigned to names ending in ``DOC``, ``DOCS``, ``HELP``, ``TEXT``, ``MESSAGE``, ``SPEC`` (a
  strategy's parameters with their help);
* in the TOML files under ``cardsim/`` (player profiles), comment lines and every ``doc`` value.

Each offence is named as ``file:line``.
"""
from __future__ import annotations

import ast
import io
import re
import tokenize
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCANNED = ("cardsim", "analyses", "cardsim_cli.py")
"""The sources the rule holds in (relative to the repository)."""

ISSUE = re.compile(r"\bissues?\s*(?:no\.?\s*)?#?\s*\d+", re.IGNORECASE)
"""An issue number: ``issue 47``, ``Issue 12``, ``issues 32 and 46``, ``issue #7``, ``issue\\n47``."""
MARKER = re.compile(r"^\s*\w+ lane\s*$")
"""A comment that is only a merge marker (``# hooks lane``, ``# split lane``)."""

TEXT_CALLS = frozenset({"print", "warn", "add_argument", "add_parser", "add_argument_group", "ArgumentParser",
                        "add", "add_version", "exit", "fail"})
"""Calls whose string arguments are text for people (``add``/``add_version``: the strategy registry)."""
TEXT_KEYWORDS = re.compile(r"(help|doc|description|epilog|usage|message|title)$", re.IGNORECASE)
"""Keyword arguments whose strings are text for people."""
TEXT_NAMES = re.compile(r"(DOC|DOCS|HELP|TEXT|MESSAGE|SPEC)$")
"""Names whose assigned strings (or dict of strings) are text for people."""


def _strings(node, source: str) -> list[tuple[int, str]]:
    """``(line, text)`` of every string under ``node``, as written in ``source`` (so a match's line is
    exact across implicitly joined parts); an f-string counts once, whole."""
    inner = {id(v) for n in ast.walk(node) if isinstance(n, ast.JoinedStr) for v in ast.walk(n) if v is not n}
    out = []
    for n in ast.walk(node):
        if id(n) in inner or not (isinstance(n, ast.JoinedStr) or isinstance(n, ast.Constant) and isinstance(n.value, str)):
            continue
        text = ast.get_source_segment(source, n)
        out.append((n.lineno, text if text is not None else getattr(n, "value", "")))
    return out


def _call_name(call: ast.Call) -> str:
    f = call.func
    return f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""


def _target_names(node) -> list[str]:
    targets = node.targets if isinstance(node, ast.Assign) else [node.target]
    return [t.id if isinstance(t, ast.Name) else t.attr if isinstance(t, ast.Attribute) else "" for t in targets]


def prose(source: str, filename: str = "<source>") -> list[tuple[int, str]]:
    """``(line, text)`` of the words in Python ``source`` that people read: comments, docstrings and
    help texts (the module docstring says which); a string that is data is not returned."""
    out = []
    tree = ast.parse(source, filename)
    for node in ast.walk(tree):
        if isinstance(node, ast.Expr) and isinstance(node.value, (ast.Constant, ast.JoinedStr)):
            out += _strings(node.value, source)
        elif isinstance(node, ast.Raise) and node.exc is not None:
            out += _strings(node.exc, source)
        elif isinstance(node, ast.Call):
            if _call_name(node) in TEXT_CALLS:
                for a in node.args:
                    out += _strings(a, source)
            for k in node.keywords:
                if k.arg and (TEXT_KEYWORDS.search(k.arg) or _call_name(node) in TEXT_CALLS):
                    out += _strings(k.value, source)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None:
            if any(TEXT_NAMES.search(n) for n in _target_names(node)):
                out += _strings(node.value, source)
    block: list[tuple[int, str]] = []
    blocks = []
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type == tokenize.COMMENT:
            if block and tok.start[0] != block[-1][0] + 1:
                blocks.append(block)
                block = []
            block.append((tok.start[0], tok.string.lstrip("#")))
    if block:
        blocks.append(block)
    for b in blocks:
        out.append((b[0][0], "\n".join(text for _, text in b)))
        out += [(line, "<marker>") for line, text in b if MARKER.match(text)]
    return out


def _line_of(line: int, text: str, m: re.Match) -> int:
    return line + text.count("\n", 0, m.start())


def offences(source: str, filename: str = "<source>") -> list[tuple[int, str]]:
    """``(line, what)`` of every issue number and process marker in ``source``'s prose."""
    out = set()
    for line, text in prose(source, filename):
        if text == "<marker>":
            out.add((line, "a process marker comment"))
            continue
        for m in ISSUE.finditer(text):
            out.add((_line_of(line, text, m), f"names {' '.join(m.group(0).split())!r}"))
    return sorted(out)


def toml_offences(text: str) -> list[tuple[int, str]]:
    """The same for a TOML file: its comment lines and its tables' ``doc`` values."""
    out = set()
    lines = text.splitlines()
    for i, line in enumerate(lines, 1):
        if line.lstrip().startswith("#"):
            out.update((i, f"names {' '.join(m.group(0).split())!r}") for m in ISSUE.finditer(line))
    docs = [t["doc"] for t in tomllib.loads(text).values() if isinstance(t, dict) and isinstance(t.get("doc"), str)]
    for doc in docs:
        for m in ISSUE.finditer(doc):
            i = next((k for k, line in enumerate(lines, 1) if m.group(0) in line), 0)
            out.add((i, f"names {' '.join(m.group(0).split())!r} in a doc"))
    return sorted(out)


def _files(ext: str) -> list[Path]:
    out = []
    for name in SCANNED:
        p = ROOT / name
        out += [p] if p.is_file() and p.suffix == ext else sorted(p.rglob(f"*{ext}")) if p.is_dir() else []
    return out


def test_no_issue_numbers_or_process_markers_in_docstrings_comments_or_help():
    found = []
    for path in _files(".py"):
        rel = path.relative_to(ROOT).as_posix()
        found += [f"{rel}:{line}: {what}" for line, what in offences(path.read_text(), rel)]
    for path in _files(".toml"):
        rel = path.relative_to(ROOT).as_posix()
        found += [f"{rel}:{line}: {what}" for line, what in toml_offences(path.read_text())]
    assert not found, ("say what the code does, which strategy version made it the default and the rule "
                       "(docs/RULES.md §x), not an issue number or a process marker:\n" + "\n".join(found))


CAUGHT = {
    '"""Exploitability of a strategy (issue 46)."""\n': (1, "names 'issue 46'"),
    'def f():\n    """Play.\n\n    Since issues 32 and 46."""\n': (4, "names 'issues 32'"),
    'x = 1  # the null-window search of Issue 47\n': (1, "names 'Issue 47'"),
    '# the rule of\n# issue\n# 26 here\nx = 1\n': (2, "names 'issue 26'"),
    'X = 1\n"""heuristic_v7\'s rules (issue #47\'s first)."""\n': (2, "names 'issue #47'"),
    'REGISTRY.add("v1", 3, {}, "the default before issue 12")\n': (1, "names 'issue 12'"),
    'R.add_version("v7", of="h", params={}, doc="the default until issue 47")\n': (1, "names 'issue 47'"),
    'R.add("v2", 5, {},\n      "bids like v3, "\n      "plays as before issue 26")\n': (3, "names 'issue 26'"),
    'p.add_argument("-n", help=f"games {n} (issue 46)")\n': (1, "names 'issue 46'"),
    '_PLAY_DOCS = {"play": "4 the default (issue 47: ...)"}\n': (1, "names 'issue 47'"),
    'raise OptionError(f"{x}: see issue 30")\n': (1, "names 'issue 30'"),
    'SPEC = f(\n    a=1,\n    # hooks lane\n    b=2)\n': (3, "a process marker comment"),
}


@pytest.mark.parametrize("source,expected", CAUGHT.items())
def test_the_check_catches_each_form(source, expected):
    assert expected in offences(source)


@pytest.mark.parametrize("source", [
    'x = "issue 47"  # a string that is data\n',
    'NAMES = {"issue 12": 1}\n',
    'def f():\n    """The 16-bit lane of a suit; issues a warning."""\n',
    '# ---- lane helpers (jitted)\nx = 1\n',
    'p.add_argument("--issue", type=int, help="which lead to show")\n',
])
def test_the_check_lets_data_and_plain_words_pass(source):
    assert offences(source) == []


def test_toml_comments_and_docs_are_read():
    text = '# measured against issue 47\n[bold]\ndoc = "bids more (issue 46)"\nothers = "issue 9"\n'
    assert toml_offences(text) == [(1, "names 'issue 47'"), (3, "names 'issue 46' in a doc")]
