"""The Pico firmware under real MicroPython, on a development machine: MicroPython's
WebAssembly build (an npm package, run by Node.js) with stand-ins for the chip around the
unchanged firmware of ``draughtsboard/firmware_bridge/firmware``.

It lives here, outside the installed package, because it is a test and benchmark harness
(about 900 lines of chip stand-ins with measuring hooks, and a Node runtime): a Pi runs the
host, a Pico runs the firmware, and neither needs it. ``device.py`` drives it from the
host; ``wasm/`` runs inside MicroPython. ``npm ci --prefix devtools/pico_sim/wasm``
installs the pinned runtime (``scripts/test.sh`` does it).
"""
