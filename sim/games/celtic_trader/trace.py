"""A readable log of one Celtic Trader game, replayed with the same compiled kernels.

Each action is written as the deciding seat's choice; what the rules did on their own in the
same step is written after it, one effect a line, in the order of the turn flow of
rules/celtic-trader.md: the decision's own effects (payment, demand change, upgrade, RP to VP),
the end of the turn, the next seat's role pick, its draws and the automatic resolution of each
token (placements, demand raises, Romans, conquests with the Romans removed, the cycle refill,
orders), end-of-game triggers. A :class:`_Replay` walks that flow over a copy of the state
before the step, reading every chance outcome (tokens drawn, blind role picks) and every payment
off the state after; it must arrive at that state exactly, field by field. If it does not (a
rule it does not know), the step is described by the raw state difference under a line saying
so, so the trace cannot silently drift from the kernels.
"""

from __future__ import annotations

from collections import deque

import numpy as np

from sim.core.results import ChunkResult
from sim.core.rng import seed_streams
from sim.games.celtic_trader import state as S
from sim.games.celtic_trader.decisions import DECISION_KINDS, decision_kind
from sim.games.celtic_trader.params import (
    CAP_NAMES,
    K_ARM,
    K_HUB,
    N_CAPS,
    N_LEVELS,
    O_BAST_ARMS,
    O_BAST_HUB,
    O_BAST_NARMS,
    O_CARRY_Y,
    O_COL_VALUE,
    O_ROLE_BONUS,
    O_ROLE_RP_VP,
    O_ROLE_START,
    O_RULES,
    O_SEC_BAST,
    O_SEC_KIND,
    O_SEC_ROMAN,
    O_SPOT_RES,
    O_SPOT_SEC,
    O_START_COL,
    O_TRADE_VAL,
    O_UPG_COST,
    R_ARM_SPOTS,
    R_CAP_ROUNDS,
    R_DRAWS,
    R_HUB_SPOTS,
    R_NSEC,
    R_NSPOT,
    R_PER_VISIT,
    R_RAISE_ANY,
    R_RELOC_FIRST,
    R_ROLES_IN_PLAY,
    R_SC,
    R_START_FIXED,
    R_TURN_LIMIT,
    ROLE_IDS,
    bastion_names,
    resource_names,
    section_names,
)
from sim.games.celtic_trader.play import game_data, role_mode_of, trader_kernel, write_results
from sim.games.celtic_trader.rules import current_player, init_state, is_over, step
from sim.games.celtic_trader.setup import setup_state
from strategies.celtic_trader import choose_action, choose_plain
from strategies.search import chunk_loop

END_NAMES = ("all_conquered", "supply_exhausted", "turn_limit", "turn_cap")
N_BAST = 6
N_RES = 6
STOP = "stop"


def _kind_names() -> list[str]:
    return [*resource_names(), "Roman", "cycle", "orders", "Romanisation", "druid", "crystal",
            "gold", "bread", "ring", "elixir"]  # fmt: skip


def describe_action(state: np.ndarray, action: int) -> str:
    """The decision ``action`` taken in ``state``, in words."""
    sec, res, bas = section_names(), resource_names(), bastion_names()
    kinds = _kind_names()
    ph = int(state[S.PHASE])
    pb = S.pbase(int(state[S.CUR]))
    if ph == S.PH_MOVE:
        if action == S.A_PASS:
            return "ends movement"
        if action < S.A_SPOT:
            return f"moves to {sec[action - S.A_SEC]}"
        if action < S.A_BAST:
            return f"picks up {res[_spot_res(action - S.A_SPOT)]}"
        return f"discards {res[action - S.A_DISCARD]}"
    if ph == S.PH_DELIVER:
        if action == S.A_PASS:
            return "delivers nothing more"
        a = action - S.A_DELIVER
        return f"delivers {a % S.MAX_DELIVER + 1} {res[a // S.MAX_DELIVER]}"
    if ph == S.PH_UPGRADE:
        if action == S.A_PASS:
            return "buys no more upgrades"
        c = action - S.A_UPGRADE
        return f"upgrades {CAP_NAMES[c]} to level {int(state[pb + S.P_MOVE + c]) + 1}"
    if ph == S.PH_CLAIM:
        if action == S.A_PASS:
            return "claims no VP"
        return f"claims {action - S.A_CLAIM} VP"
    if ph == S.PH_ORDER:
        return f"resolves the {kinds[int(state[S.PENDING + action - S.A_ORDER])]} token first"
    if ph == S.PH_SPOT:
        sp = action - S.A_SPOT
        return f"places the {res[_spot_res(sp)]} token on {sec[_spot_sec(sp)]}"
    if ph == S.PH_RAISE:
        return f"raises {res[int(state[S.TOKEN])]} demand at {bas[action - S.A_BAST]}"
    if ph == S.PH_ROMAN:
        return f"places the Roman on {sec[action - S.A_SEC]}"
    if ph == S.PH_RELOCATE:
        here = sec[int(state[pb + S.P_POS])]
        if action == S.A_PASS:
            return f"leaves the Roman on {here}"
        return f"moves the Roman on {here} to {sec[action - S.A_SEC]}"
    if ph == S.PH_ORDERS:
        return f"orders: removes the Roman from {sec[action - S.A_SEC]}"
    if ph == S.PH_ROMANISE:
        return f"Romanisation: chooses {bas[action - S.A_BAST]}"
    if ph == S.PH_START:
        return f"starts on {sec[action - S.A_SEC]}"
    if ph == S.PH_ROLE:
        return f"takes the role {ROLE_IDS[action - S.A_ROLE]} (open draft)"
    return f"action {action}"


