#!/usr/bin/env bash
# Runs the Python plugin's tests against the Python bindings this repository built (packages/core/dist/python),
# in a virtual environment of its own; the CDK comes from PyPI at the version the framework is tested against. Then
# use by configuration, as a user runs it: `cdk synth` in this directory runs `python -m fw_deploy` (cdk.json), which
# finds this plugin through its fw.plugins entry point.
set -euo pipefail
cd "$(dirname "$0")"
wheel=$(ls ../../packages/core/dist/python/fw_core-*.whl 2>/dev/null | head -1)
[ -n "$wheel" ] || { echo "python-plugin: no fw_core wheel; build the packages first (npx projen test at the root)"; exit 1; }
python3 -m venv .venv
.venv/bin/pip install --quiet --disable-pip-version-check "$wheel" "aws-cdk-lib==2.263.0" "constructs==10.8.1" "pytest==8.3.4" \
  ../../deploy/python .
.venv/bin/python -m pytest -q
npx cdk synth -q -c applicationId=wiki -c runtimeType=EC2
test -s cdk.out/wiki-dev.template.json
