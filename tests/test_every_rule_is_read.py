"""Every rule of the schema is read by every layer that must honour it, and no layer reads a rule
the schema lacks.

A rule set reaches each layer only as compiled rules (coinche_spec/variants/compiled.py), which
hold every rule of the schema and can note what a reader asks of them (``recording_rules``, the
mechanism conformance/dependencies.py uses to find what a fixture depends on). Here every rule set
the project ships or tests with is given to

- the per-deal engine (coinche_spec/engine/): every phase it builds from a rule set, a few random
  deals played to the end, and the match rules;
- the batch engine (coinche_spec/batch/): its laid-out rules and a small batch of deals;

and what each read is compared with the schema's leaves (docsgen.templates.schema_leaves). The
failures name the leaf, the layer and the file to change, so a rule added to the schema alone, or
renamed everywhere but in one reader, fails here rather than being silently ignored.

The check of every enumerated option against the engine's tables (engine/options.py check_rules)
reads every option without playing any: it is left out, so an option counts as read only where a
phase of play reads it.
"""

from __future__ import annotations

import random
import re
from functools import lru_cache

import pytest

from coinche_spec.batch.engine import play_batch
from coinche_spec.batch.rules import BatchUnsupported, batch_rules
from coinche_spec.docsgen.templates import TEMPLATES, schema_leaves, uncovered
from coinche_spec.engine import auction, belote, dealing, melds, play, scoring
from coinche_spec.engine.errors import EngineError
from coinche_spec.engine.game import Deal
from coinche_spec.engine.match import Match, _parse_deal
from coinche_spec.engine.options import TABLES, Outside, engine_phase
from coinche_spec.engine.random_play import play_out, random_hands
from coinche_spec.variants import registry
from coinche_spec.variants.compiled import recording_rules
from coinche_spec.variants.loader import load_variant

# The compiled facts: names the compiled rules work out from several rules (variants/compiled.py
# CompiledRules), which a reader may read instead of the rules themselves. Reading one counts as
# reading the rules it comes from; the name itself is not in the schema.
COMPILED_FACTS = {
    "strains",              # the strains that may be bid (auction.strains)
    "capot_or_generale",    # a capot or a générale may be bid (auction.capot/generale.allowed)
    "capot_over_capot",     # a capot may be overcalled by a capot (auction.capot.overcall_by_capot, allowed, ends_auction)
    "coinche_possible",     # auction.coinche.allowed
    "coinche_ends_auction",  # auction.coinche.effect and when
    "surcoinche_possible",  # auction.surcoinche.allowed, and a coinche that leaves a turn for it
    "multipliers",          # the multipliers a contract may carry (coinche, surcoinche)
    "bid_scores",           # scoring.bid_scored_as as a table
    "document",             # the rules as written (pages that say what a file wrote)
}

# Leaves the per-deal engine reads that the batch engine does not, each with the reason. A batch
# plays single random deals from a uniformly shuffled pack to a random dealer: who deals, how the
# pack is cut and in what packets, and everything about a match do not arise in it.
BATCH_CANNOT_PLAY = {
    "table.first_dealer": "a batch deal has a random dealer",
    "table.next_dealer": "a batch scores single deals, never the next one",
    "table.dealer_after_throw_in": "a thrown-in batch deal is scored as thrown in, not dealt again",
    "deal.shuffle": "a batch deals a uniformly shuffled pack",
    "deal.method": "a batch deals a uniformly shuffled pack, eight cards a seat",
    "deal.cut": "a batch deals a uniformly shuffled pack, with no cut",
    "deal.alternative_packets": "a batch deals a uniformly shuffled pack, eight cards a seat",
    "match.target": "a batch scores single deals, never a match",
    "match.reach": "a batch scores single deals, never a match",
    "match.both_cross": "a batch scores single deals, never a match",
    "match.tie": "a batch scores single deals, never a match",
    "match.belote_validation": "a batch scores single deals, never a match",
    "match.belote_validation_deals": "a batch scores single deals, never a match",
    "match.last_deal_needs_a_trick": "a batch scores single deals, never a match",
    "match.last_deal_not_failed": "a batch scores single deals, never a match",
    "match.last_deal_exact": "a batch scores single deals, never a match",
    "match.last_deal_not_capot_meld": "a batch scores single deals, never a match",
    "match.deals": "a batch scores single deals, never a match",
    "match.throw_ins_count": "a batch scores single deals, never a match",
}

