#!/usr/bin/env bash
# Scaffold a plugin before the first release: builds the npm tarballs of @fw/core and @fw/plugin-template without the
# test suite (compile, then the npm package: the js steps of each package's `package` task), serves them from the
# repository's Verdaccio on a free port of 127.0.0.1 (test/e2e/registry.sh, as the end-to-end test does, proxying the
# public registry for everything else), and prints the command that scaffolds a plugin from it. Copies both tarballs
# into dist/local/, where they stay for a deployment project that installs @fw/core with `file:` (docs/deploying.md).
# Stays in the foreground until Enter or Ctrl-C (Enter works even where the shell that started it ignores SIGINT, as
# a background job's does), then stops Verdaccio by its process id.
# Needs: `npm ci` at the root and in test/e2e/verdaccio (bash scripts/setup.sh does both). See docs/development.md.
# shellcheck source-path=SCRIPTDIR/..
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
[ -f "$root/test/e2e/verdaccio/node_modules/verdaccio/bin/verdaccio" ] \
  || { echo "local-template: no Verdaccio; run 'npm ci' in test/e2e/verdaccio (or bash scripts/setup.sh)"; exit 1; }
started=$(date +%s)

for package in core plugin-template; do
  echo "local-template: packages/$package: compile, then the npm tarball (no tests)"
  (
    cd "$root/packages/$package"
    npx projen compile
    rm -rf dist/js
    # What the package task does for npm: bundled dependencies copied in, then jsii-pacmak's js target, which leaves
    # .npmignore as projen wrote it (--no-npmignore).
    node ../../scripts/bundle-deps.js
    npx jsii-pacmak --no-npmignore --target js
  )
done
built=$(date +%s)
echo "local-template: both tarballs built in $((built - started)) s"
# Under npm pack's names (jsii-pacmak writes core@<version>.jsii.tgz), where they stay after the registry stops.
mkdir -p "$root/dist/local"
for package in core plugin-template; do
  version=$(node -p "require('$root/packages/$package/package.json').version")
  cp "$root/packages/$package/dist/js/$package@$version.jsii.tgz" "$root/dist/local/fw-$package-$version.tgz"
done
echo "local-template: kept in dist/local/ (after the registry stops too): $(cd "$root/dist/local" && echo *.tgz)"

work=$(mktemp -d "${TMPDIR:-/tmp}/fw-local-template-XXXXXX")
# Starts Verdaccio ($verdaccio, on $registry) and publishes packages/*/dist/js/*.tgz with a throwaway token.
# shellcheck source=test/e2e/registry.sh
source "$root/test/e2e/registry.sh"
# Ctrl-C (or a TERM) ends the script; its EXIT trap stops Verdaccio by its pid and removes the registry's files.
trap 'stop_registry; rm -rf "$work"' EXIT
trap 'exit 130' INT TERM
echo "local-template: ready $(($(date +%s) - started)) s after the start"
cat <<EOF

Scaffold a plugin from this registry, in another shell, while this one runs:

  export npm_config_registry=$registry
  mkdir gitlab-plugin && cd gitlab-plugin
  npx projen new --from @fw/plugin-template

Keep npm_config_registry set for later installs in that project (or stop this script once node_modules is
complete). A deployment project installs @fw/core from dist/local/ without this registry (docs/deploying.md).
Enter or Ctrl-C here stops the registry.
EOF
if [ -t 0 ]; then
  read -r _ || true
else
  wait "$verdaccio"
fi
