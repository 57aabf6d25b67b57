"""`acs publish` and `acs publish-metric`: the plan, the checks, and the real huggingface_hub
requests up to the network, answered by a local fake Hub (tests/fake_hub.py) at the HTTP boundary."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import auto_challenge_sets
from auto_challenge_sets.cli import main
from auto_challenge_sets.dataset.demo_folder import build_demo
from auto_challenge_sets.dataset.hub_publish import dataset_plan
from auto_challenge_sets.errors import InputError

from fake_hub import TOKEN, FakeHub, start


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("publish") / "auto_challenge_sets"
    build_demo(out)
    return out


@pytest.fixture
def hub() -> FakeHub:
    hub = start(FakeHub())
    yield hub
    hub.server.shutdown()


def _files(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in root.rglob("*") if p.is_file()}


def _acs(*argv: str, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess:
    base = {k: v for k, v in os.environ.items() if not k.startswith("HF_")}
    return subprocess.run([sys.executable, "-m", "auto_challenge_sets.cli", *argv], cwd=cwd,
                          env={**base, "HF_HOME": str(cwd / "hf-home"), **env}, capture_output=True, text=True,
                          timeout=300)


def _online(hub: FakeHub, **extra: str) -> dict[str, str]:
    return {"HF_ENDPOINT": hub.endpoint, "HF_TOKEN": TOKEN, "HF_HUB_OFFLINE": "0", **extra}


def test_dry_run_sums_up_per_config_and_shows_the_cards_first_lines(folder: Path, capsys) -> None:
    assert main(["publish", str(folder), "--repo-id", "my-org/auto_challenge_sets", "--dry-run"]) == 0
    out = capsys.readouterr().out
    files = _files(folder)
    total = sum(len(data) for data in files.values())
    assert f"commit {len(files)} file(s), {total:,} bytes" in out
    configs = {path.split("/")[1] for path in files if path.startswith("data/")}
    added = [line.split()[1] for line in out.splitlines() if line.startswith("  add ")]
    assert sorted(added) == sorted([f"data/{config}/" for config in configs]
                                   + [path for path in files if "/" not in path])
    parquet = sorted(p for p in files if p.startswith("data/de-en.particle.d3/"))
    size = sum(len(files[p]) for p in parquet)
    assert f"  add data/de-en.particle.d3/ ({len(parquet)} file(s), {size:,} bytes)" in out
    card = out.split("--- the card (README.md) ---\n", 1)[1]
    assert card.startswith("(YAML header: ") and "# Long-distance dependency challenge sets" in card
    assert "more lines; --verbose prints the whole card and every file" in card
    assert len(out.splitlines()) < len(configs) + 40  # a screen, not every file and the whole card


def test_verbose_dry_run_lists_exactly_the_folders_files_and_a_card_the_libraries_accept(folder: Path,
                                                                                         capsys) -> None:
    from huggingface_hub import DatasetCard

    assert main(["publish", str(folder), "--repo-id", "my-org/auto_challenge_sets", "--dry-run",
                 "--verbose"]) == 0
    out = capsys.readouterr().out
    listed = {line.split()[1] for line in out.splitlines() if line.startswith("  add ")}
    assert listed == set(_files(folder))
    assert out.startswith("public dataset repository my-org/auto_challenge_sets: created public if missing")
    card = out.split("--- the card (README.md) ---\n", 1)[1].rsplit("dry run: nothing was sent", 1)[0]
    assert card.strip() == (folder / "README.md").read_text(encoding="utf-8").strip()
    assert DatasetCard(card).data.to_dict()["configs"]


def test_publish_sends_every_file_in_one_commit(folder: Path, hub: FakeHub, tmp_path: Path) -> None:
    hub.remote_files = ["README.md", "data/de-en.gone.d9/sample-00000-of-00001.parquet", "notes.txt"]
    done = _acs("publish", str(folder), "--repo-id", "my-org/ldd-sets", "--private", "--revision", "v1",
                cwd=tmp_path, env=_online(hub))
    assert done.returncode == 0, done.stderr[-2000:]
    assert "committed: " in done.stdout and "/commit/0123abcd" in done.stdout
    assert done.stdout.startswith("private dataset repository my-org/ldd-sets, branch v1: new, created private\n")
    calls = [(r.method, r.path) for r in hub.requests]
    assert calls[0] == ("GET", "/api/whoami-v2")
    create = next(r for r in hub.requests if r.path == "/api/repos/create").json()
    assert create == {"name": "ldd-sets", "organization": "my-org", "private": True, "type": "dataset"}
    assert ("POST", "/api/datasets/my-org/ldd-sets/branch/v1") in calls
    assert ("POST", "/api/datasets/my-org/ldd-sets/commit/v1") in calls
    validated = next(r for r in hub.requests if r.path == "/api/validate-yaml").json()
    assert validated == {"content": (folder / "README.md").read_text(encoding="utf-8"), "repoType": "dataset"}
    assert hub.committed_files() == _files(folder)
    # a data file the rebuilt folder no longer has goes; files outside data/ are the owner's
    assert hub.deleted_files() == ["data/de-en.gone.d9/sample-00000-of-00001.parquet"]
    assert all(r.authorization == f"Bearer {TOKEN}" for r in hub.requests)


def test_publish_metric_sends_evaluates_layout_as_a_gradio_space(hub: FakeHub, tmp_path: Path) -> None:
    done = _acs("publish-metric", "--repo-id", "my-org/ldd_challenge", cwd=tmp_path, env=_online(hub))
    assert done.returncode == 0, done.stderr[-2000:]
    create = next(r for r in hub.requests if r.path == "/api/repos/create").json()
    assert create["type"] == "space" and create["sdk"] == "gradio" and create["name"] == "ldd_challenge"
    module = Path(auto_challenge_sets.METRIC_PATH)
    files = hub.committed_files()
    assert files == {name: (module / name).read_bytes()
                     for name in ("ldd_challenge.py", "README.md", "app.py", "requirements.txt")}
    assert f"auto-challenge-sets=={auto_challenge_sets.__version__}".encode() in files["requirements.txt"]


def test_the_script_is_named_after_the_space(tmp_path: Path, capsys) -> None:
    # evaluate.load("ORG/NAME") fetches NAME.py
    assert main(["publish-metric", "--repo-id", "me/ldd", "--dry-run"]) == 0
    assert "  add ldd.py (" in capsys.readouterr().out


@pytest.mark.parametrize("env,message", [
    ({"HF_HUB_OFFLINE": "1", "HF_TOKEN": TOKEN}, "HF_HUB_OFFLINE is set: publishing needs the Hub"),
    ({"HF_HUB_OFFLINE": "0"}, "no Hugging Face token: run `hf auth login` or set HF_TOKEN"),
    ({"HF_HUB_OFFLINE": "0", "HF_TOKEN": "hf_wrong"}, "the Hub refused the token (HTTP 401)"),
])
@pytest.mark.parametrize("command", ["publish", "publish-metric"])
def test_without_the_hub_both_fail_before_any_work_in_one_line(folder: Path, hub: FakeHub, tmp_path: Path,
                                                               env, message, command) -> None:
    argv = [command, "--repo-id", "my-org/x"] + ([str(folder)] if command == "publish" else [])
    done = _acs(*argv, cwd=tmp_path, env={"HF_ENDPOINT": hub.endpoint, **env})
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.splitlines() == [f"acs {command}: error: " + done.stderr.split(": error: ", 1)[1].strip()]
    assert message in done.stderr
    assert [r.path for r in hub.requests] in ([], ["/api/whoami-v2"])  # nothing created, nothing sent


def test_a_card_the_hub_refuses_is_one_line_and_no_commit(folder: Path, hub: FakeHub, tmp_path: Path) -> None:
    hub.yaml_errors = ["\"license\" must be one of [apache-2.0, ...]"]
    done = _acs("publish", str(folder), "--repo-id", "my-org/x", cwd=tmp_path, env=_online(hub))
    assert done.returncode == 2 and len(done.stderr.splitlines()) == 1
    assert "the Hub refused the upload to my-org/x: Invalid metadata in README.md." in done.stderr
    assert hub.commits() == []


def test_an_unreachable_hub_is_named(folder: Path, tmp_path: Path) -> None:
    done = _acs("publish", str(folder), "--repo-id", "my-org/x", cwd=tmp_path,
                env={"HF_ENDPOINT": "http://127.0.0.1:9", "HF_TOKEN": TOKEN, "HF_HUB_OFFLINE": "0"})
    assert done.returncode == 2
    assert "cannot reach the Hub at http://127.0.0.1:9" in done.stderr


def test_a_folder_with_a_missing_data_file_or_not_built_is_refused(folder: Path, tmp_path: Path) -> None:
    broken = tmp_path / "sets"
    shutil.copytree(folder, broken)
    (broken / "data" / "de-en.particle.d3" / "sample-00000-of-00001.parquet").unlink()
    with pytest.raises(InputError, match=r"de-en.particle.d3/sample-00000-of-00001.parquet: is missing"):
        dataset_plan(broken, "my-org/x")
    (broken / "acs_build.json").unlink()
    with pytest.raises(InputError, match="was not made by acs build"):
        dataset_plan(broken, "my-org/x")
    with pytest.raises(InputError, match="is not a Hub repository id"):
        dataset_plan(folder, "my org/x")


# -- in this process: the plan's text, the layout, the card and file checks, and the Hub calls ------
# (the tests above run `acs` in a subprocess, which a mutation run cannot see)

from auto_challenge_sets.dataset.hub_publish import (  # noqa: E402
    PublishError,
    PublishPlan,
    Upload,
    _stale,
    check_repo_id,
    connect,
    layout_files,
    publish,
    remote_visibility,
    validate_dataset_card,
)
from auto_challenge_sets.dataset.integrity import card_rows  # noqa: E402


def _plan(**fields) -> PublishPlan:
    base = {"repo_id": "my-org/sets", "repo_type": "dataset", "card": "", "message": "Upload it",
            "files": [Upload("README.md", Path("README.md"), 1_234),
                      Upload("data/de-en.particle.d3/sample-00000-of-00002.parquet", Path("a"), 1_000_000),
                      Upload("data/de-en.particle.d3/sample-00001-of-00002.parquet", Path("b"), 500),
                      Upload("data/x/y/deep.parquet", Path("c"), 7)]}
    return PublishPlan(**{**base, **fields})


@pytest.mark.parametrize("fields,first", [
    ({}, "public dataset repository my-org/sets: created public if missing (an existing repository keeps its "
         "visibility)"),
    ({"private": True, "revision": "v1", "repo_type": "space", "space_sdk": "gradio"},
     "private space repository my-org/sets, branch v1: created private, a gradio Space if missing (an existing "
     "repository keeps its visibility)"),
    ({"remote": ""}, "public dataset repository my-org/sets: new, created public"),
    ({"remote": "", "private": True, "repo_type": "space", "space_sdk": "gradio"},
     "private space repository my-org/sets: new, created private, a gradio Space"),
    ({"remote": "public"}, "public dataset repository my-org/sets: exists"),
    ({"remote": "private", "private": True, "revision": "v2"},
     "private dataset repository my-org/sets, branch v2: exists"),
    ({"remote": "public", "private": True}, "public dataset repository my-org/sets: exists; it stays public, "
                                            "--private does not change it"),
    ({"remote": "private"}, "private dataset repository my-org/sets: exists; it stays private, --private does "
                            "not change it"),
])
def test_the_plans_first_line_is_the_visibility_the_repository_will_have(fields, first) -> None:
    assert _plan(**fields).describe().splitlines()[0] == first


def test_describe_lists_every_file_then_the_deletion() -> None:
    plan = _plan(replace_prefixes=("data/", "LICENSE.md"), left_out=[".env"])
    assert plan.describe().split("\n") == [
        "public dataset repository my-org/sets: created public if missing (an existing repository keeps its "
        "visibility)",
        "commit 4 file(s), 1,001,741 bytes: 'Upload it'",
        "left out, not part of the dataset layout (1 file(s)): .env",
        "  add README.md (1,234 bytes)",
        "  add data/de-en.particle.d3/sample-00000-of-00002.parquet (1,000,000 bytes)",
        "  add data/de-en.particle.d3/sample-00001-of-00002.parquet (500 bytes)",
        "  add data/x/y/deep.parquet (7 bytes)",
        "  delete remote files under data/, LICENSE.md that are not above",
    ]


def test_summary_adds_up_each_folder_and_lists_the_top_files() -> None:
    assert _plan().summary().split("\n") == [
        "public dataset repository my-org/sets: created public if missing (an existing repository keeps its "
        "visibility)",
        "commit 4 file(s), 1,001,741 bytes: 'Upload it'",
        "  add README.md (1,234 bytes)",
        "  add data/de-en.particle.d3/ (2 file(s), 1,000,500 bytes)",
        "  add data/x/y/ (1 file(s), 7 bytes)",
    ]


@pytest.mark.parametrize("count,line", [
    (10, "left out, not part of the dataset layout (10 file(s)): f0, f1, f2, f3, f4, f5, f6, f7, f8, f9"),
    (11, "left out, not part of the dataset layout (11 file(s)): f0, f1, f2, f3, f4, f5, f6, f7, f8, f9 and 1 more"),
    (1_012, "left out, not part of the dataset layout (1,012 file(s)): f0, f1, f2, f3, f4, f5, f6, f7, f8, f9 "
            "and 1,002 more"),
])
def test_the_left_out_line_names_ten_files_and_counts_the_rest(count, line) -> None:
    lines = _plan(left_out=[f"f{i}" for i in range(count)]).summary().splitlines()
    assert lines[2] == line and len(lines) == 6


def test_check_repo_id_wants_a_valid_org_slash_name() -> None:
    assert check_repo_id("my-org/sets") == "my-org/sets"
    with pytest.raises(InputError) as raised:
        check_repo_id("sets")
    assert str(raised.value) == "repo_id 'sets': give ORG/NAME (or USER/NAME)" and raised.value.field == "repo_id"
    with pytest.raises(InputError) as raised:
        check_repo_id("my org/x")
    message = str(raised.value)
    assert message.startswith("repo_id 'my org/x' is not a Hub repository id: Repo id must use alphanumeric chars")
    assert "\n" not in message and raised.value.field == "repo_id"


def test_layout_files_sends_the_card_the_record_the_license_and_the_shards_only(tmp_path: Path) -> None:
    files = {"README.md": b"card", "acs_build.json": b"{}", "LICENSE.md": b"licenses",
             "data/cfg/sample-00000-of-00001.parquet": b"12345",
             "data/cfg/sample-00000-of-00001.parquet.bak": b"x", "data/cfg/notes.txt": b"x",
             "data/top-00000-of-00001.parquet": b"x", "data/a/b/sample-00000-of-00001.parquet": b"x",
             "other/cfg/sample-00000-of-00001.parquet": b"x", "sub/README.md": b"x", ".env": b"HF_TOKEN=x",
             "notes.md": b"x"}
    for rel, data in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_bytes(data)
    (tmp_path / "data" / "empty").mkdir()
    sent, left_out = layout_files(tmp_path)
    assert sent == [Upload("LICENSE.md", tmp_path / "LICENSE.md", 8), Upload("README.md", tmp_path / "README.md", 4),
                    Upload("acs_build.json", tmp_path / "acs_build.json", 2),
                    Upload("data/cfg/sample-00000-of-00001.parquet",
                           tmp_path / "data" / "cfg" / "sample-00000-of-00001.parquet", 5)]
    assert left_out == [".env", "data/a/b/sample-00000-of-00001.parquet", "data/cfg/notes.txt",
                        "data/cfg/sample-00000-of-00001.parquet.bak", "data/top-00000-of-00001.parquet", "notes.md",
                        "other/cfg/sample-00000-of-00001.parquet", "sub/README.md"]


def test_card_rows_reads_dataset_info_as_a_list_or_one_mapping(tmp_path: Path) -> None:
    readme = tmp_path / "README.md"
    readme.write_text("---\ndataset_info:\n- config_name: a\n  splits:\n  - name: sample\n    num_examples: 7\n"
                      "  - name: test\n    num_examples: 1200\n- config_name: b\n- splits:\n  - name: x\n"
                      "    num_examples: 3\n  - name: y\n    num_examples: '4'\n---\n", encoding="utf-8")
    assert card_rows(readme) == {("a", "sample"): 7, ("a", "test"): 1200, ("default", "x"): 3}
    readme.write_text("---\ndataset_info:\n  config_name: one\n  splits:\n  - name: s\n    num_examples: 2\n---\n",
                      encoding="utf-8")
    assert card_rows(readme) == {("one", "s"): 2}
    readme.write_text("---\nlicense: mit\n---\n", encoding="utf-8")
    assert card_rows(readme) == {}


# -- validate_dataset_card on a copy of the demo folder or a hand-made one --

D3 = "data/de-en.particle.d3/sample-00000-of-00001.parquet"


def _copy(folder: Path, tmp_path: Path) -> Path:
    copy = tmp_path / "sets"
    shutil.copytree(folder, copy)
    return copy


def _edit_card(root: Path, old: str, new: str) -> Path:
    readme = root / "README.md"
    text = readme.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    readme.write_text(text.replace(old, new), encoding="utf-8")
    return readme


@pytest.mark.parametrize("infos", ["dataset_info: text\n", "dataset_info: 5\n", "dataset_info:\n- 5\n",
                                   "dataset_info:\n- config_name: a\n  splits: 5\n",
                                   "dataset_info:\n- config_name: a\n  splits: [5]\n"])
def test_a_dataset_info_of_the_wrong_shape_gives_no_counts(tmp_path: Path, infos: str) -> None:
    """A hand-edited card: no counts to check here (it crashed with AttributeError or TypeError),
    validate_dataset_card names the card."""
    readme = tmp_path / "README.md"
    readme.write_text(f"---\n{infos}---\n# x\n", encoding="utf-8")
    assert card_rows(readme) is None


def test_a_split_the_card_does_not_count_is_named(folder: Path, tmp_path: Path) -> None:
    copy = _copy(folder, tmp_path)
    readme = copy / "README.md"
    text = readme.read_text(encoding="utf-8")
    start = text.index("- config_name: de-en.particle.d3\n  features:")
    end = text.index("- config_name: ", start + 10)
    readme.write_text(text[:start] + text[end:], encoding="utf-8")
    with pytest.raises(InputError) as raised:
        dataset_plan(copy, "my-org/sets")
    assert str(raised.value) == (f"{readme}: config de-en.particle.d3, split sample has 7 rows in its file(s), "
                                 "the card's dataset_info says nothing")


def test_a_card_with_a_dataset_info_of_the_wrong_shape_is_named_before_publishing(folder: Path,
                                                                                 tmp_path: Path) -> None:
    copy = _copy(folder, tmp_path)
    readme = _edit_card(copy, "dataset_info:\n", "dataset_info:\n- 5\n")
    with pytest.raises(InputError) as raised:
        dataset_plan(copy, "my-org/sets")
    assert str(raised.value) == (f"{readme}: the card is not valid for the Hub: AttributeError: 'int' object has no "
                                 "attribute 'get'")


def _hand_made(root: Path, paths: dict[str, str], default: str | None = "b") -> Path:
    """Two configs of one string column, ``a`` and ``b``, each with the data file at ``paths[name]``
    (a list in the card for ``b``), ``default`` marked as the default."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    for name in ("a", "b"):
        (root / "data" / name).mkdir(parents=True, exist_ok=True)
        pq.write_table(pa.table({"x": ["p", "q"]}), root / "data" / name / "sample-00000-of-00001.parquet")
    (root / "data" / "a" / "notes.xyz").write_text("no format datasets knows\n", encoding="utf-8")
    configs = "".join(
        f"- config_name: {name}\n  data_files:\n  - split: sample\n    path:"
        + (f"\n    - {paths[name]}\n" if name == "b" else f" {paths[name]}\n")
        + ("  default: true\n" if name == default else "") for name in ("a", "b"))
    infos = "".join(f"- config_name: {name}\n  features:\n  - name: x\n    dtype: string\n  splits:\n"
                    "  - name: sample\n    num_examples: 2\n" for name in ("a", "b"))
    (root / "README.md").write_text(f"---\nconfigs:\n{configs}dataset_info:\n{infos}---\n# two configs\n",
                                    encoding="utf-8")
    return root