_DATA_CACHE: dict = {}


def _spot_res(sp: int) -> int:
    return int(_DATA_CACHE["data"][O_SPOT_RES + sp])


def _spot_sec(sp: int) -> int:
    return int(_DATA_CACHE["data"][O_SPOT_SEC + sp])


def _bag_line(s: np.ndarray) -> str:
    kinds = _kind_names()
    return ", ".join(f"{s[S.BAG + k]} {kinds[k]}" for k in range(S.N_KINDS) if s[S.BAG + k])


# Fields the replay of a step must reproduce exactly (header fields, then whole blocks).
_CHECKED = [S.CUR, S.OVER, S.REASON, S.ROUND, S.TURNS, S.SUPPLY, S.TENS_LEFT, S.TRIGGER,
            S.N_PENDING, S.ROMANS_OUT, S.N_CONQ, S.DRAWS_TOTAL,
            *range(S.PENDING, S.PENDING + 4), *range(S.BAG, S.PLAYERS)]  # fmt: skip
_CHECKED += [S.PLAYERS + p * S.PW + f for p in range(5) for f in range(S.P_FIRST_DONE)]
_CHECKED_IDX = np.array(_CHECKED)


class _Replay:
    """The rule flow of one ``step`` (or of the first turn's start) over ``cur``, a copy of the
    state before, writing one line per effect; chance and payments are read off ``after``.

    Flow states (methods named ``_f_...``) return the next one, or ``STOP`` at a decision or at
    the end of the game, as the kernels' ``_continue`` / ``_end_turn`` / ``_begin_turn`` do.
    """

    def __init__(self, data: np.ndarray, before: np.ndarray, after: np.ndarray):
        self.d = data
        self.cur = before.copy()
        self.after = after
        self.out: list[str] = []
        self.sec, self.res, self.bas = section_names(), resource_names(), bastion_names()
        self.kinds = _kind_names()
        n_log = int(after[S.N_DRAWN_LOG])
        start = min(int(before[S.N_DRAWN_LOG]), n_log)
        self.drawn = deque(int(k) for k in after[S.DRAWN_LOG + start : S.DRAWN_LOG + n_log])
        self.pending = [int(k) for k in before[S.PENDING : S.PENDING + before[S.N_PENDING]]]
        self.failed = False

    # -- small readers -------------------------------------------------------------------

    def rule(self, r: int) -> int:
        return int(self.d[O_RULES + r])

    @property
    def seat(self) -> int:
        return int(self.cur[S.CUR])

    @property
    def pb(self) -> int:
        return S.pbase(self.seat)

    def col(self, i: int) -> int:
        return int(self.d[O_COL_VALUE + self.cur[i]])

    def demand_line(self, b: int, r: int, old: int) -> str:
        new = self.col(S.DEMAND + b * N_RES + r)
        return f"{self.bas[b]} {self.res[r]} demand {int(self.d[O_COL_VALUE + old])} -> {new}"

    def has_roman_spot(self, sec: int) -> bool:
        b = int(self.d[O_SEC_BAST + sec])
        if b < 0 or not self.cur[S.CONQ + b]:
            return bool(self.d[O_SEC_ROMAN + sec] == 1)
        if self.d[O_SEC_KIND + sec] == K_HUB:
            return self.rule(R_HUB_SPOTS) > 0
        return self.rule(R_ARM_SPOTS) > 0 and self.d[O_SEC_ROMAN + sec] == 1

    def can_upgrade(self) -> bool:
        c, pb = self.cur, self.pb
        for cap in range(N_CAPS):
            lvl = int(c[pb + S.P_MOVE + cap])
            if lvl < N_LEVELS - 1 and c[pb + S.P_RP] >= self.d[O_UPG_COST + lvl + 1]:
                return True
        return False

    # -- effects -------------------------------------------------------------------------

    def place_roman(self, sec: int) -> None:
        c, d = self.cur, self.d
        c[S.ROMAN + sec] = 1
        b = int(d[O_SEC_BAST + sec])
        if b < 0 or c[S.CONQ + b] or d[O_SEC_KIND + sec] != K_ARM:
            return
        arms = [int(d[O_BAST_ARMS + b * 3 + j]) for j in range(d[O_BAST_NARMS + b])]
        if all(c[S.ROMAN + a] for a in arms):
            self.out.append(f"every road of {self.bas[b]} holds a Roman: it is conquered")
            self.conquer(b)

    def conquer(self, b: int) -> None:
        c, d = self.cur, self.d
        tile = [int(d[O_BAST_HUB + b])]
        tile += [int(d[O_BAST_ARMS + b * 3 + j]) for j in range(d[O_BAST_NARMS + b])]
        on = [s for s in tile if c[S.ROMAN + s]]
        for s in on:
            c[S.ROMAN + s] = 0
        if on:
            c[S.ROMANS_OUT] += 1
            c[S.DISC + S.T_ROMAN] += len(on) - 1
            where = ", ".join(self.sec[s] for s in on)
            romans = (f"the Romans on {where} are removed: 1 leaves the game, "
                      f"{len(on) - 1} to the discard pile")  # fmt: skip
        else:
            romans = "no Roman on its tile"
        c[S.CONQ + b] = 1
        c[S.N_CONQ] += 1
        self.out.append(
            f"{self.bas[b]} is Romanised ({c[S.N_CONQ]} of {N_BAST}): {romans}; "
            "its chart leaves the game"
        )
        if c[S.N_CONQ] == N_BAST:
            self.end_game(
                S.END_ALL_CONQUERED, "all 6 bastions are Romanised: the game ends at once"
            )

    def end_game(self, reason: int, why: str) -> None:
        self.cur[S.OVER] = 1
        self.cur[S.REASON] = reason
        self.out.append(why)

    def raise_demand(self, b: int, r: int, why: str = "") -> None:
        i = S.DEMAND + b * N_RES + r
        old = int(self.cur[i])
        self.cur[i] = min(old + 1, 4)
        self.out.append(self.demand_line(b, r, old) + why)

    def draw_up(self) -> None:
        c = self.cur
        got = []
        while c[S.DRAWS_LEFT] > 0 and c[S.BAG : S.BAG + S.N_KINDS].sum() > 0:
            if not self.drawn:  # drawn in an earlier turn of this step: not in the log
                self.failed = True
                return
            k = self.drawn.popleft()
            c[S.BAG + k] -= 1
            c[S.DRAWS_TOTAL] += 1
            c[S.DRAWS_LEFT] -= 1
            self.pending.append(k)
            got.append(self.kinds[k])
        if got:
            left = int(c[S.BAG : S.BAG + S.N_KINDS].sum())
            self.out.append(f"seat {self.seat} draws {', '.join(got)} (bag: {left} left)")

    # -- the decision itself -------------------------------------------------------------

    def apply(self, action: int) -> str:
        """The chosen action's own effects; returns the flow state that follows."""
        ph = int(self.cur[S.PHASE])
        handler = {
            S.PH_MOVE: self._a_move,
            S.PH_DELIVER: self._a_deliver,
            S.PH_UPGRADE: self._a_upgrade,
            S.PH_CLAIM: self._a_claim,
            S.PH_ROLE: self._a_role,
            S.PH_START: self._a_start,
            S.PH_RELOCATE: self._a_relocate,
        }.get(ph, self._a_token)
        return handler(ph, action)

    def _a_move(self, ph: int, action: int) -> str:
        c, pb, d = self.cur, self.pb, self.d
        if action == S.A_PASS:
            return "after_move"
        if action < S.A_SPOT:
            t = action - S.A_SEC
            c[pb + S.P_POS] = t
            if c[S.ROMAN + t]:
                self.out.append(
                    f"the Roman on {self.sec[t]} stops seat {self.seat}: its turn ends "
                    "(no pick-up, no after-movement action)"
                )
                return "end_turn"
            return STOP
        if action < S.A_BAST:
            sp = action - S.A_SPOT
            c[S.SPOT + sp] = 0
            c[pb + S.P_CARRIED + _spot_res(sp)] += 1
            c[pb + S.P_NCARRY] += 1
            c[S.PICKS] += 1
            free = int(d[O_CARRY_Y + c[pb + S.P_CARRY]])
            if c[S.PICKS] > free and not c[S.MOVE_ENDED]:
                c[S.MOVE_ENDED] = 1
                self.out.append(
                    f"pick-up {c[S.PICKS]} is over seat {self.seat}'s {free} free pick-up(s): "
                    "movement ends (it may still pick up here)"
                )
            return STOP
        r = action - S.A_DISCARD
        c[pb + S.P_CARRIED + r] -= 1
        c[pb + S.P_NCARRY] -= 1
        c[S.DISC + r] += 1
        return STOP

    def _a_deliver(self, ph: int, action: int) -> str:
        c, pb, d = self.cur, self.pb, self.d
        if action == S.A_PASS:
            return "end_turn"
        a = action - S.A_DELIVER
        r, k = a // S.MAX_DELIVER, a % S.MAX_DELIVER + 1
        b = int(d[O_SEC_BAST + c[pb + S.P_POS]])
        i = S.DEMAND + b * N_RES + r
        value = self.col(i)
        trade = int(d[O_TRADE_VAL + c[pb + S.P_TRADE]])
        if self.rule(R_PER_VISIT):
            due = k * value + (0 if c[S.VISIT_PAID] else trade)
            how = f"{k} x {value} + {0 if c[S.VISIT_PAID] else trade} Trading (per visit)"
            c[S.VISIT_PAID] = 1
        else:
            due = k * (value + trade)
            how = f"{k} x ({value} + {trade} Trading)"
        old = int(c[i])
        c[i] = max(0, old - k)
        c[pb + S.P_CARRIED + r] -= k
        c[pb + S.P_NCARRY] -= k
        c[S.DISC + r] += k
        c[S.DELIVERED] |= 1 << r
        self._pay(due, how)
        self.out.append(self.demand_line(b, r, old))
        for x in range(N_RES):
            if c[pb + S.P_CARRIED + x] > 0 and not (c[S.DELIVERED] >> x) & 1:
                return STOP
        return "end_turn"

    def _pay(self, due: int, how: str) -> None:
        """A payment from the supply (§4.8, A16), its amounts read off the state after: what
        the supply holds is paid, its exhaustion ends the game after this turn, '+10'
        exchanges refill it, the rest is paid from them and what is still missing is lost."""
        c, after, pb, seat = self.cur, self.after, self.pb, self.seat
        gain = int(after[pb + S.P_RP] - c[pb + S.P_RP])
        first = min(due, int(c[S.SUPPLY]))
        c[pb + S.P_RP] += first
        c[S.SUPPLY] -= first
        part = f"{first} of the {due} RP due" if first < due else f"{first} RP"
        self.out.append(
            f"seat {seat} gains {part}: {how} (RP {c[pb + S.P_RP]}, supply {c[S.SUPPLY]})"
        )
        if after[S.TRIGGER] and not c[S.TRIGGER]:
            c[S.TRIGGER] = 1
            self.out.append("the RP/VP supply is exhausted: the game ends after this turn")
        for p in range(int(c[S.NP])):
            i = S.pbase(p) + S.P_TENS
            for _ in range(int(after[i] - c[i])):
                self.out.append(f"seat {p} exchanges 10 points for a '+10' marker (supply +10)")
            c[i] = after[i]
        if gain > first:
            self.out.append(f"seat {seat} gains {gain - first} more RP (RP {after[pb + S.P_RP]})")
        if gain < due:
            self.out.append(f"{due - gain} RP due to seat {seat} cannot be paid: lost")
        c[pb + S.P_RP] = after[pb + S.P_RP]
        c[S.SUPPLY] = after[S.SUPPLY]
        c[S.TENS_LEFT] = after[S.TENS_LEFT]

    def _a_upgrade(self, ph: int, action: int) -> str:
        c, pb = self.cur, self.pb
        if action != S.A_PASS:
            cap = action - S.A_UPGRADE
            lvl = int(c[pb + S.P_MOVE + cap]) + 1
            cost = int(self.d[O_UPG_COST + lvl])
            c[pb + S.P_RP] -= cost
            c[S.SUPPLY] += cost
            c[pb + S.P_MOVE + cap] = lvl
            self.out.append(
                f"seat {self.seat} pays {cost} RP into the supply "
                f"(RP {c[pb + S.P_RP]}, supply {c[S.SUPPLY]})"
            )
            if self.can_upgrade():
                return STOP
        return "claim" if c[pb + S.P_RP] > 0 else "end_turn"

    def _a_claim(self, ph: int, action: int) -> str:
        c, pb = self.cur, self.pb
        if action != S.A_PASS:
            k = action - S.A_CLAIM
            c[pb + S.P_RP] -= k
            c[pb + S.P_VP] += k
            self.out.append(
                f"seat {self.seat} converts {k} RP to {k} VP (RP {c[pb + S.P_RP]}, "
                f"VP {c[pb + S.P_VP]})"
            )
        return "end_turn"

    def _a_role(self, ph: int, action: int) -> str:
        r = action - S.A_ROLE
        self.cur[self.pb + S.P_ROLE] = r
        self.cur[S.TAKEN + r] = 1
        return "after_role"

    def _a_start(self, ph: int, action: int) -> str:
        return self.place_player(action - S.A_SEC)

    def _a_relocate(self, ph: int, action: int) -> str:
        c = self.cur
        if action != S.A_PASS:
            c[S.ROMAN + c[self.pb + S.P_POS]] = 0
            self.place_roman(action - S.A_SEC)
            if c[S.OVER]:
                return STOP
        return "draw" if c[S.RELOC_NEXT] == 0 else "enter_move"

    def _a_token(self, ph: int, action: int) -> str:
        """A choice while resolving drawn tokens (order, spot, raise, Roman, orders, Romanis.)."""
        c = self.cur
        if ph == S.PH_ORDER:
            k = self.pending.pop(action - S.A_ORDER)
            return "tokens" if self.resolve(k) else STOP
        if ph == S.PH_SPOT:
            c[S.SPOT + action - S.A_SPOT] = 1
        elif ph == S.PH_RAISE:
            self.raise_demand(action - S.A_BAST, int(c[S.TOKEN]))
        elif ph == S.PH_ROMAN:
            self.place_roman(action - S.A_SEC)
        elif ph == S.PH_ORDERS:
            c[S.ROMAN + action - S.A_SEC] = 0
            c[S.DISC + S.T_ROMAN] += 1
        elif ph == S.PH_ROMANISE:
            c[S.DISC + S.T_ROMANISE] += 1
            self.conquer(action - S.A_BAST)
        return "tokens"

    # -- token resolution (§4.4) ---------------------------------------------------------

    def resolve(self, k: int) -> bool:
        """Resolve one drawn token as far as the rules go alone; False at a choice."""
        if k < N_RES:
            return self._resource(k)
        return (self._roman, self._cycle, self._orders, self._romanise)[k - S.T_ROMAN]()

    def _resource(self, r: int) -> bool:
        c, d, name = self.cur, self.d, self.res[r]
        empty = [sp for sp in range(self.rule(R_NSPOT))
                 if d[O_SPOT_RES + sp] == r and c[S.SPOT + sp] == 0]  # fmt: skip
        if len(empty) == 1:
            c[S.SPOT + empty[0]] = 1
            where = self.sec[int(d[O_SPOT_SEC + empty[0]])]
            self.out.append(f"the {name} token goes to {where}, the only empty {name} spot")
            return True
        if empty:
            return False
        c[S.DISC + r] += 1
        self.out.append(f"no empty {name} spot: the {name} token is discarded")
        targets = [b for b in range(N_BAST) if not c[S.CONQ + b]
                   and (self.rule(R_RAISE_ANY) or c[S.DEMAND + b * N_RES + r] < 4)]  # fmt: skip
        if len(targets) == 1:
            self.raise_demand(targets[0], r, " (the only Celtic bastion where it can rise)")
        elif not targets:
            self.out.append(f"no Celtic bastion's {name} demand can rise: no chart changes")
        return len(targets) <= 1

    def _roman(self) -> bool:
        c = self.cur
        free = [
            s for s in range(self.rule(R_NSEC)) if not c[S.ROMAN + s] and self.has_roman_spot(s)
        ]
        if len(free) > 1:
            return False
        if free:
            self.out.append(f"the Roman goes to {self.sec[free[0]]}, the only empty Roman spot")
            self.place_roman(free[0])
        else:
            c[S.DISC + S.T_ROMAN] += 1
            self.out.append("no empty Roman spot: the Roman is discarded")
        return True

    def _cycle(self) -> bool:
        c = self.cur
        back = ", ".join(f"{c[S.DISC + k]} {self.kinds[k]}" for k in range(S.N_KINDS)
                         if c[S.DISC + k]) or "nothing"  # fmt: skip
        c[S.BAG : S.BAG + S.N_KINDS] += c[S.DISC : S.DISC + S.N_KINDS]
        c[S.DISC : S.DISC + S.N_KINDS] = 0
        c[S.BAG + S.T_CYCLE] += 1
        left = int(c[S.BAG : S.BAG + S.N_KINDS].sum())
        self.out.append(
            f"the cycle token puts the discard pile ({back}) back in the bag, and itself "
            f"(bag: {left})"
        )
        self.draw_up()
        return True

    def _orders(self) -> bool:
        c = self.cur
        c[S.DISC + S.T_ORDERS] += 1
        on = [s for s in range(self.rule(R_NSEC)) if c[S.ROMAN + s]]
        if len(on) == 1:
            c[S.ROMAN + on[0]] = 0
            c[S.DISC + S.T_ROMAN] += 1
            self.out.append(
                f"orders: the only Roman on the map, on {self.sec[on[0]]}, is discarded"
            )
        elif not on:
            self.out.append("orders: no Roman on the map; the orders token is discarded")
        return len(on) <= 1

    def _romanise(self) -> bool:
        celtic = [b for b in range(N_BAST) if not self.cur[S.CONQ + b]]
        if len(celtic) != 1:
            return False
        self.cur[S.DISC + S.T_ROMANISE] += 1
        self.out.append(f"Romanisation: {self.bas[celtic[0]]} is the last Celtic bastion")
        self.conquer(celtic[0])
        return True

    # -- the turn flow -------------------------------------------------------------------

    def _f_tokens(self) -> str:
        while not self.cur[S.OVER]:
            if not self.pending:
                return "start_movement"
            if len(set(self.pending)) > 1:
                return STOP  # the drawer chooses the order
            if not self.resolve(self.pending.pop(0)):
                return STOP
        if self.pending:
            left = ", ".join(self.kinds[k] for k in self.pending)
            self.out.append(f"not resolved: {left}")
        return STOP

    def _f_draw(self) -> str:
        c = self.cur
        n_log = int(self.after[S.N_DRAWN_LOG])
        self.drawn = deque(int(k) for k in self.after[S.DRAWN_LOG : S.DRAWN_LOG + n_log])
        c[S.DRAWS_LEFT] = self.rule(R_DRAWS)
        self.pending = []
        self.draw_up()
        return "tokens"

    def _f_start_movement(self) -> str:
        c, pb = self.cur, self.pb
        if c[pb + S.P_POS] >= 0:
            return "enter_move"
        if not self.rule(R_START_FIXED):
            return STOP
        sec = int(self.d[O_ROLE_START + c[pb + S.P_ROLE] * 3])
        self.out.append(f"seat {self.seat} starts on {self.sec[sec]} (its role's start)")
        return self.place_player(sec)

    def place_player(self, sec: int) -> str:
        c, pb = self.cur, self.pb
        c[pb + S.P_POS] = sec
        c[pb + S.P_FIRST_DONE] = 1
        if not c[S.ROMAN + sec]:
            return "enter_move"
        if self.rule(R_RELOC_FIRST):
            c[S.RELOC_NEXT] = 1
            return STOP
        self.out.append(
            f"{self.sec[sec]} holds a Roman: placing the marker there ends seat {self.seat}'s turn"
        )
        return "end_turn"

    def _f_enter_move(self) -> str:
        self.cur[S.PICKS] = 0
        self.cur[S.MOVE_ENDED] = 0
        return STOP

    def _f_after_move(self) -> str:
        c, pb = self.cur, self.pb
        pos = int(c[pb + S.P_POS])
        if pos == self.rule(R_SC):
            return STOP if self.can_upgrade() else "claim"
        b = int(self.d[O_SEC_BAST + pos])
        if b >= 0 and not c[S.CONQ + b] and c[pb + S.P_NCARRY] > 0:
            c[S.DELIVERED] = 0
            c[S.VISIT_PAID] = 0
            return STOP
        return "end_turn"

    def _f_claim(self) -> str:
        return STOP if self.cur[self.pb + S.P_RP] > 0 else "end_turn"

    def _f_end_turn(self) -> str:
        c = self.cur
        c[S.TURNS] += 1
        if c[S.TRIGGER]:
            self.end_game(
                S.END_SUPPLY,
                f"end of seat {self.seat}'s turn: the RP/VP supply is exhausted, the game ends",
            )
            return STOP
        nxt = self.seat + 1
        if nxt == c[S.NP]:
            nxt = 0
            limit = self.rule(R_TURN_LIMIT)
            if 0 < limit <= c[S.ROUND]:
                self.end_game(S.END_TURN_LIMIT, f"round {c[S.ROUND]} is over: the time limit "
                              f"of {limit} rounds ends the game")  # fmt: skip
                return STOP
            if c[S.ROUND] >= self.rule(R_CAP_ROUNDS):
                self.end_game(S.END_TURN_CAP, f"round {c[S.ROUND]} is over: the safety cap "
                              "ends the game")  # fmt: skip
                return STOP
            c[S.ROUND] += 1
        c[S.CUR] = nxt
        return "begin"

    def _f_begin(self) -> str:
        c, pb = self.cur, self.pb
        c[S.PICKS] = 0
        c[S.MOVE_ENDED] = 0
        self.out.append(f"round {c[S.ROUND]}, seat {self.seat}")
        if c[pb + S.P_ROLE] < 0:
            if c[S.ROLE_MODE] == S.ROLES_DRAFT:
                return STOP
            free = self.rule(R_ROLES_IN_PLAY) - int(c[S.TAKEN : S.TAKEN + 6].sum())
            r = int(self.after[pb + S.P_ROLE])
            c[pb + S.P_ROLE] = r
            c[S.TAKEN + r] = 1
            self.out.append(
                f"seat {self.seat} takes the role {ROLE_IDS[r]} "
                f"(blind pick from {free} face-down cards)"
            )
        return "after_role"

    def _f_after_role(self) -> str:
        pos = int(self.cur[self.pb + S.P_POS])
        if pos >= 0 and self.cur[S.ROMAN + pos]:
            self.cur[S.RELOC_NEXT] = 0
            self.out.append(f"seat {self.seat} starts its turn on the Roman on {self.sec[pos]}")
            return STOP
        return "draw"

    def run(self, first: str) -> bool:
        """Play the flow on from ``first``; True if it arrived at the state after."""
        state = first
        for _ in range(10_000):
            if state == STOP:
                break
            state = getattr(self, f"_f_{state}")()
        self.cur[S.PENDING : S.PENDING + 4] = 0
        self.cur[S.PENDING : S.PENDING + len(self.pending)] = self.pending
        self.cur[S.N_PENDING] = len(self.pending)
        same = np.array_equal(self.cur[_CHECKED_IDX], self.after[_CHECKED_IDX])
        return same and not self.failed


