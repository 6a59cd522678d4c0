"""draughtsboard: an electronic draughts board on a Raspberry Pi.

Subpackages:
    board            pure core: rules, notation, tracker, game record, ports
    hardware         reed-switch matrix and LED drivers on gpiozero, simulated board
    firmware_bridge  serial link to a microcontroller that scans and lights the board
"""

__version__ = "0.1.0"