GOOD = {"a": "data/a/sample-*.parquet", "b": "data/b/sample-00000-of-00001.parquet"}


def test_a_valid_card_is_returned_as_it_is(tmp_path: Path) -> None:
    root = _hand_made(tmp_path, GOOD)
    assert validate_dataset_card(root) == (root / "README.md").read_text(encoding="utf-8")
    root = _hand_made(tmp_path, GOOD, default=None)  # no default: the first config is opened
    assert validate_dataset_card(root).endswith("# two configs\n")


def test_only_the_default_config_is_opened_with_datasets(tmp_path: Path) -> None:
    """datasets reads a config's files with the format of the first config's: a file of no known
    format in the second config fails that config only."""
    root = _hand_made(tmp_path, {**GOOD, "b": "data/a/notes.xyz"}, default=None)
    assert validate_dataset_card(root).endswith("# two configs\n")  # the first config, a, opens
    root = _hand_made(tmp_path, {**GOOD, "b": "data/a/notes.xyz"}, default="b")
    readme = root / "README.md"
    with pytest.raises(InputError) as raised:
        validate_dataset_card(root)
    message = str(raised.value)
    assert message.startswith(f"{readme}: datasets cannot open config 'b': FileNotFoundError: Unable to find "
                              f"'{root}/data/a/notes.xyz'")
    assert len(message) == len(f"{readme}: ") + 300  # cut at 300 characters


