"""Celtae trace, the rule effects of one step: every payment, forced move, bonus, refill and
automatic action, one line each.

``substeps`` replays one ``step`` as the engine runs it: the decision's own ``apply``, then each
automatic phase and each choice the engine resolves itself (one option or none), exactly in the
order of ``rules_turn.settle``, with the same kernels. ``effects`` reads the lines off the state
before and after each of those sub-steps, so an effect that a later sub-step of the same step
undoes (a worker through the bag, a card through the market) still gets its line. The trace
checks that the replay ends in the very state and random stream ``step`` produced, so the lines
cannot drift from the rules: a change to ``settle`` that the replay does not follow stops the
trace with an error instead of printing a wrong story. No kernel changes for it: the games, and
their speed, are those of the chunk loop.
"""

from collections import Counter

import numpy as np

import sim.games.celtae.state as S
from sim.games.celtae.params import T_POSITION_REGION, T_SOLO_DISCARD
from sim.games.celtae.rules_actions import _start_action, apply
from sim.games.celtae.rules_options import legal_actions
from sim.games.celtae.rules_solo import _solo_rest, _solo_start
from sim.games.celtae.rules_turn import _end_turn, _setup_next, decline_action

POSITIONS = ("SE", "SW", "NW", "NE")
WORKERS = ("farmer", "builder", "soldier", "noble", "druid")
SPACE_NAMES = ("Cultivate/Build North", "Cultivate/Build South", "Recruit", "Combat")
PILE_NAMES = ("North army", "South army", "North druid", "South druid")
BONUS_TEXT = ("a bonus token", "recruit one worker", "take two market cards", "gain force")


class Sub:
    """One sub-step of ``step``: ``kind`` is "decision", "forced" (the engine's only option),
    "declined" (no option: the engine passes) or "auto" (an automatic phase, ``phase``)."""

    __slots__ = ("kind", "phase", "seat", "action", "before", "after")

    def __init__(self, kind, phase, seat, action, before, after):
        self.kind, self.phase, self.seat = kind, phase, seat
        self.action, self.before, self.after = action, before, after


def _after_event(s, data, rng):
    s[S.PHASE] = S.AU_SOLO_REST if s[S.SOLO_ACTING] else S.PH_CHOOSE
    s[S.DSEAT] = s[S.SEAT]


# rules_turn.settle's automatic phases and what it runs for each
AUTOMATIC = {
    S.AU_SETUP_NEXT: lambda s, data, rng: _setup_next(s, data),
    S.AU_ACTION: _start_action,
    S.AU_END_TURN: lambda s, data, rng: _end_turn(s, data),
    S.AU_SOLO_START: _solo_start,
    S.AU_SOLO_REST: _solo_rest,
    S.AU_AFTER_EVENT: _after_event,
}


def substeps(state, action, data, rng) -> list[Sub]:
    """Replay ``step(state, action)`` one sub-step at a time (``rng`` advances as in ``step``):
    the decision's ``apply``, then each pass of ``rules_turn.settle``'s loop: an automatic
    phase, or a choice with one option (taken) or none (declined)."""
    s = state.copy()
    out = [Sub("decision", int(s[S.PHASE]), int(s[S.DSEAT]), int(action), state.copy(), None)]
    apply(s, np.int32(action), data, rng)
    out[0].after = s.copy()
    buf = np.empty(S.MAX_ACTIONS, np.int32)
    while s[S.PHASE] != S.PH_OVER:
        before = s.copy()
        ph = int(s[S.PHASE])
        kind, act = "auto", -1
        if ph in AUTOMATIC:
            AUTOMATIC[ph](s, data, rng)
        else:
            n = legal_actions(s, data, buf)
            if n >= 2:
                break
            kind, act = ("forced", int(buf[0])) if n == 1 else ("declined", decline_action(ph))
            apply(s, np.int32(act), data, rng)
        out.append(Sub(kind, ph, int(before[S.DSEAT]), act, before, s.copy()))
    return out


def _pb(seat):
    return S.PLAYERS + seat * S.PW


def _who(seat, solo):
    return "Solitairix" if solo and seat == 1 else f"seat {seat}"


def _list(names) -> str:
    counts = Counter(names)
    return ", ".join(f"{k} x{v}" if v > 1 else k for k, v in counts.items())


