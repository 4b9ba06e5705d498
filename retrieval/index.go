package retrieval

import (
	"bytes"
	"context"
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
	"github.com/blevesearch/bleve/v2/analysis/lang/en"
	"github.com/blevesearch/bleve/v2/index/scorch"
	"github.com/blevesearch/bleve/v2/mapping"
	"github.com/blevesearch/bleve/v2/search/query"
	bolterrors "go.etcd.io/bbolt/errors"
)

// Index is a bleve index (scorch, BM25 scoring) of a repository's chunks at
// one commit, kept on disk. Its methods are safe for concurrent use; it must
// be closed with [Index.Close].
type Index struct {
	bix    bleve.Index
	im     mapping.IndexMapping
	dir    string
	commit string

	closeOnce sync.Once
	closeErr  error
}

// IndexOptions configures [BuildIndex].
type IndexOptions struct {
	// Dir is where the index lives on disk; required. Its parent must be
	// writable: the index is built in a temporary directory beside Dir and
	// renamed into place.
	Dir string
	// Commit is what the index reflects, usually a commit SHA. An existing
	// index at Dir is reused only if it was built for the same non-empty
	// Commit; with an empty Commit the index is always rebuilt.
	Commit string
	// Logger receives progress and rebuild reasons; nil discards them.
	Logger *slog.Logger
}

// Index tuning.
const (
	// indexBatchSize is the number of chunks per bleve batch; cancellation
	// is checked between batches.
	indexBatchSize = 500
	// indexMaxFileBytes bounds the files BuildIndex reads; larger files
	// (generated code, data) are skipped.
	indexMaxFileBytes = 1 << 20
	// indexDefaultTopK is the number of hits when Query.TopK is zero.
	indexDefaultTopK = 10
	// indexMaxTopK bounds Query.TopK.
	indexMaxTopK = 10000
	// indexWhyBudget bounds how many bytes of hit text Search re-analyzes
	// to tell which query terms matched.
	indexWhyBudget = 256 << 10
	// indexOpenTimeout bounds how long opening waits for another process
	// that holds the index.
	indexOpenTimeout = "1s"
)

// Internal (non-document) keys stored in the index.
var (
	indexKeyFormat = []byte("docreview.format")
	indexKeyCommit = []byte("docreview.commit")
)

// Search boosts per field: whole identifiers and symbol names weigh more
// than their camelCase parts and than prose.
const (
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
	indexLogChunks   = "chunks"
	indexLogDuration = "duration"
	indexLogPath     = "path"
)

// errIndexInUse reports that another process holds the index open.
var errIndexInUse = errors.New("index is in use by another process")