def test_a_data_file_pattern_matching_nothing_is_named(tmp_path: Path) -> None:
    root = _hand_made(tmp_path, {**GOOD, "b": "data/b/missing-*.parquet"})
    with pytest.raises(InputError) as raised:
        validate_dataset_card(root)
    assert str(raised.value) == f"{root / 'README.md'}: config 'b': no file matches 'data/b/missing-*.parquet'"
    root = _hand_made(tmp_path, {**GOOD, "a": "data/a/missing.parquet"})
    with pytest.raises(InputError) as raised:
        validate_dataset_card(root)
    assert str(raised.value) == f"{root / 'README.md'}: config 'a': no file matches 'data/a/missing.parquet'"


def test_a_config_without_its_dataset_info_is_named(tmp_path: Path) -> None:
    readme = _edit_card(_hand_made(tmp_path, GOOD), "- config_name: a\n  features:", "- config_name: c\n  features:")
    with pytest.raises(InputError) as raised:
        validate_dataset_card(tmp_path)
    assert str(raised.value) == f"{readme}: config 'a' has no dataset_info entry"


def test_two_default_configs_are_named(tmp_path: Path) -> None:
    readme = _edit_card(_hand_made(tmp_path, GOOD, default="b"), "- config_name: b\n  data_files:",
                        "- config_name: b\n  default: true\n  data_files:")
    _edit_card(tmp_path, "- config_name: a\n  data_files:", "- config_name: a\n  default: true\n  data_files:")
    readme.write_text(readme.read_text(encoding="utf-8").replace("    - data/b/sample-00000-of-00001.parquet\n"
                                                                 "  default: true\n",
                                                                 "    - data/b/sample-00000-of-00001.parquet\n"),
                      encoding="utf-8")
    with pytest.raises(InputError) as raised:
        validate_dataset_card(tmp_path)
    assert str(raised.value) == f"{readme}: the card marks 2 default configs (a, b)"


