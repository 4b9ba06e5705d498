// Package gitrepo reads a git repository for docreview through the git
// command-line tool: it resolves revisions, picks the default base of a
// review, produces the unified diff between two commits (or a commit and the
// working tree), and loads the text files of a commit or of the working tree
// into an in-memory [fs.FS].
//
// Every operation runs git as `git -C <dir> ...` with
// exec.CommandContext, never through a shell; arguments that come from users
// (revisions) are resolved with `rev-parse --verify --end-of-options` before
// they reach any other command. The user's index is never written: a
// working-tree diff stages into a temporary index (GIT_INDEX_FILE).
//
// Usage:
//
//	repo, err := gitrepo.Open(ctx, ".")
//	if err != nil { ... }
//	head, err := repo.Resolve(ctx, "HEAD")
//	base, err := repo.DefaultBase(ctx, head)
//	raw, err := repo.Diff(ctx, base, head, false)
//	snap, err := repo.Snapshot(ctx, head, gitrepo.SnapshotOptions{Exclude: []string{"vendor"}})
//	for _, name := range snap.Files() {
//		data, _ := snap.ReadFile(name)
//		...
//	}
//
// Glob patterns in [SnapshotOptions] follow [Match].
package gitrepo
