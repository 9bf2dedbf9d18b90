"""Celtic Quest's greedy bot uses the game as it is now (issue 35).

Games are stepped one decision at a time, as the bulk runner plays them; at each of the
greedy bot's movement decisions the move it plans (``planned_move``, before the bot's own
legality fallback) is compared with the rules' legal actions.
"""

import numpy as np

from sim.core.registry import make_setup
from sim.core.rng import derive_game_seeds, seed_streams
from sim.games.celtic_quest import layout as Q
from sim.games.celtic_quest.play import fixed_destinies, game_data
from sim.games.celtic_trader import state as S
from sim.games.celtic_trader.rules import (
    current_player,
    init_state,
    is_over,
    legal_actions,
    step,
)
from strategies.celtic_quest.greedy import MAX_TURN_ACTIONS, planned_move
from strategies.celtic_trader import choose_action


def _play(players, n_games, root, on_move=None, on_game=None, data=None, phases=(S.PH_MOVE,)):
    """Play ``n_games`` greedy games; ``on_move(state, data, seat, values, rng, buf)`` is
    called before each decision of a phase in ``phases`` (movement by default; on copies of
    the bot's stream and buffer), ``on_game(g)`` before game g; ``data``: data overrides."""
    setup = make_setup("celtic_quest", players, {}, "greedy", data=data)
    codes, values = setup.bot_arrays()
    fixed = fixed_destinies(setup)
    for g, seed in enumerate(derive_game_seeds(root, players, np.arange(n_games))):
        if on_game is not None:
            on_game(g)
        data = game_data(setup, int(seed))
        streams = np.zeros((1 + players, 4), np.uint64)
        seed_streams(streams, np.uint64(seed))
        a = np.zeros(Q.QSTATE_LEN, np.int32)
        b = np.zeros(Q.QSTATE_LEN, np.int32)
        buf = np.zeros(S.BUF_LEN, np.int32)
        init_state(data, players, S.ROLES_RANDOM, fixed, streams[0], a)
        while not is_over(a):
            seat = current_player(a)
            rng = streams[1 + seat]
            if on_move is not None and a[S.PHASE] in phases:
                on_move(a, data, seat, values[seat], rng.copy(), buf.copy())
            act = int(choose_action(a, data, seat, codes[seat], values[seat], rng, buf))
            step(a, act, data, streams[0], b)
            a, b = b, a


def test_every_planned_move_is_legal_on_the_enchanted_map():
    """The planner searches the map as enchantments left it (merged networks, Spirit-type
    costs): its planned move is legal at every movement decision, including the many made
    after a tile was enchanted (before issue 35: 0.6% of decisions, 14% of games)."""
    legal = np.zeros(S.BUF_LEN, np.int32)
    seen = {"moves": 0, "enchanted": 0, "illegal": []}

    def check(state, data, seat, values, rng, buf):
        planned = int(planned_move(state, data, seat, values, rng, buf))
        n = legal_actions(state, data, legal)
        seen["moves"] += 1
        seen["enchanted"] += bool(state[Q.ENCH : Q.ENCH + Q.MAX_TILES].any())
        if planned not in legal[:n]:
            seen["illegal"].append((int(state[S.TURNS]), planned))

    _play(4, 120, root=35, on_move=check)
    assert seen["moves"] > 20_000
    assert seen["enchanted"] > seen["moves"] // 3  # most moves are on an enchanted map
    assert seen["illegal"] == [], f"{len(seen['illegal'])} illegal planned moves"


