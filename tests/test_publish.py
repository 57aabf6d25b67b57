"""`acs publish` and `acs publish-metric`: the plan, the checks, and the real huggingface_hub
requests up to the network, answered by a local fake Hub (tests/fake_hub.py) at the HTTP boundary."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import auto_challenge_sets
from auto_challenge_sets.cli import main
from auto_challenge_sets.dataset.demo import build_demo
from auto_challenge_sets.dataset.publish import dataset_plan
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
