"""Build the *published* challenge sets: every recipe of ``builder/recipes.toml`` into one folder.

Meant for a GPU machine that reaches the Hub, with the paper's pipeline (trankit parses, simalign
aligns; or ``--cache-dir DIR`` with trankit's models under ``DIR/trankit`` and mBERT in ``HF_HOME``)::

    python builder/build_published.py --data-root ../shared/data --out out/published

The command line can replace the recipes' backends, so the same recipes run on a CPU offline::

    python builder/build_published.py --data-root ../shared/data --out out/offline \\
        --only de-en.newstest2013 --device cpu \\
        --parser udpipe --parser-option udpipe_model=../shared/models/german.udpipe --aligner eflomal

Every recipe is checked before anything runs; a bad one is an error naming it, exit status 2.
``--dry-run`` prints the plan, one line per recipe. A recipe replaces its own (pair, corpus) split
of the folder and leaves the others in place.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from auto_challenge_sets.pipeline.run_build import BuildSpec

# recipe_file.py is beside this file, and the package of this clone above it (installed or not)
sys.path[:0] = [str(Path(__file__).resolve().parent), str(Path(__file__).resolve().parent.parent)]

from recipe_file import (  # noqa: E402
    DEFAULT_RECIPES,
    DEVICES,
    PATH_FIELDS,
    Recipe,
    Recipes,
    load_recipes,
    parse_assignments,
    recipe_backend_options,
)

from auto_challenge_sets.errors import AcsError  # noqa: E402
from auto_challenge_sets.pipeline.defaults import AUTO_ALIGNER, NO_ALIGNER, default_aligner  # noqa: E402

PROG = "build_published"


@dataclass
class PlannedBuild:
    """A recipe made concrete: files under the data root, the backends with their final options."""

    recipe: Recipe
    spec: BuildSpec

    def describe(self) -> str:
        """One line of the plan: pair, corpus, files, parser and aligner with their options."""
        spec = self.spec
        parser = _backend_line(spec.parser) if spec.source_conllu is None else f"pre-parsed {spec.source_conllu}"
        aligner = NO_ALIGNER if spec.aligner is None else _backend_line(spec.aligner)
        return (f"{self.recipe.id}: {spec.source} -> {spec.target} | parser: {parser} | aligner: {aligner} "
                f"| license: {self.recipe.license}")


def _backend_line(backend: Any) -> str:
    shown = ", ".join(f"{key}={value}" for key, value in sorted(backend.options.items()) if value is not None)
    return f"{backend.name} ({shown})" if shown else backend.name


def plan(recipes: Recipes, data_root: str | Path, *, device: str | None = None, only: Sequence[str] = (),
         parser: str | None = None, aligner: str | None = None, parser_options: Sequence[str] = (),
         aligner_options: Sequence[str] = (), cache_dir: str | Path | None = None) -> list[PlannedBuild]:
    """The builds to run, checked: every file exists under ``data_root``, every backend and option
    is known. ``device`` (else ``[defaults] device``) goes to each backend that declares one;
    ``parser``/``aligner`` replace the recipes' backends and ``parser_options``/``aligner_options``
    (``KEY=VALUE``) add to or replace their options."""
    from auto_challenge_sets.pipeline.run_build import BuildSpec
    from auto_challenge_sets.pipeline.specs import AlignerSpec, ParserSpec

    data_root = Path(data_root)
    if not data_root.is_dir():
        raise AcsError(f"data root {data_root} is not a folder")
    chosen = recipes.recipes
    if only:
        ids = [recipe.id for recipe in chosen]
        unknown = [item for item in only if item not in ids]
        if unknown:
            raise AcsError(f"--only {', '.join(unknown)}: no such recipe in {recipes.path} "
                           f"(recipes: {', '.join(ids)})")
        chosen = [recipe for recipe in chosen if recipe.id in only]
    if device is not None and device not in DEVICES:
        raise AcsError(f"--device must be one of {', '.join(DEVICES)}, got {device!r}")
    device_is_default = device is None
    device = device if device is not None else recipes.defaults.get("device")
    parser_overrides = parse_assignments(parser_options, "--parser-option")
    aligner_overrides = parse_assignments(aligner_options, "--aligner-option")

    planned: list[PlannedBuild] = []
    for recipe in chosen:
        paths = {key: data_root / getattr(recipe, key) for key in PATH_FIELDS if getattr(recipe, key) is not None}
        for key, path in paths.items():
            if not path.is_file():
                raise AcsError(f"{recipe.where}: {key} file not found: {path}")
        parser_spec = None
        if recipe.source_conllu is None:
            name = parser or recipe.parser
            parser_spec = ParserSpec(name, recipe_backend_options(
                "parser", name, recipe.parser, recipe.parser_options, device, device_is_default,
                parser_overrides, recipe.where))
        aligner_spec, note = None, None
        name, recipe_aligner = aligner or recipe.aligner, recipe.aligner
        if name == AUTO_ALIGNER:  # the default-aligner policy of acs build and the Python API
            given = recipe.aligner_options if recipe_aligner == AUTO_ALIGNER else {}
            name, note = default_aligner({**given, **aligner_overrides})
            if recipe_aligner == AUTO_ALIGNER:  # the recipe's options were given for the chosen one
                recipe_aligner = name
        if name != NO_ALIGNER:
            aligner_spec = AlignerSpec(name, recipe_backend_options(
                "aligner", name, recipe_aligner, recipe.aligner_options, device, device_is_default,
                aligner_overrides, recipe.where))
        elif aligner_overrides:
            raise AcsError(f"{recipe.where}: --aligner-option given, but the aligner is none")
        try:
            spec = BuildSpec(pair=recipe.pair, corpus=recipe.corpus, source=paths["source"],
                             target=paths["target"], parser=parser_spec,
                             source_conllu=paths.get("source_conllu"), aligner=aligner_spec,
                             cache_dir=None if cache_dir is None else Path(cache_dir), aligner_note=note)
        except AcsError as err:
            raise AcsError(f"{recipe.where}: {err}") from None
        planned.append(PlannedBuild(recipe, spec))
    licenses = sorted({build.recipe.license for build in planned})
    if len(licenses) > 1:
        # one folder, one dataset card, one license field: a mix would be mislabelled
        raise AcsError(f"the recipes built into one folder must share a license, got {', '.join(licenses)}: "
                       "build them into separate folders with --only")
    return planned


def run(planned: Sequence[PlannedBuild], out: str | Path, *, progress: bool = True) -> dict[str, dict[str, int]]:
    """Build every planned recipe into the folder ``out``; ``{config: {split: rows}}`` of what was
    built."""
    from auto_challenge_sets.dataset.writer import build_into_folder

    sizes: dict[str, dict[str, int]] = {}
    for number, build in enumerate(planned, start=1):
        print(f"[{number}/{len(planned)}] {build.describe()}")
        result = build_into_folder(build.spec, out, license=build.recipe.license, progress=progress)
        print(f"[{number}/{len(planned)}] {build.recipe.id}: {result.pairs} sentence pairs of "
              f"{result.lines} lines, {len(result.sizes)} configs")
        for message in result.report.messages() + result.warnings:
            print(f"note: {build.recipe.id}: {message}", file=sys.stderr)
        for config, rows in result.sizes.items():
            sizes.setdefault(config, {})[build.spec.corpus] = rows
    return sizes


def main(argv: Sequence[str] | None = None) -> int:
    from auto_challenge_sets.tables import distance_table

    parser = argparse.ArgumentParser(
        prog=PROG,
        description="Build the published challenge sets: every recipe of a recipes file (default: "
        "builder/recipes.toml) into one dataset folder, with trankit + simalign on a GPU by default.",
    )
    parser.add_argument("--data-root", required=True, type=Path, metavar="DIR",
                        help="folder the recipes' paths are relative to (the team's shared data folder)")
    parser.add_argument("--out", required=True, type=Path, metavar="DIR", help="dataset folder to build into")
    parser.add_argument("--recipes", type=Path, default=DEFAULT_RECIPES, metavar="FILE",
                        help="recipes file (default: builder/recipes.toml next to this script)")
    parser.add_argument("--device", choices=DEVICES,
                        help="where trankit and simalign run (default: the recipes' [defaults] device)")
    parser.add_argument("--only", nargs="+", action="extend", default=[], metavar="PAIR.CORPUS",
                        help="build only these recipes, e.g. de-en.newstest2013")
    parser.add_argument("--cache-dir", type=Path, metavar="DIR",
                        help="stage cache, and trankit's models under DIR/trankit "
                        "(default: $ACS_CACHE_DIR, else ~/.cache/auto_challenge_sets)")
    parser.add_argument("--parser", help="parser for every recipe that runs one, instead of the recipe's "
                        "(trankit, udpipe); the recipe's parser_options then no longer apply")
    parser.add_argument("--aligner", help="aligner for every recipe, instead of the recipe's (simalign, "
                        "eflomal, none, or auto: simalign when its model can be had, else eflomal); the "
                        "recipe's aligner_options then no longer apply")
    parser.add_argument("--parser-option", nargs="+", action="extend", default=[], metavar="KEY=VALUE",
                        help="a parser option, e.g. udpipe_model=../shared/models/german.udpipe")
    parser.add_argument("--aligner-option", nargs="+", action="extend", default=[], metavar="KEY=VALUE",
                        help="an aligner option, e.g. layer=8 or seed=1")
    parser.add_argument("--dry-run", action="store_true", help="print the plan, one line per recipe, and stop")
    parser.add_argument("--quiet", action="store_true", help="no progress bars")
    args = parser.parse_args(argv)
    try:
        planned = plan(load_recipes(args.recipes), args.data_root, device=args.device, only=args.only,
                       parser=args.parser, aligner=args.aligner, parser_options=args.parser_option,
                       aligner_options=args.aligner_option, cache_dir=args.cache_dir)
        if args.dry_run:
            for build in planned:
                print(build.describe())
                if build.spec.aligner_note:
                    print(f"note: {build.recipe.id}: {build.spec.aligner_note}", file=sys.stderr)
            return 0
        sizes = run(planned, args.out, progress=not args.quiet)
    except AcsError as err:
        print(f"{PROG}: error: {err}", file=sys.stderr)
        return 2
    print(f"\n{len(planned)} builds → {args.out}")
    print(distance_table(sizes))
    return 0


if __name__ == "__main__":
    sys.exit(main())
