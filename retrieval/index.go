package retrieval

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/search/query"
	bolterrors "go.etcd.io/bbolt/errors"
)

// Index is a bleve index (scorch, BM25 scoring) of a repository's chunks at
// one commit, kept on disk. It is opened read-only: any number of Index
// values, in this process or others, can search the same directory at once.
// Its methods are safe for concurrent use; it must be closed with
// [Index.Close].
type Index struct {
	bix    bleve.Index
	dir    string
	commit string
	stats  indexStoredStats
	build  indexBuildStats
	stop   analysis.TokenMap
	dfs    indexDocFreqs

	closeOnce sync.Once
	closeErr  error
}

// IndexOptions configures [BuildIndex].
type IndexOptions struct {
	// Dir is where the index lives on disk; required. Its parent must be
	// writable: a new index is built in a temporary directory beside Dir
	// and renamed into place, and BuildIndex keeps a lock file Dir+".lock".
	Dir string
	// Commit is what the index reflects, usually a commit SHA. An existing
	// index at Dir is reused as it is if it was built for the same
	// non-empty Commit, and updated if it was built for another; with an
	// empty Commit the index is always rebuilt.
	Commit string
	// Logger receives the build's summary ("index built", with files,
	// changed, removed, chunks, extra, extra_changed, extra_removed and
	// duration), skipped files and rebuild reasons; nil discards them.
	Logger *slog.Logger
	// Progress, if not nil, is called with the number of files processed
	// so far and the number to process (files read, or hashed to check
	// them for an update): at most about ten times a second, and once with
	// done == total when all are processed. It is not called when the
	// index is reused as it is. Calls come from one goroutine at a time and
	// must return quickly.
	Progress func(done, total int)
	// IncludeVendor indexes files in directories named vendor; by default
	// (false) they are left out.
	IncludeVendor bool
	// IncludeTestdata indexes files in directories named testdata; by
	// default (false) they are left out.
	IncludeTestdata bool
	// MaxFileSize is the size in bytes above which a file is skipped; 0
	// means 1 MiB, a negative value means no limit.
	MaxFileSize int64
	// Extra are chunks that come from outside the file tree, such as the
	// dependencies' APIs [UpstreamChunks] returns. They are indexed as
	// they are, beside the files' chunks, and [Index.Search],
	// [Index.Chunk], [Index.ChunkAt] and [Index.AllChunks] return them
	// like any other. Each one's Path must start with "@upstream/" and
	// must not be one of the files; its ID must start with Path+"#" and be
	// unique. The index records a hash of each (all fields), so an update
	// indexes again only the Extra chunks that are new or changed and
	// deletes those no longer given; and an index of the same Commit is
	// reused as it is only when its Extra chunks are the same. Nil means
	// none.
	Extra []Chunk
}

// IndexStats describes an [Index].
type IndexStats struct {
	// Docs is the number of chunks in the index.
	Docs int
	// Files is the number of files indexed.
	Files int
	// Skipped is the number of files listed but not indexed because they
	// are binary or larger than the size limit. Unreadable files and files
	// left out by the vendor and testdata rules are not counted.
	Skipped int
	// Bytes is the total size of the files indexed.
	Bytes int64
	// DiskBytes is the size of the index directory on disk; 0 if it could
	// not be measured.
	DiskBytes int64
	// Extra is the number of [IndexOptions.Extra] chunks in the index;
	// Docs counts them too.
	Extra int
	// Changed is the number of files that the [BuildIndex] call that
	// returned the index found new or changed and read anew: every file
	// of a new index, binary and too large ones included (those are
	// counted in Skipped too). Removed is the number of files whose chunks
	// it deleted because they are no longer listed. Both are 0 when the
	// index was reused as it was, and for an index [OpenIndex] opened.
	Changed, Removed int
	// ExtraChanged and ExtraRemoved are the same counts for
	// [IndexOptions.Extra] chunks: indexed anew (new or changed), and
	// deleted (no longer given).
	ExtraChanged, ExtraRemoved int
	// Reused reports that [BuildIndex] found a complete index of the same
	// commit, file size limit and Extra chunks and opened it as it was,
	// without reading the files. It is false for a build or an update and
	// for an index [OpenIndex] opened.
	Reused bool
}

