#!/usr/bin/env bash
# A plugin author's journey, against a real npm registry: Verdaccio on 127.0.0.1 (proxying the public registry this
# machine's npm uses) serves the packages this repository built; in an empty directory the author runs exactly
# `npx projen new --from @fw/plugin-template`, then `npx projen build`, whose test step is `npx projen test` (the spec's
# three test kinds and PRODUCTION's compliance check, green; run once, as the build runs it), and which must produce
# the npm tarball and a Java JAR whose service manifest names the plugin's Java class, whose POM has the framework and
# the CDK `provided` (the spec's procedure 2), and which Java's ServiceLoader loads the plugin from through Maven with
# strict checksums.
# Verdaccio is stopped by its own process id on every exit, failures included; the work directory is kept only when a
# check failed.
# Each check is counted; the last line reports how many passed, failed and were not run (a failed step that later
# checks depend on stops the run), and the exit status is non-zero unless every check passed.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/fw-e2e-XXXXXX")
echo "e2e: working in $work"

# The checks, in the order they run (`check` refuses any other), so a stopped run can say how many did not run.
CHECKS=(
  'projen new --from @fw/plugin-template scaffolds the plugin'
  'the README is written for the plugin'
  'projen build succeeds'
  'its test step (projen test) passes the four kinds of test and lint'
  'the build log has no "command not found" and says in one line when it skips .NET'
  'the build leaves the npm tarball'
  'the build leaves a Java JAR'
  'the JAR names the plugin class in its service manifest'
  'the POM has the framework, aws-cdk-lib and constructs provided'
  'ServiceLoader loads the plugin from the JAR; the Java deployment app loads it with a framework one minor newer, refuses it one major newer'
  'each package records the plugin contract it was built against'
  'TypeScript discovery loads it with a framework one minor newer, refuses it one major newer'
  'Python discovery (fw_deploy) loads its wheel with a framework one minor newer, refuses it one major newer'
  'cdk synth previews the plugin on FARGATE'
  'cdk synth previews the plugin on EC2'
  'a deployment project as docs/deploying.md makes it installs with npm ci, the registry stopped, and synthesises'
)
passed=0
failed=0

# summary STATUS: the count, and the script's exit status (non-zero unless every check ran and passed).
summary() {
  local status=$1 run=$((passed + failed))
  echo "e2e: $passed passed, $failed failed, $((${#CHECKS[@]} - run)) not run (of ${#CHECKS[@]} checks)"
  if [ "$status" -eq 0 ] && [ "$passed" -ne "${#CHECKS[@]}" ]; then status=1; fi
  exit "$status"
}

# check NAME COMMAND...: runs the command and counts it. A failed check stops the run: each later one depends on it.
# The command runs as an `if` condition, so `set -e` does not apply inside it: functions return on failure themselves.
check() {
  local name=$1
  shift
  [ "$name" = "${CHECKS[$((passed + failed))]}" ] || { echo "e2e: check \"$name\" is not next in CHECKS"; exit 2; }
  if "$@"; then
    passed=$((passed + 1))
    echo "e2e: ok - $name"
  else
    failed=$((failed + 1))
    echo "e2e: FAILED - $name"
    exit 1
  fi
}

trap 'summary $?' EXIT
# Setting up the registry is not a check: when it fails, registry.sh says why and nothing has run.
# shellcheck source=registry.sh
source "$root/test/e2e/registry.sh"
# registry.sh sets its own EXIT trap to stop Verdaccio: keep it, remove the work directory (about 540 MB) unless a
# check failed, then report.
trap 'status=$?; stop_registry; if [ "$status" -eq 0 ]; then rm -rf "$work"; else echo "e2e: the files are in $work"; fi; summary "$status"' EXIT

mkdir "$work/gitlab-plugin"
cd "$work/gitlab-plugin"
check 'projen new --from @fw/plugin-template scaffolds the plugin' npx projen new --from @fw/plugin-template


readme_names_plugin() {
  grep -q '^# gitlab-plugin$' README.md && grep -q 'src/gitlab-spec.ts' README.md && grep -q 'npx cdk synth' README.md \
    && ! grep -q 'replace this' README.md
}
check 'the README is written for the plugin' readme_names_plugin

projen_build() {
  npx projen build 2>&1 | tee "$work/build.log"
}
check 'projen build succeeds' projen_build

