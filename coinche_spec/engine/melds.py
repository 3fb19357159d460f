"""Ordinary melds (announcements): which declarations are melds, and which side scores.

A player declares his melds with his first card; after the first card of the
second trick the two sides' best melds are compared and only the better side
scores. Everything here follows docs/rules-model.md §4 and reads the
``melds`` group of the rules: values, long runs, card reuse, tie rules and
what the winning side scores.

Cards are indices 0..31 (suit * 8 + rank, ranks 7 8 9 T J Q K A), so a run is
a set of consecutive rank indices in one suit, and the cards a player has
already put into melds are one 32-bit mask.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import combinations

from ..notation import SEATS, RANKS, card_name, next_seat, pretty_card, team_of
from .errors import EngineError
from .masks import PLAIN_RANK_ORDER, mask_of
from .options import choose, engine_phase, option_table

TEAMS = ("NS", "EW")


class MeldInputError(EngineError, ValueError):
    """A melds request that cannot be judged (not a card, an unknown seat, a missing leader)."""


@dataclass(frozen=True)
class Meld:
    """One valid meld: a square (four of a rank) or a run (a sequence in one suit).

    ``cards`` are the cards that form the meld (for a run longer than five
    under ``highest_five``, only its highest five); ``declared`` is what the
    player put down.
    """

    kind: str                   # "square" or "run"
    cards: tuple[int, ...]      # the meld's cards, highest rank first
    declared: tuple[int, ...]   # the declaration as given
    points: int
    suit: int | None            # a run's suit index (None for a square)
    rank: int                   # a square's rank index; a run's highest rank index
    length: int                 # 4 for a square; the run's length as declared

    @property
    def mask(self) -> int:
        return mask_of(self.cards)

    def describe(self) -> str:
        """How a player would name it: ``four jacks (200)``, ``run of 4 to the K♥ (50)``."""
        if self.kind == "square":
            return f"four {_RANK_PLURALS[RANKS[self.rank]]} ({self.points})"
        top = pretty_card(self.suit * 8 + self.rank)
        return f"run of {self.length} to the {top} ({self.points})"


_RANK_PLURALS = {"7": "sevens", "8": "eights", "9": "nines", "T": "tens", "J": "jacks", "Q": "queens",
                 "K": "kings", "A": "aces"}


@dataclass
class MeldResult:
    """The comparison's outcome: the side that scores, its points, the rejected declarations."""

    winner: str | None
    points: dict
    invalid: list = field(default_factory=list)   # list of declarations (lists of cards)
    valid: dict = field(default_factory=dict)     # seat -> list[Meld], in the order declared
    best: dict = field(default_factory=dict)      # team -> its best Meld (or None)
    reason: str = ""                              # why this side won, or why nobody did

    def to_json(self) -> dict:
        """The protocol's ``melds`` result (cards in canonical notation)."""
        out = {"winner": self.winner, "points": dict(self.points)}
        if self.invalid:
            out["invalid"] = [[card_name(c) for c in decl] for decl in self.invalid]
        return out


# --- the rules, read once ------------------------------------------------------

# melds.long_runs: the cards a run of more than five scores with, from its cards highest first
LONG_RUNS = option_table("melds.long_runs", {
    "highest_five": lambda by_rank: tuple(by_rank[:5]),    # the lower cards stay free for another meld
    "count_as_five": lambda by_rank: tuple(by_rank),       # the whole run, scored as five
})
# melds.run_order: the rank indices (7 8 9 T J Q K A = 0..7) that follow each other in a run
RUN_ORDER = option_table("melds.run_order", {"AKQJT987": tuple(range(8))},
                         batch={"AKQJT987": True})    # the batch's run tables are laid out in this order
