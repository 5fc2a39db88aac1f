#!/usr/bin/env bash
# Builds one jsii language target for real when this machine can: when the probe (the rest of the arguments)
# succeeds, e.g. the .NET SDK exists or a dependency's binding resolves from the registry. Otherwise the target is
# skipped with a warning that says why, except in a release (FW_RELEASE_ALL_TARGETS set, as the release workflow
# does), where a missing language would be a silently incomplete release: there it is an error.
#   usage: optional-target.sh <target> <what the probe checks> <probe command...>
set -uo pipefail
target=$1
needs=$2
shift 2
if "$@" > /dev/null 2>&1; then
  exec jsii-pacmak -v --no-npmignore --target "$target"
fi
if [ -n "${FW_RELEASE_ALL_TARGETS:-}" ]; then
  echo "optional-target: cannot build the $target package: it needs $needs, and \`$*\` failed here. A release publishes every language (FW_RELEASE_ALL_TARGETS is set): run it where that resolves (the release workflow's runner)." >&2
  exit 1
fi
echo "optional-target: $target package skipped: it needs $needs, which this machine does not have (\`$*\` failed); the release workflow builds it." >&2
