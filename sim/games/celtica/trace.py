"""Celtica readable trace: one game replayed with the same kernels and streams as the chunk loop,
one line per event (deals, cards played, druid moves, fragments taken and returned, XP and
sacred draws, display refills, reshuffles, seats skipped, the end of each round and who starts
the next, the end and the hands discarded, the final exchanges with the XP paid and the seats
passed over, the amulets and the ranking). A choice is written unindented; what the rules did
on their own after it is indented beneath it, in rule order (see :class:`_Step`).

The trace shows every hand (it is the designer's view, not a player's). Events are read off the
difference between the state before and after each ``step``, so the log cannot drift from the
rules: it describes what the kernels did.
"""

import numpy as np

from sim.core.results import ChunkResult
from sim.core.rng import new_streams, seed_streams
from sim.games.celtica import state as S
from sim.games.celtica.decisions import DECISION_KINDS, decision_kind
from sim.games.celtica.params import (
    G_DISPLAY,
    G_DRUIDS,
    G_FINISH,
    G_HAND,
    G_RUIN_XP,
    G_SACRED_DRAW,
    colour_names,
    compile_data,
    track_labels,
    type_names,
)
from sim.games.celtica.play import PLAYER_EXTRAS, SCORE_COMPONENTS, write_results
from sim.games.celtica.rules import current_player, init_state, is_over, step
from sim.games.celtica.state import (
    A_DRAW,
    A_PASS,
    A_RETURN,
    A_TAKE,
    A_XDONE,
    A_XSWAP,
    A_XTAKE,
    DISPLAY,
    DRUID_SHUFFLES,
    END_REASONS,
    FRAG,
    FRAG_SHUFFLES,
    HAND,
    MAX_ACTIONS,
    MAX_TYPES,
    N_COLOURS,
    OVER,
    PH_DIG,
    PH_EXCHANGE,
    PH_PLAY,
    PH_RUIN,
    PH_SACRED,
    PHASE,
    POS,
    REASON,
    RESERVE_N,
    RETURNED_N,
    ROUND,
    SEAT,
    STARTER,
    STATE_LEN,
    TURNS,
    XP,
    XP_SHUFFLES,
)
from strategies.celtica import choose_action, choose_plain
from strategies.search import chunk_loop


class _Names:
    def __init__(self, params):
        self.colours = colour_names()
        self.types = type_names()
        self.places = track_labels(params)
        self.n_types = params["fragments_per_amulet"]

    def cards(self, row) -> str:
        parts = [f"{int(n)} {self.colours[c]}" for c, n in enumerate(row) if n]
        return ", ".join(parts) or "none"

    def frags(self, row) -> str:
        parts = [
            f"{self.types[t]}x{int(n)}" if n > 1 else self.types[t]
            for t, n in enumerate(row[: self.n_types])
            if n
        ]
        return " ".join(parts) or "none"


def _hand(s, seat):
    return s[HAND + seat * N_COLOURS : HAND + (seat + 1) * N_COLOURS]


def _xp(s, seat):
    return s[XP + seat * N_COLOURS : XP + (seat + 1) * N_COLOURS]


def _frag(s, seat):
    return s[FRAG + seat * MAX_TYPES : FRAG + (seat + 1) * MAX_TYPES]


def _display(s):
    return s[DISPLAY : DISPLAY + MAX_TYPES]


def _board(s, names, n_druids) -> str:
    pos = ", ".join(f"{names.colours[c]} {int(s[POS + c])}" for c in range(n_druids))
    return (
        f"druids: {pos} | display: {names.frags(_display(s))} | reserve {int(s[RESERVE_N])}"
        f", returned {int(s[RETURNED_N])}"
    )


def _deal_lines(s, names, players) -> list[str]:
    lines = [f"round {int(s[ROUND])}: seat {int(s[STARTER])} starts; hands dealt"]
    for p in range(players):
        lines.append(
            f"  seat {p} hand: {names.cards(_hand(s, p))}; XP: {names.cards(_xp(s, p))}"
            f"; fragments: {names.frags(_frag(s, p))}"
        )
    return lines


def _expected_display(a, action, swap_to_display):
    """The display after ``action`` but before any refill."""
    d = _display(a).astype(np.int64)
    if a[PHASE] == PH_DIG:
        d[action - A_TAKE] -= 1
    elif a[PHASE] == PH_EXCHANGE and action != A_XDONE:
        if action >= A_XSWAP:
            d[(action - A_XSWAP) & 15] -= 1
            if swap_to_display:
                d[(action - A_XSWAP) >> 4] += 1
        else:
            d[action - A_XTAKE] -= 1
    return d