# melds.card_reuse: may a card serve in a square and in a run of one player? (never in two runs or two
# squares: a run's cards are one run, and the same meld said twice is one meld)
# (the batch plays both: its players, as engine/random_play.py's, never declare one card in two melds)
CARD_REUSE = option_table("melds.card_reuse", {"forbidden": False, "allowed": True})
# melds.compare.equal: when the best melds are equal, does nobody score (True) or the first to declare?
COMPARE_EQUAL = option_table("melds.compare.equal", {"cancel": True, "first_declared": False})
# melds.winner_scores: what the better side scores, from (its valid melds, its best meld)
WINNER_SCORES = option_table("melds.winner_scores", {
    "all": lambda melds, best: sum(m.points for m in melds),
    "best": lambda melds, best: best.points,
})
# melds.sides_scoring (optional; left out: best_side): does only the side with the best meld score (False),
# or each side its own melds (True)?
SIDES_SCORING = option_table("melds.sides_scoring", {"best_side": False, "both_sides": True})
# melds.timing: with which of his cards a player declares (game.py keeps the first card's melds)
TIMING = option_table("melds.timing", {"declared_with_first_card": 1})


class MeldRules:
    """The meld rules of one rule set as plain values, with the melds already judged.

    A declaration is judged the same way every time under one rule set, so
    ``found`` keeps each declaration's Meld (or None) with its masks: most
    deals declare the same few runs and squares again and again. Names are
    the schema's; an option is kept as its table's behaviour.
    """

    __slots__ = ("rules", "enabled", "squares", "squares_by_strain", "runs", "long_runs", "run_order", "card_reuse",
                 "trump_breaks_ties", "compare_equal_cancels", "winner_scores", "both_sides", "sevens_cancel",
                 "direction", "found")

    def __init__(self, c):
        m = c.melds
        self.rules = c
        self.enabled = m.enabled
        self.squares = tuple(m.squares[RANKS[r]] for r in range(8))
        # strain -> its squares table: melds.squares_sans_atout / squares_tout_atout (optional) replace
        # melds.squares in those contracts
        self.squares_by_strain = {s: self.squares for s in ("S", "H", "D", "C")}
        for strain, kind in (("SA", "sans_atout"), ("TA", "tout_atout")):
            table = m[f"squares_{kind}"]
            self.squares_by_strain[strain] = (self.squares if table is None
                                              else tuple(table[RANKS[r]] for r in range(8)))
        self.runs = {n: m.runs[str(n)] for n in (3, 4, 5)}
        self.long_runs = choose(LONG_RUNS, m.long_runs)
        self.run_order = choose(RUN_ORDER, m.run_order)
        self.card_reuse = choose(CARD_REUSE, m.card_reuse)
        self.trump_breaks_ties = m.compare.trump_breaks_ties
        self.compare_equal_cancels = choose(COMPARE_EQUAL, m.compare.equal)
        self.winner_scores = choose(WINNER_SCORES, m.winner_scores)
        self.both_sides = choose(SIDES_SCORING, m.sides_scoring)
        self.sevens_cancel = bool(m.sevens_cancel)     # optional: four sevens annul every meld
        choose(TIMING, m.timing)
        self.direction = c.table.direction
        # declaration (tuple of cards, after its strain where that strain has squares of its own)
        # -> (Meld or None, declaration mask, meld mask)
        self.found: dict = {}


def _compiled(rules) -> MeldRules:
    return engine_phase(rules, "melds", MeldRules)


# --- one declaration ---------------------------------------------------------

def _check_cards(cards) -> list[int]:
    if not isinstance(cards, (list, tuple)):
        raise MeldInputError(f"bad meld {cards!r}: expected a list of cards")
    for c in cards:
        if isinstance(c, bool) or not isinstance(c, int) or not 0 <= c <= 31:
            raise MeldInputError(f"bad meld {list(cards)!r}: {c!r} is not a card index 0..31")
    return list(cards)