// Index tuning.
const (
	// indexDefaultMaxFileSize is the default IndexOptions.MaxFileSize.
	indexDefaultMaxFileSize = 1 << 20
	// indexDefaultTopK is the number of hits when Query.TopK is zero.
	indexDefaultTopK = 10
	// indexMaxTopK bounds Query.TopK.
	indexMaxTopK = 10000
	// indexTopKSlack is how many hits beyond TopK (or a quarter of TopK
	// if more) a search fetches to order ties by chunk ID.
	indexTopKSlack = 10
	// indexWhyBudget bounds how many bytes of hit text Search re-analyzes
	// to tell which query terms matched.
	indexWhyBudget = 256 << 10
	// indexOpenTimeout bounds each attempt to open an index that a writer
	// holds; OpenIndex retries until its context ends.
	indexOpenTimeout = "500ms"
)

// Internal (non-document) keys stored in the index.
var (
	// indexKeyFormat holds indexFormatVersion.
	indexKeyFormat = []byte("docreview.format")
	// indexKeyCommit holds the commit; it is written last, in the batch
	// that completes a build or an update.
	indexKeyCommit = []byte("docreview.commit")
	// indexKeyUpdating is set, to the commit being indexed, while an update
	// changes an index's chunks; an index that has it was interrupted and
	// is rebuilt.
	indexKeyUpdating = []byte("docreview.updating")
	// indexKeyManifest holds the JSON indexManifest: per file, its hash and
	// chunk IDs.
	indexKeyManifest = []byte("docreview.manifest")
	// indexKeyStats holds the JSON indexStoredStats.
	indexKeyStats = []byte("docreview.stats")
	// indexKeyExtra holds the digest of the index's Extra chunks
	// (indexExtraDigest); it is absent when there are none.
	indexKeyExtra = []byte("docreview.extra")
)

// Search boosts per field. bleve normalizes a query's weights, so only
// their ratios matter: the words of a chunk weigh as much as its symbol
// name, so that a chunk that discusses a term ranks with one named after
// it; whole compound identifiers and dotted names add to the words they
// are made of, and headings to the words of a section.
const (
	indexBoostText    = 3.0
	indexBoostSymbol  = 3.0
	indexBoostIdent   = 2.0
	indexBoostQual    = 2.0
	indexBoostHeading = 1.5
)

// Log attribute keys.
const (
	indexLogDir      = "dir"
	indexLogCommit   = "commit"
	indexLogReason   = "reason"
	indexLogFiles    = "files"
	indexLogChanged  = "changed"
	indexLogRemoved  = "removed"
	indexLogChunks   = "chunks"
	indexLogExtra    = "extra"
	indexLogExtraChg = "extra_changed"
	indexLogExtraRm  = "extra_removed"
	indexLogDuration = "duration"
	indexLogPath     = "path"
	indexLogError    = "error"
)

// errIndexBusy reports that an index could not be opened because another
// holder's lock conflicts: a writer, or readers when opening to write.
var errIndexBusy = errors.New("index is locked by another holder")

// indexStoredStats are the counts kept under indexKeyStats.
type indexStoredStats struct {
	Files   int   `json:"files"`
	Skipped int   `json:"skipped"`
	Bytes   int64 `json:"bytes"`
	Extra   int   `json:"extra,omitempty"`
}

// indexBuildStats are what one BuildIndex call did, for [IndexStats].
type indexBuildStats struct {
	changed, removed           int
	extraChanged, extraRemoved int
	reused                     bool
}

