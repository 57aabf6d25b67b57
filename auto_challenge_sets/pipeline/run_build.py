"""The build: a parallel corpus, its source-side parse and (optionally) an alignment → the analysed
pairs from which every config of one language pair and corpus is drawn (a :class:`BuildOutput`,
which ``auto_challenge_sets.dataset`` writes as a Hub folder).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from auto_challenge_sets import __version__
from auto_challenge_sets.backends.aligners import Aligner
from auto_challenge_sets.configs import (
    BASELINE,
    LEXICAL_DISTANCES,
    REORDER,
    REORDER_DISTANCES,
    check_split_name,
    config_name,
    parse_pair,
    phenomenon_distances,
)
from auto_challenge_sets.errors import AcsError, AlignmentError, CorpusError
from auto_challenge_sets.formats.conllu import read_conllu_with_lines
from auto_challenge_sets.formats.corpus import (
    ParallelCorpus,
    ReadReport,
    SentencePair,
    format_line_numbers,
    stream_parallel,
)
from auto_challenge_sets.formats.pharaoh import Link
from auto_challenge_sets.formats.ud import Sentence
from auto_challenge_sets.phenomena.profiles import source_phenomena
from auto_challenge_sets.phenomena.registry import (
    BUILTIN,
    PHENOMENA,
    alignment_phenomena,
    lexical_phenomena,
    phenomenon_for,
)
from auto_challenge_sets.pipeline.align_stage import align_pairs
from auto_challenge_sets.pipeline.build_provenance import build_provenance, weak_alignment
from auto_challenge_sets.pipeline.corpus_inputs import AlignmentFile, PreParsedSource
from auto_challenge_sets.pipeline.defaults import AUTO_ALIGNER, NO_ALIGNER, default_aligner
from auto_challenge_sets.pipeline.executors import Executor
from auto_challenge_sets.pipeline.parse_stage import parse_source_for_build
from auto_challenge_sets.pipeline.specs import AlignerSpec, ParserSpec
from auto_challenge_sets.pipeline.timings import stage
from auto_challenge_sets.selection import LineAnalysis, analyse_pairs, matched_pairs, target_tokens


@dataclass
class BuildSpec:
    """One (pair, corpus) build: the corpus files, how the source is parsed (a parser, or a CoNLL-U
    file) and how the pairs are aligned (an aligner, a Pharaoh file, or neither: no reorder configs).

    ``aligner``: an :class:`AlignerSpec`, a backend name, ``"auto"`` (the Pharaoh ``alignment`` if
    given, else :func:`~auto_challenge_sets.pipeline.defaults.default_aligner`, with
    ``aligner_note``), or ``None``/``"none"`` (the default: not aligned, no model or network
    touched). After construction it is an :class:`AlignerSpec` or ``None``.
    """

    pair: str
    corpus: str
    source: Path
    target: Path
    parser: ParserSpec | None = None
    source_conllu: Path | None = None  # a pre-parsed source instead of a parser
    aligner: AlignerSpec | str | None = None  # see above; "auto" is the default-aligner policy
    alignment: Path | None = None  # a Pharaoh file instead of an aligner
    cache_dir: Path | None = None  # the stage cache (default: auto_challenge_sets.paths.default_cache_dir)
    shard_size: int | None = None  # lines per cached parse shard
    # lexical phenomena to build (default: those of the source language's profile, language_profiles.py)
    phenomena: tuple[str, ...] = ()
    lexical_distances: tuple[int, ...] = LEXICAL_DISTANCES
    reorder_distances: tuple[int, ...] = REORDER_DISTANCES
    provenance: str | None = None  # how the dataset card describes the parse, if not the parser's label
    aligner_label: str | None = None  # how the dataset card names the alignment, if not the aligner's
    # a Pharaoh file whose source indices refer to the parse's words although the source's white-space
    # tokens differ: built with a warning instead of refused
    allow_token_mismatch: bool = False
    executor: Executor | None = None  # where the parse and alignment shards run (default: here)
    # why the aligner is not the default (the default-aligner policy's note), reported with the warnings
    aligner_note: str | None = None
    # user rules whose definition here replaces another one the output folder records for the same
    # config names: that config's other splits are removed (auto_challenge_sets.dataset.rule_record)
    replace_rules: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        _check_phenomena(self.phenomena)
        for name in ("lexical_distances", "reorder_distances"):  # a config twice: its files written twice over
            distances = getattr(self, name)
            if len(set(distances)) != len(distances):
                raise AcsError(f"{name} gives a distance twice: {', '.join(map(str, distances))}", field=name)
        if (self.parser is None) == (self.source_conllu is None):
            raise AcsError("a build parses the source with a parser or reads its parse from a CoNLL-U "
                           "file: give exactly one of them")
        if self.aligner == AUTO_ALIGNER:
            self.aligner = None
            if self.alignment is None:
                name, self.aligner_note = default_aligner()
                self.aligner = AlignerSpec(name)
        elif self.aligner == NO_ALIGNER:
            self.aligner = None
        elif isinstance(self.aligner, str):
            self.aligner = AlignerSpec(self.aligner)
        if self.aligner is not None and self.alignment is not None:
            raise AcsError("a build aligns with an aligner or reads a Pharaoh file, not both")

    @property
    def aligned(self) -> bool:
        return self.aligner is not None or self.alignment is not None

    def built_phenomena(self) -> tuple[str, ...]:
        """The lexical phenomena this build makes configs for: those given, else the source
        language's (:func:`~auto_challenge_sets.phenomena.profiles.source_phenomena`)."""
        return self.phenomena or tuple(source_phenomena(parse_pair(self.pair)[0]))

    def config_names(self) -> list[str]:
        src, tgt = parse_pair(self.pair)
        names = [config_name(src, tgt, BASELINE)]
        for phenomenon in self.built_phenomena():
            names += [config_name(src, tgt, phenomenon, d) for d in self.lexical_distances]
        if self.aligned:
            for phenomenon in alignment_phenomena():
                distances = self.reorder_distances if phenomenon == REORDER else phenomenon_distances(phenomenon)
                names += [config_name(src, tgt, phenomenon, d) for d in distances]
        return names

    def user_rules(self) -> dict[str, str]:
        """The phenomena of this build that a user added (entry points, --rule): name → their
        description, as the build record and the card give it."""
        built = self.built_phenomena()
        return {name: PHENOMENA[name].description for name in built if name not in BUILTIN}

    def parser_label(self) -> str:
        """The parse as the dataset card names it: backend and model."""
        if self.provenance:
            return self.provenance
        return PreParsedSource.name if self.parser is None else self.parser.describe()


