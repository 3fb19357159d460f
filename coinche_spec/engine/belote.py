"""Belote and rebelote: the king and queen of trump in one player's hand.

Follows docs/rules-model.md §5. The belote is judged apart from the ordinary
melds: it needs no comparison, only that one player was dealt both cards and,
where the variant says it must be said, that he said "belote" with the first
of them and "rebelote" with the second (or only "belote" with the first, or
with the king played first, or a forgotten "rebelote" forgiven once per match
to each side, as ``belote.claim`` says). There is none at sans atout; at tout
atout there is none or one per suit, as the variant says.
"""

from __future__ import annotations

from ..notation import SEATS, SUITS, team_of
from .errors import EngineError
from .options import choose, engine_phase, option_table
from .masks import RK, RQ


class BeloteInputError(EngineError, ValueError):
    """A belote request that cannot be judged (an unknown seat, a hand that is not a mask)."""


# belote.tout_atout: the suits whose king and queen make a belote at tout atout
TOUT_ATOUT = option_table("belote.tout_atout", {"none": (), "each_suit": (0, 1, 2, 3)})
FORGIVABLE = "forgivable"   # a claim that counts only if the holder's side has a forgiveness left


def _rebelote_forgotten(played) -> bool | str:
    """Said in full it counts; "belote" with the first card and no "rebelote" with the second, it
    counts once per match per side (FORGIVABLE); anything else is lost."""
    words = [w for _, w in played]
    if words == ["belote", "rebelote"]:
        return True
    return FORGIVABLE if len(played) == 2 and words[0] == "belote" else False


# belote.claim: does the holder's claim make the belote count, from his two cards in the order played,
# each as (is it the king?, the word said with it); FORGIVABLE: only if his side may still be forgiven
CLAIM = option_table("belote.claim", {
    "said": lambda played: [w for _, w in played] == ["belote", "rebelote"],
    "automatic": lambda played: True,
    "said_once": lambda played: len(played) == 2 and played[0][1] == "belote",
    "king_first": lambda played: [w for _, w in played] == ["belote", "rebelote"] and played[0][0],
    "said_rebelote_forgiven_once": _rebelote_forgotten,
}, batch={   # the batch's players say both words in order: does only a king played first count?
    "said": False, "automatic": False, "said_once": False, "king_first": True,
    "said_rebelote_forgiven_once": False})
# belote.in_run: may the king and queen also score inside one of the holder's runs?
IN_RUN = option_table("belote.in_run", {"allowed": True, "forbidden": False})


class BeloteRules:
    """The belote rules of one rule set (names as in ``belote``), options as their table's behaviour."""

    __slots__ = ("suits", "claim", "in_run", "points")

    def __init__(self, c):
        b = c.belote
        ta = choose(TOUT_ATOUT, b.tout_atout)
        # strain -> the suits whose king and queen make a belote (none at sans atout, nor where it is not played)
        self.suits = {s: ((SUITS.index(s),) if s in SUITS else ta if s == "TA" else ()) if b.enabled else ()
                      for s in SUITS + ("TA", "SA")}
        self.claim = choose(CLAIM, b.claim)
        self.in_run = choose(IN_RUN, b.in_run)
        self.points = b.points


def compiled(rules) -> BeloteRules:
    """The BeloteRules of ``rules`` (Rules, Variant or compiled rules), built once per rule set."""
    return engine_phase(rules, "belote", BeloteRules)


def belote_suits(rules, strain: str) -> list[int]:
    """The suits whose king and queen make a belote in this contract."""
    return list(compiled(rules).suits.get(strain, ()))


def _said(word) -> str:
    return word.strip().lower() if isinstance(word, str) else ""


def belotes(rules, strain: str, original_hands: dict, plays, valid_melds: dict | None = None,
            forgiven=()) -> list[tuple[str, int]]:
    """Every belote that counts, as (seat, suit index), in seat order N E S W.

    ``plays`` is the card play so far as (seat, card, say) in order; it only
    matters when the belote must be said. ``valid_melds`` (seat -> melds) is
    needed when the variant forbids the two cards to sit in one of the
    player's own runs. ``forgiven``: the sides already forgiven a forgotten
    «rebelote» earlier in the match (belote.claim said_rebelote_forgiven_once).
    """
    return [(seat, suit) for seat, suit, _ in _judged(rules, strain, original_hands, plays, valid_melds, forgiven)]


def rebelotes_forgiven(rules, strain: str, original_hands: dict, plays, valid_melds: dict | None = None,
                       forgiven=()) -> list[str]:
    """The sides whose forgotten «rebelote» is forgiven in this deal (their one forgiveness of the match)."""
    return [team_of(seat) for seat, _, now in _judged(rules, strain, original_hands, plays, valid_melds, forgiven)
            if now]


def _judged(rules, strain, original_hands, plays, valid_melds, forgiven) -> list[tuple[str, int, bool]]:
    """(seat, suit, forgiven in this deal) for every belote that counts."""
    br = compiled(rules)
    suits = br.suits.get(strain, ())
    if not suits:
        return []
    claim_counts, in_run = br.claim, br.in_run
    plays = list(plays or [])
    spent = set(forgiven or ())
    out = []
    for seat in SEATS:
        hand = original_hands.get(seat, 0) if isinstance(original_hands, dict) else None
        if isinstance(hand, bool) or not isinstance(hand, int):
            raise BeloteInputError(f"bad hands for belote: {seat}'s hand must be a card mask, got {hand!r}")
        for suit in suits:
            king, queen = suit * 8 + RK, suit * 8 + RQ
            pair = (1 << king) | (1 << queen)
            if hand & pair != pair:
                continue
            if not in_run and valid_melds:
                if any(m.kind == "run" and m.mask & pair == pair for m in valid_melds.get(seat, [])):
                    continue            # the two cards already score inside one of his runs
            played = [(card == king, _said(say)) for s, card, say in plays if s == seat and card in (king, queen)]
            counts = claim_counts(played)
            if counts == FORGIVABLE:    # «rebelote» forgotten: forgiven once per match per side
                if team_of(seat) in spent:
                    continue
                spent.add(team_of(seat))
                out.append((seat, suit, True))
                continue
            if not counts:
                continue                # not said as the rule set wants, or the second card is still to come
            out.append((seat, suit, False))
    return out


def belote_points(rules, strain: str, original_hands: dict, plays, valid_melds: dict | None = None,
                  forgiven=()) -> dict:
    """What each side's belotes are worth before the contract is judged: {"NS": .., "EW": ..}."""
    points = {"NS": 0, "EW": 0}
    for seat, _suit in belotes(rules, strain, original_hands, plays, valid_melds, forgiven):
        points[team_of(seat)] += compiled(rules).points
    return points
