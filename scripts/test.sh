#!/usr/bin/env bash
# Installs everything the test suite needs on a fresh Debian / Raspberry Pi OS machine
# with Python 3.11+, then runs every test. `.ci/run` runs exactly this script.
#
# `bash scripts/test.sh --fast` is the loop to run while working: every test but the
# slow, browser and broker ones (pytest -m "not slow and not browser and not broker"),
# about a minute of CPU. Other arguments go to pytest as they are.
set -euo pipefail
cd "$(dirname "$0")/.."

fast=0
args=()
for arg in "$@"; do
    if [ "$arg" = "--fast" ]; then
        fast=1
    else
        args+=("$arg")
    fi
done

# The browser test drives Debian's chromium (Playwright cannot download its own browser
# here). Installed when missing and we are root; elsewhere that one test is skipped.
if ! command -v chromium >/dev/null 2>&1; then
    if [ "$(id -u)" -eq 0 ]; then
        apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium
    else
        echo "chromium is missing and this is not root: the browser test will be skipped" >&2
    fi
fi

# The hall tests start their own mosquitto (Debian's package, 2.x) on a free loopback port.
# Installed when missing and we are root; elsewhere those tests fail with a clear message.
if ! command -v mosquitto >/dev/null 2>&1 && [ ! -x /usr/sbin/mosquitto ]; then
    if [ "$(id -u)" -eq 0 ]; then
        apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq mosquitto
    else
        echo "mosquitto is missing and this is not root: the hall tests will fail" >&2
    fi
fi

# The Pico firmware's tests run it under MicroPython's WebAssembly build, an npm package
# run by Node.js (Debian's nodejs and npm). Installed when missing and we are root.
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
    if [ "$(id -u)" -eq 0 ]; then
        apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs npm
    else
        echo "node or npm is missing and this is not root: the MicroPython tests will be skipped" >&2
    fi
fi

# The speech tests have Debian's espeak-ng write WAV files and sox measure them (the
# board's own install gets espeak-ng the same way: docs/raspberry-pi.md). Installed when
# missing and we are root; elsewhere those tests are skipped and say why.
if ! command -v espeak-ng >/dev/null 2>&1 || ! command -v sox >/dev/null 2>&1; then
    if [ "$(id -u)" -eq 0 ]; then
        apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq espeak-ng sox
    else
        echo "espeak-ng or sox is missing and this is not root: the speech WAV test will be skipped" >&2
    fi
fi

# The venv is installed again whenever pyproject.toml changed (its digest is kept in
# the venv), so a quick loop does not pay for pip each time.
python3 -m venv .venv
wanted="$(sha256sum pyproject.toml | cut -d' ' -f1)"
if [ "$(cat .venv/.installed-from 2>/dev/null)" != "$wanted" ]; then
    .venv/bin/python -m pip install --quiet --upgrade pip
    .venv/bin/python -m pip install --quiet -e '.[test]'
    echo "$wanted" > .venv/.installed-from
fi

# MicroPython 1.27 for WebAssembly, the version pinned by its lock file, into the ignored
# devtools/pico_sim/wasm/node_modules (skipped when that version is there): the Pico
# simulation is a checkout's tool, never in the installed package. A runtime an older
# checkout installed inside the package (only ignored files there) is removed.
old_wasm=draughtsboard/firmware_bridge/wasm
if [ -d "$old_wasm" ] && [ -z "$(git ls-files "$old_wasm" 2>/dev/null)" ]; then
    rm -rf "$old_wasm"
fi
wasm=devtools/pico_sim/wasm
installed=$wasm/node_modules/@micropython/micropython-webassembly-pyscript/package.json
if command -v npm >/dev/null 2>&1 && ! grep -qs '"version": "1.27.0"' "$installed"; then
    npm ci --prefix "$wasm" --no-audit --no-fund --silent
fi
# axe-core, the accessibility checker the browser tests inject into each page, the version
# pinned by its lock file, into the ignored tests/accessibility/node_modules.
axe=tests/accessibility
if command -v npm >/dev/null 2>&1 && ! grep -qs '"version": "4.11.1"' "$axe/node_modules/axe-core/package.json"; then
    npm ci --prefix "$axe" --no-audit --no-fund --silent
fi
# MicroPython's published type stubs for the Pico (the firmware is type-checked against
# them), into the ignored .micropython-stubs.
stubs=micropython_rp2_rpi_pico_stubs-1.27.0.post1.dist-info
if [ ! -d ".micropython-stubs/$stubs" ]; then
    rm -rf .micropython-stubs
    .venv/bin/python -m pip install --quiet --target .micropython-stubs \
        'micropython-rp2-rpi-pico-stubs==1.27.0.post1'
fi

set +e
if [ "$fast" -eq 1 ]; then
    .venv/bin/python -m pytest -m "not slow and not browser and not broker" ${args[@]+"${args[@]}"}
else
    .venv/bin/python -m pytest ${args[@]+"${args[@]}"}
fi
status=$?
set -e
if [ "$status" -eq 5 ]; then
    echo "pytest collected no tests: that is a failure here" >&2
    exit 1
fi
exit "$status"
