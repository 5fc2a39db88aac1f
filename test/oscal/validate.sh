#!/usr/bin/env bash
# Validates the OSCAL documents given (validate.py) with compliance-trestle, its tree pinned by its lock file, in a
# virtual environment in the stage's temporary directory.
set -euo pipefail
venv=$(mktemp -d)/venv
python3 -m venv "$venv"
"$venv/bin/pip" install --quiet --disable-pip-version-check --no-compile -r "$(dirname "$0")/../dependencies/python/oscal.txt"
"$venv/bin/python" "$(dirname "$0")/validate.py" "$@"
