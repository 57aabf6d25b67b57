"""trankit's tagged tokens → CoNLL-U columns: the one place where trankit's fields meet ours.

trankit gives a sentence as a list of token dicts keyed by :mod:`trankit.utils.conll`'s names
(``id``, ``text``, ``lemma``, ``upos``, ``xpos``, ``feats``, ``head``, ``deprel``, ``dspan``,
``expanded``). Each word becomes a :class:`~auto_challenge_sets.ud.Token` with the CoNLL-U columns
in their order: ID, FORM, LEMMA, UPOS, XPOS, FEATS, HEAD, DEPREL, DEPS (``_``), MISC. A multiword
token (an ``id`` tuple) becomes a range line whose FORM is the surface text and every other column
``_`` but MISC; its words come from ``expanded``. MISC is ``SpaceAfter=No`` where the token's
character span ends where the next token's begins (on the range line for a multiword token, never
on its words). HEAD 0 gets DEPREL ``root`` and no other word does (``root`` elsewhere becomes
``dep``). A long word shortened for the tagger keeps its full form (``acs_form``). Every value goes
through :func:`~auto_challenge_sets.builder.backends.parsers.clean_field` (no tab, no newline,
``_`` for none). Separate from :mod:`.trankit` so that it is tested (and mutation-tested) on
hand-made tokens, without a model.
"""

from __future__ import annotations

from auto_challenge_sets.builder.backends.parsers import clean_field
from auto_challenge_sets.ud import MultiwordToken, Sentence, Token


def to_sentence(tokens: list[dict]) -> Sentence:
    """trankit's output tokens → a Sentence (multiword tokens as range lines)."""
    from trankit.utils.conll import DEPREL, DSPAN, EXPANDED, FEATS, HEAD, ID, LEMMA, TEXT, UPOS, XPOS

    sentence = Sentence()
    for position, token in enumerate(tokens):
        space_after = True
        if position + 1 < len(tokens) and DSPAN in token and DSPAN in tokens[position + 1]:
            space_after = token[DSPAN][1] != tokens[position + 1][DSPAN][0]
        misc = "_" if space_after else "SpaceAfter=No"
        if isinstance(token[ID], tuple):
            first, last = token[ID]
            columns = [f"{first}-{last}", clean_field(token[TEXT]), "_", "_", "_", "_", "_", "_", "_", misc]
            sentence.multiword_tokens.append(MultiwordToken(first, last, columns))
            words, word_misc = token[EXPANDED], "_"
        else:
            words, word_misc = [token], misc
        for word in words:
            head = int(word.get(HEAD, 0) or 0)
            deprel = clean_field(word.get(DEPREL))
            if head == 0:
                deprel = "root"
            elif deprel == "root":
                deprel = "dep"
            form = clean_field(word.get("acs_form", word[TEXT]))
            sentence.words.append(Token(
                word[ID], form, clean_field(word.get(LEMMA)), clean_field(word.get(UPOS)),
                clean_field(word.get(XPOS)), clean_field(word.get(FEATS)), head, deprel, "_", word_misc))
    return sentence
