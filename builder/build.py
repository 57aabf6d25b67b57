"""The build: a parallel corpus, its source-side parse and (optionally) an alignment → every
config of one language pair and corpus, exported into a Hub-ready folder.

The parse and alignment stages (parsers, aligners) produce the CoNLL-U and Pharaoh files this
step reads; from files on, the build is cheap and deterministic, so a rerun writes identical bytes.
"""

from __future__ import annotations

import argparse
import os
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from auto_challenge_sets import __version__
from auto_challenge_sets.builder.align_stage import AlignerSpec
from auto_challenge_sets.configs import (
    BASELINE,
    LEXICAL_DISTANCES,
    REORDER,
    REORDER_DISTANCES,
    check_split_name,
    config_name,
    parse_config_name,
    parse_pair,
)
from auto_challenge_sets.conllu_io import read_conllu
from auto_challenge_sets.corpus import ReadReport, read_parallel
from auto_challenge_sets.phenomena import PHENOMENA


@dataclass
class BuildSpec:
    pair: str
    corpus: str
    source: Path
    target: Path
    source_conllu: Path | None  # None: parse the source with `parser`
    out: Path
    alignment: Path | None = None
    license: str | None = None
    parser: str = "conllu"
    # options of the parse stage as `acs parse` names them (udpipe_model, trankit_cache, device,
    # batch_size, pretokenized, cache_dir, shard_size ...)
    parse_options: dict = field(default_factory=dict)
    # how the reorder configs are aligned; None: no reorder configs (a bare `alignment` path
    # still means "read this Pharaoh file", see __post_init__)
    aligner: AlignerSpec | None = None
    aligner_label: str | None = None  # how the dataset card names the alignment, if not aligner.describe()
    provenance: str | None = None  # how the dataset card describes the parse, when the backend name is not enough
    phenomena: tuple[str, ...] = ()
    lexical_distances: tuple[int, ...] = LEXICAL_DISTANCES
    reorder_distances: tuple[int, ...] = REORDER_DISTANCES

    def __post_init__(self) -> None:
        if self.aligner is None and self.alignment is not None:
            self.aligner = AlignerSpec("pharaoh", {"path": self.alignment})

    def config_names(self) -> list[str]:
        src, tgt = parse_pair(self.pair)
        names = [config_name(src, tgt, BASELINE)]
        for phenomenon in self.phenomena or tuple(PHENOMENA):
            names += [config_name(src, tgt, phenomenon, d) for d in self.lexical_distances]
        if self.aligner is not None:
            names += [config_name(src, tgt, REORDER, d) for d in self.reorder_distances]
        return names


@dataclass
class BuildResult:
    out: Path
    sizes: dict[str, int] = field(default_factory=dict)  # config -> rows in this corpus
    lines: int = 0
    pairs: int = 0
    report: ReadReport = field(default_factory=ReadReport)
    warnings: list[str] = field(default_factory=list)


def _progress(iterable: Iterable, enabled: bool, **kwargs) -> Iterable:
    if not enabled:
        return iterable
    from tqdm.auto import tqdm

    return tqdm(iterable, **kwargs)


def _parser_label(spec: BuildSpec) -> str:
    """The parser as the dataset card names it: backend and model."""
    options = spec.parse_options
    if spec.provenance:
        return spec.provenance
    if spec.parser == "udpipe" and options.get("udpipe_model"):
        return f"udpipe ({Path(options['udpipe_model']).name})"
    if spec.parser == "trankit":
        return f"trankit ({options.get('trankit_embedding') or 'xlm-roberta-base'})"
    return spec.parser


