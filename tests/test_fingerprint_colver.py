"""coinche-spec fingerprint --impl colver: every difference from contree-701 the protocol can show.

The list to find is docs/adapters.md, "What colver does differently from contree-701", worked
out by hand from colver's rules (RULESETS-IN-THE-WILD.md §3) and the fixtures named there; the
rule paths are those of `coinche-spec variants diff contree-701 colver`. What the adapter's
four kinds (legal_cards, auction, deal, perft) cannot show (the cut, the match) must be listed
as not observed, never claimed either way.

colver is an extra: without it this module is skipped, except where CI says it must be there
(COINCHE_REQUIRE_COLVER=1), and then its absence fails.
"""

from support import require_colver

require_colver()

import pytest  # noqa: E402

from coinche_spec.conformance import fingerprint as fp  # noqa: E402
from coinche_spec.protocol.impls import open_implementation  # noqa: E402
from coinche_spec.variants import load_variant  # noqa: E402

# docs/adapters.md, one entry per difference listed there
OBSERVABLE = {
    "auction.surcoinche.multiplier": 3,                     # surcoinche x3, not x4 (A14)
    "auction.capot.value": 250,                             # a capot bid worth 250, not 260 (A5, S5)
    "contract.versus_defenders": "ignore",                  # a level score is made (S1)
    "scoring.coinched_made.takers": {"terms": ["base", "bid"], "base": 162, "base_on_sweep": 252,
                                     "multiplied": "bid"},  # 162 (252 on a sweep) + value x multiplier (S4)
    "scoring.coinched_made.defenders": {"terms": [], "multiplied": "none"},   # the defenders nothing (S4)
    "belote.on_failure": "defenders",                       # the belote goes with the contract (B5)
    "play.cannot_overtrump": "may_discard",                 # unable to overtrump, he may discard (P6)
}
# the rest of `variants diff contree-701 colver`: only the dealing and match kinds depend on them
NOT_OBSERVED = {"deal.cut.required", "match.target", "match.tie"}


@pytest.fixture(scope="module")
def result():
    impl = open_implementation("colver")
    impl.start()
    try:
        return fp.fingerprint(impl, load_variant("contree-701"), deals=0)
    finally:
        impl.stop()


def test_names_every_observable_difference(result):
    assert {f.path: f.found for f in result.changed()} == OBSERVABLE


def test_lists_what_the_answered_kinds_cannot_show(result):
    assert result.kinds == ["legal_cards", "auction", "deal", "perft"]
    assert result.configured == "colver"
    assert NOT_OBSERVED <= {f.path for f in result.by_status("not-observed")}


def test_every_difference_has_its_evidence(result):
    text = fp.render_text(result)
    for path in OBSERVABLE:
        finding = next(f for f in result.findings if f.path == path)
        assert fp.best_evidence(finding) is not None, path
        assert f"  {path}: " in text
