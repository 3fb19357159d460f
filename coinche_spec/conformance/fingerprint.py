"""Which option of each rule an implementation plays, found by asking it cases that tell the options apart.

A programmer rarely knows every rule his engine plays. For each rule of a
base rule set and each other option that rule may take (the schema's
choices, and the values the known rule sets give it), the reference engine
looks for cases (the corpus's first, then random deals) whose answer under
the base differs from the answer under the base with that one option; the
implementation answers those cases, and its answer, on the fields where the
two options disagree, says which of the two it plays.

Engines differ in several rules at once, and one difference can hide
another (a surcoinche x3 changes every surcoinched score). So the search is
repeated from the rules found so far, until a round finds nothing new: the
final evidence is judged against the rules the implementation was found to
play, each rule changed alone.

A rule no case kind depends on (who deals first) is listed as unobservable;
one that only kinds the implementation does not answer depend on (the match
target, for an engine without the match kind) is listed as not observed.
"""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import CoincheSpecError
from ..protocol.cases import CaseError, canonicalise, run_canonical
from ..protocol.client import Implementation, ImplementationError
from ..variants.diff import flatten
from .compare import compare
from .fuzz import FIELD_RULES, compared_fields, deal_rng
from .fuzz_cases import deal_cases

# The rules an answer of each kind may depend on (a generous superset, as the fuzzer's).
KIND_RULES: dict[str, list[str]] = {kind: sorted({p for paths in fields.values() for p in paths})
                                    for kind, fields in FIELD_RULES.items()}
KIND_RULES["match"] = ["match"]
KIND_RULES["perft"] = ["auction.strains", "play"]

EVIDENCE = 3          # cases that tell two options apart, at most, per option
DEALS = 6             # random deals tried per option when the corpus has no such case
ROUNDS = 4            # searches from the rules found so far, at most


def covers(prefix: str, path: str) -> bool:
    return path == prefix or path.startswith(prefix + ".")


def observing_kinds(path: str) -> list[str]:
    """The case kinds whose answers may depend on the rule at ``path``."""
    return [kind for kind, prefixes in KIND_RULES.items() if any(covers(p, path) for p in prefixes)]


# --- the options of each rule -------------------------------------------------

def _schema_choices(schema: dict, path: str) -> list:
    """The schema's enumerated (or boolean) choices for the rule at ``path``; [] when it has none."""
    node: Any = schema["$defs"]["rules"]
    for part in path.split("."):
        while isinstance(node, dict) and "$ref" in node:
            node = schema["$defs"][node["$ref"].rsplit("/", 1)[-1]]
        props = node.get("properties") if isinstance(node, dict) else None
        if not props or part not in props:
            return []
        node = props[part]
    while isinstance(node, dict) and "$ref" in node:
        node = schema["$defs"][node["$ref"].rsplit("/", 1)[-1]]
    if "enum" in node:
        return list(node["enum"])
    if node.get("type") == "boolean":
        return [True, False]
    return []


def rule_options(base_rules: dict, known: list[dict], schema: dict) -> dict[str, list]:
    """Rule path -> the other options to try: the schema's choices and every known rule set's value."""
    flat = flatten(base_rules)
    others = [flatten(rules) for rules in known]
    out: dict[str, list] = {}
    for path, value in flat.items():
        options: list = []
        for candidate in _schema_choices(schema, path) + [o[path] for o in others if path in o]:
            if candidate != value and candidate not in options:
                options.append(candidate)
        out[path] = options
    return out


def with_rule(rules: dict, path: str, value: Any) -> dict:
    """A copy of ``rules`` with the rule at ``path`` (as ``flatten`` names it) set to ``value``."""
    out = copy.deepcopy(rules)
    node = out
    parts = path.split(".")
    for part in parts[:-1]:
        node = node[part]
    node[parts[-1]] = copy.deepcopy(value)
    return out


