package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"github.com/docreview/docreview/retrieval"
	"github.com/docreview/docreview/review"
)

// Query defaults and bounds.
const (
	// queryDefaultTopK is the number of hits when --top-k is not given.
	queryDefaultTopK = 10
	// queryMaxTopK bounds --top-k and the search tool's top_k.
	queryMaxTopK = 200
	// hitSnippetLines bounds the lines of a hit's snippet; longer chunks
	// are cut and end with a line "…".
	hitSnippetLines = 40
	// hitTextLines bounds the snippet lines the text format shows.
	hitTextLines = 6
)

// querySources and queryChannels are the values --source and --channels
// accept.
var (
	querySources  = []retrieval.Source{retrieval.SourceCode, retrieval.SourceTest, retrieval.SourceExample, retrieval.SourceDoc, retrieval.SourceUpstream}
	queryChannels = []retrieval.Channel{retrieval.ChannelLexical, retrieval.ChannelStructural, retrieval.ChannelDense}
)

// queryFlags are the flags of 'docreview query'.
type queryFlags struct {
	evidenceFlags
	topK              int
	sources, channels listFlag
	symbol, fromDir   string
	format            string
}

func (f *queryFlags) register(fs *flag.FlagSet) {
	f.evidenceFlags.register(fs, false)
	fs.IntVar(&f.topK, "top-k", queryDefaultTopK, "maximum number of `hits`")
	fs.Var(&f.sources, "source", "keep only hits of these `sources`: code, test, example, doc, upstream (comma-separated or repeated)")
	fs.Var(&f.channels, "channels", "run only these `channels`: lexical, structural, dense (comma-separated or repeated; default every available one)")
	fs.StringVar(&f.symbol, "symbol", "", "subject `symbol` of the structural channel: Store.Hold, pkg.Name")
	fs.StringVar(&f.fromDir, "from-dir", "", "package `dir` the symbol is written in (default: the first package that resolves it)")
	fs.StringVar(&f.format, "format", "text", "output format: text or json")
}

// runQuery implements 'docreview query'.
func runQuery(ctx context.Context, args []string, stdout, stderr io.Writer, getenv func(string) string) error {
	fs := flag.NewFlagSet("docreview query", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "Usage: docreview query [flags] TEXT   (flags may also follow TEXT)")
		fs.PrintDefaults()
	}
	var f queryFlags
	f.register(fs)
	words, err := parseInterleaved(fs, args)
	if err != nil {
		return err
	}
	req, err := f.request(strings.Join(words, " "), getenv("OPENAI_API_KEY") != "")
	if err != nil {
		return err
	}
	if f.format != "text" && f.format != "json" {
		return &review.UsageError{Msg: fmt.Sprintf("--format: unknown format %q (want text or json)", f.format)}
	}
	s, err := loadEvidenceSettings(fs, f.evidenceFlags, getenv, stderr)
	if err != nil {
		return err
	}
	ev, err := openEvidence(ctx, s, stderr)
	if err != nil {
		return err
	}
	defer ev.Close()
	if slices.Contains(req.Channels, retrieval.ChannelDense) && ev.retriever.Dense == nil {
		return fmt.Errorf("query: the dense channel is not available (see the warning above)")
	}
	r := ev.retriever
	if needsSymbols(req) {
		if r, err = ev.withSymbols(ctx); err != nil {
			return err
		}
	}
	var unresolved string
	if needsSymbols(req) {
		if _, ok := r.ResolveSymbol(req.FromDir, req.Symbol); !ok {
			unresolved = req.Symbol
			what := "no Go symbol of the index"
			if req.FromDir != "" {
				what += " seen from " + req.FromDir
			}
			if req.Text != "" {
				fmt.Fprintf(stderr, "docreview query: --symbol %s resolves to %s; showing text matches only\n", req.Symbol, what)
			} else {
				fmt.Fprintf(stderr, "docreview query: --symbol %s resolves to %s; showing text matches for it\n", req.Symbol, what)
			}
		}
	}
	results, err := r.Search(ctx, req)
	if err != nil {
		return fmt.Errorf("query: %w", err)
	}
	hits := make([]hitJSON, len(results))
	for i, r := range results {
		hits[i] = newHit(r)
	}
	if f.format == "json" {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(queryJSON{Hits: hits, UnresolvedSymbol: unresolved}); err != nil {
			return fmt.Errorf("write hits: %w", err)
		}
		return nil
	}
	if err := writeHitsText(stdout, hits, req); err != nil {
		return fmt.Errorf("write hits: %w", err)
	}
	return nil
}

