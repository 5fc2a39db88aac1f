#!/usr/bin/env bash
# Validates the OSCAL documents given (validate.py) with compliance-trestle, pinned here, in a virtual environment in
# the stage's temporary directory.
set -euo pipefail
venv=$(mktemp -d)/venv
python3 -m venv "$venv"
"$venv/bin/pip" install --quiet --disable-pip-version-check --no-compile "compliance-trestle==5.2.0"
"$venv/bin/python" "$(dirname "$0")/validate.py" "$@"