def effects(sub: Sub, nm, data) -> list[str]:
    """The rule effects of one sub-step, one line each (without indentation)."""
    p, q = sub.before, sub.after
    solo = bool(p[S.SOLO])
    ph = sub.phase
    out: list[str] = []
    n_blocks = 2 if solo else int(p[S.NP])
    if ph == S.AU_SOLO_START:
        _solitairix_start(p, q, nm, out)
    if ph == S.AU_SOLO_REST:
        rot = (int(q[S.SOLO_SECTION]) - int(p[S.SOLO_SECTION])) % 4
        section = int(q[S.SOLO_FACE]) * 4 + int(q[S.SOLO_SECTION])
        out.append(f"Solitairix turns its tile by {rot} to section {section}")
        _workers_board(p, q, ph, sub.action, out)
        _solitairix_rest(p, q, nm, data, out)
    if ph == S.AU_ACTION:
        _action_start(p, q, nm, data, out)
    if ph == S.PH_BUILD and sub.action != S.A_STOP:
        out.append(
            f"{_who(int(p[S.DSEAT]), solo)} must pay {int(q[S.DISC_LEFT])} "
            f"{nm.colours[sub.action - S.A_BUILD]} card(s) for this Build "
            "(builders and tokens count)"
        )
    if ph == S.PH_DRUID and sub.action == S.A_YES:
        out.append(
            f"{_who(int(p[S.DSEAT]), solo)} must pay {int(q[S.DISC_LEFT])} card(s) for a druid"
        )
    _track(p, q, nm, solo, out)
    for seat in range(n_blocks):
        _seat_effects(p, q, seat, ph, sub, nm, solo, out)
    if ph != S.AU_SOLO_REST:
        _workers_board(p, q, ph, sub.action, out)
    _pools(p, q, out)
    _markets(p, q, nm, data, out)
    _citadels(p, q, nm, solo, data, out)
    _end(p, q, solo, out)
    if ph == S.AU_SOLO_REST and p[S.SOLO_CARD] >= 0:
        out.append(f"Solitairix discards its card {nm.card(int(p[S.SOLO_CARD]))}")
    return out


def _reason_force(p, ph):
    if ph == S.PH_MOVE:
        return "move"
    if ph == S.PH_REFRESH:
        return "refresh"
    if ph == S.PH_FIGHT:
        return "army fought"
    if ph == S.PH_DISCARD and p[S.DISC_MODE] == S.DM_ICON:
        return "Combat card"
    return "citadel bonus"


def _reason_pay(p, ph):
    if ph == S.PH_GARRISON:
        return "garrison"
    if ph == S.PH_DISCARD:
        r = int(p[S.RESUME])
        if r == S.RS_BUILD:
            return f"Build payment, {int(p[S.DISC_LEFT]) - 1} more to pay"
        if r == S.RS_COMBAT:
            return "Combat"
        if r == S.RS_DRUID:
            return f"druid payment, {int(p[S.DISC_LEFT]) - 1} more to pay"
        if r == S.RS_SETUP:
            return "starting hand"
    return "discard"


def _seat_effects(p, q, seat, ph, sub, nm, solo, out):
    b = _pb(seat)
    who = _who(seat, solo)
    for k in range(S.N_CARDS):  # cards that left the hand (to the discard pile) or came in
        d = int(q[b + S.P_HAND + k] - p[b + S.P_HAND + k])
        for _ in range(-d):
            out.append(f"{who} pays {nm.card(k)} ({_reason_pay(p, ph)})")
        for _ in range(d):
            out.append(f"{who} takes {nm.card(k)} into the hand")
    f0, f1 = int(p[b + S.P_FORCE]), int(q[b + S.P_FORCE])
    if f0 != f1:
        out.append(f"{who} force {f0} -> {f1} ({f1 - f0:+d}, {_reason_force(p, ph)})")
    t0, t1 = int(p[b + S.P_TOKENS]), int(q[b + S.P_TOKENS])
    if t1 < t0:
        why = "to reach any space" if ph == S.PH_CHOOSE else "as an extra worker"
        out.append(f"{who} spends a bonus token {why} (tokens {t0} -> {t1})")
    elif t1 > t0:
        out.append(f"{who} gains a bonus token, usable from its next turn (tokens {t0} -> {t1})")
    if q[S.EXTRA] > p[S.EXTRA] and seat == int(p[S.DSEAT]):
        out.append(f"{who} counts {int(q[S.EXTRA])} extra worker(s) from tokens for this action")
    if solo and seat == 1:
        return  # Solitairix's worker, tiles and cubes are told by _solitairix_rest
    _worker_moves(p, q, seat, ph, who, out)
    for off, what in ((S.P_ARMY1, "army tile (1 point)"), (S.P_ARMY2, "army tile (2 points)")):
        for _ in range(int(q[b + off] - p[b + off])):
            out.append(f"{who} takes an {what}")
    for off, what in ((S.P_DRUID1, "druid tile (1 point)"), (S.P_DRUID2, "druid tile (2 points)")):
        for _ in range(int(q[b + off] - p[b + off])):
            out.append(f"{who} takes a {what}")
    if q[b + S.P_SHORT] > p[b + S.P_SHORT]:
        out.append(f"{who} ends the refill with fewer than 3 active workers")
    if q[S.FLIP_PENDING + seat] != p[S.FLIP_PENDING + seat] and q[S.FLIP_PENDING + seat]:
        out.append(f"{who} will flip to side B (revealed when every player has decided)")
    if q[b + S.P_SIDE] != p[b + S.P_SIDE]:
        out.append(f"{who} reveals side {'AB'[int(q[b + S.P_SIDE])]}")