def _raw_changes(before: np.ndarray, after: np.ndarray) -> list[str]:
    """The state difference of one step as a plain list (the fallback of :func:`describe_step`)."""
    sec, res, bas = section_names(), resource_names(), bastion_names()
    data = _DATA_CACHE["data"]
    out: list[str] = []
    for seat in range(int(before[S.NP])):
        pb = S.pbase(seat)
        for f, name in ((S.P_RP, "RP"), (S.P_VP, "VP"), (S.P_TENS, "'+10' markers")):
            if before[pb + f] != after[pb + f]:
                out.append(f"seat {seat} {name} {before[pb + f]} -> {after[pb + f]}")
    for sp in range(int(data[O_RULES + R_NSPOT])):
        if before[S.SPOT + sp] != after[S.SPOT + sp]:
            out.append(f"{res[data[O_SPOT_RES + sp]]} spot on {sec[data[O_SPOT_SEC + sp]]} "
                       f"{before[S.SPOT + sp]} -> {after[S.SPOT + sp]}")  # fmt: skip
    for s in range(int(data[O_RULES + R_NSEC])):
        if before[S.ROMAN + s] != after[S.ROMAN + s]:
            out.append(f"Roman on {sec[s]} {before[S.ROMAN + s]} -> {after[S.ROMAN + s]}")
    for b in range(N_BAST):
        for r in range(N_RES):
            i = S.DEMAND + b * N_RES + r
            if before[i] != after[i]:
                out.append(f"{bas[b]} {res[r]} demand column {before[i]} -> {after[i]}")
    return out