def test_a_card_without_configs_or_one_the_libraries_refuse_is_named(tmp_path: Path) -> None:
    readme = tmp_path / "README.md"
    readme.write_text("---\nlicense: mit\n---\n# no configs\n", encoding="utf-8")
    with pytest.raises(InputError) as raised:
        validate_dataset_card(tmp_path)
    assert str(raised.value) == f"{readme}: the card lists no configs"
    readme.write_text("---\nconfigs: 1\n---\n", encoding="utf-8")
    with pytest.raises(InputError) as raised:
        validate_dataset_card(tmp_path)
    assert str(raised.value) == (f"{readme}: the card is not valid for the Hub: ValueError: Expected configs to be "
                                 "a list, but got '1'")
    _hand_made(tmp_path, GOOD)
    _edit_card(tmp_path, "  - split: sample\n    path: data/a/", "  - split: bad split\n    path: data/a/")
    with pytest.raises(InputError) as raised:
        validate_dataset_card(tmp_path)
    message = str(raised.value)
    assert message.startswith(f"{readme}: the card is not valid for the Hub: ValueError: ")
    assert len(message) == len(f"{readme}: ") + 300  # datasets' long explanation, cut at 300 characters


# -- dataset_plan, connect and the Hub calls, in this process --------------------------------------


