package retrieval

import (
	"io/fs"
	"strings"
)

// IndexSelection is what an index holds besides the files review selects
// at a commit.
type IndexSelection struct {
	// Vendor: files in vendor directories are indexed.
	Vendor bool
	// Upstream: the APIs of the module's direct dependencies are indexed.
	Upstream bool
}

// WorktreeKeyPrefix starts the key of an index of a working tree.
const WorktreeKeyPrefix = "worktree-"

// The suffixes of a key, after the commit or working-tree hash.
const (
	keyVendor   = "+vendor"
	keyUpstream = "+upstream"
)

// IndexKey is the commit an index records ([IndexOptions.Commit]): rev, a
// commit SHA; or, for the working tree (rev "" or "worktree"),
// [WorktreeKeyPrefix] and the [TreeHash] of files in fsys; then "+vendor"
// and "+upstream" as sel says. 'docreview review' and 'docreview index',
// 'query' and 'mcp' all key their indexes with it, so one index on disk
// serves them all and none takes an index of another selection for its
// own (BuildIndex updates it in place instead).
func IndexKey(fsys fs.FS, files []string, rev string, sel IndexSelection) (string, error) {
	key := rev
	if rev == "" || rev == "worktree" {
		h, err := TreeHash(fsys, files)
		if err != nil {
			return "", err
		}
		key = WorktreeKeyPrefix + h
	}
	if sel.Vendor {
		key += keyVendor
	}
	if sel.Upstream {
		key += keyUpstream
	}
	return key, nil
}

// KeySelection reads the selection back from a key [IndexKey] made.
func KeySelection(key string) IndexSelection {
	var sel IndexSelection
	_, rest, _ := strings.Cut(key, "+")
	for _, s := range strings.Split(rest, "+") {
		switch "+" + s {
		case keyVendor:
			sel.Vendor = true
		case keyUpstream:
			sel.Upstream = true
		}
	}
	return sel
}
