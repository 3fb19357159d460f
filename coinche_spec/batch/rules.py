"""The rules of one rule set as numpy constants for the batch engine.

The batch engine reads the same compiled rules object as the per-deal engine
(``variants.compiled.compiled_rules``) and lays every rule out once, as
arrays or plain values: the bid ladder, the beat and card-value tables of
each strain, the meld tables of every 8-card suit holding, the awards of
each outcome. Each enumerated rule's engine table (``engine/options.py``)
gives the batch form of every option beside the per-deal one (or says the
batch shares the per-deal entry); anything else is refused with
:class:`BatchUnsupported`, naming the rule, so a batch never silently plays
another rule.
"""

from __future__ import annotations

import numpy as np

from ..engine.auction import COINCHE_ENDED_BY, _table as auction_table
from ..engine.errors import Unsupported
from ..engine.masks import PLAIN_RANK_ORDER, SUIT_MASKS
from ..engine.belote import CLAIM
from ..engine.melds import CARD_REUSE, RUN_ORDER, TIMING
from ..engine.options import SHARED, choose, engine_phase, rule_options
from ..engine.play import GENERALE_PARTNER, TRICK_WINNER, beat_table, rank_orders
from ..engine.scoring import (BELOTE_COUNTS_AS, BELOTE_ON_FAILURE, BELOTE_PLACEMENT, BELOTE_PLACEMENT_RULES,
                              JUDGED_ON, LITIGE, ROUNDING, ROUNDING_STAGE, SCALE_APPLIES_TO, SCALE_DEFENDERS,
                              SCALE_ROUNDING, SWEEP_KIND, VERSUS_DEFENDERS)
from ..notation import RANKS
from ..variants.compiled import STRAINS, compiled_rules

__all__ = ["BatchUnsupported", "BatchRules", "batch_rules", "batch_form"]


class BatchUnsupported(Unsupported):
    """A rule (or an option of one) that the batch engine does not play."""


# Rules that are not enumerated, added after the batch engine: (path, the setting it plays, why refused).
# A rule set that leaves one out, or gives it the setting named, plays as before. (Enumerated rules say
# which options the batch plays in their own engine table, engine/options.py: ``batch=``.)
BATCH_NOT_YET_RULES: tuple = ()


def batch_form(table, option):
    """How the batch plays ``option`` of the rule of the engine option ``table``: the batch form the
    table gives beside the per-deal one, or (SHARED) the per-deal entry itself; BatchUnsupported, naming
    the rule, for an option the batch does not play."""
    entry = table[option]                        # the per-deal engine's own refusal comes first
    if table.batch is SHARED:
        return entry
    if option not in table.batch:
        raise BatchUnsupported(f"rules.{table.path}: the batch engine does not play option {option!r} "
                               "(play the deals one by one with coinche_spec.engine)")
    return table.batch[option]


def check_batch_options(c) -> None:
    """Raise BatchUnsupported for the first enumerated rule or option the rule set uses that the
    batch engine does not play (a rule it does not know is refused only where the rule set uses it)."""
    for path, plays, what in BATCH_NOT_YET_RULES:
        node = c
        for key in path.split("."):
            node = node[key] if node is not None else None
        if node is not None and node != plays:
            raise BatchUnsupported(f"rules.{path}: the batch engine does not play {what} yet "
                                   "(play the deals one by one with coinche_spec.engine)")
    for _, table, option in rule_options(c):
        batch_form(table, option)


# strain indices: S H D C TA SA, as variants.compiled.STRAINS
_TRUMP = np.array([0, 1, 2, 3, -1, -1])
_OUTCOMES = ("made", "failed", "coinched_made", "coinched_failed", "capot_made", "capot_failed")
_KIND = {"TA": "tout_atout", "SA": "sans_atout"}


# meld comparison keys as one integer (higher is better): a square (1, points, rank order, 0),
# a run (0, length up to 5, top rank, trump) as in engine/melds.py _key
_SQUARE_KEY = 1 << 40


def _run_key(length: int, top: int) -> int:
    return (min(length, 5) << 16) | (top << 4)


