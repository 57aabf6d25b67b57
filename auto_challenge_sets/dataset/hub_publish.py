"""Publishing to the Hugging Face Hub: a built folder as a dataset repository (``acs publish``), and
the evaluate module as a Space (``acs publish-metric``).

A publication is planned (:class:`PublishPlan`), checked with the libraries' own readers
(``DatasetCard``, ``datasets``' config and info parsers, ``load_dataset_builder``), then sent as
one commit. Offline, without a token or a reachable Hub, it fails before any work (:func:`connect`).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from auto_challenge_sets.dataset.folder_guard import check_output_folder
from auto_challenge_sets.dataset.integrity import card_rows, checked_sizes
from auto_challenge_sets.dataset.layout import (
    DATA_DIR,
    LICENSE_FILE,
    README,
    SHARD,
    require_complete,
)
from auto_challenge_sets.dataset.record import BUILD_RECORD
from auto_challenge_sets.errors import AcsError, InputError

DATASET = "dataset"
LEFT_OUT_SHOWN = 10  # names on the plan's "left out" line: a .git/ folder holds hundreds
SPACE = "space"


class PublishError(AcsError):
    """A publication that cannot go ahead: offline, no token, an unreachable or refusing Hub."""


@dataclass(frozen=True)
class Upload:
    path_in_repo: str
    local: Path
    size: int


@dataclass
class PublishPlan:
    """What a publication sends: one commit of ``files`` to ``repo_id`` (created when missing)."""

    repo_id: str
    repo_type: str
    files: list[Upload]
    card: str
    message: str
    revision: str | None = None
    private: bool = False
    space_sdk: str | None = None
    # remote files under these prefixes that the plan does not send are deleted in the same commit
    replace_prefixes: tuple[str, ...] = field(default_factory=tuple)
    left_out: list[str] = field(default_factory=list)  # files in the folder that are not the dataset's
    # "private", "public", "" when the repository does not exist yet, None when not asked (a dry run)
    remote: str | None = None

    def _visibility(self) -> str:
        """The plan's first line: the visibility the repository will have."""
        asked = "private" if self.private else "public"
        where = f"{self.repo_type} repository {self.repo_id}" + (f", branch {self.revision}" if self.revision else "")
        sdk = f", a {self.space_sdk} Space" if self.space_sdk else ""
        if self.remote is None:
            return f"{asked} {where}: created {asked}{sdk} if missing (an existing repository keeps its visibility)"
        if not self.remote:
            return f"{asked} {where}: new, created {asked}{sdk}"
        kept = "" if self.remote == asked else f"; it stays {self.remote}, --private does not change it"
        return f"{self.remote} {where}: exists{kept}"

    def _text(self, groups: list[tuple[str, list[Upload]]]) -> str:
        lines = [self._visibility(),
                 f"commit {len(self.files)} file(s), {sum(f.size for f in self.files):,} bytes: {self.message!r}"]
        if self.left_out:
            shown = ", ".join(self.left_out[:LEFT_OUT_SHOWN])
            more = f" and {len(self.left_out) - LEFT_OUT_SHOWN:,} more" if len(self.left_out) > LEFT_OUT_SHOWN else ""
            lines.append(f"left out, not part of the dataset layout ({len(self.left_out):,} file(s)): {shown}{more}")
        for name, uploads in groups:
            count = f"{len(uploads)} file(s), " if name.endswith("/") else ""
            lines.append(f"  add {name} ({count}{sum(u.size for u in uploads):,} bytes)")
        if self.replace_prefixes:
            lines.append(f"  delete remote files under {', '.join(self.replace_prefixes)} that are not above")
        return "\n".join(lines)

    def describe(self) -> str:
        """Every file, one line each."""
        return self._text([(f.path_in_repo, [f]) for f in self.files])

    def summary(self) -> str:
        """One line per folder of files (a config's shards), the files at the top one by one."""
        groups: dict[str, list[Upload]] = {}
        for upload in self.files:
            folder, _, _ = upload.path_in_repo.rpartition("/")
            groups.setdefault(folder + "/" if folder else upload.path_in_repo, []).append(upload)
        return self._text(list(groups.items()))