// BuildIndex returns an index at opt.Dir of the chunks of files (slash
// paths in fsys, as [ChunkFile] makes them) for opt.Commit.
//
// If opt.Dir holds a complete index of the same non-empty Commit and the
// same index format, it is opened and reused and files are not read. If it
// holds an index of another commit or format, an incomplete index, or one
// that does not open, it is rebuilt (the reason is logged). The new index is
// built in a temporary directory beside opt.Dir and renamed into place, so
// opt.Dir never holds a half-built index. BuildIndex returns an error
// instead of replacing a non-empty opt.Dir that does not look like an index
// or a file that is not a directory, and, after waiting about a second, if
// another process or open [Index] holds opt.Dir.
//
// The order of files does not matter and repeated paths are indexed once.
// Files that are directories, larger than 1 MiB, or binary (a NUL byte in
// their first 8 KiB) are skipped; any other read error is returned. ctx is
// checked between files and between batches of about 500 chunks; a
// cancelled build removes its temporary directory and returns ctx's error.
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

	ix, reason, err := indexReuse(dir, opt.Commit)
	if err != nil {
		return nil, fmt.Errorf("build index %s: %w", dir, err)
	}
	if ix != nil {
		log.Info("index reused", indexLogDir, dir, indexLogCommit, opt.Commit)
		return ix, nil
	}
	if reason != "" {
		log.Info("index rebuild", indexLogDir, dir, indexLogCommit, opt.Commit, indexLogReason, reason)
	}

	started := time.Now()
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return nil, fmt.Errorf("build index %s: %w", dir, err)
	}
	tmp, err := os.MkdirTemp(filepath.Dir(dir), "."+filepath.Base(dir)+".tmp-")
	if err != nil {
		return nil, fmt.Errorf("build index %s: %w", dir, err)
	}
	defer func() { _ = os.RemoveAll(tmp) }()
	built := filepath.Join(tmp, "index")
	nfiles, nchunks, err := indexWrite(ctx, fsys, files, built, opt.Commit, log)
	if err != nil {
		return nil, fmt.Errorf("build index %s: %w", dir, err)
	}
	if err := os.RemoveAll(dir); err != nil {
		return nil, fmt.Errorf("build index %s: remove old index: %w", dir, err)
	}
	if err := os.Rename(built, dir); err != nil {
		return nil, fmt.Errorf("build index %s: %w", dir, err)
	}
	ix, err = indexOpen(dir)
	if err != nil {
		return nil, fmt.Errorf("build index %s: reopen: %w", dir, err)
	}
	log.Info("index built", indexLogDir, dir, indexLogCommit, opt.Commit, indexLogFiles, nfiles,
		indexLogChunks, nchunks, indexLogDuration, time.Since(started).Round(time.Millisecond))
	return ix, nil
}

// indexReuse opens the index at dir if it is complete and built for commit.
// Otherwise it returns a nil index and why dir must be rebuilt (empty if
// dir does not exist). It returns an error only when dir must not be
// replaced: it is in use, or it is not an index.
func indexReuse(dir, commit string) (*Index, string, error) {
	info, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, "", nil
	case err != nil:
		return nil, "", err
	case !info.IsDir():
		return nil, "", errors.New("not a directory")
	}
	entries, err := os.ReadDir(dir)
	switch {
	case err != nil:
		return nil, "", err
	case len(entries) == 0:
		return nil, "empty directory", nil
	case !indexLooksLikeIndex(dir):
		return nil, "", errors.New("directory exists and does not look like an index; refusing to replace it")
	}
	ix, err := indexOpen(dir)
	if errors.Is(err, errIndexInUse) {
		return nil, "", err
	}
	if err != nil {
		return nil, err.Error(), nil
	}
	switch {
	case commit == "":
		_ = ix.Close()
		return nil, "no commit given", nil
	case ix.commit != commit:
		reason := fmt.Sprintf("index is for commit %q", ix.commit)
		_ = ix.Close()
		return nil, reason, nil
	}
	return ix, "", nil
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

// indexOpen opens the index at dir and checks its format and commit keys.
func indexOpen(dir string) (ix *Index, err error) {
	// A corrupt store must give an error, not bring the program down.
	defer func() {
		if r := recover(); r != nil {
			ix, err = nil, fmt.Errorf("open index %s: corrupt: %v", dir, r)
		}
	}()
	bix, err := bleve.OpenUsing(dir, map[string]any{"bolt_timeout": indexOpenTimeout})
	if errors.Is(err, bolterrors.ErrTimeout) {
		return nil, fmt.Errorf("open index %s: %w", dir, errIndexInUse)
	}
	if err != nil {
		return nil, fmt.Errorf("open index %s: %w", dir, err)
	}
	format, err := bix.GetInternal(indexKeyFormat)
	if err != nil || !bytes.Equal(format, []byte(indexFormatVersion)) {
		_ = bix.Close()
		if err != nil {
			return nil, fmt.Errorf("open index %s: read format: %w", dir, err)
		}
		return nil, fmt.Errorf("open index %s: format %q, want %q", dir, format, indexFormatVersion)
	}
	commit, err := bix.GetInternal(indexKeyCommit)
	if err != nil || commit == nil {
		_ = bix.Close()
		if err != nil {
			return nil, fmt.Errorf("open index %s: read commit: %w", dir, err)
		}
		return nil, fmt.Errorf("open index %s: incomplete: no commit recorded", dir)
	}
	return &Index{bix: bix, im: bix.Mapping(), dir: dir, commit: string(commit)}, nil
}