class BatchRules:
    """Everything the batch engine reads from one rule set, laid out once."""

    def __init__(self, c):
        c.phase("batch-options", check_batch_options)   # once per rule set, like the engine's check_rules
        self.rules = c
        a = c.auction
        self.step = 1 if c.table.direction == "clockwise" else 3
        self._auction(c)
        p = c.play
        self.tlmo = bool(p.trump_lead_must_overtrump)
        self.tlop = bool(p.trump_lead_overtrump_partner)
        self.vpw_may_discard = bool(p.void_partner_winning.may_discard)
        self.vpw_tmo = bool(p.void_partner_winning.trump_must_overtrump)
        self.vow_must_trump = bool(p.void_opponent_winning.must_trump)
        self.vow_must_overtrump = bool(p.void_opponent_winning.must_overtrump)
        self.cannot_overtrump = p.cannot_overtrump
        self.pcot = p.partner_cut_only_trumps == "must_overtrump"
        self.first_leader = p.first_leader
        self.generale_taker_leads = p.first_leader_generale == "taker"
        # play.generale_partner: the batch plays four-card tricks only; a générale's partner who sits out
        # (three-card tricks) has no batch form and is refused
        batch_form(GENERALE_PARTNER, p.generale_partner)
        # per strain: trump mask, whether a follower must go up, beat table, card values
        self.trump_mask = np.array([SUIT_MASKS[t] if t >= 0 else 0 for t in _TRUMP], dtype=np.uint32)
        self.go_up = np.array([False] * 4 + [bool(p.tout_atout_must_go_up), bool(p.sans_atout_must_go_up)])
        # play.trick_winner: the engine's own beat tables; any_suit: a card of any suit may take a trick
        self.beat = np.array([beat_table(c, s) for s in STRAINS], dtype=np.uint32).ravel()   # strain*32 + card
        self.rank_orders = rank_orders(c)            # card_values.order: strength by rank index (trump, plain)
        self.any_suit = batch_form(TRICK_WINNER, p.trick_winner)
        self.value = np.array([c.card_table(s) for s in STRAINS], dtype=np.int32).ravel()  # strain*32 + card
        cv = c.card_values
        self.last_trick = int(cv.last_trick)
        self.sweep_extra = batch_form(SWEEP_KIND, cv.sweep.kind)(self.last_trick, int(cv.sweep.value))[0]
        self._scale(cv)
        self._melds(c)
        self._belote(c)
        self._scoring(c)

    # -- card values, contract and scoring ------------------------------------
    def _scale(self, cv):
        """card_values.scale: per strain the ratio times/per (1/1 and ``scaled`` False where none)."""
        scale = cv.scale
        ratios = [scale[_KIND[s]] if scale is not None and s in _KIND else None for s in STRAINS]
        self.scaled = np.array([r is not None for r in ratios])
        self.scale_times = np.array([r.times if r is not None else 1 for r in ratios], dtype=np.int64)
        self.scale_per = np.array([r.per if r is not None else 1 for r in ratios], dtype=np.int64)
        if scale is not None:
            # the per-deal engine's own behaviours (they work on arrays as on numbers)
            self.scale_on_tricks = choose(SCALE_APPLIES_TO, scale.applies_to)
            self.scale_round = choose(SCALE_ROUNDING, scale.rounding)
            self.scale_complement = choose(SCALE_DEFENDERS, scale.defenders)

    def _scoring(self, c):
        ct = c.contract
        self.minimum_total = int(ct.minimum_total)
        self.margin = int(ct.margin)                      # a numeric contract needs the bid + margin
        self.capot_by = ct.capot_by                # who took every trick: by tricks or points
        factor = c.scoring.bid_factor                               # the bid term counted N times per strain
        self.bid_factor = np.array([factor[_KIND.get(s, "suit")] for s in STRAINS],
                                   dtype=np.int64)
        self.versus = batch_form(VERSUS_DEFENDERS, ct.versus_defenders)
        self.judged_rounded = batch_form(JUDGED_ON, ct.judged_on)
        sc = c.scoring
        self.sweep_bonus = int(sc.sweep_bonus)
        self.sweep_takes_melds = sc.sweep_takes_melds
        # scoring.rounding as (a + add[strain]) // unit * unit; rounding_up_from moves the threshold of tens
        self.rounding = sc.rounding
        unit, add = batch_form(ROUNDING, sc.rounding)
        up_from = sc.rounding_up_from
        by_strain = [add] * 6
        if up_from is not None and unit == 10:
            by_strain = [10 - up_from[_KIND.get(s, "suit")] for s in STRAINS]
        self.round_unit, self.round_add = unit, np.array(by_strain, dtype=np.int64)
        self.rounding_stage = batch_form(ROUNDING_STAGE, sc.rounding_stage)
        self.litige = batch_form(LITIGE, sc.litige)
        self.capot_made = sc.capot_made is not None
        self.capot_failed = sc.capot_failed is not None
        self.awards = {}
        for name in _OUTCOMES:
            block = sc[name]
            if block is None:
                continue
            sides = []
            for role in ("takers", "defenders"):
                spec = block[role]
                base = spec.base
                if "base" in spec.terms and base is None:
                    raise BatchUnsupported(f"rules.scoring.{name}.{role}: lists the term 'base' but gives no base")
                if isinstance(base, int) or base is None:
                    by_strain = [base or 0] * 6
                else:
                    by_strain = [base[_KIND.get(s, "suit")] for s in STRAINS]
                sides.append((tuple(spec.terms), spec.multiplied, np.array(by_strain, dtype=np.int64),
                              spec.base_on_sweep))
            self.awards[name] = tuple(sides)

    # -- the auction -----------------------------------------------------------
    def _auction(self, c):
        t = auction_table(c)          # the per-deal engine's own bid ladder, sorted low to high
        a = c.auction
        listing = t.listing
        self.ladder = [call for _, _, call in listing]
        L = self.n_bids = len(listing)
        self.bid_value = np.array([call.value if type(call.value) is int else
                                   (a.capot.value if call.value == "capot" else a.generale.value)
                                   for call in self.ladder], dtype=np.int64)
        # what the awards count for each bid: a numeric bid as scoring.bid_scored_as says (the contract is
        # judged on bid_value)
        self.bid_scored = np.array([c.scored_bid(int(v)) if type(call.value) is int else int(v)
                                    for call, v in zip(self.ladder, self.bid_value)], dtype=np.int64)
        self.bid_numeric = np.array([type(call.value) is int for call in self.ladder])
        self.bid_kind = np.array([0 if type(call.value) is int else 1 if call.value == "capot" else 2
                                  for call in self.ladder], dtype=np.intp)   # 0 number, 1 capot, 2 générale
        self.bid_strain = np.array([STRAINS.index(call.strain) for call in self.ladder], dtype=np.intp)
        # lowest[h + 1]: the lowest ladder index that beats bid h (h = -1: no bid yet); every bid above beats it too
        lowest = [0]
        for h in range(L):
            hk, hr = listing[h][0], listing[h][1]
            beats = [t.beats(listing[j][0], listing[j][1], hk, hr) for j in range(L)]
            lo = next((j for j in range(L) if beats[j]), L)
            if not all(beats[lo:]):
                raise BatchUnsupported("rules.auction.strain_order: the bids that beat a bid are not "
                                       "one run of the ladder")
            lowest.append(lo)
        self.lowest = np.array(lowest, dtype=np.intp)
        # cheap bids from the lowest legal one (the random bidder's range, as engine.random_play)
        from ..engine.random_play import CHEAP_RANGE
        cheap_end = np.empty(L + 1, dtype=np.intp)
        for lo in range(L + 1):
            if lo < L and self.bid_numeric[lo]:
                top = self.bid_value[lo] + CHEAP_RANGE
                j = lo
                while j < L and self.bid_numeric[j] and self.bid_value[j] <= top:
                    j += 1
                cheap_end[lo] = j
            else:
                cheap_end[lo] = min(lo + 1, L)
        self.cheap_end = cheap_end
        # strain_count[s, i]: bids of strain s among ladder indices below i
        sc = np.zeros((6, L + 1), dtype=np.intp)
        for s in range(6):
            sc[s, 1:] = np.cumsum(self.bid_strain == s)
        self.strain_count = sc
        self.ladder_strains = tuple(s for s in range(6) if sc[s, L])
        # raise_own_bid never_in_a_named_strain: for a mask of named strains e and a ladder index i,
        # unnamed_from[e * (L + 1) + i] is the first bid from i up in a strain not in e (L: none), and
        # unnamed_to[...] the last from i down (-1: none)
        named = (np.arange(64)[:, None] >> self.bid_strain[None, :]) & 1 == 1       # (masks, L)
        up = np.full((64, L + 1), L, dtype=np.intp)
        down = np.full((64, L + 1), -1, dtype=np.intp)
        for i in range(L - 1, -1, -1):
            up[:, i] = np.where(named[:, i], up[:, i + 1], i)
        for i in range(L):
            down[:, i] = np.where(named[:, i], down[:, i - 1] if i else -1, i)
        down[:, L] = down[:, L - 1] if L else -1
        self.unnamed_from, self.unnamed_to = up.ravel(), down.ravel()
        self.speak_after_pass = bool(a.speak_after_pass)
        self.raise_own = a.raise_own_bid
        self.passes_to_end = int(a.passes_to_end)
        self.dealer_must_bid = a.all_pass == "dealer_must_bid"     # «à la vache»: no pass after three
        self.max_rounds = a.max_rounds                       # None: no cap on the rounds
        self.max_bids = a.max_bids_per_player                # None: no cap on a player's bids
        self.capot_ends = bool(a.capot.ends_auction)
        self.capot_coinchable = bool(a.capot.may_be_coinched)
        self.coinche_when = a.coinche.when
        self.coinche_by_any = a.coinche.by == "any_player"
        self.coinche_by_last = a.coinche.by == "opponents_of_last_caller"
        self.coinche_ends = a.coinche.effect == "ends_auction"
        self.coinche_window = a.coinche.effect == "ends_bidding_window"   # then the takers' surcoinche window
        self.overbid_cancels = a.coinche.effect == "overbid_cancels"      # décoinchage
        # coinchable[j]: may ladder bid j be coinched (auction.coinche.allowed, minimum_bid; a capot or
        # générale as capot.may_be_coinched), as engine/auction.py Auction._coinche_possible
        minimum = a.coinche.minimum_bid
        self.coinchable = np.array([a.coinche.allowed and (
            (minimum is None or self.bid_value[j] >= minimum) if self.bid_numeric[j] else self.capot_coinchable)
            for j in range(L)], dtype=bool)
        self.passes_after = int(a.coinche.passes_after)
        self.coinche_ended_by = choose(COINCHE_ENDED_BY, a.coinche.ended_by)   # the per-deal entry, on arrays
        self.partner_silent = a.coinche.partner_may_speak is False   # his turn skipped while coinched
        self.coinche_mult = int(a.coinche.multiplier)
        self.sur_allowed = bool(a.surcoinche.allowed)
        self.cards_before_auction = c.cards_before_auction()     # 8 unless deal.packets_after_auction
        self.sur_by_any = a.surcoinche.by == "next_caller"
        self.sur_ends = bool(a.surcoinche.ends_auction)
        self.sur_mult = int(a.surcoinche.multiplier)

    # -- melds -----------------------------------------------------------------
    def _melds(self, c):
        m = c.melds
        self.melds_enabled = bool(m.enabled)
        # the squares table of each strain (melds.squares_sans_atout / squares_tout_atout replace
        # melds.squares there); a player declares the squares his contract's table values, as declarable_melds
        base = [int(m.squares[RANKS[r]]) for r in range(8)]
        tables = []
        for s in STRAINS:
            own = m[f"squares_{_KIND[s]}"] if s in _KIND else None
            tables.append(base if own is None else [int(own[RANKS[r]]) for r in range(8)])
        # square_ranks[strain]: the squares a player declares in that strain's contract
        self.square_ranks = np.array([sum(1 << r for r in range(8) if t[r] > 0) for t in tables], dtype=np.intp)
        runs = {n: int(m.runs[str(n)]) for n in (3, 4, 5)}
        # sq_points[strain, held], sq_key, sq_best: the squares held (a rank mask) as scored in each strain
        sq_points = np.zeros((6, 256), dtype=np.int64)
        sq_key = np.zeros((6, 256), dtype=np.int64)
        sq_best = np.zeros((6, 256), dtype=np.int64)
        for i, squares in enumerate(tables):
            for held in range(256):
                for r in range(8):
                    if held >> r & 1 and squares[r] > 0:
                        sq_points[i, held] += squares[r]
                        k = _SQUARE_KEY | (squares[r] << 16) | (PLAIN_RANK_ORDER[r] << 4)
                        if k > sq_key[i, held]:
                            sq_key[i, held], sq_best[i, held] = k, squares[r]
        self.both_sides = m.sides_scoring == "both_sides"   # each side its own melds
        self.sevens_cancel = bool(m.sevens_cancel)              # four sevens annul every meld
        # the (at most two) runs of three or more in each suit byte: mask, points, key, meld cards
        run_mask = np.zeros((2, 256), dtype=np.int64)
        run_points = np.zeros((2, 256), dtype=np.int64)
        run_key = np.zeros((2, 256), dtype=np.int64)
        run_cards = np.zeros((2, 256), dtype=np.int64)
        five = m.long_runs == "highest_five"
        # the run tables below are laid out in the one run order; the players declare a card in one meld
        # only, so either card_reuse plays alike; the melds are declared with the first card
        batch_form(RUN_ORDER, m.run_order), batch_form(CARD_REUSE, m.card_reuse), batch_form(TIMING, m.timing)
        for byte in range(256):
            r = found = 0
            while r < 8:
                if not byte >> r & 1:
                    r += 1
                    continue
                s = r
                while r < 8 and byte >> r & 1:
                    r += 1
                length, top = r - s, r - 1
                if length < 3:
                    continue
                run_mask[found, byte] = sum(1 << q for q in range(s, top + 1))
                run_points[found, byte] = runs[min(length, 5)]
                run_key[found, byte] = _run_key(length, top)
                low = top - 4 if five and length > 5 else s
                run_cards[found, byte] = sum(1 << q for q in range(low, top + 1))
                found += 1
        self.sq_points, self.sq_key, self.sq_best = sq_points, sq_key, sq_best
        # the same for a suit byte and the squares held (byte << 8 | squares): a run touching a square
        # is not declared; points of the runs kept, the best kept run's key and points, their meld cards
        keep = (run_mask[:, :, None] & np.arange(256)[None, None, :]) == 0          # (2, byte, squares)
        pts = np.where(keep, run_points[:, :, None], 0)
        key = np.where(keep, run_key[:, :, None], 0)
        first = key[0] >= key[1]
        self.byte_run_points = (pts[0] + pts[1]).ravel()
        self.byte_run_key = np.maximum(key[0], key[1]).ravel()
        self.byte_run_best = np.where(first, pts[0], pts[1]).ravel()
        self.byte_run_cards = (np.where(keep[0], run_cards[0][:, None], 0)
                               | np.where(keep[1], run_cards[1][:, None], 0)).ravel()
        self.trump_breaks_ties = bool(m.compare.trump_breaks_ties)
        self.meld_equal_cancels = m.compare.equal == "cancel"
        self.winner_scores_all = m.winner_scores == "all"
        self.melds_count = bool(m.count_towards_contract)

    def _belote(self, c):
        b = c.belote
        self.belote_enabled = bool(b.enabled)
        # belote_suits[strain]: 4-bit mask of the suits whose K and Q make a belote
        ta = 15 if b.tout_atout == "each_suit" else 0
        self.belote_suits = np.array([1, 2, 4, 8, ta, 0] if b.enabled else [0] * 6, dtype=np.int64)
        self.belote_points = int(b.points)
        self.belote_in_run = b.in_run == "allowed"
        self.belote_count = bool(b.counts_towards_contract)
        # belote.counts_as lowered_target: the takers' belote lowers their target, no total counts a belote
        self.belote_lowers = self.belote_count and batch_form(BELOTE_COUNTS_AS, b.counts_as)
        self.belote_multiplied = b.multiplied == "with_award"
        # belote.claim: the random and simple players say "belote" with the first of the king and queen and
        # "rebelote" with the second, so said, said_once, said_rebelote_forgiven_once (nothing is ever
        # forgotten) and automatic count every belote held; king_first only those whose king was played first
        self.belote_king_first = batch_form(CLAIM, b.claim)
        # belote_dest[2 * placed + role]: where the takers' (role 0) or the defenders' (1) belote goes, for
        # placed = 2 * coinched + made (a litige counts as made): 0 the takers, 1 the defenders, 2 lost.
        # belote.placement where it says, else the holder's side, a failing takers' as belote.on_failure says
        on_failure = batch_form(BELOTE_ON_FAILURE, b.on_failure)
        placement = b.placement
        dest = []
        for placed in ("failed", "made", "coinched_failed", "coinched_made"):
            block = placement[placed] if placement is not None else None
            for role, own in (("takers", 0), ("defenders", 1)):
                # a failing contract's belote.placement names only the defenders'
                option = block[role] if block is not None and (placed, role) in BELOTE_PLACEMENT_RULES else None
                if option is not None:
                    dest.append(batch_form(BELOTE_PLACEMENT[(placed, role)], option))
                else:
                    dest.append(on_failure if own == 0 and placed.endswith("failed") else own)
        self.belote_dest = np.array(dest, dtype=np.intp)
        # belote_capot_dest[2 * made + role]: on a capot bid or générale, belote.placement.capot_made /
        # capot_failed where given (before the outcome's place and on_failure), else -1
        capot = []
        for placed in ("capot_failed", "capot_made"):
            block = placement[placed] if placement is not None else None
            for role in ("takers", "defenders"):
                option = block[role] if block is not None else None
                capot.append(-1 if option is None else batch_form(BELOTE_PLACEMENT[(placed, role)], option))
        self.belote_capot_dest = np.array(capot, dtype=np.intp)


def batch_rules(rules) -> BatchRules:
    """The BatchRules of a Rules, Variant, rules dict or compiled rules (built once per rule set)."""
    c = compiled_rules(rules)
    return engine_phase(c, "batch", BatchRules)
