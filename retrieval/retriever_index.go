package retrieval

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/blevesearch/bleve/v2"
)

// Chunks of one file [Index.ChunkAt] loads: first up to
// retrieverChunksPerFile, then if there are more up to
// retrieverMaxChunksPerFile (a 1 MiB file cut into 30-line windows has
// fewer).
const (
	retrieverChunksPerFile    = 64
	retrieverMaxChunksPerFile = 100000
)

// chunkSpan is where a chunk lies in its file, without its text.
type chunkSpan struct {
	id         string
	start, end int
}

// ChunkAt returns the chunk of the file at path (a slash path, as indexed)
// that contains line (1-based): the shortest such chunk, and of equally
// long ones (overlapping windows) the one starting last, so that the line
// is followed by as much context as possible. It returns false when the
// index holds no chunk of path covering line, including for a line below 1.
// It returns an error only when the index cannot be searched, and ctx's
// error if ctx ends first.
func (ix *Index) ChunkAt(ctx context.Context, path string, line int) (Chunk, bool, error) {
	spans, err := ix.chunkSpans(ctx, path)
	if err != nil {
		return Chunk{}, false, err
	}
	id, ok := chunkSpanAt(spans, line)
	if !ok {
		return Chunk{}, false, nil
	}
	c, ok, err := ix.Chunk(ctx, id)
	if err != nil {
		return Chunk{}, false, fmt.Errorf("chunk at %s:%d: %w", path, line, err)
	}
	return c, ok, nil
}

// chunkSpans returns the spans of every chunk of the file at path, sorted
// by start line and ID. Only the path, start and end fields are loaded.
func (ix *Index) chunkSpans(ctx context.Context, path string) ([]chunkSpan, error) {
	tq := bleve.NewTermQuery(path)
	tq.SetField(indexFieldPath)
	// bleve allocates for the requested size up front: ask for a typical
	// file's chunks, then for all of them if there are more.
	size := retrieverChunksPerFile
	var res *bleve.SearchResult
	for {
		req := bleve.NewSearchRequestOptions(tq, size, 0, false)
		req.Fields = []string{indexFieldStart, indexFieldEnd}
		var err error
		if res, err = ix.bix.SearchInContext(ctx, req); err != nil {
			return nil, fmt.Errorf("chunks of %s: %w", path, err)
		}
		if res.Total <= uint64(size) || size >= retrieverMaxChunksPerFile {
			break
		}
		size = min(int(res.Total), retrieverMaxChunksPerFile)
	}
	spans := make([]chunkSpan, 0, len(res.Hits))
	for _, h := range res.Hits {
		start, _ := h.Fields[indexFieldStart].(float64)
		end, _ := h.Fields[indexFieldEnd].(float64)
		spans = append(spans, chunkSpan{id: h.ID, start: int(start), end: int(end)})
	}
	slices.SortFunc(spans, func(a, b chunkSpan) int {
		if a.start != b.start {
			return a.start - b.start
		}
		return strings.Compare(a.id, b.id)
	})
	return spans, nil
}

// chunkSpanAt picks the chunk of spans that contains line, as
// [Index.ChunkAt] describes.
func chunkSpanAt(spans []chunkSpan, line int) (string, bool) {
	best := -1
	for i, s := range spans {
		if line < s.start || line > s.end {
			continue
		}
		if best < 0 {
			best = i
			continue
		}
		b := spans[best]
		// spans is sorted by start, so a later span of the same length
		// starts at least as late.
		if s.end-s.start <= b.end-b.start {
			best = i
		}
	}
	if best < 0 {
		return "", false
	}
	return spans[best].id, true
}

// chunksByID loads the chunks with the given IDs; IDs the index does not
// hold are missing from the map.
func (ix *Index) chunksByID(ctx context.Context, ids []string) (map[string]Chunk, error) {
	out := make(map[string]Chunk, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	req := bleve.NewSearchRequestOptions(bleve.NewDocIDQuery(ids), len(ids), 0, false)
	req.Fields = indexStoredFields()
	res, err := ix.bix.SearchInContext(ctx, req)
	if err != nil {
		return nil, fmt.Errorf("get %d chunks: %w", len(ids), err)
	}
	for _, h := range res.Hits {
		out[h.ID] = indexChunkFromFields(h.ID, h.Fields)
	}
	return out, nil
}
