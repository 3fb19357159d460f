"""An implementation's published page, Markdown and HTML, from its results file (results.py).

The page is made of blocks (headings, paragraphs, lists, tables, code, the
conformance matrix) written once and emitted twice: as Markdown for the
repository and as a self-contained HTML page whose matrix and failures are
those of the HTML conformance report (conformance/html_report.py). The two
are rendered from the saved results only, so the staleness test can render
them again without running the implementation.
"""

from __future__ import annotations

import json
import re
from html import escape

from ..conformance import html_report
from ..conformance import what_differed
from ..conformance.runfile import parse_run
from ..conformance.runner import SOURCES

REGENERATE = "coinche-spec docs --implementations docs/implementations"


# --- the blocks ------------------------------------------------------------------------------------

def _run_of(results: dict):
    text = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in results["conformance"]["records"])
    return parse_run(text, f"{results['name']}.json")


def _counts(tally) -> str:
    return tally.text() if tally is not None else "-"


def _kinds_line(start: dict) -> str:
    kinds = ", ".join(f"`{k}`" for k in start.get("kinds") or [])
    return f"It answers the case kinds {kinds}."


def _summary(results: dict, run) -> list:
    own = results["own"]
    cells = run.cells()
    fp, fz = results["fingerprint"], results["fuzz"]
    by: dict = {}
    for c in run.cases:
        if c["variant"] == own and c["outcome"] in ("pass", "fail"):
            by.setdefault(c["expected_by"], {"pass": 0, "fail": 0})[c["outcome"]] += 1
    kinds = "; ".join(f"{k} {by[k]['pass']} passed, {by[k]['fail']} failed" for k in SOURCES if k in by)
    items = [f"Under its own rule set `{own}`: {_counts(cells.get((None, own)))} (passed/played; {kinds})."]
    refused = results.get("refusals") or {}
    if refused:
        items.append(f"Under the {len(refused)} seed rule sets: none is played — {results['name']} claims one rule "
                     f"set, `{own}`, and each seed differs from it on rules its answers depend on (listed below).")
    diffs = fp.get("differences") or []
    items.append(f"Fingerprint against `{fp['base']}`: plays like {fp['base']} except {len(diffs)} rules: "
                 + ", ".join(f"`{d['rule']}`" for d in diffs) + ".")
    items.append(f"Fuzzing under `{own}`: {fz['deals']:,} deals, {fz['cases']:,} cases, "
                 f"{fz['divergences']} distinct divergence{'s' if fz['divergences'] != 1 else ''} "
                 f"({fz['divergent_cases']} cases in {fz['divergent_deals']} deals).")
    return [("ul", items)]


def _conformance(results: dict, run) -> list:
    blocks = [("h2", "Conformance"), ("code", results["commands"]["conformance"]),
              ("p", f"Closing line: `{results['conformance']['closing']}` (exit status "
                    f"{results['conformance']['exit']}). Each cell: passed/played, with failed (fail), other "
                    "(errors, time-outs, corpus defects) and skipped cases counted apart; skipped cases are those "
                    "of kinds or rule sets the implementation does not claim."),
              ("matrix", run)]
    problems = run.problems()
    if problems:
        blocks.append(("h3", "Cases that went wrong, by what differed"))
        for group in what_differed.groups(run.cases):
            items = []
            for c in group.cases:
                diff = "; ".join(f"`{d['field']}` expected `{json.dumps(d['expected'])}`, got "
                                 + ("nothing" if d.get("missing") else f"`{json.dumps(d['got'])}`")
                                 for d in c.get("diff") or []) or (c.get("message") or c["outcome"])
                comments = ((c.get("arithmetic") or {}).get("comments") or [])
                arithmetic = ("; arithmetic: " + "; ".join(
                    (f"{x['field']}: " if x.get("field") else "") + x["text"] for x in comments)) if comments else ""
                items.append(f"{c['outcome'].upper()} `{c['fixture']}` under `{c['variant']}` "
                             f"({c.get('file')}:{c.get('line')}): {diff}{arithmetic}")
            blocks += [("p", f"`{group.name}` ({what_differed.likely_text(group)}):"), ("ul", items)]
    unanswered = (results.get("start") or {}).get("unanswered") or {}
    if unanswered:
        blocks.append(("p", _kinds_line(results["start"]) + " The kinds it skips, in its own words:"))
        blocks.append(("ul", [f"`{k}`: {why}" for k, why in unanswered.items()]))
    refused = results.get("refusals") or {}
    if refused:
        blocks.append(("h3", "Why the seed rule sets are not played"))
        blocks.append(("p", f"{results['name']} claims one rule set. Its adapter plays another rule set only when "
                            "it equals that one on every rule the answered kinds can depend on; each seed differs "
                            "on these:"))
        blocks.append(("ul", [f"`{seed}` ({len(rules)} rules): " + ", ".join(f"`{r}`" for r in rules)
                              for seed, rules in refused.items()]))
    return blocks


