#!/usr/bin/env bash
# Installs everything the test suite needs on a fresh Debian / Raspberry Pi OS machine
# with Python 3.11+, then runs every test. `.ci/run` runs exactly this script.
set -euo pipefail
cd "$(dirname "$0")/.."

python3 -m venv .venv
.venv/bin/python -m pip install --quiet --upgrade pip
.venv/bin/python -m pip install --quiet -e '.[test]'

set +e
.venv/bin/python -m pytest "$@"
status=$?
set -e
if [ "$status" -eq 5 ]; then
    echo "pytest collected no tests: that is a failure here" >&2
    exit 1
fi
exit "$status"