// BuildIndex returns an index at opt.Dir of the chunks of files (slash
// paths in fsys, as [ChunkFile] makes them) for opt.Commit.
//
// If opt.Dir holds a complete index of the same non-empty Commit, the
// same index format and the same opt.Extra chunks, it is opened and
// reused and files are not read. If it holds an index of another commit,
// or of other Extra chunks, it is updated: every file is read and hashed,
// and only files whose content differs from the index's manifest (SHA-256
// per file) are chunked again; chunks of files no longer listed are
// deleted; Extra chunks are indexed again only when new or changed, and
// deleted when no longer given. The update works on a copy of opt.Dir
// (segment files are hard-linked, so the copy is cheap) that carries an
// "update in progress" marker until its last batch records the manifest
// and, last, the new commit; the copy then replaces opt.Dir. So a
// cancelled, failed or crashed update leaves the old index valid, and
// readers that have it open keep their view. An index of another format,
// one with the marker set, or one that does not open, is rebuilt (the
// reason is logged) in a temporary directory beside opt.Dir and renamed
// into place. BuildIndex returns an error instead of replacing a non-empty
// opt.Dir that does not look like an index, or a file that is not a
// directory. [Index.Stats] tells what the call did.
//
// BuildIndex holds an exclusive lock on opt.Dir+".lock" while it works,
// waiting for another BuildIndex, here or in another process, to finish;
// [OpenIndex] waits for it as well. The returned Index is read-only.
//
// fsys is read from several goroutines at once: it must be safe for
// concurrent use, as os.DirFS and fstest.MapFS are. The order of files
// does not matter and repeated paths are indexed once. Files in vendor and
// testdata directories are left out unless opt says
// otherwise. Directories, files larger than opt.MaxFileSize and binary
// files (a NUL byte in their first 8 KiB) are skipped; a file that cannot
// be read (removed since it was listed) is skipped with a warning. Invalid
// UTF-8 is indexed with U+FFFD in place of the bad bytes. A path that is
// not a valid fs.FS path is an error, and so is an Extra chunk that breaks
// the rules of [IndexOptions.Extra]. Files are read, chunked and
// analyzed by GOMAXPROCS workers while bleve indexes the previous batch.
// ctx is checked between files and between batches; a cancelled build
// leaves the previous index as it was and returns ctx's error.
func BuildIndex(ctx context.Context, fsys fs.FS, files []string, opt IndexOptions) (*Index, error) {
	log := opt.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if opt.Dir == "" {
		return nil, errors.New("build index: IndexOptions.Dir is empty")
	}
	dir := filepath.Clean(opt.Dir)
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("build index %s: %w", dir, err)
	}
	paths, err := indexSelectFiles(files, opt)
	if err != nil {
		return nil, fmt.Errorf("build index %s: %w", dir, err)
	}
	extraHashes, extraDigest, err := indexCheckExtra(opt.Extra, files)
	if err != nil {
		return nil, fmt.Errorf("build index %s: %w", dir, err)
	}
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return nil, fmt.Errorf("build index %s: %w", dir, err)
	}
	unlock, err := indexLock(ctx, dir+".lock", true)
	if err != nil {
		return nil, fmt.Errorf("build index %s: %w", dir, err)
	}
	defer unlock()
	indexCleanTemps(dir)

	b := &indexBuilder{
		fsys: fsys, paths: paths, opt: opt, log: log, maxSize: indexMaxFileSize(opt),
		extraHashes: extraHashes, extraDigest: extraDigest,
	}
	started := time.Now()
	state, reason, manifest, err := indexInspect(dir, opt.Commit, b.maxSize, extraDigest)
	if err != nil {
		return nil, fmt.Errorf("build index %s: %w", dir, err)
	}
	switch state {
	case indexStateCurrent:
		ix, err := indexOpen(ctx, dir)
		if err != nil {
			return nil, fmt.Errorf("build index %s: %w", dir, err)
		}
		ix.build.reused = true
		log.Info("index reused", indexLogDir, dir, indexLogCommit, opt.Commit)
		return ix, nil
	case indexStateOther:
		log.Info("index update", indexLogDir, dir, indexLogCommit, opt.Commit, indexLogReason, reason)
		if err := b.updateDir(ctx, dir, manifest); err != nil {
			return nil, fmt.Errorf("build index %s: %w", dir, err)
		}
	default:
		if reason != "" {
			log.Info("index rebuild", indexLogDir, dir, indexLogCommit, opt.Commit, indexLogReason, reason)
		}
		if err := b.rebuild(ctx, dir); err != nil {
			return nil, fmt.Errorf("build index %s: %w", dir, err)
		}
	}
	ix, err := indexOpen(ctx, dir)
	if err != nil {
		return nil, fmt.Errorf("build index %s: reopen: %w", dir, err)
	}
	ix.build = indexBuildStats{changed: b.changed, removed: b.removed, extraChanged: b.extraChanged, extraRemoved: b.extraRemoved}
	log.Info("index built", indexLogDir, dir, indexLogCommit, opt.Commit, indexLogFiles, b.stats.Files,
		indexLogChanged, b.changed, indexLogRemoved, b.removed, indexLogChunks, b.chunks,
		indexLogExtra, b.stats.Extra, indexLogExtraChg, b.extraChanged, indexLogExtraRm, b.extraRemoved,
		indexLogDuration, time.Since(started).Round(time.Millisecond))
	return ix, nil
}

