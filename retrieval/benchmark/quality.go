package benchmark

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
	"time"

	"github.com/docreview/docreview/retrieval"
)

// Fused names the fused ranking (every available channel) in a
// [QualityReport], beside the single channels.
const Fused = "fused"

// Quality defaults.
const (
	// qualityDefaultK is the recall cutoff when QualityOptions.K is 0.
	qualityDefaultK = 5
	// qualityDepth is how many results each search asks for: the reciprocal
	// rank counts hits down to this rank (MRR@10).
	qualityDepth = 10
	// qualityMaxFileBytes mirrors the index's limit on file size, so that
	// the dense channel embeds what the index holds.
	qualityMaxFileBytes = 1 << 20
)

// QualityOptions configures [EvaluateQuality].
type QualityOptions struct {
	// GOROOT is the Go root whose src holds the standard library corpora;
	// required when Items has standard library items. Items whose files or
	// declarations are missing there (another Go version) are skipped and
	// listed in [QualityReport.Skipped].
	GOROOT string
	// Items is the labelled set to evaluate; nil means every item of
	// [Pairs].
	Items []Item
	// Dir is a directory for the indexes, created if needed; required. The
	// caller removes it.
	Dir string
	// K is the recall cutoff; 0 means 5.
	K int
	// Embedder, when set, adds the dense channel; nil leaves it out (not
	// configured).
	Embedder retrieval.Embedder
	// Logger receives progress; nil discards it.
	Logger *slog.Logger
}

// QualityReport is the outcome of [EvaluateQuality].
type QualityReport struct {
	// K is the recall cutoff.
	K int `json:"k"`
	// Items is the number of items evaluated, CrossFile how many of them
	// are cross-file chains.
	Items     int `json:"items"`
	CrossFile int `json:"cross_file"`
	// Skipped lists the items left out, with why.
	Skipped []SkippedItem `json:"skipped,omitempty"`
	// Channels holds one score per channel run (lexical, structural, dense
	// when configured) and then [Fused].
	Channels []ChannelScore `json:"channels"`
	// LexicalMisses lists the cross-file items the lexical channel does
	// not find within K; StructuralFinds and FusedFinds list those of them
	// that the structural channel and the fused ranking find within K.
	LexicalMisses   []string `json:"lexical_misses"`
	StructuralFinds []string `json:"structural_finds"`
	FusedFinds      []string `json:"fused_finds"`
	// Results holds each evaluated item's ranks, in item order.
	Results []ItemResult `json:"results"`
	// FusedLatency is the time of the fused searches.
	FusedLatency Latency `json:"fused_latency"`
}

// SkippedItem is an item [EvaluateQuality] could not evaluate.
type SkippedItem struct {
	ID     string `json:"id"`
	Reason string `json:"reason"`
}

// ChannelScore is how well one channel (or the fused ranking) found the
// deciding evidence.
type ChannelScore struct {
	// Channel is "lexical", "structural", "dense" or [Fused].
	Channel string `json:"channel"`
	// Recall is recall@K: the share of items with an expected evidence
	// chunk among the channel's first K results.
	Recall float64 `json:"recall"`
	// MRR is the mean over items of 1/rank of the first expected evidence
	// chunk within the first 10 results (0 when there is none).
	MRR float64 `json:"mrr"`
	// CrossFileRecall is recall@K over the cross-file items alone.
	CrossFileRecall float64 `json:"cross_file_recall"`
	// Hits and CrossFileHits count the items behind Recall and
	// CrossFileRecall.
	Hits          int `json:"hits"`
	CrossFileHits int `json:"cross_file_hits"`
}

// ItemResult is one item's outcome.
type ItemResult struct {
	ID        string `json:"id"`
	CrossFile bool   `json:"cross_file"`
	// Ranks maps each channel (and [Fused]) to the 1-based rank of the
	// first expected evidence chunk within the first 10 results; 0 means
	// not found, or the channel had no input (the structural channel for
	// an item without a symbol).
	Ranks map[string]int `json:"ranks"`
}

// Channel returns the score of channel name.
func (q QualityReport) Channel(name string) (ChannelScore, bool) {
	for _, c := range q.Channels {
		if c.Channel == name {
			return c, true
		}
	}
	return ChannelScore{}, false
}

