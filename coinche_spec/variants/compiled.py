"""The compiled rules: a resolved rule set read once, under the schema's own names.

``compiled_rules(rules)`` turns the ``rules`` block of a resolved variant
(a :class:`Rules`, a Variant or the plain dict) into plain attributes —
``c.auction.coinche.when``, ``c.scoring.rounding`` — plus the few facts that
several readers used to work out each for itself: which strains may be bid,
whether a number is a bid, which multipliers exist, what the pack is worth.
The engine's phases, the protocol's case checks, the cross-rule checks of
``semantics`` and the rules pages all read this one object, so a rule is
read (and a fact about it decided) in one place.

Why it lives in ``variants``: it is still the rule set, only easier to read;
it says nothing of how a deal is played. The engine maps each option to its
behaviour in its own tables (``engine/options.py``) and keeps what it derives
(bid listings, card tables) in :meth:`CompiledRules.phase`, so everything
computed from one rule set shares one cache.

The cache is keyed by the resolved document: two loads of the same rule set,
or a dict with the same rules, share one compiled object. Building one never
rejects anything (tests build rules outside the schema's bounds on purpose);
the schema and ``semantics`` do the judging.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from .rules import Rules

__all__ = ["RuleGroup", "CompiledRules", "compiled_rules", "STRAINS", "SUITS", "with_unused_filled", "unused_left_out",
           "capot_over_capot_matters", "plain", "left_out_defaults", "with_defaults", "every_rule", "recording_rules"]

SUITS = ("S", "H", "D", "C")
STRAINS = SUITS + ("TA", "SA")
_RANKS = ("7", "8", "9", "T", "J", "Q", "K", "A")


# --- rules a file may leave out, because no deal of it can use them ----------------------
#
# A suits-only rule set needs no sans atout or tout atout tables, a rule set without melds no
# meld settings, one whose bids overcall by value only no strain order (docs/variants-format.md).
# ``semantics`` refuses a file that leaves one out where it can matter; where it cannot, the
# compiled rules (the engine's view) hold the neutral value below, so that no reader needs to
# know the rule may be missing. The document keeps what the file wrote: pages and diffs say
# nothing of a rule that was left out.

_ZERO_TABLE = {r: 0 for r in ("J", "9", "A", "T", "K", "Q", "8", "7")}
_MELDS_UNUSED = {"runs": {"3": 0, "4": 0, "5": 0}, "long_runs": "highest_five", "run_order": "AKQJT987",
                 "squares": dict(_ZERO_TABLE), "card_reuse": "forbidden",
                 "compare": {"trump_breaks_ties": False, "equal": "cancel"}, "winner_scores": "all",
                 "timing": "declared_with_first_card", "count_towards_contract": False}


def _strains_flags(rules: Mapping) -> tuple[bool, bool]:
    strains = rules.get("auction", {}).get("strains", {}) if isinstance(rules.get("auction"), Mapping) else {}
    return bool(strains.get("sans_atout")), bool(strains.get("tout_atout"))


def capot_over_capot_matters(auction: Mapping) -> bool:
    """May a capot bid ever be overcalled by a capot in a higher strain? (auction.capot.overcall_by_capot
    higher_strain, where a capot may be bid and does not end the auction at once.)"""
    capot = auction.get("capot", {})
    return (isinstance(capot, Mapping) and capot.get("overcall_by_capot") == "higher_strain"
            and bool(capot.get("allowed")) and not capot.get("ends_auction"))


def unused_left_out(rules: Mapping) -> dict:
    """Group path -> {rule: neutral value} for every rule these rules cannot use and may leave out
    (whether or not they do): what ``with_unused_filled`` adds when it is missing."""
    sa, ta = _strains_flags(rules)
    out: dict = {}
    if not sa:
        out.setdefault("card_values", {})["sans_atout"] = dict(_ZERO_TABLE)
        out.setdefault("play", {})["sans_atout_must_go_up"] = False
    if not ta:
        out.setdefault("card_values", {})["tout_atout"] = dict(_ZERO_TABLE)
        out.setdefault("play", {})["tout_atout_must_go_up"] = False
        out.setdefault("belote", {})["tout_atout"] = "none"
    auction = rules.get("auction", {})
    if (isinstance(auction, Mapping) and auction.get("overcall") != "higher_value_or_strain"
            and not capot_over_capot_matters(auction)):
        # no strain lifts a bid: the order only sorts the listing of legal calls; the seeds' (C D H S)
        out.setdefault("auction", {})["strain_order"] = ["C", "D", "H", "S"] + ["TA"] * ta + ["SA"] * sa
    deal = rules.get("deal", {})
    if isinstance(deal, Mapping) and deal.get("method") == "uniform":
        # the pack is dealt as it lies, eight cards a seat: no cut, one packet of 8
        out["deal"] = {"cut": {"by": "dealer_left", "minimum_packet": 1, "required": False},
                       "packets": [8], "alternative_packets": []}
    scoring = rules.get("scoring", {})
    up_from = scoring.get("rounding_up_from") if isinstance(scoring, Mapping) else None
    if isinstance(up_from, Mapping) and not (sa and ta):
        # the threshold of a kind of contract that cannot be bid: the usual halfway digit
        out["scoring"] = {"rounding_up_from": {k: 5 for k, ok in (("sans_atout", sa), ("tout_atout", ta)) if not ok}}
    melds = rules.get("melds", {})
    if isinstance(melds, Mapping) and melds.get("enabled") is False:
        out["melds"] = {k: (dict(v) if isinstance(v, dict) else v) for k, v in _MELDS_UNUSED.items()}
    return out


# --- optional rules, and the value a file that leaves one out plays -----------------------
#
# The schema names it on the rule itself (``default``, as its description's "left out: X"), so
# the one table is the schema: an explicit ``trick_winner: led_suit`` and no trick_winner are the
# same rules, and every comparison (variants diff, the house pages, compare) fills these in first.
# An optional rule with no value of its own (max_rounds: no cap) has no ``default``.

_DEFAULTS: dict | None = None


def left_out_defaults() -> dict:
    """Group path -> {rule: value} of every optional rule whose schema entry has a ``default``."""
    global _DEFAULTS
    if _DEFAULTS is None:
        schema = _schema()

        def walk(node: dict) -> dict:
            while "$ref" in node:
                node = schema["$defs"][node["$ref"].rsplit("/", 1)[-1]]
            out: dict = {}
            for key, sub in node.get("properties", {}).items():
                if "default" in sub:
                    out[key] = sub["default"]
                else:
                    inner = walk(sub)
                    if inner:
                        out[key] = inner
            return out
        _DEFAULTS = walk(schema["$defs"]["rules"])
    return _DEFAULTS


def _filled(have: Mapping, values: dict) -> dict:
    """``have`` with the values of ``values`` it lacks (a new dict, sharing nothing with ``values``);
    a group given in part (melds.compare, scoring.bid_factor) is filled in part."""
    out = dict(have)
    for key, value in values.items():
        if key not in out:
            out[key] = json.loads(json.dumps(value))
        elif isinstance(value, dict) and isinstance(out[key], Mapping):
            out[key] = _filled(out[key], value)
    return out


def with_defaults(rules: Mapping) -> dict:
    """``rules`` with every optional rule it leaves out given its schema ``default`` (a new dict;
    ``rules`` is not changed): what a comparison of two rule sets reads."""
    return _filled_groups(rules, left_out_defaults())


def with_unused_filled(rules: Mapping) -> dict:
    """``rules`` with every rule it left out because it cannot use it given its neutral value
    (a new dict; ``rules`` is not changed). A rule the file gives keeps its value."""
    return _filled_groups(rules, unused_left_out(rules))


# --- every rule present: the compiled shape ----------------------------------------------
#
# The compiled rules hold every rule the schema names, so that a reader never guesses a rule's
# value: a rule the file gives keeps its value, an optional one it leaves out reads as its schema
# ``default`` (``left_out_defaults``), and one with no default (max_rounds: no cap; an optional
# group such as card_values.scale) reads as None. A group left out whose rules have defaults
# (scoring.bid_factor) is built from them.

_SCHEMA: dict | None = None


def _schema() -> dict:
    global _SCHEMA
    if _SCHEMA is None:
        from ..resources import variant_schema_path
        _SCHEMA = json.loads(variant_schema_path().read_text(encoding="utf-8"))
    return _SCHEMA


def _resolved(node: Mapping) -> Mapping:
    defs = _schema()["$defs"]
    while "$ref" in node:
        node = defs[node["$ref"].rsplit("/", 1)[-1]]
    return node


def _object_branch(node: Mapping) -> Mapping | None:
    """The object form of a rule: the node itself, or its object branch (``oneOf`` null or an award)."""
    node = _resolved(node)
    if "properties" in node:
        return node
    for branch in node.get("oneOf", ()):
        branch = _resolved(branch)
        if "properties" in branch:
            return branch
    return None


def _has_defaults(node: Mapping) -> bool:
    shape = _object_branch(node)
    return shape is not None and any("default" in sub or _has_defaults(sub) for sub in shape["properties"].values())


def _complete(value: Any, node: Mapping) -> Any:
    """``value`` (a rule or group as given) with every rule of the schema ``node`` present."""
    if isinstance(value, Mapping):
        shape = _object_branch(node)
        if shape is None:
            return value
        out = dict(value)
        for key, sub in shape["properties"].items():
            if key in out:
                out[key] = _complete(out[key], sub)
            elif "default" in sub:
                out[key] = json.loads(json.dumps(sub["default"]))
            elif _has_defaults(sub):
                out[key] = _complete({}, sub)
            else:
                out[key] = None
        return out
    if isinstance(value, (list, tuple)):
        items = _resolved(node).get("items")
        return [_complete(v, items) for v in value] if isinstance(items, Mapping) else value
    return value


def every_rule(rules: Mapping) -> dict:
    """``rules`` with every rule of the schema present (a new dict): what the compiled rules hold.
    A rule the file leaves out because no deal can use it gets its neutral value (``unused_left_out``),
    an optional one its schema default, any other None."""
    return _complete(with_unused_filled(rules), _schema()["$defs"]["rules"])


def _filled_groups(rules: Mapping, by_group: dict) -> dict:
    """``rules`` with ``by_group``'s values filled into the groups it has (a group it lacks stays out)."""
    out = dict(rules)
    for group, values in by_group.items():
        if isinstance(out.get(group), Mapping):
            out[group] = _filled(out[group], values)
    return out