def playable(document: dict, rules: dict):
    """The engine's Rules for ``rules`` in ``document``, or None where they do not make one game.

    The options come from the schema or from valid rule sets, so the schema is not run again on
    every try (it is slow); the checks across rules are, and the engine refuses what it cannot play."""
    from ..engine.errors import EngineError
    from ..engine.options import check_rules
    from ..variants import semantics
    from ..variants.compiled import compiled_rules
    from ..variants.rules import Rules
    doc = dict(document, rules=rules)
    try:
        if semantics.check(doc):
            return None
        built = Rules(rules, document.get("id", "fingerprint"))
        check_rules(compiled_rules(built))
    except (EngineError, KeyError, TypeError, ValueError):
        return None
    return built


# --- the cases ----------------------------------------------------------------

@dataclass
class Case:
    case: dict
    source: str              # a fixture id, or the random deal it came from
    exercises: tuple = ()

    key: str = ""

    def __post_init__(self):
        self.key = json.dumps(self.case, sort_keys=True)


def corpus_cases(directory: Path | None = None) -> list[Case]:
    """Every fixture's case, canonical (the expectations are not needed: the engine answers)."""
    import yaml
    from ..resources import corpus_dir
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    out = []
    for file in sorted(Path(directory or corpus_dir()).glob("*.yaml")):
        data = yaml.load(file.read_text(encoding="utf-8"), Loader=loader) or {}
        for fixture in data.get("fixtures") or []:
            try:
                case = canonicalise(fixture.get("case"))
            except CaseError:
                continue
            out.append(Case(case, f"fixture {fixture.get('id')}", tuple(fixture.get("exercises") or ())))
    return out


def _answer(rules, case: dict):
    """The engine's answer to a canonical case, its protocol fields only; None where it has none."""
    from ..engine.errors import EngineError
    try:
        result = run_canonical(rules, case)
    except (CaseError, EngineError):
        return None
    return compared_fields(case["kind"], json.loads(json.dumps(result)))


def _related(a: str, b: str) -> bool:
    return a == b or any(x.startswith(y) and x[len(y)] in ".[" for x, y in ((a, b), (b, a)))


def _agrees(reference_answer: dict, answer: dict, fields: set) -> bool:
    """Whether ``answer`` equals ``reference_answer`` on every leaf of ``fields``."""
    return not any(_related(d.field, f) for d in compare(reference_answer, answer) for f in fields)


# --- asking the implementation --------------------------------------------------

class Asker:
    """The implementation's answers, each case asked once."""

    def __init__(self, impl: Implementation):
        self.impl = impl
        self.answers: dict[str, Any] = {}
        self.cases: dict[str, Case] = {}     # every case asked, by key, in the order asked
        self.asked = 0

    def __call__(self, case: Case):
        if case.key not in self.answers:
            self.asked += 1
            self.cases[case.key] = case
            try:
                reply = self.impl.run(f"fingerprint-{self.asked}", case.case)
            except ImplementationError as exc:
                reply = {"errored": True, "message": exc.message}
            self.answers[case.key] = reply.get("result") if isinstance(reply.get("result"), dict) else None
        return self.answers[case.key]


# --- one rule -------------------------------------------------------------------

@dataclass
class Evidence:
    source: str
    case: dict
    fields: list              # the leaves where the two options' answers differ
    current: dict             # the engine's answer under the rules found so far
    option: dict              # the engine's answer with this one option
    implementation: Any       # the implementation's answer (None: it gave none)
    verdict: str              # "current", "option", "neither" or "no answer"

    def to_json(self) -> dict:
        return {"source": self.source, "case": self.case, "fields": self.fields, "current": self.current,
                "option": self.option, "implementation": self.implementation, "verdict": self.verdict}


@dataclass
class OptionTrial:
    value: Any
    evidence: list = field(default_factory=list)
    playable: bool = True

    def count(self, verdict: str) -> int:
        return sum(1 for e in self.evidence if e.verdict == verdict)

    @property
    def fits(self) -> bool:
        """Every case the implementation answered agrees with this option, and there is one."""
        return self.count("option") > 0 and self.count("current") == 0 and self.count("neither") == 0

    @property
    def leans(self) -> bool:
        """Most answered cases agree with this option and none with the current value."""
        return self.count("option") > self.count("neither") and self.count("current") == 0


