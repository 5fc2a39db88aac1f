#!/usr/bin/env bash
# The Java side of a release, as users get it: the framework's JAR (this build's, packages/core/dist/java) and the Java
# deployment app (deploy/java) deployed with `mvn deploy` to a Maven repository of their own (a file:// repository,
# removed afterwards), Maven's local cache of dev.fwframework emptied, then the Java example built and tested against
# them, resolved by coordinates from that repository alone.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
repo="file://$work/maven"
core_dir="$root/packages/core/dist/java/dev/fwframework/core"
version="$(ls "$core_dir" | grep -v maven-metadata | head -1)"
[ -n "$version" ] || { echo "maven-rehearsal: no core JAR; build the packages first (npx projen test at the root)" >&2; exit 1; }
jar="$core_dir/$version/core-$version"
# Maven's local repository, named to every mvn here: Maven takes user.home from the password file, not from $HOME,
# so the two can differ (a CI runner or a test that sets HOME), and the checks below read where Maven wrote.
local_repo="$HOME/.m2/repository"
mvn() { command mvn -Dmaven.repo.local="$local_repo" "$@"; }
# The version stays the same between builds: nothing cached may answer for it. Only this version is dropped, so a
# release test building the next version beside this one (test/release/local-release.sh) keeps its own.
forget() { rm -rf "$local_repo/dev/fwframework/core/$version" "$local_repo/dev/fwframework/deploy/$version"; }
forget

mvn -B -q org.apache.maven.plugins:maven-deploy-plugin:3.1.4:deploy-file -DrepositoryId=rehearsal -Durl="$repo" \
  -Dfile="$jar.jar" -DpomFile="$jar.pom" -Dsources="$jar-sources.jar" -Djavadoc="$jar-javadoc.jar"
echo "maven-rehearsal: dev.fwframework:core:$version deployed to $repo"
# Each build lists the tree Maven resolved for it too (dependency:list in the same run: no second resolution), checked
# below against the one test/dependencies/advisories.test.js reads.
read -r -a list <<< "$(node "$root/scripts/maven-trees.js" goal)"
(cd "$root/deploy/java" && mvn -B deploy "${list[@]}" -DoutputFile="$work/deploy-tree" -Dfw.repository.url="$repo" \
  -DaltDeploymentRepository="rehearsal::$repo")
echo "maven-rehearsal: dev.fwframework:deploy:$version deployed to $repo"

forget
(cd "$root/examples/java-plugin" && mvn -B verify "${list[@]}" -DoutputFile="$work/example-tree" -Dfw.repository.url="$repo")
for artifact in core deploy; do
  origin="$local_repo/dev/fwframework/$artifact/$version/_remote.repositories"
  grep -q ">fw-local=" "$origin" || { echo "maven-rehearsal: $artifact was not resolved from the rehearsal repository ($origin)" >&2; exit 1; }
done
echo "maven-rehearsal: the Java example passed against core and deploy resolved from $repo"
node "$root/scripts/maven-trees.js" check deploy/java "$work/deploy-tree"
node "$root/scripts/maven-trees.js" check examples/java-plugin "$work/example-tree"