def _played(a, action):
    """(colour, Druid cards, XP cards) of a PLAY action in ``a``, else None."""
    if a[PHASE] != PH_PLAY or action == A_PASS:
        return None
    return action >> 10, (action >> 5) & 31, action & 31


def _seats_between(first, last, n):
    """Seats strictly after ``first`` and before ``last``, clockwise (all others if equal)."""
    out, s = [], (first + 1) % n
    while s != last:
        out.append(s)
        s = (s + 1) % n
    return out


_CAPPED = {  # kind: (its decision, capped, nothing there, value 0)
    S.K_DIG: (
        PH_DIG,
        "the display holds only {n}: seat {s} takes {n} of {v}",
        "nothing to take: the display is empty",
        "it gives nothing",
    ),
    S.K_RUIN: (
        PH_RUIN,
        "seat {s} holds only {n} fragment(s): it returns {n} of {v}",
        "seat {s} has no fragment to return",
        "it takes nothing",
    ),
}


class _Step:
    """The lines of one ``step`` from ``a`` to ``b`` after the action line, in rule order (§4.2,
    §5): the landing's automatic effects, the completion of a dig (refill) or a ruin (XP draw),
    the first druid home, then the end of the turn: the next seat (and those skipped), the end of
    the round and the new deal, or the end of the game; in the final exchange the XP paid, the
    refill after each seat and the seats passed over."""

    def __init__(self, a, b, action, names, data, swap_to_display):
        self.a, self.b, self.action, self.names, self.data = a, b, action, names, data
        self.swap_to_display = swap_to_display
        self.seat = int(a[SEAT])
        self.n = int(a[S.NP])
        self.lines: list[str] = []

    def add(self, text: str) -> None:
        self.lines.append(f"  {text}")

    def shuffled(self, field: int) -> bool:
        return bool(self.b[field] > self.a[field])

    def run(self) -> list[str]:
        a, b = self.a, self.b
        if a[PHASE] == PH_EXCHANGE:
            self.exchange()
            return self.lines
        if self.shuffled(DRUID_SHUFFLES) and b[ROUND] == a[ROUND]:
            self.add("the Druid pile is empty: the discard is reshuffled into a new draw pile")
        if a[PHASE] == PH_PLAY and self.action != A_PASS:
            self.landing()
        elif a[PHASE] == PH_DIG and b[PHASE] != PH_DIG:
            self.refill()
        elif a[PHASE] == PH_RUIN and b[PHASE] != PH_RUIN:
            self.xp_reward()
        if b[S.HOME] and not a[S.HOME]:
            c = int(np.argmax(b[POS : POS + N_COLOURS] == self.data.rules[G_FINISH]))
            self.add(
                f"the {self.names.colours[c]} druid is the first on the finish: "
                "this round is the last"
            )
        if b[PHASE] in (PH_DIG, PH_RUIN, PH_SACRED):
            return self.lines
        self.turn_end()
        return self.lines

    def landing(self):
        """What the landing location did on its own (no decision), or the decision it opens."""
        b, r = self.b, self.data.rules
        land = int(b[S.LAND])
        if land < 0:
            return
        kind, value = int(self.data.loc_kind[land]), int(self.data.loc_value[land])
        if kind in _CAPPED:  # A8, A9: a dig or ruin takes what there is
            phase, capped, nothing, zero = _CAPPED[kind]
            n = int(b[S.PENDING])
            if b[PHASE] == phase and n < value:
                self.add(capped.format(n=n, s=self.seat, v=value))
            elif b[PHASE] != phase:
                self.add((nothing if value else zero).format(s=self.seat))
                (self.refill if kind == S.K_DIG else self.xp_reward)()
        if kind == S.K_SACRED and b[PHASE] != PH_SACRED:
            why = "no Druid card is left to draw" if r[G_SACRED_DRAW] else "no draw (lever)"
            self.add(f"sacred place: {why}")

    def refill(self):
        """Refill of the display after a dig (or a seat's final exchange)."""
        if self.shuffled(FRAG_SHUFFLES):
            self.add("the reserve is empty: the returned pile is reshuffled into it")
        added = _display(self.b).astype(np.int64) - _expected_display(
            self.a, self.action, self.swap_to_display
        )
        if added.sum() > 0:
            self.add(
                f"display refilled with {self.names.frags(added)} "
                f"(reserve {int(self.b[RESERVE_N])})"
            )
        elif self.b[S.DISPLAY_N] < self.data.rules[G_DISPLAY]:
            self.add(f"no fragment left to refill the display ({int(self.b[S.DISPLAY_N])} shown)")

    def xp_reward(self):
        """The ruin's XP card (A12: none when the XP pile and its discard are empty)."""
        if not self.data.rules[G_RUIN_XP]:
            return
        if self.shuffled(XP_SHUFFLES):
            self.add("the XP pile is empty: the XP discard is reshuffled into a new XP pile")
        xp = _xp(self.a, self.seat).astype(np.int64)
        play = _played(self.a, self.action)
        if play:
            xp[play[0]] -= play[2]
        gained = _xp(self.b, self.seat) - xp
        if gained.max() > 0:
            self.add(f"seat {self.seat} draws XP: {self.names.cards(np.maximum(gained, 0))}")
        else:
            self.add(f"seat {self.seat} draws no XP card: none is left")

    def turn_end(self):
        a, b, n = self.a, self.b, self.n
        if b[PHASE] == PH_EXCHANGE or b[OVER]:
            self.game_end()
            return
        if b[ROUND] != a[ROUND]:
            self.add(
                f"no player holds a Druid card: round {int(a[ROUND])} ends "
                f"(seat {int(b[S.LAST_MOVER])} made the last move)"
            )
            self.lines += _deal_lines(b, self.names, n)
            if self.shuffled(DRUID_SHUFFLES):
                k = int(a[S.PILE_N]) // self.data.rules[G_HAND]
                self.add(
                    f"the Druid pile ran out while dealing seat {k}'s hand: the discard was "
                    "reshuffled into a new draw pile"
                )
            self.add(_board(b, self.names, self.data.rules[G_DRUIDS]))
            first = int(b[STARTER])
            skipped = _seats_between((first - 1) % n, int(b[SEAT]), n)
        else:
            skipped = _seats_between(self.seat, int(b[SEAT]), n)
        if skipped:
            who = ", ".join(str(s) for s in skipped)
            verb = "seat" if len(skipped) == 1 else "seats"
            holds = "holds" if len(skipped) == 1 else "hold"
            nxt = int(b[SEAT])
            again = " again" if nxt == self.seat and b[ROUND] == self.a[ROUND] else ""
            self.add(f"{verb} {who} {holds} no Druid card: skipped, seat {nxt} plays{again}")

    def game_end(self):
        b = self.b
        why = {
            "druid_home_round_end": "no player holds a Druid card and a druid is home",
            "all_druids_home": "all druids are on the finish",
            "no_fragments": "no fragment is left on the display or in the reserve",
            "first_druid_home": "a druid reached the finish (immediate end)",
            "turn_cap": "the round cap is reached",
        }[END_REASONS[int(b[REASON])]]
        self.add(f"the game ends: {why}")
        self.discarded_hands()
        self.lines.append(
            f"game ends ({END_REASONS[int(b[REASON])]}), hands discarded; "
            + _board(b, self.names, self.data.rules[G_DRUIDS])
        )
        if b[PHASE] == PH_EXCHANGE or b[REASON] != S.R_TURN_CAP:
            first = (int(b[S.LAST_MOVER]) + 1) % self.n
            self.lines.append(f"final exchanges, seat {first} first")
            self.passed_over(first, finished=False)

    def discarded_hands(self):
        a, b = self.a, self.b
        hands = [_hand(a, s).astype(np.int64) for s in range(self.n)]
        play = _played(a, self.action)
        if play:
            hands[self.seat][play[0]] -= play[1]
        if not self.shuffled(DRUID_SHUFFLES):  # a sacred draw just before the end
            drawn = (a[S.PILE : S.PILE + N_COLOURS] - b[S.PILE : S.PILE + N_COLOURS]).astype(
                np.int64
            )
            hands[self.seat] += np.maximum(drawn, 0)
        for s in range(self.n):
            if hands[s].sum():
                self.add(f"seat {s} discards its hand: {self.names.cards(hands[s])}")

    def passed_over(self, s0: int, finished: bool) -> None:
        """Seats the final exchange passed over (no exchange they can make), counting on from
        ``s0``; ``finished``: ``s0`` is the seat that just finished exchanging."""
        a, b = self.a, self.b
        done = int(a[S.EXCH_DONE]) if a[PHASE] == PH_EXCHANGE else 0
        seats = [(s0 + i) % self.n for i in range(int(b[S.EXCH_DONE]) - done)]
        for s in seats[1:] if finished else seats:
            self.add(f"seat {s} has no exchange it can make ({xp_total(b, s)} XP): passed over")
        if b[OVER]:
            self.add("every seat has had its final exchange: the game is over")

    def exchange(self):
        a, b, seat = self.a, self.b, self.seat
        if self.action != A_XDONE:
            paid = (_xp(a, seat) - _xp(b, seat)).astype(np.int64)
            self.add(f"seat {seat} pays {int(paid.sum())} XP: {self.names.cards(paid)}")
        if b[OVER] or b[SEAT] != seat:
            self.add(f"seat {seat} has finished exchanging")
            self.refill()
            self.passed_over(seat, finished=True)


