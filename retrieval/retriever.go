package retrieval

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"time"
)

// Channel names one way the [Retriever] finds chunks.
type Channel string

// The channels of a [Retriever].
const (
	// ChannelLexical is BM25 over the [Index].
	ChannelLexical Channel = "lexical"
	// ChannelStructural follows the Go symbol graph ([Symbols]) from
	// [Request.Symbol].
	ChannelStructural Channel = "structural"
	// ChannelDense is embedding similarity ([Dense]).
	ChannelDense Channel = "dense"
)

// Retriever tuning.
const (
	// retrieverDefaultTopK is the number of results when Request.TopK is 0.
	retrieverDefaultTopK = 10
	// retrieverMinDepth is the least number of hits each channel
	// contributes to fusion: deeper than TopK, so that a chunk two channels
	// rank moderately can beat one a single channel ranks first.
	retrieverMinDepth = 30
	// retrieverRRFK is the k of reciprocal rank fusion.
	retrieverRRFK = 60
)

// Log attribute keys of the retriever.
const (
	retrieverLogChannel  = "channel"
	retrieverLogErr      = "err"
	retrieverLogSymbol   = "symbol"
	retrieverLogHits     = "hits"
	retrieverLogDuration = "duration"
)

// Retriever answers queries over one commit by fusing its channels with
// reciprocal rank fusion (k = 60). Index is required; Symbols and Dense are
// optional. A Retriever holds no state of its own beyond its fields, which
// must not change while it is used; its methods are safe for concurrent
// use.
type Retriever struct {
	// Index is the lexical index of the commit; required.
	Index *Index
	// Symbols is the Go symbol table of the commit; nil means no structural
	// channel, and [Retriever.SymbolInfo] returns an error.
	Symbols *Symbols
	// Dense holds the commit's embeddings; nil means no dense channel (not
	// configured).
	Dense *Dense
	// FS holds the files at the commit, for [Retriever.Read]; nil makes
	// Read return an error.
	FS fs.FS
	// Logger receives channel failures and timings; nil discards them.
	Logger *slog.Logger
}

// Request is a query to the fused layer.
type Request struct {
	// Text is free text: identifiers or behaviour phrases. The lexical and
	// dense channels search it; when it is blank they search Symbol
	// instead.
	Text string
	// Symbol is the subject symbol of the structural channel ("Cache.Purge",
	// "pkg.Name", any form [Symbols.Lookup] accepts). Empty means no
	// structural channel; a symbol that does not resolve gives that channel
	// no hits.
	Symbol string
	// FromDir is the package directory Symbol is written in ("." for the
	// root); "" resolves it from the first package, in directory order, in
	// which it resolves.
	FromDir string
	// TopK is the maximum number of results; 0 means 10.
	TopK int
	// Sources keeps only chunks of these sources, in every channel; empty
	// keeps all.
	Sources []Source
	// PathPrefix keeps only chunks whose path starts with it (a plain
	// string prefix), in every channel; empty keeps all.
	PathPrefix string
	// Channels selects the channels to run; empty means every available
	// one (lexical; structural when Symbols is set and Symbol is not empty;
	// dense when Dense is set).
	Channels []Channel
}

// Result is one fused hit.
type Result struct {
	Chunk Chunk
	// Score is the RRF score: the sum over the channels that returned the
	// chunk of 1/(60+rank).
	Score float64
	// Ranks holds the 1-based rank of the chunk in each channel that
	// returned it, after filtering.
	Ranks map[Channel]int
	// Why says how the chunk was reached, from the channel that ranked it
	// best; structural wins ties, then lexical ("callee of Cache.Purge",
	// "BM25: purge deferred").
	Why string
	// Hops is the chain of symbol names from the request's subject to the
	// chunk when the structural channel ranked it best, else nil.
	Hops []string
	// Reasons holds the Why and Hops of every channel that returned the
	// chunk, for callers that prefer one channel's account (a test "that
	// calls Cache.Purge" over "BM25: purge").
	Reasons map[Channel]Reason
}

// Reason is one channel's account of how it reached a chunk.
type Reason struct {
	Why  string
	Hops []string
}

// ChannelError reports that every channel a search ran failed.
type ChannelError struct {
	// Failures maps each channel run to its error.
	Failures map[Channel]error
}