def test_the_plan_leaves_its_legal_listing_in_the_buffer():
    """The bot checks its planned move against the listing the plan was made from
    (``_move``): nothing the planner calls may write over ``buf[:n]`` but the same listing."""
    legal = np.zeros(S.BUF_LEN, np.int32)
    seen = {"moves": 0, "overwritten": 0}

    def check(state, data, seat, values, rng, buf):
        if state[S.ACTS] > MAX_TURN_ACTIONS:
            return  # the safety net passes before any listing
        planned_move(state, data, seat, values, rng, buf)
        n = legal_actions(state, data, legal)
        seen["moves"] += 1
        seen["overwritten"] += not np.array_equal(buf[:n], legal[:n])

    _play(4, 30, root=42, on_move=check)
    assert seen["moves"] > 5_000
    assert seen["overwritten"] == 0


def _crystals_picked(players, n_games, root, data=None):
    """(role index per seat-game, crystals picked up per seat-game) of greedy games."""
    from sim.core.batch import play_chunk
    from sim.games.celtic_quest import DECISION_KINDS

    setup = make_setup("celtic_quest", players, {}, "greedy", "random", data=data)
    res = play_chunk(setup, derive_game_seeds(root, players, np.arange(n_games)))
    picked = res.actions[:, :, DECISION_KINDS.index("pick_up_crystal")]
    return res.role.ravel(), picked.ravel()


def test_the_mystic_travels_for_crystals():
    """The Mystic's destiny pays crystal_vp_each VP per crystal delivered: the greedy Mystic
    picks up crystals in most of its games, more than any other destiny; with that bonus set
    to 0 in the data it picks up fewer."""
    from sim.games.celtic_quest import GAME

    roles = GAME.roles
    mystic = roles.index("mystic")
    role, picked = _crystals_picked(4, 600, root=36)
    per_role = {r: picked[role == i].mean() for i, r in enumerate(roles) if (role == i).any()}
    assert (picked[role == mystic] > 0).mean() > 0.7
    assert max(per_role, key=per_role.get) == "mystic", per_role
    override = {"destinies.mystic.crystal_vp_each": 0}
    role0, picked0 = _crystals_picked(4, 600, root=36, data=override)
    assert picked0[role0 == mystic].mean() < per_role["mystic"] - 0.2


def test_crystal_value_reads_the_data():
    """crystal_value is the spell track's value at the box every crystal in play reaches,
    plus the destiny's VP per crystal, both read from the compiled data."""
    from sim.games.celtic_quest.queries import qp
    from strategies.celtic_quest.greedy_crystals import crystal_value

    setup = make_setup("celtic_quest", 4, {}, "greedy")
    data = game_data(setup, 5)
    streams = np.zeros((5, 4), np.uint64)
    seed_streams(streams, np.uint64(5))
    a = np.zeros(Q.QSTATE_LEN, np.int32)
    init_state(data, 4, S.ROLES_RANDOM, fixed_destinies(setup), streams[0], a)
    seat = 0
    d = a[qp(seat) + Q.QP_DESTINY]
    a[Q.TCRYST + 3] = 2  # two crystals on the map: the track will reach box 2 (one step each)
    steps = data[Q.X_RULES + Q.X_CRYSTAL_STEPS]
    box = min(a[Q.SPELL] + 2 * steps, data[Q.X_RULES + Q.X_SPELL_END])
    want = data[Q.X_SPELL_VP + box] + data[Q.X_DESTINY_CRYSTAL_VP + d]
    assert crystal_value(a, data, seat) == want
    data[Q.X_DESTINY_CRYSTAL_VP + d] += 7
    data[Q.X_SPELL_VP + box] += 3
    assert crystal_value(a, data, seat) == want + 10


def test_upgrades_follow_the_destiny_s_own_table():
    """Greedy values an upgrade with its destiny card's own bonus table: with the Haggler's
    Trading table set to zero in the data the Haggler buys far fewer Trading upgrades (before
    issue 35 it read Celtic Trader's role table and bought as many: 3.28 against 3.26)."""
    from sim.core.batch import play_chunk
    from sim.games.celtic_quest import DECISION_KINDS, GAME

    haggler = GAME.roles.index("haggler")
    trading = DECISION_KINDS.index("upgrade_trading")
    means = []
    for table in (None, [0, 0, 0, 0, 0]):
        data = None if table is None else {"destinies.haggler.trading": table}
        setup = make_setup("celtic_quest", 4, {}, "greedy", "random", data=data)
        res = play_chunk(setup, derive_game_seeds(37, 4, np.arange(400)))
        means.append(res.actions[:, :, trading][res.role == haggler].mean())
    assert means[0] > 2.0 and means[1] < 0.6 * means[0], means