def xp_total(s, seat) -> int:
    return int(_xp(s, seat).sum())


def _action_line(a, b, action, names) -> str:
    seat = int(a[SEAT])
    phase = a[PHASE]
    if phase == PH_PLAY:
        if action == A_PASS:
            return f"seat {seat} passes for the rest of the round"
        c, kd, kx = action >> 10, (action >> 5) & 31, action & 31
        cards = f"{kd} {names.colours[c]}" + (f" + {kx} XP" if kx else "")
        before, after = int(a[POS + c]), int(b[POS + c])
        if before == after:
            return f"seat {seat} plays {cards}: the {names.colours[c]} druid is home, no effect"
        return (
            f"seat {seat} plays {cards}: {names.colours[c]} druid {before} -> {after} "
            f"({names.places[after]})"
        )
    if phase == PH_DIG:
        return f"seat {seat} takes {names.types[action - A_TAKE]}"
    if phase == PH_RUIN:
        return f"seat {seat} returns {names.types[action - A_RETURN]}"
    if phase == PH_SACRED:
        if action == A_DRAW:
            drawn = np.maximum(_hand(b, seat) - _hand(a, seat), 0)
            return f"seat {seat} draws a Druid card at the sacred place: {names.cards(drawn)}"
        return f"seat {seat} declines the sacred-place draw"
    if action == A_XDONE:
        return f"seat {seat} stops exchanging"
    if action >= A_XSWAP:
        give, take = (action - A_XSWAP) >> 4, (action - A_XSWAP) & 15
        return f"seat {seat} swaps {names.types[give]} for {names.types[take]} (XP)"
    return f"seat {seat} takes {names.types[action - A_XTAKE]} for XP"


