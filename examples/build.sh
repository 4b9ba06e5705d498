#!/usr/bin/env bash
# build.sh DIR: create the example git repository that docreview's README
# reviews. DIR must be new or empty. Each snapshot under inventory/NN-name/
# becomes one commit, in order, with the message in inventory/NN-name.COMMIT_MSG.
# Author, committer and dates are fixed, so every build gives the same SHAs.
set -euo pipefail
export LC_ALL=C

prog=build.sh
if [ $# -ne 1 ] || [ -z "$1" ]; then
	echo "usage: $prog DIR (a new or empty directory)" >&2
	exit 2
fi
dest=$1
src=$(cd "$(dirname "$0")" && pwd)/inventory

if [ -e "$dest" ] && [ ! -d "$dest" ]; then
	echo "$prog: $dest exists and is not a directory" >&2
	exit 1
fi
if [ -d "$dest" ] && [ -n "$(ls -A "$dest")" ]; then
	echo "$prog: $dest is not empty; refusing to build into it (give a new or empty directory)" >&2
	exit 1
fi
mkdir -p "$dest"
dest=$(cd "$dest" && pwd)

# One date per snapshot, in order.
dates=(
	"2024-03-04T09:30:00+01:00"
	"2024-03-07T14:10:00+01:00"
	"2024-03-12T16:45:00+01:00"
)

# Ignore the caller's git configuration and environment: hooks, signing,
# templates or line-ending conversion would change the commits.
unset GIT_DIR GIT_WORK_TREE GIT_INDEX_FILE GIT_OBJECT_DIRECTORY GIT_NAMESPACE
export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null
export GIT_AUTHOR_NAME="Mara Lindqvist" GIT_AUTHOR_EMAIL="mara@example.com"
export GIT_COMMITTER_NAME="Mara Lindqvist" GIT_COMMITTER_EMAIL="mara@example.com"
g() {
	git -C "$dest" \
		-c user.name="$GIT_AUTHOR_NAME" -c user.email="$GIT_AUTHOR_EMAIL" \
		-c commit.gpgsign=false -c core.autocrlf=false -c core.hooksPath=/dev/null \
		"$@"
}

g -c init.defaultBranch=main init -q

i=0
for snap in "$src"/[0-9][0-9]-*/; do
	name=$(basename "$snap")
	msg=$src/$name.COMMIT_MSG
	if [ ! -f "$msg" ]; then
		echo "$prog: no commit message for snapshot $name (want $msg)" >&2
		exit 1
	fi
	if [ "$i" -ge "${#dates[@]}" ]; then
		echo "$prog: no commit date for snapshot $name; add one to dates in $0" >&2
		exit 1
	fi
	# Replace the work tree with the snapshot: git rm removes every tracked
	# file (and directories it empties), then the snapshot is copied in.
	g rm -r -q --ignore-unmatch -- .
	cp -R "$snap". "$dest"/
	g add -A
	GIT_AUTHOR_DATE=${dates[$i]} GIT_COMMITTER_DATE=${dates[$i]} g commit -q -F "$msg"
	i=$((i + 1))
done

if [ "$i" -eq 0 ]; then
	echo "$prog: no snapshots found under $src" >&2
	exit 1
fi
echo "$prog: built $dest: $i commits, HEAD $(g rev-parse HEAD)"