def _check_phenomena(names: tuple[str, ...]) -> None:
    """Each a registered lexical phenomenon, once (a name twice would write a config's files twice)."""
    seen: set[str] = set()
    for name in names:
        if name in seen:
            raise AcsError(f"phenomena names {name!r} twice", field="phenomena")
        seen.add(name)
        registered = PHENOMENA.get(name)
        if registered is None or registered.rule is None:
            raise AcsError(f"phenomena: {name!r} is not a phenomenon found on the source tree (those registered: "
                           f"{', '.join(lexical_phenomena())})", field="phenomena")


@dataclass
class BuildOutput:
    """What a build produced: one analysis per kept pair (a stream, :class:`AnalysedPairs`), the
    configs to draw from them, and the record of what was built from what."""

    spec: BuildSpec
    analyses: Iterable[LineAnalysis]
    config_names: list[str]
    record: dict[str, Any]
    lines: int = 0
    pairs: int = 0
    report: ReadReport = field(default_factory=ReadReport)
    warnings: list[str] = field(default_factory=list)


def _prepare_aligner(spec: BuildSpec, corpus: ParallelCorpus) -> Aligner | AlignmentFile | None:
    """Made before parsing: a missing model or alignment file fails before any work."""
    if spec.alignment is not None:
        return AlignmentFile(spec.alignment, line_numbers=[pair.line for pair in corpus.pairs],
                             total_lines=corpus.total_lines)
    return None if spec.aligner is None else spec.aligner.create()


def _source_parse(spec: BuildSpec, corpus: ParallelCorpus, progress: bool) -> tuple[Path, list[str]]:
    """The CoNLL-U file of the source side, the given one or the parse stage's (cached) output, and
    the parse's notes (lines merged into one tree, ...)."""
    if spec.source_conllu is not None:
        source = PreParsedSource(spec.source_conllu)
        source.check_ready()
        return source.path, []
    return parse_source_for_build([p.source for p in corpus.pairs], parse_pair(spec.pair)[0], spec.parser,
                                  line_numbers=[p.line for p in corpus.pairs], cache_dir=spec.cache_dir,
                                  shard_size=spec.shard_size, progress=progress, executor=spec.executor)