// Error lists each channel's failure, in channel name order.
func (e *ChannelError) Error() string {
	names := make([]string, 0, len(e.Failures))
	for c := range e.Failures {
		names = append(names, string(c))
	}
	slices.Sort(names)
	parts := make([]string, len(names))
	for i, n := range names {
		parts[i] = fmt.Sprintf("%s: %v", n, e.Failures[Channel(n)])
	}
	return "every retrieval channel failed: " + strings.Join(parts, "; ")
}

// Unwrap returns the channels' errors, in channel name order.
func (e *ChannelError) Unwrap() []error {
	names := make([]string, 0, len(e.Failures))
	for c := range e.Failures {
		names = append(names, string(c))
	}
	slices.Sort(names)
	errs := make([]error, len(names))
	for i, n := range names {
		errs[i] = e.Failures[Channel(n)]
	}
	return errs
}

// channelHit is one chunk a channel returned, in the channel's order.
type channelHit struct {
	chunk Chunk
	why   string
	hops  []string
}

// channel is one runnable channel of a search: run returns up to depth
// hits that pass the request's filters, best first.
type channel struct {
	name Channel
	run  func(ctx context.Context, q Request, depth int) ([]channelHit, error)
}

// Search runs q's channels and fuses their ranked lists with reciprocal
// rank fusion: up to q.TopK results by score descending, then chunk ID.
//
// A channel that fails (the dense endpoint is down) is logged and skipped,
// and Search returns the other channels' fused results; only when every
// channel run fails does it return a *[ChannelError] naming each failure.
// It returns an error, running nothing, when r has no Index, q has neither
// Text nor Symbol, TopK is negative, or q.Channels names an unknown channel
// or one that cannot run (dense without Dense, structural without Symbols
// or without q.Symbol); and ctx's error if ctx ends first.
func (r *Retriever) Search(ctx context.Context, q Request) ([]Result, error) {
	chans, err := r.channels(q)
	if err != nil {
		return nil, err
	}
	return r.search(ctx, q, chans)
}

// channels returns the channels q runs, in the order lexical, structural,
// dense.
func (r *Retriever) channels(q Request) ([]channel, error) {
	switch {
	case r.Index == nil:
		return nil, errors.New("search: retriever has no index")
	case strings.TrimSpace(q.Text) == "" && strings.TrimSpace(q.Symbol) == "":
		return nil, errors.New("search: request has neither text nor symbol")
	case q.TopK < 0:
		return nil, fmt.Errorf("search %q: negative TopK %d", q.Text, q.TopK)
	}
	want := map[Channel]bool{}
	for _, c := range q.Channels {
		switch c {
		case ChannelLexical:
		case ChannelStructural:
			if r.Symbols == nil {
				return nil, errors.New("search: structural channel requested but the retriever has no symbol table")
			}
			if strings.TrimSpace(q.Symbol) == "" {
				return nil, errors.New("search: structural channel requested without a symbol")
			}
		case ChannelDense:
			if r.Dense == nil {
				return nil, errors.New("search: dense channel requested but not configured")
			}
		default:
			return nil, fmt.Errorf("search: unknown channel %q (want lexical, structural or dense)", c)
		}
		want[c] = true
	}
	all := len(q.Channels) == 0
	var chans []channel
	if all || want[ChannelLexical] {
		chans = append(chans, channel{ChannelLexical, r.lexical})
	}
	if (all && r.Symbols != nil || want[ChannelStructural]) && strings.TrimSpace(q.Symbol) != "" {
		chans = append(chans, channel{ChannelStructural, r.structural})
	}
	if all && r.Dense != nil || want[ChannelDense] {
		chans = append(chans, channel{ChannelDense, r.dense})
	}
	return chans, nil
}