class RuleGroup:
    """One group of rules as attributes named as in the schema; read-only."""

    _child = None  # the class of the groups inside (None: RuleGroup); the dependency guard watches reads

    def __init__(self, data: Mapping[str, Any], path: str):
        d = self.__dict__
        child = type(self)._child or RuleGroup
        for key, value in data.items():
            d[key] = _compile(value, f"{path}.{key}", child)
        d["_path"] = path

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("compiled rules are read-only")

    def __getattr__(self, name: str) -> Any:    # only reached for a name the group lacks
        raise AttributeError(f"{self.__dict__.get('_path', 'rules')} has no rule {name!r}")

    def __getitem__(self, key: str) -> Any:
        """The rule ``key`` (for a name held in a variable: ``scoring[outcome]``); KeyError naming the path
        for a name the schema lacks. There is no ``get``: every rule is present, so none has a default here."""
        if key[:1] != "_" and key in self.__dict__:
            return self.__dict__[key]
        raise KeyError(f"{self.__dict__.get('_path', 'rules')} has no rule {key!r}")

    def keys(self):
        return [k for k in self.__dict__ if not k.startswith("_")]

    def at(self, path: str) -> Any:
        """The rule at the dotted ``path`` below this group (``c.at("scoring.rounding")``), for a reader
        that holds a rule's path as text (a rules page's template); AttributeError naming the path for a
        name the schema lacks, as an attribute read would. Below an optional group the file leaves out
        (belote.placement: None), every rule reads None."""
        node: Any = self
        for key in path.split("."):
            if node is None:
                return None
            if not isinstance(node, RuleGroup):
                raise AttributeError(f"{self._path}.{path}: {key!r} is below a rule, not a group")
            node = getattr(node, key)
        return node

    def __repr__(self) -> str:
        return f"RuleGroup({self._path})"


