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
if [ ${#missing[@]} -gt 0 ]; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq "${missing[@]}"
fi

# Python tools: cfn-lint checks every template the tests synthesise (pinned).
CFN_LINT_VERSION=1.51.0
if ! cfn-lint --version 2>/dev/null | grep -qx "cfn-lint ${CFN_LINT_VERSION}"; then
  python3 -m pip install --quiet --disable-pip-version-check "cfn-lint==${CFN_LINT_VERSION}"
fi

# Node packages: one install at the root for every workspace package.
npm ci --no-audit --no-fund

# The local npm registry of the end-to-end test (its own lock file, apart from the workspaces).
npm ci --no-audit --no-fund --prefix test/e2e/verdaccio

# Compile the packages (jsii), so that the deployment app and the examples can run.
for pkg in packages/*/; do (cd "$pkg" && npx projen compile); done