@dataclass
class RuleFinding:
    path: str
    base: Any                 # the base rule set's value
    current: Any              # the value of the rules the search started from this round
    found: Any = None         # the value the implementation plays, when known
    status: str = "untold"    # same, changed, unclear, untold, unobservable, not-observed
    kinds: list = field(default_factory=list)
    trials: list = field(default_factory=list)

    def to_json(self) -> dict:
        return {"rule": self.path, "base": self.base, "found": self.found, "status": self.status,
                "kinds": self.kinds,
                "options": [{"value": t.value, "playable": t.playable, "evidence": [e.to_json() for e in t.evidence]}
                            for t in self.trials]}


class Search:
    """The engine's cases for one round: the rules found so far, and each rule changed alone."""

    def __init__(self, document: dict, rules: dict, kinds: list[str], pool: list[Case], ask: Asker,
                 deals: int = DEALS):
        self.document, self.rules_dict, self.kinds = document, rules, kinds
        self.rules = playable(document, rules)
        self.pool = [c for c in pool if c.case["kind"] in kinds]
        self.ask, self.deals = ask, deals
        self._current: dict[str, Any] = {}
        self._random: list[Case] | None = None

    def current(self, case: Case):
        if case.key not in self._current:
            self._current[case.key] = _answer(self.rules, case.case)
        return self._current[case.key]

    def random_cases(self, rules, label: str, kinds, seed: int) -> list[Case]:
        out = []
        for i in range(self.deals):
            for n, c in enumerate(deal_cases(rules, deal_rng(seed, i), kinds)):
                out.append(Case(c, f"random deal {i} of seed {seed} under {label}, case {n}"))
        return out

    def candidates(self, path: str, value: Any, option_rules, kinds):
        """Cases to try, best first: fixtures exercising the rule, the others, random deals."""
        pool = [c for c in self.pool if c.case["kind"] in kinds]
        yield from (c for c in pool if any(covers(e, path) or covers(path, e) for e in c.exercises))
        yield from (c for c in pool if not any(covers(e, path) or covers(path, e) for e in c.exercises))
        if self._random is None:
            self._random = self.random_cases(self.rules, "the rules found so far", self.kinds, 1)
        yield from (c for c in self._random if c.case["kind"] in kinds)
        yield from self.random_cases(option_rules, f"{path} = {_show(value)}", kinds, 2)

    def trial(self, path: str, value: Any, kinds: list[str]) -> OptionTrial:
        trial = OptionTrial(value)
        option_rules = playable(self.document, with_rule(self.rules_dict, path, value))
        if option_rules is None:
            trial.playable = False
            return trial
        seen = set()
        for case in self.candidates(path, value, option_rules, kinds):
            if case.key in seen:
                continue
            seen.add(case.key)
            here, there = self.current(case), _answer(option_rules, case.case)
            if here is None or there is None:
                continue
            fields = sorted({d.field for d in compare(here, there)})
            if not fields:
                continue
            got = self.ask(case)
            if got is None:
                verdict = "no answer"
            else:
                as_current, as_option = _agrees(here, got, set(fields)), _agrees(there, got, set(fields))
                verdict = "current" if as_current else "option" if as_option else "neither"
            trial.evidence.append(Evidence(case.source, case.case, fields, here, there, got, verdict))
            if len([e for e in trial.evidence if e.verdict != "no answer"]) >= EVIDENCE or len(trial.evidence) >= 3 * EVIDENCE:
                break
        return trial


def judge_rule(finding: RuleFinding) -> None:
    """The rule's status from its trials: one option fits every answered case, or the current does."""
    told = [t for t in finding.trials if any(e.verdict != "no answer" for e in t.evidence)]
    fitting = sorted((t for t in told if t.fits), key=lambda t: -t.count("option"))
    if not fitting:
        # another rule found later may explain the cases that fit neither; one that fits the
        # current value is a counter-example
        fitting = sorted((t for t in told if t.leans), key=lambda t: -t.count("option"))
    if fitting:
        finding.status, finding.found = "changed", fitting[0].value
    elif told and all(t.count("option") == 0 and t.count("neither") == 0 for t in told):
        finding.status, finding.found = "same", finding.current
    elif told:
        finding.status, finding.found = "unclear", None
    else:
        finding.status, finding.found = "untold", None


