"""The one backend registry: declared options, duplicate names, unknown options."""

from __future__ import annotations

import sys

import pytest

from auto_challenge_sets.backends import (
    ALIGNER,
    PARSER,
    BackendError,
    Option,
    available_backends,
    create_backend,
    declared_options,
    register_backend,
    unregister_backend,
)
from auto_challenge_sets.backends.aligners import Aligner, AlignerError
from auto_challenge_sets.backends.parsers import Parser, ParserError


def test_every_builtin_backend_declares_what_its_constructor_takes():
    # register_backend checks this for each class; importing them all must therefore succeed
    assert set(declared_options(PARSER)) == {"trankit", "udpipe"}
    assert set(declared_options(ALIGNER)) == {"simalign", "eflomal"}
    assert [o.name for o in declared_options(ALIGNER)["eflomal"] if o.cli] == ["symmetrization", "seed", "priors"]


def test_a_second_backend_of_the_same_name_is_an_error():
    with pytest.raises(BackendError, match="an aligner named 'eflomal' is already registered|a aligner named"):
        @register_backend(ALIGNER, "eflomal")
        class Again(Aligner):
            options = ()

    # the same name under another kind is another backend
    @register_backend(PARSER, "eflomal")
    class ParserNamedLikeAnAligner(Parser):
        def __init__(self, lang="en", cache_dir=None):
            pass

        def parse(self, lines):
            return []

        def signature(self):
            return {}

    try:
        assert "eflomal" in available_backends(PARSER)
    finally:
        unregister_backend(PARSER, "eflomal")


def test_options_must_be_declared_once_and_match_the_constructor():
    with pytest.raises(BackendError, match=r"constructor takes \['depth'\] but its options declare \[\]"):
        @register_backend(ALIGNER, "undeclared-test")
        class Undeclared(Aligner):
            def __init__(self, depth: int = 1):
                pass

    with pytest.raises(BackendError, match="must take the context"):
        @register_backend(PARSER, "no-context-test")
        class NoContext(Parser):
            options = ()

            def __init__(self):
                pass

    assert "undeclared-test" not in available_backends(ALIGNER)


def test_unknown_options_are_errors_naming_the_known_ones():
    with pytest.raises(AlignerError, match=r"aligner 'eflomal' has no option layer \(its options: .*seed"):
        create_backend(ALIGNER, "eflomal", error=AlignerError, layer=3)
    with pytest.raises(ParserError, match="parser 'udpipe' has no option device"):
        create_backend(PARSER, "udpipe", {"lang": "de", "cache_dir": None}, error=ParserError,
                       udpipe_model="x", device="cuda")
    with pytest.raises(BackendError, match="unknown parser 'nope'"):
        create_backend(PARSER, "nope")


def test_option_flags():
    option = Option("batch_size", int, 64, "help", build_flag="--align-batch-size")
    assert option.cli_flag() == "--batch-size" and option.cli_flag(in_build=True) == "--align-batch-size"
    assert Option("embedding", str, "x", "h", flag="--trankit-embedding").cli_flag(in_build=True) == \
        "--trankit-embedding"


@pytest.mark.parametrize("kind,name,module,context", [
    (PARSER, "udpipe", "ufal", {"lang": "de", "cache_dir": None}),
    (PARSER, "trankit", "trankit", {"lang": "de", "cache_dir": None}),
    (ALIGNER, "eflomal", "eflomal", {}),
    (ALIGNER, "simalign", "simalign", {}),
])
def test_a_backend_whose_library_is_not_installed_names_the_extra(monkeypatch, kind, name, module, context):
    # sys.modules[name] = None is how Python itself marks a module as not importable
    monkeypatch.setitem(sys.modules, module, None)
    with pytest.raises(BackendError) as caught:
        create_backend(kind, name, context)
    message = str(caught.value)
    assert message.startswith(f"the {name} {kind} needs ") and "which is not installed" in message
    assert 'pip install "auto-challenge-sets[build]"' in message and "\n" not in message
    if name == "trankit":
        assert "pip install --no-deps trankit==1.1.2" in message


def test_the_cli_says_one_line_when_udpipe_is_missing(monkeypatch, tmp_path, capsys):
    from auto_challenge_sets.cli import main
    from auto_challenge_sets.dataset.demo_folder import demo_file

    monkeypatch.setitem(sys.modules, "ufal", None)
    assert main(["build", "--pair", "de-en", "--corpus", "sample", "--source", str(demo_file("sample.de")),
                 "--target", str(demo_file("sample.en")), "--parser", "udpipe", "--udpipe-model", "x.udpipe",
                 "--aligner", "none", "--out", str(tmp_path / "out"), "--quiet"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == ['acs build: error: the udpipe parser needs ufal.udpipe, which is not installed: '
                   'pip install "auto-challenge-sets[build]"']


def test_an_imported_module_without_a_spec_counts_as_installed(monkeypatch):
    """transformers replaces `adapters` in sys.modules by a lazy module whose __spec__ is None, on
    which importlib.util.find_spec raises: the check must not read that as "not installed"."""
    import types

    from auto_challenge_sets.backends import backend_class, missing_modules

    lazy = types.ModuleType("eflomal")
    lazy.__spec__ = None
    monkeypatch.setitem(sys.modules, "eflomal", lazy)
    assert missing_modules(backend_class(ALIGNER, "eflomal")) == []
