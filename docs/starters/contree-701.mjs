#!/usr/bin/env node
// A starting point for an engine with fixed rules, in JavaScript (Node 18+, no dependencies).
//
// It plays one rule set, contree-701 (plain contrée to 701: docs/rules/contree-701.md), and
// answers three case kinds: `dealing`, `legal_cards` and `score`. Everything else is skipped,
// which the runner counts as skipped, not failed. Run it through the suite with
//
//     coinche-spec conformance --impl "node docs/starters/contree-701.mjs" --variant contree-701
//
// and replace the three functions marked "your engine" by calls into your own code. How a
// fixed-rule engine claims rule sets, maps seats, and counts card points is in
// docs/protocol.md, "Engines with fixed rules".

import { createInterface } from "node:readline";

const RULE_SET = "contree-701";
const KINDS = ["dealing", "legal_cards", "score"];

// -- the vocabulary of the protocol (docs/protocol.md, "Notation") ------------------------------
const CLOCKWISE = ["N", "E", "S", "W"];            // contree-701 plays clockwise: N, E, S, W
const TEAM = { N: "NS", S: "NS", E: "EW", W: "EW" };
const TRUMP_ORDER = ["J", "9", "A", "T", "K", "Q", "8", "7"];   // strongest first
const PLAIN_ORDER = ["A", "T", "K", "Q", "J", "9", "8", "7"];

class CaseError extends Error {}                   // a malformed case: an `errored` reply

function card(text, where) {
  // "10H" is accepted for "TH", as the reference engine does
  const t = typeof text === "string" ? text.toUpperCase().replace(/^10/, "T") : "";
  if (t.length !== 2 || !PLAIN_ORDER.includes(t[0]) || !"SHDC".includes(t[1])) {
    throw new CaseError(`${where}: bad card ${JSON.stringify(text)}`);
  }
  return t;
}
const rank = (c) => c[0];
const suit = (c) => c[1];
const nextSeat = (seat) => CLOCKWISE[(CLOCKWISE.indexOf(seat) + 1) % 4];
const partner = (seat) => CLOCKWISE[(CLOCKWISE.indexOf(seat) + 2) % 4];

// -- dealing: the cut, then packets of 3, 2, 3 from the seat after the dealer (your engine) -----
function dealing(c) {
  if (c.deck.length !== 32) throw new CaseError("case.deck: expected the 32 cards");
  const deck = c.deck.map((x, i) => card(x, `case.deck[${i}]`));
  if (c.packets !== undefined) return { rejected: "contree-701 deals 3, 2, 3 only" };
  if (c.cut === 0 || c.cut === 32) return { rejected: "contree-701 requires a cut" };
  const cut = deck.slice(c.cut).concat(deck.slice(0, c.cut));
  const hands = { N: [], E: [], S: [], W: [] };
  let top = 0;
  for (const size of [3, 2, 3]) {
    let seat = nextSeat(c.dealer);
    for (let i = 0; i < 4; i++, seat = nextSeat(seat)) {
      hands[seat].push(...cut.slice(top, top + size));
      top += size;
    }
  }
  return { hands };
}

// -- legal_cards: follow suit; trump and overtrump as contree-701 says (your engine) ------------
function beats(a, b, led, trump) {
  // does card a beat card b, b being the card winning the trick so far?
  if (suit(a) === suit(b)) {
    const order = suit(a) === trump ? TRUMP_ORDER : PLAIN_ORDER;
    return order.indexOf(rank(a)) < order.indexOf(rank(b));
  }
  return suit(a) === trump;                        // a trump beats any other suit; a discard never wins
}

function legalCards(c) {
  const trump = c.strain;
  if (!"SHDC".includes(trump) || trump.length !== 1) {
    return { skipped: true, reason: "contree-701 is played in the four suits only" };
  }
  const hand = c.hand.map((x, i) => card(x, `case.hand[${i}]`));
  const trick = c.trick.map((t, i) => ({ seat: t.seat, card: card(t.card, `case.trick[${i}].card`) }));
  if (trick.length === 0) return { legal: hand };
  const led = suit(trick[0].card);
  let winner = trick[0];
  for (const t of trick.slice(1)) if (beats(t.card, winner.card, led, trump)) winner = t;
  const trumps = hand.filter((x) => suit(x) === trump);
  const overtrumps = trumps.filter((x) => beats(x, winner.card, led, trump));
  const following = hand.filter((x) => suit(x) === led);
  if (led === trump) {                             // trump led: go over every trump, partner's too
    if (trumps.length === 0) return { legal: hand };
    return { legal: overtrumps.length ? overtrumps : trumps };
  }
  if (following.length) return { legal: following };
  if (trumps.length === 0) return { legal: hand };
  if (winner.seat === partner(c.seat)) return { legal: hand };  // the partner wins: play anything
  // an opponent wins: trump, over his trump when one was played; unable to, any trump
  return { legal: overtrumps.length ? overtrumps : trumps };
}