def plain(value: Any) -> Any:
    """A compiled value as plain data (a group as a dict, a list as a list): what a reader writes out
    or compares as text (``compare``'s rows)."""
    if isinstance(value, RuleGroup):
        return {k: plain(getattr(value, k)) for k in value.keys()}
    if isinstance(value, tuple):
        return [plain(v) for v in value]
    return value


def _holds(node: Any, keys: list) -> bool:
    """Whether the nested mapping ``node`` has a value at ``keys``."""
    for key in keys:
        if not isinstance(node, Mapping) or key not in node:
            return False
        node = node[key]
    return True


def _compile(value: Any, path: str, group: type = RuleGroup) -> Any:
    if isinstance(value, Mapping):
        return group(value, path)
    if isinstance(value, (list, tuple)):
        return tuple(_compile(v, f"{path}[{i}]", group) for i, v in enumerate(value))
    return value


class CompiledRules(RuleGroup):
    """The rules of one rule set, with the facts every reader needs decided once.

    ``document`` is the plain ``rules`` dict it was built from (never changed);
    ``phase(key, build)`` keeps whatever a reader derives from these rules.
    """

    def __init__(self, document: dict):
        super().__init__(every_rule(document), "rules")
        d = self.__dict__
        d["document"] = document
        d["_phases"] = {}
        d["_compiled"] = self          # what a Rules keeps too, so ``rules._compiled`` reads either
        a = self.auction
        # the strains that may be bid, in the fixed order S H D C TA SA
        d["strains"] = tuple(s for s in STRAINS if s in SUITS
                             or (s == "TA" and a.strains.tout_atout) or (s == "SA" and a.strains.sans_atout))
        d["capot_or_generale"] = bool(a.capot.allowed or a.generale.allowed)
        # a capot bid may be overcalled by a capot in a higher strain (capot_over_capot_matters)
        d["capot_over_capot"] = (a.capot.overcall_by_capot == "higher_strain" and bool(a.capot.allowed)
                                 and not a.capot.ends_auction)
        d["coinche_possible"] = bool(a.coinche.allowed)
        # a coinche that ends the auction leaves the takers no turn to surcoinche (unless it comes after it)
        d["coinche_ends_auction"] = a.coinche.effect == "ends_auction" and a.coinche.when != "after_auction"
        d["surcoinche_possible"] = (bool(a.surcoinche.allowed) and not self.coinche_ends_auction
                                    and self.coinche_possible)
        multipliers = {1: "not doubled"}
        if self.coinche_possible:
            multipliers[a.coinche.multiplier] = "coinched"
            if a.surcoinche.allowed:
                multipliers.setdefault(a.surcoinche.multiplier, "surcoinched")
        d["multipliers"] = multipliers
        # scoring.bid_scored_as (optional): numeric bid -> the value the awards count for it
        d["bid_scores"] = {pair.bid: pair.scores for pair in (self.scoring.bid_scored_as or ())}

    def phase(self, key, build):
        """What ``build(self)`` derives from these rules, built once per compiled rule set."""
        hit = self._phases.get(key)
        if hit is None:
            hit = self._phases[key] = build(self)
        return hit

    def left_out(self, path: str) -> str | None:
        """How the file gave the rule at the dotted ``path``: None when it wrote it; else what these
        rules hold in its place: ``"unused"`` (a rule no deal of the rule set can use, read as its
        neutral value: ``unused_left_out``), ``"default"`` (an optional rule, read as its schema
        default) or ``"none"`` (no value of its own: None). The one question a page asks of what a
        file wrote rather than of what it plays (a cell marked "left out", a folded rule)."""
        keys = path.split(".")
        if _holds(self.document, keys):
            return None
        for fill, how in ((unused_left_out(self.document), "unused"), (left_out_defaults(), "default")):
            if _holds(fill, keys):
                return how
        return "none"

    def strain_allowed(self, strain: str) -> bool:
        return strain in self.strains

    def numeric_bids(self, ceiling: int) -> tuple:
        """The numeric bids, lowest first: the ladder if the rule set gives one (auction.bids.ladder),
        else ``minimum`` in steps of ``step`` up to ``maximum`` (up to ``ceiling`` when there is none)."""
        b = self.auction.bids
        ladder = b.ladder
        if ladder is not None:
            return tuple(ladder)
        top = b.maximum if b.maximum is not None else max(ceiling, b.minimum)
        return tuple(range(b.minimum, top + 1, b.step))

    def scored_bid(self, value: int) -> int:
        """What the awards count for the numeric bid ``value``: itself, unless scoring.bid_scored_as
        lists it (BGA's 82 counts 80); the contract is still judged on ``value``."""
        return self.bid_scores.get(value, value)

    def bid_fault(self, value: int) -> str | None:
        """None if ``value`` is a numeric bid of this rule set, else why not (auction.bids)."""
        b = self.auction.bids
        ladder = b.ladder
        if ladder is not None:
            return None if value in ladder else f"the bids are {self.bids_in_words()}"
        if value < b.minimum:
            return f"the lowest bid is {b.minimum}"
        if (value - b.minimum) % b.step:
            return f"bids go up in steps of {b.step} from {b.minimum}"
        if b.maximum is not None and value > b.maximum:
            return f"the highest bid is {b.maximum}"
        return None

    def bids_in_words(self) -> str:
        b = self.auction.bids
        ladder = b.ladder
        if ladder is not None:
            shown = [str(v) for v in ladder]
            if len(shown) > 12:
                shown = shown[:8] + ["..."] + shown[-3:]
            return "only " + ", ".join(shown)
        top = f"up to {b.maximum}" if b.maximum is not None else "with no highest bid"
        return f"from {b.minimum} in steps of {b.step}, {top}"

    def cards_before_auction(self, packets=None) -> int:
        """How many cards each player holds while bidding, with these packet sizes (deal.packets when
        None): all 8, or those of the packets before the last deal.packets_after_auction."""
        sizes = self.deal.packets if packets is None else packets
        after = self.deal.packets_after_auction
        return sum(sizes) if not after else sum(sizes[:len(sizes) - after])

    def card_table(self, strain: str) -> tuple:
        """The value of each card 0..31 in tricks under ``strain`` (card_values)."""
        cv = self.card_values
        if strain == "TA":
            tables = (cv.tout_atout,) * 4
        elif strain == "SA":
            tables = (cv.sans_atout,) * 4
        else:
            trump = SUITS.index(strain)
            tables = tuple(cv.trump if s == trump else cv.plain for s in range(4))
        return tuple(int(tables[c >> 3][_RANKS[c & 7]]) for c in range(32))

    def card_total(self, strain: str) -> int:
        """What the 32 cards are worth in tricks, before the last-trick bonus: 152 with the usual tables."""
        return sum(self.card_table(strain))


