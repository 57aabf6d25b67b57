"""sacrebleu's 13a tokenizer (mteval-v13a, BLEU's default), the same output, faster.

sacrebleu's first rule puts spaces around every character of a class that includes the space
itself, through ``re.sub`` with a template: a Python call per match, about one per word, most of
the tokenizer's time. A character class around which spaces go is what ``str.translate`` does in
C. The other rules (periods, commas and dashes next to digits) match rarely and stay sacrebleu's
regular expressions, applied in sacrebleu's order to the same intermediate string.
tests/test_tokenize_13a.py compares the output with sacrebleu's on every WMT21 line.
"""

from __future__ import annotations

import re
from functools import lru_cache

# sacrebleu's TokenizerRegexp class ([\{-\~\[-\` -\&\(-\+\:-\@\/]): { | } ~, [ \ ] ^ _ `, space to &,
# ( to +, : to @, and /
_SPACED = "".join(chr(c) for c in (*range(ord("{"), ord("~") + 1), *range(ord("["), ord("`") + 1),
                                   *range(ord(" "), ord("&") + 1), *range(ord("("), ord("+") + 1),
                                   *range(ord(":"), ord("@") + 1), ord("/")))
_AROUND = str.maketrans({char: f" {char} " for char in _SPACED})
# sacrebleu's templates (r"\1 \2 ", r" \1 \2", r"\1 \2 ") as functions: re expands a template in
# Python at each match, slower than calling these
_RULES = (
    (re.compile(r"([^0-9])([\.,])"), lambda m: f"{m[1]} {m[2]} "),  # period, comma unless after a digit
    (re.compile(r"([\.,])([^0-9])"), lambda m: f" {m[1]} {m[2]}"),  # period, comma unless before a digit
    (re.compile(r"([0-9])(-)"), lambda m: f"{m[1]} {m[2]} "),  # dash after a digit
)


@lru_cache(maxsize=2**16)  # sacrebleu's own cache: BLEU and RIBES read one sentence's tokens, a repeated reference
def tokenize_13a(line: str) -> str:
    """``sacrebleu.tokenizers.tokenizer_13a.Tokenizer13a()(line)``."""
    line = line.replace("<skipped>", "").replace("-\n", "").replace("\n", " ")
    if "&" in line:
        line = line.replace("&quot;", '"').replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">")
    line = f" {line} ".translate(_AROUND)
    if "." in line or "," in line:
        for pattern, replacement in _RULES[:2]:
            line = pattern.sub(replacement, line)
    if "-" in line:
        line = _RULES[2][0].sub(_RULES[2][1], line)
    return " ".join(line.split())