def test_dataset_plan_sends_the_layout_with_the_callers_choices(folder: Path, tmp_path: Path) -> None:
    copy = _copy(folder, tmp_path)
    (copy / ".env").write_text("HF_TOKEN=x\n", encoding="utf-8")
    plan = dataset_plan(copy, "my-org/sets", revision="v2", private=True)
    assert (plan.repo_id, plan.repo_type, plan.revision, plan.private) == ("my-org/sets", "dataset", "v2", True)
    assert plan.message == "Upload challenge sets with auto_challenge_sets (sets)"
    assert plan.replace_prefixes == ("data/", "LICENSE.md") and plan.left_out == [".env"]
    assert plan.card == (copy / "README.md").read_text(encoding="utf-8")
    assert plan.space_sdk is None and plan.remote is None
    expected = {p.relative_to(copy).as_posix(): p.stat().st_size for p in copy.rglob("*")
                if p.is_file() and p.name != ".env"}
    assert {f.path_in_repo: f.size for f in plan.files} == expected
    assert all(f.local == copy / f.path_in_repo for f in plan.files)
    default = dataset_plan(str(copy), "my-org/sets")
    assert (default.revision, default.private) == (None, False)


def test_dataset_plan_checks_the_sha256_only_when_asked(folder: Path, tmp_path: Path) -> None:
    copy = _copy(folder, tmp_path)
    record = copy / "acs_build.json"
    record.write_text(record.read_text(encoding="utf-8").replace(
        json.loads(record.read_text(encoding="utf-8"))["builds"][0]["files"][D3]["sha256"], "0" * 64),
        encoding="utf-8")
    assert dataset_plan(copy, "my-org/sets").files  # sizes and rows match: no sha256 read by default
    with pytest.raises(InputError, match=f"{re.escape(D3)}: its sha256 differs"):
        dataset_plan(copy, "my-org/sets", verify=True)


