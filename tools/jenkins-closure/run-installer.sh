#!/usr/bin/env bash
# Runs the Jenkins plugin installation manager itself (jenkinsci/plugin-installation-manager-tool, the release the
# pinned image carries: PLUGIN_MANAGER_VERSION in versions.ts) over the build server's plugins.txt, offline, and
# records what it decided in packages/core/jenkins/plugin-installer-run.json, which plugin-closure.test.ts checks
# against the pins. A consistency check of the closure by the real resolver, not an install: the tool checks every
# dependency of every plugin, optional ones included, against the pins and stops the whole install on a conflict
# (PluginManager.java 1137-1149, 232-241), and stops on a line the site does not list. What it cannot see: anything the
# derivation did not read (the update site's own metadata, a manifest that differs from its pom, downloads).
#
#   bash tools/jenkins-closure/run-installer.sh MIRRORS_DIR
#
# Built from source with javac, because its parent pom and org.jenkins-ci:version-number are not on Maven Central:
# the tool's tag and jenkinsci/lib-version-number's tag (the version the tool's pom names) come from bare mirrors
# (MIRRORS_DIR, required, as MIRRORS_DIR/jenkinsci+<repo>/repo); the other dependencies, at the versions
# the tool's poms name, from Maven Central. The update center it resolves from is generated from plugin-closure.json
# (tools/jenkins-closure/update-center.js), so run derive.js first. Nothing is downloaded (--no-download).
# Two negative controls, which must fail: workflow-multibranch at 795.ve0cb_1f45ca_9a_ (below a declared optional
# dependency), and the jar lib-durable-task pinned as a plugin (not on the site).
# Needs Node, Java 17, Maven and git; not part of any build, test or CI task (CI cannot reach GitHub).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
mirrors=${1:-}
[[ -n $mirrors && -d $mirrors/jenkinsci+plugin-installation-manager-tool/repo ]] || {
  echo "usage: bash tools/jenkins-closure/run-installer.sh MIRRORS_DIR: bare mirrors of the tool and of lib-version-number as" >&2
  echo "MIRRORS_DIR/jenkinsci+<repo>/repo (git clone --bare https://github.com/jenkinsci/<repo> MIRRORS_DIR/jenkinsci+<repo>/repo)" >&2
  exit 2
}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The pins, read once with the repository's ts-node (npm ci at the root first): the tool's release, core, plugins.txt.
# shellcheck disable=SC2016 # the JavaScript template literal is not for the shell
{ read -r version; read -r core; cat > "$work/plugins.txt"; } < <(cd "$root" && "$root/node_modules/.bin/ts-node" --skip-project \
  --transpile-only -O '{"module":"commonjs","ignoreDeprecations":"6.0"}' -e '
  const v = require("./packages/core/src/build-server/versions");
  process.stdout.write(`${v.PLUGIN_MANAGER_VERSION}\n${v.JENKINS_CORE.version}\n${v.pluginsTxt()}`);')

tool=$mirrors/jenkinsci+plugin-installation-manager-tool/repo
lib=$mirrors/jenkinsci+lib-version-number/repo
mkdir -p "$work/src" "$work/classes" "$work/deps"
git -C "$tool" archive "$version" plugin-management-library/pom.xml plugin-management-library/src/main plugin-management-cli/pom.xml plugin-management-cli/src/main \
  2> >(grep -v 'jenkinstest.war' >&2) | tar -x -C "$work/src" # git names a test resource the mirror leaves out; unused
toolCommit=$(git -C "$tool" rev-parse "$version^{commit}")
libPom=$work/src/plugin-management-library/pom.xml
cliPom=$work/src/plugin-management-cli/pom.xml
vnVersion=$(grep -A1 '<artifactId>version-number</artifactId>' "$libPom" | sed -n 's/.*<version>\(.*\)<\/version>.*/\1/p')
git -C "$lib" archive "version-number-$vnVersion" src/main/java | tar -x -C "$work/src"
libCommit=$(git -C "$lib" rev-parse "version-number-$vnVersion^{commit}")

# The tool's non-test dependencies with a version in its own poms (version-number is compiled above), from Maven Central;
# spotbugs-annotations (compile-only annotations, versioned by the unavailable parent) at a release Central serves.
node - "$libPom" "$cliPom" > "$work/deps/pom.xml" <<'EOF'
const fs = require('fs');
const deps = process.argv.slice(2).flatMap((f) => [...fs.readFileSync(f, 'utf-8').replace(/<dependencyManagement>[\s\S]*?<\/dependencyManagement>/, '')
  .matchAll(/<dependency>([\s\S]*?)<\/dependency>/g)].map((m) => m[1]))
  .filter((d) => !/<scope>test<\/scope>/.test(d) && /<version>\d/.test(d) && !/version-number|plugin-management/.test(d))
  .map((d) => d.replace(/<optional>true<\/optional>/, ''));
console.log(`<project xmlns="http://maven.apache.org/POM/4.0.0"><modelVersion>4.0.0</modelVersion><groupId>fw</groupId>
<artifactId>installer-deps</artifactId><version>1</version><dependencies>
${deps.map((d) => `<dependency>${d}</dependency>`).join('\n')}
<dependency><groupId>com.github.spotbugs</groupId><artifactId>spotbugs-annotations</artifactId><version>4.9.8</version></dependency>
</dependencies></project>`);
EOF
mvn -B -q -f "$work/deps/pom.xml" dependency:copy-dependencies -DoutputDirectory="$work/lib" -DincludeScope=compile \
  > "$work/mvn.log" 2>&1 || { cat "$work/mvn.log"; exit 1; }

find "$work/src" -path '*/src/main/java/*.java' > "$work/sources"
javac -nowarn -encoding UTF-8 -d "$work/classes" -cp "$work/lib/*" @"$work/sources" 2>&1 | grep -v '^Note:' || true
for res in plugin-management-library/src/main/resources-filtered plugin-management-cli/src/main/resources plugin-management-cli/src/main/resources-filtered; do
  [[ -d "$work/src/$res" ]] && cp -r "$work/src/$res/." "$work/classes/"
done
sed -i "s/\${project.version}/$version/g" "$work/classes/version.properties" 2>/dev/null || true

run() { # plugins.txt -> the tool's output and exit code, as JSON
  local txt=$1 uc=$work/uc-$RANDOM rc=0
  node "$root/tools/jenkins-closure/update-center.js" "$txt" "$uc"
  CACHE_DIR=$work/cache-$RANDOM java -cp "$work/classes:$work/lib/*" io.jenkins.tools.pluginmanager.cli.Main \
    --plugin-file "$txt" --jenkins-version "$core" --latest false --no-download \
    --plugin-download-directory "$work/plugins-$RANDOM" \
    --jenkins-update-center "file://$uc/update-center.json" --jenkins-plugin-info "file://$uc/plugin-versions.json" \
    > "$work/out" 2>&1 || rc=$?
  node -e 'const fs = require("fs"); console.log(JSON.stringify({ exitCode: +process.argv[1],
    output: fs.readFileSync(process.argv[2], "utf-8").split("\n").filter((l) => l.trim()) }))' "$rc" "$work/out"
}
ok=$(run "$work/plugins.txt")
sed 's/^workflow-multibranch:.*/workflow-multibranch:795.ve0cb_1f45ca_9a_/' "$work/plugins.txt" > "$work/control.txt"
grep -q '^workflow-multibranch:795' "$work/control.txt"
control=$(run "$work/control.txt")
jar=$(cd "$root" && node -e 'const c = require("./packages/core/jenkins/plugin-closure.json").libraries["lib-durable-task"];
  if (!c) throw new Error("lib-durable-task is no longer a library of the closure: choose another bundled jar"); console.log(`lib-durable-task:${c.version}`)')
{ cat "$work/plugins.txt"; echo "$jar"; } > "$work/jar.txt"
jarControl=$(run "$work/jar.txt")

node - "$root" "$work/plugins.txt" "$version" "$toolCommit" "$vnVersion" "$libCommit" "$core" "$ok" "$control" "$jar" "$jarControl" <<'EOF'
const [root, txt, version, commit, vn, vnCommit, core, ok, control, jar, jarControl] = process.argv.slice(2);
const fs = require('fs'); const crypto = require('crypto'); const path = require('path');
const sha = (f) => crypto.createHash('sha256').update(fs.readFileSync(f)).digest('hex');
const closureFile = path.join(root, 'packages/core/jenkins/plugin-closure.json');
const closure = JSON.parse(fs.readFileSync(closureFile, 'utf-8'));
const out = path.join(root, 'packages/core/jenkins/plugin-installer-run.json');
fs.writeFileSync(out, JSON.stringify({
  about: 'A consistency check of the derived closure by the real resolver, not an install: the Jenkins plugin installation manager, built from its source, run offline over plugins.txt with --latest false --no-download against an update center generated from plugin-closure.json, listing only the artifacts derived to be plugins, as the real site does (tools/jenkins-closure/run-installer.sh). It cannot see what the derivation did not read: the real site\'s metadata, manifests, downloads. plugin-closure.test.ts checks that the inputs are the current ones, that the run succeeded, and that each negative control failed naming its cause.',
  installer: { repository: 'jenkinsci/plugin-installation-manager-tool', tag: version, commit, versionNumber: { repository: 'jenkinsci/lib-version-number', tag: `version-number-${vn}`, commit: vnCommit } },
  jenkinsVersion: core,
  inputs: { pluginsTxtSha256: sha(txt), pluginClosureSha256: sha(closureFile) },
  dependenciesUnknown: Object.entries(closure.plugins).filter(([, p]) => p.unread).map(([id]) => id),
  run: JSON.parse(ok),
  negativeControls: [
    { change: 'workflow-multibranch:795.ve0cb_1f45ca_9a_', why: 'below the version pipeline-groovy-lib declares for its optional dependency', ...JSON.parse(control) },
    { change: `${jar} added`, why: 'a jar durable-task bundles, pinned as a plugin: the site does not list it', ...JSON.parse(jarControl) },
  ],
}, null, 2) + '\n');
console.log(`${path.relative(root, out)}: run exit ${JSON.parse(ok).exitCode}, negative controls exit ${JSON.parse(control).exitCode} and ${JSON.parse(jarControl).exitCode}`);
EOF
