"""trankit's tagged tokens → CoNLL-U: the one place where trankit's fields meet ours, apart from
:mod:`.trankit` so that it is tested on hand-made tokens, without a model.

A multiword token (an ``id`` tuple) becomes a range line: FORM the surface text, MISC its own, every
other column ``_``. MISC is ``SpaceAfter=No`` where a token's character span ends where the next
begins. HEAD 0 gets DEPREL ``root`` and no other word does (``root`` elsewhere becomes ``dep``).
"""

from __future__ import annotations

from auto_challenge_sets.backends.parsers import clean_field
from auto_challenge_sets.formats.ud import MultiwordToken, Sentence, Token


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
