package retrieval

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/document"
	"github.com/blevesearch/bleve/v2/index/scorch"
)

// Build tuning.
const (
	// indexBatchDocs and indexBatchBytes bound a bleve batch (one segment):
	// it is flushed at whichever comes first. Larger batches mean fewer
	// segments to merge but more memory.
	indexBatchDocs  = 2000
	indexBatchBytes = 8 << 20
	// indexProgressEvery is the least time between two Progress calls.
	indexProgressEvery = 100 * time.Millisecond
	// indexSniffBytes is how much of a file is searched for a NUL byte to
	// tell binary files.
	indexSniffBytes = 8 << 10
	// indexWriteTimeout bounds the wait to open the copy of an index for
	// writing; nothing else should hold it.
	indexWriteTimeout = "5s"
)

// indexBuilder indexes one list of files into a new or an existing index.
type indexBuilder struct {
	fsys    fs.FS
	paths   []string // sorted, unique, selected
	opt     IndexOptions
	log     *slog.Logger
	maxSize int64 // -1: no limit
	// extraHashes[i] is the hash of opt.Extra[i]; extraDigest that of
	// them all (indexExtraDigest).
	extraHashes []string
	extraDigest string

	// What the last write did, for the log and IndexStats.
	stats                      indexStoredStats
	changed, removed, chunks   int
	extraChanged, extraRemoved int
}

// indexManifest is what an index records of the files it holds, to tell on
// the next commit which files changed.
type indexManifest struct {
	// MaxFileSize is the size limit the files were read with; -1 is none.
	MaxFileSize int64 `json:"max_file_size"`
	// Files maps each file read to what became of it.
	Files map[string]indexManifestFile `json:"files"`
	// Extra maps the ID of each IndexOptions.Extra chunk indexed to its
	// hash (indexExtraHash).
	Extra map[string]string `json:"extra,omitempty"`
}

// indexManifestFile records one file of an indexManifest.
type indexManifestFile struct {
	// Hash is the hex SHA-256 of the content; empty when the file was too
	// large to read.
	Hash string `json:"h,omitempty"`
	// Size is the file's size in bytes.
	Size int64 `json:"n"`
	// Skip says why the file has no chunks: "binary" or "too large".
	Skip string `json:"skip,omitempty"`
	// Chunks are the IDs of the file's chunks.
	Chunks []string `json:"c,omitempty"`
}

// indexReadManifest returns the manifest recorded in bix.
func indexReadManifest(bix bleve.Index) (indexManifest, error) {
	raw, err := bix.GetInternal(indexKeyManifest)
	if err != nil {
		return indexManifest{}, fmt.Errorf("read manifest: %w", err)
	}
	var m indexManifest
	if err := json.Unmarshal(raw, &m); err != nil {
		return indexManifest{}, fmt.Errorf("read manifest: %w", err)
	}
	if m.Files == nil {
		return indexManifest{}, errors.New("read manifest: no files recorded")
	}
	return m, nil
}

// rebuild builds a new index of b's files in a temporary directory beside
// dir and, once complete, puts it in dir's place.
func (b *indexBuilder) rebuild(ctx context.Context, dir string) error {
	tmp, err := os.MkdirTemp(filepath.Dir(dir), "."+filepath.Base(dir)+".tmp-")
	if err != nil {
		return err
	}
	defer func() { _ = os.RemoveAll(tmp) }()
	built := filepath.Join(tmp, "index")
	im, err := indexMapping()
	if err != nil {
		return err
	}
	bix, err := bleve.NewUsing(built, im, scorch.Name, scorch.Name, nil)
	if err != nil {
		return fmt.Errorf("create index: %w", err)
	}
	err = b.write(ctx, bix, indexManifest{MaxFileSize: b.maxSize, Files: map[string]indexManifestFile{}})
	if cerr := bix.Close(); err == nil && cerr != nil {
		err = fmt.Errorf("close index: %w", cerr)
	}
	if err != nil {
		return err
	}
	return indexSwap(built, dir, tmp)
}