STATUS_WORDS = {"same": "confirmed as the base plays them", "untold": "no case found that tells the options apart",
                "not-observed": "observable only by kinds the implementation does not answer",
                "unobservable": "no case kind can observe"}


def _fingerprint(results: dict) -> list:
    fp = results["fingerprint"]
    rows = [[f"`{d['rule']}`", f"`{json.dumps(d['base'])}`", f"`{json.dumps(d['found'])}`"]
            for d in fp.get("differences") or []]
    blocks = [("h2", "Fingerprint"), ("code", results["commands"]["fingerprint"]),
              ("p", f"{fp['cases_asked']} cases asked in {fp['rounds']} rounds, configured with `{fp['configured']}`. "
                    f"Plays like `{fp['base']}` except:"),
              ("table", ["rule", fp["base"], results["name"]], rows)]
    groups: dict = {}
    for r in fp.get("rules") or []:
        groups.setdefault(r["status"], []).append(r["rule"])
    items = [f"{len(rules)} {STATUS_WORDS[status]}: " + ", ".join(f"`{r}`" for r in rules)
             for status, rules in groups.items() if status in STATUS_WORDS]
    blocks += [("ul", items), ("p", "What the command prints, with the evidence for each difference:"),
               ("code", fp["printed"].rstrip())]
    return blocks


def _fuzz(results: dict) -> list:
    fz = results["fuzz"]
    kinds = ", ".join(f"{k} {n:,}" for k, n in (fz.get("cases_by_kind") or {}).items())
    blocks = [("h2", "Fuzzing"), ("code", results["commands"]["fuzz"]),
              ("p", f"Random legal deals {fz['first_deal']}-{fz['last_deal']} (seed {fz['seed']}) of `{fz['variant']}`, "
                    f"cut into protocol cases answered by {results['name']} and by the reference engine: "
                    f"{fz['deals']:,} deals, {fz['cases']:,} cases ({kinds}; {fz['skipped']} skipped). "
                    f"{fz['divergences']} distinct divergence{'s' if fz['divergences'] != 1 else ''}, in "
                    f"{fz['divergent_cases']} cases of {fz['divergent_deals']} deals. {fz['seconds']:,.1f} s, "
                    f"{fz['deals_per_second']} deals/s on a shared machine under load "
                    f"(load average {results.get('load', '?')} when generated): a figure for scale, not a benchmark.")]
    for d in fz.get("found") or []:
        blocks.append(("p", f"`{d['key']}`, first in deal {d['deal']}, shrunk in {d['shrink_tries']} tries: "
                            + "; ".join(d["diff"]) + " (expected: the reference engine under "
                            f"`{fz['variant']}`; got: {results['name']}). The shrunk case:"))
        blocks.append(("code", json.dumps(d["case"], ensure_ascii=False)))
    return blocks


def _inputs(results: dict) -> list:
    i = results["inputs"]
    rows = [["results format", f"{i['format']}"], ["coinche-spec", i["coinche_spec"]],
            [i["implementation"]["package"], str(i["implementation"]["version"])],
            [f"adapter {i['adapter']['module']}", f"`{i['adapter']['hash']}`"],
            ["corpus", f"`{i['corpus']}`"]]
    rows += [[f"rule set {k}", f"`{v}`"] for k, v in i["rule_sets"].items()]
    rows += [["fuzz deals, seed", f"{i['fuzz']['deals']}, {i['fuzz']['seed']}"]]
    return [("h2", "Inputs, and how this page is kept fresh"),
            ("p", f"Generated {results['generated']} by `{REGENERATE}`, which runs the three commands above and "
                  f"keeps what they print in `{results['name']}.json`; this page and its HTML twin are rendered "
                  "from that file. The page records what its results were computed from:"),
            ("table", ["input", "value"], rows),
            ("p", "The staleness test (tests/test_published_results.py) recomputes these hashes (the corpus: every "
                  "fixture file; a rule set: its resolved rules) and versions, and fails when one changed; it "
                  "renders both pages again from the results file and compares them with the files; and, where "
                  f"{i['implementation']['package']} is installed, it plays the conformance run again (seconds) and "
                  "compares its counts and failures. It does not replay the fuzzing, the slow part: a change "
                  "the hashes do not see (the reference engine's code) shows only when the page is regenerated.")]