def check_repo_id(repo_id: str) -> str:
    from huggingface_hub.utils import HFValidationError, validate_repo_id

    try:
        validate_repo_id(repo_id)
    except HFValidationError as error:
        raise InputError(f"repo_id {repo_id!r} is not a Hub repository id: {str(error).splitlines()[0]}",
                         field="repo_id") from None
    if "/" not in repo_id:
        raise InputError(f"repo_id {repo_id!r}: give ORG/NAME (or USER/NAME)", field="repo_id")
    return repo_id


def layout_files(root: Path) -> tuple[list[Upload], list[str]]:
    """The files the dataset layout defines (the card, the record, LICENSE.md, ``data/CONFIG/``
    shards), and every other file in the folder, left out (a token in ``.env``, a ``.git/``)."""
    sent, left_out = [], []
    for path in sorted(root.rglob("*")):
        if not path.is_file():
            continue
        rel = path.relative_to(root)
        ours = (len(rel.parts) == 1 and rel.name in (README, BUILD_RECORD, LICENSE_FILE)) or (
            len(rel.parts) == 3 and rel.parts[0] == DATA_DIR and SHARD.fullmatch(rel.name) is not None)
        if ours:
            sent.append(Upload(rel.as_posix(), path, path.stat().st_size))
        else:
            left_out.append(rel.as_posix())
    return sent, left_out


def validate_dataset_card(root: Path) -> str:
    """The card text, after the checks the Hub and ``load_dataset`` apply: YAML that
    ``DatasetCard`` reads, configs and infos that ``datasets`` parses, one default config, every
    data file present, and a builder that ``load_dataset_builder`` makes for the default config."""
    import datasets
    from datasets.info import DatasetInfosDict
    from datasets.utils.metadata import MetadataConfigs
    from huggingface_hub import DatasetCard

    readme = root / README
    try:
        card_data = DatasetCard.load(readme).data
        configs = MetadataConfigs.from_dataset_card_data(card_data)
        infos = DatasetInfosDict.from_dataset_card_data(card_data)
    except Exception as error:  # noqa: BLE001 - the libraries raise ValueError, yaml errors, KeyError
        raise InputError(f"the card is not valid for the Hub: {type(error).__name__}: {error}"[:300], readme) from None
    if not configs:
        raise InputError("the card lists no configs", readme)
    defaults = [name for name, config in configs.items() if config.get("default")]
    if len(defaults) > 1:
        raise InputError(f"the card marks {len(defaults)} default configs ({', '.join(defaults)})", readme)
    for name, config in configs.items():
        if name not in infos:
            raise InputError(f"config {name!r} has no dataset_info entry", readme)
        for entry in config["data_files"]:
            for pattern in [entry["path"]] if isinstance(entry["path"], str) else entry["path"]:
                if not list(root.glob(pattern)):
                    raise InputError(f"config {name!r}: no file matches {pattern!r}", readme)
    first = defaults[0] if defaults else next(iter(configs))
    try:
        datasets.load_dataset_builder(str(root), first)
    except Exception as error:  # noqa: BLE001 - whatever datasets refuses, the Hub viewer would too
        raise InputError(f"datasets cannot open config {first!r}: {type(error).__name__}: {error}"[:300],
                         readme) from None
    return readme.read_text(encoding="utf-8")


def dataset_plan(folder: str | os.PathLike[str], repo_id: str, revision: str | None = None,
                 private: bool = False, verify: bool = False) -> PublishPlan:
    """The publication of a folder ``acs build`` made: the files of its layout, checked against
    the build record (their sha256 too with ``verify``) and the card's row counts."""
    root = Path(folder)
    require_complete(root)
    check_output_folder(root.absolute())  # made by acs build (its record), no symbolic link inside
    # the files first (their record: they are what the build wrote), then the counts the Hub shows
    said = card_rows(root / README)  # None: a dataset_info of the wrong shape, which the card check names
    for name, splits in checked_sizes(root, verify=verify).items():
        for split, rows in splits.items():
            if said is not None and (expected := said.get((name, split))) != rows:
                raise InputError(f"config {name}, split {split} has {rows:,} rows in its file(s), the card's "
                                 f"dataset_info says {'nothing' if expected is None else format(expected, ',')}",
                                 root / README)
    card = validate_dataset_card(root)
    files, left_out = layout_files(root)
    return PublishPlan(check_repo_id(repo_id), DATASET, files, card,
                       message=f"Upload challenge sets with auto_challenge_sets ({root.name})", revision=revision,
                       private=private, replace_prefixes=(f"{DATA_DIR}/", LICENSE_FILE), left_out=left_out)