# Where each group of rules is played, to name the file to change.
ENGINE_FILES = {
    "table": "coinche_spec/engine/dealing.py or play.py", "deal": "coinche_spec/engine/dealing.py",
    "auction": "coinche_spec/engine/auction.py", "play": "coinche_spec/engine/play.py",
    "card_values": "coinche_spec/engine/play.py or scoring.py", "melds": "coinche_spec/engine/melds.py",
    "belote": "coinche_spec/engine/belote.py or scoring.py", "contract": "coinche_spec/engine/scoring.py",
    "scoring": "coinche_spec/engine/scoring.py", "match": "coinche_spec/engine/match.py",
}
BATCH_FILE = "coinche_spec/batch/rules.py"

LEAVES = schema_leaves()


def leaf_of(path: str, leaves=LEAVES) -> str | None:
    """The schema leaf a recorded read falls on (a read inside a leaf, an award's terms, is of the leaf);
    None for a group above leaves, or a name the schema lacks."""
    path = path.removeprefix("rules.").split("[", 1)[0]
    for suffix in (".**", ".*"):
        path = path.removesuffix(suffix)
    for leaf in leaves:
        if path == leaf or path.startswith(leaf + "."):
            return leaf
    return None


def strange_names(read: set, leaves=LEAVES) -> set:
    """The reads that are neither a rule of the schema (a leaf, inside one or a group above some)
    nor a compiled fact."""
    groups = {".".join(leaf.split(".")[:i]) for leaf in leaves for i in range(1, leaf.count(".") + 1)}
    out = set()
    for r in read:
        path = r.removeprefix("rules.").split("[", 1)[0].removesuffix(".**").removesuffix(".*")
        if path in ("", "rules") or path in COMPILED_FACTS or path in groups or leaf_of(path, leaves):
            continue
        out.add(path)
    return out


def _variants():
    return [load_variant(ident) for ident in registry.ids()]


@lru_cache(maxsize=None)
def rule_sets() -> tuple:
    """(id, rules document) of every rule set shipped or tested with."""
    return tuple((v.id, v.document["rules"]) for v in _variants())


def engine_reads(document: dict) -> set:
    """What the per-deal engine reads of ``document``: every phase it builds, three random deals played
    and scored, a deal added to a match."""
    seen: set = set()
    c = recording_rules(document, seen)
    c._phases["engine-options"] = True      # the option check reads every option without playing any
    auction._table(c)
    scoring.compiled(c)
    melds._compiled(c)
    belote.compiled(c)
    dealing._compiled(c)
    for strain in c.strains:
        play.compiled(c, strain)
    engine_phase(c, "lead", play._lead_rules)
    Match(c).add(_parse_deal(1, {"score": {"NS": 100, "EW": 62}, "takers": "NS", "made": True}))
    for seed in range(3):
        rng, dealer = random.Random(seed), "NESW"[seed]
        held: dict = {}                         # the cards each seat bids on (deal.packets_after_auction)
        try:
            deal = play_out(Deal.start(c, dealer, random_hands(c, rng, dealer, held), held), rng)
            if deal.phase == "done":
                deal.outcome()
        except EngineError:
            pass                                # a rule set the engine refuses to play: what it read counts
    return seen


def batch_reads(document: dict) -> set:
    """What the batch engine reads of ``document``: its laid-out rules and a batch of 64 deals
    (nothing if it refuses the rule set with BatchUnsupported)."""
    seen: set = set()
    c = recording_rules(document, seen)
    c._phases["engine-options"] = c._phases["batch-options"] = True   # the option checks read without playing
    try:
        batch_rules(c)
        play_batch(c, 64, seed=1)
    except BatchUnsupported:
        return set()
    return seen