def _worker_moves(p, q, seat, ph, who, out):
    b = _pb(seat)
    act0 = [int(x) for x in p[b + S.P_ACTIVE : b + S.P_ACTIVE + S.ACTIVE]]
    act1 = [int(x) for x in q[b + S.P_ACTIVE : b + S.P_ACTIVE + S.ACTIVE]]
    for i in range(S.ACTIVE):
        if act0[i] == act1[i]:
            continue
        if ph == S.PH_SWAP:
            out.append(
                f"{who} swaps: active {WORKERS[act0[i]]} (slot {i + 1}) goes onto "
                f"{SPACE_NAMES[int(p[S.SPACE])]}, its {WORKERS[act1[i]]} comes into the active row"
            )
        elif act1[i] < 0:
            out.append(f"{who}'s active {WORKERS[act0[i]]} (slot {i + 1}) joins the tribe")
        elif act0[i] < 0 and ph == S.PH_REFILL:
            out.append(f"{who} takes a {WORKERS[act1[i]]} from the centre into active slot {i + 1}")
        else:
            old = WORKERS[act0[i]] if act0[i] >= 0 else "-"
            out.append(f"{who} active slot {i + 1}: {old} -> {WORKERS[act1[i]]}")
    for t in range(5):
        d = int(q[b + S.P_TRIBE + t] - p[b + S.P_TRIBE + t])
        if d > 0 and not _from_active(act0, act1, t, d):
            src = "the druid reserve" if t == S.DRUID else "the active row"
            out.append(f"{who}'s tribe gains {WORKERS[t]} x{d} (from {src})")
        elif d < 0:
            dest = "the bag"
            if ph == S.PH_ORDER:
                dest = "the box" if t == S.DRUID else "the bag (Druidic Order)"
            elif ph == S.PH_OVERFLOW:
                dest = _overflow_dest(p, q, t)
            out.append(f"{who}'s tribe returns {WORKERS[t]} x{-d} to {dest}")


def _from_active(act0, act1, t, d):
    gone = sum(1 for i in range(S.ACTIVE) if act0[i] == t and act1[i] < 0)
    return gone == d


def _overflow_dest(p, q, t):
    if q[S.BOXED_DRUIDS] > p[S.BOXED_DRUIDS] or q[S.BOXED_WORKERS] > p[S.BOXED_WORKERS]:
        return "the box (tribe over its cap)"
    if q[S.RESERVE] + q[S.RESERVE + 1] > p[S.RESERVE] + p[S.RESERVE + 1]:
        return "the druid reserve (tribe over its cap)"
    return "the bag (tribe over its cap)"