// indexWrite creates a new index at dir holding the chunks of files and
// the format and commit keys, and closes it. It returns the number of files
// indexed and of chunks.
func indexWrite(ctx context.Context, fsys fs.FS, files []string, dir, commit string, log *slog.Logger) (int, int, error) {
	im, err := indexMapping()
	if err != nil {
		return 0, 0, err
	}
	bix, err := bleve.NewUsing(dir, im, scorch.Name, scorch.Name, nil)
	if err != nil {
		return 0, 0, fmt.Errorf("create index: %w", err)
	}
	closed := false
	defer func() {
		if !closed {
			_ = bix.Close()
		}
	}()

	paths := slices.Clone(files)
	slices.Sort(paths)
	paths = slices.Compact(paths)

	batch := bix.NewBatch()
	nfiles, nchunks := 0, 0
	flush := func() error {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := bix.Batch(batch); err != nil {
			return fmt.Errorf("index batch: %w", err)
		}
		batch.Reset()
		return nil
	}
	for _, p := range paths {
		if err := ctx.Err(); err != nil {
			return 0, 0, err
		}
		src, skip, err := indexReadFile(fsys, p)
		if err != nil {
			return 0, 0, err
		}
		if skip != "" {
			log.Debug("index skip file", indexLogPath, p, indexLogReason, skip)
			continue
		}
		nfiles++
		for _, c := range ChunkFile(p, src) {
			if err := batch.Index(c.ID, indexDocument(c)); err != nil {
				return 0, 0, fmt.Errorf("index %s: %w", c.ID, err)
			}
			nchunks++
			if batch.Size() >= indexBatchSize {
				if err := flush(); err != nil {
					return 0, 0, err
				}
			}
		}
	}
	// The keys go in last: an index without them is incomplete.
	batch.SetInternal(indexKeyFormat, []byte(indexFormatVersion))
	batch.SetInternal(indexKeyCommit, []byte(commit))
	if err := flush(); err != nil {
		return 0, 0, err
	}
	closed = true
	if err := bix.Close(); err != nil {
		return 0, 0, fmt.Errorf("close index: %w", err)
	}
	return nfiles, nchunks, nil
}

// indexReadFile reads p from fsys, or says why it is skipped.
func indexReadFile(fsys fs.FS, p string) (src []byte, skip string, err error) {
	if !fs.ValidPath(p) {
		return nil, "", fmt.Errorf("read %s: invalid path", p)
	}
	info, err := fs.Stat(fsys, p)
	if err != nil {
		return nil, "", fmt.Errorf("read %s: %w", p, err)
	}
	switch {
	case info.IsDir():
		return nil, "directory", nil
	case info.Size() > indexMaxFileBytes:
		return nil, "too large", nil
	}
	src, err = fs.ReadFile(fsys, p)
	if err != nil {
		return nil, "", fmt.Errorf("read %s: %w", p, err)
	}
	if bytes.IndexByte(src[:min(len(src), 8<<10)], 0) >= 0 {
		return nil, "binary", nil
	}
	return src, "", nil
}

// OpenIndex opens the index that [BuildIndex] left at dir, without checking
// its commit. It returns an error if dir does not exist, is not an index,
// is corrupt or incomplete, has another format, or is in use by another
// process.
func OpenIndex(ctx context.Context, dir string) (*Index, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("open index %s: %w", dir, err)
	}
	return indexOpen(filepath.Clean(dir))
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

