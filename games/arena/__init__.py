"""The offline arena: a student's bot module (anything exposing `act(view)`) plays whole games against the
built-in bots or other modules, with seats rotated and seeds fixed, and the command prints its win rate
(with a Wilson interval), points per game and speed. Pure Python apart from the command's printing: no
Django, no database, so it runs anywhere the engine does (`python -m games.arena`, docs/bots.md).

`entrants` loads the bots, `random_player` is the built-in random bot (it picks among the engine's moves,
no view), `seats` asks a bot that reads views for a move (catching what a student's code gets wrong),
`matches` plays the games, `results` adds them up.
"""