def _workers_board(p, q, ph, action, out):
    """Centre, action spaces, bag, reserves: refreshes, refills from the bag."""
    sp_changed = [
        k
        for k in range(S.N_SPACES)
        if not np.array_equal(
            p[S.SPACES + 3 * k : S.SPACES + 3 * k + 3], q[S.SPACES + 3 * k : S.SPACES + 3 * k + 3]
        )
    ]
    c0 = [int(x) for x in p[S.CENTRE : S.CENTRE + S.SLOTS]]
    c1 = [int(x) for x in q[S.CENTRE : S.CENTRE + S.SLOTS]]
    refreshed = False
    for k in sp_changed:
        old = [int(x) for x in p[S.SPACES + 3 * k : S.SPACES + 3 * k + 3]]
        new = [int(x) for x in q[S.SPACES + 3 * k : S.SPACES + 3 * k + 3]]
        if c0 != c1 and sorted(new) == sorted(c0):
            refreshed = True
            out.append(
                f"refresh of {SPACE_NAMES[k]}: [{_ws(old)}] back to the bag, the centre's "
                f"[{_ws(c0)}] onto the space, [{_ws(c1)}] drawn from the bag into the centre"
            )
        elif ph != S.PH_SWAP and ph != S.AU_SOLO_REST:
            out.append(f"{SPACE_NAMES[k]}: [{_ws(old)}] -> [{_ws(new)}]")
    if ph == S.PH_REFILL and action != S.A_STOP:
        k = c0.index(action - S.A_WORKER)  # the first centre worker of the type taken
        drawn = WORKERS[c1[k]] if c1[k] >= 0 else "nothing (the bag is empty)"
        out.append(f"centre slot {k + 1}: {drawn} drawn from the bag")
    elif c0 != c1 and not refreshed:
        for k in range(S.SLOTS):
            if c0[k] != c1[k]:
                drawn = WORKERS[c1[k]] if c1[k] >= 0 else "nothing (the bag is empty)"
                out.append(f"centre slot {k + 1}: {drawn} drawn from the bag")


def _pools(p, q, out):
    """The box, the druid reserves and the bag: what went in or out of them."""
    if q[S.BOXED_DRUIDS] > p[S.BOXED_DRUIDS]:
        out.append(f"{int(q[S.BOXED_DRUIDS] - p[S.BOXED_DRUIDS])} druid(s) go to the box")
    if q[S.BOXED_WORKERS] > p[S.BOXED_WORKERS]:
        out.append(f"{int(q[S.BOXED_WORKERS] - p[S.BOXED_WORKERS])} worker(s) go to the box")
    for r in range(2):
        if q[S.RESERVE + r] != p[S.RESERVE + r]:
            region = ("North", "South")[r]
            out.append(f"{region} druid reserve {int(p[S.RESERVE + r])} -> {int(q[S.RESERVE + r])}")
    bag = [int(q[S.BAG + t] - p[S.BAG + t]) for t in range(S.N_BAGTYPES)]
    if any(bag):
        parts = [f"{WORKERS[t]} {d:+d}" for t, d in enumerate(bag) if d]
        out.append(f"bag: {', '.join(parts)} (now {_bag(q)})")


def _ws(row) -> str:
    return " ".join(WORKERS[t] if t >= 0 else "-" for t in row)


def _bag(s) -> str:
    return " ".join(f"{WORKERS[t]}x{int(s[S.BAG + t])}" for t in range(S.N_BAGTYPES))


def _removed_from_markets(p, q, data):
    """Cards that left the markets in this sub-step: into a hand, or (Solitairix's Cultivate)
    the slots its tile names, onto the discard pile."""
    if p[S.PHASE] == S.AU_SOLO_REST:
        section = int(q[S.SOLO_FACE]) * 4 + int(q[S.SOLO_SECTION])
        mask = int(data.tab[T_SOLO_DISCARD + section])
        r = int(data.tab[T_POSITION_REGION + int(q[S.PAWN])])
        m = S.MARKET + r * S.MARKET_SIZE
        return sum(1 for i in range(S.MARKET_SIZE) if mask & (1 << i) and p[m + i] >= 0)
    gained = 0
    for seat in range(S.MAX_PLAYERS):
        b = _pb(seat) + S.P_HAND
        gained += sum(max(int(q[b + k] - p[b + k]), 0) for k in range(S.N_CARDS))
    return gained


def _markets(p, q, nm, data, out):
    changed = [
        r
        for r in range(2)
        if not np.array_equal(
            p[S.MARKET + r * S.MARKET_SIZE : S.MARKET + (r + 1) * S.MARKET_SIZE],
            q[S.MARKET + r * S.MARKET_SIZE : S.MARKET + (r + 1) * S.MARKET_SIZE],
        )
    ]
    removed = _removed_from_markets(p, q, data) if changed else 0
    if len(changed) != 1 and removed:
        return  # never both markets in one sub-step
    for r in changed:
        m = S.MARKET + r * S.MARKET_SIZE
        a = [int(x) for x in p[m : m + S.MARKET_SIZE]]
        b = [int(x) for x in q[m : m + S.MARKET_SIZE]]
        if any(b[i] < 0 <= b[i + 1] for i in range(S.MARKET_SIZE - 1)):
            continue  # a card taken without a slide (Cultivate's first card, slot 1)
        survivors = sum(1 for c in a if c >= 0) - removed
        drawn = b[survivors:]
        out.append(
            f"the {nm.regions[r]} market slides left and draws "
            + ", ".join(nm.card(c) if c >= 0 else "nothing (no card left)" for c in drawn)
        )