def connect(token: str | None = None, endpoint: str | None = None) -> Any:
    """An ``HfApi`` that can write, or a PublishError naming what is missing (checked before any
    work: offline mode, a token, a reachable Hub, a token the Hub accepts)."""
    from huggingface_hub import HfApi, constants, get_token

    from auto_challenge_sets.backends.hub import hub_reachable

    if constants.HF_HUB_OFFLINE:
        raise PublishError("HF_HUB_OFFLINE is set: publishing needs the Hub (unset it, or look first with dry_run)",
                           field="dry_run")
    token = token or get_token()
    if not token:
        raise PublishError("no Hugging Face token: run `hf auth login` or set HF_TOKEN (a token with write access)")
    endpoint = endpoint or constants.ENDPOINT
    if not hub_reachable(endpoint=endpoint):
        raise PublishError(f"cannot reach the Hub at {endpoint} (offline?); dry_run shows what would be sent",
                           field="dry_run")
    api = HfApi(endpoint=endpoint, token=token)
    try:
        api.whoami()
    except Exception as error:  # noqa: BLE001 - requests' or httpx's errors, by huggingface_hub's version
        status = _status(error)
        if status is None:
            raise PublishError(f"cannot reach the Hub at {endpoint}: {type(error).__name__}") from None
        raise PublishError(f"the Hub refused the token (HTTP {status}): log in again with `hf auth login`") from None
    return api


def _status(error: BaseException) -> int | None:
    """The HTTP status of a Hub error."""
    return getattr(getattr(error, "response", None), "status_code", None)


def _stale(api: Any, plan: PublishPlan) -> list[str]:
    """Remote files under the plan's replaced prefixes that it does not send."""
    from huggingface_hub.errors import RepositoryNotFoundError, RevisionNotFoundError

    if not plan.replace_prefixes:
        return []
    try:
        remote = api.list_repo_files(plan.repo_id, repo_type=plan.repo_type, revision=plan.revision)
    except (RepositoryNotFoundError, RevisionNotFoundError):
        return []
    sent = {f.path_in_repo for f in plan.files}
    return sorted(path for path in remote if path not in sent and path.startswith(plan.replace_prefixes))


def remote_visibility(api: Any, plan: PublishPlan) -> str:
    """``private`` or ``public`` for a repository the Hub has, ``""`` for one it does not."""
    from huggingface_hub.errors import RepositoryNotFoundError

    try:
        info = api.repo_info(plan.repo_id, repo_type=plan.repo_type)
    except RepositoryNotFoundError:
        return ""
    except Exception as error:  # noqa: BLE001 - HTTP errors (requests or httpx) by huggingface_hub's version
        if _status(error) == 404:
            return ""
        raise PublishError(f"cannot look up {plan.repo_id} on the Hub: {type(error).__name__}") from None
    return "private" if info.private else "public"


def publish(plan: PublishPlan, api: Any) -> str:
    """Send the plan as one commit; the commit's URL."""
    from huggingface_hub import CommitOperationAdd, CommitOperationDelete

    try:
        api.create_repo(plan.repo_id, repo_type=plan.repo_type, private=plan.private, exist_ok=True,
                        space_sdk=plan.space_sdk)
        if plan.revision:
            api.create_branch(plan.repo_id, branch=plan.revision, repo_type=plan.repo_type, exist_ok=True)
        operations: list[Any] = [CommitOperationAdd(f.path_in_repo, str(f.local)) for f in plan.files]
        operations += [CommitOperationDelete(path) for path in _stale(api, plan)]
        info = api.create_commit(plan.repo_id, operations, commit_message=plan.message, repo_type=plan.repo_type,
                                 revision=plan.revision)
    except Exception as error:  # noqa: BLE001 - HTTP errors (requests or httpx) and ValueError (YAML the Hub refused)
        status = _status(error)
        first = (str(error).strip().splitlines() or [type(error).__name__])[0][:300]
        raise PublishError(f"the Hub refused the upload to {plan.repo_id}"
                           + (f" (HTTP {status})" if status else "") + f": {first}") from None
    return str(info.commit_url)
