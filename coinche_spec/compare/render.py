"""The comparison written out: text for a terminal, JSON for programs, HTML with plots.

The HTML page is self-contained: its styles and its plots (inline SVG, drawn
here from the numbers, no plotting library) travel with the one file.
"""

from __future__ import annotations

import html
import json
from dataclasses import dataclass

from .outcomes import show_fields, shown_fields
from .stats import Estimate

INTERVALS = ("95 % intervals: Wilson score interval for rates; normal approximation (mean ± 1.96 s/√n) "
             "for means; the largest swing is a maximum and has none.")
PLAYERS = ("Deals played by the simple players (coinche_spec.engine.players: bids from counted hand "
           "strength, rules of thumb for every card), the same hands and dealer under every rule set. "
           "A swing is how far the deal's margin (NS score - EW score) moves between the two rule sets; "
           "deals per match takes the played deals in order, a new match after each deciding deal.")


@dataclass
class Comparison:
    ids: list
    changes: list           # rules.RuleChange
    left_out: list          # str
    scenarios: list | None  # outcomes.Scenario; None: not compared (compare --scenarios compares them)
    fixtures_seen: int
    without_expectations: list
    simulation: object      # simulate.Simulation or None


def _fmt(e: Estimate, percent: bool = False) -> str:
    if e.value is None:
        return "n/a (nothing to count)"
    if percent:
        text = f"{100 * e.value:.1f} %"
        return text + (f" [{100 * e.low:.1f}, {100 * e.high:.1f}]" if e.low is not None else "")
    text = f"{e.value:.2f}" if isinstance(e.value, float) else str(e.value)
    return text + (f" [{e.low:.2f}, {e.high:.2f}]" if e.low is not None else "")


def _figure_rows(sim) -> list[tuple[str, list[str]]]:
    rows = []
    for key, label in sim.rule_sets[0].FIGURES:
        rows.append((label, [_fmt(getattr(r, key), percent=key not in ("points_per_deal", "deals_per_match"))
                             for r in sim.rule_sets]))
    return rows


SCENARIOS_HINT = "The corpus scenarios whose outcomes differ are not listed here: --scenarios lists them."


def _sim_number(c: Comparison) -> int:
    return 3 if c.scenarios is not None else 2


def differs_from_first(estimates: list) -> list[bool]:
    """For each figure, whether its 95 % interval and the first rule set's do not overlap (no interval:
    whether the values differ)."""
    first = estimates[0]
    out = [False]
    for e in estimates[1:]:
        if None in (e.value, first.value):
            out.append(False)
        elif None in (e.low, e.high, first.low, first.high):
            out.append(e.value != first.value)
        else:
            out.append(e.high < first.low or e.low > first.high)
    return out


def render_text(c: Comparison) -> str:
    ids = c.ids
    out = [f"Comparing {', '.join(ids)}", "", "1. The rules that differ", ""]
    if not c.changes:
        out.append("  No rule that can matter differs.")
    for ch in c.changes:
        out.append(f"  {ch.title}")
        for i, value, b in zip(ids, ch.values, ch.basis):
            out.append(f"    {i}: {value}")
            if b:
                out.append(f"      {b[0]}")
    if c.left_out:
        out += ["", "  Left out, as they cannot change a deal under the other rules:"]
        out += [f"    - {x}" for x in c.left_out]
    if c.scenarios is None:
        out += ["", SCENARIOS_HINT]
    else:
        out += ["", f"2. Corpus scenarios whose outcomes differ: {len(c.scenarios)} of {c.fixtures_seen}", ""]
    for i in c.without_expectations:
        out.append(f"  {i}: no fixture has an expectation for this rule set yet, so its outcomes are not compared.")
    for s in c.scenarios or []:
        f = s.fixture
        out.append(f"  {f.id} ({f.where}): {f.title}")
        if s.quote:
            out.append(f"    source: {s.quote}")
        keys = shown_fields(s)
        for i, o in zip(ids, s.outcomes):
            if o.fields is None:
                out.append(f"    {i}: {o.note}")
                continue
            out.append(f"    {i}: {show_fields(o.fields, keys)}")
            out += [f"        # {x}" for x in o.comments if x.split(":", 1)[0] in keys]
        out.append("")
    sim = c.simulation
    if sim is not None:
        out += ["", f"{_sim_number(c)}. Simulation: {sim.deals} deals (seed {sim.seed})", "", "  " + PLAYERS,
                "  " + INTERVALS, ""]
        width = max(len(label) for label, _ in _figure_rows(sim)) + 2
        out.append("  " + " " * width + "   ".join(f"{i:<28}" for i in ids))
        for label, cells in _figure_rows(sim):
            out.append("  " + f"{label:<{width}}" + "   ".join(f"{x:<28}" for x in cells))
        out.append("")
        for p in sim.pairs:
            out.append(f"  {p.right} against {p.left}, deal by deal:")
            out.append(f"    the deal's score differs   {_fmt(p.score_differs, percent=True)}")
            out.append(f"    mean swing                 {_fmt(p.mean_swing)} points")
            out.append(f"    largest swing              {_fmt(p.largest_swing)} points")
    return "\n".join(out).rstrip() + "\n"