def describe_step(before: np.ndarray, after: np.ndarray, action: int | None) -> list[str]:
    """What the rules did in one step besides the choice, in rule order, one effect a line;
    ``action`` None describes the setup's hand-over to the first turn."""
    rep = _Replay(_DATA_CACHE["data"], before, after)
    first = "begin" if action is None else rep.apply(action)
    if rep.run(first):
        return rep.out
    return ["(the trace cannot order this step: the state difference follows)",
            *_raw_changes(before, after)]  # fmt: skip


def setup_lines(state: np.ndarray, data: np.ndarray) -> list[str]:
    """The charts and supply as set up (§3)."""
    res, bas = resource_names(), bastion_names()
    lines = [
        f"setup: 18 resources on the map; bag: {_bag_line(state)}; supply {state[S.SUPPLY]} "
        f"points and {state[S.TENS_LEFT]} '+10' markers; {state[S.ROMANS_BOX]} Roman(s) "
        "left in the box"
    ]
    for b in range(N_BAST):
        cols = ", ".join(
            f"{res[r]} {int(data[O_COL_VALUE + data[O_START_COL + b * N_RES + r]])}"
            for r in range(N_RES)
        )
        lines.append(f"{bas[b]} demand: {cols}")
    return lines


def final_lines(state: np.ndarray, data: np.ndarray, res: ChunkResult) -> list[str]:
    """Each seat's score by component (§6): VP, then the role card's bonus line by line."""
    lines = []
    for s in range(int(state[S.NP])):
        pb = S.pbase(s)
        role = int(state[pb + S.P_ROLE])
        parts = []
        for c in range(N_CAPS):
            lvl = int(state[pb + S.P_MOVE + c])
            bonus = int(data[O_ROLE_BONUS + role * N_CAPS * N_LEVELS + c * N_LEVELS + lvl])
            parts.append(f"{CAP_NAMES[c]} {lvl} upgrade(s) +{bonus}")
        rate = int(data[O_ROLE_RP_VP + role])
        parts.append(f"{state[pb + S.P_RP]} RP x {rate} = +{rate * state[pb + S.P_RP]}")
        lines.append(
            f"score seat {s} ({ROLE_IDS[role]}): {state[pb + S.P_VP]} VP + role "
            f"{res.components[0, s, 1]} ({', '.join(parts)}) = {res.score[0, s]}"
        )
    best = int(res.score[0].max())
    winners = [str(s) for s in range(int(state[S.NP])) if res.score[0, s] == best]
    lines.append(f"winner: seat {', seat '.join(winners)} with {best}")
    return lines