// updateDir updates the index at dir, built for another commit and
// holding the files of old, to b's files. The update runs on a copy of dir
// (segment files hard-linked: they never change) that replaces dir once
// complete, so that readers of dir keep a consistent view and a cancelled
// or failed update leaves dir as it was.
func (b *indexBuilder) updateDir(ctx context.Context, dir string, old indexManifest) error {
	tmp, err := os.MkdirTemp(filepath.Dir(dir), "."+filepath.Base(dir)+".tmp-")
	if err != nil {
		return err
	}
	defer func() { _ = os.RemoveAll(tmp) }()
	work := filepath.Join(tmp, "index")
	if err := indexCopyDir(dir, work); err != nil {
		return fmt.Errorf("copy index: %w", err)
	}
	bix, err := indexOpenBleve(work, false, indexWriteTimeout)
	if err != nil {
		return err
	}
	err = b.write(ctx, bix, old)
	if cerr := bix.Close(); err == nil && cerr != nil {
		err = fmt.Errorf("close index: %w", cerr)
	}
	if err != nil {
		return err
	}
	return indexSwap(work, dir, tmp)
}

// indexSwap replaces dir with built, moving the old dir, if any, aside
// into trash, a directory on the same file system that the caller removes.
// Readers that have the old index open keep reading its files.
func indexSwap(built, dir, trash string) error {
	old := filepath.Join(trash, "old")
	err := os.Rename(dir, old)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("move old index aside: %w", err)
	}
	if err := os.Rename(built, dir); err != nil {
		_ = os.Rename(old, dir)
		return fmt.Errorf("move index into place: %w", err)
	}
	return nil
}

// indexCopyDir copies the index directory src to dst, which must not
// exist: bleve's segment files (*.zap), which are written once and never
// changed, are hard-linked when possible; other files are copied.
func indexCopyDir(src, dst string) error {
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		target := filepath.Join(dst, rel)
		switch {
		case d.IsDir():
			return os.Mkdir(target, 0o755)
		case !d.Type().IsRegular():
			return fmt.Errorf("%s: not a regular file", p)
		case strings.HasSuffix(p, ".zap"):
			if err := os.Link(p, target); err == nil {
				return nil
			}
		}
		return indexCopyFile(p, target)
	})
}

func indexCopyFile(src, dst string) (err error) {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer func() { _ = in.Close() }()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	defer func() {
		if cerr := out.Close(); err == nil {
			err = cerr
		}
	}()
	_, err = io.Copy(out, in)
	return err
}

// indexFileResult is what a worker made of one file, or of one Extra
// chunk.
type indexFileResult struct {
	path  string // the file's path, or the Extra chunk's ID
	entry indexManifestFile
	keep  bool                 // entry is the old one: the file did not change
	docs  []*document.Document // the file's chunks, when it changed
	drop  bool                 // the file could not be read: forget it
	// extra marks the result of an Extra chunk: path is its ID, hash its
	// hash, keep says it is unchanged, and docs holds its document.
	extra bool
	hash  string
}

// indexExtraPrefix starts the path of every IndexOptions.Extra chunk.
const indexExtraPrefix = upstreamPathPrefix

// indexCheckExtra checks extra against the rules of IndexOptions.Extra
// (files are the paths given to BuildIndex) and returns the hash of each
// chunk and the digest of them all.
func indexCheckExtra(extra []Chunk, files []string) ([]string, string, error) {
	if len(extra) == 0 {
		return nil, "", nil
	}
	isFile := make(map[string]bool, len(files))
	for _, f := range files {
		isFile[f] = true
	}
	hashes := make([]string, len(extra))
	seen := make(map[string]bool, len(extra))
	for i, c := range extra {
		switch {
		case !strings.HasPrefix(c.Path, indexExtraPrefix):
			return nil, "", fmt.Errorf("extra chunk %q: path %q does not start with %q", c.ID, c.Path, indexExtraPrefix)
		case isFile[c.Path]:
			return nil, "", fmt.Errorf("extra chunk %q: path %q is also a file of the tree", c.ID, c.Path)
		case !strings.HasPrefix(c.ID, c.Path+"#"):
			return nil, "", fmt.Errorf("extra chunk %q: ID does not start with its path %q and \"#\"", c.ID, c.Path)
		case seen[c.ID]:
			return nil, "", fmt.Errorf("extra chunk %q: ID given twice", c.ID)
		}
		seen[c.ID] = true
		hashes[i] = indexExtraHash(c)
	}
	return hashes, indexExtraDigest(extra, hashes), nil
}

