"""Which folder a build may write: ``--out`` must be absent, empty, or a folder this tool made (it
holds the build record), with no symbolic link inside: a build never replaces someone's README,
deletes their data or writes through a link.
"""

from __future__ import annotations

from pathlib import Path

from auto_challenge_sets.dataset.record import BUILD_RECORD
from auto_challenge_sets.errors import InputError
from auto_challenge_sets.folder_swap import refuse_link_or_file


def check_output_folder(out: Path) -> None:
    """Refuse an ``--out`` this tool must not write (see the module docstring)."""
    import auto_challenge_sets

    if out.resolve().is_relative_to(Path(auto_challenge_sets.__file__).resolve().parent):
        # `acs build` in a clone's root: the default --out, ./auto_challenge_sets, is the code itself
        raise InputError("is the source folder of the auto_challenge_sets Python package, not a dataset folder "
                         "(run from the repository's root?): build in another working folder, or give out "
                         "elsewhere, e.g. out challenge_sets", out, field="out")
    refuse_link_or_file(out)
    if not out.exists():
        return
    entries = list(out.iterdir())
    if entries and not (out / BUILD_RECORD).is_file():
        raise InputError(f"is not empty and has no {BUILD_RECORD}: it was not made by acs build, and a build "
                         "would replace its README and data; choose a new or empty folder", out)
    for path in out.rglob("*"):
        if path.is_symlink():
            raise InputError("is a symbolic link inside the dataset folder: a build writes only real files "
                             "there, never through a link", path)

