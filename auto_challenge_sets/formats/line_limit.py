"""The longest line the metric scores: at most MAX_TOKENS tokens and MAX_CHARACTERS characters.

A line's cost grows with its length (RIBES's alignment, chrF's six character n-grams a character),
so a pathological line (a file pasted as one line) is an error naming it, not minutes of work; no
line of a real test set comes near either limit. Tokens are the BLEU tokenizer's; the build counts a
reference's with the one evaluate uses by default for its target language, so a set that builds can
be scored. No tokenizer makes more tokens than the line has characters, so a line of at most
MAX_TOKENS characters is not tokenized.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

MAX_TOKENS = 10_000
MAX_CHARACTERS = 50_000


def line_excess(text: str, tokenize: Callable[[str], str]) -> str | None:
    """Why ``text`` is too long to score (``has N tokens, above ...``), or None."""
    if len(text) <= MAX_TOKENS:
        return None
    if len(text) > MAX_CHARACTERS:
        return f"has {len(text):,} characters, above the limit of {MAX_CHARACTERS:,} per line"
    tokens = len(tokenize(text).split())
    if tokens > MAX_TOKENS:
        return f"has {tokens:,} tokens, above the limit of {MAX_TOKENS:,} per line"
    return None


def check_line_lengths(name: str, texts: Sequence[str] | Sequence[Sequence[str]],
                       tokenize: Callable[[str], str]) -> None:
    """A ValueError naming ``name[i]`` (``name[i][j]`` for a reference of several) of the first
    line that is too long. ``texts``: strings, or tuples of references."""
    for i, item in enumerate(texts):
        for j, line in enumerate((item,) if isinstance(item, str) else item):
            why = line_excess(line, tokenize)
            if why is not None:
                where = f"{name}[{i}]" if isinstance(item, str) or len(item) == 1 else f"{name}[{i}][{j}]"
                raise ValueError(f"{where} {why}")