// indexExtraHash returns a hash of every field of c: a change to any of
// them indexes c again.
func indexExtraHash(c Chunk) string {
	h := sha256.New()
	for _, f := range []string{c.ID, c.Path, strconv.Itoa(c.StartLine), strconv.Itoa(c.EndLine),
		string(c.Source), c.Symbol, c.Heading, c.Lang, c.Text} {
		// Length-prefixed, so that no two chunks hash the same fields.
		_, _ = h.Write(strconv.AppendInt(nil, int64(len(f)), 10))
		_, _ = h.Write([]byte{':'})
		_, _ = h.Write([]byte(f))
	}
	return hex.EncodeToString(h.Sum(nil)[:16])
}

// indexExtraDigest returns one hash of the Extra chunks and their hashes,
// whatever their order; "" for none.
func indexExtraDigest(extra []Chunk, hashes []string) string {
	if len(extra) == 0 {
		return ""
	}
	order := make([]int, len(extra))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return strings.Compare(extra[a].ID, extra[b].ID) })
	h := sha256.New()
	for _, i := range order {
		_, _ = io.WriteString(h, extra[i].ID)
		_, _ = h.Write([]byte{0})
		_, _ = io.WriteString(h, hashes[i])
		_, _ = h.Write([]byte{'\n'})
	}
	return hex.EncodeToString(h.Sum(nil)[:16])
}

// write brings bix, whose files and Extra chunks are recorded in old, to
// b's files and Extra chunks: files whose hash differs from old are
// chunked and indexed, chunks of files that changed or are gone are
// deleted, Extra chunks are indexed when new or changed and deleted when
// gone, and the manifest, stats and commit are recorded last, in one
// batch. While it changes chunks of an index that old says has any, bix
// carries the update marker.
func (b *indexBuilder) write(ctx context.Context, bix bleve.Index, old indexManifest) error {
	extra := b.opt.Extra
	next := indexManifest{MaxFileSize: b.maxSize, Files: make(map[string]indexManifestFile, len(b.paths))}
	if len(extra) > 0 {
		next.Extra = make(map[string]string, len(extra))
	}
	results := make(chan indexFileResult, 64)
	ctx, cancel := context.WithCancel(ctx)
	// On any return, stop the workers and wait for them: they read fsys,
	// which the caller may not own any more.
	defer func() {
		cancel()
		for range results {
		}
	}()

	// Workers read, hash, chunk and analyze files; this goroutine batches
	// their documents; a flusher goroutine hands batches to bleve, so the
	// next batch is prepared while the previous one is indexed.
	// A job is an index into b.paths, or past it into extra.
	jobs := make(chan int)
	var wg sync.WaitGroup
	workers := max(1, runtime.GOMAXPROCS(0))
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			a := newIndexAnalyzer(indexStopWords(), true)
			for j := range jobs {
				var r indexFileResult
				if j < len(b.paths) {
					p := b.paths[j]
					r = b.processFile(a, p, old.Files[p])
				} else {
					r = b.processExtra(a, j-len(b.paths), old.Extra)
				}
				select {
				case results <- r:
				case <-ctx.Done():
					return
				}
			}
		}()
	}
	go func() {
		defer close(jobs)
		for j := range len(b.paths) + len(extra) {
			select {
			case jobs <- j:
			case <-ctx.Done():
				return
			}
		}
	}()
	go func() {
		wg.Wait()
		close(results)
	}()

	fl := newIndexFlusher(bix)
	defer fl.stop()
	marked := false
	mark := func() error {
		if marked || len(old.Files) == 0 && len(old.Extra) == 0 {
			return nil
		}
		marked = true
		mb := bix.NewBatch()
		mb.SetInternal(indexKeyUpdating, []byte(b.opt.Commit))
		return fl.flush(ctx, mb)
	}
	batch := bix.NewBatch()
	batchBytes := 0
	send := func() error {
		if batch.Size() == 0 {
			return nil
		}
		if err := mark(); err != nil {
			return err
		}
		if err := fl.flush(ctx, batch); err != nil {
			return err
		}
		batch, batchBytes = bix.NewBatch(), 0
		return nil
	}

	progress := indexProgress{fn: b.opt.Progress, total: len(b.paths)}
	b.stats, b.changed, b.removed, b.chunks = indexStoredStats{}, 0, 0, 0
	b.extraChanged, b.extraRemoved = 0, 0
	done, extraDone := 0, 0
	for r := range results {
		if r.extra {
			extraDone++
			next.Extra[r.path] = r.hash
			b.stats.Extra++
			b.chunks++
			if r.keep {
				continue
			}
			b.extraChanged++
		} else {
			done++
			progress.report(done)
			if r.drop {
				continue
			}
			next.Files[r.path] = r.entry
			b.count(r.entry)
			if r.keep {
				continue
			}
			b.changed++
			for _, id := range old.Files[r.path].Chunks {
				batch.Delete(id)
			}
		}
		for _, d := range r.docs {
			if err := batch.IndexAdvanced(d); err != nil {
				return fmt.Errorf("index %s: %w", d.ID(), err)
			}
			batchBytes += int(d.NumPlainTextBytes())
		}
		if batch.Size() >= indexBatchDocs || batchBytes >= indexBatchBytes {
			if err := send(); err != nil {
				return err
			}
		}
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	if done != len(b.paths) || extraDone != len(extra) {
		return errors.New("index workers stopped early")
	}
	for p, f := range old.Files {
		if _, ok := next.Files[p]; ok {
			continue
		}
		b.removed++
		for _, id := range f.Chunks {
			batch.Delete(id)
		}
	}
	for id := range old.Extra {
		if _, ok := next.Extra[id]; !ok {
			b.extraRemoved++
			batch.Delete(id)
		}
	}
	if err := indexCheckExtraIDs(next); err != nil {
		return err
	}
	if err := send(); err != nil {
		return err
	}

	// The batch that completes the index: manifest, stats and, last, the
	// commit, with the update marker removed.
	manifest, err := json.Marshal(next)
	if err != nil {
		return fmt.Errorf("encode manifest: %w", err)
	}
	stats, err := json.Marshal(b.stats)
	if err != nil {
		return fmt.Errorf("encode stats: %w", err)
	}
	final := bix.NewBatch()
	final.SetInternal(indexKeyFormat, []byte(indexFormatVersion))
	final.SetInternal(indexKeyManifest, manifest)
	final.SetInternal(indexKeyStats, stats)
	if b.extraDigest != "" {
		final.SetInternal(indexKeyExtra, []byte(b.extraDigest))
	} else {
		final.DeleteInternal(indexKeyExtra)
	}
	final.DeleteInternal(indexKeyUpdating)
	final.SetInternal(indexKeyCommit, []byte(b.opt.Commit))
	if err := fl.flush(ctx, final); err != nil {
		return err
	}
	if err := fl.stop(); err != nil {
		return err
	}
	progress.finish()
	return nil
}

