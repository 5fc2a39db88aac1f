# shellcheck shell=bash
# Sourced by the end-to-end test and the plugin-template benchmark: starts Verdaccio on 127.0.0.1 (a real npm
# registry, proxying the public one this machine's npm uses) in "$work", points npm and git at throwaway
# configuration there, and publishes the packages this repository built. The caller's EXIT trap stops it:
#   trap stop_registry EXIT
# Needs: root (the repository root) and work (an empty directory).
: "${root:?}" "${work:?}"

stop_registry() {
  kill "$verdaccio" 2>/dev/null || true
  wait "$verdaccio" 2>/dev/null || true
  echo "registry: verdaccio ($verdaccio) stopped"
}

for tgz in "$root"/packages/core/dist/js/*.tgz "$root"/packages/plugin-template/dist/js/*.tgz; do
  [ -f "$tgz" ] || { echo "registry: no tarball at $tgz; build the packages first (npx projen test at the root)"; exit 1; }
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
trap stop_registry EXIT
for _ in $(seq 1 120); do
  curl -fs "${registry}-/ping" > /dev/null 2>&1 && break
  sleep 0.5
done
curl -fs "${registry}-/ping" > /dev/null || { echo "registry: verdaccio did not answer on $registry"; cat "$work/verdaccio.out"; exit 1; }
echo "registry: verdaccio $verdaccio on $registry"

# The author's npm talks to the local registry only; publishing needs a token, any token.
export NPM_CONFIG_USERCONFIG="$work/npmrc"
printf 'registry=%s\n//127.0.0.1:%s/:_authToken=e2e-token\n' "$registry" "$port" > "$NPM_CONFIG_USERCONFIG"
export GIT_CONFIG_GLOBAL="$work/gitconfig"
git config --global user.name "Plugin Author"
git config --global user.email "author@example.com"
git config --global init.defaultBranch main
export CDK_DISABLE_CLI_TELEMETRY=true
# The author works on a workstation, not in CI: with CI set, projen installs with `npm ci`, which a project that has
# no lock file yet cannot do.
unset CI

for tgz in "$root"/packages/core/dist/js/*.tgz "$root"/packages/plugin-template/dist/js/*.tgz; do
  npm publish --no-git-checks "$tgz" > /dev/null
done
echo "registry: published @fw/core and @fw/plugin-template"
