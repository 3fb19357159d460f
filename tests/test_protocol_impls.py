"""``--impl SPEC``: reading the spec, and implementations that are Python objects in this process."""

import sys
import textwrap

import pytest

from coinche_spec.cli import main
from coinche_spec.protocol import impls
from coinche_spec.protocol.client import ImplementationError, InProcess, Subprocess
from coinche_spec.protocol.impls import SpecError, open_implementation, parse_spec
from coinche_spec.protocol.inprocess import PythonObject, Worker

PERFT = {"kind": "perft", "strain": "H", "leader": "W",
         "hands": {"N": ["7S", "8S"], "E": ["9S", "TS"], "S": ["JS", "QS"], "W": ["KS", "AS"]}, "depth": 8}

OBJECTS = textwrap.dedent('''
    import sys, time

    made = []

    class Good:
        def __init__(self):
            made.append(self)
            self.variant = None
        def start(self):
            return {"protocol": 1, "implementation": {"name": "good", "version": "1", "language": "Python"},
                    "kinds": ["perft"], "variants": None}
        def configure(self, variant):
            self.variant = variant
            return {"ok": True}
        def run(self, case):
            print("thinking about", case["kind"], file=sys.stderr)
            case["kind"] = "changed"      # the runner's copy must not change
            if case.get("depth") == 1:
                raise KeyError("depth one")
            if case.get("depth") == 2:
                time.sleep(30)
            if case.get("depth") == 3:
                return {"result": {"count": {1, 2}}}
            if case.get("depth") == 4:
                return ["not", "a", "reply"]
            return {"result": {"count": 16, "objects": len(made), "variant": self.variant,
                               "pair": (1, 2)}}

    class NoStart:
        pass

    def broken_factory():
        raise RuntimeError("no table today")

    NOT_CALLABLE = 3
''')


@pytest.fixture
def objects(tmp_path):
    path = tmp_path / "my_objects.py"
    path.write_text(OBJECTS)
    return path


def test_the_spec_forms():
    assert parse_spec(None).kind == "engine"
    with pytest.raises(SpecError):   # --impl "": an empty variable, not a wish for the reference engine
        parse_spec("  ")
    assert parse_spec("colver").kind == "adapter"
    spec = parse_spec("python:pkg.engine:make_engine")
    assert (spec.kind, spec.module, spec.factory) == ("python", "pkg.engine", "make_engine")
    spec = parse_spec("python:/tmp/x/engine.py:Engine")
    assert (spec.module, spec.factory) == ("/tmp/x/engine.py", "Engine")
    assert parse_spec("./colver --stdio").kind == "command"
    assert isinstance(open_implementation(None), InProcess)
    assert isinstance(open_implementation("python3 engine.py", timeout=3), Subprocess)


@pytest.mark.parametrize("spec,words", [
    ("python:engine", "expected python:MODULE:FACTORY"),
    ("python::Engine", "expected python:MODULE:FACTORY"),
    ("python:engine:not-a-name", "is not a Python name"),
    ("python:coinche_spec_no_such_module:Engine", "cannot import coinche_spec_no_such_module"),
    ("python:coinche_spec.notation:Engine", "coinche_spec.notation has no Engine"),
    ("python:coinche_spec.notation:SEATS", "is not callable"),
])
def test_a_bad_spec_is_one_line(spec, words):
    with pytest.raises(SpecError) as info:
        open_implementation(spec)
    assert words in str(info.value) and "\n" not in str(info.value)


