package retrieval

import (
	"context"
	"fmt"
	"io/fs"
	"log/slog"
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

// EvidenceIndexOptions says what [OpenEvidenceIndex] indexes and where.
type EvidenceIndexOptions struct {
	// FS and Files are the tree and the files to index (a snapshot of a
	// commit or of the working tree).
	FS    fs.FS
	Files []string
	// Rev is the commit SHA the files are at, or "" or "worktree" for the
	// working tree ([IndexKey]).
	Rev string
	// Dir is where the index lives ([IndexOptions.Dir]); required.
	Dir string
	// Selection is what the index holds besides the files.
	Selection IndexSelection
	// Upstream configures the reading of the dependencies when
	// Selection.Upstream is set.
	Upstream UpstreamOptions
	// MaxFileSize is the snapshot's size limit, so the index skips exactly
	// the files the snapshot skipped ([IndexOptions.MaxFileSize]).
	MaxFileSize int64
	// Logger and Progress are passed to [BuildIndex].
	Logger   *slog.Logger
	Progress func(done, total int)
}

// EvidenceIndex is an opened index of the evidence layer.
type EvidenceIndex struct {
	Index *Index
	// Modules lists the direct dependencies read or skipped, with the
	// reason; nil unless Selection.Upstream.
	Modules []UpstreamModule
	// UpstreamErr is why the dependencies could not be read (go.mod
	// unreadable): the index holds the files only. The caller decides
	// whether that is a note or an error.
	UpstreamErr error
}

// OpenEvidenceIndex builds, updates or reuses the lexical index of the
// evidence layer: the one constructor 'docreview review' (the engine) and
// 'docreview index', 'query' and 'mcp' use, so the key, the dependencies
// and the size limit are the same for all of them. It fails only when the
// index cannot be built or ctx ends.
func OpenEvidenceIndex(ctx context.Context, opt EvidenceIndexOptions) (EvidenceIndex, error) {
	var out EvidenceIndex
	key, err := IndexKey(opt.FS, opt.Files, opt.Rev, opt.Selection)
	if err != nil {
		return out, err
	}
	iopt := IndexOptions{
		Dir: opt.Dir, Commit: key, Logger: opt.Logger, Progress: opt.Progress,
		IncludeVendor: opt.Selection.Vendor, MaxFileSize: opt.MaxFileSize,
	}
	if opt.Selection.Upstream {
		up := opt.Upstream
		if up.Logger == nil {
			up.Logger = opt.Logger
		}
		chunks, mods, err := UpstreamChunks(ctx, opt.FS, up)
		switch {
		case err != nil && ctx.Err() != nil:
			return out, fmt.Errorf("read upstream modules: %w", err)
		case err != nil:
			out.UpstreamErr = err
		default:
			iopt.Extra, out.Modules = chunks, mods
		}
	}
	if out.Index, err = BuildIndex(ctx, opt.FS, opt.Files, iopt); err != nil {
		return out, err
	}
	return out, nil
}