def test_greedy_passes_a_roman_with_its_gold():
    """A planned step onto a Roman would end the turn: greedy passes it with a gold it holds
    (0 gold uses in 80,000 games before issue 35), and every gold it uses was legal (the
    checked loop of test_properties checks legality)."""
    from sim.core.batch import play_chunk
    from sim.games.celtic_quest import DECISION_KINDS

    setup = make_setup("celtic_quest", 4, {}, "greedy", "random")
    res = play_chunk(setup, derive_game_seeds(38, 4, np.arange(400)))
    gold = res.actions[:, :, DECISION_KINDS.index("pass_roman_gold")]
    assert (gold.sum(axis=1) > 0).sum() >= 5


def _item_uses(params, n_games=200, root=39):
    """Per game, the decisions of each kind summed over the seats (greedy, 4 players)."""
    from sim.core.batch import play_chunk
    from sim.games.celtic_quest import DECISION_KINDS

    setup = make_setup("celtic_quest", 4, params, "greedy", "random")
    res = play_chunk(setup, derive_game_seeds(root, 4, np.arange(n_games)))
    return {k: res.actions[:, :, i].sum(axis=1) for i, k in enumerate(DECISION_KINDS)}


def _movement_runs(n_games, root):
    """Each seat-turn's movement actions in order (greedy, 4 players), from the planner."""
    runs: dict[tuple, list[int]] = {}
    game = [0]

    def record(state, data, seat, values, rng, buf):
        key = (game[0], int(state[S.TURNS]), seat)
        runs.setdefault(key, []).append(int(planned_move(state, data, seat, values, rng, buf)))

    def new_game(g):
        game[0] = g

    _play(4, n_games, root=root, on_move=record, on_game=new_game)
    return list(runs.values())


def test_greedy_eats_bread_when_a_goal_is_just_beyond_its_move():
    """Bread adds bread_extra_tiles MP: greedy eats one when the goal it heads for (the Stone
    Circle, a quest's token, a crystal, Celtic Trader's best goal) is beyond its MP but within
    that reach (0 breads in 4,000 games before). With bread_extra_tiles = 0 it eats none."""
    uses = _item_uses({})
    assert (uses["bread"] > 0).mean() > 0.6, uses["bread"].mean()
    assert _item_uses({"bread_extra_tiles": 0})["bread"].sum() == 0


def test_a_bread_eaten_is_followed_by_a_move():
    """Every bread greedy eats is spent: its next movement action in that turn is a step (or
    another bread), never the end of its movement."""
    after = []
    for run in _movement_runs(60, root=40):
        for i, a in enumerate(run[:-1]):
            if a == Q.A_BREAD:
                after.append(run[i + 1])
    steps = [a for a in after if S.A_SEC <= a < S.A_SPOT or Q.A_GOLD <= a < Q.A_ELIXIR]
    assert len(after) >= 30
    assert len(steps) + after.count(Q.A_BREAD) == len(after), after


def test_greedy_picks_up_with_an_elixir_when_the_pick_up_would_end_its_move():
    """The elixir frees elixir_free_pickups pick-ups from the Y count: greedy uses it on a
    pick-up that would end its movement while MP are left (0 in 4,000 games before), and
    moves on afterwards (all of about 300 in these games); with elixir_free_pickups = 0 it
    never uses one."""
    uses = _item_uses({})
    assert (uses["pick_up_elixir"] > 0).mean() > 0.6, uses["pick_up_elixir"].mean()
    assert _item_uses({"elixir_free_pickups": 0})["pick_up_elixir"].sum() == 0
    after = []
    for run in _movement_runs(60, root=41):
        for i, a in enumerate(run[:-1]):
            if Q.A_ELIXIR <= a < Q.A_CRYSTAL or a == Q.A_CRYSTAL_ELIXIR:
                after.append(run[i + 1] != S.A_PASS)
    assert len(after) >= 30 and np.mean(after) > 0.9, (len(after), np.mean(after))


