#!/usr/bin/env bash
# `npx projen release` as a maintainer runs it, without credentials, in a fresh clone of this repository's HEAD: it
# bumps from the commit history, builds every package and language at that version into dist/, and leaves the clone
# unchanged (the release task's own last step fails on any change). Then every artifact must carry the version.
set -euo pipefail
repo="$(cd "$(dirname "$0")/../.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
git clone -q "$repo" "$work/clone"
cd "$work/clone"
git config user.name "release test" && git config user.email "release-test@example.com"
# The last release, as its tag would be: the commit before HEAD at the version the packages declare. Without any tag,
# projen's first release is 0.0.0 and bumps nothing.
git tag -f v0.1.0 HEAD~1 > /dev/null
# The installed packages, copied from this repository: what `npm ci` installs from the same lock file (scripts/setup.sh
# has just run it here), in seconds instead of about 40 s of CPU.
for dir in $(cd "$repo" && ls -d node_modules packages/*/node_modules); do cp -a "$repo/$dir" "$dir"; done
npx projen release | tee "$work/release.log"
version="$(cat dist/version.txt)"
echo "local-release: released ${version}"
case "$version" in 0.1.[1-9]*|0.[2-9].*) ;; *) echo "local-release: expected a bump past 0.1.0, got '${version}'" >&2; exit 1 ;; esac
problems=0
expect() { if [ -e "$1" ]; then echo "  ok  $1"; else echo "  MISSING  $1" >&2; problems=$((problems + 1)); fi; }
expect "dist/js/core@${version}.jsii.tgz"
expect "dist/js/plugin-template@${version}.jsii.tgz"
expect "dist/java/dev/fwframework/core/${version}/core-${version}.jar"
expect "dist/java/dev/fwframework/core/${version}/core-${version}.pom"
expect "dist/python/fw_core-${version}-py3-none-any.whl"
# The deployment apps, at the same version: the Java one with what Maven Central requires beside the JAR.
for file in deploy-${version}.jar deploy-${version}.pom deploy-${version}-sources.jar deploy-${version}-javadoc.jar; do
  expect "dist/java/dev/fwframework/deploy/${version}/${file}"
done
if [ -e "dist/java/dev/fwframework/deploy/${version}/deploy-${version}.pom" ] &&
  ! grep -q "<fw.core.version>${version}</fw.core.version>" "dist/java/dev/fwframework/deploy/${version}/deploy-${version}.pom"; then
  echo "  WRONG  the deploy POM does not depend on core ${version}" >&2; problems=$((problems + 1))
fi
expect "dist/python/fw_deploy-${version}-py3-none-any.whl"
expect "dist/python/fw_plugin_template-${version}-py3-none-any.whl"
expect "dist/go/fwcore/version"
expect dist/changelog.md
expect dist/releasetag.txt
if [ -e dist/go/fwcore/version ] && [ "$(cat dist/go/fwcore/version)" != "$version" ]; then
  echo "  WRONG  dist/go/fwcore/version says $(cat dist/go/fwcore/version)" >&2; problems=$((problems + 1))
fi
# The template tarball's package.json carries the version.
# (read whole first: grep -q closing the pipe early would fail tar under pipefail)
template_package="$(tar -xzOf "dist/js/plugin-template@${version}.jsii.tgz" package/package.json)"
grep -q "\"version\": \"${version}\"" <<< "$template_package" || { echo "  WRONG  template tarball version" >&2; problems=$((problems + 1)); }
# The languages scripts/optional-target.sh builds only where their dependency resolves: each expected exactly there.
if command -v dotnet > /dev/null; then expect "dist/dotnet/FwFramework.Core.${version}.nupkg"; else echo "  skip  .NET (no dotnet SDK on this machine)"; fi
projen_version="$(node -p "require('projen/package.json').version")"
if mvn -q -B dependency:get "-Dartifact=io.github.cdklabs:projen:${projen_version}" > /dev/null 2>&1; then
  expect "dist/java/dev/fwframework/plugin-template/${version}/plugin-template-${version}.jar"
else echo "  skip  the template's Java package (projen's Java binding not served here)"; fi
if go mod download "github.com/projen/projen-go/projen@v${projen_version}" > /dev/null 2>&1; then expect "dist/go/fwplugintemplate/version"
else echo "  skip  the template's Go module (projen's Go module not served here)"; fi
git diff --quiet || { echo "local-release: the release left changes:" >&2; git status --short >&2; problems=$((problems + 1)); }
# The release task compared the public API with the previous release's (scripts/api-compat.js, jsii-diff, against the
# assembly it built from the tag v0.1.0 above): its verdict is in the release's output.
grep -q '^api-compat: .* keeps the public API of 0.1.0$' "$work/release.log" \
  || { echo "  WRONG  the release did not compare the public API with 0.1.0's (api-compat)" >&2; problems=$((problems + 1)); }
# Negative control: the same check fails on this release with one public member removed (Shell.quote). The copy sits
# inside the package, where jsii-diff finds the assemblies it depends on (.tmp/ is ignored by git).
removed=packages/core/.tmp/removed
mkdir -p "$removed" && cp packages/core/package.json "$removed/"
node -e '
  const a = JSON.parse(require("fs").readFileSync(process.argv[1], "utf-8"));
  const shell = a.types["@fw/core.Shell"];
  shell.methods = shell.methods.filter((m) => m.name !== "quote");
  process.stdout.write(JSON.stringify(a));' packages/core/.jsii > "$removed/.jsii"
if node scripts/api-compat.js packages/core "$removed" > "$work/removed.log" 2>&1; then
  echo "  WRONG  api-compat passed with Shell.quote removed" >&2; problems=$((problems + 1))
elif ! grep -q 'quote' "$work/removed.log" || ! grep -q 'without a major bump' "$work/removed.log"; then
  cat "$work/removed.log" >&2; echo "  WRONG  api-compat failed without naming Shell.quote" >&2; problems=$((problems + 1))
else
  echo "  ok  api-compat fails with Shell.quote removed: $(grep -m1 'quote' "$work/removed.log")"
fi
rm -rf "$removed"
[ "$problems" -eq 0 ] || { echo "local-release: ${problems} problem(s)" >&2; exit 1; }
echo "local-release: every artifact at ${version}"
