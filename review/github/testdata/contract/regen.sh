#!/usr/bin/env bash
# regen.sh regenerates github-trimmed.json byte for byte from
# @octokit/openapi 23.0.2 (generated/api.github.com.json, 13,001,822 bytes).
#
#   ./regen.sh                         # installs @octokit/openapi@23.0.2 into a temporary directory (about 385 MB, removed afterwards)
#   OPENAPI_JSON=/path/api.github.com.json ./regen.sh   # use a copy you already have
#
# To add a path, add it to PATHS below, run this script and commit both files.
# Needs node (>= 18) and npm. Writes only github-trimmed.json next to this script.
set -euo pipefail
cd "$(dirname "$0")"

OPENAPI_VERSION=23.0.2
PATHS=(
  "/app/installations/{installation_id}/access_tokens"
  "/rate_limit"
  "/repos/{owner}/{repo}/check-runs"
  "/repos/{owner}/{repo}/check-runs/{check_run_id}"
  "/repos/{owner}/{repo}/check-runs/{check_run_id}/annotations"
  "/repos/{owner}/{repo}/collaborators/{username}/permission"
  "/repos/{owner}/{repo}/commits/{ref}/check-runs"
  "/repos/{owner}/{repo}/contents/{path}"
  "/repos/{owner}/{repo}/installation"
  "/repos/{owner}/{repo}/issues/comments/{comment_id}"
  "/repos/{owner}/{repo}/issues/{issue_number}/comments"
  "/repos/{owner}/{repo}/pulls/comments/{comment_id}"
  "/repos/{owner}/{repo}/pulls/{pull_number}"
  "/repos/{owner}/{repo}/pulls/{pull_number}/comments"
  "/repos/{owner}/{repo}/pulls/{pull_number}/files"
  "/repos/{owner}/{repo}/pulls/{pull_number}/reviews"
  "/repos/{owner}/{repo}/pulls/{pull_number}/reviews/{review_id}"
)

src=${OPENAPI_JSON:-}
if [ -z "$src" ]; then
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  npm i --no-save --no-audit --no-fund --prefix "$tmp" "@octokit/openapi@$OPENAPI_VERSION" >&2
  src="$tmp/node_modules/@octokit/openapi/generated/api.github.com.json"
fi
node trim-spec.mjs "$src" github-trimmed.json "${PATHS[@]}"