class AnalysedPairs:
    """The kept pairs' analyses, streamed from the source's CoNLL-U: each iteration reads the file
    again, checking each sentence against its pair (:func:`~auto_challenge_sets.selection.matched_pairs`:
    a file may hold one sentence per non-empty *source* line, as ``acs parse`` writes)."""

    def __init__(self, corpus: ParallelCorpus, path: Path, names: list[str], progress: bool,
                 language: str | None = None, target: str | None = None):
        self.corpus, self.path, self.names, self.progress = corpus, path, names, progress
        self.language = language  # the source's: a phenomenon is found with its rule for the language
        self.target = target  # the target's: its tokens (characters in Chinese and Japanese)
        self.alignments: list[list[Link]] | None = None
        self.count: int | None = None  # sentences in the file, when needed to tell its layout
        if len(corpus.source_lines) != len(corpus.pairs):
            self.count = sum(1 for _ in read_conllu_with_lines(path))

    def matched(self) -> Iterator[tuple[SentencePair, Sentence]]:
        return matched_pairs(self.corpus, read_conllu_with_lines(self.path), str(self.path), self.count)

    def phenomena(self) -> list[Any]:
        """The phenomena to find, with their rules for the source language (looked up once, not per pair)."""
        return [phenomenon_for(name, self.language) for name in self.names]

    def __iter__(self) -> Iterator[LineAnalysis]:
        matched: Iterable = self.matched()
        if self.progress:
            from tqdm.auto import tqdm

            matched = tqdm(matched, total=len(self.corpus.pairs), desc="reading parse", unit="sent")
        yield from analyse_pairs(matched, self.alignments, self.phenomena(), self.target)


def _check_tokenization(spec: BuildSpec, corpus: ParallelCorpus, words: list[int]) -> list[str]:
    """A Pharaoh file's source indices must refer to the parse's words: where the parse has another
    number of words than the source white-space tokens, an error, unless ``allow_token_mismatch``."""
    if spec.alignment is None:
        return []
    differ = [(p, n) for n, p in zip(words, corpus.pairs) if n != len(p.source.split())]
    if not differ:
        return []
    if not spec.allow_token_mismatch:
        first, words = differ[0]
        raise AlignmentError(
            f"made on other tokens than the parse's words? Line {first.line} of {corpus.source_path} has "
            f"{len(first.source.split())} white-space tokens but its parse {words} words, and so differ "
            f"{len(differ)} of {len(corpus.pairs)} pairs: the file's source indices would point at the wrong "
            "words. Align the parse's words (parse pre-tokenized text, option pretokenized, and align that "
            "text), or set allow_token_mismatch if the file's source indices do refer to the parse's words",
            str(spec.alignment), first.line, field=("pretokenized", "allow_token_mismatch"))
    return [f"{len(differ)} of {len(corpus.pairs)} pairs have a different number of parse words than "
            f"white-space tokens in the source (line {format_line_numbers([p.line for p, _ in differ])}): "
            "the alignment file's source indices were taken to refer to the parse's words "
            "(--allow-token-mismatch)"]


def _truncation_warnings(aligner: Aligner | AlignmentFile | None, corpus: ParallelCorpus,
                         words: list[int], target: str | None = None) -> list[str]:
    """An aligner with a sentence length limit (``max_tokens``) aligns a longer pair on its first
    tokens only; computed from the pairs, so a cached alignment is reported too."""
    limit = getattr(aligner, "max_tokens", None)
    if not limit:
        return []
    long = [p.line for n, p in zip(words, corpus.pairs) if n > limit or len(target_tokens(p.target, target)) > limit]
    if not long:
        return []
    return [f"{len(long)} pair(s) longer than {limit:,} tokens were aligned on their first {limit:,} tokens: "
            f"line {format_line_numbers(long)}"]