def _ranking(result, players) -> str:
    """Places by complete amulets, then the incomplete ones largest first (§6); ties share."""
    key = {
        p: (int(result.score[0, p]), *map(int, result.extras[0, p, :10])) for p in range(players)
    }
    order = sorted(range(players), key=lambda p: key[p], reverse=True)
    places, place = [], 0
    for i, p in enumerate(order):
        if i == 0 or key[p] != key[order[i - 1]]:
            place = i + 1
        places.append(f"{place}. seat {p}")
    return "ranking: " + ", ".join(places)


def trace(setup, seed: int) -> tuple[list[str], ChunkResult]:
    """Play one game of ``setup`` from ``seed`` and describe it; same seed, same lines."""
    params = dict(setup.params)
    data = compile_data(params)
    codes, bot_params = setup.bot_arrays()
    choose = chunk_loop(codes, choose_action, choose_plain)  # greedy never compiles the search
    players = setup.players
    names = _Names(params)
    n_druids = params["druids"]
    swap_to_display = params["swap_goes_to"] == "display"
    streams = new_streams(players)
    seed_streams(streams, np.uint64(seed))
    a = np.zeros(STATE_LEN, np.int32)
    b = np.zeros(STATE_LEN, np.int32)
    buf = np.zeros(MAX_ACTIONS, np.int32)
    init_state(data, players, streams[0], a)
    bots = ", ".join(f"seat {s} {spec}" for s, spec in enumerate(setup.bots))
    lines = [f"Celtica, {players} players: {bots}", _board(a, names, n_druids)]
    counts = np.zeros((players, len(DECISION_KINDS)), np.int32)
    lines += _deal_lines(a, names, players)
    while not is_over(a):
        seat = int(current_player(a))
        act = int(choose(a, data, seat, codes[seat], bot_params[seat], streams[1 + seat], buf))
        counts[seat, decision_kind(a, act)] += 1
        step(a, np.int32(act), data, streams[0], b)
        lines.append(_action_line(a, b, act, names))
        lines += _Step(a, b, act, names, data, swap_to_display).run()
        a, b = b, a
    result = ChunkResult.empty(
        1, players, len(SCORE_COMPONENTS), len(PLAYER_EXTRAS), len(DECISION_KINDS)
    )
    result.actions[0] = counts
    write_results(
        a,
        data,
        0,
        result.rounds,
        result.turns,
        result.end_reason,
        result.score,
        result.components,
        result.extras,
    )
    for p in range(players):
        sizes = [int(v) for v in result.extras[0, p, :10] if v]
        lines.append(
            f"seat {p}: fragments {names.frags(_frag(a, p))}; "
            f"{int(result.score[0, p])} complete amulet(s), incomplete {sizes or '-'}, "
            f"{int(result.extras[0, p, 11])} XP unused"
        )
    lines.append(_ranking(result, players))
    lines.append(
        f"end: {END_REASONS[int(result.end_reason[0])]} after {int(a[ROUND])} round(s), "
        f"{int(a[TURNS])} turns"
    )
    return lines, result
