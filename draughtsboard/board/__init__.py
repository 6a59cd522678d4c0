"""The pure core of the board, in four rooms and a door:

* `rules`: geometry, the five variants as data, move generation, positions, FEN,
  notation, draw rules (imports nothing above it);
* `game`: the game record and PDN (imports rules);
* `tracker`: the state machine that turns snapshots into moves, its LED renderer and
  the controller (imports rules and ports, never game);
* `replay`: the scripted hand and the replay harness (on top of rules and tracker);
* `ports`: the two protocols the adapters implement (a sensor source, an LED sink).

Nothing here does I/O, starts threads or imports a hardware library; adapters in
`draughtsboard.hardware` and `draughtsboard.firmware_bridge` implement the ports.
"""
