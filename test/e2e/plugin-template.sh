#!/usr/bin/env bash
# A plugin author's journey, against a real npm registry: Verdaccio on 127.0.0.1 (proxying the public registry this
# machine's npm uses) serves the packages this repository built; in an empty directory the author runs exactly
# `npx projen new --from @fw/plugin-template`, then `npx projen test` (three tests, green), then `npx projen build`,
# which must produce the npm tarball and a Java JAR whose service manifest names the plugin's Java class.
# Verdaccio is stopped by its own process id on every exit, failures included.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/fw-e2e-XXXXXX")
echo "e2e: working in $work"

for tgz in "$root"/packages/core/dist/js/*.tgz "$root"/packages/plugin-template/dist/js/*.tgz; do
  [ -f "$tgz" ] || { echo "e2e: no tarball at $tgz; build the packages first (npx projen test at the root)"; exit 1; }
done

port=$(node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")
registry="http://127.0.0.1:${port}/"
cat > "$work/verdaccio.yaml" <<YAML
storage: $work/storage
max_body_size: 100mb
uplinks:
  upstream:
    url: $(npm config get registry)
    timeout: 120s
packages:
  '@fw/*':
    access: \$all
    publish: \$all
  '**':
    access: \$all
    publish: \$all
    proxy: upstream
log: { type: file, path: $work/verdaccio.log, level: warn }
YAML
node "$root/test/e2e/verdaccio/node_modules/verdaccio/bin/verdaccio" --config "$work/verdaccio.yaml" \
  --listen "127.0.0.1:${port}" > "$work/verdaccio.out" 2>&1 &
verdaccio=$!
trap 'kill "$verdaccio" 2>/dev/null || true; wait "$verdaccio" 2>/dev/null || true; echo "e2e: verdaccio ($verdaccio) stopped"' EXIT
for _ in $(seq 1 120); do
  curl -fs "${registry}-/ping" > /dev/null 2>&1 && break
  sleep 0.5
done
curl -fs "${registry}-/ping" > /dev/null || { echo "e2e: verdaccio did not answer on $registry"; cat "$work/verdaccio.out"; exit 1; }
echo "e2e: verdaccio $verdaccio on $registry"

# The author's npm talks to the local registry only; publishing needs a token, any token.
export NPM_CONFIG_USERCONFIG="$work/npmrc"
printf 'registry=%s\n//127.0.0.1:%s/:_authToken=e2e-token\n' "$registry" "$port" > "$NPM_CONFIG_USERCONFIG"
export GIT_CONFIG_GLOBAL="$work/gitconfig"
git config --global user.name "Plugin Author"
git config --global user.email "author@example.com"
git config --global init.defaultBranch main
export CDK_DISABLE_CLI_TELEMETRY=true JSII_SILENCE_WARNING_END_OF_LIFE_NODE_VERSION=20

for tgz in "$root"/packages/core/dist/js/*.tgz "$root"/packages/plugin-template/dist/js/*.tgz; do
  npm publish --no-git-checks "$tgz" > /dev/null
done
echo "e2e: published @fw/core and @fw/plugin-template"

mkdir "$work/gitlab-plugin"
cd "$work/gitlab-plugin"
npx projen new --from @fw/plugin-template

npx projen test 2>&1 | tee "$work/test.log"
grep -Eq '^Tests: +3 passed, 3 total' "$work/test.log" || { echo "e2e: expected exactly three passing tests"; exit 1; }

npx projen build
ls dist/js/*.tgz
jar=$(find dist/java -name '*.jar' ! -name '*-sources.jar' ! -name '*-javadoc.jar' | head -1)
[ -n "$jar" ] || { echo "e2e: the build made no Java JAR"; exit 1; }
services=$(python3 -c 'import sys, zipfile; print(zipfile.ZipFile(sys.argv[1]).read(sys.argv[2]).decode())' \
  "$jar" META-INF/services/dev.fwframework.core.IApplicationSpec)
echo "e2e: $jar carries META-INF/services/dev.fwframework.core.IApplicationSpec:"
echo "$services"
grep -qx 'dev.fwframework.plugins.gitlabplugin.GitlabSpec' <<< "$services" || { echo "e2e: the JAR's manifest does not name the plugin class"; exit 1; }
echo "e2e: 1 passed, 0 failed"
