#!/usr/bin/env bash
# Regenerates casc-schema.json (beside this script) from the sources of Jenkins core and of the pinned plugins.
#
#   packages/core/jenkins/casc-schema/generate.sh [MIRRORS_DIR]
#
# MIRRORS_DIR (or $CASC_SCHEMA_MIRRORS; default /work/.mirror) holds bare mirrors or clones of the repositories, as
# MIRRORS_DIR/jenkinsci+<repo>/repo, MIRRORS_DIR/<repo>.git or MIRRORS_DIR/<repo>. A repository found in none of
# them is cloned (bare) from GitHub into a temporary directory. Needs git, tar, Java 17 and Maven. Not run in CI.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
mirrors=${1:-${CASC_SCHEMA_MIRRORS:-/work/.mirror}}

# The one list of sources. Keep versions in sync with packages/core/src/build-server/versions.ts.
# id | version | GitHub repository | tag | code roots in the repository (space separated; none for an aggregator)
SOURCES=(
  "jenkins-core|2.568.2|jenkinsci/jenkins|jenkins-2.568.2|core/src/main/java"
  "matrix-auth|3.2.8|jenkinsci/matrix-auth-plugin|matrix-auth-3.2.8|src/main/java"
  "ldap|807.v7d7de30930cf|jenkinsci/ldap-plugin|807.v7d7de30930cf|src/main/java"
  "oic-auth|4.715.vf202e4229f61|jenkinsci/oic-auth-plugin|4.715.vf202e4229f61|src/main/java"
  "credentials-binding|728.v902a_273b_8947|jenkinsci/credentials-binding-plugin|728.v902a_273b_8947|src/main/java"
  "mask-passwords|220.v95819055b_265|jenkinsci/mask-passwords-plugin|220.v95819055b_265|src/main/java"
  "audit-trail|436.vc0d1e79fc5a_3|jenkinsci/audit-trail-plugin|436.vc0d1e79fc5a_3|src/main/java"
  "configuration-as-code|2117.vc05a_0b_e6b_f4e|jenkinsci/configuration-as-code-plugin|2117.vc05a_0b_e6b_f4e|plugin/src/main/java"
  "job-dsl|3654.vdf58f53e2d15|jenkinsci/job-dsl-plugin|3654.vdf58f53e2d15|job-dsl-plugin/src/main/java job-dsl-plugin/src/main/groovy"
  "workflow-aggregator|608.v67378e9d3db_1|jenkinsci/workflow-aggregator-plugin|608.v67378e9d3db_1|"
  "git|5.10.1|jenkinsci/git-plugin|git-5.10.1|src/main/java"
  "script-security|1402.1405.vc96e74964250|jenkinsci/script-security-plugin|1402.1405.vc96e74964250|src/main/java"
  "pipeline-groovy-lib|798.v5cc688825312|jenkinsci/pipeline-groovy-lib-plugin|798.v5cc688825312|src/main/java"
  "sonar|2.18.2|jenkinsci/sonarqube-plugin|sonar-2.18.2|src/main/java"
  "amazon-ecs|1.49|jenkinsci/amazon-ecs-plugin|amazon-ecs-1.49|src/main/java"
  "credentials|1502.v5c95e620ddfe|jenkinsci/credentials-plugin|1502.v5c95e620ddfe|src/main/java"
  "plain-credentials|199.v9f8e1f741799|jenkinsci/plain-credentials-plugin|199.v9f8e1f741799|src/main/java"
  # Not pinned by us: the SCMSource/SCMSourceTrait supertypes of the library retriever. Neither git 5.10.1's nor
  # pipeline-groovy-lib 798's pom gives its version (both take it from bom-2.504.x), so this is the newest tag whose
  # pom's jenkins.baseline (2.504) is <= 2.568.
  "scm-api|728.vc30dcf7a_0df5|jenkinsci/scm-api-plugin|728.vc30dcf7a_0df5|src/main/java"
)

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

gitdir_of() { # repository name (without owner) -> git dir
  local repo=$1 d
  for d in "$mirrors/jenkinsci+$repo/repo" "$mirrors/jenkinsci+$repo/repo/.git" "$mirrors/$repo.git" "$mirrors/$repo"; do
    if [[ -d $d ]] && git -C "$d" rev-parse --git-dir >/dev/null 2>&1; then
      echo "$d"
      return
    fi
  done
  d="$tmp/clones/$repo.git"
  echo "cloning https://github.com/jenkinsci/$repo" >&2
  git clone -q --bare "https://github.com/jenkinsci/$repo" "$d"
  echo "$d"
}

args=()
for entry in "${SOURCES[@]}"; do
  IFS='|' read -r id version repository tag roots <<<"$entry"
  repo=${repository#*/}
  gitdir=$(gitdir_of "$repo")
  commit=$(git -C "$gitdir" rev-parse --verify -q "$tag^{commit}") || {
    echo "no tag $tag in $gitdir (fetch the tags of $repository)" >&2
    exit 1
  }
  export_dir="$tmp/src/$id"
  mkdir -p "$export_dir"
  paths=()
  for r in $roots; do
    paths+=("$r")
    resources="$(dirname "$r")/resources"
    if git -C "$gitdir" cat-file -e "$commit:$resources" 2>/dev/null && [[ ! " ${paths[*]} " == *" $resources "* ]]; then
      paths+=("$resources")
    fi
  done
  if ((${#paths[@]})); then
    git -C "$gitdir" archive --format=tar "$commit" -- "${paths[@]}" | tar -x -C "$export_dir"
  fi
  echo "$id $version $tag $commit" >&2
  # shellcheck disable=SC2206
  args+=(--source "$id" "$version" "https://github.com/$repository" "$tag" "$commit" "$export_dir" $roots)
done

mvn -q -B -f "$here/pom.xml" -DskipTests package dependency:copy-dependencies -DincludeScope=runtime
java -cp "$here/target/classes:$here/target/dependency/*" dev.fwframework.cascschema.CascSchemaGenerator \
  "$here/casc-schema.json" "${args[@]}"
