"""Reference firmware for a microcontroller that scans the reed matrix and drives the LEDs.

Every module here except ``main.py`` is plain Python that MicroPython runs unchanged, so the
host imports the same code for its codec (``wire``) and its emulator (``core``). ``main.py``
binds the logic to a Raspberry Pi Pico and is only ever imported on the device. To install:
copy ``wire.py``, ``core.py`` and ``main.py`` to the Pico's file system (flat, no package).
"""
