#!/usr/bin/env bash
# A plugin author's journey, against a real npm registry: Verdaccio on 127.0.0.1 (proxying the public registry this
# machine's npm uses) serves the packages this repository built; in an empty directory the author runs exactly
# `npx projen new --from @fw/plugin-template`, then `npx projen test` (three tests, green), then `npx projen build`,
# which must produce the npm tarball and a Java JAR whose service manifest names the plugin's Java class, and which
# Java's ServiceLoader loads the plugin from.
# Verdaccio is stopped by its own process id on every exit, failures included.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/fw-e2e-XXXXXX")
echo "e2e: working in $work"

# shellcheck source=registry.sh
source "$root/test/e2e/registry.sh"

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

# Java's ServiceLoader finds the TypeScript plugin in that JAR. Versions do not change between builds, so Maven's
# cached copies of the framework and the plugin are dropped first.
rm -rf "$HOME/.m2/repository/dev/fwframework"
mvn -B -f "$root/test/e2e/service-loader/pom.xml" test -Dplugin.repository="file://$work/gitlab-plugin/dist/java" \
  -Dplugin.artifactId=gitlab-plugin -Dexpected.applicationId=gitlab \
  -Dexpected.class=dev.fwframework.plugins.gitlabplugin.GitlabSpec
echo "e2e: 1 passed, 0 failed"
