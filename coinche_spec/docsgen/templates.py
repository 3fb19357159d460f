"""One plain sentence per rule, written from the rule's value, for a printable rules page.

A table writing down its house rules wants to read "An opponent of the
highest bidder may coinche when it is his turn to speak", not
``auction.coinche.when: in_turn``. Every leaf of the rule schema is covered
by exactly one :class:`Template` (a template may cover a few leaves that read
best as one sentence, such as a card-value table); ``uncovered`` lists the
leaves nobody has written a sentence for, so a new parameter cannot reach a
rules page silently.

A rule that cannot matter under the other rules (the tout atout values when
tout atout cannot be bid) is not hidden: the rules layer's table
(``variants.relevance``) says why it cannot matter, and the page still shows
what the rule set records.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Callable

from ..resources import variant_schema_path
from ..variants.compiled import RuleGroup, compiled_rules, plain
from ..variants.relevance import cannot_matter, term_uses

RANK_KEYS = ("J", "9", "A", "T", "K", "Q", "8", "7")          # as the schema lists them
TRUMP_ORDER = ("J", "9", "A", "T", "K", "Q", "8", "7")        # strongest first
PLAIN_ORDER = ("A", "T", "K", "Q", "J", "9", "8", "7")
RANK_WORDS = {"J": "jack", "9": "nine", "A": "ace", "T": "ten", "K": "king", "Q": "queen",
              "8": "eight", "7": "seven"}
RANK_PLURALS = {"J": "jacks", "9": "nines", "A": "aces", "T": "tens", "K": "kings", "Q": "queens",
                "8": "eights", "7": "sevens"}
STRAIN_WORDS = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs",
                "TA": "tout atout", "SA": "sans atout"}
NUMBER_WORDS = {1: "one", 2: "two", 3: "three", 4: "four"}

SECTIONS = (
    ("table", "Table and deal"),
    ("auction", "The auction"),
    ("coinche", "Coinche and surcoinche"),
    ("play", "Card play"),
    ("values", "Card values"),
    ("melds", "Melds (announcements)"),
    ("belote", "Belote"),
    ("contract", "The contract"),
    ("scoring", "Scoring a deal"),
    ("match", "The match"),
)


# --- the schema's leaves -------------------------------------------------------

def schema_leaves(schema: dict | None = None) -> list[str]:
    """Every leaf rule path of the schema, in schema order.

    An award (``$ref`` to the award definition) and a rule that is null or an
    object (``oneOf``, the capot award) are leaves: each reads as one value."""
    if schema is None:
        schema = json.loads(variant_schema_path().read_text(encoding="utf-8"))
    out: list[str] = []

    def walk(node: dict, path: str) -> None:
        props = node.get("properties")
        if "$ref" in node or "oneOf" in node or not props:
            out.append(path)
            return
        for key, child in props.items():
            walk(child, f"{path}.{key}" if path else key)

    walk(schema["$defs"]["rules"], "")
    return out


# --- reading a rule set ----------------------------------------------------------

class Ctx:
    """The compiled rules plus the few facts many sentences need (who is "next", what can be bid).

    Every value is the compiled rules' (variants.compiled), which the engine and the protocol's
    checks read too: a page never decides alone what a rule set plays, nor what a rule it leaves
    out holds (its schema default, or its neutral value where no deal can use it)."""

    def __init__(self, rules):
        self.rules = cr = compiled_rules(rules)
        a = cr.auction
        self.anticlockwise = cr.table.direction == "anticlockwise"
        self.next_side = "right" if self.anticlockwise else "left"      # the next player's side
        self.prev_side = "left" if self.anticlockwise else "right"
        self.ta = cr.strain_allowed("TA")
        self.sa = cr.strain_allowed("SA")
        self.capot = a.capot.allowed
        self.generale = a.generale.allowed
        self.capot_over_capot = cr.capot_over_capot       # capotS may beat capotH
        self.melds = cr.melds.enabled
        self.belote = cr.belote.enabled
        self.after_auction = a.coinche.when == "after_auction"
        # BGA: the coinche ends the bidding, and the takers may surcoinche before the first card
        self.window_after_coinche = a.coinche.effect == "ends_bidding_window" and not self.after_auction
        self.coinche_ends = cr.coinche_ends_auction
        self.surcoinche = cr.surcoinche_possible
        self.m_coinche = a.coinche.multiplier
        self.m_surcoinche = a.surcoinche.multiplier

    def value(self, path: str):
        """The rule at the dotted ``path``, as plain data (a template that holds its rule's path as text)."""
        return plain(self.rules.at(path))

    def left_out(self, paths) -> bool:
        """Whether the rule set left out every one of ``paths`` as a rule it cannot use
        (variants.compiled.unused_left_out: a sans atout table where sans atout cannot be bid)."""
        return all(self.rules.left_out(p) == "unused" for p in paths)

    def neighbour(self, side: str) -> str:
        """'the dealer's right-hand neighbour', with who that is in the order of play."""
        role = "the player after the dealer" if side == self.next_side else "the player before the dealer"
        return f"the dealer's {side}-hand neighbour ({role})"


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _points(rank_values: dict, order: tuple) -> str:
    return ", ".join(f"{RANK_WORDS[k]} {rank_values[k]}" for k in order)


def strain_list(strains) -> str:
    return ", ".join(sentence_for("auction.strain_order[]", STRAIN_WORDS, s) for s in strains)


def multiplier_words(c: Ctx) -> str:
    text = f"{c.m_coinche} when coinched"
    if c.surcoinche:
        text += f", {c.m_surcoinche} when surcoinched"
    return text


# --- awards in words ---------------------------------------------------------------

def _base_words(c: Ctx, award: RuleGroup) -> str:
    """The fixed amount of the ``base`` term, for a suit contract when it differs by contract."""
    base = award.base
    return str(base.suit if isinstance(base, RuleGroup) else base)


def _base_notes(c: Ctx, award: RuleGroup) -> list[str]:
    """What replaces the base amount: in sans atout or tout atout (when biddable), or after a sweep."""
    notes = []
    base = award.base
    if "base" in award.terms and isinstance(base, RuleGroup):
        for ok, key, words in ((c.sa, "sans_atout", "in sans atout"), (c.ta, "tout_atout", "in tout atout")):
            if ok and base[key] != base.suit:
                notes.append(f"{base[key]} in place of {base.suit} {words}")
    if "base" in award.terms and award.base_on_sweep is not None:
        notes.append(f"{award.base_on_sweep} in place of {_base_words(c, award)} if they took every trick")
    return notes


# award.terms: each term of an award as a player says it, from (context, award); None: a meld term
# where melds are not played
TERM_WORDS = {
    "card_points": lambda c, award: "their card points",
    "bid": lambda c, award: "the bid",
    "base": _base_words,
    "own_melds": lambda c, award: "their melds" if c.melds else None,
    "all_melds": lambda c, award: "both sides' melds" if c.melds else None,
    "sweep_bonus": lambda c, award: f"{c.rules.scoring.sweep_bonus} if they took every trick",
}


def term_words(c: Ctx, award: RuleGroup, term: str) -> str | None:
    """One term of an award as a player says it (None: a meld term where melds are not played)."""
    return sentence_for("award.terms[]", TERM_WORDS, term)(c, award)


def sentence_for(path: str, texts: dict, option):
    """The sentence (or sentence function) of ``option`` of the rule at ``path``; a clear error if none."""
    try:
        return texts[_value_key(option)]
    except KeyError:
        raise KeyError(f"rules page: no sentence for option {option!r} of rule {path} "
                       "(add one to docsgen/templates.py, see docs/rules-model.md)") from None


def award_words(c: Ctx, award: RuleGroup, multiplied: bool) -> str:
    """An award's terms joined with +, and where the multiplier M applies when it can apply."""
    pairs = [(t, term_words(c, award, t)) for t in award.terms]
    pairs = [(t, w) for t, w in pairs if w]
    if not pairs:
        return "nothing"
    words = [w for _, w in pairs]
    if not multiplied:
        text = " + ".join(words)
    else:
        text = sentence_for("award.multiplied", MULTIPLIED_WORDS, award.multiplied)(pairs, words)
    notes = _base_notes(c, award)
    if notes:
        text += ", with " + " and ".join(notes)
    return text


# award.multiplied: an award's terms in words with the multiplier M, from ((term, words) pairs, words)
MULTIPLIED_WORDS = {
    "none": lambda pairs, words: " + ".join(words) + " (not multiplied)",
    "all": lambda pairs, words: f"({' + '.join(words)}) × M" if len(words) > 1 else f"{words[0]} × M",
    "bid": lambda pairs, words: " + ".join(f"{w} × M" if t == "bid" else w for t, w in pairs),
    "base": lambda pairs, words: " + ".join(f"{w} × M" if t == "base" else w for t, w in pairs),
}


def _outcome_sentence(c: Ctx, outcome: str) -> str:
    o = c.rules.scoring[outcome]
    coinched = outcome.startswith("coinched")
    lead = {
        "made": "If the contract is made (not coinched)",
        "failed": "If the contract fails (not coinched)",
        "coinched_made": "If a coinched or surcoinched contract is made",
        "coinched_failed": "If a coinched or surcoinched contract fails",
    }[outcome]
    return (f"{lead}, the takers score {award_words(c, o.takers, coinched)}; "
            f"the defenders score {award_words(c, o.defenders, coinched)}.")


def _capot_made(c: Ctx) -> str:
    o = c.rules.scoring.capot_made
    if o is None:
        return _capot_made_plain(c)
    mult = c.rules.auction.capot.may_be_coinched
    what = {(True, True): "A capot bid or a générale", (True, False): "A capot bid",
            (False, True): "A générale"}.get((c.capot, c.generale), "A capot bid")
    text = (f"{what} that is made is scored apart: the takers score {award_words(c, o.takers, mult)}; "
            f"the defenders score {award_words(c, o.defenders, mult)}")
    if mult:
        text += " (M is 1 if it is not coinched)" if c.generale else " (M is 1 if the capot is not coinched)"
    text += "."
    if c.generale and "bid" not in o.takers.terms:
        text += (f" The générale's own value ({c.rules.auction.generale.value}) then counts only when it "
                 "fails.")
    return text


def _capot_failed(c: Ctx) -> str:
    o = c.rules.scoring.capot_failed
    what = {(True, True): "A capot bid or a générale", (True, False): "A capot bid",
            (False, True): "A générale"}.get((c.capot, c.generale), "A capot bid")
    if o is None:
        return f"{what} that fails is scored like any failed contract."
    mult = c.rules.auction.capot.may_be_coinched
    text = (f"{what} that fails is scored apart: the takers score {award_words(c, o.takers, mult)}; "
            f"the defenders score {award_words(c, o.defenders, mult)}")
    if mult:
        text += " (M is 1 if it is not coinched)"
    return text + "."


def _capot_made_plain(c: Ctx) -> str:
    value = c.rules.auction.capot.value
    if not c.capot:
        return (f"A générale that is made is scored like any made contract, the bid counting "
                f"{c.rules.auction.generale.value}.")
    text = f"A capot bid that is made is scored like any made contract, the bid counting {value}"
    if c.generale:
        text += f"; so is a made générale, the bid counting {c.rules.auction.generale.value}"
    return text + "."








def _sweep_bonus(c: Ctx) -> str:
    s = c.rules.scoring
    labels = (("made", "made"), ("coinched_made", "made under a coinche"), ("capot_made", "a made capot bid"),
              ("failed", "failed"), ("coinched_failed", "failed under a coinche"),
              ("capot_failed", "a failed capot bid"))
    when = term_uses(c.rules, "sweep_bonus")
    if not when["takers"] and not when["defenders"]:
        return f"The bonus for taking all eight tricks is {s.sweep_bonus}."
    parts = []
    for role, outcomes in when.items():
        if not outcomes:
            continue
        words = [label for outcome, label in labels if outcome in outcomes]
        if "made" in outcomes and "coinched_made" in outcomes:
            words = ["made (coinched or not)"] + [w for w in words if w not in ("made", "made under a coinche")]
        if "failed" in outcomes and "coinched_failed" in outcomes:
            words = [w for w in words if w not in ("failed", "failed under a coinche")] + ["failed (coinched or not)"]
        parts.append(f"the {role}, when the contract is " + " or ".join(words))
    return (f"A side that takes all eight tricks adds {s.sweep_bonus} to its award: "
            + "; ".join(parts) + ".")


# --- the templates -------------------------------------------------------------------

@dataclass(frozen=True)
class Template:
    """The sentence of one rule (or of a few leaves best said together)."""

    key: str
    section: str
    title: str
    paths: tuple[str, ...]
    say: Callable[[Ctx], str]
    options: dict = field(default_factory=dict)   # rule path -> {option: sentence}, for enumerated rules

    def unused(self, c: Ctx) -> str | None:
        """Why the rule cannot matter under these rules, or None: the rules layer's table
        (variants.relevance.CANNOT_MATTER), which every other reader uses too."""
        return cannot_matter(c.rules, self.paths[0])


def _table(group: str) -> tuple[str, ...]:
    return tuple(f"{group}.{k}" for k in RANK_KEYS)


def _value_key(value):
    """Booleans are written as in the rule files (true/false) in the sentence tables."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return value


def one(key, section, title, path, texts, options=None) -> Template:
    """A template for one leaf: ``texts`` maps each value to a sentence (or a function of the context).

    ``options`` gives the sentence tables of a rule whose sentence is not one per value (a list of options)."""
    def say(c: Ctx) -> str:
        t = sentence_for(path, texts, c.value(path)) if isinstance(texts, dict) else texts
        return t(c) if callable(t) else t
    return Template(key, section, title, (path,), say,
                    {path: texts} if isinstance(texts, dict) else dict(options or {}))


_PLACEMENT_WHEN = {"made": "When the contract is made (not coinched)",
                   "coinched_made": "When a coinched or surcoinched contract is made",
                   "failed": "When the contract fails (not coinched)",
                   "coinched_failed": "When a coinched or surcoinched contract fails",
                   "capot_made": "When a capot bid (or a générale) is made, coinched or not",
                   "capot_failed": "When a capot bid (or a générale) fails, coinched or not"}
_PLACEMENT_PATHS = tuple(f"belote.placement.{o}.{r}" for o, r in (
    ("made", "takers"), ("made", "defenders"), ("coinched_made", "takers"), ("coinched_made", "defenders"),
    ("failed", "defenders"), ("coinched_failed", "defenders"), ("capot_made", "takers"), ("capot_made", "defenders"),
    ("capot_failed", "takers"), ("capot_failed", "defenders")))


def _placement_sentences(path: str) -> dict:
    """belote.placement.<outcome>.<side>: one sentence per destination."""
    _, _, outcome, role = path.split(".")
    lead = f"{_PLACEMENT_WHEN[outcome]}, a belote the {role} hold"
    return {"takers": f"{lead} goes to the takers.", "defenders": f"{lead} goes to the defenders.",
            "lost": f"{lead} is scored by nobody."}


def _belote_placement(c: Ctx) -> str:
    placed = [(path, c.value(path)) for path in _PLACEMENT_PATHS]     # None: the file places it nowhere
    said = [sentence_for(path, _placement_sentences(path), where) for path, where in placed if where is not None]
    if not said:
        return ("Apart from the failing takers' belote, each belote is scored by the side that holds it, "
                "whatever the outcome and the multiplier.")
    return " ".join(said) + " Otherwise each belote is scored as said above."


_SCALE_PATHS = tuple(f"card_values.scale.{k}" for k in (
    "sans_atout.times", "sans_atout.per", "tout_atout.times", "tout_atout.per", "applies_to", "rounding", "defenders"))
_SCALE_WORDS = {
    "card_values.scale.applies_to": {
        "trick_points": "the cards in each side's tricks are rescaled, and the last trick (or sweep) added after",
        "card_points": "each side's card points, last trick included, are rescaled"},
    "card_values.scale.rounding": {"nearest_half_up": "made whole to the nearest point, a half going up",
                                   "down": "made whole by dropping the fraction"},
    "card_values.scale.defenders": {"scaled": "the defenders' points are rescaled the same way",
                                    "complement": ("the defenders get the rescaled total of both sides less the "
                                                   "takers' points")},
}


def _card_scale(c: Ctx) -> str:
    s = c.rules.card_values.scale
    if s is None:
        return "Card points are the values of the tables above, in every contract."
    ratios = [f"{words} {s[kind].times}/{s[kind].per}" for kind, words in
              (("sans_atout", "at sans atout by"), ("tout_atout", "at tout atout by")) if s[kind] is not None]
    parts = [sentence_for(f"card_values.scale.{k}", _SCALE_WORDS[f"card_values.scale.{k}"], s[k])
             for k in ("applies_to", "rounding", "defenders")]
    return (f"Card points are multiplied {' and '.join(ratios) or 'by nothing'}: {parts[0]}, {parts[1]}; "
            f"{parts[2]}.")










def _capot_bid(c: Ctx) -> str:
    if not c.capot:
        return "Capot may not be bid."
    strains = "a strain (capot hearts, capot TA)" if c.ta or c.sa else "a trump (capot hearts)"
    text = (f"A player may bid capot with {strains}: a promise that his side takes all eight "
            "tricks. Capot ranks above every numeric bid")
    if c.capot_over_capot:
        return text + ("; only a capot in a higher strain" + (" or a générale" if c.generale else "")
                       + " ranks above it (see Capot over capot).")
    if c.generale:
        return text + ("; only a générale ranks above it, and a capot in another strain does not.")
    return text + ", and nothing ranks above it, not even a capot in another strain."






def _generale(c: Ctx) -> str:
    if not c.generale:
        return "There is no générale (one player alone promising every trick)."
    capot = c.rules.auction.capot
    ends = "ends the auction at once" if capot.ends_auction else "does not end the auction"
    coinche = "may be coinched" if capot.may_be_coinched else "may not be coinched"
    above = "every capot and every numeric bid" if c.capot else "every numeric bid"
    return ("A player may bid générale with a trump (générale hearts): a promise that he alone takes all eight "
            "tricks, his partner none. It is made only then: if the partner takes a trick, it fails even "
            f"though the side took them all. A générale ranks above {above}, and nothing ranks above it, "
            f"not even a générale in another strain. As a capot would, it {ends} and {coinche}.")








# belote.counts_as: how a belote that counts towards the contract helps it
_COUNTS_AS = {
    "points": lambda c: ("The belote is added to its holder's total, so it counts too when the takers' total is "
                         "compared with the defenders'."),
    "lowered_target": lambda c: (
        f"The belote is added to no side's total: the takers' belote lowers what they must reach by "
        f"{c.rules.belote.points} (a bid of 100 needs {100 - c.rules.belote.points}), the least total too, and "
        "the totals compared with the defenders' or for a litige count no belote."),
}






def _coinche_minimum(c: Ctx) -> str:
    m = c.rules.auction.coinche.minimum_bid
    if m is None:
        return "Any numeric bid may be coinched."
    return (f"A bid below {m} may not be coinched; a bid of {m} or more may"
            + (" (a capot bid or a générale as said under the capot)." if c.capot or c.generale else "."))








# card_values.sweep.kind: what taking all eight tricks changes in the card count
SWEEP_KIND = {
    "last_trick_value": lambda c, s, total: (
        f"When one side takes all eight tricks, the last trick is worth {s.value} instead of "
        f"{c.rules.card_values.last_trick}: {total} + {s.value} = {total + s.value} in a suit contract."),
    "bonus": lambda c, s, total: (
        f"When one side takes all eight tricks, it adds {s.value} to its card points "
        f"(after the last trick's {c.rules.card_values.last_trick})."),
    "none": lambda c, s, total: (
        f"Taking all eight tricks changes nothing in the card count: the cards still make "
        f"{total + c.rules.card_values.last_trick} in a suit contract."),
}


def _sweep(c: Ctx) -> str:
    s = c.rules.card_values.sweep
    return sentence_for("card_values.sweep.kind", SWEEP_KIND, s.kind)(c, s, c.rules.card_total("S"))


def _squares(c: Ctx, table: str = "squares", lead: str = "A square (four cards of one rank) scores") -> str:
    sq = c.rules.melds[table]
    scoring = [k for k in PLAIN_ORDER if sq[k] > 0]
    none = [k for k in PLAIN_ORDER if sq[k] <= 0]
    by_value: dict[int, list[str]] = {}
    for k in scoring:
        by_value.setdefault(sq[k], []).append(k)
    parts = []
    for value in sorted(by_value, reverse=True):
        ranks = by_value[value]
        words = [RANK_PLURALS[k] for k in ranks]
        names = words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]
        parts.append(f"{value} for four {names}")
    text = f"{lead} " + "; ".join(parts) if parts else f"{lead} nothing"
    if none:
        text += "; four " + " or four ".join(RANK_PLURALS[k] for k in none) + " score nothing"
    return text + "."


def _strain_squares(kind: str, words: str):
    """melds.squares_sans_atout / squares_tout_atout: the squares of that kind of contract, or the suits' table."""
    def say(c: Ctx) -> str:
        if c.rules.melds[f"squares_{kind}"] is None:
            return f"In {words}, squares score as in a suit contract."
        return _squares(c, f"squares_{kind}", f"In {words}, a square scores")
    return say


def _runs(c: Ctx) -> str:
    runs = c.rules.melds.runs
    return (f"A run (cards in sequence in one suit) scores {runs['3']} for three cards, "
            f"{runs['4']} for four and {runs['5']} for five.")


def _packets(c: Ctx) -> str:
    p = c.rules.deal.packets
    shape = "-".join(str(x) for x in p)
    return (f"Each player receives {sum(p)} cards, dealt in packets of {shape}: each round, every player in turn "
            f"receives one packet, starting with {c.neighbour(c.next_side)}.")


def _packets_after_auction(c: Ctx) -> str:
    after = c.rules.deal.packets_after_auction
    if not after:
        return "Every card is dealt before the auction."
    n = c.rules.cards_before_auction()
    last = "packet" if after == 1 else f"{after} packets"
    return (f"The players bid on their first {n} cards: the last {last} ({8 - n} cards each) are dealt only "
            "after the auction ends with a contract, in the same order; after four passes the cards are thrown "
            "in before they are dealt.")




_DEAL_METHOD = {
    "packets": "The pack is cut, then dealt round the table in packets.",
    "uniform": lambda c: ("The deal is uniformly random: the shuffled pack is not cut and not dealt in packets; "
                          f"each player receives 8 cards at once, starting with {c.neighbour(c.next_side)}."),
}


def _deal_method(c: Ctx) -> str:
    said = sentence_for("deal.method", _DEAL_METHOD, c.rules.deal.method)
    return said(c) if callable(said) else said


def _alt_packets(c: Ctx) -> str:
    alts = c.rules.deal.alternative_packets
    if not alts:
        return "No other packet order is allowed."
    shapes = " or ".join("-".join(str(x) for x in p) for p in alts)
    return f"The dealer may deal in packets of {shapes} instead."




def _match_deals(c: Ctx) -> str:
    n = c.rules.match.deals
    if n is None:
        if c.rules.match.target is None:
            return "There is no set number of deals either: each deal stands alone."
        return "The match has no set number of deals: it is played until a side wins."
    return (f"The match lasts {n} deals at most: if no side has won by then, the higher total after deal {n} "
            "wins; equal totals are settled as said for equal totals.")


_THROW_INS_COUNT = {
    "true": "A thrown-in deal (four passes) counts as one of the deals of the match.",
    "false": "A thrown-in deal (four passes) does not count as one of the deals of the match.",
}




def _throw_ins_count(c: Ctx) -> str:
    counts = c.rules.match.throw_ins_count
    if counts and c.rules.match.tie == "deal_winner":
        return (_THROW_INS_COUNT["true"] + " If the last of them is thrown in and leaves the totals level, it has "
                "no winners to settle them: play goes on, and the next deal's winners take the match.")
    return _THROW_INS_COUNT[_value_key(counts)]


def _orders(c: Ctx) -> tuple[tuple, tuple]:
    """The trump and plain rank orders in tricks, strongest first (card_values.order, else the usual)."""
    return (tuple(c.rules.card_values.order.trump),
            tuple(c.rules.card_values.order.plain))


def _rank_letters(order) -> str:
    """An order as a table writes it: J 9 A 10 K Q 8 7."""
    return " ".join("10" if k == "T" else k for k in order)


def _a_card(rank: str) -> str:
    return ("an " if RANK_WORDS[rank][0] in "aeiou" else "a ") + RANK_WORDS[rank]


def _by_rank(c: Ctx) -> str:
    """play.trick_winner: any_suit_by_rank, said for the strains this rule set may bid."""
    trump, plain = _orders(c)
    text = ("A trick goes to the strongest card played, whatever its suit: cards are ranked by their place in "
            f"their own suit's order (strongest first: the trump suit {_rank_letters(trump)}, above every plain "
            f"card; a plain suit {_rank_letters(plain)}), and a card takes the trick only if it ranks strictly "
            f"higher than the card winning it, so {_a_card(plain[0])} discarded on {_a_card(plain[1])} led wins; "
            "of two cards of equal rank the first keeps it. "
            "\"Partner winning\" in the rules above and below means the partner's card is winning so.")
    extra = [f"in {w} every card is ranked in the {order} order, across suits"
             for ok, w, order in ((c.ta, "tout atout", "trump"), (c.sa, "sans atout", "plain")) if ok]
    return text + (" " + _capital("; ".join(extra)) + "." if extra else "")


def _go_up(c: Ctx, strain: str) -> str:
    """play.tout_atout_must_go_up / sans_atout_must_go_up true: what must be beaten, by play.trick_winner."""
    if c.rules.play.trick_winner == "any_suit_by_rank":
        return (f"In {strain}, a player following suit must beat the card winning the trick if he can, even "
                "when it is of another suit; if he cannot, any card of the led suit will do.")
    return f"In {strain}, a player following suit must beat the highest card of the led suit if he can."


def _led_suit_wins(c: Ctx) -> str:
    """play.trick_winner: led_suit (the usual trick), said for the strains this rule set may bid."""
    other = " and ".join(w for ok, w in ((c.sa, "sans atout"), (c.ta, "tout atout")) if ok)
    return ("A trick goes to the highest trump played, else to the highest card of the suit led"
            + (f" (in {other}, to the highest card of the suit led)" if other else "")
            + "; a card of another suit never wins it.")


_LED_SUIT_WINS = _led_suit_wins
_TRICK_WINNER = {
    "led_suit": _LED_SUIT_WINS,
    "any_suit_by_rank": _by_rank,
}


_FIRST_LEADER_GENERALE = {
    "first_leader": "A générale is led like any other contract.",
    "taker": "In a générale, the taker himself leads the first trick.",
}


def _first_leader_generale(c: Ctx) -> str:
    return _FIRST_LEADER_GENERALE[c.rules.play.first_leader_generale]


_GENERALE_PARTNER = {
    "plays": "In a générale the taker's partner plays every trick; if he wins one, the générale fails.",
    "sits_out": ("In a générale the taker's partner lays his hand aside and does not play: the tricks have "
                 "three cards, and his cards, belote and melds count for nobody. Where he would lead the first "
                 "trick, the next player leads."),
}


def _generale_partner(c: Ctx) -> str:
    return _GENERALE_PARTNER[c.rules.play.generale_partner]


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _ladder(c: Ctx) -> str:
    ladder = c.rules.auction.bids.ladder
    if ladder is None:
        return "Any value from the lowest in those steps may be bid, up to the highest."
    return f"Only these values may be bid, lowest first: {', '.join(map(str, ladder))}."




def _steps(c: Ctx) -> str:
    low, step = c.rules.auction.bids.minimum, c.rules.auction.bids.step
    return f"Values go up in steps of {step} ({low}, {low + step}, {low + 2 * step} ...)."


def _what_is_named(c: Ctx) -> str:
    extra = [w for ok, w in ((c.ta, "tout atout"), (c.sa, "sans atout")) if ok]
    if not extra:
        return "a trump suit"
    return "a trump suit, or " + " or ".join(extra)


def _maximum(c: Ctx) -> str:
    m = c.rules.auction.bids.maximum
    text = "There is no highest numeric bid." if m is None else f"The highest numeric bid is {m}."
    if c.capot:
        text += " A capot bid ranks above every number."
    if c.generale:
        text += " A générale ranks above " + ("every capot." if c.capot else "every number.")
    return text


def _passes_to_end(c: Ctx) -> str:
    n = c.rules.auction.passes_to_end
    extra = " (the bidder's own pass included)" if n == 4 else ""
    return (f"After a bid, {NUMBER_WORDS.get(n, n)} passes in a row{extra} end the auction: the last bid is the "
            f"contract, its bidder's side are the takers and the other side the defenders.")


def _max_rounds(c: Ctx) -> str:
    n = c.rules.auction.max_rounds
    if n is None:
        return "The auction goes round as many times as the players keep bidding."
    rounds = "one round" if n == 1 else f"{NUMBER_WORDS.get(n, n)} rounds"
    return (f"The auction lasts at most {rounds}. A round is four calls made in turn, the first round opened by "
            "the first speaker; a coinche out of turn and a skipped turn (the coincher's partner who may not "
            "speak) do not count. When the last call of the last round is made, the auction ends even without "
            "the usual passes, and the highest bid, coinched or not, is the contract.")


def _max_bids(c: Ctx) -> str:
    n = c.rules.auction.max_bids_per_player
    if n is None:
        return "A player may bid as often as the other rules let him."
    times = "once" if n == 1 else "twice" if n == 2 else f"{n} times"
    return (f"A player may bid at most {times} in an auction; after that he may only pass, coinche or "
            "surcoinche.")




_COINCHER = {"opponents_of_bidder": "An opponent of the highest bidder", "any_player": "Any player",
             "opponents_of_last_caller": "A player of the side opposite the last call"}


def _coincher(c: Ctx) -> str:
    """Who may coinche, as the subject of a sentence (auction.coinche.by)."""
    return _COINCHER[c.rules.auction.coinche.by]


def _surcoincher(c: Ctx) -> str:
    """Who may surcoinche, as the object of "then ... may surcoinche" (auction.surcoinche.by)."""
    return "any player" if c.rules.auction.surcoinche.by == "next_caller" else "either taker"


def _after_out_of_turn(c: Ctx) -> str:
    """Who speaks after a coinche said out of turn, where the auction goes on after a coinche."""
    if c.rules.auction.coinche.effect not in ("freeze_then_passes", "overbid_cancels"):
        return ""                       # the coinche ends the auction (or the bidding): nobody speaks after it
    return (" After a coinche out of turn, as after one in turn, the player after the coincher speaks next: "
            "the players between the one whose turn it was and the coincher lose that turn.")


_COINCHE_WHEN = {
    "in_turn": lambda c: f"{_coincher(c)} may coinche when it is his turn to speak.",
    "side_in_turn": lambda c: (f"{_coincher(c)} may coinche when it is his turn to speak, or his partner's "
                               "turn (the side to act may coinche)." + _after_out_of_turn(c)),
    "after_auction": lambda c: ("Nobody may coinche during the auction. Once it has ended, and before the first "
                                "card is led, "
                                + ("any player" if c.rules.auction.coinche.by == "any_player"
                                   else "either defender")
                                + f" may coinche, in any order; then {_surcoincher(c)} may surcoinche."),
    "any_moment": lambda c: (f"{_coincher(c)} may coinche at any moment while the bidding is open, "
                             "even out of turn (à la volée)."
                             + (" The last call is the last bid or pass of the auction, whoever made it."
                                if c.rules.auction.coinche.by == "opponents_of_last_caller" else "")
                             + _after_out_of_turn(c)),
}


def _passes_after(c: Ctx) -> str:
    n = c.rules.auction.coinche.passes_after
    if n == 1:
        return ("After a coinche only the next player, one of the takers, may still speak: his pass ends "
                "the auction" + (", and so does a surcoinche." if c.surcoinche else "."))
    unless = [w for ok, w in ((c.surcoinche, "the takers surcoinche"),
                              (c.rules.auction.coinche.effect == "overbid_cancels", "someone bids higher"))
              if ok]
    return (f"After a coinche, {NUMBER_WORDS.get(n, n)} passes in a row end the auction"
            + (f" (unless {' or '.join(unless)} first)." if unless else "."))


_ENDS_ON_PASSES = ("After a coinche the auction ends on a count of passes in a row, whoever makes them, not on "
                   "the taker's own pass.")


def _taker_pass_ends(c: Ctx) -> str:
    return ("After a coinche the auction ends when the player whose bid was coinched passes, at his first "
            "turn after the coinche: one to three passes, depending on where the coincher sits"
            + (" (the players in between may still surcoinche where they may)." if c.surcoinche else "."))


def _surcoinche_ends(c: Ctx) -> str:
    if c.rules.auction.surcoinche.ends_auction:
        return "A surcoinche ends the auction at once."
    if c.rules.auction.coinche.ended_by == "taker_pass":
        return "After a surcoinche, the auction ends at the taker's next pass."
    n = c.rules.auction.coinche.passes_after
    return f"After a surcoinche, {NUMBER_WORDS.get(n, n)} passes in a row end the auction."




_FIRST_LEADER = {
    "next_to_dealer": lambda c: f"{_capital(c.neighbour(c.next_side))} leads to the first trick.",
    "first_bidder": "The player who made the first bid of the auction leads to the first trick.",
    "taker": "The taker (the player who made the final bid) leads to the first trick.",
}


def _rank_order(c: Ctx) -> str:
    """card_values.order: the rank orders in tricks (left out: the usual ones)."""
    trump, plain = _orders(c)
    usual = tuple(trump) == TRUMP_ORDER and tuple(plain) == PLAIN_ORDER
    kinds = [w for ok, w in ((c.ta, "the trump order for every suit in tout atout"),
                             (c.sa, "the plain order for every suit in sans atout")) if ok]
    return (f"In tricks the cards rank, strongest first: in the trump suit {_ranks(trump)}; in the other suits "
            f"{_ranks(plain)}" + (f" ({' and '.join(kinds)})" if kinds else "")
            + (". That is the usual order." if usual else
               ". This order decides who wins a trick and which cards beat another; it changes no card's value "
               "and no meld (runs follow 7 8 9 10 J Q K A, equal squares A, 10, K, Q)."))


def _ranks(order) -> str:
    return ", ".join(RANK_WORDS[k] for k in order)


def _card_table(group: str, title: str, lead: str, order: tuple, section: str) -> Template:
    def say(c: Ctx) -> str:
        values = c.rules.card_values[group]
        total = sum(values[k] for k in RANK_KEYS)
        if group == "trump":
            sums = f"{total} in the suit"
        elif group == "plain":
            sums = f"{total} in each"
        else:
            sums = f"{total} in each suit, {4 * total} in all"
        return f"{lead}: {_points(values, order)} ({sums})."
    return Template(f"values-{group}", section, title, _table(f"card_values.{group}"), say)


_COMPARE_EQUAL = {
    "cancel": "If the two sides' best melds are still equal, neither side scores any meld.",
    "first_declared": ("If the two sides' best melds are still equal, the side whose player declared first, "
                       "in the order of play from the first leader, wins."),
}


_BELOTE_TOUT_ATOUT = {
    "none": "In tout atout there is no belote.",
    "each_suit": "In tout atout, the king and queen of any one suit in one hand make a belote.",
}


def _lowered(c: Ctx) -> bool:
    """Whether the takers' belote lowers their target (belote.counts_as lowered_target) rather than adding."""
    return bool(c.belote and c.rules.belote.counts_towards_contract and c.rules.belote.counts_as == "lowered_target")


def _contract_target(c: Ctx) -> str:
    """What the takers' total must reach: the bid, or under lowered_target the bid less their belote."""
    if _lowered(c):
        return f"the target (the bid less the takers' belote, {c.rules.belote.points}, when they hold it)"
    return "the bid"


def _minimum_total(c: Ctx) -> str:
    n = c.rules.contract.minimum_total
    low = c.rules.auction.bids.minimum
    if n <= low:
        return f"There is no other minimum: a total that reaches {_contract_target(c)} is enough."
    if _lowered(c):
        less = n - c.rules.belote.points
        return (f"The takers' total must also be at least {n}, or {less} when they hold the belote, so a bid of "
                f"{low} needs {n} ({less} with the belote).")
    return f"The takers' total must also be at least {n}, so a bid of {low} needs {n}."


def _tens(c: Ctx, usual: str) -> str:
    """How a rounding to tens treats the halfway digit, unless scoring.rounding_up_from says it per contract."""
    if c.rules.scoring.rounding_up_from is not None:
        return "rounded to the nearest 10 (from which digit it goes up: see below)"
    return usual


def _rounded(c: Ctx) -> str:
    """What scoring.rounding_stage rounds, as the subject of the rounding sentence."""
    return {"award": "Each side's award is", "before_multiplier": "Each side's award before the multiplier is",
            "card_points": "Each side's card points are", "card_points_complement": "The takers' card points are",
            }[c.rules.scoring.rounding_stage]


def _after_judging(c: Ctx) -> str:
    """When the rounding comes: after the contract is judged on the exact points, unless
    contract.judged_on rounds the totals first (then the contract is judged on those)."""
    if c.rules.contract.judged_on == "rounded_points":
        return (", and the contract itself is judged on each side's total rounded the same way "
                "(see Rounded before judging).")
    return ", only after the contract has been judged on the exact points."


_ROUNDING = {
    "none": "Scores are not rounded.",
    "nearest_10_half_up": lambda c: (f"{_rounded(c)} "
                                     + _tens(c, "rounded to the nearest 10, a 5 going up (85 becomes 90, 84 becomes 80)")
                                     + _after_judging(c)),
    "nearest_10_half_down": lambda c: (f"{_rounded(c)} "
                                       + _tens(c, "rounded to the nearest 10, a 5 going down (85 becomes 80, 86 "
                                                  "becomes 90)")
                                       + _after_judging(c)),
    "nearest_5": lambda c: (f"{_rounded(c)} rounded to the nearest 5 (97 becomes 95, 98 becomes 100)"
                            + _after_judging(c)),
}

# scoring.rounding_stage (optional; left out: award)
_ROUNDING_STAGE = {
    "award": "The rounding applies to each side's whole award, after the multiplier and the belote.",
    "before_multiplier": ("The rounding applies to the sum of each award's terms; then the multiplier applies "
                          "(to the rounded sum where it multiplies the whole award), and the belote is added "
                          "unrounded."),
    "card_points": ("Only the card points an award counts are rounded; the bid, the fixed amounts, melds, "
                    "belote and the multiplier apply to them as they are, and nothing is rounded after."),
    "card_points_complement": ("Only the takers' card points are rounded; the defenders' are the rounded total "
                               "of both sides' card points less the takers' rounded points (160 - 90 = 70 when "
                               "the cards make 162). The bid, the fixed amounts, melds, belote and the multiplier "
                               "apply to them as they are, and nothing is rounded after."),
}


# scoring.litige (optional; left out: none)
_LITIGE = {
    "none": "A level total is judged like any other, as said above.",
    "takers_points_held": ("If the takers reach the bid with a total level with the defenders', there is a "
                           "litige: the contract is not made, the defenders score as if it had been, the takers "
                           "score only their belote, and the takers' card points are held back: they go to the "
                           "side that wins the next deal (the takers if they make it, else the defenders), "
                           "together with the points of any litige in between."),
    "replay": ("If the takers reach the bid with a total level with the defenders', the deal is not scored: "
               "nobody scores anything, not even a belote, and the cards are dealt again as after four passes."),
}


def _litige(c: Ctx) -> str:
    return sentence_for("scoring.litige", _LITIGE, c.rules.scoring.litige)


# contract.judged_on (optional; left out: card_points)
_JUDGED_ON = {
    "card_points": "The contract is judged on the totals as they are, before any rounding.",
    "rounded_points": ("Each side's total is rounded as the scores are (see Rounding) before the contract is "
                       "judged, so a total a little below the bid may make it (98 rounded to 100 makes 100)."),
}


def _judged_on(c: Ctx) -> str:
    return sentence_for("contract.judged_on", _JUDGED_ON, c.rules.contract.judged_on)


_UP_FROM_PATHS = tuple(f"scoring.rounding_up_from.{k}" for k in ("suit", "sans_atout", "tout_atout"))


def _rounding_up_from(c: Ctx) -> str:
    up = c.rules.scoring.rounding_up_from
    if up is None:
        return "Rounding to tens goes up from the same digit in every contract."
    kinds = [("in a suit contract", up.suit)]
    if c.sa:
        kinds.append(("at sans atout", up.sans_atout))
    if c.ta:
        kinds.append(("at tout atout", up.tout_atout))
    said = "; ".join(f"{words}, from {n} ({10 + n} becomes 20, {9 + n} becomes 10)" for words, n in kinds)
    return f"Rounding to the nearest 10 goes up from a last digit that depends on the contract: {said}."


def _both_sides(c: Ctx) -> bool:
    return c.rules.melds.sides_scoring == "both_sides"


# match.belote_validation_deals: the deals in which a crossing through belote alone waits for a trick
_VALIDATION_DEALS = {"failed_or_no_trick": "a deal where it failed as takers or took no trick",
                     "no_trick": "a deal where it took no trick", "any_deal": "any deal"}


# melds.sides_scoring: only the better side scores its melds, or both sides theirs
_SIDES_SCORING = {
    "best_side": "Only the side with the best meld scores its melds.",
    "both_sides": ("Each side scores its own melds, as said above, whichever holds the best meld and even when "
                   "the best melds are equal."),
}


# contract.capot_by: what counts as a side taking every trick
_CAPOT_BY = {
    "tricks": "A side takes every trick (a sweep, a capot) only by taking all eight tricks.",
    "card_points": ("A side counts as taking every trick (a sweep, a capot) when it takes the last trick and the "
                    "other side's tricks are worth nothing, even if that side took tricks of sevens and eights."),
}


_BID_FACTOR_PATHS = tuple(f"scoring.bid_factor.{k}" for k in ("suit", "sans_atout", "tout_atout"))


def _bid_factor(c: Ctx) -> str:
    """scoring.bid_factor: the bid counted N times in the awards, per kind of contract."""
    factor = c.rules.scoring.bid_factor
    kinds = [("a suit contract", "suit", True), ("sans atout", "sans_atout", c.sa), ("tout atout", "tout_atout", c.ta)]
    said = [("twice" if factor[k] == 2 else f"{factor[k]} times") + f" in {words}"
            for words, k, ok in kinds if ok and factor[k] != 1]
    if not said:
        return "The bid counts once in an award, whatever the contract."
    return ("Wherever an award counts the bid, it counts it " + ", ".join(said)
            + " (before any multiplier); the contract is still judged on the bid itself.")


def _bid_scored_as(c: Ctx) -> str:
    """scoring.bid_scored_as: bids the awards count as another value."""
    pairs = c.rules.scoring.bid_scored_as or ()
    if not pairs:
        return "Wherever an award counts the bid, it counts the bid's own value."
    said = "; ".join(f"a bid of {p.bid} counts {p.scores}" for p in pairs)
    return (f"Wherever an award counts the bid, {said}; the contract is still judged on the bid itself "
            f"(a bid of {pairs[0].bid} must make {pairs[0].bid}).")


def _rounding_stage(c: Ctx) -> str:
    return sentence_for("scoring.rounding_stage", _ROUNDING_STAGE, c.rules.scoring.rounding_stage)


def _target(c: Ctx) -> str:
    if c.rules.match.target is None:
        return ("There is no match to a target: each deal is scored on its own, and no total wins"
                + (" (unless a number of deals is set: see below)." if c.rules.match.deals else "."))
    return f"The match is played to {c.rules.match.target} points."






def _exact_deals(c: Ctx) -> str:
    """Which deals match.last_deal_exact counts unrounded: those that would reach the target, the last of ``deals``."""
    crossing = "A deal whose rounded score would take a side to the target"
    if c.rules.match.deals is None:
        return crossing
    if c.rules.match.target is None:
        return "The last deal of the match"
    return crossing + ", or the last deal of the match,"


_REACH = {
    "reach": lambda c: f"A side wins as soon as its total reaches {_target_words(c)} or more at the end of a deal.",
    "exceed": lambda c: (f"A side wins only when its total is above {_target_words(c)} at the end of a deal; "
                         f"exactly {_target_words(c)} is not enough."),
}


def _target_words(c: Ctx) -> str:
    """The target as a sentence names it: its points, or "the target" when there is none (match.target null)."""
    target = c.rules.match.target
    return "the target" if target is None else str(target)


TEMPLATES: tuple[Template, ...] = (
    # --- table and deal
    one("direction", "table", "Direction of play", "table.direction", {
        "anticlockwise": "The deal, the auction and the play go anticlockwise, to the right: North, West, South, East.",
        "clockwise": "The deal, the auction and the play go clockwise, to the left: North, East, South, West.",
    }),
    one("first-dealer", "table", "First dealer", "table.first_dealer", {
        "random": "The first dealer is drawn at random.",
        "given": "The players agree who deals first.",
    }),
    one("next-dealer", "table", "Next dealer", "table.next_dealer", {
        "next_seat": lambda c: f"After each deal, the deal passes to the dealer's {c.next_side}-hand neighbour.",
    }),
    one("dealer-after-throw-in", "table", "Dealer after a throw-in", "table.dealer_after_throw_in", {
        "next_seat": "When the cards are thrown in (four passes), the deal still passes to the next player.",
        "same_dealer": "When the cards are thrown in (four passes), the same dealer deals again.",
    }),
    one("shuffle", "table", "Shuffle", "deal.shuffle", {
        "every_deal": "The dealer shuffles before every deal.",
        "never": lambda c: ("The cards are never shuffled: the tricks of the last deal are gathered up and the "
                            "pack is " + ("only cut." if c.rules.deal.cut.required else "at most cut.")),
        "dealer_choice": "The dealer may shuffle or not, as he chooses.",
        "recommended": "The dealer is advised to shuffle before each deal, but need not.",
        "never_except_listed": ("Shuffling is forbidden, except in the cases the table's written rules list; otherwise "
                                "the tricks are gathered up and the pack is only cut."),
    }),
    Template("deal-method", "table", "Dealing", ("deal.method",), _deal_method,
             {"deal.method": _DEAL_METHOD}),
    one("cut-by", "table", "Who cuts", "deal.cut.by", {
        "dealer_left": lambda c: f"The pack is cut by {c.neighbour('left')}.",
        "dealer_right": lambda c: f"The pack is cut by {c.neighbour('right')}.",
    }),
    one("cut-minimum", "table", "Size of the cut", "deal.cut.minimum_packet",
        lambda c: f"Each part of the cut must hold at least {_plural(c.rules.deal.cut.minimum_packet, 'card')}."),
    one("cut-required", "table", "Cut required", "deal.cut.required", {
        "true": "The pack must be cut.",
        "false": "The player may decline to cut (no cut).",
    }),
    Template("packets", "table", "Packets", ("deal.packets",), _packets),
    Template("alternative-packets", "table", "Other packets", ("deal.alternative_packets",), _alt_packets),
    Template("packets-after-auction", "table", "Cards dealt after the auction", ("deal.packets_after_auction",),
             _packets_after_auction),

    # --- auction
    one("first-speaker", "auction", "First to speak", "auction.first_speaker", {
        "next_to_dealer": lambda c: (f"{_capital(c.neighbour(c.next_side))} speaks first; then each player "
                                     "in turn passes or bids."),
    }),
    one("bid-minimum", "auction", "Lowest bid", "auction.bids.minimum",
        lambda c: f"A bid names a value and {_what_is_named(c)}; the lowest value is "
                  f"{c.rules.auction.bids.minimum}."),
    Template("bid-step", "auction", "Steps", ("auction.bids.step",), _steps),
    Template("bid-maximum", "auction", "Highest bid", ("auction.bids.maximum",), _maximum),
    Template("bid-ladder", "auction", "Ladder of bids", ("auction.bids.ladder",), _ladder),
    one("sans-atout-bid", "auction", "Sans atout", "auction.strains.sans_atout", {
        "true": "A player may bid sans atout (SA): no suit is trump.",
        "false": "Sans atout (no trump) may not be bid.",
    }),
    one("tout-atout-bid", "auction", "Tout atout", "auction.strains.tout_atout", {
        "true": "A player may bid tout atout (TA): every suit ranks as trump.",
        "false": "Tout atout (every suit trump) may not be bid.",
    }),
    one("overcall", "auction", "What beats a bid", "auction.overcall", {
        "higher_value": "Each bid must be higher in value than the last one; naming another trump is not enough.",
        "higher_value_or_strain": ("A bid beats the last one with a higher value, or with the same value in a "
                                   "higher strain (see the order of strains)."),
    }),
    one("strain-order", "auction", "Order of strains", "auction.strain_order",
        lambda c: f"From lowest to highest, the strains rank: {strain_list(c.rules.auction.strain_order)}.",
        options={"auction.strain_order[]": STRAIN_WORDS}),
    one("capot-bid", "auction", "Capot bid", "auction.capot.allowed", _capot_bid),
    one("capot-value", "auction", "Value of a capot bid", "auction.capot.value",
        lambda c: f"Wherever the scoring adds the bid, a capot bid counts {c.rules.auction.capot.value}."),
    one("capot-over-capot", "auction", "Capot over capot", "auction.capot.overcall_by_capot", {
        "never": "A capot bid cannot be overcalled by another capot, whatever its strain.",
        "higher_strain": lambda c: ("A capot bid may be overcalled by a capot in a higher strain (in the order of "
                                    "strains: capot spades over capot hearts when spades rank higher), not in the "
                                    "same or a lower one" + ("; a générale still ranks above every capot."
                                                             if c.generale else ".")),
    }),
    one("capot-ends", "auction", "Capot and the end of the auction", "auction.capot.ends_auction", {
        "true": lambda c: "A capot bid ends the auction at once." + (" So does a générale." if c.generale else ""),
        "false": lambda c: ("A capot bid does not end the auction: the usual passes end it."
                            + (" The same goes for a générale." if c.generale else "")),
    }),
    one("capot-coinche", "auction", "Coinching a capot", "auction.capot.may_be_coinched", {
        "true": lambda c: ("A capot contract may be coinched like any other"
                           + (", and so may a générale." if c.generale else ".")),
        "false": lambda c: ("A capot contract cannot be coinched"
                            + (", nor can a générale." if c.generale else ".")),
    }),
    one("generale", "auction", "Générale", "auction.generale.allowed", _generale),
    one("generale-value", "auction", "Value of a générale", "auction.generale.value",
        lambda c: f"Wherever the scoring adds the bid, a générale counts {c.rules.auction.generale.value}."),
    Template("passes-to-end", "auction", "End of the auction", ("auction.passes_to_end",), _passes_to_end),
    one("all-pass", "auction", "Four passes", "auction.all_pass", {
        "throw_in": "If all four players pass without a bid, the cards are thrown in and dealt again.",
        "dealer_must_bid": ("«À la vache»: when the three players before the dealer have passed without a bid, the "
                            "dealer may not pass; he must bid, any bid he likes, and the auction goes on as usual. "
                            "So the cards are never thrown in."),
    }),
    Template("max-rounds", "auction", "Rounds of bidding", ("auction.max_rounds",), _max_rounds),
    Template("max-bids", "auction", "Bids per player", ("auction.max_bids_per_player",), _max_bids),
    one("speak-after-pass", "auction", "Speaking after a pass", "auction.speak_after_pass", {
        "true": "A player who has passed may still bid later in the same auction.",
        "false": "A player who has passed may not bid again in this auction; he may only pass.",
    }),
    one("raise-own-bid", "auction", "Bidding over one's own bid", "auction.raise_own_bid", {
        "never_without_intervening_bid": "A player may not bid over his own bid unless another bid came in between.",
        "when_changing_strain": ("A player may bid over his own bid only in another strain; a capot or a "
                                 "générale names a strain too, so capot hearts over his own 80 hearts is refused "
                                 "and capot spades allowed."),
        "always": "A player may bid over his own bid.",
        "never_in_a_named_strain": ("No player may bid again in a strain he has already bid in during this auction, "
                                    "even after other bids, and a capot or a générale names its strain too; he may "
                                    "still bid in another strain."),
    }),

    # --- coinche and surcoinche
    one("coinche-allowed", "coinche", "Coinche", "auction.coinche.allowed", {
        "true": "A player may coinche (double) the highest bid, as the rules below say.",
        "false": ("Nobody may coinche (double) nor surcoinche: every contract is played as bid, and the "
                  "coinche rules below are not used."),
    }),
    one("coinche-by", "coinche", "Who may coinche", "auction.coinche.by", {
        "opponents_of_bidder": ("Only an opponent of the highest bidder may coinche (double), and a contract is "
                                "coinched only once."),
        "any_player": ("Any player may coinche (double) the highest bid, even the bidder or his partner, and a "
                       "contract is coinched only once."),
        "opponents_of_last_caller": ("A player may coinche (double) the highest bid only when the last call of the "
                                     "auction, a bid or a pass, came from the other side: after North's bid and "
                                     "East's pass, North or South may coinche North's own bid, and East and West may "
                                     "not until North or South has called. A contract is coinched only once."),
    }),
    Template("coinche-minimum", "coinche", "Lowest bid that may be coinched", ("auction.coinche.minimum_bid",),
             _coinche_minimum),
    one("coinche-when", "coinche", "When to coinche", "auction.coinche.when",
        _COINCHE_WHEN),
    one("coinche-effect", "coinche", "After a coinche", "auction.coinche.effect", {
        "freeze_then_passes": "After a coinche nobody may bid any more: the contract is frozen.",
        "ends_auction": "A coinche ends the auction at once.",
        "overbid_cancels": ("A coinche does not freeze the bidding: any player may still bid higher in turn, and "
                            "a higher bid cancels the coinche (and any surcoinche); the new bid may be coinched "
                            "again."),
        "ends_bidding_window": lambda c: ("A coinche ends the bidding at once: the coinched bid is the contract"
                                          + (f", and until the first card is led {_surcoincher(c)} may still "
                                             "surcoinche, out of turn; nobody passes or bids any more."
                                             if c.surcoinche else ".")),
    }),
    one("coinche-ended-by", "coinche", "What ends the auction after a coinche", "auction.coinche.ended_by", {
        "passes": _ENDS_ON_PASSES,
        "taker_pass": _taker_pass_ends,
    }),
    Template("coinche-passes", "coinche", "Passes after a coinche", ("auction.coinche.passes_after",),
             _passes_after),
    one("coinche-partner", "coinche", "The coincher's partner", "auction.coinche.partner_may_speak", {
        "true": "The coincher's partner speaks in his turn like anyone else.",
        "false": ("After a coinche the coincher's partner must not speak: his turn is skipped, so he neither passes "
                  "nor surcoinches, and the passes that end the auction are the other players'."),
    }),
    one("coinche-multiplier", "coinche", "Coinche multiplier", "auction.coinche.multiplier",
        lambda c: (f"A coinche multiplies by {c.m_coinche} (what is multiplied: see Scoring a deal).")),
    one("surcoinche", "coinche", "Surcoinche", "auction.surcoinche.allowed", {
        "true": lambda c: ("The takers may answer a coinche with a surcoinche (redouble)"
                           + (", either of them, before the first card." if c.after_auction or c.window_after_coinche
                              else ", in their turn.")),
        "false": "There is no surcoinche.",
    }),
    one("surcoinche-by", "coinche", "Who may surcoinche", "auction.surcoinche.by", {
        "coinched_side": "Only the takers, the side whose bid was coinched, may surcoinche.",
        "next_caller": lambda c: ("Whoever calls next after the coinche may surcoinche, whatever his side"
                                  + (" (before the first card, any player)." if c.after_auction
                                     or c.window_after_coinche else " (in his turn).")),
    }),
    Template("surcoinche-ends", "coinche", "After a surcoinche", ("auction.surcoinche.ends_auction",),
             _surcoinche_ends),
    one("surcoinche-multiplier", "coinche", "Surcoinche multiplier", "auction.surcoinche.multiplier",
        lambda c: f"A surcoinche raises the multiplier from {c.m_coinche} to {c.m_surcoinche}."),

    # --- play
    one("first-leader", "play", "First lead", "play.first_leader",
        _FIRST_LEADER),
    Template("first-leader-generale", "play", "First lead of a générale", ("play.first_leader_generale",),
             _first_leader_generale,
             {"play.first_leader_generale": _FIRST_LEADER_GENERALE}),
    Template("generale-partner", "play", "The générale's partner", ("play.generale_partner",),
             _generale_partner,
             {"play.generale_partner": _GENERALE_PARTNER}),
    one("trick-winner", "play", "Who wins a trick", "play.trick_winner", _TRICK_WINNER),
    one("trump-lead", "play", "Trump led", "play.trump_lead_must_overtrump", {
        "true": lambda c: ("When trump is led, each player must play a higher trump than the highest one in the "
                           "trick if he can"
                           + (", even over his partner." if c.rules.play.trump_lead_overtrump_partner
                              else " (over his partner's winning trump he need not: see below).")),
        "false": "When trump is led, a player must follow with a trump but need not beat the trumps already played.",
    }),
    one("trump-lead-partner", "play", "Trump led, partner winning", "play.trump_lead_overtrump_partner", {
        "true": "The duty to go up holds even when the player's partner has the highest trump of the trick.",
        "false": ("When the player's partner has the highest trump of the trick, he may follow with any trump; "
                  "he must go up only over an opponent's trump."),
    }),
    one("partner-winning", "play", "Void, partner winning", "play.void_partner_winning.may_discard", {
        "true": ("A player who cannot follow suit while his partner is winning the trick may play any card; "
                 "he need not trump."),
        "false": ("A player who cannot follow suit must trump even when his partner is winning the trick, "
                  "as if an opponent were winning."),
    }),
    one("partner-winning-trump", "play", "Trumping over a winning partner",
        "play.void_partner_winning.trump_must_overtrump", {
            "true": "If he chooses to trump anyway, he must beat the highest trump in the trick when he can.",
            "false": "If he chooses to trump anyway, any trump will do, even a lower one.",
        }),
    one("opponent-winning", "play", "Void, opponent winning", "play.void_opponent_winning.must_trump", {
        "true": "A player who cannot follow suit while an opponent is winning must trump if he holds a trump.",
        "false": "A player who cannot follow suit may play any card, even when an opponent is winning.",
    }),
    one("overtrump", "play", "Overtrumping", "play.void_opponent_winning.must_overtrump", {
        "true": "When he trumps and a trump is already in the trick, he must beat it if he can.",
        "false": "When he trumps, he need not beat a trump already in the trick.",
    }),
    one("cannot-overtrump", "play", "Unable to overtrump", "play.cannot_overtrump", {
        "must_undertrump": "If he cannot beat an opponent's trump, he must still play a lower trump (undertrump).",
        "may_discard": "If he cannot beat an opponent's trump, he may play a lower trump or any other card.",
        "must_discard": ("If he cannot beat an opponent's trump, he must keep his trumps and play a card of "
                         "another suit, if he holds one."),
    }),
    one("partner-cut", "play", "Partner has trumped, only trumps in hand", "play.partner_cut_only_trumps", {
        "free": ("If his partner has trumped and is winning, and he holds nothing but trumps, he may play any "
                 "of them, even a lower one."),
        "must_overtrump": ("If his partner has trumped and is winning, and he holds nothing but trumps, he must "
                           "beat his partner's trump if he can."),
    }),
    one("ta-go-up", "play", "Going up in tout atout", "play.tout_atout_must_go_up", {
        "true": lambda c: _go_up(c, "tout atout"),
        "false": "In tout atout, a player following suit may play any card of that suit.",
    }),
    one("sa-go-up", "play", "Going up in sans atout", "play.sans_atout_must_go_up", {
        "true": lambda c: _go_up(c, "sans atout"),
        "false": "In sans atout, a player following suit may play any card of that suit.",
    }),

    # --- card values
    Template("card-order", "values", "Order of the cards", ("card_values.order.trump", "card_values.order.plain"),
             _rank_order, options={"card_values.order.trump[]": RANK_WORDS, "card_values.order.plain[]": RANK_WORDS}),
    _card_table("trump", "Trump values", "The trump suit counts", TRUMP_ORDER, "values"),
    _card_table("plain", "Values in the other suits", "The other suits count", PLAIN_ORDER, "values"),
    _card_table("sans_atout", "Sans atout values", "In sans atout every suit counts", PLAIN_ORDER, "values"),
    _card_table("tout_atout", "Tout atout values", "In tout atout every suit counts", TRUMP_ORDER, "values"),
    one("last-trick", "values", "Last trick", "card_values.last_trick",
        lambda c: f"The side that takes the last trick adds {c.rules.card_values.last_trick} (dix de der)."),
    Template("card-scale", "values", "Sans atout and tout atout points rescaled", _SCALE_PATHS, _card_scale,
             _SCALE_WORDS),
    Template("sweep", "values", "All eight tricks", ("card_values.sweep.kind", "card_values.sweep.value"), _sweep,
             options={"card_values.sweep.kind": SWEEP_KIND}),

    # --- melds
    one("melds", "melds", "Melds", "melds.enabled", {
        "true": "Players may declare melds (announcements): squares and runs.",
        "false": lambda c: ("There are no melds (announcements) in this game"
                            + ("; only the belote is announced." if c.belote and c.rules.belote.claim != "automatic"
                               else ".")),
    }),
    Template("runs", "melds", "Runs", tuple(f"melds.runs.{n}" for n in ("3", "4", "5")), _runs),
    one("long-runs", "melds", "Longer runs", "melds.long_runs", {
        "highest_five": lambda c: (f"A run of more than five cards counts as its highest five "
                                   f"({c.rules.melds.runs['5']}); its lower cards stay free for another meld."),
        "count_as_five": lambda c: (f"A run of more than five cards counts as a run of five "
                                    f"({c.rules.melds.runs['5']}), all its cards included."),
    }),
    one("run-order", "melds", "Order for runs", "melds.run_order", {
        "AKQJT987": "Runs follow the order A K Q J 10 9 8 7 in every suit, trumps included.",
    }),
    Template("squares", "melds", "Squares", _table("melds.squares"), _squares),
    Template("squares-sans-atout", "melds", "Squares in sans atout", _table("melds.squares_sans_atout"),
             _strain_squares("sans_atout", "sans atout")),
    Template("squares-tout-atout", "melds", "Squares in tout atout", _table("melds.squares_tout_atout"),
             _strain_squares("tout_atout", "tout atout")),
    one("card-reuse", "melds", "One card, two melds", "melds.card_reuse", {
        "forbidden": "A card may serve in one meld only.",
        "allowed": "A card may serve in a square and in a run, never in two runs or two squares.",
    }),
    one("trump-ties", "melds", "Equal runs", "melds.compare.trump_breaks_ties", {
        "true": "Between runs of the same length and the same highest card, a run in trumps beats one that is not.",
        "false": "Between runs of the same length and the same highest card, trumps give no preference.",
    }),
    one("meld-ties", "melds", "Equal best melds", "melds.compare.equal",
        _COMPARE_EQUAL),
    one("winner-scores", "melds", "What the better side scores", "melds.winner_scores", {
        "all": lambda c: ("A side that scores its melds scores all its declared melds." if _both_sides(c) else
                          "Only the side with the best meld scores, and it scores all its declared melds; the other "
                          "side scores none."),
        "best": lambda c: ("A side that scores its melds scores only its best meld." if _both_sides(c) else
                           "Only the side with the best meld scores, and only that best meld; the other side scores "
                           "none."),
    }),
    Template("sides-scoring", "melds", "Which sides score their melds", ("melds.sides_scoring",),
             lambda c: sentence_for("melds.sides_scoring", _SIDES_SCORING,
                                    c.rules.melds.sides_scoring),
             {"melds.sides_scoring": _SIDES_SCORING}),
    one("sevens-cancel", "melds", "Four sevens", "melds.sevens_cancel",
        lambda c: ("A player who declares the four sevens cancels every meld of the deal: nobody scores a meld "
                   "(the belote still counts)." if c.rules.melds.sevens_cancel else
                   "Four sevens cancel nothing; they score as the squares say.")),
    one("meld-timing", "melds", "Declaring and comparing", "melds.timing", {
        "declared_with_first_card": ("Each player declares his melds as he plays his first card. After the first "
                                     "card of the second trick the sides compare their best melds: a square beats "
                                     "any run; squares go by value, then rank (A, 10, K, Q); runs by length (five "
                                     "or more counting as five), then highest card."),
    }),
    one("melds-count", "melds", "Melds and the contract", "melds.count_towards_contract", {
        "true": "Melds count towards each side's total when the contract is judged.",
        "false": "Melds do not count towards the contract; they are only added to the score.",
    }),

    # --- belote
    one("belote", "belote", "Belote", "belote.enabled", {
        "true": "A player who was dealt the king and queen of trumps has a belote.",
        "false": "There is no belote in this game.",
    }),
    one("belote-points", "belote", "Value", "belote.points",
        lambda c: f"A belote is worth {c.rules.belote.points} to its holder's side."),
    one("belote-claim", "belote", "Saying it", "belote.claim", {
        "said": ("He must say \"belote\" as he plays the first of the two cards and \"rebelote\" with the second, "
                 "or the belote is lost."),
        "automatic": "The belote is counted automatically; nothing needs to be said.",
        "said_once": ("He must say \"belote\" as he plays the first of the two cards, or the belote is lost; "
                      "nothing more is needed with the second."),
        "king_first": ("He must play the king first, saying \"belote\", then the queen, saying \"rebelote\"; "
                       "played queen first, or not said, the belote is lost."),
        "said_rebelote_forgiven_once": ("He must say \"belote\" as he plays the first of the two cards and "
                                        "\"rebelote\" with the second, or the belote is lost; but a forgotten "
                                        "\"rebelote\" is forgiven once per match to each side, the first time."),
    }),
    one("belote-in-run", "belote", "Belote and runs", "belote.in_run", {
        "allowed": "The king and queen may also sit in a declared run; the belote still counts.",
        "forbidden": "If the king and queen also sit in a run the same player declared, the belote does not count.",
    }),
    one("belote-counts", "belote", "Belote and the contract", "belote.counts_towards_contract", {
        "true": lambda c: ("The takers' belote helps them make the contract, as said below."
                           if c.rules.belote.counts_as == "lowered_target" else
                           "The belote counts towards its side's total when the contract is judged."),
        "false": "The belote does not count towards the contract; it is only added to the score.",
    }),
    Template("belote-counts-as", "belote", "Belote: points or a lower target", ("belote.counts_as",),
             lambda c: sentence_for("belote.counts_as", _COUNTS_AS, c.rules.belote.counts_as)(c),
             {"belote.counts_as": _COUNTS_AS}),
    one("belote-failure", "belote", "When the takers fail", "belote.on_failure", {
        "holder": "When the contract fails, the takers keep their belote.",
        "defenders": "When the contract fails, the takers' belote goes to the defenders.",
        "lost": "When the contract fails, the takers' belote is lost.",
    }),
    Template("belote-placement", "belote", "Whose belote, by outcome", _PLACEMENT_PATHS, _belote_placement,
             {path: _placement_sentences(path) for path in _PLACEMENT_PATHS}),
    one("belote-multiplied", "belote", "Belote under a coinche", "belote.multiplied", {
        "never": "A coinche or surcoinche never multiplies the belote.",
        "with_award": ("Under a coinche or surcoinche, the belote is multiplied with the award it joins when "
                       "that whole award is multiplied."),
    }),
    one("belote-tout-atout", "belote", "Belote in tout atout", "belote.tout_atout",
        {k: (lambda c, text=text: text + (" In sans atout there is none." if c.sa else ""))
         for k, text in _BELOTE_TOUT_ATOUT.items()}),

    # --- contract
    one("versus-defenders", "contract", "Made or failed", "contract.versus_defenders", {
        "strictly_more": lambda c: (f"The contract is made when the takers' total reaches {_contract_target(c)} "
                                    "and is higher than the defenders' total; an equal total fails."),
        "not_level": lambda c: (f"The contract is made when the takers' total reaches {_contract_target(c)} "
                                "and is not equal to the defenders' total."),
        "ignore": lambda c: (f"The contract is made when the takers' total reaches {_contract_target(c)}, "
                             "whatever the defenders take."),
        "at_least_level": lambda c: (f"The contract is made when the takers' total reaches {_contract_target(c)} "
                                     "and is at least the defenders' total; an equal total makes it."),
    }),
    Template("minimum-total", "contract", "Least total", ("contract.minimum_total",), _minimum_total),
    Template("margin", "contract", "A margin over the bid", ("contract.margin",),
             lambda c: (f"A contract needs the bid plus {c.rules.contract.margin}: a bid of 100 needs "
                        f"{100 + c.rules.contract.margin}; the score still counts the bid."
                        if c.rules.contract.margin else "A contract needs its bid, no more.")),
    Template("capot-by", "contract", "Taking every trick", ("contract.capot_by",),
             lambda c: sentence_for("contract.capot_by", _CAPOT_BY, c.rules.contract.capot_by),
             options={"contract.capot_by": _CAPOT_BY}),
    Template("judged-on", "contract", "Rounded before judging", ("contract.judged_on",), _judged_on,
             {"contract.judged_on": _JUDGED_ON}),

    # --- scoring
    Template("made", "scoring", "Contract made", ("scoring.made.takers", "scoring.made.defenders"),
             lambda c: _outcome_sentence(c, "made")),
    Template("failed", "scoring", "Contract failed", ("scoring.failed.takers", "scoring.failed.defenders"),
             lambda c: _outcome_sentence(c, "failed")),
    Template("coinched-made", "scoring", "Coinched, made",
             ("scoring.coinched_made.takers", "scoring.coinched_made.defenders"),
             lambda c: _outcome_sentence(c, "coinched_made")),
    Template("coinched-failed", "scoring", "Coinched, failed",
             ("scoring.coinched_failed.takers", "scoring.coinched_failed.defenders"),
             lambda c: _outcome_sentence(c, "coinched_failed")),
    Template("capot-made", "scoring", "Capot bid made", ("scoring.capot_made",), _capot_made),
    Template("capot-failed", "scoring", "Capot bid failed", ("scoring.capot_failed",), _capot_failed),
    Template("bid-factor", "scoring", "The bid counted several times", _BID_FACTOR_PATHS, _bid_factor),
    Template("bid-scored-as", "scoring", "A bid scored as another value", ("scoring.bid_scored_as",),
             _bid_scored_as),
    Template("sweep-bonus", "scoring", "Sweep bonus", ("scoring.sweep_bonus",), _sweep_bonus),
    one("sweep-melds", "scoring", "Melds on a sweep", "scoring.sweep_takes_melds", {
        "never": "A side that takes every trick does not receive the other side's melds.",
        "taker_sweep": "When the takers take every trick, the defenders' melds go to the takers.",
        "any_sweep": "When one side takes every trick, the other side's melds go to it.",
    }),
    Template("litige", "contract", "Level totals: litige", ("scoring.litige",), _litige,
             {"scoring.litige": _LITIGE}),
    one("rounding", "scoring", "Rounding", "scoring.rounding",
        _ROUNDING),
    Template("rounding-up-from", "scoring", "Rounding up from another digit", _UP_FROM_PATHS, _rounding_up_from),
    Template("rounding-stage", "scoring", "What is rounded", ("scoring.rounding_stage",), _rounding_stage,
             {"scoring.rounding_stage": _ROUNDING_STAGE}),

    # --- match
    Template("target", "match", "Target", ("match.target",), _target),
    one("reach", "match", "Reaching the target", "match.reach",
        _REACH),
    one("both-cross", "match", "Both sides cross in one deal", "match.both_cross", {
        "higher_total": "If both sides reach the target in the same deal, the higher total wins.",
        "deal_winner": ("If both sides reach the target in the same deal, the side that won that deal wins: "
                        "the takers if they made their contract, else the defenders."),
        "last_deal": ("If both sides reach the target in the same deal, the side that scored more in that deal "
                      "wins, whatever the totals."),
        "last_taker": ("If both sides reach the target in the same deal, that deal's takers win, whether they "
                       "made their contract or not."),
        "counting_order": ("If both sides reach the target in the same deal, the deal is counted in order from "
                           "the totals before it: first each side's belote (to the side that held it), then its "
                           "melds, then the rest; the first side to reach the target at a step wins (both at the "
                           "same step: the higher total at that step)."),
    }),
    one("tie", "match", "Equal totals", "match.tie", {
        "play_on": "If both reach it with equal totals, nobody has won yet: play goes on.",
        "deal_winner": ("If both reach it with equal totals, the side that won that deal wins: the takers if "
                        "they made their contract, else the defenders."),
        "north_south": "If both reach it with equal totals, North-South win.",
        "draw": "If both reach it with equal totals, the match is over and drawn: nobody wins.",
    }),
    Template("deals", "match", "Number of deals", ("match.deals",), _match_deals),
    Template("belote-validation-deals", "match", "Which deals the belote condition covers",
             ("match.belote_validation_deals",),
             lambda c: ("The condition on a belote covers " + _VALIDATION_DEALS[
                 c.rules.match.belote_validation_deals] + "."),
             {"match.belote_validation_deals": {k: f"The condition on a belote covers {v}."
                                                for k, v in _VALIDATION_DEALS.items()}}),
    one("last-deal-trick", "match", "A trick in the last deal", "match.last_deal_needs_a_trick",
        lambda c: ("A side that reaches the target in a deal in which it won no trick cannot win on that deal; it "
                   "wins at the end of a later deal in which it wins a trick, if it still has the target."
                   if c.rules.match.last_deal_needs_a_trick else
                   "A side may win on a deal in which it won no trick.")),
    one("last-deal-not-failed", "match", "Not down in the last deal", "match.last_deal_not_failed",
        lambda c: ("A side that failed its contract in a deal cannot win on that deal; it wins at the end of a "
                   "later deal in which it did not fail, if it still has the target."
                   if c.rules.match.last_deal_not_failed else
                   "A side may win on a deal in which it failed its contract.")),
    one("last-deal-capot-meld", "match", "No win on a capot + meld", "match.last_deal_not_capot_meld",
        lambda c: ("A side that reaches the target in a deal in which it won no trick but scored melds cannot win "
                   "on that deal; it wins at the end of a later deal, if it still has the target."
                   if c.rules.match.last_deal_not_capot_meld else
                   "A side may win on a deal in which it won no trick but scored melds.")),
    one("last-deal-exact", "match", "The last deal counted exactly", "match.last_deal_exact",
        lambda c: (_exact_deals(c) + " is counted with its exact score, unrounded: rounding cannot win the match."
                   if c.rules.match.last_deal_exact else
                   "The deal that wins the match is counted rounded, like any other.")),
    Template("throw-ins-count", "match", "Thrown-in deals", ("match.throw_ins_count",), _throw_ins_count,
             {"match.throw_ins_count": _THROW_INS_COUNT}),
    one("belote-validation", "match", "Reaching the target through belote", "match.belote_validation", {
        "true": lambda c: ("A side that reaches the target only thanks to its belote, in "
                           + _VALIDATION_DEALS[c.rules.match.belote_validation_deals]
                           + ", has not yet won: it must first win a trick in a later deal."),
        "false": lambda c: ("There is no further condition: points from a belote count like any others towards "
                            "the target." if c.belote else "There is no further condition on reaching the target."),
    }),
)

BY_KEY = {t.key: t for t in TEMPLATES}


def option_sentences() -> dict:
    """Rule path -> {option: sentence} for every enumerated rule the pages speak of (``award.`` for
    the fields of every award), so a test can find an option with no sentence."""
    out = {"award.terms[]": TERM_WORDS, "award.multiplied": MULTIPLIED_WORDS}
    for t in TEMPLATES:
        out.update(t.options)
    return out


def uncovered(leaves: list[str] | None = None) -> list[str]:
    """Schema leaves that no template speaks for (must be empty)."""
    covered = {p for t in TEMPLATES for p in t.paths}
    return [p for p in (schema_leaves() if leaves is None else leaves) if p not in covered]


def template_for(path: str) -> Template | None:
    """The template covering a rule path (a leaf, a part of a leaf, or a group holding one leaf)."""
    for t in TEMPLATES:
        for p in t.paths:
            if path == p or path.startswith(p + ".") or p.startswith(path + "."):
                return t
    return None


def covers(rule_paths, template: Template) -> bool:
    """Whether a source's or a reading's rule paths speak of one of the template's leaves."""
    for r in rule_paths:
        for p in template.paths:
            if p == r or p.startswith(r + ".") or r.startswith(p + "."):
                return True
    return False


def _bid_values(c: Ctx) -> str:
    """What "the bid" counts for a capot and a générale, in brackets (nothing when neither is played)."""
    a = c.rules.auction
    parts = []
    if c.capot:
        parts.append(f"a capot bid counts {a.capot.value}")
    if c.generale:
        value = a.generale.value
        parts.append(f"a générale {value}" if parts else f"a générale counts {value}")
    return f" ({', '.join(parts)})" if parts else ""


# --- section introductions (the fixed frame of the game, and sums worked from the values) ------

def intro(section: str, c: Ctx) -> str | None:
    """A few words before a section's rules: what no parameter changes, or a total worked out."""
    if section == "table":
        return ("Four players in two partnerships, partners facing each other (North–South against East–West), "
                "with a 32-card pack from the seven to the ace.")
    if section == "play":
        trump, plain = _orders(c)
        wins = ("The strongest card played wins the trick, whatever its suit (as said below)"
                if c.rules.play.trick_winner == "any_suit_by_rank" else
                "The highest trump wins the trick, or the highest card of the led suit if no trump was played")
        return (f"Everyone must follow the suit led when he can. {wins}; the winner leads to the next trick. "
                f"In a suit contract trumps rank {_rank_letters(trump)} and the other suits "
                f"{_rank_letters(plain)}, strongest first.")
    if section == "values":
        total = c.rules.card_total("S")
        last = c.rules.card_values.last_trick
        text = (f"In a suit contract the cards are worth {total} in all (the trump suit and three others), "
                f"{total + last} with the last trick.")
        if c.sa:
            sa = c.rules.card_total("SA")
            text += f" In sans atout they are worth {sa}, {sa + last} with the last trick."
        if c.ta:
            ta = c.rules.card_total("TA")
            text += f" In tout atout they are worth {ta}, {ta + last} with the last trick."
        return text
    if section == "contract":
        parts = ["its card points"]
        if c.melds and c.rules.melds.count_towards_contract:
            parts.append("its melds")
        if c.belote and c.rules.belote.counts_towards_contract and c.rules.belote.counts_as != "lowered_target":
            parts.append("its belote")
        total = " plus ".join(parts)
        text = f"Each side's total is {total}."
        if c.capot:
            text += " A capot bid is made only if the takers take all eight tricks."
        if c.generale:
            text += (" A générale is made only if the declarer alone takes all eight tricks; one trick taken by "
                     "his partner is enough to fail it.")
        if c.rules.scoring.rounding != "none":
            text += " The contract is always judged on the exact points, before any rounding."
        return text
    if section == "scoring":
        text = ("Each side records an award for the deal. \"The bid\" is the contract's value"
                + _bid_values(c)
                + f"; M is the multiplier: 1 if nobody coinched, {multiplier_words(c)}.")
        if c.belote:
            text += " A belote is then added to its holder's award, as the belote rules say."
        return text
    return None