// EvaluateQuality runs every item of opt.Items through each channel alone
// and through the fused ranking, and scores recall@K and MRR per channel.
// It builds one index and symbol table for the union of the standard
// library items' package directories (read from opt.GOROOT) and one for
// the example corpus, under opt.Dir.
//
// A chunk counts as an item's evidence when its path is the expected path
// and its symbol the expected symbol, or its line range holds the
// expected declaration. It returns an error if opt.Dir is empty, the
// labelled set does not load, an index or symbol table cannot be built, or
// a search fails; and ctx's error if ctx ends first.
func EvaluateQuality(ctx context.Context, opt QualityOptions) (QualityReport, error) {
	log := opt.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if opt.Dir == "" {
		return QualityReport{}, errors.New("evaluate quality: QualityOptions.Dir is empty")
	}
	items := opt.Items
	if items == nil {
		var err error
		if items, err = Pairs(); err != nil {
			return QualityReport{}, fmt.Errorf("evaluate quality: %w", err)
		}
	}
	k := opt.K
	if k <= 0 {
		k = qualityDefaultK
	}
	rep := QualityReport{K: k}

	var stdItems, exItems []Item
	var dirs []string
	for _, it := range items {
		if it.Corpus == CorpusExample {
			exItems = append(exItems, it)
			continue
		}
		if opt.GOROOT == "" {
			return QualityReport{}, fmt.Errorf("evaluate quality: item %s: standard library items need a GOROOT", it.ID)
		}
		if missing := missingDir(opt.GOROOT, it.StdlibDirs()); missing != "" {
			rep.Skipped = append(rep.Skipped, SkippedItem{ID: it.ID, Reason: "GOROOT/src has no " + missing})
			continue
		}
		stdItems = append(stdItems, it)
		dirs = append(dirs, it.StdlibDirs()...)
	}
	slices.Sort(dirs)
	dirs = slices.Compact(dirs)

	type group struct {
		items []Item
		load  func() (Corpus, error)
	}
	groups := []group{
		{stdItems, func() (Corpus, error) { return StdlibCorpus(opt.GOROOT, dirs) }},
		{exItems, ExampleCorpus},
	}
	results := make(map[string]ItemResult, len(items))
	channelsRun := map[string]bool{}
	var fusedTimes []time.Duration
	for _, g := range groups {
		if len(g.items) == 0 {
			continue
		}
		c, err := g.load()
		if err != nil {
			return QualityReport{}, fmt.Errorf("evaluate quality: %w", err)
		}
		ev, err := newEvaluator(ctx, c, filepath.Join(opt.Dir, c.Name), opt.Embedder, log)
		if err != nil {
			return QualityReport{}, fmt.Errorf("evaluate quality: %w", err)
		}
		for _, it := range g.items {
			res, skip, took, err := ev.evaluate(ctx, it)
			if err != nil {
				_ = ev.close()
				return QualityReport{}, fmt.Errorf("evaluate quality: item %s: %w", it.ID, err)
			}
			if skip != "" {
				rep.Skipped = append(rep.Skipped, SkippedItem{ID: it.ID, Reason: skip})
				continue
			}
			results[it.ID] = res
			fusedTimes = append(fusedTimes, took)
			for ch := range res.Ranks {
				channelsRun[ch] = true
			}
		}
		if err := ev.close(); err != nil {
			return QualityReport{}, fmt.Errorf("evaluate quality: %w", err)
		}
	}

	for _, it := range items {
		if res, ok := results[it.ID]; ok {
			rep.Results = append(rep.Results, res)
		}
	}
	rep.Items = len(rep.Results)
	within := func(res ItemResult, ch string) bool { r := res.Ranks[ch]; return r > 0 && r <= k }
	for _, res := range rep.Results {
		if !res.CrossFile {
			continue
		}
		rep.CrossFile++
		if within(res, string(retrieval.ChannelLexical)) {
			continue
		}
		rep.LexicalMisses = append(rep.LexicalMisses, res.ID)
		if within(res, string(retrieval.ChannelStructural)) {
			rep.StructuralFinds = append(rep.StructuralFinds, res.ID)
		}
		if within(res, Fused) {
			rep.FusedFinds = append(rep.FusedFinds, res.ID)
		}
	}
	for _, ch := range []string{string(retrieval.ChannelLexical), string(retrieval.ChannelStructural), string(retrieval.ChannelDense), Fused} {
		if channelsRun[ch] {
			rep.Channels = append(rep.Channels, score(ch, rep.Results, k))
		}
	}
	rep.FusedLatency = latencyOf(fusedTimes)
	return rep, nil
}

// missingDir returns the first of dirs that is not a directory of
// goroot's src, "" if all are.
func missingDir(goroot string, dirs []string) string {
	for _, d := range dirs {
		if info, err := os.Stat(filepath.Join(goroot, "src", filepath.FromSlash(d))); err != nil || !info.IsDir() {
			return d
		}
	}
	return ""
}

// score computes a channel's recall@k and MRR over results.
func score(ch string, results []ItemResult, k int) ChannelScore {
	s := ChannelScore{Channel: ch}
	ncross := 0
	var rr float64
	for _, res := range results {
		r := res.Ranks[ch]
		if res.CrossFile {
			ncross++
		}
		if r > 0 {
			rr += 1 / float64(r)
		}
		if r > 0 && r <= k {
			s.Hits++
			if res.CrossFile {
				s.CrossFileHits++
			}
		}
	}
	if n := len(results); n > 0 {
		s.Recall = float64(s.Hits) / float64(n)
		s.MRR = rr / float64(n)
	}
	if ncross > 0 {
		s.CrossFileRecall = float64(s.CrossFileHits) / float64(ncross)
	}
	return s
}