// -- score: card points, made or failed, the award (your engine) --------------------------------
function score(c) {
  const { contract } = c;
  if (!"SHDC".includes(contract.strain) || contract.strain.length !== 1) {
    return { skipped: true, reason: "contree-701 is played in the four suits only" };
  }
  const takers = TEAM[contract.declarer];
  const defenders = takers === "NS" ? "EW" : "NS";
  // card points: trick points plus 10 for the last trick; a side taking all 8 tricks counts 252
  const cardPoints = { NS: c.trick_points.NS, EW: c.trick_points.EW };
  cardPoints[c.last_trick] += 10;
  for (const side of ["NS", "EW"]) {
    if (c.tricks_won[side] === 8) {
      cardPoints[side] = 252;
      cardPoints[side === "NS" ? "EW" : "NS"] = 0;
    }
  }
  const belote = { NS: 0, EW: 0 };
  if (c.belote) belote[c.belote] = 20;            // counted automatically, never multiplied
  const capot = contract.value === "capot";
  const bid = capot ? 260 : contract.value;
  const total = (side) => cardPoints[side] + belote[side];
  const made = capot
    ? c.tricks_won[takers] === 8
    : total(takers) >= bid && total(takers) !== total(defenders);  // level totals: failed
  const award = { NS: belote.NS, EW: belote.EW };  // each side keeps its belote, made or not
  if (made) {
    award[takers] += cardPoints[takers] + bid * contract.multiplier;  // contre multiplies the bid only
    award[defenders] += cardPoints[defenders];
  } else {
    award[defenders] += 162 + bid * contract.multiplier;
  }
  return { made, card_points: cardPoints, score: award };
}

// -- the conversation (docs/protocol.md, "The conversation") -----------------------------------
const ANSWER = { dealing, legal_cards: legalCards, score };
let configured = false;

function reply(obj) {
  process.stdout.write(JSON.stringify(obj) + "\n");
}

function answer(line) {
  let req;
  try {
    req = JSON.parse(line);                        // an empty line is not JSON either
  } catch (exc) {
    return reply({ errored: true, message: `not a JSON request: ${exc.message}` });
  }
  const cmd = req !== null && typeof req === "object" && !Array.isArray(req) ? req.cmd : undefined;
  if (cmd === "stop") process.exit(0);
  if (cmd === "start") {
    // a fixed-rule engine names the one rule set it plays: the runner configures it by that id
    // and skips every other rule set (docs/protocol.md, "Engines with fixed rules")
    return reply({ protocol: 1, kinds: KINDS, variants: [RULE_SET],
                   implementation: { name: "contree-701 starter", version: "0.1",
                                     language: "JavaScript", homepage: null } });
  }
  if (cmd === "configure") {
    configured = req.variant === RULE_SET;
    return reply(configured ? { ok: true } : { ok: false, message: `I play ${RULE_SET} only` });
  }
  if (cmd === "run") {
    const { seq, case: c } = req;
    if (!configured) return reply({ seq, errored: true, message: "run before a successful configure" });
    if (c === null || typeof c !== "object" || !ANSWER[c.kind]) {
      return reply({ seq, skipped: true, reason: `kind ${JSON.stringify(c && c.kind)} not played` });
    }
    try {
      const result = ANSWER[c.kind](c);
      return reply(result.skipped ? { seq, ...result } : { seq, result });
    } catch (exc) {
      if (exc instanceof CaseError) return reply({ seq, errored: true, message: exc.message });
      return reply({ seq, errored: true, message: String(exc), traceback: exc.stack });
    }
  }
  return reply({ errored: true, message: `unknown command ${JSON.stringify(cmd)}` });
}

const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
lines.on("line", answer);
lines.on("close", () => process.exit(0));
