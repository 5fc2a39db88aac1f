#!/usr/bin/env bash
# Scaffold + first test of a plugin (`projen new --from @fw/plugin-template` + `projen test`) against projen's own
# jsii project type (`projen new jsii` + `projen test`), same registry (a local Verdaccio) and same npm cache, in one
# run; then the warm time of the plugin's tests (four kinds). Targets: ratio at most 1.2; warm tests at most 15 s.
# Each side runs once untimed first so that both find the registry and the cache equally warm. Run after the
# packages are built: `npx projen bench:template`.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/fw-bench-template-XXXXXX")
# shellcheck source=../test/e2e/registry.sh
source "$root/test/e2e/registry.sh"

seconds() {
  local start
  start=$(date +%s.%N)
  "$@" > "$work/last.log" 2>&1 || { cat "$work/last.log"; exit 1; }
  python3 -c "import sys; print(f'{float(sys.argv[2]) - float(sys.argv[1]):.1f}')" "$start" "$(date +%s.%N)"
}
plugin() { mkdir "$work/$1" && cd "$work/$1" && npx projen new --from @fw/plugin-template && npx projen test; }
jsii() { mkdir "$work/$1" && cd "$work/$1" && npx projen new jsii && npx projen test; }

seconds plugin warm-plugin > /dev/null
seconds jsii warm-jsii > /dev/null
plugin_time=$(seconds plugin gitlab-plugin)
jsii_time=$(seconds jsii jsii-lib)
warm_tests=$(cd "$work/gitlab-plugin" && seconds npx projen test)

ratio=$(python3 -c "print(f'{$plugin_time / $jsii_time:.2f}')")
echo "scaffold + first test: plugin template ${plugin_time} s, projen new jsii ${jsii_time} s, ratio ${ratio} (target <= 1.2)"
echo "warm run of the plugin's tests (four kinds): ${warm_tests} s (target <= 15 s)"
