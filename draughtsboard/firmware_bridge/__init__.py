"""Serial link to a microcontroller that scans the switches and drives the LEDs.

Modules, one job each:
    firmware/wire.py   the wire format (COBS + CRC-16), shared with the MicroPython firmware
    firmware/core.py   the reference firmware logic (scan, debounce, LEDs, protocol)
    codec.py           typed messages and a streaming decoder that never raises
    session.py         the host's protocol decisions, pure, time passed in
    link.py            SerialLink: a pyserial URL as SensorSource + LedSink
    fakepins.py        the firmware's hardware interface on a board given by the caller
                       (its matrix: the hardware layer's simulated board, the one model)
    faults.py          a byte pipe that corrupts, drops, duplicates and delays
    emulator.py        the firmware on the host: virtual-time bench and socket emulator
    backends.py        factories for the composition root

The protocol is specified in docs/protocol.md.
"""
