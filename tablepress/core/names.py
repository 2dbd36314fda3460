"""Matching names typed by people: case-insensitive, without accents, singular or plural."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable


def fold(text: str) -> str:
    """A name folded for comparison: accents removed, lower case, apostrophes and runs of spaces unified."""
    text = unicodedata.normalize("NFKD", text)
    text = "".join(ch for ch in text if not unicodedata.combining(ch))
    text = text.replace("’", "'").replace("‘", "'").lower()
    return " ".join(text.split())


def singular_forms(word: str) -> list[str]:
    """Candidate singular forms of a folded English word or phrase (last word only): Lilies → lily, Daisies → daisy."""
    forms = [word]
    if word.endswith("ies"):
        forms.append(word[:-3] + "y")
    if word.endswith("es"):
        forms.append(word[:-2])
    if word.endswith("s"):
        forms.append(word[:-1])
    return forms


class NameIndex:
    """Looks up canonical names from what a person typed (any case, accents optional, plurals accepted)."""

    def __init__(self, names: Iterable[str], aliases: dict[str, str] | None = None):
        self._by_fold: dict[str, str] = {}
        for name in names:
            self._by_fold[fold(name)] = name
        for alias, name in (aliases or {}).items():
            self._by_fold[fold(alias)] = name

    def get(self, typed: str) -> str | None:
        """The canonical name for `typed`, or None when nothing matches."""
        for form in singular_forms(fold(typed)):
            if form in self._by_fold:
                return self._by_fold[form]
        return None