# --- recording what a reader reads ----------------------------------------------------
#
# conformance/dependencies.py (which rules a fixture depends on) and tests/test_every_rule_is_read.py
# (every rule is read by every layer) ask the same question: which rules did this reader look at?

class _Recorder(dict):
    """The compiled rules' attributes while they are built: each fact set (``strains``,
    ``multipliers``) is given the rules read since the previous one."""

    def __init__(self, state: dict):
        super().__init__()
        self.state = state

    def __setitem__(self, key, value):
        pending = self.state["pending"]
        self.state["inputs"][key] = set(pending)
        pending.clear()
        super().__setitem__(key, value)


def recording_rules(document: dict, seen: set) -> "CompiledRules":
    """Compiled rules that write down, in ``seen``, every rule path a reader asks of them (``rules.``
    first; a compiled fact such as ``strains`` also notes the rules it was worked out from; ``.*`` for a
    group whose keys were listed, ``rules.**`` for the document read whole). Built afresh, never
    cached, so every phase a reader derives from them is derived again, and its reads noted."""
    state = {"pending": set(), "inputs": {}, "sink": None}
    state["sink"] = state["pending"]

    def note(d, name):
        path = dict.get(d, "_path")
        if path is None:
            return
        state["sink"].add(f"{path}.{name}")
        inputs = state["inputs"].get(name) if path == "rules" else None
        if inputs:
            state["sink"].update(inputs)  # a fact the compiled rules worked out from these rules
        if path == "rules" and name == "document":
            state["sink"].add("rules.**")

    class Group(RuleGroup):
        def __getattribute__(self, name):
            if name[0] != "_":
                d = object.__getattribute__(self, "__dict__")
                if name in d:
                    note(d, name)
            return object.__getattribute__(self, name)

        def __getitem__(self, key):
            note(object.__getattribute__(self, "__dict__"), key)
            return RuleGroup.__getitem__(self, key)

        def keys(self):
            note(object.__getattribute__(self, "__dict__"), "*")  # the keys themselves
            return RuleGroup.keys(self)

    Group._child = Group

    class Noted(Group, CompiledRules):
        _child = Group

    noted = Noted.__new__(Noted)
    object.__setattr__(noted, "__dict__", _Recorder(state))
    CompiledRules.__init__(noted, document)
    state["sink"] = seen
    return noted



_BY_DOCUMENT: dict = {}


def compiled_rules(rules) -> CompiledRules:
    """The compiled rules of a Rules, a Variant, a rules dict or a CompiledRules (built once per document)."""
    if type(rules) is CompiledRules:
        return rules
    hit = getattr(rules, "_compiled", None)       # a Rules keeps its compiled rules
    if hit is not None:
        return hit
    target = rules
    if not isinstance(rules, Mapping) and hasattr(rules, "rules"):
        target = rules.rules                       # a Variant
        hit = getattr(target, "_compiled", None)
        if hit is not None:
            return hit
    document = target.to_dict() if hasattr(target, "to_dict") else dict(target)
    key = json.dumps(document, sort_keys=True, default=str)
    hit = _BY_DOCUMENT.get(key)
    if hit is None:
        if len(_BY_DOCUMENT) > 256:
            _BY_DOCUMENT.clear()
        hit = _BY_DOCUMENT[key] = CompiledRules(document)
    if isinstance(target, Rules):
        object.__setattr__(target, "_compiled", hit)
    return hit