// evaluator answers the items of one corpus.
type evaluator struct {
	corpus Corpus
	ix     *retrieval.Index
	r      *retrieval.Retriever
	chans  []retrieval.Channel
}

// newEvaluator indexes c in dir and loads its symbols (and dense vectors
// when e is set). log may be nil.
func newEvaluator(ctx context.Context, c Corpus, dir string, e retrieval.Embedder, log *slog.Logger) (*evaluator, error) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	started := time.Now()
	ix, err := retrieval.BuildIndex(ctx, c.FS, c.Files, retrieval.IndexOptions{Dir: filepath.Join(dir, "index"), Commit: "quality", Logger: log})
	if err != nil {
		return nil, fmt.Errorf("index %s corpus: %w", c.Name, err)
	}
	syms, err := retrieval.LoadSymbols(ctx, c.FS, c.Files, log)
	if err != nil {
		_ = ix.Close()
		return nil, fmt.Errorf("symbols of %s corpus: %w", c.Name, err)
	}
	ev := &evaluator{
		corpus: c, ix: ix,
		r:     &retrieval.Retriever{Index: ix, Symbols: syms, FS: c.FS, Logger: log},
		chans: []retrieval.Channel{retrieval.ChannelLexical, retrieval.ChannelStructural},
	}
	if e != nil {
		d, err := retrieval.OpenDense(ctx, filepath.Join(dir, "dense"), e, corpusChunks(c), log)
		if err != nil {
			_ = ix.Close()
			return nil, fmt.Errorf("dense vectors of %s corpus: %w", c.Name, err)
		}
		ev.r.Dense = d
		ev.chans = append(ev.chans, retrieval.ChannelDense)
	}
	log.Info("quality corpus ready", "corpus", c.Name, "files", len(c.Files), "duration", time.Since(started).Round(time.Millisecond))
	return ev, nil
}

func (ev *evaluator) close() error { return ev.ix.Close() }

// corpusChunks chunks the files of c that the index holds.
func corpusChunks(c Corpus) []retrieval.Chunk {
	var out []retrieval.Chunk
	for _, p := range c.Files {
		data, err := fs.ReadFile(c.FS, p)
		if err != nil || len(data) > qualityMaxFileBytes || bytes.IndexByte(data[:min(len(data), 8<<10)], 0) >= 0 {
			continue
		}
		out = append(out, retrieval.ChunkFile(p, data)...)
	}
	return out
}

// evidenceAt is an expected evidence with the line of its declaration.
type evidenceAt struct {
	Evidence
	line int
}

// evaluate runs it through each channel and the fused ranking. It returns
// why the item is skipped when its evidence is not in the corpus, and the
// time of the fused search.
func (ev *evaluator) evaluate(ctx context.Context, it Item) (ItemResult, string, time.Duration, error) {
	want := make([]evidenceAt, 0, len(it.Expected))
	for _, e := range it.Expected {
		line, err := Locate(ev.corpus.FS, e.Path, e.Symbol)
		if err != nil {
			return ItemResult{}, err.Error(), 0, nil
		}
		want = append(want, evidenceAt{e, line})
	}
	res := ItemResult{ID: it.ID, CrossFile: it.CrossFile, Ranks: map[string]int{}}
	req := retrieval.Request{Text: it.Query, Symbol: it.Symbol, FromDir: it.FromDir, TopK: qualityDepth}
	for _, ch := range ev.chans {
		if ch == retrieval.ChannelStructural && strings.TrimSpace(it.Symbol) == "" {
			res.Ranks[string(ch)] = 0
			continue
		}
		q := req
		q.Channels = []retrieval.Channel{ch}
		got, err := ev.r.Search(ctx, q)
		if err != nil {
			return ItemResult{}, "", 0, fmt.Errorf("%s channel: %w", ch, err)
		}
		res.Ranks[string(ch)] = firstMatch(got, want)
	}
	started := time.Now()
	got, err := ev.r.Search(ctx, req)
	took := time.Since(started)
	if err != nil {
		return ItemResult{}, "", 0, fmt.Errorf("fused: %w", err)
	}
	res.Ranks[Fused] = firstMatch(got, want)
	return res, "", took, nil
}

// firstMatch returns the 1-based rank of the first result that is one of
// want, 0 if none is.
func firstMatch(got []retrieval.Result, want []evidenceAt) int {
	for i, r := range got {
		for _, w := range want {
			if matches(r.Chunk, w) {
				return i + 1
			}
		}
	}
	return 0
}

// matches reports whether chunk c is the evidence w.
func matches(c retrieval.Chunk, w evidenceAt) bool {
	if c.Path != w.Path {
		return false
	}
	return c.Symbol == w.Symbol || c.StartLine <= w.line && w.line <= c.EndLine
}