# `projen build` runs the test task first (compile, test, package): its log is `npx projen test`'s, run once.
projen_test() {
  # The titles the scaffold generates, as the template built here exports them (SCAFFOLD_TEST_TITLES): each passed, and
  # no other test ran.
  local titles count
  titles=$(node -p "require('$root/packages/plugin-template/lib/sample-code').SCAFFOLD_TEST_TITLES.join('\n')")
  count=$(printf '%s\n' "$titles" | wc -l)
  grep -Eq "^Tests: +$count passed, $count total" "$work/build.log" || { echo "e2e: expected exactly $count passing tests (SCAFFOLD_TEST_TITLES)"; return 1; }
  while IFS= read -r title; do
    grep -Fq "✓ $title" "$work/build.log" || { echo "e2e: no passing test \"$title\""; return 1; }
  done <<< "$titles"
  # The test task also lints (projen's eslint, with --fix): the generated code passes as it was written.
  grep -q 'build » test » eslint' "$work/build.log" || { echo "e2e: projen test ran no eslint"; return 1; }
  git diff --quiet || { echo "e2e: eslint --fix changed the generated code:"; git --no-pager diff --stat; return 1; }
}
check 'its test step (projen test) passes the four kinds of test and lint' projen_test

# A condition in projen's task shell that calls something it does not have printed "dax: command: command not found".
build_log_clean() {
  if grep -n 'command not found' "$work/build.log"; then echo "e2e: the build log has \"command not found\" (above)"; return 1; fi
  if ! command -v dotnet > /dev/null; then
    local skipped
    skipped=$(grep -c 'package:dotnet skipped: ' "$work/build.log" || true)
    [ "$skipped" -eq 1 ] || { echo "e2e: no .NET SDK here: expected one line saying package:dotnet was skipped, found $skipped"; return 1; }
    grep 'package:dotnet skipped: ' "$work/build.log"
  fi
}
check 'the build log has no "command not found" and says in one line when it skips .NET' build_log_clean
check 'the build leaves the npm tarball' compgen -G 'dist/js/*.tgz'
jar=$(find dist/java -name '*.jar' ! -name '*-sources.jar' ! -name '*-javadoc.jar' 2> /dev/null | head -1 || true)
check 'the build leaves a Java JAR' test -n "$jar"

# The plugin's Java names are its author's: projen new sets repositoryUrl from git (no remote here, so from the e-mail
# registry.sh configures, author@example.com: https://github.com/author/gitlab-plugin.git), and the template derives
# the Maven group io.github.author from it, never the framework's dev.fwframework.
plugin_group=io.github.author
plugin_class=$plugin_group.gitlabplugin.GitlabSpec

names_plugin() {
  local services
  services=$(python3 -c 'import sys, zipfile; print(zipfile.ZipFile(sys.argv[1]).read(sys.argv[2]).decode())' \
    "$jar" META-INF/services/dev.fwframework.core.IApplicationSpec) || return 1
  echo "e2e: $jar carries META-INF/services/dev.fwframework.core.IApplicationSpec:"
  echo "$services"
  grep -qx "$plugin_class" <<< "$services"
}
check 'the JAR names the plugin class in its service manifest' names_plugin

# The spec's procedure 2: the framework and the CDK are dependencies of scope `provided`; the jsii runtime, which the
# JAR needs wherever it runs, keeps Maven's default scope. Read with an XML parser, by Maven's namespace.
provided_scope() {
  python3 - "${jar%.jar}.pom" <<'PY'
import sys
import xml.etree.ElementTree as ET

ns = {'m': 'http://maven.apache.org/POM/4.0.0'}
pom = ET.parse(sys.argv[1]).getroot()
scopes = {
    f"{d.findtext('m:groupId', namespaces=ns)}:{d.findtext('m:artifactId', namespaces=ns)}": d.findtext('m:scope', 'compile', ns)
    for d in pom.findall('m:dependencies/m:dependency', ns)
}
expected = {
    'dev.fwframework:core': 'provided',
    'software.amazon.awscdk:aws-cdk-lib': 'provided',
    'software.constructs:constructs': 'provided',
    'software.amazon.jsii:jsii-runtime': 'compile',
}
wrong = [f'{name}: scope {scopes.get(name, "(not a dependency)")}, expected {scope}' for name, scope in expected.items() if scopes.get(name) != scope]
for line in wrong:
    print(f'e2e: {sys.argv[1]}: {line}')
if not wrong:
    print(f'e2e: {sys.argv[1]}: ' + ', '.join(f'{name} {scope}' for name, scope in expected.items()))
sys.exit(1 if wrong else 0)
PY
}
check 'the POM has the framework, aws-cdk-lib and constructs provided' provided_scope

