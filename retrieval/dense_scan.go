package retrieval

import (
	"context"
	"runtime"
	"slices"
	"strings"
	"sync"
)

// denseCand is a candidate hit of a scan: a row and its score.
type denseCand struct {
	score float32
	row   int32
}

// scan returns the k best rows for the normalised query q, best first
// (score descending, then chunk ID ascending). allowed lists the rows to
// consider; nil means all. Large scans are split over GOMAXPROCS
// goroutines; each row's score is computed the same way whatever the
// split, so results do not depend on it.
func (d *Dense) scan(ctx context.Context, q []float32, k int, allowed []int32) ([]denseCand, error) {
	n := len(d.chunks)
	if allowed != nil {
		n = len(allowed)
	}
	workers := max(1, min(runtime.GOMAXPROCS(0), n/denseWorkerRows))
	parts := make([][]denseCand, workers)
	errs := make([]error, workers)
	if workers == 1 {
		parts[0], errs[0] = d.scanPart(ctx, q, k, allowed, 0, n)
	} else {
		var wg sync.WaitGroup
		for w := range workers {
			lo, hi := n*w/workers, n*(w+1)/workers
			wg.Go(func() { parts[w], errs[w] = d.scanPart(ctx, q, k, allowed, lo, hi) })
		}
		wg.Wait()
	}
	var all []denseCand
	for w := range workers {
		if errs[w] != nil {
			return nil, errs[w]
		}
		all = append(all, parts[w]...)
	}
	slices.SortFunc(all, func(a, b denseCand) int {
		switch {
		case d.better(a, b):
			return -1
		case d.better(b, a):
			return 1
		}
		return 0
	})
	return all[:min(k, len(all))], nil
}

// scanPart scores positions lo..hi-1 of allowed (of all rows if allowed
// is nil) and keeps the k best in a min-heap whose root is the worst kept.
func (d *Dense) scanPart(ctx context.Context, q []float32, k int, allowed []int32, lo, hi int) ([]denseCand, error) {
	dim, vecs := d.dim, d.vecs
	q = q[:dim]
	heap := make([]denseCand, 0, min(k, hi-lo))
	for p := lo; p < hi; p++ {
		if (p-lo)%denseCancelRows == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		row := p
		if allowed != nil {
			row = int(allowed[p])
		}
		c := denseCand{score: denseDot(q, vecs[row*dim:row*dim+dim]), row: int32(row)}
		if len(heap) < k {
			heap = append(heap, c)
			d.siftUp(heap, len(heap)-1)
			continue
		}
		// Most rows lose to the worst kept on score alone.
		if c.score < heap[0].score || !d.better(c, heap[0]) {
			continue
		}
		heap[0] = c
		d.siftDown(heap, 0)
	}
	return heap, nil
}

// better reports whether a ranks before b: a higher score, or an equal
// score and a smaller chunk ID.
func (d *Dense) better(a, b denseCand) bool {
	if a.score != b.score {
		return a.score > b.score
	}
	return strings.Compare(d.chunks[a.row].ID, d.chunks[b.row].ID) < 0
}

// siftUp restores the heap (worst at the root) after heap[i] was added.
func (d *Dense) siftUp(heap []denseCand, i int) {
	for i > 0 {
		parent := (i - 1) / 2
		if !d.better(heap[parent], heap[i]) {
			return
		}
		heap[parent], heap[i] = heap[i], heap[parent]
		i = parent
	}
}

// siftDown restores the heap (worst at the root) after heap[i] was
// replaced.
func (d *Dense) siftDown(heap []denseCand, i int) {
	for {
		worst, l, r := i, 2*i+1, 2*i+2
		if l < len(heap) && d.better(heap[worst], heap[l]) {
			worst = l
		}
		if r < len(heap) && d.better(heap[worst], heap[r]) {
			worst = r
		}
		if worst == i {
			return
		}
		heap[i], heap[worst] = heap[worst], heap[i]
		i = worst
	}
}

// denseDot returns the dot product of a and b[:len(a)]. The loop takes
// sixteen elements at a time into four independent accumulators, so the
// additions do not wait on each other and every value stays in a register
// (eight accumulators spill on amd64 and ran about 1.5 times slower), and
// its condition lets the compiler drop every bounds check from the body.
// Go does not vectorise it; the summation order depends only on len(a), so
// a row's score does not depend on how a scan is split.
func denseDot(a, b []float32) float32 {
	b = b[:len(a)]
	var s0, s1, s2, s3 float32
	for len(a) >= 16 && len(b) >= 16 {
		s0 += (a[0]*b[0] + a[4]*b[4]) + (a[8]*b[8] + a[12]*b[12])
		s1 += (a[1]*b[1] + a[5]*b[5]) + (a[9]*b[9] + a[13]*b[13])
		s2 += (a[2]*b[2] + a[6]*b[6]) + (a[10]*b[10] + a[14]*b[14])
		s3 += (a[3]*b[3] + a[7]*b[7]) + (a[11]*b[11] + a[15]*b[15])
		a, b = a[16:], b[16:]
	}
	for i := range min(len(a), len(b)) {
		s0 += a[i] * b[i]
	}
	return (s0 + s1) + (s2 + s3)
}
