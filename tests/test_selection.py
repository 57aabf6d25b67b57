"""Per-line analysis and config rows (selection.py), on small hand-made corpora: fast enough to run
for every mutant of `make mutate` (test_build.py checks the same code end to end on gold PUD)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from rows import challenge_rows

from auto_challenge_sets.configs import parse_config_name
from auto_challenge_sets.errors import ConlluError
from auto_challenge_sets.formats.conllu import parse_conllu
from auto_challenge_sets.formats.corpus import read_parallel
from auto_challenge_sets.phenomena.registry import Instance, lexical_phenomena
from auto_challenge_sets.selection import (
    LineAnalysis,
    analyse_pairs,
    matched_pairs,
    same_text,
    target_tokens,
    text_mismatch,
)

# "Er ruft zum Essen an." — particle "an" (6) of "ruft" (2), three words between; "zum" = zu dem.
CALL = ("# sent_id = a\n# text = Er ruft zum Essen an.\n"
        "1\tEr\ter\tPRON\t_\t_\t2\tnsubj\t_\t_\n2\truft\trufen\tVERB\t_\t_\t0\troot\t_\t_\n"
        "3-4\tzum\t_\t_\t_\t_\t_\t_\t_\t_\n3\tzu\tzu\tADP\t_\t_\t5\tcase\t_\t_\n"
        "4\tdem\tder\tDET\t_\t_\t5\tdet\t_\t_\n5\tEssen\tEssen\tNOUN\t_\t_\t2\tobl\t_\t_\n"
        "6\tan\tan\tADP\t_\t_\t2\tcompound:prt\t_\tSpaceAfter=No\n7\t.\t.\tPUNCT\t_\t_\t2\tpunct\t_\t_\n\n")
# "Sie wäscht sich." — reflexive "sich" (3) right after "wäscht" (2); no # text.
WASH = ("# sent_id = b\n1\tSie\tsie\tPRON\t_\t_\t2\tnsubj\t_\t_\n2\twäscht\twaschen\tVERB\t_\t_\t0\troot\t_\t_\n"
        "3\tsich\ter|sie\tPRON\t_\tReflex=Yes\t2\tobj\t_\tSpaceAfter=No\n4\t.\t.\tPUNCT\t_\t_\t2\tpunct\t_\t_\n\n")
SOURCE = ["Er ruft zum Essen an.", "", "Sie wäscht sich.", "Niemand."]
TARGET = ["He calls for dinner.", "Empty source.", "She washes herself .", ""]


@pytest.fixture
def corpus(tmp_path: Path):
    (tmp_path / "c.de").write_text("\n".join(SOURCE) + "\n", encoding="utf-8")
    (tmp_path / "c.en").write_text("\n".join(TARGET) + "\n", encoding="utf-8")
    return read_parallel(tmp_path / "c.de", tmp_path / "c.en", "toy")


def _sentences() -> list:
    return parse_conllu(CALL + WASH)


def match_sentences(corpus, sentences, conllu_path, starts=None) -> list:
    numbered = zip(starts or [None] * len(sentences), sentences)
    return [sentence for _, sentence in matched_pairs(corpus, numbered, conllu_path, len(sentences))]


def analyse(corpus, sentences, alignments=None, phenomena=None) -> list:
    return list(analyse_pairs(zip(corpus.pairs, sentences), alignments, phenomena or lexical_phenomena()))


def test_text_and_tokens() -> None:
    assert target_tokens(" She  washes\therself . ") == ["She", "washes", "herself", "."]
    assert same_text("Er ruft zum Essen an .", "Er ruft zum\u00adEssen an.")  # white space, soft hyphen
    assert same_text("Cafe\u0301", "Café") and same_text("a\u200bb\ufeff", "a b")  # NFC, zero-width, BOM
    assert not same_text("Er ruft zum Essen an.", "Er ruft zum Essen ab.")
    assert not same_text("ab", "a-b")


def test_why_a_parse_is_not_its_line() -> None:
    call, wash = _sentences()
    assert text_mismatch(call, "Er ruft zum Essen an.") is None
    assert text_mismatch(wash, "Sie wäscht sich.") is None
    assert text_mismatch(call, "Er ruft zum Essen ab.") == (
        "its # text is another text: 'ErruftzumEssenan.' vs 'ErruftzumEssenab.' (white space removed)")
    call.set_metadata("text", "Er ruft zum Essen ab.")  # the # text edited, the forms not
    assert text_mismatch(call, "Er ruft zum Essen ab.") == (
        "its word forms spell another text than the line: 'ErruftzumEssenan.' vs 'ErruftzumEssenab.' "
        "(white space removed)")
    # where they differ, with 20 letters either side and an ellipsis when cut
    (long,) = parse_conllu("1\t" + "x" * 30 + "y" + "z" * 30 + "\t_\tX\t_\t_\t0\troot\t_\t_\n")
    assert text_mismatch(long, "x" * 30 + "w" + "z" * 30) == (
        f"its word forms spell another text than the line: …'{'x' * 20}y{'z' * 19}' vs "
        f"…'{'x' * 20}w{'z' * 19}' (white space removed)")
    assert text_mismatch(long, "x" * 30) == (
        f"its word forms spell another text than the line: …'{'x' * 20}y{'z' * 19}' vs …'{'x' * 20}' "
        "(white space removed)")
    assert text_mismatch(long, "x" * 5).endswith(f"'{'x' * 25}' vs 'xxxxx' (white space removed)")


def test_sentences_of_the_source_file_or_of_the_kept_pairs(corpus) -> None:
    sentences = _sentences()
    niemand = parse_conllu("1\tNiemand\tniemand\tPRON\t_\t_\t0\troot\t_\tSpaceAfter=No\n"
                           "2\t.\t.\tPUNCT\t_\t_\t1\tpunct\t_\t_\n")
    assert [p.line for p in corpus.pairs] == [1, 3] and corpus.source_lines == [1, 3, 4]
    # one sentence per non-empty source line: the sentence of line 4 (empty target) is dropped
    assert match_sentences(corpus, sentences + niemand, "p.conllu") == sentences
    # one per kept pair
    assert match_sentences(corpus, sentences, "p.conllu") == sentences
    with pytest.raises(ConlluError, match=re.escape(
            f"p.conllu: has 1 sentences but {corpus.source_path} has 3 non-empty lines (2 pairs with both sides non-empty): "
            "a source-side CoNLL-U needs one sentence per non-empty source line, in order")):
        match_sentences(corpus, sentences[:1], "p.conllu")


def test_a_mismatch_names_both_places_and_counts_the_others(corpus) -> None:
    call, wash = _sentences()
    wrong = parse_conllu(WASH.replace("sich", "uns"))[0]
    with pytest.raises(ConlluError, match=re.escape(
            "p.conllu:9: sentence 2 (sent_id b) does not match line 3 of ")) as caught:
        match_sentences(corpus, [call, wrong], "p.conllu", starts=[1, 9])
    assert str(caught.value).endswith("(white space removed)") and "; " not in str(caught.value)
    with pytest.raises(ConlluError, match=r"^p\.conllu: sentence 1 \(sent_id b\) does not match line 1 of .*"
                                          r"; 2 of 2 sentences do not match their lines: line 1, 3$"):
        match_sentences(corpus, [wrong, call], "p.conllu")


def test_analyses_of_each_pair(corpus) -> None:
    links = [[(0, 0), (1, 1), (5, 2)], [(0, 0), (2, 2)]]
    analyses = list(analyse(corpus, _sentences(), links))
    first, second = analyses
    assert (first.line, first.source, first.reference) == (1, "Er ruft zum Essen an.", "He calls for dinner.")
    assert first.source_tokens == ["Er", "ruft", "zu", "dem", "Essen", "an", "."]
    assert first.target_tokens == ["He", "calls", "for", "dinner."]
    paper = {name: first.lexical[name] for name in ("reflexive", "particle", "prep_stranding")}
    assert paper == {"reflexive": [], "particle": [Instance(6, 2, "an", "ruft", 3, 1)], "prep_stranding": []}
    assert set(first.lexical) == set(lexical_phenomena())
    assert second.lexical["reflexive"] == [Instance(3, 2, "sich", "wäscht", 0, 0)] and second.links == [(0, 0), (2, 2)]
    without = list(analyse(corpus, _sentences(), phenomena=["particle"]))
    assert without[0].links is None and list(without[0].lexical) == ["particle"]


def test_rows_of_each_kind_of_config(corpus) -> None:
    analyses = list(analyse(corpus, _sentences(), [[(0, 0), (1, 1), (5, 2)], [(0, 0), (2, 2)]]))
    baseline = list(challenge_rows(analyses, parse_config_name("de-en.baseline"), "toy"))
    assert [r["id"] for r in baseline] == ["toy:1", "toy:3"]
    assert baseline[0] == {"id": "toy:1", "corpus": "toy", "src_lang": "de", "tgt_lang": "en", "line": 1,
                           "source": "Er ruft zum Essen an.", "reference": "He calls for dinner.",
                           "source_tokens": ["Er", "ruft", "zu", "dem", "Essen", "an", "."],
                           # the parse's UPOS of each word, the multiword token's words too
                           "source_upos": ["PRON", "VERB", "ADP", "DET", "NOUN", "ADP", "PUNCT"],
                           "alignment": "0-0 1-1 5-2", "length": 7,
                           "phenomenon": "baseline", "distance": 0, "instances": []}
    particle = list(challenge_rows(analyses, parse_config_name("de-en.particle.d3"), "toy"))
    assert len(particle) == 1 and particle[0]["distance"] == 3 and particle[0]["phenomenon"] == "particle"
    assert particle[0]["instances"] == [Instance(6, 2, "an", "ruft", 3, 1).to_dict()]
    assert list(challenge_rows(analyses, parse_config_name("de-en.particle.d4"), "toy")) == []
    reflexive = list(challenge_rows(analyses, parse_config_name("de-en.reflexive.d0"), "toy"))
    assert [(r["line"], r["distance"], r["length"]) for r in reflexive] == [(3, 0, 4)]
    reorder = list(challenge_rows(analyses, parse_config_name("de-en.reorder.d3"), "toy"))
    assert len(reorder) == 1 and reorder[0]["distance"] == 3
    assert reorder[0]["target_tokens"] == ["He", "calls", "for", "dinner."]
    assert reorder[0]["instances"] == [{"source_index": 6, "target_index": 3, "source_form": "an",
                                        "target_form": "for", "distance": 3}]
    assert "target_tokens" not in particle[0]
    assert list(challenge_rows(analyses, parse_config_name("de-en.reorder.d4"), "toy")) == []
    # every pair with a link at D = 0, each with all its links
    every = list(challenge_rows(analyses, parse_config_name("de-en.reorder.d0"), "toy"))
    assert [(r["line"], r["distance"], len(r["instances"])) for r in every] == [(1, 3, 3), (3, 0, 2)]
    assert particle[0]["alignment"] == reorder[0]["alignment"] == "0-0 1-1 5-2"
    unaligned = list(analyse(corpus, _sentences()))
    assert all(r["alignment"] is None for r in challenge_rows(unaligned, parse_config_name("de-en.particle.d1"), "toy"))
    with pytest.raises(ValueError, match=re.escape("config de-en.reorder.d3 needs alignments, and toy has none")):
        list(challenge_rows(unaligned, parse_config_name("de-en.reorder.d3"), "toy"))


def test_rows_at_distance_zero_keep_every_instance() -> None:
    analysis = LineAnalysis(7, "s", "r", ["a", "b", "c", "d"], ["w"],
                            {"particle": [Instance(1, 2, "a", "b", 0, 0), Instance(4, 2, "d", "b", 1, 1)]}, None)
    (row,) = challenge_rows([analysis], parse_config_name("en-de.particle.d0"), "c")
    assert row["distance"] == 1 and len(row["instances"]) == 2 and row["id"] == "c:7"
    assert (row["src_lang"], row["tgt_lang"]) == ("en", "de")
    (row,) = challenge_rows([analysis], parse_config_name("en-de.particle.d1"), "c")
    assert row["instances"] == [Instance(4, 2, "d", "b", 1, 1).to_dict()]


def test_the_stream_drops_a_middle_sentence_of_a_pair_without_target(tmp_path: Path) -> None:
    """One sentence per non-empty source line, the pair in the middle without a target: its
    sentence is skipped, not matched against the next pair."""
    niemand = "1\tNiemand\tniemand\tPRON\t_\t_\t0\troot\t_\tSpaceAfter=No\n2\t.\t.\tPUNCT\t_\t_\t1\tpunct\t_\t_\n\n"
    (tmp_path / "m.de").write_text("Er ruft zum Essen an.\nNiemand.\nSie wäscht sich.\n", encoding="utf-8")
    (tmp_path / "m.en").write_text("He calls for dinner.\n\nShe washes herself .\n", encoding="utf-8")
    corpus = read_parallel(tmp_path / "m.de", tmp_path / "m.en", "toy")
    call, middle, wash = parse_conllu(CALL + niemand + WASH)
    numbered = list(zip([1, 10, 20], [call, middle, wash]))
    pairs = list(matched_pairs(corpus, numbered, "m.conllu", 3))
    assert [(p.line, s) for p, s in pairs] == [(1, call), (3, wash)]


def test_the_stream_counts_its_sentences_to_the_end(corpus, tmp_path: Path) -> None:
    call, wash = _sentences()
    (tmp_path / "k.de").write_text("Er ruft zum Essen an.\nSie wäscht sich.\n", encoding="utf-8")
    (tmp_path / "k.en").write_text("He calls.\nShe washes.\n", encoding="utf-8")
    kept = read_parallel(tmp_path / "k.de", tmp_path / "k.en", "toy")
    for stream, count in (([], 0), ([call], 1), ([call, wash, call, wash], 4)):
        with pytest.raises(ConlluError, match=re.escape(
                f"k.conllu: has {count} sentences but {kept.source_path} has 2 non-empty lines (2 pairs")):
            list(matched_pairs(kept, [(None, s) for s in stream], "k.conllu"))
    # the layout of a corpus with an empty target needs the count
    with pytest.raises(ValueError, match="needs the number of sentences when some pairs have an empty target"):
        list(matched_pairs(corpus, [(None, call)], "p.conllu"))


def test_a_count_that_fits_neither_layout_is_refused_before_any_pair(corpus) -> None:
    """5 sentences for 3 non-empty source lines and 2 pairs: refused at the stream's start, before
    a pair is yielded (not at its end, after yielding the pairs that match)."""
    call, wash = _sentences()
    stream = matched_pairs(corpus, [(1, call), (10, wash)], "p.conllu", 5)
    with pytest.raises(ConlluError, match="has 5 sentences but"):
        next(stream)


def test_a_reordering_score_without_instances_selects_nothing() -> None:
    """One word link: crossing scores 0 and has no crossing link to show, so even D 0 selects
    nothing (a row needs its instances, not only a score at or above D)."""
    from auto_challenge_sets.selection import select

    analysis = LineAnalysis(1, "a b", "x y", ["a", "b"], ["x", "y"], {}, [(0, 0)])
    (selection,) = select([analysis], [parse_config_name("en-de.crossing.d0")], "c")
    assert (selection.indices, selection.distances, selection.instances) == ([], [], [])


def test_the_same_text_shortcut_drops_spaces_and_nothing_else() -> None:
    # a space dropped before a combining accent: the same text (NFC would compose only one side)
    assert same_text("e\u0301", "e \u0301")
    # the shortcut removes " " only and adds nothing (mutmut's "XX" edits of it)
    assert not same_text("ab", "aXX XXb") and not same_text("aXXXXb", "a b")