// Query is a lexical search of an [Index].
type Query struct {
	// Text is matched against chunk text, symbols and headings as prose
	// (stemmed), as code (camelCase and snake_case parts) and as whole
	// identifiers. Required.
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
	k := q.TopK
	if k == 0 {
		k = indexDefaultTopK
	}
	k = min(k, indexMaxTopK)

	// The analyzer is named explicitly: bleve resolves a field's analyzer
	// by JSON property, and text_code, text_ident, text_qual and
	// symbol_ident are extra fields of the text and symbol properties.
	match := func(field, analyzer string, boost float64) query.Query {
		m := bleve.NewMatchQuery(q.Text)
		m.SetField(field)
		m.Analyzer = analyzer
		if boost != 1 {
			m.SetBoost(boost)
		}
		return m
	}
	bq := bleve.NewBooleanQuery()
	bq.AddMust(bleve.NewDisjunctionQuery(
		match(indexFieldText, en.AnalyzerName, 1),
		match(indexFieldTextCode, indexAnalyzerCode, 1),
		match(indexFieldTextIdent, indexAnalyzerIdent, indexBoostIdent),
		match(indexFieldTextQual, indexAnalyzerQualified, indexBoostQual),
		match(indexFieldSymbolIdent, indexAnalyzerIdent, indexBoostSymbol),
		match(indexFieldHeading, en.AnalyzerName, indexBoostHeading),
	))
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

	req := bleve.NewSearchRequestOptions(bq, k, 0, false)
	req.Fields = indexStoredFields()
	req.SortBy([]string{"-_score", "_id"})
	res, err := ix.bix.SearchInContext(ctx, req)
	if err != nil {
		return nil, fmt.Errorf("search %q: %w", q.Text, err)
	}

	hits := make([]Hit, 0, len(res.Hits))
	for _, h := range res.Hits {
		hits = append(hits, Hit{Chunk: indexChunkFromFields(h.ID, h.Fields), Score: h.Score})
	}
	// bleve sorts already; sorting again pins the order against float
	// ties that compare unequal only in the last bits.
	slices.SortStableFunc(hits, func(a, b Hit) int {
		if a.Score != b.Score {
			if a.Score > b.Score {
				return -1
			}
			return 1
		}
		return strings.Compare(a.Chunk.ID, b.Chunk.ID)
	})
	ix.explain(q.Text, hits)
	return hits, nil
}

// explain sets each hit's Why to the query terms found in it, within
// indexWhyBudget bytes of re-analyzed text.
func (ix *Index) explain(text string, hits []Hit) {
	code := ix.im.AnalyzerNamed(indexAnalyzerCode)
	prose := ix.im.AnalyzerNamed(en.AnalyzerName)
	var terms []string
	if code != nil {
		for _, t := range code.Analyze([]byte(text)) {
			if s := string(t.Term); !slices.Contains(terms, s) {
				terms = append(terms, s)
			}
		}
	}
	stems := make([]string, len(terms))
	for i, t := range terms {
		if prose != nil {
			if ts := prose.Analyze([]byte(t)); len(ts) == 1 {
				stems[i] = string(ts[0].Term)
			}
		}
	}
	budget := indexWhyBudget
	for i := range hits {
		hits[i].Why = "BM25 match"
		c := hits[i].Chunk
		doc := c.Text + "\n" + c.Symbol + "\n" + c.Heading
		if len(terms) == 0 || code == nil || len(doc) > budget {
			continue
		}
		budget -= len(doc)
		codeSet := indexTermSet(code, doc)
		var proseSet map[string]bool
		if prose != nil {
			proseSet = indexTermSet(prose, doc)
		}
		var found []string
		for j, t := range terms {
			if codeSet[t] || (stems[j] != "" && proseSet[stems[j]]) {
				found = append(found, t)
			}
		}
		if len(found) > 0 {
			hits[i].Why = "BM25: " + strings.Join(found, " ")
		}
	}
}

// indexTermSet returns the set of terms a analyzes s into.
func indexTermSet(a analysis.Analyzer, s string) map[string]bool {
	set := make(map[string]bool)
	for _, t := range a.Analyze([]byte(s)) {
		set[string(t.Term)] = true
	}
	return set
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
