"""Celtic Quest (rules/celtic-quest.md): the full game built on Celtic Trader's engine.

Not a registered game yet (issue 13). What exists: the tile catalogue (``tiles.toml``) and the
variable map (``mapgen``): seeded map building under the §3.1 legality rules, the section graph
of a layout, face-down tokens and the bastion charts of §3.3. Celtic Trader plays on such maps
with its parameter ``map_mode = "generated"``. The rest of the rules data is
``celtic_quest.toml`` (components, setup, destinies, quests, items, enchantment, spell track, end
and scoring, rulings), loaded and checked by ``params`` (``GAME_DATA``, ``PARAMS``: every §12
lever, defaults from the data).
"""