class OneHub(FakeHub):
    """The fake Hub, plus: a repository or branch that exists answers 409 to its creation (as the Hub
    does), and ``refuse`` maps a path's action to an HTTP status."""

    refuse: dict[str, int]
    branches: set[str]

    def answer(self, method, path, body):
        for action, status in self.refuse.items():
            if path.startswith("/api/") and (path.endswith(action) or f"/{action}/" in path):
                return status, {"error": f"refused {action}"}
        if path == "/api/repos/create" and f"{json.loads(body).get('organization')}/{json.loads(body)['name']}" in \
                self.existing:
            return 409, {"error": "You already created this dataset repo", "url": "x"}
        branch = re.fullmatch(r"/api/\w+/[^/]+/[^/]+/branch/(?P<name>.+)", path)
        if branch and branch["name"] in self.branches:
            return 409, {"error": "Reference already exists"}
        return super().answer(method, path, body)


@pytest.fixture
def online() -> OneHub:
    """A fake Hub in this process, with huggingface_hub's offline mode (set for every test) off."""
    from huggingface_hub import constants
    from huggingface_hub.utils import reset_sessions

    hub = OneHub()
    hub.refuse, hub.branches = {}, set()
    start(hub)
    offline, endpoint = constants.HF_HUB_OFFLINE, constants.ENDPOINT
    constants.HF_HUB_OFFLINE, constants.ENDPOINT = False, hub.endpoint  # as HF_ENDPOINT would set it
    reset_sessions()
    yield hub
    constants.HF_HUB_OFFLINE, constants.ENDPOINT = offline, endpoint
    reset_sessions()
    hub.server.shutdown()


