"""Catan (base game, 3-4 players, and the 5-6 player extension): work in progress (issue 14).

Not registered in ``sim.core.registry.GAME_MODULES`` until it plays complete games with every
rule of rules/catan-base.md.
"""
