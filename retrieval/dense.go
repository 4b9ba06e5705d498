package retrieval

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// Dense is the dense channel: one normalised float32 vector per chunk,
// from an [Embedder], searched by exact cosine similarity. [OpenDense]
// builds it, reusing vectors kept on disk. A Dense is immutable and safe
// for concurrent use; its memory is about len(chunks) × dimension × 4
// bytes (6 KiB per chunk for 1536 dimensions).
type Dense struct {
	e     Embedder
	model string
	dim   int
	// chunks are the searchable chunks; row i of vecs, vecs[i*dim :
	// (i+1)*dim], is chunks[i]'s vector.
	chunks []Chunk
	vecs   []float32
}

// DenseHit is one result of [Dense.Search].
type DenseHit struct {
	Chunk Chunk
	// Score is the cosine similarity of the chunk's text and the query,
	// in [-1, 1]; higher is closer.
	Score float64
}

// Dense tuning.
const (
	// denseDefaultK is the number of hits when Search's k is not positive.
	denseDefaultK = 10
	// denseEmbedGroup is the number of texts OpenDense hands the embedder
	// at once; vectors embedded before a failure are saved group by group.
	denseEmbedGroup = 512
	// denseWorkerRows is the fewest rows worth a goroutine in Search.
	denseWorkerRows = 8192
	// denseCancelRows is how many rows a Search worker scans between
	// checks of its context.
	denseCancelRows = 4096
)

// Log attribute keys of the dense channel (see also embedLog*).
const (
	denseLogPath     = "path"
	denseLogReason   = "reason"
	denseLogChunks   = "chunks"
	denseLogReused   = "reused"
	denseLogEmbedded = "embedded"
	denseLogDropped  = "dropped"
	denseLogDim      = "dim"
	denseLogDuration = "duration"
)

// denseDimensioner is implemented by embedders whose dimension is known
// before any request ([OpenAIEmbedder] with Dimensions set).
type denseDimensioner interface {
	Dimensions() int
}

// denseEndpointer is implemented by embedders that can name their
// endpoint for logs ([OpenAIEmbedder]).
type denseEndpointer interface {
	Endpoint() string
}

// OpenDense returns the dense channel over chunks, with vectors from e.
//
// Vectors are kept in dir, in a file per model ("vectors-<model>.bin",
// the model name reduced to letters, digits, '.', '_' and '-'), keyed by
// the SHA-256 of each chunk's Text: only chunks whose text has no vector
// there are embedded, in groups of 512 texts; vectors of texts no longer
// among chunks are dropped; and the file is rewritten (through a
// temporary file renamed into place) when anything changed. An empty dir
// keeps vectors in memory only. A file that is corrupt, truncated, of
// another format version, model or dimension (when e reports one with a
// Dimensions method) is logged and rebuilt. Failing to write the file is
// logged, and the returned Dense is still usable.
//
// Chunks with blank Text are not searchable; of chunks with the same ID,
// the first is kept. log receives progress and rebuild reasons; nil
// discards them.
//
// OpenDense returns an error, wrapped with the file's path, if e is nil or
// has no model name, if embedding fails (timeout, rate limit after
// retries, malformed response), or if e returns vectors of a dimension
// other than the first's or the file's; vectors embedded before the
// failure are saved first, so a retry resumes where this run stopped. The
// caller then runs without the dense channel.
func OpenDense(ctx context.Context, dir string, e Embedder, chunks []Chunk, log *slog.Logger) (*Dense, error) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if e == nil {
		return nil, errors.New("open dense vectors: embedder is nil")
	}
	model := e.Model()
	if model == "" {
		return nil, errors.New("open dense vectors: embedder has no model name")
	}
	path := ""
	if dir != "" {
		path = filepath.Join(dir, DenseFileName(model))
	}
	log = log.With(embedLogModel, model)
	if ep, ok := e.(denseEndpointer); ok {
		log = log.With(embedLogEndpoint, ep.Endpoint())
	}
	started := time.Now()

	d := &Dense{e: e, model: model}
	d.chunks = denseSearchable(chunks)
	rows := newDenseRows(d.chunks)

	want := 0
	if dd, ok := e.(denseDimensioner); ok {
		want = dd.Dimensions()
	}
	dirty := false // the file must be (re)written
	var st denseLoadStats
	if path != "" {
		var err error
		st, err = denseLoad(path, model, want, rows)
		switch {
		case errors.Is(err, errDenseNoFile):
			dirty = true
		case err != nil:
			log.Warn("dense vectors rebuilt", denseLogPath, path, denseLogReason, err.Error())
			rows.reset()
			dirty = true
		}
	}
	fromFile := rows.dim != 0

	// Embed the texts without a vector, one per distinct hash.
	var missing []int
	for i := range d.chunks {
		if !rows.have[i] && rows.first[rows.hash[i]] == int32(i) {
			missing = append(missing, i)
		}
	}
	embedded := 0
	for len(missing) > 0 {
		group := missing[:min(denseEmbedGroup, len(missing))]
		err := d.embedGroup(ctx, rows, group, fromFile)
		if err == nil {
			embedded += len(group)
			missing = missing[len(group):]
			log.Debug("dense vectors embedded", denseLogEmbedded, embedded, denseLogChunks, len(d.chunks))
			continue
		}
		if path != "" && (embedded > 0 || st.dropped > 0) {
			if serr := denseSave(path, model, rows); serr != nil {
				log.Warn("dense vectors not saved", denseLogPath, path, denseLogReason, serr.Error())
			}
		}
		where := path
		if where == "" {
			where = "in memory"
		}
		return nil, fmt.Errorf("open dense vectors %s: %w", where, err)
	}
	d.dim, d.vecs = rows.dim, rows.vecs

	if path != "" && (dirty || embedded > 0 || st.dropped > 0) && rows.dim > 0 {
		if err := denseSave(path, model, rows); err != nil {
			log.Warn("dense vectors not saved", denseLogPath, path, denseLogReason, err.Error())
		}
	}
	log.Info("dense vectors ready", denseLogPath, path, denseLogChunks, len(d.chunks), denseLogReused, st.reused,
		denseLogEmbedded, embedded, denseLogDropped, st.dropped, denseLogDim, d.dim,
		denseLogDuration, time.Since(started).Round(time.Millisecond))
	return d, nil
}