def _api(hub: FakeHub):
    from huggingface_hub import HfApi

    return HfApi(endpoint=hub.endpoint, token=TOKEN)


def test_connect_says_offline_mode_first() -> None:
    with pytest.raises(PublishError) as raised:
        connect(token=TOKEN, endpoint="http://127.0.0.1:9")
    assert str(raised.value) == ("HF_HUB_OFFLINE is set: publishing needs the Hub (unset it, or look first with "
                                 "dry_run)")
    assert raised.value.field == "dry_run"


def test_connect_returns_an_api_with_the_token_for_the_endpoint(online: OneHub, monkeypatch) -> None:
    from huggingface_hub import constants

    monkeypatch.delenv("HF_TOKEN", raising=False)
    monkeypatch.setattr(constants, "ENDPOINT", "http://127.0.0.1:9")  # not the one given
    api = connect(token=TOKEN, endpoint=online.endpoint)
    assert (api.endpoint, api.token) == (online.endpoint, TOKEN)
    assert [(r.path, r.authorization) for r in online.requests] == [("/api/whoami-v2", f"Bearer {TOKEN}")]
    monkeypatch.setenv("HF_TOKEN", TOKEN)  # the logged-in token when none is given
    monkeypatch.setattr(constants, "ENDPOINT", online.endpoint)  # HF_ENDPOINT's, when none is given
    api = connect()
    assert (api.endpoint, api.token) == (online.endpoint, TOKEN)


def test_connect_without_a_token_says_how_to_log_in(online: OneHub, monkeypatch, tmp_path: Path) -> None:
    from huggingface_hub import constants

    monkeypatch.delenv("HF_TOKEN", raising=False)
    monkeypatch.delenv("HUGGING_FACE_HUB_TOKEN", raising=False)
    monkeypatch.setattr(constants, "HF_TOKEN_PATH", str(tmp_path / "no-token"))
    with pytest.raises(PublishError) as raised:
        connect(endpoint=online.endpoint)
    assert str(raised.value) == ("no Hugging Face token: run `hf auth login` or set HF_TOKEN (a token with write "
                                 "access)")
    assert online.requests == []


def test_connect_names_an_unreachable_hub_or_a_refused_token(online: OneHub, monkeypatch) -> None:
    from huggingface_hub import HfApi

    with pytest.raises(PublishError) as raised:
        connect(token=TOKEN, endpoint="http://127.0.0.1:9")
    assert str(raised.value) == ("cannot reach the Hub at http://127.0.0.1:9 (offline?); dry_run shows what would "
                                 "be sent")
    assert raised.value.field == "dry_run"
    with pytest.raises(PublishError) as raised:
        connect(token="hf_wrong", endpoint=online.endpoint)
    assert str(raised.value) == "the Hub refused the token (HTTP 401): log in again with `hf auth login`"
    assert raised.value.field is None

    def dropped(self, *args, **kwargs):
        raise ConnectionError("the connection was reset")

    monkeypatch.setattr(HfApi, "whoami", dropped)
    with pytest.raises(PublishError) as raised:
        connect(token=TOKEN, endpoint=online.endpoint)
    assert str(raised.value) == f"cannot reach the Hub at {online.endpoint}: ConnectionError"


def test_remote_visibility_of_a_private_a_public_and_a_missing_repository(online: OneHub) -> None:
    online.existing.update({"my-org/hidden": True, "my-org/open": False})
    api = _api(online)
    assert remote_visibility(api, _plan(repo_id="my-org/hidden")) == "private"
    assert remote_visibility(api, _plan(repo_id="my-org/open")) == "public"
    assert remote_visibility(api, _plan(repo_id="my-org/missing")) == ""  # a 404 without the Hub's error code
    assert [r.path for r in online.requests] == ["/api/datasets/my-org/hidden", "/api/datasets/my-org/open",
                                                 "/api/datasets/my-org/missing"]
    online.refuse["my-org/open"] = 500
    with pytest.raises(PublishError) as raised:
        remote_visibility(api, _plan(repo_id="my-org/open"))
    assert str(raised.value) == "cannot look up my-org/open on the Hub: HfHubHTTPError"


class _Refusing:
    """An API whose every call raises ``error`` (huggingface_hub's own error types)."""

    def __init__(self, error: Exception) -> None:
        self.error = error

    def __getattr__(self, name):
        def call(*args, **kwargs):
            raise self.error

        return call