def map_lines(setup, seed: int) -> list[str]:
    """The generated map of a game: its layout (tile, position, rotation) and face-down tokens."""
    from sim.games.celtic_trader.mapmode import game_map

    built, graph = game_map(setup.players, seed)
    tiles = ", ".join(f"{p.tile} ({p.q},{p.r}) r{p.rotation}" for p in built.layout)
    off = ", ".join(f"{r} on {s}" for s, r in graph.unconnected_spots) or "none"
    return [f"map: generated in {built.builds} build(s): {tiles}", f"face-down tokens: {off}"]


def trace(setup, seed: int) -> tuple[list[str], ChunkResult]:
    """Play one game (the same game the compiled loop plays for ``seed``) and log it."""
    data = game_data(setup, seed)
    _DATA_CACHE["data"] = data
    codes, values = setup.bot_arrays()
    choose = chunk_loop(codes, choose_action, choose_plain)  # greedy never compiles the search
    # the kernels Celtic Trader's loops play (compiled without Celtic Quest's hooks)
    choose, init, step_, write = map(trader_kernel, (choose, init_state, step, write_results))
    mode, fixed = role_mode_of(setup)
    streams = np.zeros((1 + setup.players, 4), np.uint64)
    seed_streams(streams, np.uint64(seed % 2**64))
    a = np.zeros(S.STATE_LEN, np.int32)
    b = np.zeros(S.STATE_LEN, np.int32)
    buf = np.zeros(S.BUF_LEN, np.int32)
    before = np.zeros(S.STATE_LEN, np.int32)
    setup_state(data, setup.players, mode, fixed, before)  # the table before the first turn
    init(data, setup.players, mode, fixed, streams[0], a)
    lines = [
        f"Celtic Trader, {setup.players} players, seed {seed}, bots "
        + ", ".join(str(x) for x in setup.bots)
    ]
    counts = np.zeros((setup.players, len(DECISION_KINDS)), np.int32)
    if setup.params.get("map_mode") == "generated":
        lines += map_lines(setup, seed)
    lines += setup_lines(before, data)
    lines += [f"  {x}" for x in describe_step(before, a, None)]
    while not is_over(a):
        seat = current_player(a)
        act = int(choose(a, data, seat, codes[seat], values[seat], streams[1 + seat], buf))
        lines.append(f"  seat {seat} {describe_action(a, act)}")
        counts[seat, decision_kind(a, act)] += 1
        step_(a, act, data, streams[0], b)
        lines += [f"  {x}" for x in describe_step(a, b, act)]
        a, b = b, a
    res = ChunkResult.empty(1, setup.players, 2, n_kinds=len(DECISION_KINDS))
    res.actions[0] = counts
    write(a, data, 0, res.rounds, res.turns, res.end_reason, res.score,
          res.components, res.role, res.extras)  # fmt: skip
    lines += final_lines(a, data, res)
    scores = ", ".join(
        f"seat {s} {res.score[0, s]} ({res.components[0, s, 0]} VP + "
        f"{res.components[0, s, 1]} role)"
        for s in range(setup.players)
    )
    lines.append(f"final: {scores}")
    lines.append(f"end: {END_NAMES[a[S.REASON]]} after {a[S.ROUND]} rounds, {a[S.TURNS]} turns")
    return lines, res