// indexMaxFileSize returns the size limit opt asks for; -1 means none.
func indexMaxFileSize(opt IndexOptions) int64 {
	switch {
	case opt.MaxFileSize == 0:
		return indexDefaultMaxFileSize
	case opt.MaxFileSize < 0:
		return -1
	}
	return opt.MaxFileSize
}

// indexSelectFiles returns files sorted, without repeats and without what
// opt leaves out. It returns an error for a path that is not valid in an
// fs.FS.
func indexSelectFiles(files []string, opt IndexOptions) ([]string, error) {
	paths := make([]string, 0, len(files))
	for _, p := range files {
		if !fs.ValidPath(p) {
			return nil, fmt.Errorf("read %s: invalid path", p)
		}
		if (!opt.IncludeVendor && indexInDir(p, "vendor")) || (!opt.IncludeTestdata && indexInDir(p, "testdata")) {
			continue
		}
		paths = append(paths, p)
	}
	slices.Sort(paths)
	return slices.Compact(paths), nil
}

// indexInDir reports whether the slash path p lies in a directory named
// name, at any depth.
func indexInDir(p, name string) bool {
	for {
		dir, rest, ok := strings.Cut(p, "/")
		if !ok {
			return false
		}
		if dir == name {
			return true
		}
		p = rest
	}
}

// The states of an index directory, as indexInspect finds it.
const (
	indexStateRebuild = iota // missing, empty, broken or of another format
	indexStateCurrent        // complete, for the commit asked for
	indexStateOther          // complete, for another commit: update it
)

// indexInspect tells what BuildIndex must do with dir for commit and the
// Extra chunks of extraDigest, and why; for an update, it returns the
// manifest of the index. It returns an error only when dir must not be
// replaced: it is not a directory, or not an index.
func indexInspect(dir, commit string, maxSize int64, extraDigest string) (int, string, indexManifest, error) {
	none := indexManifest{}
	info, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return indexStateRebuild, "", none, nil
	case err != nil:
		return 0, "", none, err
	case !info.IsDir():
		return 0, "", none, errors.New("not a directory")
	}
	entries, err := os.ReadDir(dir)
	switch {
	case err != nil:
		return 0, "", none, err
	case len(entries) == 0:
		return indexStateRebuild, "empty directory", none, nil
	case !indexLooksLikeIndex(dir):
		return 0, "", none, errors.New("directory exists and does not look like an index; refusing to replace it")
	}
	bix, err := indexOpenBleve(dir, true, indexOpenTimeout)
	if err != nil {
		return indexStateRebuild, err.Error(), none, nil
	}
	defer func() { _ = bix.Close() }()
	head, err := indexReadHead(bix)
	switch {
	case err != nil:
		return indexStateRebuild, err.Error(), none, nil
	case commit == "":
		return indexStateRebuild, "no commit given", none, nil
	}
	reason := fmt.Sprintf("index is for commit %q", head.commit)
	if head.commit == commit {
		digest, err := bix.GetInternal(indexKeyExtra)
		if err != nil {
			return indexStateRebuild, fmt.Sprintf("read extra digest: %v", err), none, nil
		}
		if string(digest) == extraDigest {
			return indexStateCurrent, "", none, nil
		}
		reason = "extra chunks changed"
	}
	m, err := indexReadManifest(bix)
	switch {
	case err != nil:
		return indexStateRebuild, err.Error(), none, nil
	case m.MaxFileSize != maxSize:
		return indexStateRebuild, fmt.Sprintf("index has file size limit %d, want %d", m.MaxFileSize, maxSize), none, nil
	}
	return indexStateOther, reason, m, nil
}

