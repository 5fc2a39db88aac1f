#!/usr/bin/env bash
# Regenerates packages/core/jenkins/casc-schema/casc-schema.json, which the conformance test reads, from the sources of
# Jenkins core and of the pinned plugins.
#
#   bash tools/casc-schema/generate.sh MIRRORS_DIR
#
# The sources are the pins themselves: CASC_SCHEMA_SOURCES in packages/core/src/build-server/versions.ts (read with the
# repository's ts-node, so run `npm ci` at the repository root first). MIRRORS_DIR (or $CASC_SCHEMA_MIRRORS; required)
# holds bare mirrors or clones of the repositories, as MIRRORS_DIR/jenkinsci+<repo>/repo,
# MIRRORS_DIR/<repo>.git or MIRRORS_DIR/<repo>. A repository found in none of them is cloned (bare) from GitHub into a
# temporary directory. Needs git, tar, Node, Java 17 and Maven. Not run in CI.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
output=$root/packages/core/jenkins/casc-schema/casc-schema.json
mirrors=${1:-${CASC_SCHEMA_MIRRORS:-}}
[[ -n $mirrors && -d $mirrors ]] || {
  echo "usage: bash tools/casc-schema/generate.sh MIRRORS_DIR (or set CASC_SCHEMA_MIRRORS): a directory of bare mirrors," >&2
  echo "made with \`git clone --bare https://github.com/jenkinsci/<repo> MIRRORS_DIR/<repo>.git\`; ${mirrors:-none given}${mirrors:+ does not exist}" >&2
  exit 2
}

# id | version | GitHub repository | tag | code roots in the repository (space separated; none for an aggregator)
ts_node=$root/node_modules/.bin/ts-node
[[ -x $ts_node ]] || { echo "no $ts_node: run npm ci at the repository root" >&2; exit 1; }
sources=$(cd "$root" && "$ts_node" --skip-project --transpile-only -O '{"module":"commonjs","ignoreDeprecations":"6.0"}' -e '
  const v = require("./packages/core/src/build-server/versions");
  for (const s of v.CASC_SCHEMA_SOURCES) console.log([s.id, v.sourceVersion(s), s.repository, v.pinTag(s), s.codeRoots.join(" ")].join("|"));
')
mapfile -t SOURCES <<<"$sources"

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
  "$output" "${args[@]}"