// count adds a manifest entry to b's stats.
func (b *indexBuilder) count(e indexManifestFile) {
	if e.Skip != "" {
		b.stats.Skipped++
		return
	}
	b.stats.Files++
	b.stats.Bytes += e.Size
	b.chunks += len(e.Chunks)
}

// indexCheckExtraIDs returns an error if an Extra chunk of m has the ID of
// a chunk of one of m's files; the path rules of IndexOptions.Extra leave
// that possible only for paths with "#" in them.
func indexCheckExtraIDs(m indexManifest) error {
	if len(m.Extra) == 0 {
		return nil
	}
	for p, f := range m.Files {
		for _, id := range f.Chunks {
			if _, ok := m.Extra[id]; ok {
				return fmt.Errorf("extra chunk %q has the ID of a chunk of file %s", id, p)
			}
		}
	}
	return nil
}

// processExtra analyzes b.opt.Extra[i] unless old records it with the
// same hash.
func (b *indexBuilder) processExtra(a *indexAnalyzer, i int, old map[string]string) indexFileResult {
	c := b.opt.Extra[i]
	r := indexFileResult{path: c.ID, extra: true, hash: b.extraHashes[i]}
	if h, ok := old[c.ID]; ok && h == r.hash {
		r.keep = true
		return r
	}
	r.docs = []*document.Document{a.document(c)}
	return r
}