// parseInterleaved parses args with fs, allowing flags after positional
// arguments (the flag package stops at the first one), and returns the
// positional arguments in order. Everything after "--" is positional.
func parseInterleaved(fs *flag.FlagSet, args []string) ([]string, error) {
	var words []string
	for {
		if err := fs.Parse(args); err != nil {
			if err == flag.ErrHelp {
				return nil, err
			}
			return nil, &review.UsageError{Msg: err.Error()}
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return words, nil
		}
		if consumed := len(args) - len(rest); consumed > 0 && args[consumed-1] == "--" {
			return append(words, rest...), nil
		}
		words, args = append(words, rest[0]), rest[1:]
	}
}

// request validates the flags and builds the retrieval request; dense says
// whether the dense channel can be configured.
func (f *queryFlags) request(text string, dense bool) (retrieval.Request, error) {
	req := retrieval.Request{Text: strings.TrimSpace(text), Symbol: strings.TrimSpace(f.symbol), FromDir: f.fromDir, TopK: f.topK}
	if req.Text == "" && req.Symbol == "" {
		return req, &review.UsageError{Msg: "no query: give the query text or --symbol"}
	}
	if f.topK < 1 || f.topK > queryMaxTopK {
		return req, &review.UsageError{Msg: fmt.Sprintf("--top-k: %d is out of range (want 1 to %d)", f.topK, queryMaxTopK)}
	}
	var err error
	if req.Sources, err = parseSources(splitCommas(f.sources)); err != nil {
		return req, &review.UsageError{Msg: "--source: " + err.Error()}
	}
	for _, c := range splitCommas(f.channels) {
		ch := retrieval.Channel(c)
		switch {
		case !slices.Contains(queryChannels, ch):
			return req, &review.UsageError{Msg: fmt.Sprintf("--channels: unknown channel %q (want lexical, structural or dense)", c)}
		case ch == retrieval.ChannelStructural && req.Symbol == "":
			return req, &review.UsageError{Msg: "--channels: the structural channel needs --symbol"}
		case ch == retrieval.ChannelDense && !dense:
			return req, &review.UsageError{Msg: "--channels: the dense channel needs OPENAI_API_KEY"}
		}
		if !slices.Contains(req.Channels, ch) {
			req.Channels = append(req.Channels, ch)
		}
	}
	return req, nil
}