// indexLooksLikeIndex reports whether dir holds a bleve index's files (or
// what is left of them), so that replacing it loses nothing else.
func indexLooksLikeIndex(dir string) bool {
	for _, name := range []string{"index_meta.json", "store"} {
		if _, err := os.Lstat(filepath.Join(dir, name)); err == nil {
			return true
		}
	}
	return false
}

// indexOpenBleve opens the bleve index at dir, read-only or for writing,
// waiting up to timeout for a holder that conflicts. It returns
// errIndexBusy when the wait times out.
func indexOpenBleve(dir string, readOnly bool, timeout string) (bix bleve.Index, err error) {
	// A corrupt store must give an error, not bring the program down.
	defer func() {
		if r := recover(); r != nil {
			bix, err = nil, fmt.Errorf("open index %s: corrupt: %v", dir, r)
		}
	}()
	cfg := map[string]any{"bolt_timeout": timeout}
	if readOnly {
		cfg["read_only"] = true
	}
	bix, err = bleve.OpenUsing(dir, cfg)
	if errors.Is(err, bolterrors.ErrTimeout) {
		return nil, fmt.Errorf("open index %s: %w", dir, errIndexBusy)
	}
	if err != nil {
		return nil, fmt.Errorf("open index %s: %w", dir, err)
	}
	return bix, nil
}

// indexHead is what the internal keys say about an index.
type indexHead struct {
	commit string
	stats  indexStoredStats
}

// indexReadHead checks the format and completeness keys of bix and returns
// its commit and stats.
func indexReadHead(bix bleve.Index) (indexHead, error) {
	format, err := bix.GetInternal(indexKeyFormat)
	switch {
	case err != nil:
		return indexHead{}, fmt.Errorf("read format: %w", err)
	case !bytes.Equal(format, []byte(indexFormatVersion)):
		return indexHead{}, fmt.Errorf("format %q, want %q", format, indexFormatVersion)
	}
	updating, err := bix.GetInternal(indexKeyUpdating)
	switch {
	case err != nil:
		return indexHead{}, fmt.Errorf("read update marker: %w", err)
	case updating != nil:
		return indexHead{}, fmt.Errorf("incomplete: an update to commit %q was interrupted", updating)
	}
	commit, err := bix.GetInternal(indexKeyCommit)
	switch {
	case err != nil:
		return indexHead{}, fmt.Errorf("read commit: %w", err)
	case commit == nil:
		return indexHead{}, errors.New("incomplete: no commit recorded")
	}
	head := indexHead{commit: string(commit)}
	raw, err := bix.GetInternal(indexKeyStats)
	if err != nil {
		return indexHead{}, fmt.Errorf("read stats: %w", err)
	}
	if err := json.Unmarshal(raw, &head.stats); err != nil {
		return indexHead{}, fmt.Errorf("read stats: %w", err)
	}
	return head, nil
}

// indexOpen opens the complete index at dir read-only. It waits, until ctx
// ends, for a writer that holds dir.
func indexOpen(ctx context.Context, dir string) (*Index, error) {
	for {
		bix, err := indexOpenBleve(dir, true, indexOpenTimeout)
		if errors.Is(err, errIndexBusy) {
			if ctx.Err() != nil {
				return nil, fmt.Errorf("open index %s: %w", dir, ctx.Err())
			}
			continue
		}
		if err != nil {
			return nil, err
		}
		head, err := indexReadHead(bix)
		if err != nil {
			_ = bix.Close()
			return nil, fmt.Errorf("open index %s: %w", dir, err)
		}
		return &Index{bix: bix, dir: dir, commit: head.commit, stats: head.stats, stop: indexStopWords()}, nil
	}
}

