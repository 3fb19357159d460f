"""A fingerprint of the simple players' choices: run it before and after a speed-up.

Plays the same seeded deals (``compare.deals.deal_hands``) under every seed rule set
and hashes every call, card, declaration and score. A speed-up of the players must
leave the fingerprint unchanged; a change of their rules of thumb changes it.

    python benchmarks/players_fingerprint.py --deals 300
"""

from __future__ import annotations

import argparse
import hashlib
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))   # run from a clone


def fingerprint(deals: int, seed: int = 11) -> str:
    from coinche_spec.compare.deals import deal_hands
    from coinche_spec.engine.players import play_hands
    from coinche_spec.variants import load_variant, shipped_ids
    h = hashlib.sha256()
    for ref in sorted(shipped_ids()):
        rules = load_variant(ref).rules
        for i in range(deals):
            dealer, hands = deal_hands(seed, i)
            deal = play_hands(rules, dealer, hands)
            score = deal.outcome().score if deal.phase == "done" else None
            h.update(repr((deal.calls, deal.log, deal.declared, score)).encode())
    return h.hexdigest()


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--deals", type=int, default=300, help="deals per rule set (default 300)")
    p.add_argument("--seed", type=int, default=11)
    args = p.parse_args(argv)
    print(fingerprint(args.deals, args.seed))
    return 0


if __name__ == "__main__":
    sys.exit(main())