def _layer_reads(read) -> dict:
    """leaf -> the ids of the rule sets under which the layer read it; also the strange names."""
    by_leaf: dict = {}
    strange: dict = {}
    for ident, document in rule_sets():
        try:
            seen = read(document)
        except (AttributeError, KeyError) as e:   # a reader asking for a rule the compiled rules lack
            stale = re.search(r"(rules[\w.]*) has no rule '([^']+)'", str(e))
            if stale is None:
                raise
            name = f"{stale.group(1)}.{stale.group(2)}".removeprefix("rules.")
            strange.setdefault(name, set()).add(ident)
            continue
        for r in seen:
            leaf = leaf_of(r)
            if leaf:
                by_leaf.setdefault(leaf, set()).add(ident)
        for name in strange_names(seen):
            strange.setdefault(name, set()).add(ident)
    return {"leaves": by_leaf, "strange": strange}


@lru_cache(maxsize=None)
def engine_layer() -> dict:
    return _layer_reads(engine_reads)


@lru_cache(maxsize=None)
def batch_layer() -> dict:
    return _layer_reads(batch_reads)


# Rules the engine knows and never reads because nothing it computes depends on them (who cuts, whether
# the pack is shuffled): their option tables in coinche_spec/engine/ give every option as Outside("why").
OUTSIDE_THE_ENGINE = {path for path, table in TABLES.items() if table and all(isinstance(v, Outside) for v in table.values())}


def unread_by_engine(leaves, read: dict) -> list[str]:
    return [f"{leaf}: no rule set makes the per-deal engine read it; play it in "
            f"{ENGINE_FILES.get(leaf.split('.')[0], 'coinche_spec/engine/')} (and give it a test rule set in "
            "conformance/rulesets/ that writes it)" for leaf in leaves
            if leaf not in read and leaf not in OUTSIDE_THE_ENGINE]


def unread_by_batch(engine: dict, batch: dict) -> list[str]:
    return [f"{leaf}: the per-deal engine reads it (under {sorted(engine[leaf])[0]}) but the batch engine does "
            f"not; play it in {BATCH_FILE}, or list it in BATCH_CANNOT_PLAY in {__name__}.py with the reason"
            for leaf in engine if leaf not in batch and leaf not in BATCH_CANNOT_PLAY
            and not any(leaf.startswith(k + ".") for k in BATCH_CANNOT_PLAY)]


def stale_names(layer: str, strange: dict, where: str) -> list[str]:
    return [f"{name} (under {sorted(ids)[0]}): the {layer} reads a rule the schema lacks; rename it in {where} "
            f"(or, for a fact the compiled rules work out, list it in COMPILED_FACTS with what it comes from)"
            for name, ids in sorted(strange.items())]


# --- the checks -------------------------------------------------------------------------

def test_the_per_deal_engine_reads_every_rule():
    # a stale name stops a layer before it reads the rest: name it first
    problems = (stale_names("per-deal engine", engine_layer()["strange"], "coinche_spec/engine/")
                + unread_by_engine(LEAVES, engine_layer()["leaves"]))
    assert not problems, "\n".join(problems)


def test_the_per_deal_engine_reads_no_rule_the_schema_lacks():
    problems = stale_names("per-deal engine", engine_layer()["strange"], "coinche_spec/engine/")
    assert not problems, "\n".join(problems)


def test_the_batch_engine_reads_every_rule_the_per_deal_engine_reads():
    problems = (stale_names("batch engine", batch_layer()["strange"], "coinche_spec/batch/")
                + unread_by_batch(engine_layer()["leaves"], batch_layer()["leaves"]))
    assert not problems, "\n".join(problems)


def test_the_batch_engine_reads_no_rule_the_schema_lacks():
    problems = stale_names("batch engine", batch_layer()["strange"], "coinche_spec/batch/")
    assert not problems, "\n".join(problems)