// OpenIndex opens, read-only, the index that [BuildIndex] left at dir,
// without checking its commit; readers do not block each other. It waits
// for a BuildIndex that holds dir to finish, until ctx ends. It returns an
// error if dir does not exist, is not an index, is corrupt or incomplete
// (an interrupted update), or has another format; and ctx's error if ctx
// ends first.
func OpenIndex(ctx context.Context, dir string) (*Index, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("open index %s: %w", dir, err)
	}
	dir = filepath.Clean(dir)
	if _, err := os.Stat(filepath.Join(dir, "index_meta.json")); err != nil {
		return nil, fmt.Errorf("open index %s: %w", dir, err)
	}
	unlock, err := indexLock(ctx, dir+".lock", false)
	if err != nil {
		return nil, fmt.Errorf("open index %s: %w", dir, err)
	}
	defer unlock()
	return indexOpen(ctx, dir)
}

// Commit returns the commit the index reflects, as given to [BuildIndex].
func (ix *Index) Commit() string { return ix.commit }

// Close releases the index's files. Later calls do nothing and return the
// first call's error; no other method may be called after Close.
func (ix *Index) Close() error {
	ix.closeOnce.Do(func() {
		if err := ix.bix.Close(); err != nil {
			ix.closeErr = fmt.Errorf("close index %s: %w", ix.dir, err)
		}
	})
	return ix.closeErr
}

// DocCount returns the number of chunks in the index.
func (ix *Index) DocCount() (uint64, error) {
	n, err := ix.bix.DocCount()
	if err != nil {
		return 0, fmt.Errorf("count index %s: %w", ix.dir, err)
	}
	return n, nil
}

// Stats returns the index's counts, what the [BuildIndex] call that
// returned it did, and its size on disk. A count that cannot be read is 0.
func (ix *Index) Stats() IndexStats {
	st := IndexStats{
		Files: ix.stats.Files, Skipped: ix.stats.Skipped, Bytes: ix.stats.Bytes, Extra: ix.stats.Extra,
		Changed: ix.build.changed, Removed: ix.build.removed,
		ExtraChanged: ix.build.extraChanged, ExtraRemoved: ix.build.extraRemoved, Reused: ix.build.reused,
	}
	if n, err := ix.bix.DocCount(); err == nil {
		st.Docs = int(n)
	}
	_ = filepath.WalkDir(ix.dir, func(_ string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if info, err := d.Info(); err == nil && info.Mode().IsRegular() {
			st.DiskBytes += info.Size()
		}
		return nil
	})
	return st
}

// Query is a lexical search of an [Index].
type Query struct {
	// Text is matched against chunk text, symbols and headings as words
	// (camelCase and snake_case parts, stemmed), as whole identifiers and
	// as dotted names. Required.
	Text string
	// TopK is the maximum number of hits; 0 means 10. At most 10000.
	TopK int
	// Sources keeps only chunks of these sources; empty keeps all.
	Sources []Source
	// PathPrefix keeps only chunks whose path starts with it (a plain
	// string prefix: "cache" also matches "cachex/"); empty keeps all.
	PathPrefix string
	// Exclude lists chunk IDs to leave out.
	Exclude []string
}

// Hit is a chunk found by [Index.Search].
type Hit struct {
	Chunk Chunk
	// Score is the BM25 score; higher is better. Scores compare only within
	// one search.
	Score float64
	// Why says how the chunk was reached: "BM25: purge deferred" lists the
	// query terms (lower-cased code parts) found in the chunk, or "BM25
	// match" when that is not cheap to tell.
	Why string
	// Hops is the chain from the query's subject to this chunk; nil for
	// lexical hits.
	Hops []string
}

// indexQueryField is one field a search matches, with its terms.
type indexQueryField struct {
	field string
	boost float64
	terms []string
}

// queryFields analyzes text into the terms of each searched field.
func (ix *Index) queryFields(text string) []indexQueryField {
	a := newIndexAnalyzer(ix.stop, false)
	var words, idents, quals, syms []string
	addTo := func(dst *[]string) func(indexTerm) {
		return func(t indexTerm) {
			if !slices.Contains(*dst, t.s) {
				*dst = append(*dst, t.s)
			}
		}
	}
	a.text(text, addTo(&words), addTo(&idents), addTo(&quals))
	a.symbolTerms(text, addTo(&syms))
	return []indexQueryField{
		{indexFieldText, indexBoostText, words},
		{indexFieldIdent, indexBoostIdent, idents},
		{indexFieldQual, indexBoostQual, quals},
		{indexFieldSymbol, indexBoostSymbol, syms},
		{indexFieldHeading, indexBoostHeading, words},
	}
}