def evaluate(rules, strain: str, cards) -> Meld | None:
    """The meld these cards make under the variant, or None when they make none.

    A square is four cards of one rank whose square value is above 0 (sevens and
    eights usually score nothing, so they are no meld). A run is three or more
    cards of one suit in A K Q J 10 9 8 7 order. ``strain`` chooses the squares
    table (melds.squares_sans_atout and squares_tout_atout, where given).
    """
    mr = _compiled(rules)
    if strain not in mr.squares_by_strain:
        raise MeldInputError(f"bad strain {strain!r}: expected S, H, D, C, TA or SA")
    return _judged(mr, _check_cards(cards), strain)[0]


def _judged(mr: MeldRules, cards: list[int], strain: str) -> tuple:
    """(Meld or None, mask of the declared cards, mask of the meld's cards) for checked cards."""
    squares = mr.squares_by_strain[strain]
    key = tuple(cards) if squares is mr.squares else (strain,) + tuple(cards)   # a table of its own: apart
    hit = mr.found.get(key)
    if hit is None:
        meld = _evaluate(mr, cards, squares)
        hit = (meld, mask_of(cards), meld.mask if meld is not None else 0)
        if len(mr.found) > 4096:
            mr.found.clear()
        mr.found[key] = hit
    return hit


def _evaluate(mr: MeldRules, cards: list[int], squares: tuple) -> Meld | None:
    if not mr.enabled or len(cards) < 3 or len(set(cards)) != len(cards):
        return None
    declared = tuple(cards)
    ranks = {c & 7 for c in cards}
    suits = {c >> 3 for c in cards}
    if len(cards) == 4 and len(ranks) == 1:
        rank = cards[0] & 7
        value = squares[rank]
        if value <= 0:
            return None
        ordered = tuple(sorted(cards))
        return Meld("square", ordered, declared, value, None, rank, 4)
    if len(suits) != 1:
        return None
    order = mr.run_order
    by_rank = sorted(cards, key=lambda c: order[c & 7], reverse=True)   # highest first
    top, bottom = order[by_rank[0] & 7], order[by_rank[-1] & 7]
    if top - bottom + 1 != len(cards):          # distinct ranks, so this means consecutive
        return None
    top = by_rank[0] & 7
    length = len(cards)
    if length <= 5:
        return Meld("run", tuple(by_rank), declared, mr.runs[length], by_rank[0] >> 3, top, length)
    meld_cards = mr.long_runs(by_rank)
    return Meld("run", meld_cards, declared, mr.runs[5], by_rank[0] >> 3, top, length)


# --- what hands can declare ---------------------------------------------------------

def candidates(rules, strain: str) -> tuple:
    """Every single meld of the rule set in ``strain``: (cards, points), squares then runs."""
    def build(c):
        out = []
        for rank in range(8):                                   # squares
            cards = tuple(s * 8 + rank for s in range(4))
            meld = evaluate(c, strain, list(cards))
            if meld is not None:
                out.append((cards, meld.points))
        for suit in range(4):                                   # runs
            for length in range(3, 9):
                for low in range(0, 9 - length):
                    cards = tuple(suit * 8 + r for r in range(low + length - 1, low - 1, -1))
                    meld = evaluate(c, strain, list(cards))
                    if meld is not None:
                        out.append((cards, meld.points))
        return tuple(out)
    return engine_phase(rules, ("meld-candidates", strain), build)


def hand_declarations(rules, strain: str) -> dict:
    """What one player can declare in ``strain``, by its sum: every one to three melds that fit in a hand
    of 8, no card in two runs or two squares (nor in a square and a run, unless melds.card_reuse lets
    it). No hand declares more: two squares fill it and leave no run; a square and runs spend at least
    two cards of their own a run; runs alone, three cards each."""
    def build(c):
        apart = bool(_compiled(c).card_reuse)      # a card in a square and a run
        found = candidates(c, strain)
        by_points: dict = {}
        for n in (1, 2, 3):
            for combo in combinations(found, n):
                cards = [set(m) for m, _ in combo]
                if len(set().union(*cards)) > 8:
                    continue
                kinds = ["square" if len({x & 7 for x in m}) == 1 and len(m) == 4 else "run" for m, _ in combo]
                clash = any(cards[i] & cards[j] and (not apart or kinds[i] == kinds[j])
                            for i in range(n) for j in range(i + 1, n))
                if not clash:
                    by_points.setdefault(sum(p for _, p in combo), []).append(tuple(m for m, _ in combo))
        return by_points
    return engine_phase(rules, ("hand-declarations", strain), build)