// processFile reads the file at p and, unless its content is that of old,
// chunks it into analyzed documents.
func (b *indexBuilder) processFile(a *indexAnalyzer, p string, old indexManifestFile) indexFileResult {
	r := indexFileResult{path: p}
	info, err := fs.Stat(b.fsys, p)
	if err != nil {
		b.log.Warn("index skip unreadable file", indexLogPath, p, indexLogError, err.Error())
		r.drop = true
		return r
	}
	if info.IsDir() {
		b.log.Debug("index skip file", indexLogPath, p, indexLogReason, "directory")
		r.drop = true
		return r
	}
	if b.maxSize >= 0 && info.Size() > b.maxSize {
		b.log.Debug("index skip file", indexLogPath, p, indexLogReason, "too large")
		r.entry = indexManifestFile{Size: info.Size(), Skip: "too large"}
		r.keep = old.Skip == r.entry.Skip
		return r
	}
	src, err := fs.ReadFile(b.fsys, p)
	if err != nil {
		b.log.Warn("index skip unreadable file", indexLogPath, p, indexLogError, err.Error())
		r.drop = true
		return r
	}
	if b.maxSize >= 0 && int64(len(src)) > b.maxSize {
		// It grew since Stat.
		r.entry = indexManifestFile{Size: int64(len(src)), Skip: "too large"}
		r.keep = old.Skip == r.entry.Skip
		return r
	}
	sum := sha256.Sum256(src)
	r.entry = indexManifestFile{Hash: hex.EncodeToString(sum[:]), Size: int64(len(src))}
	if bytes.IndexByte(src[:min(len(src), indexSniffBytes)], 0) >= 0 {
		b.log.Debug("index skip file", indexLogPath, p, indexLogReason, "binary")
		r.entry.Skip = "binary"
	}
	if old.Hash == r.entry.Hash && old.Skip == r.entry.Skip {
		r.entry.Chunks = old.Chunks
		r.keep = true
		return r
	}
	if r.entry.Skip != "" {
		return r
	}
	chunks := ChunkFile(p, src)
	r.docs = make([]*document.Document, len(chunks))
	r.entry.Chunks = make([]string, len(chunks))
	for i, c := range chunks {
		r.docs[i] = a.document(c)
		r.entry.Chunks[i] = c.ID
	}
	return r
}

// indexFlusher runs bleve batches one at a time in its own goroutine.
type indexFlusher struct {
	bix     bleve.Index
	batches chan *bleve.Batch
	done    chan struct{}
	once    sync.Once

	mu  sync.Mutex
	err error
}

func newIndexFlusher(bix bleve.Index) *indexFlusher {
	f := &indexFlusher{bix: bix, batches: make(chan *bleve.Batch), done: make(chan struct{})}
	go func() {
		defer close(f.done)
		for batch := range f.batches {
			if f.failed() != nil {
				continue
			}
			if err := bix.Batch(batch); err != nil {
				f.mu.Lock()
				f.err = fmt.Errorf("index batch: %w", err)
				f.mu.Unlock()
			}
		}
	}()
	return f
}

func (f *indexFlusher) failed() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.err
}

// flush queues batch, waiting while the previous one runs. It returns the
// error of an earlier batch, or ctx's error.
func (f *indexFlusher) flush(ctx context.Context, batch *bleve.Batch) error {
	if err := f.failed(); err != nil {
		return err
	}
	select {
	case f.batches <- batch:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// stop waits for the queued batches and returns the first error.
func (f *indexFlusher) stop() error {
	f.once.Do(func() { close(f.batches) })
	<-f.done
	return f.failed()
}

// indexProgress calls a Progress function at most every
// indexProgressEvery.
type indexProgress struct {
	fn          func(done, total int)
	total, done int
	last        time.Time
}

func (p *indexProgress) report(done int) {
	p.done = done
	if p.fn == nil || done >= p.total {
		return
	}
	if now := time.Now(); now.Sub(p.last) >= indexProgressEvery {
		p.last = now
		p.fn(done, p.total)
	}
}

// finish reports completion.
func (p *indexProgress) finish() {
	if p.fn != nil {
		p.fn(p.total, p.total)
	}
}

// indexCleanTemps removes temporary directories that an interrupted
// BuildIndex left beside dir. The caller holds dir's lock.
func indexCleanTemps(dir string) {
	parent, prefix := filepath.Dir(dir), "."+filepath.Base(dir)+".tmp-"
	entries, err := os.ReadDir(parent)
	if err != nil {
		return
	}
	for _, e := range entries {
		if e.IsDir() && strings.HasPrefix(e.Name(), prefix) {
			_ = os.RemoveAll(filepath.Join(parent, e.Name()))
		}
	}
}