// Search returns up to q.TopK chunks matching q.Text, best first: by score
// descending, then by chunk ID. A query whose text has no searchable terms
// returns no hits. It returns an error if q.Text is blank or q.TopK is
// negative, and ctx's error if ctx ends first.
func (ix *Index) Search(ctx context.Context, q Query) ([]Hit, error) {
	if strings.TrimSpace(q.Text) == "" {
		return nil, errors.New("search: query text is empty")
	}
	if q.TopK < 0 {
		return nil, fmt.Errorf("search %q: negative TopK %d", q.Text, q.TopK)
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("search %q: %w", q.Text, err)
	}
	k := q.TopK
	if k == 0 {
		k = indexDefaultTopK
	}
	k = min(k, indexMaxTopK)

	// Each field is matched as bleve's match query would: a disjunction of
	// its terms, each with the field's boost.
	var fields []query.Query
	qfs := ix.queryFields(q.Text)
	if words := qfs[0].terms; len(words) > indexMaxQueryWords {
		kept, err := ix.rarestWords(ctx, words)
		if err != nil {
			return nil, fmt.Errorf("search %q: %w", q.Text, err)
		}
		for i := range qfs {
			if qfs[i].field == indexFieldText || qfs[i].field == indexFieldHeading {
				qfs[i].terms = kept
			}
		}
	}
	for _, f := range qfs {
		if len(f.terms) == 0 {
			continue
		}
		tqs := make([]query.Query, len(f.terms))
		for i, t := range f.terms {
			tq := bleve.NewTermQuery(t)
			tq.SetField(f.field)
			if f.boost != 1 {
				tq.SetBoost(f.boost)
			}
			tqs[i] = tq
		}
		if len(tqs) == 1 {
			fields = append(fields, tqs[0])
			continue
		}
		fields = append(fields, bleve.NewDisjunctionQuery(tqs...))
	}
	if len(fields) == 0 {
		return []Hit{}, nil
	}
	bq := bleve.NewBooleanQuery()
	bq.AddMust(bleve.NewDisjunctionQuery(fields...))
	var filters []query.Query
	if len(q.Sources) > 0 {
		var srcs []query.Query
		for _, s := range q.Sources {
			t := bleve.NewTermQuery(string(s))
			t.SetField(indexFieldSource)
			srcs = append(srcs, t)
		}
		filters = append(filters, bleve.NewDisjunctionQuery(srcs...))
	}
	if q.PathPrefix != "" {
		p := bleve.NewPrefixQuery(q.PathPrefix)
		p.SetField(indexFieldPath)
		filters = append(filters, p)
	}
	switch len(filters) {
	case 0:
	case 1:
		bq.AddFilter(filters[0])
	default:
		bq.AddFilter(bleve.NewConjunctionQuery(filters...))
	}
	if len(q.Exclude) > 0 {
		bq.AddMustNot(bleve.NewDocIDQuery(q.Exclude))
	}

	hits, err := ix.topK(ctx, bq, k)
	if err != nil {
		return nil, fmt.Errorf("search %q: %w", q.Text, err)
	}
	ix.explain(q.Text, hits)
	return hits, nil
}