# Java's ServiceLoader finds the TypeScript plugin in that JAR. Versions do not change between builds, so Maven's
# cached copies of the framework and the plugin at these versions are dropped first (only these: a release test may be
# building the next version beside this one). Strict checksums (-C): a JAR or POM changed after its checksums were
# written fails the run ("Checksum validation failed"), as it would for a user whose Maven is set to fail on them. The
# framework is `provided` by the plugin, so the test's POM names it itself, at the version that was built.
service_loader() {
  local core_version
  core_version=$(node -p "require('$root/packages/core/package.json').version") || return 1
  rm -rf "$HOME/.m2/repository/${plugin_group//.//}/gitlab-plugin/0.0.0" "$HOME/.m2/repository/dev/fwframework/core/$core_version" || return 1
  mvn -B -C -f "$root/test/e2e/service-loader/pom.xml" test -Dplugin.repository="file://$work/gitlab-plugin/dist/java" \
    -Dplugin.groupId="$plugin_group" -Dplugin.artifactId=gitlab-plugin -Dfw.core.version="$core_version" -Dexpected.applicationId=gitlab \
    -Dexpected.class="$plugin_class"
}
check 'ServiceLoader loads the plugin from the JAR; the Java deployment app loads it with a framework one minor newer, refuses it one major newer' service_loader

