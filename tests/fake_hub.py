"""A local HTTP server that answers the Hub API calls a publication makes, and records them.

The test double sits at the HTTP boundary only: huggingface_hub itself builds and sends every
request (whoami, repo creation, YAML validation, preupload, tree listing, branch, commit), over a
real socket, to this server at ``HF_ENDPOINT``. It answers as the Hub documents: regular (non-LFS)
uploads, so a commit carries every file's bytes in its NDJSON payload, where a test can read them.
"""

from __future__ import annotations

import base64
import json
import re
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

TOKEN = "hf_test_token_for_the_fake_hub"
_REPO = r"/api/(?P<type>datasets|spaces|models)/(?P<repo>[^/]+/[^/]+)"


@dataclass
class Recorded:
    method: str
    path: str
    query: str
    authorization: str
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body)


@dataclass
class FakeHub:
    """``remote_files`` is what the tree listing returns for every repository."""

    remote_files: list[str] = field(default_factory=list)
    existing: dict[str, bool] = field(default_factory=dict)  # repositories the Hub has: id -> private
    yaml_errors: list[str] = field(default_factory=list)  # the Hub's card validation refuses with these
    requests: list[Recorded] = field(default_factory=list)
    server: ThreadingHTTPServer | None = None

    @property
    def endpoint(self) -> str:
        assert self.server is not None
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def commits(self) -> list[list[dict]]:
        """Each commit's NDJSON lines, decoded."""
        return [[json.loads(line) for line in r.body.splitlines() if line.strip()]
                for r in self.requests if re.fullmatch(_REPO + r"/commit/[^/]+", r.path)]

    def committed_files(self) -> dict[str, bytes]:
        (commit,) = self.commits()
        return {item["value"]["path"]: base64.b64decode(item["value"]["content"])
                for item in commit if item["key"] == "file"}

    def deleted_files(self) -> list[str]:
        (commit,) = self.commits()
        return [item["value"]["path"] for item in commit if item["key"] == "deletedFile"]

    def answer(self, method: str, path: str, body: bytes) -> tuple[int, Any]:
        if path == "/api/whoami-v2":
            return 200, {"name": "tester", "type": "user", "auth": {"accessToken": {"role": "write"}}}
        if path == "/api/repos/create":
            request = json.loads(body)
            kind = request.get("type", "model")
            return 200, {"url": f"{self.endpoint}/{kind}s/{request.get('organization') or 'tester'}/{request['name']}"}
        if path == "/api/validate-yaml":
            errors = [{"message": message} for message in self.yaml_errors]
            return (400 if errors else 200), {"errors": errors, "warnings": []}
        if method == "GET" and (repo := re.fullmatch(_REPO, path)) and repo["repo"] in self.existing:
            return 200, {"id": repo["repo"], "private": self.existing[repo["repo"]], "sha": "0123abcd" * 5}
        match = re.fullmatch(_REPO + r"/(?P<action>preupload|commit|branch|tree)/(?P<rest>.+)", path)
        if not match:
            return 404, {"error": f"the fake Hub does not know {method} {path}"}
        action = match["action"]
        if action == "preupload":
            files = json.loads(body)["files"]
            return 200, {"files": [{"path": f["path"], "uploadMode": "regular", "shouldIgnore": False} for f in files]}
        if action == "commit":
            return 200, {"commitUrl": f"{self.endpoint}/{match['type']}/{match['repo']}/commit/0123abcd",
                         "commitOid": "0123abcd" * 5, "pullRequestUrl": None}
        if action == "branch":
            return 200, {}
        return 200, [{"type": "file", "path": p, "size": 1, "oid": "f" * 40} for p in self.remote_files]


def start(hub: FakeHub) -> FakeHub:
    class Handler(BaseHTTPRequestHandler):
        def _handle(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length else b""
            url = urlparse(self.path)
            hub.requests.append(Recorded(self.command, url.path, url.query,
                                         self.headers.get("Authorization", ""), body))
            if self.headers.get("Authorization") != f"Bearer {TOKEN}":
                status, payload = 401, {"error": "Invalid credentials"}
            else:
                status, payload = hub.answer(self.command, url.path, body)
            data = json.dumps(payload).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            if self.command != "HEAD":  # a HEAD answer has the headers only
                self.wfile.write(data)

        # HEAD: evaluate and datasets ask for a file's headers before they download it
        do_GET = do_HEAD = do_POST = do_PUT = do_DELETE = _handle

        def log_message(self, *args: Any) -> None:  # quiet
            pass

    hub.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=hub.server.serve_forever, daemon=True).start()
    return hub


def cache_mbert_snapshot(cache: Path) -> None:
    """An (empty) snapshot of bert-base-multilingual-cased in a Hugging Face cache folder: what the
    default-aligner policy looks for before it chooses simalign offline."""
    cached = cache / "models--bert-base-multilingual-cased"
    (cached / "refs").mkdir(parents=True)
    (cached / "refs" / "main").write_text("abc")
    (cached / "snapshots" / "abc").mkdir(parents=True)
    (cached / "snapshots" / "abc" / "config.json").write_text("{}")
