#!/usr/bin/env bash
# review.sh [FLAGS]: build the example repository (examples/inventory, three
# commits) in a new temporary directory and review its last commit with
# docreview. FLAGS are passed to `docreview review`, e.g. --format json.
# The repository is left in place for inspection; its path is printed first,
# on stderr, so that stdout carries only the review. The review runs with
# --fail-on never, so the demo exits 0 although it finds drift; pass
# --fail-on contradicted to see the exit code 1 a CI gate would get.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
dir=$(mktemp -d "${TMPDIR:-/tmp}/docreview-example.XXXXXX")
echo "Reviewing the example repository built in $dir (3 commits; reviewing the last)" >&2
"$here/build.sh" "$dir" >/dev/null
cd "$here/.."
exec go run ./cmd/docreview review --repo "$dir" --no-cache --fail-on never "$@"