def side_totals(rules, strain: str) -> frozenset:
    """Every total a side's two players can declare in ``strain`` between them: a sum of what each one's
    hand can declare (``hand_declarations``), with no card in both hands. What the side counts after
    the comparison is some of those melds (all, or its best), so it is one of these too."""
    def build(c):
        smallest: dict = {0: [0]}      # points -> the card masks that declare them, none holding another
        for points, declarations in hand_declarations(c, strain).items():
            masks = sorted({mask_of([x for m in d for x in m]) for d in declarations}, key=lambda m: bin(m).count("1"))
            kept: list = []
            for m in masks:
                if not any(k & m == k for k in kept):
                    kept.append(m)
            smallest[points] = kept
        totals = set()
        values = sorted(smallest)
        for i, a in enumerate(values):
            for b in values[i:]:
                if a + b not in totals and any(not x & y for x in smallest[a] for y in smallest[b]):
                    totals.add(a + b)
        return frozenset(totals)
    return engine_phase(rules, ("side-meld-totals", strain), build)


# --- comparing the sides ---------------------------------------------------------

_TRUMP_SUIT = {"S": 0, "H": 1, "D": 2, "C": 3}
_SEVENS = mask_of([s * 8 for s in range(4)])       # the four sevens (rank index 0)


def _key(meld: Meld, trump: int) -> tuple:
    """Sort key of a meld in the comparison: higher is better.

    Squares beat runs; squares go by value, then rank (A > 10 > K > Q > J > 9);
    runs by length (longer than five counts as five), then highest card, then,
    if the variant says so, a run in the trump suit beats one that is not
    (``trump`` is the trump suit's index then, else -1).
    """
    if meld.kind == "square":
        return (1, meld.points, PLAIN_RANK_ORDER[meld.rank], 0)
    return (0, min(meld.length, 5), meld.rank, 1 if meld.suit == trump else 0)


def _play_order(leader: str, direction: str) -> list[str]:
    order = [leader]
    while len(order) < 4:
        order.append(next_seat(order[-1], direction))
    return order


