#!/usr/bin/env bash
# The Python plugin's tests against the fw-core wheel this repository built, installed the way a user gets it: from a
# package index, by name. A local index (pypiserver, on a free port of 127.0.0.1, stopped by its process id) receives
# the wheel with `twine upload`; the example's virtual environment installs fw-core from it with --index-url, and its
# dependencies (the CDK, jsii) from PyPI at the versions the wheel declares. Then use by configuration, as a user runs
# it: `cdk synth` here runs `python -m fw_deploy` (cdk.json), which finds this plugin through its fw.plugins entry point.
set -euo pipefail
cd "$(dirname "$0")"
wheel=$(ls ../../packages/core/dist/python/fw_core-*.whl 2>/dev/null | head -1)
[ -n "$wheel" ] || { echo "python-plugin: no fw_core wheel; build the packages first (npx projen test at the root)"; exit 1; }
version=$(basename "$wheel" | cut -d- -f2)
# --no-compile: no bytecode for every module at install (aws-cdk-lib has thousands); Python compiles what it imports.
quiet=(--quiet --disable-pip-version-check --no-compile)

index_dir=$(mktemp -d)
python3 -m venv "$index_dir/venv"
# Every Python tree here is pinned by a lock file (scripts/lock-python.js); PIP_CONSTRAINT holds the builds of the
# local directories (deploy/python, this plugin) to it too.
locks=../../test/dependencies/python
"$index_dir/venv/bin/pip" install "${quiet[@]}" -r "$locks/package-index.txt"
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
mkdir -p "$index_dir/packages"
"$index_dir/venv/bin/pypi-server" run -i 127.0.0.1 -p "$port" -a . -P . --disable-fallback "$index_dir/packages" \
  > "$index_dir/server.log" 2>&1 &
server=$!
trap 'kill "$server" 2> /dev/null || true; rm -rf "$index_dir"' EXIT
for _ in $(seq 1 50); do curl -sf "http://127.0.0.1:$port/simple/" > /dev/null && break; sleep 0.2; done
curl -sf "http://127.0.0.1:$port/simple/" > /dev/null || { cat "$index_dir/server.log" >&2; echo "python-plugin: the local index did not start" >&2; exit 1; }
"$index_dir/venv/bin/twine" upload --disable-progress-bar --repository-url "http://127.0.0.1:$port/" -u rehearsal -p rehearsal "$wheel"
echo "python-plugin: fw-core ${version} uploaded to the local index on 127.0.0.1:${port}"

rm -rf .venv
python3 -m venv .venv
# fw-core by name from the local index only (no path, no other index that could answer for that name) ...
.venv/bin/pip install "${quiet[@]}" --index-url "http://127.0.0.1:$port/simple/" --no-deps "fw-core==${version}"
# ... then what it declares, from PyPI, with the test tools, the deployment app and this plugin.
.venv/bin/python -c 'import importlib.metadata as m; print("\n".join(m.requires("fw-core")))' > "$index_dir/requires.txt"
PIP_CONSTRAINT="$locks/fw-core.txt" .venv/bin/pip install "${quiet[@]}" -r "$index_dir/requires.txt" -r "$locks/fw-core.txt" \
  ../../deploy/python .
.venv/bin/python -c 'import importlib.metadata as m, fw_core; print("python-plugin: fw-core", m.version("fw-core"), "from", fw_core.__file__)'
.venv/bin/python -m pytest -q
npx cdk synth -q -c applicationId=wiki -c runtimeType=EC2
test -s cdk.out/wiki-dev.template.json
# cfn-lint as every other template is checked (W3005: the CDK's AwsCustomResource, packages/core/test/cfn-lint.test.ts).
cfn-lint --format parseable --ignore-checks W3005 -- cdk.out/wiki-dev.template.json