def blocks(results: dict) -> list:
    run = _run_of(results)
    start = results.get("start") or {}
    impl = start.get("implementation") or {}
    title = f"{impl.get('name', results['name'])} {impl.get('version', '')}".strip()
    intro = (f"{title} ({impl.get('language', '')}; [{results['homepage']}]({results['homepage']})) run "
             f"through the coinche-spec conformance suite by its shipped adapter: `--impl {results['name']}` "
             f"(`pip install 'coinche-spec[{results['name']}]'`, docs/adapters.md). {_kinds_line(start)}")
    return ([("h1", f"{title} through the conformance suite"),
             ("comment", f"generated by `{REGENERATE}` from {results['name']}.json: do not edit"),
             ("p", intro)] + _summary(results, run) + _conformance(results, run) + _fingerprint(results)
            + _fuzz(results) + _inputs(results))


# --- Markdown --------------------------------------------------------------------------------------

def _md_cell(text: str) -> str:
    return str(text).replace("|", "\\|")


def _md_matrix(run) -> list[str]:
    cells = run.cells()
    head = ["area"] + run.rule_sets
    rows = [[a] + [_counts(cells.get((a, v))) for v in run.rule_sets] for a in run.areas()]
    rows.append(["**all**"] + [_counts(cells.get((None, v))) for v in run.rule_sets])
    return _md_table(head, rows)


def _md_table(head: list, rows: list) -> list[str]:
    return (["| " + " | ".join(_md_cell(h) for h in head) + " |", "|" + "---|" * len(head)]
            + ["| " + " | ".join(_md_cell(c) for c in r) + " |" for r in rows])


def render_markdown(results: dict) -> str:
    out: list[str] = []
    for block in blocks(results):
        kind = block[0]
        if kind in ("h1", "h2", "h3"):
            out += ["#" * int(kind[1]) + " " + block[1], ""]
        elif kind == "comment":
            out += [f"<!-- {block[1]} -->", ""]
        elif kind == "p":
            out += [block[1], ""]
        elif kind == "ul":
            out += [f"- {item}" for item in block[1]] + [""]
        elif kind == "table":
            out += _md_table(block[1], block[2]) + [""]
        elif kind == "code":
            out += ["```", block[1], "```", ""]
        elif kind == "matrix":
            out += _md_matrix(block[1]) + [""]
    return "\n".join(out).rstrip("\n") + "\n"


# --- HTML ------------------------------------------------------------------------------------------

def _inline(text: str) -> str:
    """Markdown's inline code and links, as HTML (everything else escaped)."""
    out = []
    for i, part in enumerate(re.split(r"(`[^`]*`)", str(text))):
        if i % 2:
            out.append(f"<code>{escape(part[1:-1])}</code>")
        else:
            out.append(re.sub(r"\[([^\]]+)\]\(([^)\s]+)\)",
                              lambda m: f'<a href="{m.group(2)}">{m.group(1)}</a>', escape(part, quote=False)))
    return "".join(out)


def render_html(results: dict) -> str:
    body: list[str] = []
    title = ""
    for block in blocks(results):
        kind = block[0]
        if kind in ("h1", "h2", "h3"):
            title = title or block[1]
            body.append(f"<{kind}>{_inline(block[1])}</{kind}>")
        elif kind == "comment":
            body.append(f"<!-- {escape(block[1])} -->")
        elif kind == "p":
            body.append(f"<p>{_inline(block[1])}</p>")
        elif kind == "ul":
            body.append("<ul>" + "".join(f"<li>{_inline(i)}</li>" for i in block[1]) + "</ul>")
        elif kind == "table":
            head = "".join(f"<th>{_inline(h)}</th>" for h in block[1])
            rows = "".join("<tr>" + "".join(f"<td>{_inline(c)}</td>" for c in r) + "</tr>" for r in block[2])
            body.append(f"<table><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>")
        elif kind == "code":
            body.append(f"<pre>{escape(block[1])}</pre>")
        elif kind == "matrix":
            body.append(html_report.area_matrix(block[1], 1))
            if block[1].problems():
                body.append("<details><summary>Every case that went wrong, opened on its differences</summary>"
                            + html_report.problems_by_field(block[1], 1) + "</details>")
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
            f"<title>{escape(title)}</title><style>{html_report.CSS}</style></head><body>"
            + "\n".join(body) + f"<script>{html_report.SCRIPT}</script></body></html>\n")