def compare(rules, strain: str, declared: dict, hands: dict | None = None,
            leader: str | None = None, direction: str | None = None) -> MeldResult:
    """Judge every seat's declarations and say which side's melds score.

    ``declared`` maps a seat to its declarations in the order made, each a list
    of cards. ``hands`` (seat -> original hand mask), when given, makes a
    declaration with a card the player never held invalid. ``leader`` (who
    played first to the first trick) and ``direction`` are needed only when an
    unbroken tie goes to the side that declared first.
    """
    if not isinstance(declared, dict):
        raise MeldInputError(f"bad melds: 'declared' must map seats to lists of melds, got {type(declared).__name__}")
    for seat in declared:
        if seat not in SEATS:
            raise MeldInputError(f"bad melds: unknown seat {seat!r} in 'declared' (expected N, E, S, W)")
    valid: dict[str, list[Meld]] = {s: [] for s in SEATS}
    if not any(declared.values()):   # nobody declared anything (most deals): nothing to judge
        return MeldResult(None, {"NS": 0, "EW": 0}, [], valid, {"NS": None, "EW": None},
                          "no valid meld was declared")
    mr = _compiled(rules)
    if strain not in mr.squares_by_strain:
        raise MeldInputError(f"bad strain {strain!r}: expected S, H, D, C, TA or SA")
    trump = _TRUMP_SUIT.get(strain, -1) if mr.trump_breaks_ties else -1
    invalid: list[list[int]] = []
    kinds_apart = mr.card_reuse     # allowed: a square's cards and a run's cards are counted apart
    best_seat_key: dict[str, tuple] = {}
    best: dict[str, Meld | None] = {"NS": None, "EW": None}
    best_key: dict[str, tuple | None] = {"NS": None, "EW": None}
    cancelled_by = None
    for seat in SEATS:
        decls = declared.get(seat) or []
        if not isinstance(decls, (list, tuple)):
            raise MeldInputError(f"bad melds for {seat}: expected a list of melds, got {type(decls).__name__}")
        used = {"square": 0, "run": 0}     # cards already in this player's valid squares, and runs
        held = None if hands is None else hands.get(seat, 0)
        mine = valid[seat]
        for decl in decls:
            cards = _check_cards(decl)
            meld, decl_mask, meld_mask = _judged(mr, cards, strain)
            if (mr.sevens_cancel and decl_mask == _SEVENS and len(cards) == 4
                    and (held is None or not decl_mask & ~held)):
                cancelled_by = seat      # melds.sevens_cancel: the four sevens annul every meld
                continue
            if meld is None or (held is not None and decl_mask & ~held):
                invalid.append(cards)
                continue
            taken = used[meld.kind] if kinds_apart else used["square"] | used["run"]
            if meld_mask & taken:
                invalid.append(cards)
                continue
            used[meld.kind] |= meld_mask
            mine.append(meld)
        if mine:
            # the seat's best, and its side's best (the first of equals, in seat then declaration order)
            team = team_of(seat)
            top = best_key[team]
            seat_top = None
            for mm in mine:
                k = _key(mm, trump)
                if seat_top is None or k > seat_top:
                    seat_top = k
                if top is None or k > top:
                    top = k
                    best[team], best_key[team] = mm, k
            best_seat_key[seat] = seat_top

    points = {"NS": 0, "EW": 0}
    if cancelled_by is not None:
        return MeldResult(None, points, invalid, valid, best, f"{cancelled_by} declared the four sevens: every meld "
                                                              "is cancelled")
    winner: str | None
    ns, ew = best_key["NS"], best_key["EW"]
    if ns is None and ew is None:
        return MeldResult(None, points, invalid, valid, best, "no valid meld was declared")
    if ew is None or (ns is not None and ns > ew):
        winner, reason = "NS", "NS hold the best meld"
    elif ns is None or ew > ns:
        winner, reason = "EW", "EW hold the best meld"
    elif mr.compare_equal_cancels:
        if mr.both_sides:
            return MeldResult(None, _each_side(mr, valid, best), invalid, valid, best,
                              "the best melds are equal: each side scores its own")
        return MeldResult(None, points, invalid, valid, best, "the best melds are equal: both sides' melds cancel")
    else:                                      # first_declared: first in play order among the tied holders
        if leader is None:
            raise MeldInputError("melds tie and melds.compare.equal is first_declared: "
                                 "the case must name the leader of the first trick")
        if leader not in SEATS:
            raise MeldInputError(f"bad leader {leader!r}: expected N, E, S or W")
        order = _play_order(leader, direction or mr.direction)
        first = next(s for s in order if best_seat_key.get(s) == ns)
        winner, reason = team_of(first), f"the best melds are equal: {first} declared first"

    if mr.both_sides:                          # melds.sides_scoring: each side scores its own melds
        return MeldResult(winner, _each_side(mr, valid, best), invalid, valid, best, reason + "; each side scores its own")
    points[winner] = mr.winner_scores([mm for s in SEATS if team_of(s) == winner for mm in valid[s]], best[winner])
    return MeldResult(winner, points, invalid, valid, best, reason)


def _each_side(mr: MeldRules, valid: dict, best: dict) -> dict:
    """Each side's own melds, as melds.winner_scores says (all its valid melds, or its best)."""
    return {t: (mr.winner_scores([mm for s in SEATS if team_of(s) == t for mm in valid[s]], best[t])
                if best[t] is not None else 0) for t in TEAMS}