// topK returns the k best hits of bq by score descending, then chunk ID.
//
// Ordering by ID in bleve costs a stored-field lookup for every match, so
// topK first asks for k+indexTopKSlack hits ordered by score alone. When
// the last of those scores less than the k-th, no document left out can
// tie with the k kept and the answer is exact; otherwise (a tie runs past
// the slack) it asks again, ordered by score and ID.
func (ix *Index) topK(ctx context.Context, bq query.Query, k int) ([]Hit, error) {
	n := k + max(k/4, indexTopKSlack)
	req := bleve.NewSearchRequestOptions(bq, n, 0, false)
	req.Fields = indexStoredFields()
	res, err := ix.bix.SearchInContext(ctx, req)
	if err != nil {
		return nil, err
	}
	if len(res.Hits) == n && res.Hits[n-1].Score >= res.Hits[k-1].Score {
		req = bleve.NewSearchRequestOptions(bq, k, 0, false)
		req.Fields = indexStoredFields()
		req.SortBy([]string{"-_score", "_id"})
		if res, err = ix.bix.SearchInContext(ctx, req); err != nil {
			return nil, err
		}
	}
	hits := make([]Hit, 0, len(res.Hits))
	for _, h := range res.Hits {
		hits = append(hits, Hit{Chunk: indexChunkFromFields(h.ID, h.Fields), Score: h.Score})
	}
	slices.SortStableFunc(hits, func(a, b Hit) int {
		if a.Score != b.Score {
			if a.Score > b.Score {
				return -1
			}
			return 1
		}
		return strings.Compare(a.Chunk.ID, b.Chunk.ID)
	})
	return hits[:min(k, len(hits))], nil
}

// explain sets each hit's Why to the query's parts found in it, whole or
// stemmed, within indexWhyBudget bytes of re-analyzed text.
func (ix *Index) explain(text string, hits []Hit) {
	a := newIndexAnalyzer(ix.stop, false)
	var terms []string
	indexScan(text, func(id string) {
		indexParts(id, func(p string) {
			if s := string(a.lower(p)); !slices.Contains(terms, s) {
				terms = append(terms, s)
			}
		})
	}, nil)
	stems := make([]string, len(terms))
	for i, t := range terms {
		stems[i] = a.stem([]byte(t))
	}
	budget := indexWhyBudget
	for i := range hits {
		hits[i].Why = "BM25 match"
		c := hits[i].Chunk
		doc := c.Text + "\n" + c.Symbol + "\n" + c.Heading
		if len(terms) == 0 || len(doc) > budget {
			continue
		}
		budget -= len(doc)
		parts, stemSet := map[string]bool{}, map[string]bool{}
		indexScan(doc, func(id string) {
			indexParts(id, func(p string) {
				l := a.lower(p)
				if !parts[string(l)] {
					parts[string(l)] = true
					if st := a.stem(l); st != "" {
						stemSet[st] = true
					}
				}
			})
		}, nil)
		var found []string
		for j, t := range terms {
			if parts[t] || stems[j] != "" && stemSet[stems[j]] {
				found = append(found, t)
			}
		}
		if len(found) > 0 {
			hits[i].Why = "BM25: " + strings.Join(found, " ")
		}
	}
}

// Chunk returns the chunk with the given ID, and false if the index has
// none.
func (ix *Index) Chunk(ctx context.Context, id string) (Chunk, bool, error) {
	req := bleve.NewSearchRequestOptions(bleve.NewDocIDQuery([]string{id}), 1, 0, false)
	req.Fields = indexStoredFields()
	res, err := ix.bix.SearchInContext(ctx, req)
	if err != nil {
		return Chunk{}, false, fmt.Errorf("get chunk %s: %w", id, err)
	}
	if len(res.Hits) == 0 {
		return Chunk{}, false, nil
	}
	return indexChunkFromFields(res.Hits[0].ID, res.Hits[0].Fields), true, nil
}

// AllChunks returns every chunk of the index, sorted by ID; the dense
// channel embeds them. It returns ctx's error if ctx ends first.
func (ix *Index) AllChunks(ctx context.Context) ([]Chunk, error) {
	n, err := ix.DocCount()
	if err != nil {
		return nil, err
	}
	if n == 0 {
		return []Chunk{}, nil
	}
	req := bleve.NewSearchRequestOptions(bleve.NewMatchAllQuery(), int(n), 0, false)
	req.Fields = indexStoredFields()
	res, err := ix.bix.SearchInContext(ctx, req)
	if err != nil {
		return nil, fmt.Errorf("list chunks of %s: %w", ix.dir, err)
	}
	out := make([]Chunk, 0, len(res.Hits))
	for _, h := range res.Hits {
		out = append(out, indexChunkFromFields(h.ID, h.Fields))
	}
	slices.SortFunc(out, func(a, b Chunk) int { return strings.Compare(a.ID, b.ID) })
	return out, nil
}