def _citadels(p, q, nm, solo, data, out):
    for cit in range(8):
        region, colour = divmod(cit, 4)
        name = f"the {nm.colours[colour]} citadel in the {nm.regions[region]}"
        for seat in range(S.MAX_PLAYERS):
            i = S.CIT_DISCS + cit * S.MAX_PLAYERS + seat
            if q[i] > p[i]:
                out.append(
                    f"{_who(seat, solo)} places a disc on {name} "
                    f"({int(q[S.CIT_FILLED + cit])} of {int(q[S.CIT_CAP + cit])} filled)"
                )
                if not (solo and seat == 1):
                    bonus = int(q[S.CIT_BONUS + cit])
                    text = BONUS_TEXT[bonus]
                    if bonus == 0 and q[_pb(seat) + S.P_TOKENS] == p[_pb(seat) + S.P_TOKENS]:
                        text += " (none left in the reserve)"
                    out.append(f"{name} gives its bonus: {text}")
        if q[S.CIT_DONE + cit] != p[S.CIT_DONE + cit]:
            who = _who(int(q[S.CIT_DONE + cit]), solo)
            out.append(f"{name} is complete (bonus tile to {who})")
    for g in range(2 * S.GARRISON_SLOTS):
        if q[S.GARRISON + g] != p[S.GARRISON + g]:
            r, k = divmod(g, S.GARRISON_SLOTS)
            out.append(
                f"{_who(int(q[S.GARRISON + g]), solo)} places a garrison cube on the "
                f"{nm.regions[r]} slot {k + 1}"
            )
    for pile in range(S.N_PILES):
        if q[S.PILE_POS + pile] != p[S.PILE_POS + pile]:
            left = int(q[S.PILE_END + pile] - q[S.PILE_POS + pile])
            out.append(f"the {PILE_NAMES[pile]} pile has {left} tile(s) left")
        if p[S.PILE_PAWN + pile] and not q[S.PILE_PAWN + pile]:
            fate = (
                "is discarded"
                if q[S.PAWNS_DISCARDED] > p[S.PAWNS_DISCARDED]
                else "goes onto a progress card of the taker's choice"
            )
            out.append(f"the {PILE_NAMES[pile]} pile is empty: its progress pawn {fate}")


def _track(p, q, nm, solo, out):
    if q[S.TRACK] != p[S.TRACK]:
        placer = "the player" if solo else f"seat {int(q[S.TEUTATES])} (Teutates)"
        out.append(
            f"river crossed: track {int(p[S.TRACK])} -> {int(q[S.TRACK])} pawns; {placer} places it"
        )
    for j in range(8):
        if q[S.PCARD_PAWNS + j] != p[S.PCARD_PAWNS + j]:
            out.append(
                f"a progress pawn goes onto P{int(q[S.PCARD + j]) + 1:02d} "
                f"({int(q[S.PCARD_PAWNS + j])} of {int(q[S.PCARD_CAP + j])})"
            )
    pile_pawn = any(p[S.PILE_PAWN + k] and not q[S.PILE_PAWN + k] for k in range(S.N_PILES))
    if q[S.PAWNS_DISCARDED] > p[S.PAWNS_DISCARDED] and not pile_pawn:
        out.append("a progress pawn is discarded (no free place on a progress card)")
    if not solo and q[S.TEUTATES] != p[S.TEUTATES]:
        out.append(f"Teutates passes to seat {int(q[S.TEUTATES])}")
    if q[S.PHASE] == S.PH_FLIP and p[S.PHASE] != S.PH_FLIP:
        out.append(
            f"{int(q[S.TRACK])} pawns left on the track: each player decides whether to flip the "
            f"leader, from seat {int(q[S.FLIP_SEAT])}"
        )
    if q[S.TRIGGERED] and not p[S.TRIGGERED]:
        out.append("the progress track is empty: the end is triggered")
    if q[S.RESHUFFLES] != p[S.RESHUFFLES]:
        out.append("the deck is rebuilt from the discard pile")