// parseSources validates source names.
func parseSources(names []string) ([]retrieval.Source, error) {
	var out []retrieval.Source
	for _, n := range names {
		s := retrieval.Source(n)
		if !slices.Contains(querySources, s) {
			return nil, fmt.Errorf("unknown source %q (want code, test, example, doc or upstream)", n)
		}
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out, nil
}

// splitCommas splits each value at commas, dropping empty items.
func splitCommas(values []string) []string {
	var out []string
	for _, v := range values {
		for item := range strings.SplitSeq(v, ",") {
			if item = strings.TrimSpace(item); item != "" {
				out = append(out, item)
			}
		}
	}
	return out
}

// queryJSON is the output of 'docreview query --format json', the same
// object the MCP search tool returns.
type queryJSON struct {
	Hits []hitJSON `json:"hits" jsonschema:"ranked hits, best first"`
	// UnresolvedSymbol is the --symbol that resolved to no Go symbol (the
	// hits are then text matches only); omitted when it resolved or none
	// was given.
	UnresolvedSymbol string `json:"unresolved_symbol,omitempty" jsonschema:"the symbol asked for when it resolved to no Go symbol: the hits are text matches only"`
}

// hitJSON is one hit of 'docreview query --format json' and of the MCP
// search tool. Its fields are documented in the README; every field is
// always present.
type hitJSON struct {
	ID        string  `json:"id" jsonschema:"chunk ID: path#start_line"`
	Path      string  `json:"path" jsonschema:"slash path relative to the repository root"`
	StartLine int     `json:"start_line" jsonschema:"first line of the chunk, 1-based"`
	EndLine   int     `json:"end_line" jsonschema:"last line of the chunk, inclusive"`
	Source    string  `json:"source" jsonschema:"code, test, example, doc or upstream"`
	Score     float64 `json:"score" jsonschema:"reciprocal rank fusion score; higher is better"`
	// Ranks maps each channel that returned the hit to its 1-based rank.
	Ranks   map[string]int `json:"ranks" jsonschema:"1-based rank of the hit in each channel that returned it"`
	Why     string         `json:"why" jsonschema:"how the hit was reached"`
	Hops    []string       `json:"hops" jsonschema:"symbol chain from the queried symbol to the hit; empty for text matches"`
	Snippet string         `json:"snippet" jsonschema:"the chunk's text, at most 40 lines"`
}

// newHit converts a fused result.
func newHit(r retrieval.Result) hitJSON {
	h := hitJSON{
		ID: r.Chunk.ID, Path: r.Chunk.Path, StartLine: r.Chunk.StartLine, EndLine: r.Chunk.EndLine,
		Source: string(r.Chunk.Source), Score: math.Round(r.Score*1e6) / 1e6,
		Ranks: map[string]int{}, Why: r.Why, Hops: append([]string{}, r.Hops...),
		Snippet: cutLines(r.Chunk.Text, hitSnippetLines),
	}
	for c, rank := range r.Ranks {
		h.Ranks[string(c)] = rank
	}
	return h
}

// cutLines returns the first n lines of s, followed by a line "…" when s
// has more.
func cutLines(s string, n int) string {
	lines := strings.Split(s, "\n")
	if len(lines) <= n {
		return s
	}
	return strings.Join(lines[:n], "\n") + "\n…"
}

// writeHitsText writes the hits compactly: one block per hit, a header
// line (rank, location, source, score, channel ranks, ID), how it was
// reached, and the first lines of its snippet.
func writeHitsText(w io.Writer, hits []hitJSON, req retrieval.Request) error {
	if len(hits) == 0 {
		subject := req.Text
		if subject == "" {
			subject = req.Symbol
		}
		_, err := fmt.Fprintf(w, "no hits for %q\n", subject)
		return err
	}
	var b strings.Builder
	for i, h := range hits {
		if i > 0 {
			b.WriteByte('\n')
		}
		var ranks []string
		for _, c := range queryChannels {
			if r, ok := h.Ranks[string(c)]; ok {
				ranks = append(ranks, fmt.Sprintf("%s #%d", c, r))
			}
		}
		fmt.Fprintf(&b, "%d. %s:%d-%d  %s  score %.4f  %s  [%s]\n", i+1, h.Path, h.StartLine, h.EndLine,
			h.Source, h.Score, strings.Join(ranks, ", "), h.ID)
		fmt.Fprintf(&b, "   %s", h.Why)
		if len(h.Hops) > 0 {
			fmt.Fprintf(&b, " (hops: %s)", strings.Join(h.Hops, " > "))
		}
		b.WriteByte('\n')
		for _, l := range strings.Split(cutLines(h.Snippet, hitTextLines), "\n") {
			fmt.Fprintf(&b, "   | %s\n", l)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// needsSymbols reports whether req runs the structural channel: it names
// a symbol and does not leave the channel out.
func needsSymbols(req retrieval.Request) bool {
	return strings.TrimSpace(req.Symbol) != "" && (len(req.Channels) == 0 || slices.Contains(req.Channels, retrieval.ChannelStructural))
}
