"""The fast 13a tokenizer against sacrebleu's own, line for line."""

from __future__ import annotations

import random

from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a

from auto_challenge_sets.scoring.tokenize_13a import tokenize_13a

from conftest import shared_path


def test_same_tokens_as_sacrebleu_on_punctuation_soup() -> None:
    rng = random.Random(13)
    alphabet = "ab1 9.,-'\"(){}[]<>&;:/\\@~`^_|!?#$%*+=\n\t\u00a0\u3002ä" + "&quot;&amp;&lt;&gt;<skipped>"
    sacre = Tokenizer13a()
    for _ in range(2000):
        line = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 30)))
        assert tokenize_13a(line) == sacre(line), repr(line)


def test_same_tokens_as_sacrebleu_on_every_wmt21_line() -> None:
    base = shared_path("data", "wmt21")
    sacre = Tokenizer13a()
    files = sorted(base.glob("*/newstest2021.*"))  # sources, references and every system's output
    checked = 0
    for path in files:
        if path.is_file():
            for line in path.read_text(encoding="utf-8").splitlines():
                assert tokenize_13a(line) == sacre(line), (path.name, line)
                checked += 1
    assert checked > 10_000


def test_escaped_entities_unescape_in_sacrebleus_order() -> None:
    """sacrebleu replaces &quot; before &amp;, so an escaped entity (``&amp;quot;``) stays an entity;
    the random soup above draws single characters and never spells one."""
    sacre = Tokenizer13a()
    for line in ("&amp;quot;", "a &amp;quot;b&amp;quot; c", "&amp;lt;x&amp;gt;", "&amp;amp;", "&quot;&amp;&lt;&gt;"):
        assert tokenize_13a(line) == sacre(line), line
    assert tokenize_13a("&amp;quot;") == "& quot ;"