def test_every_rule_the_batch_cannot_play_is_a_rule():
    stale = [k for k in BATCH_CANNOT_PLAY if k not in LEAVES and not any(leaf.startswith(k + ".") for leaf in LEAVES)]
    assert not stale, f"BATCH_CANNOT_PLAY in {__name__}.py names rules the schema lacks: {stale}"


def test_every_rule_the_batch_cannot_play_is_unread_by_it():
    read = batch_layer()["leaves"]
    stale = [k for k in BATCH_CANNOT_PLAY if any(leaf == k or leaf.startswith(k + ".") for leaf in read)]
    assert not stale, "\n".join(f"{k}: the batch engine reads it (under {sorted(read[next(l for l in read if l == k or l.startswith(k + '.'))])[0]}); "
                                 f"take it out of BATCH_CANNOT_PLAY in {__name__}.py" for k in stale)


def test_every_rule_has_its_sentence():
    missing = uncovered()
    assert not missing, "\n".join(f"{leaf}: no sentence on the rules pages; add a Template for it in "
                                  "coinche_spec/docsgen/templates.py" for leaf in missing)


def test_every_sentence_speaks_of_a_rule():
    stale = [p for t in TEMPLATES for p in t.paths if p not in LEAVES]
    assert not stale, "\n".join(f"{p}: a rules-page sentence speaks of a rule the schema lacks; rename it in "
                                "coinche_spec/docsgen/templates.py" for p in stale)


# --- the checks catch what they are for (on a copy of the schema's leaves) -------------

def test_a_rule_added_to_the_schema_alone_is_named():
    leaves = LEAVES + ["scoring.capot_bonus_defenders"]
    problems = unread_by_engine(leaves, engine_layer()["leaves"])
    assert problems and problems[0].startswith("scoring.capot_bonus_defenders:")
    assert "coinche_spec/engine/scoring.py" in problems[0]


def test_a_stale_name_in_one_reader_is_named():
    # the schema and the data renamed scoring.rounding_stage to scoring.rounding_moment; one reader was not
    leaves = [("scoring.rounding_moment" if p == "scoring.rounding_stage" else p) for p in LEAVES]
    seen = {"rules.scoring.rounding_stage", "rules.scoring.rounding", "rules.strains"}
    assert strange_names(seen, leaves) == {"scoring.rounding_stage"}
    problems = stale_names("batch engine", {"scoring.rounding_stage": {"federation"}}, "coinche_spec/batch/")
    assert problems[0].startswith("scoring.rounding_stage (under federation)") and "coinche_spec/batch/" in problems[0]


def test_a_reader_that_stops_on_a_stale_name_is_named():
    """A reader left under an old name stops with the compiled rules' error; the layer's reads name it."""
    def stale_reader(document):
        from coinche_spec.variants.compiled import compiled_rules
        compiled_rules(document).scoring.rounding_moment
    said = _layer_reads(stale_reader)["strange"]
    assert set(said) == {"scoring.rounding_moment"}


def test_a_stale_name_fails_loudly_in_the_compiled_rules():
    from coinche_spec.variants.compiled import compiled_rules
    c = compiled_rules(rule_sets()[0][1])
    with pytest.raises(AttributeError, match=r"rules\.scoring has no rule 'rounding_moment'"):
        c.scoring.rounding_moment
    with pytest.raises(KeyError, match=r"rules\.scoring has no rule 'rounding_moment'"):
        c.scoring["rounding_moment"]
    assert not hasattr(c.scoring, "get")     # no read with a default: every rule is present


def test_a_batch_the_engine_does_not_read_is_named():
    engine = {"scoring.capot_bonus_defenders": {"federation"}, "match.target": {"federation"}}
    problems = unread_by_batch(engine, {})
    assert len(problems) == 1 and problems[0].startswith("scoring.capot_bonus_defenders:") and BATCH_FILE in problems[0]