# --- the whole fingerprint ------------------------------------------------------

@dataclass
class Fingerprint:
    implementation: str
    base: str
    configured: Any
    kinds: list
    findings: list
    rounds: int
    asked: int
    rules: dict               # the rules found (the base where nothing else was found)
    residue: list = field(default_factory=list)   # Case: answers the rules found do not give
    answered: int = 0         # cases the implementation answered, the residue among them

    def changed(self) -> list[RuleFinding]:
        return [f for f in self.findings if f.status == "changed" and f.found != f.base]

    def by_status(self, status: str) -> list[RuleFinding]:
        return [f for f in self.findings if f.status == status]

    def to_json(self) -> dict:
        return {"implementation": self.implementation, "base": self.base, "configured": self.configured,
                "kinds": self.kinds, "rounds": self.rounds, "cases_asked": self.asked,
                "differences": [{"rule": f.path, "base": f.base, "found": f.found} for f in self.changed()],
                "residue": {"cases": len(self.residue), "of": self.answered,
                            "examples": [c.source for c in examples(self.residue)]},
                "rules": [f.to_json() for f in self.findings]}


RESIDUE_EXAMPLES = 3


def examples(residue: list, n: int = RESIDUE_EXAMPLES) -> list:
    """A few cases of the residue, fixtures first (an id is easier to replay than a random deal)."""
    return sorted(residue, key=lambda c: not c.source.startswith("fixture "))[:n]


def find_residue(document: dict, found_rules: dict, ask: "Asker") -> tuple[list, int]:
    """The cases asked whose answer the rules found do not give, on the fields the protocol compares:
    what no single option value explains. (cases, how many cases were answered)."""
    rules = playable(document, found_rules)
    if rules is None:
        return [], 0
    residue, answered = [], 0
    for key, case in ask.cases.items():
        got = ask.answers.get(key)
        expected = _answer(rules, case.case)
        if got is None or expected is None:
            continue
        answered += 1
        if compare(expected, got):
            residue.append(case)
    return residue, answered


def known_rule_sets() -> list[dict]:
    """The rules every rule-set file the registry knows writes (seeds, implementations, house, tests).

    Each file's own ``rules`` only: what a file inherits, its parent (also known) writes. Read
    with the plain YAML reader, since only the values matter here (the strict one is slow)."""
    import yaml
    from ..variants import registry
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    out = []
    for ident in registry.ids():
        path, _ = registry.file_for_id(ident)
        try:
            rules = (yaml.load(path.read_text(encoding="utf-8"), Loader=loader) or {}).get("rules")
        except (OSError, yaml.YAMLError, AttributeError):
            continue   # a broken file elsewhere must not stop a fingerprint
        if isinstance(rules, dict):
            out.append(rules)
    return out


def configure(impl: Implementation, base) -> Any:
    """Configure the implementation with the base if it plays it, else with a rule set it lists."""
    listed = (impl.info or {}).get("variants")
    tries = [base.id if listed is None or base.id in listed else None]
    if listed is None:
        tries.append(base.document)
    tries += [v for v in listed or () if v != base.id]
    for ref in [t for t in tries if t is not None]:
        try:
            reply = impl.configure(ref)
        except ImplementationError as exc:
            raise FingerprintError(f"configure failed: {exc.message}") from None
        if reply.get("ok"):
            return ref if isinstance(ref, str) else f"{base.id} (as a document)"
    raise FingerprintError(f"the implementation refuses {base.id} and every rule set it lists")


class FingerprintError(CoincheSpecError):
    """The fingerprint cannot be taken (the implementation refuses every rule set); one line."""