// embedGroup embeds the texts of the rows in group and stores their
// normalised vectors in every row with the same hash. fromFile says the
// dimension came from the vector file.
func (d *Dense) embedGroup(ctx context.Context, rows *denseRows, group []int, fromFile bool) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	texts := make([]string, len(group))
	for j, i := range group {
		texts[j] = d.chunks[i].Text
	}
	vecs, err := d.e.Embed(ctx, texts)
	if err != nil {
		return err
	}
	if len(vecs) != len(texts) {
		return fmt.Errorf("embedder returned %d vectors for %d texts", len(vecs), len(texts))
	}
	for j, v := range vecs {
		if rows.dim == 0 {
			if len(v) == 0 {
				return fmt.Errorf("embedder returned an empty vector for model %s", d.model)
			}
			rows.alloc(len(v))
		}
		if len(v) != rows.dim {
			err := embedDimError(d.model, len(v), rows.dim)
			if fromFile {
				err = fmt.Errorf("%w (the dimension of the stored vectors; remove the file to re-embed with this endpoint)", err)
			}
			return err
		}
		rows.set(group[j], v)
	}
	return nil
}

// Model returns the name of the embedding model the vectors come from.
func (d *Dense) Model() string { return d.model }

// Dim returns the vectors' dimension, 0 when there are none.
func (d *Dense) Dim() int { return d.dim }

// Len returns the number of searchable chunks.
func (d *Dense) Len() int { return len(d.chunks) }

// Search returns the k chunks (10 if k is not positive) whose vectors are
// closest to text's by cosine similarity, best first, ties in chunk ID
// order. Only chunks for which filter returns true are considered; a nil
// filter keeps all. filter is called once per chunk, from the calling
// goroutine. The query is embedded with one request, unless no chunk is
// left to score. Search returns an error for a blank text, when embedding the
// query fails or gives a vector of another dimension, and when ctx ends.
func (d *Dense) Search(ctx context.Context, text string, k int, filter func(Chunk) bool) ([]DenseHit, error) {
	if strings.TrimSpace(text) == "" {
		return nil, errors.New("dense search: query text is blank")
	}
	if k <= 0 {
		k = denseDefaultK
	}
	var allowed []int32 // rows to scan; nil means all
	if filter != nil {
		allowed = make([]int32, 0, len(d.chunks))
		for i, c := range d.chunks {
			if filter(c) {
				allowed = append(allowed, int32(i))
			}
		}
		if len(allowed) == 0 {
			return nil, nil
		}
	}
	if len(d.chunks) == 0 || d.dim == 0 {
		return nil, nil
	}
	vecs, err := d.e.Embed(ctx, []string{text})
	if err != nil {
		return nil, fmt.Errorf("dense search: embed query: %w", err)
	}
	if len(vecs) != 1 {
		return nil, fmt.Errorf("dense search: embedder returned %d vectors for 1 query", len(vecs))
	}
	if len(vecs[0]) != d.dim {
		return nil, fmt.Errorf("dense search: %w", embedDimError(d.model, len(vecs[0]), d.dim))
	}
	q := slices.Clone(vecs[0])
	denseNormalize(q)
	top, err := d.scan(ctx, q, k, allowed)
	if err != nil {
		return nil, fmt.Errorf("dense search: %w", err)
	}
	hits := make([]DenseHit, len(top))
	for i, c := range top {
		hits[i] = DenseHit{Chunk: d.chunks[c.row], Score: float64(c.score)}
	}
	return hits, nil
}

