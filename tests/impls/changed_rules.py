"""The reference engine playing a rule set it does not announce: contree-701 with two rules changed.

For the fingerprint tests: ``Changed`` says it plays any rule set and answers every kind, but
plays contree-701 with a surcoinche x3 (not x4) and a discard allowed to a player who cannot
overtrump (not an undertrump). ``AuctionOnly`` is the same engine answering only auctions.
"""

from support import changed_rules as with_changes

from coinche_spec.protocol.cases import KINDS, run_case

CHANGES = {"auction.surcoinche.multiplier": 3, "play.cannot_overtrump": "may_discard"}


def changed_rules():
    return with_changes("contree-701", CHANGES)


class Changed:
    kinds = list(KINDS)

    def __init__(self):
        self.rules = changed_rules()

    def start(self):
        return {"protocol": 1, "kinds": self.kinds, "variants": None,
                "implementation": {"name": "changed", "version": "1", "language": "Python", "homepage": None}}

    def configure(self, variant):
        return {"ok": True}   # whatever it is told, it plays its own rules

    def run(self, case):
        return {"result": run_case(self.rules, case)}


class AuctionOnly(Changed):
    kinds = ["auction"]


class ScoresOffByOne(Changed):
    """Plays contree-701 as announced, but adds 1 to every score it gives: no rule explains that."""

    kinds = ["score"]

    def __init__(self):
        from coinche_spec.variants import load_variant
        self.rules = load_variant("contree-701").rules

    def run(self, case):
        result = run_case(self.rules, case)
        if isinstance(result.get("score"), dict):
            result["score"] = {team: points + 1 if points else points for team, points in result["score"].items()}
        return {"result": result}


class CoincheEndsSooner(Changed):
    """contree-701 whose auction ends after one pass once someone coinches (not three): one auction
    rule, which shows in the auction, the deal's contract, its tricks and its score alike."""

    def __init__(self):
        self.rules = with_changes("contree-701", {"auction.coinche.passes_after": 1})
