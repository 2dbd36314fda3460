"""Docstrings, comments and docs cite files that ship: no file under tablepress/ or tests/ (nor the README or
docs/) points at a contract, a shared folder or a rules folder outside the repository, and every `docs/...`
page or `tablepress/games/<game>/rules.md` they name exists."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: The kinds of file read: source, data, templates and docs.
SUFFIXES = {".py", ".toml", ".md", ".js", ".html", ".css", ".txt", ".cfg", ".ini", ".tmpl"}
#: Citations of files that are not in the repository (the text is split so this file does not cite them).
MISSING = {
    "the contract": re.compile(r"\bcontract" r"\.md\b"),
    "a shared folder": re.compile(r"\.\./" r"shared\b"),
    "a seeds folder": re.compile(r"(?<![\w.-])" r"seeds/\d"),
    "a rules folder outside the game's": re.compile(r"(?<![\w.-])" r"rules/[\w-]+\.md\b"),
}
#: Paths a file may cite that must exist.
CITED = re.compile(r"(?<![\w./-])((?:docs|tablepress/games)/[\w./-]*\w\.(?:md|png|toml))")


def shipped_files() -> list[Path]:
    """Every text file under tablepress/ and tests/, the README and docs/ (not caches, not this file)."""
    files = [ROOT / "README.md"]
    for folder in ("tablepress", "tests", "docs"):
        files += [path for path in (ROOT / folder).rglob("*") if path.is_file() and path.suffix in SUFFIXES
                  and "__pycache__" not in path.parts and "history" not in path.relative_to(ROOT).parts]
    return [path for path in files if path != Path(__file__).resolve()]


def test_nothing_cites_files_outside_the_repository():
    found = []
    for path in shipped_files():
        for number, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
            for what, pattern in MISSING.items():
                if pattern.search(line):
                    found.append(f"{path.relative_to(ROOT)}:{number} cites {what}: {line.strip()[:100]}")
    assert not found, "\n".join(found)


def test_cited_docs_and_rules_exist():
    missing = []
    for path in shipped_files():
        for number, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
            for cited in CITED.findall(line):
                if "<" not in cited and not (ROOT / cited).exists():
                    missing.append(f"{path.relative_to(ROOT)}:{number} cites {cited}, which does not exist")
    assert not missing, "\n".join(missing)
