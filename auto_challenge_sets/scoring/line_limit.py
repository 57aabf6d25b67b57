"""The longest line the metric scores: at most MAX_TOKENS tokens and MAX_CHARACTERS characters.

Why a limit: the cost of one line grows with its length (RIBES's alignment O(n log n) with numpy's
constants, chrF six character n-grams per character), and one
pathological line (a log dump, a file pasted as one line) should be an error naming it, not minutes
of work. Measured (``compute()`` on one pair, 2-core machine at load 4-5): 10,000 tokens take
0.25-0.66 s whatever the words (one repeated, 5 or 50 distinct, all distinct), 50,000 characters
0.45 s and 100,000 already 1.04 s (chrF's character n-grams); no sentence of a real test set comes
near either (WMT21's longest line has a few hundred tokens).

Tokens are the BLEU tokenizer's (what BLEU and RIBES count); no tokenizer makes more tokens than the
line has characters, so a line of at most MAX_TOKENS characters is never tokenized here.
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
        lines = (item,) if isinstance(item, str) else item
        if max(map(len, lines), default=0) <= MAX_TOKENS:  # the common case: nothing to tokenize
            continue
        for j, line in enumerate(lines):
            why = line_excess(line, tokenize)
            if why is not None:
                where = f"{name}[{i}]" if isinstance(item, str) or len(item) == 1 else f"{name}[{i}][{j}]"
                raise ValueError(f"{where} {why}")