def test_the_raven_moves_a_roman_that_stands_in_the_way():
    """A Raven-type quest may move one Roman before each movement: greedy moves the Roman
    whose move raises the value of its best goal (a Roman on its route or goal), else one
    put next to the seat leading in public VP that takes sections from its next movement
    without lowering its own goal, and passes when neither (0 moves in 4,000 games before).
    Here every quest is Raven-type, so many seats hold one; stepping the chosen move and its
    relocation raises the estimate or shrinks the leader's reach every time."""
    from sim.games.celtic_trader.rules import step as step_rules
    from strategies.celtic_quest.greedy import greedy_action
    from strategies.celtic_quest.greedy_raven import _best_goal_now, _leader_reach, _public_leader

    names = ("torc", "cauldron", "mistletoe", "raven")
    data = {f"quests.{q}.ability": "move_roman_once" for q in names}
    data.update({f"quests.{q}.amount": 1 for q in names})
    seen = {"asked": 0, "moved": 0, "raised": 0}

    def check(state, data, seat, values, rng, buf):
        seen["asked"] += 1
        a = int(greedy_action(state, data, seat, values, rng, buf))
        if a == S.A_PASS:
            return
        seen["moved"] += 1
        before = _best_goal_now(state, data, seat, values, buf)
        s1, s2 = state.copy(), state.copy()
        step_rules(s1, a, data, rng.copy(), s2)
        assert s2[S.PHASE] == Q.PH_GOLD_RELOC
        b = int(greedy_action(s2, data, seat, values, rng, buf))
        assert b != S.A_PASS
        s2[S.ROMAN + s2[Q.GOLD_ROMAN]] = 0  # (the relocation, without the movement after)
        s2[S.ROMAN + b - Q.A_ROMAN] = 1
        after = _best_goal_now(s2, data, seat, values, buf)
        leader = _public_leader(state, data, seat)
        blocked = leader >= 0 and _leader_reach(s2, data, leader, buf) < _leader_reach(
            state, data, leader, buf
        )
        seen["raised"] += after > before or (after >= before and blocked)

    _play(4, 80, root=42, on_move=check, data=data, phases=(Q.PH_RAVEN,))
    assert seen["asked"] > 300, seen
    assert 0.02 * seen["asked"] < seen["moved"] < 0.9 * seen["asked"], seen
    assert seen["raised"] == seen["moved"], seen


def test_greedy_draws_a_quest_only_when_it_can_plausibly_complete_one():
    """At the quest draw greedy draws when most quest cards still in play are ones it could
    complete (out to the tokens and back to the Stone Circle at its move points) within the
    rounds the game looks to have left (each end at its pace so far); it always drew before.
    The same decisions with the spell marker one box from the end (a few rounds left) are
    mostly declined."""
    from strategies.celtic_quest.greedy import greedy_action

    seen = {"asked": 0, "drew": 0, "drew_late": 0}

    def check(state, data, seat, values, rng, buf):
        if state[S.TURNS] < 2 * state[S.NP]:
            return  # (no pace yet)
        seen["asked"] += 1
        seen["drew"] += int(greedy_action(state, data, seat, values, rng, buf)) == Q.A_YES
        late = state.copy()
        late[Q.SPELL] = data[Q.X_RULES + Q.X_SPELL_END] - 1
        seen["drew_late"] += int(greedy_action(late, data, seat, values, rng, buf)) == Q.A_YES

    _play(4, 60, root=43, on_move=check, phases=(Q.PH_QUEST_DRAW,))
    assert seen["asked"] > 150, seen
    assert 0.5 * seen["asked"] < seen["drew"] < 0.97 * seen["asked"], seen
    assert seen["drew_late"] < 0.5 * seen["drew"], seen