def _end(p, q, solo, out):
    if q[S.FINAL] and not p[S.FINAL]:
        out.append("final round: every player takes a double turn")
    if q[S.OVER] and not p[S.OVER]:
        why = "the final round is played" if q[S.REASON] == S.R_TRACK_EMPTY else "the round cap"
        out.append(f"the game is over ({why}): final scoring")


def _action_start(p, q, nm, data, out):
    kind = int(p[S.KIND])
    seat = int(p[S.SEAT])
    if kind == S.K_CULTIVATE:
        out.append(
            f"seat {seat} takes the card in slot 1 of the {nm.regions[int(p[S.REGION])]} market"
        )
    elif kind == S.K_RECRUIT:
        out.append(f"seat {seat} may recruit up to {int(q[S.R_MAX])} worker(s) (nobles + 1)")
    elif kind == S.K_COMBAT:
        out.append(f"seat {seat} discards cards of one icon for force")


def _solitairix_start(p, q, nm, out):
    card = int(q[S.SOLO_CARD])
    d = (int(q[S.PAWN]) - int(p[S.PAWN])) % 4
    why = " (its colour matches the top discard)" if d == 2 else ""
    out.append(
        f"Solitairix draws {nm.card(card) if card >= 0 else 'no card (deck empty)'} and moves "
        f"the pawn {d}{why}: {POSITIONS[int(p[S.PAWN])]} -> {POSITIONS[int(q[S.PAWN])]}"
    )


def _solitairix_rest(p, q, nm, data, out):
    x = _pb(1)
    w0, w1 = int(p[x + S.P_ACTIVE]), int(q[x + S.P_ACTIVE])
    if w0 != w1:
        out.append(
            f"Solitairix swaps its {WORKERS[w0] if w0 >= 0 else '-'} for a "
            f"{WORKERS[w1] if w1 >= 0 else '-'} of the action space"
        )
    card = int(p[S.SOLO_CARD])
    if q[x + S.P_DISCS] < p[x + S.P_DISCS]:
        out.append(
            f"Solitairix builds on the {nm.colours[card // S.N_ICONS]} citadel (its card's colour)"
        )
    elif q[x + S.P_ARMY1] + q[x + S.P_ARMY2] > p[x + S.P_ARMY1] + p[x + S.P_ARMY2]:
        pts = 1 if q[x + S.P_ARMY1] > p[x + S.P_ARMY1] else 2
        out.append(f"Solitairix fights: takes an army tile ({pts} point(s))")
    elif q[x + S.P_DRUID1] + q[x + S.P_DRUID2] > p[x + S.P_DRUID1] + p[x + S.P_DRUID2]:
        pts = 1 if q[x + S.P_DRUID1] > p[x + S.P_DRUID1] else 2
        out.append(f"Solitairix recruits: takes a druid tile ({pts} point(s))")
    else:
        out.append("Solitairix cultivates: discards the market cards its tile shows")
    if q[x + S.P_TRIBE + S.DRUID] > p[x + S.P_TRIBE + S.DRUID]:
        out.append("Solitairix takes a druid from the reserve")
    if (
        q[x + S.P_DISCS] == p[x + S.P_DISCS]
        and q[x + S.P_ARMY1] + q[x + S.P_ARMY2] + q[x + S.P_DRUID1] + q[x + S.P_DRUID2]
        == p[x + S.P_ARMY1] + p[x + S.P_ARMY2] + p[x + S.P_DRUID1] + p[x + S.P_DRUID2]
    ):
        section = int(q[S.SOLO_FACE]) * 4 + int(q[S.SOLO_SECTION])
        mask = int(data.tab[T_SOLO_DISCARD + section])
        r = int(data.tab[T_POSITION_REGION + int(q[S.PAWN])])
        m = S.MARKET + r * S.MARKET_SIZE
        for i in range(S.MARKET_SIZE):
            if mask & (1 << i) and p[m + i] >= 0:
                out.append(
                    f"{nm.card(int(p[m + i]))} goes from slot {i + 1} of the {nm.regions[r]} "
                    "market to the discard pile"
                )


__all__ = ["Sub", "effects", "substeps", "POSITIONS", "SPACE_NAMES", "WORKERS"]
