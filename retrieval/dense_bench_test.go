package retrieval

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"testing"
)

// denseBenchDim is the dimension of text-embedding-3-small.
const denseBenchDim = 1536

// denseBenchVector fills v with a random unit vector.
func denseBenchVector(r *rand.Rand, v []float32) {
	for j := 0; j < len(v); j += 2 {
		x := r.Uint64()
		v[j] = float32(int32(x)) / math.MaxInt32
		if j+1 < len(v) {
			v[j+1] = float32(int32(x>>32)) / math.MaxInt32
		}
	}
	denseNormalize(v)
}

// denseBenchDense returns a Dense of n random vectors whose embedder
// answers every query with the same random vector.
func denseBenchDense(n, dim int) *Dense {
	r := rand.New(rand.NewPCG(uint64(n), 7))
	q := make([]float32, dim)
	denseBenchVector(r, q)
	e := &denseFakeEmbedder{model: "bench", embed: func(_ context.Context, texts []string) ([][]float32, error) {
		return [][]float32{q}, nil
	}}
	d := &Dense{e: e, model: "bench", dim: dim, chunks: make([]Chunk, n), vecs: make([]float32, n*dim)}
	for i := range n {
		d.chunks[i] = Chunk{ID: fmt.Sprintf("pkg%03d/file.go#%d", i%997, i)}
		denseBenchVector(r, d.vecs[i*dim:(i+1)*dim])
	}
	return d
}

// BenchmarkDenseSearch measures an exact top-10 search, the query
// embedding excluded (the fake answers at once), over corpora of
// text-embedding-3-small vectors. Run with -benchtime=20x; the 200k case
// allocates 1.2 GB.
func BenchmarkDenseSearch(b *testing.B) {
	for _, n := range []int{10_000, 50_000, 200_000} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			d := denseBenchDense(n, denseBenchDim)
			ctx := b.Context()
			for b.Loop() {
				hits, err := d.Search(ctx, "how are expired entries removed", 10, nil)
				if err != nil || len(hits) != 10 {
					b.Fatalf("Search = %d hits, %v", len(hits), err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/vector")
			b.ReportMetric(float64(n*denseBenchDim*4)/(1<<20), "MiB")
		})
	}
}

// BenchmarkDenseDot measures one 1536-dimension dot product.
func BenchmarkDenseDot(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 1))
	x, y := make([]float32, denseBenchDim), make([]float32, denseBenchDim)
	denseBenchVector(r, x)
	denseBenchVector(r, y)
	var sink float32
	for b.Loop() {
		sink += denseDot(x, y)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/denseBenchDim, "ns/element")
	if sink == 0 {
		b.Log(sink)
	}
}

// BenchmarkOpenDenseWarm measures reopening a vector file that already
// holds every chunk's vector: read, checksum, decode, no embedding.
func BenchmarkOpenDenseWarm(b *testing.B) {
	for _, n := range []int{10_000, 50_000} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			src := denseBenchDense(n, denseBenchDim)
			chunks := make([]Chunk, n)
			for i := range chunks {
				chunks[i] = Chunk{ID: src.chunks[i].ID, Text: fmt.Sprintf("chunk %d text", i)}
			}
			rows := newDenseRows(chunks)
			rows.dim, rows.vecs = denseBenchDim, src.vecs
			for i := range rows.have {
				rows.have[i] = true
			}
			dir := b.TempDir()
			if err := denseSave(filepath.Join(dir, DenseFileName("bench")), "bench", rows); err != nil {
				b.Fatal(err)
			}
			e := &denseFakeEmbedder{model: "bench"}
			for b.Loop() {
				d, err := OpenDense(b.Context(), dir, e, chunks, nil)
				if err != nil || d.Len() != n {
					b.Fatalf("OpenDense = %v", err)
				}
			}
			if e.calls.Load() != 0 {
				b.Fatalf("warm open embedded %d times", e.calls.Load())
			}
		})
	}
}