// denseSearchable returns the chunks with non-blank text, the first of
// each ID.
func denseSearchable(chunks []Chunk) []Chunk {
	out := make([]Chunk, 0, len(chunks))
	seen := make(map[string]bool, len(chunks))
	for _, c := range chunks {
		if strings.TrimSpace(c.Text) == "" || seen[c.ID] {
			continue
		}
		seen[c.ID] = true
		out = append(out, c)
	}
	return out
}

// denseRows holds the vectors of chunks while OpenDense fills them: row i
// is chunk i's, have[i] says it is set. Chunks with equal text share a
// hash; first maps a hash to its first row and next links the others.
type denseRows struct {
	hash  [][sha256.Size]byte
	first map[[sha256.Size]byte]int32
	next  []int32 // next row with the same hash, -1 at the end
	have  []bool
	dim   int
	vecs  []float32 // len(hash)*dim once dim is known
}

func newDenseRows(chunks []Chunk) *denseRows {
	r := &denseRows{
		hash:  make([][sha256.Size]byte, len(chunks)),
		first: make(map[[sha256.Size]byte]int32, len(chunks)),
		next:  make([]int32, len(chunks)),
		have:  make([]bool, len(chunks)),
	}
	last := make(map[[sha256.Size]byte]int32, len(chunks))
	for i, c := range chunks {
		h := sha256.Sum256([]byte(c.Text))
		r.hash[i] = h
		r.next[i] = -1
		if j, ok := last[h]; ok {
			r.next[j] = int32(i)
		} else {
			r.first[h] = int32(i)
		}
		last[h] = int32(i)
	}
	return r
}

// alloc sets the dimension and allocates the vectors.
func (r *denseRows) alloc(dim int) {
	r.dim = dim
	r.vecs = make([]float32, len(r.hash)*dim)
}

// reset forgets every vector, as if none had been loaded.
func (r *denseRows) reset() {
	clear(r.have)
	r.dim, r.vecs = 0, nil
}

// set normalises v into row i and every row with the same hash.
func (r *denseRows) set(i int, v []float32) {
	dst := r.vecs[i*r.dim : (i+1)*r.dim]
	copy(dst, v)
	denseNormalize(dst)
	r.fill(i)
}

// fill marks row i set and copies it to every later row with the same
// hash.
func (r *denseRows) fill(i int) {
	src := r.vecs[i*r.dim : (i+1)*r.dim]
	r.have[i] = true
	for j := r.next[i]; j >= 0; j = r.next[j] {
		copy(r.vecs[int(j)*r.dim:(int(j)+1)*r.dim], src)
		r.have[j] = true
	}
}

// denseNormalize scales v to unit length; a zero vector stays zero.
func denseNormalize(v []float32) {
	var s float64
	for _, x := range v {
		s += float64(x) * float64(x)
	}
	if s == 0 {
		return
	}
	inv := float32(1 / math.Sqrt(s))
	for i := range v {
		v[i] *= inv
	}
}

// DenseFileName returns the name of the file [OpenDense] keeps model's
// vectors in: "vectors-<model>.bin", where characters other than ASCII
// letters, digits, '.', '_' and '-' become '_' and, if any did or the name
// is long, 8 hex digits of the model name's SHA-256 are appended so that
// distinct models never share a file.
func DenseFileName(model string) string {
	var b strings.Builder
	changed := false
	for _, r := range model {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '.', r == '_', r == '-':
			b.WriteRune(r)
		default:
			b.WriteByte('_')
			changed = true
		}
	}
	name := b.String()
	if len(name) > 64 {
		name, changed = name[:64], true
	}
	if changed {
		name = fmt.Sprintf("%s-%x", name, sha256.Sum256([]byte(model)))[:len(name)+9]
	}
	return "vectors-" + name + ".bin"
}