def build_challenge_sets(spec: BuildSpec, progress: bool = True) -> BuildResult:
    """Run the build of one (pair, corpus) into ``spec.out``; return the config sizes."""
    import datasets

    from auto_challenge_sets.builder.align_stage import align_corpus
    from auto_challenge_sets.builder.analysis import analyse, match_sentences, target_tokens, write_analyses
    from auto_challenge_sets.builder.challenge_builder import ChallengeSets
    from auto_challenge_sets.builder.export import (
        remove_split,
        render_readme,
        scan_folder,
        update_build_record,
        write_split,
    )

    parse_pair(spec.pair)
    check_split_name(spec.corpus)
    corpus = read_parallel(spec.source, spec.target, spec.corpus)
    # made before parsing: a missing model or alignment file fails before any work
    aligner = None if spec.aligner is None else spec.aligner.create(
        line_numbers=[pair.line for pair in corpus.pairs], total_lines=corpus.total_lines)
    source_conllu = spec.source_conllu
    if spec.parser != "conllu" or source_conllu is None:
        from auto_challenge_sets.builder.parse_stage import parse_source_for_build

        options = argparse.Namespace(**{**spec.parse_options, "parser": spec.parser,
                                        "source_conllu": spec.source_conllu})
        source_conllu = parse_source_for_build([p.source for p in corpus.pairs], parse_pair(spec.pair)[0], options,
                                               line_numbers=[p.line for p in corpus.pairs], progress=progress)
    sentences = list(_progress(read_conllu(source_conllu), progress, total=len(corpus.pairs),
                               desc="reading parse", unit="sent"))
    sentences = match_sentences(corpus, sentences, str(source_conllu))
    result = BuildResult(Path(spec.out), lines=corpus.total_lines, pairs=len(corpus.pairs), report=corpus.report)
    if spec.aligner is not None and spec.aligner.name == "pharaoh":
        differ = sum(len(s.words) != len(p.source.split()) for s, p in zip(sentences, corpus.pairs))
        if differ:
            # The Pharaoh indices must refer to the parse's words; a file made on white-space tokens
            # (fast_align, `acs align` on the raw file) is shifted wherever the two differ.
            result.warnings.append(
                f"{differ} of {len(corpus.pairs)} pairs have a different number of parse words than "
                "white-space tokens in the source: the alignment file's source indices must refer to "
                "the parse's words (parse pre-tokenized text with --pretokenized and align that text)")
    alignments = None
    if aligner is not None:
        # analysis.py's tokenization contract: the parse's words x the target's white-space tokens
        alignments = align_corpus([sentence.forms for sentence in sentences],
                                  [target_tokens(pair.target) for pair in corpus.pairs], aligner,
                                  cache_dir=spec.parse_options.get("cache_dir"), progress=progress)

    spec.out.mkdir(parents=True, exist_ok=True)
    was_enabled = datasets.utils.logging.is_progress_bar_enabled()
    datasets.disable_progress_bars()  # ours is the one that counts configs
    verbosity = datasets.logging.get_verbosity()
    datasets.logging.set_verbosity_error()
    try:
        with tempfile.TemporaryDirectory(prefix="acs-build-") as work:
            analysis_path = os.path.join(work, f"{spec.pair}.{spec.corpus}.jsonl")
            write_analyses(analyse(corpus, sentences, alignments, spec.phenomena or None), analysis_path)
            for name in _progress(spec.config_names(), progress, desc="writing configs", unit="config"):
                builder = ChallengeSets(cache_dir=os.path.join(work, "cache"), config_name=name,
                                        analyses=((spec.corpus, analysis_path),))
                builder.download_and_prepare()
                rows = builder.info.splits[spec.corpus].num_examples
                if rows:
                    write_split(builder.as_dataset(split=spec.corpus), spec.out, name, spec.corpus)
                else:
                    # datasets cannot load an empty split, so an empty config is not exported;
                    # a stale file from an earlier build of this corpus goes too.
                    remove_split(spec.out, name, spec.corpus)
                result.sizes[name] = rows
            # A rebuild of this pair and corpus replaces it whole: configs it no longer has (another
            # --aligner, fewer --phenomena) must not keep rows of the earlier build.
            wanted = set(spec.config_names())
            for name, splits in scan_folder(spec.out).items():
                if spec.corpus in splits and name not in wanted and parse_config_name(name).pair == spec.pair:
                    remove_split(spec.out, name, spec.corpus)
    finally:
        datasets.logging.set_verbosity(verbosity)
        if was_enabled:
            datasets.enable_progress_bars()

    update_build_record(spec.out, {
        "pair": spec.pair,
        "corpus": spec.corpus,
        "source": Path(spec.source).name,
        "target": Path(spec.target).name,
        "parser": _parser_label(spec),
        "aligner": spec.aligner_label or (None if spec.aligner is None else spec.aligner.describe()),
        "lines": corpus.total_lines,
        "pairs": len(corpus.pairs),
        "skipped_empty_lines": len(corpus.report.empty_lines),
        "version": __version__,
    }, spec.license)
    render_readme(spec.out)
    return result