def to_json(c: Comparison) -> dict:
    out = {"rule_sets": c.ids,
           "rules": {"differences": [ch.to_json(c.ids) for ch in c.changes], "left_out": c.left_out}}
    if c.scenarios is not None:
        out["scenarios"] = {"looked_at": c.fixtures_seen, "without_expectations": c.without_expectations,
                            "differing": [{"fixture": s.fixture.id, "title": s.fixture.title, "where": s.fixture.where,
                                           "source": s.quote,
                                           "outcomes": {i: o.to_json() for i, o in zip(c.ids, s.outcomes)}}
                                          for s in c.scenarios]}
    sim = c.simulation
    if sim is not None:
        out["simulation"] = {
            "deals": sim.deals, "seed": sim.seed, "players": "simple", "intervals": INTERVALS,
            "rule_sets": {r.ident: {key: getattr(r, key).to_json() for key, _ in r.FIGURES} for r in sim.rule_sets},
            "pairs": [{"left": p.left, "right": p.right, "score_differs": p.score_differs.to_json(),
                       "mean_swing": p.mean_swing.to_json(), "largest_swing": p.largest_swing.to_json()}
                      for p in sim.pairs]}
    return out


def render_json(c: Comparison) -> str:
    return json.dumps(to_json(c), ensure_ascii=False, indent=2) + "\n"


# --- HTML ------------------------------------------------------------------------------------------

