"""Target languages: how a target sentence is cut into the tokens a build aligns and the targeted
judge matches, and whether the judge's match has a lemmatizer for the language.

Tokens are the white-space tokens of the line, but in Chinese and Japanese (written without spaces)
every Han character is one, by sacrebleu's ``zh`` tokenizer (WMT's for BLEU; it also splits
punctuation off Latin words), and in Japanese every kana too: characters, so no word segmenter is
a dependency and a reference and an output are cut alike. The match lemmatizes with simplemma (a
dictionary, no model) where it lists the language, else it is exact. Both choices are written into
the judge's signature (:func:`tokens_label`, :func:`match_label`).
"""

from __future__ import annotations

import re
from functools import lru_cache

SPACE, SACREBLEU_ZH, ZH_KANA = "space", "sacrebleu-zh", "sacrebleu-zh+kana"
CHARACTER_LANGUAGES = {"zh": SACREBLEU_ZH, "ja": ZH_KANA}  # written without spaces: a token per character
# hiragana, katakana (with the prolonged sound mark), half-width katakana
_KANA = re.compile(r"([\u3040-\u309f\u30a0-\u30ff\uff66-\uff9f])")


@lru_cache(maxsize=1)
def _zh_tokenizer():
    from sacrebleu.tokenizers.tokenizer_zh import TokenizerZh

    return TokenizerZh()


def language_of(pair: str) -> str:
    """The target language of a pair ("en-zh" -> "zh")."""
    return pair.rsplit("-", 1)[-1].lower()


def tokenization(language: str | None) -> str:
    """How target lines of ``language`` are tokenized: :data:`SPACE`, :data:`SACREBLEU_ZH` or :data:`ZH_KANA`."""
    return CHARACTER_LANGUAGES.get(language, SPACE)


def target_tokens(line: str, language: str | None = None) -> list[str]:
    """The tokens of one target line of ``language`` (None: white space; see the module)."""
    how = tokenization(language)
    if how == SPACE:
        return line.split()
    text = _zh_tokenizer()(line)
    if how == ZH_KANA:
        text = _KANA.sub(r" \1 ", text)
    return text.split()


def lemma_language(language: str | None) -> str | None:
    """``language`` when simplemma lemmatizes it, else None (the match is then exact)."""
    from simplemma.strategies.dictionaries.dictionary_factory import SUPPORTED_LANGUAGES

    return language if language in SUPPORTED_LANGUAGES else None


def match_label(lemma_language: str | None) -> str:
    """The signature's match step: ``match:lemma-simplemma-cs``, or ``match:exact`` without one."""
    return f"match:lemma-simplemma-{lemma_language}" if lemma_language else "match:exact"


def tokens_label(language: str | None) -> str:
    """The signature's tokenization: ``tok:space``, ``tok:sacrebleu-zh`` or ``tok:sacrebleu-zh+kana``."""
    return f"tok:{tokenization(language)}"