def _second_crystals(n_games, root, data=None):
    """(movement decisions carrying a crystal, those turning aside for another crystal,
    crystals picked up while carrying one)."""
    from sim.games.celtic_quest.queries import qp
    from strategies.celtic_quest.greedy_crystals import _second_crystal

    seen = [0, 0, 0]
    legal = np.zeros(S.BUF_LEN, np.int32)

    def check(state, data, seat, values, rng, buf):
        if state[qp(seat) + Q.QP_CRYST] > 0:
            seen[0] += 1
            n = legal_actions(state, data, legal)
            seen[1] += int(_second_crystal(state, data, seat, buf.copy(), n)) >= 0
            a = int(planned_move(state, data, seat, values, rng, buf))
            seen[2] += a in (Q.A_CRYSTAL, Q.A_CRYSTAL_ELIXIR)

    _play(4, n_games, root=root, on_move=check, data=data)
    return seen


def test_greedy_collects_a_second_crystal_when_it_is_near():
    """Carrying crystals home, greedy turns aside for another crystal when the crystals
    delivered after the detour, discounted by the turns before they score, are worth more
    than those it carries home now (100 games: 45 crystals picked while carrying one, 5
    before). With every crystal worth 0 VP in the data it never turns aside."""
    from sim.games.celtic_quest.params import load_raw

    carrying, aside, second = _second_crystals(100, root=44)
    assert carrying > 1000 and aside >= 10 and second >= 30, (carrying, aside, second)
    raw = load_raw()
    worthless = {"spell_track.crystal_vp": [0] * len(raw["spell_track"]["crystal_vp"])}
    for d in raw["destinies"]:
        worthless[f"destinies.{d['id']}.crystal_vp_each"] = 0
    for q in raw["quests"]:
        if q["ability"] == "crystal_vp_plus":
            worthless[f"quests.{q['id']}.ability"] = "none"
            worthless[f"quests.{q['id']}.amount"] = 0
    carrying0, aside0, _ = _second_crystals(100, root=44, data=worthless)
    assert carrying0 > 100 and aside0 == 0, (carrying0, aside0)


def _kept(params, data=None, n_games=300, root=45):
    """Seat-games keeping each destiny under the advanced deal (greedy, 4 players)."""
    from sim.core.batch import play_chunk
    from sim.games.celtic_quest import GAME

    setup = make_setup("celtic_quest", 4, {"advanced": True, **params}, "greedy", data=data)
    res = play_chunk(setup, derive_game_seeds(root, 4, np.arange(n_games)))
    return {r: int((res.role == i).sum()) for i, r in enumerate(GAME.roles)}


def test_the_advanced_destiny_choice_reads_the_cards_data():
    """Under the advanced deal greedy keeps the card its data says is worth more to a seat
    with an even share of the game (upgrades bought with its share of the supply, RP held,
    quests, crystals, towns and tribes; the Luckiest as the best basic card): raising the
    Provider's tribe_vp_each in the data makes it kept more often, lowering it to 0 less."""
    from sim.games.celtic_quest.params import load_raw

    tribe = next(d for d in load_raw()["destinies"] if d["id"] == "provider")["tribe_vp_each"]
    base = _kept({})["provider"]
    more = _kept({}, data={"destinies.provider.tribe_vp_each": 3 * tribe})["provider"]
    none = _kept({}, data={"destinies.provider.tribe_vp_each": 0})["provider"]
    assert none < base < more, (none, base, more)
    kept = _kept({})
    assert len([r for r, k in kept.items() if k > 0]) >= 8, kept  # no card always dropped