def histogram_svg(counts: list[tuple[str, int]], title: str, xlabel: str, width: int = 560, height: int = 220) -> str:
    """Bars for (label, count) pairs, drawn as inline SVG."""
    e = html.escape
    left, bottom, top = 44, 40, 24
    plot_w, plot_h = width - left - 10, height - bottom - top
    peak = max((n for _, n in counts), default=0) or 1
    bar = plot_w / max(1, len(counts))
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" role="img" width="{width}" height="{height}" '
             f'viewBox="0 0 {width} {height}"><title>{e(title)}</title>',
             f'<text x="{width / 2}" y="15" text-anchor="middle" font-size="13">{e(title)}</text>',
             f'<line x1="{left}" y1="{top + plot_h}" x2="{left + plot_w}" y2="{top + plot_h}" stroke="#444"/>',
             f'<text x="{left - 4}" y="{top + 10}" text-anchor="end" font-size="10">{peak}</text>',
             f'<text x="{left - 4}" y="{top + plot_h}" text-anchor="end" font-size="10">0</text>']
    step = max(1, -(-len(counts) // 7))       # about seven labels, so that they never overlap
    for k, (label, n) in enumerate(counts):
        h = plot_h * n / peak
        x = left + k * bar
        parts.append(f'<rect x="{x + 1:.1f}" y="{top + plot_h - h:.1f}" width="{max(1.0, bar - 2):.1f}" '
                     f'height="{h:.1f}" fill="#3a6ea5"><title>{e(label)}: {n}</title></rect>')
        if k % step == 0:
            parts.append(f'<text x="{x + bar / 2:.1f}" y="{top + plot_h + 13}" text-anchor="middle" '
                         f'font-size="10">{e(label)}</text>')
    parts.append(f'<text x="{left + plot_w / 2}" y="{height - 6}" text-anchor="middle" font-size="11">{e(xlabel)}</text>')
    parts.append("</svg>")
    return "".join(parts)


def swing_bins(swings: list, bins: int = 20) -> list[tuple[str, int]]:
    """The swings in equal-width bins from 0 to the largest, the deals with no swing apart."""
    zero = sum(1 for s in swings if s == 0)
    moved = [s for s in swings if s]
    out = [("0", zero)]
    if moved:
        top = max(moved)
        width = max(1, -(-top // bins))
        counts = [0] * bins
        for s in moved:
            counts[min(bins - 1, (s - 1) // width)] += 1
        out += [(f"{k * width + 1}-{(k + 1) * width}", n) for k, n in enumerate(counts)]
    return out


def length_bins(lengths: list) -> list[tuple[str, int]]:
    if not lengths:
        return []
    top = max(lengths)
    return [(str(k), sum(1 for x in lengths if x == k)) for k in range(1, top + 1)]


STYLE = """body{font-family:system-ui,sans-serif;max-width:80rem;margin:2rem auto;padding:0 1rem;color:#222}
table{border-collapse:collapse;margin:1rem 0}td,th{border:1px solid #bbb;padding:.3rem .5rem;vertical-align:top}
th{background:#eee;text-align:left}.quote{color:#555;font-size:.9em}.arith{font-family:monospace;font-size:.85em;color:#444}
figure{margin:1rem 0}nav a{margin-right:1rem}
td.differs{background:#fff3d6;box-shadow:inset 3px 0 0 #d39b22}.legend{color:#555;font-size:.9em}"""


def page(title: str, body: str, nav: str = "") -> str:
    """A self-contained HTML page."""
    return (f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>{html.escape(title)}</title>'
            f'<style>{STYLE}</style></head><body>{nav}{body}</body></html>\n')


def _mark(differs: bool) -> str:
    return ' class="differs"' if differs else ""


DIFFERS_LEGEND = "Marked: a value that differs from the first rule set's."


def render_html_body(c: Comparison, rule_link=None) -> str:
    """The comparison as HTML (no page around it); ``rule_link(id)`` links a rule set's name."""
    e = html.escape
    name = (lambda i: f'<a href="{e(rule_link(i))}">{e(i)}</a>') if rule_link else e
    head = "".join(f"<th>{name(i)}</th>" for i in c.ids)
    out = [f"<h1>{' / '.join(e(i) for i in c.ids)}: what changes at the table</h1>",
           "<h2>1. The rules that differ</h2>"]
    if c.changes:
        out.append("<p>Open a value for the rule's full sentence and the words it rests on.</p>")
        out.append(f'<p class="legend">{DIFFERS_LEGEND}</p>')
        out.append(f"<table><tr><th>rule</th>{head}</tr>")
        for ch in c.changes:
            cells = "".join(f"<td{_mark(k > 0 and v != ch.values[0])}><details><summary><b>{e(v)}</b></summary>{e(s)}"
                            + (f'<div class="quote">{e(b[0])}</div>' if b else "") + "</details></td>"
                            for k, (v, s, b) in enumerate(zip(ch.values, ch.sentences, ch.basis)))
            out.append(f"<tr><td>{e(ch.title)}</td>{cells}</tr>")
        out.append("</table>")
    else:
        out.append("<p>No rule that can matter differs.</p>")
    if c.left_out:
        out.append("<p>Left out, as they cannot change a deal under the other rules:</p><ul>"
                   + "".join(f"<li>{e(x)}</li>" for x in c.left_out) + "</ul>")
    if c.scenarios is None:
        out.append(f'<p class="legend">{e(SCENARIOS_HINT)}</p>')
    else:
        out.append(f"<h2>2. Corpus scenarios whose outcomes differ: {len(c.scenarios)} of {c.fixtures_seen}</h2>")
    for i in c.without_expectations:
        out.append(f"<p>{e(i)}: no fixture has an expectation for this rule set yet, so its outcomes are not "
                   "compared.</p>")
    if c.scenarios:
        out.append(f"<table><tr><th>scenario</th>{head}</tr>")
        for s in c.scenarios:
            keys = shown_fields(s)
            cells = []
            shown = [o.note if o.fields is None else show_fields(o.fields, keys) for o in s.outcomes]
            for k, o in enumerate(s.outcomes):
                mark = _mark(k > 0 and shown[k] != shown[0])
                if o.fields is None:
                    cells.append(f"<td{mark}>{e(o.note)}</td>")
                else:
                    arith = "".join(f'<div class="arith"># {e(x)}</div>' for x in o.comments
                                    if x.split(":", 1)[0] in keys)
                    cells.append(f"<td{mark}>{e(shown[k])}{arith}</td>")
            quote = f'<div class="quote">{e(s.quote)}</div>' if s.quote else ""
            out.append(f"<tr><td><b>{e(s.fixture.id)}</b><br>{e(s.fixture.title)}{quote}</td>{''.join(cells)}</tr>")
        out.append("</table>")
    sim = c.simulation
    if sim is not None:
        out += [f"<h2>{_sim_number(c)}. Simulation: {sim.deals} deals (seed {sim.seed})</h2>",
                f"<p>{e(PLAYERS)}</p>", f"<p>{e(INTERVALS)}</p>",
                f'<p class="legend">Marked: the 95 % interval does not overlap the first rule set\'s '
                f"({e(c.ids[0])}).</p>", f"<table><tr><th></th>{head}</tr>"]
        for (label, cells), (key, _) in zip(_figure_rows(sim), sim.rule_sets[0].FIGURES):
            marks = differs_from_first([getattr(r, key) for r in sim.rule_sets])
            out.append(f"<tr><td>{e(label)}</td>" + "".join(f"<td{_mark(m)}>{e(x)}</td>" for x, m in zip(cells, marks))
                       + "</tr>")
        out.append("</table>")
        for p in sim.pairs:
            out.append(f"<h3>{e(p.right)} against {e(p.left)}</h3><ul>"
                       f"<li>the deal's score differs: {e(_fmt(p.score_differs, percent=True))}</li>"
                       f"<li>mean swing: {e(_fmt(p.mean_swing))} points</li>"
                       f"<li>largest swing: {e(_fmt(p.largest_swing))} points</li></ul>")
            bins = swing_bins(p.swings)
            # the deals without a swing are most of them: said in the title, not drawn over the others
            out.append("<figure>" + histogram_svg(bins[1:], f"Score swings, {p.right} against {p.left} "
                                                  f"({bins[0][1]} of {len(p.swings)} deals do not swing)",
                                                  "swing (points), deals that swing") + "</figure>")
        for r in sim.rule_sets:
            out.append("<figure>" + histogram_svg(length_bins(r.match_lengths), f"Deals per match, {r.ident}",
                                                  "deals in the match") + "</figure>")
    return "\n".join(out)


def render_html(c: Comparison) -> str:
    return page(" / ".join(c.ids) + " compared", render_html_body(c))