def test_a_repository_or_revision_the_hub_does_not_have_is_missing_and_has_nothing_stale() -> None:
    from huggingface_hub.errors import RepositoryNotFoundError, RevisionNotFoundError

    plan = _plan(replace_prefixes=("data/",))
    assert remote_visibility(_Refusing(RepositoryNotFoundError("no such repository")), plan) == ""
    assert _stale(_Refusing(RepositoryNotFoundError("no such repository")), plan) == []
    assert _stale(_Refusing(RevisionNotFoundError("no such branch")), plan) == []
    assert _stale(_Refusing(RuntimeError("not asked")), _plan()) == []  # nothing replaced: the Hub is not asked


def test_stale_files_are_the_remote_ones_under_the_prefixes_that_are_not_sent(online: OneHub) -> None:
    online.remote_files = ["README.md", "notes.txt", "LICENSE.md", "data/de-en.particle.d3/sample-00000-of-00002.parquet",
                           "data/gone/sample-00000-of-00001.parquet", "data/x/y/deep.parquet", "datum.txt"]
    plan = _plan(replace_prefixes=("data/", "LICENSE.md"), revision="v1")
    assert _stale(_api(online), plan) == ["LICENSE.md", "data/gone/sample-00000-of-00001.parquet"]
    (request,) = online.requests
    assert request.path == "/api/datasets/my-org/sets/tree/v1"


def test_publish_creates_the_repository_and_branch_and_sends_one_commit(online: OneHub, tmp_path: Path) -> None:
    (tmp_path / "README.md").write_text("---\nlicense: mit\n---\n# sets\n", encoding="utf-8")
    (tmp_path / "shard.parquet").write_bytes(b"rows")
    online.remote_files = ["data/gone/sample-00000-of-00001.parquet", "data/kept.parquet", "other.txt"]
    online.existing["my-org/sets"] = False
    online.branches.add("v1")
    plan = _plan(files=[Upload("README.md", tmp_path / "README.md", 1), Upload("data/kept.parquet",
                                                                               tmp_path / "shard.parquet", 4)],
                 revision="v1", private=True, replace_prefixes=("data/",), message="Upload the sets")
    url = publish(plan, _api(online))
    assert url == f"{online.endpoint}/datasets/my-org/sets/commit/0123abcd"
    create = next(r for r in online.requests if r.path == "/api/repos/create").json()
    assert create == {"name": "sets", "organization": "my-org", "private": True, "type": "dataset"}
    assert any(r.method == "POST" and r.path == "/api/datasets/my-org/sets/branch/v1" for r in online.requests)
    assert online.committed_files() == {"README.md": (tmp_path / "README.md").read_bytes(),
                                        "data/kept.parquet": b"rows"}
    assert online.deleted_files() == ["data/gone/sample-00000-of-00001.parquet"]
    (commit,) = [r for r in online.requests if "/commit/" in r.path]
    assert commit.path == "/api/datasets/my-org/sets/commit/v1"
    assert online.commits()[0][0] == {"key": "header", "value": {"summary": "Upload the sets", "description": ""}}


def test_publish_without_a_revision_creates_no_branch_and_a_space_gets_its_sdk(online: OneHub,
                                                                             tmp_path: Path) -> None:
    (tmp_path / "app.py").write_text("print('hi')\n", encoding="utf-8")
    plan = PublishPlan("me/ldd", "space", [Upload("app.py", tmp_path / "app.py", 12)], card="", message="m",
                       space_sdk="gradio")
    assert publish(plan, _api(online)) == f"{online.endpoint}/spaces/me/ldd/commit/0123abcd"
    assert next(r for r in online.requests if r.path == "/api/repos/create").json() == {
        "name": "ldd", "organization": "me", "private": False, "type": "space", "sdk": "gradio"}
    assert not any("/branch/" in r.path or "/tree/" in r.path for r in online.requests)
    (commit,) = [r for r in online.requests if "/commit/" in r.path]
    assert commit.path == "/api/spaces/me/ldd/commit/main"


def test_a_refused_upload_is_one_line_naming_the_repository(online: OneHub, tmp_path: Path) -> None:
    (tmp_path / "README.md").write_text("# sets\n", encoding="utf-8")
    plan = _plan(files=[Upload("README.md", tmp_path / "README.md", 7)])
    online.refuse["commit"] = 403
    with pytest.raises(PublishError) as raised:
        publish(plan, _api(online))
    message = str(raised.value)
    assert message.startswith("the Hub refused the upload to my-org/sets (HTTP 403): ") and "\n" not in message
    for error, said in ((RuntimeError("first line\nsecond line"), "first line"), (RuntimeError("  "), "RuntimeError"),
                        (ValueError("x" * 400), "x" * 300)):
        with pytest.raises(PublishError) as raised:
            publish(plan, _Refusing(error))
        assert str(raised.value) == f"the Hub refused the upload to my-org/sets: {said}"