def fingerprint(impl: Implementation, base, corpus: Path | None = None, deals: int = DEALS,
                rounds: int = ROUNDS) -> Fingerprint:
    """Work out rule by rule what ``impl`` (started) plays, against the rule set ``base`` (a Variant)."""
    from ..resources import variant_schema_path
    info = impl.info or {}
    claimed = [k for k in info.get("kinds") or [] if k in KIND_RULES]
    configured = configure(impl, base)
    schema = json.loads(variant_schema_path().read_text(encoding="utf-8"))
    base_rules = base.document["rules"]
    options = rule_options(base_rules, known_rule_sets(), schema)
    pool = corpus_cases(corpus)
    ask = Asker(impl)
    found_rules = copy.deepcopy(base_rules)
    base_flat = flatten(base_rules)
    findings: list[RuleFinding] = []
    done = 0
    for done in range(1, rounds + 1):
        current_flat = flatten(found_rules)
        search = Search(base.document, found_rules, claimed, pool, ask, deals)
        findings = []
        for path, options_here in options.items():
            kinds = observing_kinds(path)
            finding = RuleFinding(path, base_flat[path], current_flat[path], kinds=kinds)
            findings.append(finding)
            if not kinds:
                finding.status = "unobservable"
                continue
            told_by = [k for k in kinds if k in claimed]
            if not told_by:
                finding.status = "not-observed"
                continue
            alternatives = [v for v in options_here if v != current_flat[path]]
            if current_flat[path] != base_flat[path]:
                alternatives.insert(0, base_flat[path])
            finding.trials = [search.trial(path, v, told_by) for v in alternatives]
            judge_rule(finding)
        changes = {f.path: f.found for f in findings if f.status == "changed"}
        if not changes:
            break
        updated = found_rules
        for path, value in changes.items():
            candidate = with_rule(updated, path, value)
            if playable(base.document, candidate) is not None:
                updated = candidate
        if updated == found_rules:
            break
        found_rules = updated
    # what was found in earlier rounds stays found: this round judged it as the current value
    final_flat = flatten(found_rules)
    for f in findings:
        if f.status == "same":
            f.found = final_flat[f.path]
            if f.found != f.base:
                f.status = "changed"
    residue, answered = find_residue(base.document, found_rules, ask)
    return Fingerprint(impl.describe(), base.id, configured, claimed, findings, done, ask.asked, found_rules,
                       residue, answered)


# --- what it prints -------------------------------------------------------------

def _show(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))


def _pick(answer: Any, fields: list) -> str:
    """The leaves ``fields`` of an answer, as ``score.NS=250``."""
    if answer is None:
        return "no answer"
    bits = []
    for f in fields:
        node: Any = answer
        for part in f.replace("[", ".").replace("]", "").split("."):
            if isinstance(node, dict) and part in node:
                node = node[part]
            elif isinstance(node, list) and part.isdigit() and int(part) < len(node):
                node = node[int(part)]
            else:
                node = "(missing)"
                break
        bits.append(f"{f}={_show(node)}")
    return ", ".join(bits)


@dataclass
class Shown:
    """One case that shows a found rule: the engine's answers with the found and the other value."""

    evidence: Evidence
    found: dict
    other: dict
    other_value: Any
    agree: int
    cases: int


def best_evidence(finding: RuleFinding) -> Shown | None:
    """A case where the implementation answered as the found value, against another value."""
    for t in finding.trials:
        if t.value == finding.found:       # found this round: the trial of that option
            for e in t.evidence:
                if e.verdict == "option":
                    return Shown(e, e.option, e.current, finding.current, t.count("option"), len(t.evidence))
    for t in finding.trials:
        if t.value == finding.base:        # found earlier: this round tried the base against it
            for e in t.evidence:
                if e.verdict == "current":
                    return Shown(e, e.current, e.option, t.value, t.count("current"), len(t.evidence))
    return None


def _case_line(case: dict) -> str:
    text = _show(case)
    return text if len(text) <= 400 else text[:397] + "..."


