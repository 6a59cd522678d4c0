"""The tournament hall: every board of a venue through one MQTT broker.

`HallService` (service) subscribes to every board, checks each move again by the rules
and keeps every game crash-safe (`HallStore`, store), asking boards again for what is
missing (`Ingest`, ingest); `create_app` (app) serves the hall page, the arbiter console
and the broadcast feed (`feed`); `pairings` reads a round's pairings. The board side is
`draughtsboard.hall_link`; both speak `draughtsboard.hall_protocol`. The hall imports no
hardware and no play session: `draughtsboard.cli` wires it.
"""
