"""The stored realised deals: ``conformance/realised/*.yaml``, read by the runner and the staleness test.

One file per fixture file (``conformance/realised/scoring.yaml`` for
``conformance/scoring.yaml``), written by ``python -m
coinche_spec.conformance.realised_build``. Each entry is a whole deal for one
score or melds fixture (for a match fixture, ``played``: one whole deal per
deal of the match): the fixture's case it was built for (``summary``), the
seed that built it, the rule sets under which the reference engine found
that it realises the fixture, and the deal itself (dealer, hands, calls, and
the play one trick per line). ``unrealisable`` lists the fixtures and rule
sets for which no legal deal was found, with the reason.

The runner poses a stored deal only after checking, under the rule set it
plays, that the deal still realises the fixture's summary (``realise.realises``):
a stale deal is never sent.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from .. import yamlstrict
from ..errors import CoincheSpecError
from ..resources import corpus_dir
from .realise import realises, summary_of_case

DIRECTORY = "realised"
HEADER = ("# Whole deals that realise the score, melds and match fixtures of {source}, with the rule sets\n"
          "# under which the reference engine found that its summary is the fixture's. Generated: rebuild with\n"
          "#   python -m coinche_spec.conformance.realised_build\n"
          "# and never edit by hand (tests/test_realised.py replays every deal). The play is one trick per line.\n")


class RealisedError(CoincheSpecError):
    """A stored realised-deal file that cannot be read; ``problems`` holds one located line each."""

    def __init__(self, problems: list):
        self.problems = list(problems)
        super().__init__("\n".join(str(p) for p in self.problems))


@dataclass
class RealisedDeal:
    fixture: str
    seed: int
    rule_sets: list
    summary: dict
    deal: dict                  # dealer, hands, calls, play (flat, protocol form)
    where: str = ""

    def case(self) -> dict:
        """The protocol case to send: a ``deal``, or for a match fixture a ``played_match``."""
        if "deals" in self.deal:
            return {"kind": "played_match", "deals": [dict(d) for d in self.deal["deals"]]}
        return {"kind": "deal", "dealer": self.deal["dealer"], "hands": self.deal["hands"],
                "calls": self.deal["calls"], "play": self.deal["play"]}


@dataclass
class Unrealised:
    fixture: str
    rule_sets: list
    reason: str
    summary: dict | None = None


@dataclass
class Store:
    deals: dict = field(default_factory=dict)        # fixture id -> [RealisedDeal]
    unrealised: dict = field(default_factory=dict)   # fixture id -> [Unrealised]

    def deal_for(self, fixture, variant) -> RealisedDeal | None:
        """A stored deal that realises the fixture's summary under ``variant`` now (the rule sets it
        lists first), or None."""
        candidates = [d for d in self.deals.get(fixture.id, []) if d.summary == summary_of_case(fixture.case)]
        candidates.sort(key=lambda d: variant.id not in d.rule_sets)
        for d in candidates:
            if realises(variant.rules, fixture.case, d.deal) is None:
                return d
        return None


def store_dir(corpus: Path | None = None) -> Path:
    return Path(corpus if corpus is not None else corpus_dir()) / DIRECTORY


def _display(path: Path) -> str:
    from ..resources import shown_path
    return shown_path(path)


def _problem(display, positions, path, message):
    pos = positions.nearest(tuple(path), True) if positions is not None else None
    line, col = (pos[0], pos[1]) if pos else (None, None)
    return yamlstrict.Problem(display, line, col, tuple(path), message)


def _flat(tricks) -> list:
    out = []
    for trick in tricks:
        out.extend(trick)
    return out


def load_file(path: Path) -> tuple[list, list]:
    """The deals and the unrealisable entries of one file; RealisedError naming file, line and field."""
    display = _display(path)
    try:
        data, positions = yamlstrict.load_file(path, display)
    except yamlstrict.YamlStrictError as exc:
        raise RealisedError(list(exc.problems)) from None
    problems = []
    if not isinstance(data, dict) or set(data) - {"deals", "unrealisable"}:
        raise RealisedError([_problem(display, positions, (), "expected a mapping with 'deals' and 'unrealisable'")])
    deals, unrealised = [], []
    for i, raw in enumerate(data.get("deals") or []):
        where = ("deals", i)
        need = ("fixture", "seed", "rule_sets", "summary") + (
            ("played",) if isinstance(raw, dict) and "played" in raw else ("dealer", "hands", "calls", "play"))
        if not isinstance(raw, dict) or any(k not in raw for k in need) or set(raw) - set(need):
            missing = [k for k in need if not isinstance(raw, dict) or k not in raw]
            extra = sorted(set(raw) - set(need)) if isinstance(raw, dict) else []
            problems.append(_problem(display, positions, where,
                                     f"a realised deal has exactly the fields {', '.join(need)}"
                                     + (f"; missing {', '.join(missing)}" if missing else "")
                                     + (f"; unknown {', '.join(extra)}" if extra else "")))
            continue
        played = raw["played"] if "played" in raw else [raw]
        if not isinstance(played, list) or not all(
                isinstance(d, dict) and {"dealer", "hands", "calls", "play"} == set(d) - {"fixture", "seed",
                                                                                          "rule_sets", "summary"}
                and isinstance(d["play"], list) and all(isinstance(t, list) for t in d["play"]) for d in played):
            problems.append(_problem(display, positions, where, "each deal has dealer, hands, calls and play "
                                                               "(a list of tricks)"))
            continue
        line = positions.nearest(where, True) if positions is not None else None
        whole = [{"dealer": d["dealer"], "hands": d["hands"], "calls": d["calls"], "play": _flat(d["play"])}
                 for d in played]
        deals.append(RealisedDeal(
            fixture=str(raw["fixture"]), seed=raw["seed"], rule_sets=list(raw["rule_sets"] or []),
            summary=raw["summary"], deal={"deals": whole} if "played" in raw else whole[0],
            where=f"{display}:{line[0]}" if line else display))
    for i, raw in enumerate(data.get("unrealisable") or []):
        if not isinstance(raw, dict) or set(raw) != {"fixture", "rule_sets", "reason", "summary"}:
            problems.append(_problem(display, positions, ("unrealisable", i),
                                     "an unrealisable entry has exactly the fields fixture, rule_sets, reason, summary"))
            continue
        unrealised.append(Unrealised(str(raw["fixture"]), list(raw["rule_sets"] or []), str(raw["reason"]),
                                     raw["summary"]))
    if problems:
        raise RealisedError(problems)
    return deals, unrealised


def load_store(directory: Path | None = None) -> Store:
    """Every stored realised deal (an absent folder: none)."""
    folder = store_dir() if directory is None else Path(directory)
    store = Store()
    if not folder.is_dir():
        return store
    problems = []
    for path in sorted(folder.glob("*.yaml")):
        if path.name == "cannot-arise.yaml":     # arise.py's proofs, not deals
            continue
        try:
            deals, unrealised = load_file(path)
        except RealisedError as exc:
            problems.extend(exc.problems)
            continue
        for d in deals:
            store.deals.setdefault(d.fixture, []).append(d)
        for u in unrealised:
            store.unrealised.setdefault(u.fixture, []).append(u)
    if problems:
        raise RealisedError(problems)
    return store


def _j(value) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))


def _deal_lines(deal: dict, first: str, rest: str) -> list:
    play = deal["play"]
    lines = [f"{first}dealer: {_j(deal['dealer'])}",
             f"{rest}hands: {_j(deal['hands'])}",
             f"{rest}calls: {_j([{'seat': c['seat'], 'call': c['call']} for c in deal['calls']])}",
             f"{rest}play:" + ("" if play else " []")]
    return lines + [f"{rest}  - {_j(play[i:i + 4])}" for i in range(0, len(play), 4)]


def render(source: str, deals: list, unrealised: list) -> str:
    """One file's text: compact, one line per field, the play one trick per line."""
    lines = [HEADER.format(source=source).rstrip("\n"), "deals:"]
    if not deals:
        lines[-1] = "deals: []"
    for d in deals:
        lines += [f"  - fixture: {d.fixture}",
                  f"    seed: {d.seed}",
                  f"    rule_sets: {_j(d.rule_sets)}",
                  f"    summary: {_j(d.summary)}"]
        if "deals" in d.deal:
            lines.append("    played:")
            for one in d.deal["deals"]:
                lines += _deal_lines(one, "      - ", "        ")
        else:
            lines += _deal_lines(d.deal, "    ", "    ")
    lines.append("unrealisable:" if unrealised else "unrealisable: []")
    for u in unrealised:
        lines += entry_lines(u.fixture, u.rule_sets, u.summary, u.reason)
    return "\n".join(lines) + "\n"


def entry_lines(fixture: str, rule_sets, summary: dict, reason: str) -> list:
    """A listed (fixture, rule sets, summary, reason) entry, one line a field: an unrealisable pair
    here, a proof that a case cannot arise in arise.py."""
    return [f"  - fixture: {fixture}", f"    rule_sets: {_j(rule_sets)}", f"    summary: {_j(summary)}",
            f"    reason: {_j(reason)}"]