// search runs chans concurrently and fuses their results.
func (r *Retriever) search(ctx context.Context, q Request, chans []channel) ([]Result, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("search %q: %w", queryText(q), err)
	}
	topK := q.TopK
	if topK == 0 {
		topK = retrieverDefaultTopK
	}
	depth := max(topK, retrieverMinDepth)
	log := r.logger()

	lists := make([][]channelHit, len(chans))
	errs := make([]error, len(chans))
	var wg sync.WaitGroup
	for i, c := range chans {
		wg.Go(func() {
			started := time.Now()
			lists[i], errs[i] = c.run(ctx, q, depth)
			log.Debug("retrieval channel", retrieverLogChannel, c.name, retrieverLogHits, len(lists[i]),
				retrieverLogDuration, time.Since(started))
		})
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("search %q: %w", queryText(q), err)
	}

	var ranked []rankedList
	failures := map[Channel]error{}
	for i, c := range chans {
		if errs[i] != nil {
			log.Warn("retrieval channel failed; skipped", retrieverLogChannel, c.name, retrieverLogErr, errs[i])
			failures[c.name] = errs[i]
			continue
		}
		ranked = append(ranked, rankedList{channel: c.name, hits: lists[i]})
	}
	if len(chans) > 0 && len(failures) == len(chans) {
		return nil, &ChannelError{Failures: failures}
	}
	return fuse(ranked, topK), nil
}

// queryText is what the lexical and dense channels search for q, and
// names q in errors.
func queryText(q Request) string {
	if strings.TrimSpace(q.Text) != "" {
		return q.Text
	}
	return q.Symbol
}

// keep reports whether c passes q's filters.
func (q Request) keep(c Chunk) bool {
	if len(q.Sources) > 0 && !slices.Contains(q.Sources, c.Source) {
		return false
	}
	return strings.HasPrefix(c.Path, q.PathPrefix)
}

// lexical is the lexical channel: [Index.Search].
func (r *Retriever) lexical(ctx context.Context, q Request, depth int) ([]channelHit, error) {
	hits, err := r.Index.Search(ctx, Query{
		Text: queryText(q), TopK: depth, Sources: q.Sources, PathPrefix: q.PathPrefix,
	})
	if err != nil {
		return nil, err
	}
	out := make([]channelHit, len(hits))
	for i, h := range hits {
		out[i] = channelHit{chunk: h.Chunk, why: h.Why, hops: h.Hops}
	}
	return out, nil
}

// dense is the dense channel: [Dense.Search].
func (r *Retriever) dense(ctx context.Context, q Request, depth int) ([]channelHit, error) {
	hits, err := r.Dense.Search(ctx, queryText(q), depth, q.keep)
	if err != nil {
		return nil, err
	}
	out := make([]channelHit, 0, len(hits))
	for _, h := range hits {
		if !q.keep(h.Chunk) {
			continue
		}
		out = append(out, channelHit{chunk: h.Chunk, why: fmt.Sprintf("embedding similarity %.2f", h.Score)})
	}
	return out, nil
}

// Read returns lines start to end (1-based, inclusive) of the file at path
// (a slash path relative to the repository root) at the commit, joined
// with "\n", without carriage returns or a final newline. It returns an
// error if r has no FS, path is not a valid path or names no file, start is
// below 1, end is below start, or end is past the file's last line (the
// error says how many lines the file has); and ctx's error if ctx ends
// first.
func (r *Retriever) Read(ctx context.Context, path string, start, end int) (string, error) {
	if err := ctx.Err(); err != nil {
		return "", fmt.Errorf("read %s: %w", path, err)
	}
	switch {
	case r.FS == nil:
		return "", fmt.Errorf("read %s: retriever has no files", path)
	case !fs.ValidPath(path) || path == ".":
		return "", fmt.Errorf("read %q: invalid path (want a slash path relative to the repository root)", path)
	case start < 1:
		return "", fmt.Errorf("read %s: start line %d is below 1", path, start)
	case end < start:
		return "", fmt.Errorf("read %s: end line %d is before start line %d", path, end, start)
	}
	src, err := fs.ReadFile(r.FS, path)
	if errors.Is(err, fs.ErrNotExist) {
		return "", fmt.Errorf("read %s: no such file at this commit: %w", path, err)
	}
	if err != nil {
		return "", fmt.Errorf("read %s: %w", path, err)
	}
	lines := chunkSplitLines(src)
	if end > len(lines) {
		return "", fmt.Errorf("read %s: lines %d-%d past the end of the file (%d lines)", path, start, end, len(lines))
	}
	return chunkText(lines, start, end), nil
}

func (r *Retriever) logger() *slog.Logger {
	if r.Logger == nil {
		return slog.New(slog.DiscardHandler)
	}
	return r.Logger
}
