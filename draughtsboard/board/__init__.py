"""The pure core of the board: rules, notation, ports, tracker and game record.

Nothing here does I/O, starts threads or imports a hardware library; adapters in
`draughtsboard.hardware` and `draughtsboard.firmware_bridge` implement the ports of
`draughtsboard.board.ports`.
"""