# The plugin contract it was built against, in each language's form (@fw/core's PluginContract reads them): the
# framework's own, as the installed @fw/core records it.
contract=$(node -p "require('@fw/core/package.json').fw.pluginContract")
next_minor=$(node -p "const [a, b] = '$contract'.split('.').map(Number); a + '.' + (b + 1)")
next_major=$(node -p "Number('$contract'.split('.')[0]) + 1 + '.0'")
records_contract() {
  local recorded
  recorded=$(node -p "require('./package.json').fw.pluginContract") || return 1
  if [ "$recorded" != "$contract" ]; then echo "e2e: package.json records '$recorded', not $contract"; return 1; fi
  python3 - "$jar" dist/python/*.whl "$contract" <<'PY'
import json, sys, zipfile
jar, wheel, contract = sys.argv[1], sys.argv[2], sys.argv[3]
found = {
    "the JAR's META-INF/fw/plugin.json": json.loads(zipfile.ZipFile(jar).read("META-INF/fw/plugin.json"))["pluginContract"],
    "the wheel's fw_plugin.json": next(json.loads(zipfile.ZipFile(wheel).read(n))["pluginContract"] for n in zipfile.ZipFile(wheel).namelist() if n.endswith(".dist-info/fw_plugin.json")),
}
print("e2e: " + "; ".join(f"{where}: {version}" for where, version in found.items()))
sys.exit(0 if set(found.values()) == {contract} else 1)
PY
}
check 'each package records the plugin contract it was built against' records_contract

# TypeScript: @fw/core's PluginRegistry reads the plugin's package.json (this repository, compiled by the build).
ts_discovery() {
  # shellcheck disable=SC2016 # JavaScript, not shell
  node -e '
    const { PluginRegistry } = require("@fw/core");
    const [next, major] = process.argv.slice(1);
    const ids = PluginRegistry.discover({ searchFrom: ".", frameworkContract: next }).applicationIds();
    if (!ids.includes("gitlab")) throw new Error("not loaded with " + next + ": " + ids);
    try { PluginRegistry.discover({ searchFrom: ".", frameworkContract: major }); } catch (e) {
      if (!/GitlabSpec \(package gitlab-plugin\) was built against plugin contract .*upgrade-fw/s.test(e.message)) throw e;
      console.log("e2e: " + e.message.split(String.fromCharCode(10))[1].trim()); process.exit(0);
    }
    throw new Error("loaded with " + major);' "$next_minor" "$next_major"
}
check 'TypeScript discovery loads it with a framework one minor newer, refuses it one major newer' ts_discovery

# Python: the plugin's wheel installed beside the framework's and the Python deployment app, found through its
# fw.plugins entry point. The jsii runtime runs the plugin's JavaScript, so the CDK's Python package is installed too.
python_discovery() {
  local venv="$work/python-venv" quiet=(--quiet --disable-pip-version-check --no-compile)
  python3 -m venv "$venv" || return 1
  PIP_CONSTRAINT="$root/test/dependencies/python/fw-core.txt" "$venv/bin/pip" install "${quiet[@]}" pip setuptools \
    "$root"/packages/core/dist/python/fw_core-*.whl dist/python/*.whl "$root/deploy/python" \
    > "$work/python-install.log" 2>&1 || { tail -20 "$work/python-install.log"; return 1; }
  "$venv/bin/python" - "$next_minor" "$next_major" <<'PY'
import sys
import fw_deploy
next_minor, next_major = sys.argv[1], sys.argv[2]
ids = [spec.application_id() for spec in fw_deploy.plugins(next_minor)]
assert ids == ["gitlab"], ids
try:
    fw_deploy.plugins(next_major)
except Exception as error:
    message = fw_deploy.user_message(error) or str(error)
    assert "GitlabSpec" in message and "was built against plugin contract" in message and "upgrade-fw" in message, message
    print("e2e: " + message)
    sys.exit(0)
sys.exit("loaded with " + next_major)
PY
}
check 'Python discovery (fw_deploy) loads its wheel with a framework one minor newer, refuses it one major newer' python_discovery

# The plugin's preview of its own deployment (cdk.json, DEV): `npx fw-deploy` finds it through the repository's own
# manifest, now that the build has compiled it; the template goes to standard output.
preview() {
  local runtime=$1 expected=$2
  npx cdk synth -c "runtimeType=$runtime" > "$work/preview-$runtime.yaml" 2> "$work/preview-$runtime.err" \
    || { cat "$work/preview-$runtime.err"; return 1; }
  grep -q "Type: $expected" "$work/preview-$runtime.yaml" && grep -q '/aws/gitlab-preview/'"$runtime"'/DEV' "$work/preview-$runtime.yaml"
}
check 'cdk synth previews the plugin on FARGATE' preview FARGATE AWS::ECS::Service
check 'cdk synth previews the plugin on EC2' preview EC2 AWS::AutoScaling::AutoScalingGroup

# docs/deploying.md, "A deployment project of your own", before the first release: @fw/core from its tarball with
# `file:`, committed in the project, and the plugin from its packed tarball; `npm ci` on a fresh copy with the local
# registry stopped (npm talks to the public registry this machine's npm uses), then `cdk synth` with the plugin's
# cdk.json finds the plugin through fw-deploy.
deployment_project() {
  local upstream project="$work/acme-deployments"
  # The registry Verdaccio proxied: this machine's npm's own.
  upstream=$(sed -n 's/^    url: //p' "$work/verdaccio.yaml") && [ -n "$upstream" ] || return 1
  stop_registry
  mkdir -p "$project/vendor" && cd "$project" || return 1
  # As scripts/local-template.sh leaves it in dist/local/, under npm pack's name.
  local version core plugin
  version=$(node -p "require('$root/packages/core/package.json').version") || return 1
  core="fw-core-$version.tgz"
  plugin=$(basename "$work"/gitlab-plugin/dist/js/*.tgz)
  cp "$root/packages/core/dist/js/core@$version.jsii.tgz" "vendor/$core" && cp "$work/gitlab-plugin/dist/js/$plugin" vendor/ || return 1
  # The manifest as the docs give it, then the two commands they give for the tarballs.
  # shellcheck disable=SC2016 # JavaScript, not shell
  node -e '
    const doc = require("fs").readFileSync(process.argv[1], "utf-8");
    const section = doc.slice(doc.indexOf("## A deployment project of your own"));
    process.stdout.write(/```json\n([\s\S]*?)```/.exec(section)[1]);' "$root/docs/deploying.md" > package.json || return 1
  npm pkg set "devDependencies.@fw/core=file:vendor/$core" || return 1
  NPM_CONFIG_REGISTRY=$upstream npm install --save-exact "./vendor/$plugin" > "$work/deploy-install.log" 2>&1 \
    || { tail -20 "$work/deploy-install.log"; return 1; }
  rm -rf node_modules
  NPM_CONFIG_REGISTRY=$upstream npm ci > "$work/deploy-ci.log" 2>&1 || { tail -20 "$work/deploy-ci.log"; return 1; }
  cp "$work/gitlab-plugin/cdk.json" . || return 1
  npx cdk synth -q -c runtimeType=FARGATE > "$work/deploy-synth.log" 2>&1 || { tail -20 "$work/deploy-synth.log"; return 1; }
  compgen -G 'cdk.out/*.template.json' > /dev/null
}
check 'a deployment project as docs/deploying.md makes it installs with npm ci, the registry stopped, and synthesises' deployment_project
