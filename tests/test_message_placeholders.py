"""No stand-in word in a message or a path the user is shown (issue 27: a trankit error named
`.../snapshots/REVISION/config.json`, a folder that cannot exist under that name).

Every string in the package's ``raise`` statements (plain literals and the literal parts of
f-strings) is scanned for ALLCAPS words; each must be a known acronym, an environment variable, or
one of the argparse-style metavars that describe a syntax the user fills in (``--trankit-cache DIR``).
A path component spelled in capitals (``folder / "REVISION"``) is refused wherever it is.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import auto_challenge_sets

PACKAGE = Path(auto_challenge_sets.__file__).resolve().parent
CAPITALS = re.compile(r"(?<![\w$.-])([A-Z][A-Z0-9_]{2,})(?![\w(])")
ACRONYMS = {"ASCII", "CUDA", "GPU", "CPU", "HMM", "IBM1", "HTTP", "JSON", "README", "UTF", "XLM", "YAML", "BOM",
            "CRLF", "BLEU", "RIBES", "TER", "COMET", "LICENSE", "NER", "MWT", "UD", "MT", "WMT", "ISO"}
# the column names of WMT's human-score tables (SYS SID RAW.SCR Z.SCR N): what the user's file holds
WMT_COLUMNS = {"SYS", "SID", "RAW"}
ENVIRONMENT = re.compile(r"(HF|TRANSFORMERS|ACS|SACREBLEU|COMET)_[A-Z_]+")
METAVARS = {"DIR", "FILE", "NAME", "ORG", "USER", "KEY", "VALUE", "FIELD", "CONFIG", "SRC", "TGT", "PAIR", "N"}


def _modules() -> list[tuple[Path, ast.Module]]:
    return [(path, ast.parse(path.read_text(encoding="utf-8"))) for path in sorted(PACKAGE.rglob("*.py"))]


def _strings(node: ast.AST) -> list[ast.Constant]:
    return [sub for sub in ast.walk(node) if isinstance(sub, ast.Constant) and isinstance(sub.value, str)]


def test_every_capitalised_word_in_an_error_message_is_known() -> None:
    unknown = []
    for path, tree in _modules():
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Raise) and node.exc is not None):
                continue
            for text in _strings(node.exc):
                for word in CAPITALS.findall(text.value):
                    if word not in ACRONYMS | METAVARS | WMT_COLUMNS and not ENVIRONMENT.fullmatch(word):
                        unknown.append(f"{path.relative_to(PACKAGE)}:{text.lineno}: {word}")
    assert unknown == [], "a placeholder in a message? classify it here or name the real thing: " + ", ".join(unknown)


def test_no_path_is_built_with_a_capitalised_stand_in() -> None:
    found = []
    for path, tree in _modules():
        for node in ast.walk(tree):
            if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div):
                for side in (node.left, node.right):
                    if isinstance(side, ast.Constant) and isinstance(side.value, str) \
                            and re.fullmatch(r"[A-Z][A-Z0-9_]{2,}", side.value):
                        found.append(f"{path.relative_to(PACKAGE)}:{side.lineno}: / {side.value!r}")
            if isinstance(node, ast.Constant) and isinstance(node.value, str) \
                    and re.search(r"[\w.-]/[A-Z][A-Z0-9_]{2,}/[\w.-]", node.value):
                found.append(f"{path.relative_to(PACKAGE)}:{node.lineno}: {node.value[:60]!r}")
    assert found == []


def test_the_scan_finds_the_placeholder_of_issue_27() -> None:
    tree = ast.parse('def f(cache):\n    raise ValueError(f"missing {cache / \'snapshots\' / \'REVISION\'}: REVISION")\n')
    (raise_node,) = [n for n in ast.walk(tree) if isinstance(n, ast.Raise)]
    words = [w for text in _strings(raise_node.exc) for w in CAPITALS.findall(text.value)]
    assert "REVISION" in words and "REVISION" not in ACRONYMS | METAVARS
