"""``acs evaluate``: score one system's output on challenge sets of a dataset folder.

The folder is what ``acs build`` exports: ``README.md`` whose YAML front matter lists every
config and its ``data_files`` per split, and ``data/{config}/{split}-00000-of-00001.parquet``.
The hypothesis file has one line per line of the split's corpus (the system's translation of the
whole test set); rows are matched to it by their ``line`` column. The ``{pair}.baseline`` config
(the full corpus) is the pool of the length-matched random baseline and gives the full-corpus
scores; its statistics are computed once and shared by every config scored.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from auto_challenge_sets.commands import HelpFormatter

DESCRIPTION = """\
Score a system's translation of a test corpus on LDD challenge sets: BLEU (sacrebleu) and RIBES
(NTT's definition), each compared with length-matched random corpora drawn from the full corpus
(the {pair}.baseline config), and, with --config all, by minimum distance D per phenomenon with
the Spearman correlation of score with D (the paper's Table 5).

HYP has one line per line of the corpus the split was built from (line N of HYP translates the
row whose `line` is N), so its line count must equal the corpus's line count as `acs build`
recorded it (pairs with an empty side are not rows, but their lines are still in HYP)."""

EPILOG = """\
examples:
  acs evaluate --dataset ldd_sets --config de-en.particle.d3 --split newstest2021 --hyp sys.en
  acs evaluate --dataset ldd_sets --config all --split newstest2021 --hyp sys.en --out report/
  acs evaluate --dataset ldd_sets --config all --hyp sys.en --ref refB.en --json > scores.json"""


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "evaluate",
        help="score MT output on challenge sets against a length-matched random baseline",
        description=DESCRIPTION,
        epilog=EPILOG,
        formatter_class=HelpFormatter,
    )
    parser.add_argument("--dataset", required=True, metavar="DIR", help="a folder written by `acs build`")
    parser.add_argument(
        "--config",
        required=True,
        metavar="NAME|all",
        help="config to score (e.g. de-en.particle.d3; several separated by commas), or `all`: "
        "every non-baseline config of the language pair",
    )
    parser.add_argument(
        "--split",
        metavar="NAME",
        help="split (source corpus, e.g. newstest2021); default: the baseline config's only split",
    )
    parser.add_argument("--hyp", required=True, metavar="FILE", help="system output, one line per corpus line")
    parser.add_argument(
        "--ref",
        action="append",
        default=[],
        metavar="FILE",
        help="an additional reference file, one line per corpus line (repeatable); the dataset's "
        "`reference` column is always the first reference",
    )
    parser.add_argument(
        "--ref-config",
        metavar="NAME",
        help="config holding the full corpus: the random baseline's pool and the full-corpus "
        "score (default: {pair}.baseline)",
    )
    parser.add_argument("--pair", metavar="SRC-TGT", help="with --config all: the language pair, when the "
                        "folder holds several")
    parser.add_argument("--out", metavar="DIR", help="write report.md, results.json and PNG plots here")
    parser.add_argument("--json", action="store_true", help="print the results as JSON instead of a table")
    parser.add_argument("--n-samples", type=int, default=100, metavar="N",
                        help="random corpora per config (default: 100)")
    parser.add_argument("--length-tolerance", type=int, default=1, metavar="N",
                        help="largest source-length difference of a random replacement (default: 1)")
    parser.add_argument("--seed", type=int, default=1, metavar="N", help="random seed (default: 1)")
    parser.add_argument("--tokenize", default="13a", metavar="NAME",
                        help="sacrebleu tokenizer for BLEU and RIBES (default: 13a)")
    parser.add_argument("--case-sensitive-ribes", action="store_true",
                        help="do not lowercase before RIBES (RIBES.py's --case)")
    parser.set_defaults(func=run)


# -- reading the dataset folder ----------------------------------------------------------------


def _front_matter(readme: Path) -> dict[str, Any]:
    """The YAML front matter of a dataset card (empty when there is none)."""
    import yaml

    from auto_challenge_sets.errors import InputError

    text = readme.read_text(encoding="utf-8")
    if not text.startswith("---"):
        return {}
    end = text.find("\n---", 3)
    if end < 0:
        raise InputError("YAML front matter is not closed by a `---` line", readme, 1)
    try:
        data = yaml.safe_load(text[3:end])
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        raise InputError(f"bad YAML front matter: {error}", readme, None if mark is None else mark.line + 2) from None
    return data if isinstance(data, dict) else {}


class DatasetFolder:
    """Configs and their Parquet files per split, from ``README.md`` (or the default layout)."""

    def __init__(self, root: str | Path) -> None:
        from auto_challenge_sets.errors import InputError

        self.root = Path(root)
        if not self.root.is_dir():
            raise InputError("no such dataset folder", self.root)
        self.files: dict[str, dict[str, list[Path]]] = {}
        readme = self.root / "README.md"
        configs = _front_matter(readme).get("configs") if readme.is_file() else None
        if configs:
            for entry in configs:
                name = entry.get("config_name")
                if not name:
                    continue
                self.files[name] = self._resolve(entry.get("data_files"), name)
        else:  # no card: fall back to the layout itself
            for folder in sorted(p for p in (self.root / "data").glob("*") if p.is_dir()):
                splits: dict[str, list[Path]] = {}
                for file in sorted(folder.glob("*.parquet")):
                    splits.setdefault(file.name.split("-", 1)[0], []).append(file)
                self.files[folder.name] = splits
        if not self.files:
            raise InputError("lists no configs (README.md `configs:` or data/{config}/*.parquet)", self.root)

    def _resolve(self, data_files: Any, config: str) -> dict[str, list[Path]]:
        if isinstance(data_files, str | list) and not (
            isinstance(data_files, list) and data_files and isinstance(data_files[0], dict)
        ):
            data_files = [{"split": "train", "path": data_files}]
        if isinstance(data_files, dict):
            data_files = [{"split": k, "path": v} for k, v in data_files.items()]
        splits: dict[str, list[Path]] = {}
        for item in data_files or []:
            patterns = item.get("path")
            for pattern in [patterns] if isinstance(patterns, str) else list(patterns or []):
                matches = sorted(self.root.glob(pattern))
                splits.setdefault(item.get("split", "train"), []).extend(matches)
        return splits

    def splits(self, config: str) -> list[str]:
        return sorted(self.files.get(config, {}))

    def read(self, config: str, split: str, columns: list[str]) -> dict[str, list[Any]]:
        """Columns of one config's split, as Python lists."""
        import pyarrow as pa
        import pyarrow.parquet as pq

        from auto_challenge_sets.errors import InputError

        if config not in self.files:
            raise InputError(f"has no config {config!r}", self.root / "README.md")
        files = self.files[config].get(split)
        if not files:
            raise InputError(
                f"config {config!r} has no split {split!r} (splits: {', '.join(self.splits(config)) or 'none'})",
                self.root / "README.md",
            )
        tables = []
        for file in files:
            try:
                tables.append(pq.read_table(file, columns=columns))
            except (pa.ArrowInvalid, KeyError, OSError) as error:
                raise InputError(f"cannot read columns {columns}: {error}", file) from None
        table = pa.concat_tables(tables) if len(tables) > 1 else tables[0]
        return {name: table.column(name).to_pylist() for name in columns}

    def where(self, config: str, split: str) -> Path:
        files = self.files.get(config, {}).get(split) or [self.root / "data" / config]
        return files[0]


# -- the command -------------------------------------------------------------------------------

ROW_COLUMNS = ["id", "line", "reference", "length", "distance"]


def _choose_configs(folder: DatasetFolder, args: argparse.Namespace) -> list[str]:
    from auto_challenge_sets.configs import parse_config_name
    from auto_challenge_sets.errors import InputError

    names = sorted(folder.files)
    if args.config == "all":
        chosen = []
        for name in names:
            try:
                parsed = parse_config_name(name)
            except ValueError:
                continue
            if str(parsed) != name and str(parsed) in folder.files:
                continue  # `de-en.particle` is an alias of `de-en.particle.d1`: score it once
            if not parsed.is_baseline and (args.pair is None or parsed.pair == args.pair):
                chosen.append(name)
        pairs = sorted({parse_config_name(n).pair for n in chosen})
        if len(pairs) > 1:
            raise InputError(
                f"holds several language pairs ({', '.join(pairs)}); choose one with --pair",
                folder.root / "README.md",
            )
        if not chosen:
            raise InputError("has no challenge configs" + (f" for {args.pair}" if args.pair else ""),
                             folder.root / "README.md")
        return chosen
    chosen = [c.strip() for c in args.config.split(",") if c.strip()]
    for name in chosen:
        if name not in folder.files:
            raise InputError(f"has no config {name!r} (configs: {', '.join(names)})", folder.root / "README.md")
        try:
            parse_config_name(name)
        except ValueError as error:
            raise InputError(str(error), folder.root / "README.md") from None
    pairs = sorted({parse_config_name(n).pair for n in chosen})
    if len(pairs) > 1:
        raise InputError(f"configs of several language pairs ({', '.join(pairs)}) cannot share one --hyp file")
    return chosen


def run(args: argparse.Namespace) -> int:
    import json

    from auto_challenge_sets.challenge_metric import compute, corpus_scores
    from auto_challenge_sets.configs import (
        BASELINE,
        LEXICAL_DISTANCES,
        REORDER,
        REORDER_DISTANCES,
        parse_config_name,
    )
    from auto_challenge_sets.errors import InputError
    from auto_challenge_sets.report import ConfigResult, breakdown_summary, text_table, write_report

    if args.n_samples < 1:
        raise InputError(f"--n-samples must be at least 1, got {args.n_samples}")
    if args.length_tolerance < 0:
        raise InputError(f"--length-tolerance must be >= 0, got {args.length_tolerance}")
    folder = DatasetFolder(args.dataset)
    configs = _choose_configs(folder, args)
    pair = parse_config_name(configs[0]).pair
    base_name = args.ref_config or f"{pair}.{BASELINE}"
    if base_name not in folder.files:
        raise InputError(f"has no config {base_name!r}, the full corpus the random baseline draws from",
                         folder.root / "README.md")
    split = args.split
    if split is None:
        splits = folder.splits(base_name)
        if len(splits) != 1:
            raise InputError(f"config {base_name!r} has splits {', '.join(splits)}; choose one with --split",
                             folder.root / "README.md")
        split = splits[0]

    base = folder.read(base_name, split, ROW_COLUMNS)
    from auto_challenge_sets.corpus import read_lines

    hyp = read_lines(args.hyp)
    # The corpus may have had pairs with an empty side, skipped by the build: the hypothesis
    # file still has one line per corpus line, as the build record says.
    from auto_challenge_sets.builder.export import read_build_record

    record = next((b for b in read_build_record(folder.root)["builds"]
                   if b["pair"] == pair and b["corpus"] == split), None)
    expected = record["lines"] if record else len(base["line"])
    if len(hyp) != expected:
        raise InputError(
            f"has {len(hyp)} lines but the corpus of {base_name}, split {split}, has "
            f"{expected}; the hypothesis file needs one line per corpus line",
            args.hyp,
        )
    extra = []
    for ref_file in args.ref:
        lines = read_lines(ref_file)
        if len(lines) != len(hyp):
            raise InputError(f"has {len(lines)} lines but {args.hyp} has {len(hyp)}", ref_file)
        extra.append(lines)

    def gather(rows: dict[str, list[Any]], config: str) -> tuple[list[str], list[tuple[str, ...]]]:
        preds, refs = [], []
        for row_id, line, reference in zip(rows["id"], rows["line"], rows["reference"]):
            if not isinstance(line, int) or not 1 <= line <= len(hyp):
                raise InputError(
                    f"row {row_id!r} has line {line!r}, outside the hypothesis file's 1..{len(hyp)}",
                    folder.where(config, split),
                )
            preds.append(hyp[line - 1])
            refs.append((reference, *(lines[line - 1] for lines in extra)))
        return preds, refs

    pool_preds, pool_refs = gather(base, base_name)
    options = {"tokenize": args.tokenize, "lowercase_ribes": not args.case_sensitive_ribes}
    try:
        full = corpus_scores(pool_preds, pool_refs, **options)
    except ValueError as error:
        raise InputError(str(error), args.hyp) from None

    results: list[ConfigResult] = []
    breakdowns = None
    for name in configs:
        parsed = parse_config_name(name)
        if split not in folder.splits(name):
            if args.config == "all":
                continue  # an empty challenge set is not exported
            raise InputError(f"config {name!r} has no split {split!r}", folder.root / "README.md")
        rows = folder.read(name, split, ROW_COLUMNS)
        preds, refs = gather(rows, name)
        single = len(configs) == 1 and parsed.min_distance is not None
        extra_args: dict[str, Any] = {}
        if single:
            # One config: its own breakdown by D (rows with distance >= D' are config d{D'}).
            grid = REORDER_DISTANCES if parsed.phenomenon == REORDER else LEXICAL_DISTANCES
            ds = sorted({parsed.min_distance, *(d for d in grid if d >= parsed.min_distance)})
            extra_args = {"distances": rows["distance"], "min_distances": ds}
        try:
            result = compute(
                preds, refs, lengths=rows["length"], ids=rows["id"],
                pool_predictions=pool_preds, pool_references=pool_refs, pool_lengths=base["length"],
                pool_ids=base["id"], n_samples=args.n_samples, length_tolerance=args.length_tolerance,
                seed=args.seed, **options, **extra_args,
            )
        except ValueError as error:
            raise InputError(str(error), folder.where(name, split)) from None
        results.append(ConfigResult(name, parsed.pair, parsed.phenomenon, parsed.min_distance, result))
        if single:
            key = f"{parsed.pair}.{parsed.phenomenon}"
            breakdowns = {key: [r for r in result["distance_breakdown"] if r["n"]]}

    summary = breakdown_summary(results, breakdowns)
    meta = {"dataset": str(args.dataset), "split": split, "hypothesis": str(args.hyp),
            "full corpus": base_name, "samples": str(args.n_samples), "seed": str(args.seed)}
    payload = {
        **meta,
        "full_corpus": full,
        "configs": {r.config: r.result for r in results},
        "by_phenomenon": summary,
    }
    if args.json:
        print(json.dumps(payload, indent=2, ensure_ascii=False))
    else:
        print(text_table(results, full))
        for name, item in summary.items():
            cells = []
            for metric in ("bleu", "ribes"):
                rho = item["spearman"][metric]["rho"]
                cells.append(f"{metric} rho={'-' if rho is None else f'{rho:.3f}'}")
            print(f"{name}: Spearman with D: {', '.join(cells)}")
    if args.out:
        out = Path(args.out)
        written = write_report(out, results, full, meta, breakdowns)
        (out / "results.json").write_text(json.dumps(payload, indent=2, ensure_ascii=False) + "\n",
                                          encoding="utf-8")
        if not args.json:
            print(f"wrote {written[0]} and {len(written) - 1} plot(s), results.json")
    return 0