def test_a_file_module_that_raises_or_is_missing(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("raise ValueError('half written')\n")
    with pytest.raises(SpecError) as info:
        open_implementation(f"python:{bad}:Engine")
    assert str(info.value) == f"python:{bad}:Engine: importing {bad} raised ValueError: half written"
    with pytest.raises(SpecError) as info:
        open_implementation(f"python:{tmp_path / 'gone.py'}:Engine")
    assert f"no file {tmp_path / 'gone.py'}" in str(info.value)


def test_an_adapter_whose_package_is_missing_says_which_extra(monkeypatch):
    monkeypatch.setitem(impls.ADAPTERS, "nothing", ("coinche_spec_missing_engine", "Adapter",
                                                    "coinche_spec_missing_engine", "nothing"))
    with pytest.raises(SpecError) as info:
        open_implementation("nothing")
    assert str(info.value) == ("nothing needs the coinche_spec_missing_engine package: "
                               "pip install 'coinche-spec[nothing]'")


def test_a_module_in_the_current_folder_is_found(objects, monkeypatch):
    monkeypatch.chdir(objects.parent)
    impl = open_implementation("python:my_objects:Good")
    assert impl.start()["implementation"]["name"] == "good"
    impl.stop()


def good(objects, timeout=2.0, max_restarts=3):
    impl = open_implementation(f"python:{objects}:Good", timeout=timeout, max_restarts=max_restarts)
    assert isinstance(impl, PythonObject)
    impl.start()
    assert impl.configure("federation") == {"ok": True}
    return impl


def test_an_object_answers_through_json(objects, capfd):
    impl = good(objects)
    case = dict(PERFT)
    capfd.readouterr()
    reply = impl.run("p@federation", case)
    # what it wrote on stderr is kept with the case, not printed (as a separate program's)
    assert "thinking about" not in capfd.readouterr().err
    # the seq is the runner's; a tuple comes back as a JSON list; the case it was given was a copy
    assert reply == {"seq": "p@federation",
                     "result": {"count": 16, "objects": 1, "variant": "federation", "pair": [1, 2]}}
    assert case["kind"] == "perft"
    assert impl.case_stderr == "thinking about perft"
    impl.stop()


def test_an_exception_is_an_errored_reply_with_its_traceback(objects):
    impl = good(objects)
    reply = impl.run(1, dict(PERFT, depth=1))
    assert reply["errored"] is True and reply["message"] == "run() raised KeyError: 'depth one'"
    assert "Traceback" in reply["traceback"]
    assert impl.run(2, PERFT)["result"]["objects"] == 1  # no restart for an answered error
    impl.stop()


@pytest.mark.parametrize("depth,words", [(3, "cannot be written as JSON"), (4, "expected a JSON object")])
def test_an_answer_that_could_not_be_sent_is_malformed(objects, depth, words):
    impl = good(objects)
    with pytest.raises(ImplementationError) as info:
        impl.run(1, dict(PERFT, depth=depth))
    assert info.value.kind == "malformed" and words in info.value.message
    impl.stop()


def test_a_hang_is_a_timeout_then_a_fresh_object_configured_again(objects):
    impl = good(objects, timeout=0.3)
    with pytest.raises(ImplementationError) as info:
        impl.run(1, dict(PERFT, depth=2))
    assert info.value.kind == "timeout" and info.value.message == "no reply within 0.3 s"
    reply = impl.run(2, PERFT)
    assert reply["result"]["objects"] == 2 and reply["result"]["variant"] == "federation"
    assert impl.restarts == 1
    impl.stop()


def test_an_object_that_always_hangs_is_given_up(objects):
    impl = good(objects, timeout=0.2, max_restarts=1)
    kinds = []
    for n in range(4):
        try:
            impl.run(n, dict(PERFT, depth=2))
        except ImplementationError as exc:
            kinds.append(exc.kind)
    assert kinds == ["timeout", "timeout", "not run", "not run"]
    impl.stop()


@pytest.mark.parametrize("factory,words", [("NoStart", "has no start() method"),
                                           ("broken_factory", "the factory raised RuntimeError: no table today")])
def test_an_object_that_cannot_start(objects, factory, words):
    impl = open_implementation(f"python:{objects}:{factory}")
    with pytest.raises(ImplementationError) as info:
        impl.start()
    assert words in info.value.message
    impl.stop()


def test_the_worker_hands_back_values_and_times_out():
    worker = Worker()
    assert worker.call(lambda a, b: a + b, 2, 3, timeout=5) == 5
    import threading
    gate = threading.Event()
    with pytest.raises(ImplementationError):
        worker.call(gate.wait, timeout=0.05)
    assert worker.stuck
    gate.set()


CORPUS = textwrap.dedent("""\
    area: perft
    fixtures:
      - id: perft-two-tricks
        title: two tricks of spades
        case: {kind: perft, strain: H, leader: W, depth: 8,
               hands: {N: [7S, 8S], E: [9S, TS], S: [JS, QS], W: [KS, AS]}}
        expect:
          federation, contree-701: {count: 16}   # 2 * 2 * 2 * 2 = 16
          cafe-1000, cafe-701: {count: 15}       # wrong on purpose: the object answers 16
          cafe-sans-tout-atout: {not_applicable: not needed here}
    """)


def test_the_runner_drives_an_object_and_the_cli_reports_a_bad_spec(objects, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "corpus").mkdir()
    (tmp_path / "corpus" / "perft.yaml").write_text(CORPUS)
    code = main(["conformance", "--corpus-only", "--corpus", "corpus", "--impl", f"python:{objects}:Good"])
    out, _ = capsys.readouterr()
    # the object answers 16 to every perft: right under federation and contree-701, not under the café two
    assert code == 1 and out.rstrip().splitlines()[-1] == "2 passed, 2 failed"
    assert "Conformance of good 1 (Python)" in out
    code = main(["conformance", "--corpus-only", "--corpus", "corpus", "--impl", "python:nowhere_to_be_found:Engine"])
    _, err = capsys.readouterr()
    assert code == 2
    assert err.strip().startswith("coinche-spec: --impl: python:nowhere_to_be_found:Engine: cannot import")


def test_impl_colver_without_colver_says_which_extra(monkeypatch, capsys, tmp_path):
    monkeypatch.setitem(sys.modules, "colver", None)   # as if it were not installed
    with pytest.raises(SpecError) as info:
        open_implementation("colver")
    assert str(info.value) == ("colver: needs the colver package (import of colver halted; None in sys.modules): "
                               "pip install 'coinche-spec[colver]'")
    monkeypatch.chdir(tmp_path)
    (tmp_path / "corpus").mkdir()
    (tmp_path / "corpus" / "perft.yaml").write_text(CORPUS)
    assert main(["conformance", "--corpus-only", "--corpus", "corpus", "--impl", "colver"]) == 2
    assert capsys.readouterr().err.startswith("coinche-spec: --impl: colver: needs the colver package")