def render_text(fp: Fingerprint) -> str:
    lines = [f"{fp.implementation}, configured with {fp.configured}, answering {', '.join(fp.kinds) or 'nothing'}; "
             f"{fp.asked} cases asked in {fp.rounds} round{'s' if fp.rounds != 1 else ''}."]
    changed = fp.changed()
    if changed:
        lines.append(f"plays like {fp.base} except:")
        for f in changed:
            lines.append(f"  {f.path}: {_show(f.found)} (not {_show(f.base)})")
            shown = best_evidence(f)
            if shown is not None:
                lines.append(f"    evidence: {shown.evidence.source}: {_case_line(shown.evidence.case)}")
                lines.append("      " + _evidence_words(f, shown))
    elif fp.by_status("unclear"):       # not a clean match: some answers fit neither the base nor one option
        n = len(fp.by_status("unclear"))
        lines.append(f"does not play like {fp.base}, and no single rule explains it: {n} "
                     f"rule{'s' if n != 1 else ''} gave answers that fit no single option (below).")
    else:
        lines.append(f"plays like {fp.base}: no rule found to differ.")
    if fp.residue:
        shown = ", ".join(c.source for c in examples(fp.residue))
        lines.append(f"residue: {len(fp.residue)} of the {fp.answered} cases it answered still differ from the rules "
                     f"found, which no single option value explains; for example: {shown}.")
    elif fp.answered:
        lines.append(f"residue: none: the rules found give all {fp.answered} answers it gave.")
    same = fp.by_status("same")
    lines.append(f"{len(same)} rule{'s' if len(same) != 1 else ''} confirmed as {fp.base} plays them.")
    for status, title in (("unclear", "answers that fit no single option (several rules may differ at once)"),
                          ("untold", "no case found that tells the options apart"),
                          ("not-observed", "observable only by kinds the implementation does not answer"),
                          ("unobservable", "no case kind can observe")):
        group = fp.by_status(status)
        if not group:
            continue
        lines.append(f"{title} ({len(group)}):")
        if status == "unclear":
            for f in group:
                lines.append(f"  {f.path}: " + "; ".join(
                    f"{_show(t.value)}: {t.count('option')} agree, {t.count('current')} as {fp.base}, "
                    f"{t.count('neither')} neither" for t in f.trials if t.evidence))
        else:
            extra = {"not-observed": lambda f: f" ({', '.join(f.kinds)})"}.get(status, lambda f: "")
            lines.append("  " + ", ".join(f.path + extra(f) for f in group))
    return "\n".join(lines)


def _evidence_words(f: RuleFinding, shown: Shown) -> str:
    ev = shown.evidence
    return (f"with {_show(f.found)} the engine answers {_pick(shown.found, ev.fields)}; with "
            f"{_show(shown.other_value)}, {_pick(shown.other, ev.fields)}; the implementation answered "
            f"{_pick(ev.implementation, ev.fields)} ({shown.agree} of {shown.cases} cases agree)")


# --- the rule-set file ------------------------------------------------------------

def _nest(flat: dict) -> dict:
    out: dict = {}
    for path, value in flat.items():
        node = out
        parts = path.split(".")
        for part in parts[:-1]:
            node = node.setdefault(part, {})
        node[parts[-1]] = value
    return out


def rule_set_document(fp: Fingerprint, ident: str) -> dict:
    """A rule set that extends the base with the rules found, each reading recording its evidence."""
    changed = fp.changed()
    interpretations = []
    for f in changed:
        shown = best_evidence(f)
        if shown is not None:
            evidence = (f"{shown.evidence.source}: {_evidence_words(f, shown)}. "
                        f"Case: {_case_line(shown.evidence.case)}")
        else:
            evidence = "found in an earlier round of the search"
        interpretations.append({
            "id": "fingerprint-" + f.path.replace(".", "-").replace("_", "-"),
            "question": f"Which option of {f.path} does {fp.implementation} play?",
            "reading": f"{_show(f.found)}, observed: {evidence}",
            "alternative": f"{_show(f.base)}, as {fp.base} plays it.",
            "rules": [f.path],
        })
    doc = {"extends": fp.base, "id": ident,
           "name": f"{fp.implementation}, as fingerprinted against {fp.base}",
           "description": f"Written by coinche-spec fingerprint: the rules of {fp.base}, except those the "
                          f"implementation's answers showed it plays otherwise ({len(changed)}).",
           "status": "interpreted", "sources": [], "interpretations": interpretations,
           "rules": _nest({f.path: f.found for f in changed})}
    return doc


def file_id(path: Path) -> str | None:
    """The rule set id a file name gives (``my-engine.yaml`` -> ``my-engine``), None if it is not one."""
    import re
    stem = Path(path).stem
    return stem if re.fullmatch(r"[a-z0-9][a-z0-9-]*", stem) else None