def _priors_note(provenance: dict[str, Any]) -> list[str]:
    """A note when eflomal aligned a test-set-sized corpus on its own, without priors."""
    weak = weak_alignment(provenance["aligner"])
    if weak is None:
        return []
    return [f"{weak}, and so are the reorder configs and the alignment column that targeted accuracy judges by "
            "(docs/method.md, Reordering measures). Learn priors from every parallel text of the pair you have "
            "(`acs align --aligner eflomal --source all.SRC --target all.TGT --make-priors PAIR.priors`) and "
            "build with `--eflomal-priors PAIR.priors`"]


def _record(spec: BuildSpec, corpus: ParallelCorpus, aligner: Aligner | AlignmentFile | None) -> dict[str, Any]:
    described = aligner.describe() if isinstance(aligner, AlignmentFile) else (
        spec.aligner and spec.aligner.describe())
    # the parser as the record names it (a backend loads no model to say which one it has)
    parser = (PreParsedSource(spec.source_conllu) if spec.source_conllu is not None
              else spec.parser.create(parse_pair(spec.pair)[0], spec.cache_dir))
    rules = spec.user_rules()
    return {
        "pair": spec.pair,
        "corpus": spec.corpus,
        "source": Path(spec.source).name,
        "target": Path(spec.target).name,
        "parser": spec.parser_label(),
        "aligner": spec.aligner_label or described,
        "lines": corpus.total_lines,
        "pairs": len(corpus.pairs),
        **({"user_rules": rules} if rules else {}),
        "skipped_empty_lines": len(corpus.report.empty_lines),
        "version": __version__,
        "provenance": build_provenance(parser, aligner, len(corpus.pairs), parse_pair(spec.pair)[1]),
    }


def _reference_tokens(target: str, line: str) -> str:
    """``line`` tokenized as evaluate counts a reference by default: BLEU's tokenizer for ``target``.
    Only a line over the limit's MAX_TOKENS characters gets here: sacrebleu is imported for it alone."""
    from auto_challenge_sets.scoring.metrics.bleu import TOKENIZE, BleuStatistics, target_tokenizer

    return BleuStatistics(target_tokenizer(target) or TOKENIZE.default).preprocess(line)


def build(spec: BuildSpec, progress: bool = True) -> BuildOutput:
    """Read, parse, align and analyse one (pair, corpus)."""
    parse_pair(spec.pair)
    check_split_name(spec.corpus)
    with stage("read", unit="lines") as timed:
        corpus = stream_parallel(spec.source, spec.target, spec.corpus,
                                 lambda line: _reference_tokens(parse_pair(spec.pair)[1], line))
        if timed is not None:
            timed.count = corpus.total_lines
    if not corpus.pairs:
        raise CorpusError(f"has no sentence pair with both sides non-empty ({corpus.total_lines} lines, "
                          f"{len(corpus.report.empty_lines)} with an empty side, target {spec.target})", spec.source)
    aligner = _prepare_aligner(spec, corpus)
    with stage("parse", len(corpus.pairs), "sentences"):
        parse, parse_notes = _source_parse(spec, corpus, progress)
    analyses = AnalysedPairs(corpus, parse, list(spec.built_phenomena()), progress, *parse_pair(spec.pair))
    warnings: list[str] = ([spec.aligner_note] if spec.aligner_note else []) + parse_notes
    if aligner is not None:
        # one pass for the words to align (the parse's words x the target's tokens), checking the
        # parse before the aligner runs; the analyses stream the parse again
        forms = [sentence.forms for _, sentence in analyses.matched()]
        words = [len(f) for f in forms]
        warnings += _check_tokenization(spec, corpus, words)
        with stage("align", len(forms), "pairs"):
            pairs = [(source, target_tokens(pair.target, analyses.target)) for source, pair in zip(forms, corpus.pairs)]
            analyses.alignments = align_pairs(pairs, aligner=aligner, cache_dir=spec.cache_dir, progress=progress,
                                              executor=spec.executor)
        warnings += _truncation_warnings(aligner, corpus, words, analyses.target)
    record = _record(spec, corpus, aligner) | ({"parse_notes": parse_notes} if parse_notes else {})
    warnings += _priors_note(record["provenance"])
    return BuildOutput(spec, analyses, spec.config_names(), record, lines=corpus.total_lines,
                       pairs=len(corpus.pairs), report=corpus.report, warnings=warnings)
