package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/docreview/docreview/retrieval"
	"github.com/docreview/docreview/review"
)

// MCP tool bounds.
const (
	// mcpReadMaxLines bounds the lines one read returns; with no end_line,
	// read returns up to this many lines from start_line.
	mcpReadMaxLines = 400
	// mcpSearchDefaultTopK is the number of hits when top_k is 0.
	mcpSearchDefaultTopK = 10
	// mcpSearchMaxTopK bounds top_k.
	mcpSearchMaxTopK = 50
)

// mcpInstructions tells the client what the server offers.
const mcpInstructions = `docreview serves the evidence index of one git repository at one commit.
search finds code, tests, examples and docs by text and/or Go symbol; read returns numbered lines of a file;
symbol returns a Go symbol's definition, callees, callers, tests, examples and the docs that mention it.
Paths are slash paths relative to the repository root; lines are 1-based.
When the index holds the APIs of the module's dependencies (source upstream), their paths start with
@upstream/MODULE@VERSION/; search finds them, read does not open them.`

// runMCP implements 'docreview mcp': an MCP server over stdin and stdout.
func runMCP(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer, getenv func(string) string) error {
	fs := flag.NewFlagSet("docreview mcp", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var f evidenceFlags
	f.register(fs, false)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return &review.UsageError{Msg: fmt.Sprintf("unexpected argument %q", fs.Arg(0))}
	}
	s, err := loadEvidenceSettings(fs, f, getenv, stderr)
	if err != nil {
		return err
	}
	if _, err := openRepo(ctx, s.repo); err != nil {
		return err
	}

	// The index, then the symbols, load while the client connects; a
	// tool waits only for what it uses (a text search for the index).
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	tools := &mcpTools{ready: make(chan struct{}), symReady: make(chan struct{})}
	var loading sync.WaitGroup
	loading.Go(func() {
		defer close(tools.symReady)
		func() {
			defer close(tools.ready)
			tools.ev, tools.err = openEvidence(ctx, s, stderr)
			if tools.err != nil && ctx.Err() == nil {
				s.logger.Error("load the evidence index", "err", tools.err)
			}
		}()
		if tools.err != nil {
			return
		}
		tools.withSyms, tools.symErr = tools.ev.withSymbols(ctx)
		if tools.symErr != nil && ctx.Err() == nil {
			s.logger.Error("load the Go symbols", "err", tools.symErr)
		}
	})
	defer func() {
		cancel()
		loading.Wait()
		if tools.ev != nil {
			_ = tools.ev.Close()
		}
	}()

	server := newMCPServer(tools, s)
	t := &mcp.IOTransport{Reader: io.NopCloser(stdin), Writer: nopWriteCloser{stdout}}
	if err := server.Run(ctx, t); err != nil && !errors.Is(err, context.Canceled) {
		return fmt.Errorf("mcp server: %w", err)
	}
	return nil
}

// nopWriteCloser is an io.WriteCloser whose Close does nothing: stdout
// belongs to the process.
type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }

// newMCPServer returns the server with the search, read and symbol tools.
func newMCPServer(t *mcpTools, s evidenceSettings) *mcp.Server {
	server := mcp.NewServer(&mcp.Implementation{Name: "docreview", Version: version},
		&mcp.ServerOptions{Instructions: mcpInstructions, Logger: s.logger})
	readOnly := &mcp.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true}
	mcp.AddTool(server, &mcp.Tool{
		Name:        "search",
		Description: "Search the repository's code, tests, examples and docs. Give query (identifiers or a behaviour phrase) and/or symbol (a Go symbol such as Store.Hold, whose definition, tests, callees and callers then rank high). Returns ranked hits with path, lines, source, why and a snippet.",
		Annotations: readOnly,
	}, t.search)
	mcp.AddTool(server, &mcp.Tool{
		Name:        "read",
		Description: fmt.Sprintf("Read lines of a file at the indexed commit, numbered. start_line defaults to 1; end_line defaults to %d lines from start_line and is clipped to the end of the file.", mcpReadMaxLines),
		Annotations: readOnly,
	}, t.read)
	mcp.AddTool(server, &mcp.Tool{
		Name:        "symbol",
		Description: "Describe a Go symbol (Store.Hold, pkg.Name): its definition, the functions it calls and that call it, the tests and examples that use it, and the docs that mention it, each with path, lines and why.",
		Annotations: readOnly,
	}, t.symbol)
	return server
}

// mcpTools implements the tools over the evidence, which loads in the
// background: ready is closed when ev or err is set.
type mcpTools struct {
	ready chan struct{}
	ev    *evidence
	err   error
	// symReady is closed when withSyms (the retriever with the Go
	// symbols) or symErr is set, after ready.
	symReady chan struct{}
	withSyms *retrieval.Retriever
	symErr   error
}

// retriever waits for the evidence to load, and with symbols for the Go
// symbols too.
func (t *mcpTools) retriever(ctx context.Context, symbols bool) (*retrieval.Retriever, error) {
	ready := t.ready
	if symbols {
		ready = t.symReady
	}
	select {
	case <-ready:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	if t.err != nil {
		return nil, fmt.Errorf("the evidence index is not available: %w", t.err)
	}
	if !symbols {
		return t.ev.retriever, nil
	}
	if t.symErr != nil {
		return nil, fmt.Errorf("the Go symbols are not available: %w", t.symErr)
	}
	return t.withSyms, nil
}

// searchInput is the input of the search tool.
type searchInput struct {
	Query   string   `json:"query,omitempty" jsonschema:"free text: identifiers or a behaviour phrase"`
	TopK    int      `json:"top_k,omitempty" jsonschema:"maximum number of hits, 1 to 50 (default 10)"`
	Source  []string `json:"source,omitempty" jsonschema:"keep only hits of these sources: code, test, example, doc, upstream (default all)"`
	Symbol  string   `json:"symbol,omitempty" jsonschema:"subject Go symbol, such as Store.Hold or pkg.Name"`
	FromDir string   `json:"from_dir,omitempty" jsonschema:"package directory the symbol is written in, . for the root (default: the first package that resolves it)"`
}

// searchOutput is the output of the search tool: the object 'docreview
// query --format json' prints.
type searchOutput = queryJSON

func (t *mcpTools) search(ctx context.Context, _ *mcp.CallToolRequest, in searchInput) (*mcp.CallToolResult, searchOutput, error) {
	out := searchOutput{Hits: []hitJSON{}}
	if strings.TrimSpace(in.Query) == "" && strings.TrimSpace(in.Symbol) == "" {
		return nil, out, errors.New("search: give query or symbol")
	}
	topK := in.TopK
	if topK == 0 {
		topK = mcpSearchDefaultTopK
	}
	if topK < 1 || topK > mcpSearchMaxTopK {
		return nil, out, fmt.Errorf("search: top_k %d is out of range (want 1 to %d)", in.TopK, mcpSearchMaxTopK)
	}
	sources, err := parseSources(splitCommas(in.Source))
	if err != nil {
		return nil, out, fmt.Errorf("search: source: %w", err)
	}
	r, err := t.retriever(ctx, strings.TrimSpace(in.Symbol) != "")
	if err != nil {
		return nil, out, err
	}
	if sym := strings.TrimSpace(in.Symbol); sym != "" {
		if _, ok := r.ResolveSymbol(in.FromDir, sym); !ok {
			out.UnresolvedSymbol = sym
		}
	}
	results, err := r.Search(ctx, retrieval.Request{
		Text: strings.TrimSpace(in.Query), Symbol: strings.TrimSpace(in.Symbol), FromDir: in.FromDir,
		TopK: topK, Sources: sources,
	})
	if err != nil {
		return nil, out, err
	}
	for _, res := range results {
		out.Hits = append(out.Hits, newHit(res))
	}
	return nil, out, nil
}

// readInput is the input of the read tool.
type readInput struct {
	Path      string `json:"path" jsonschema:"slash path relative to the repository root"`
	StartLine int    `json:"start_line,omitempty" jsonschema:"first line, 1-based (default 1)"`
	EndLine   int    `json:"end_line,omitempty" jsonschema:"last line, inclusive (default: start_line + 399, clipped to the end of the file)"`
}

func (t *mcpTools) read(ctx context.Context, _ *mcp.CallToolRequest, in readInput) (*mcp.CallToolResult, any, error) {
	r, err := t.retriever(ctx, false)
	if err != nil {
		return nil, nil, err
	}
	start, end := in.StartLine, in.EndLine
	if start == 0 {
		start = 1
	}
	n, err := lineCount(r.FS, in.Path)
	if err != nil {
		return nil, nil, err
	}
	switch {
	case start < 1:
		return nil, nil, fmt.Errorf("read %s: start_line %d is below 1", in.Path, start)
	case start > n:
		return nil, nil, fmt.Errorf("read %s: start_line %d is past the end of the file (%d lines)", in.Path, start, n)
	case end == 0:
		end = start + mcpReadMaxLines - 1
	case end < start:
		return nil, nil, fmt.Errorf("read %s: end_line %d is before start_line %d", in.Path, end, start)
	case end-start+1 > mcpReadMaxLines:
		return nil, nil, fmt.Errorf("read %s: %d lines asked, at most %d per call", in.Path, end-start+1, mcpReadMaxLines)
	}
	end = min(end, n)
	text, err := r.Read(ctx, in.Path, start, end)
	if err != nil {
		return nil, nil, err
	}
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: numberLines(text, start)}}}, nil, nil
}

// lineCount returns the number of lines of the file at path in fsys, or
// an error naming the path when there is no such file.
func lineCount(fsys fs.FS, path string) (int, error) {
	if fsys == nil {
		return 0, fmt.Errorf("read %s: no files loaded", path)
	}
	if !fs.ValidPath(path) || path == "." {
		return 0, fmt.Errorf("read %q: invalid path (want a slash path relative to the repository root)", path)
	}
	data, err := fs.ReadFile(fsys, path)
	if errors.Is(err, fs.ErrNotExist) {
		return 0, fmt.Errorf("read %s: no such file at the indexed commit", path)
	}
	if err != nil {
		return 0, fmt.Errorf("read %s: %w", path, err)
	}
	if len(data) == 0 {
		return 0, nil
	}
	n := strings.Count(string(data), "\n")
	if data[len(data)-1] != '\n' {
		n++
	}
	return n, nil
}

// numberLines prefixes each line of text with its number, starting at
// first, right-aligned and followed by a tab.
func numberLines(text string, first int) string {
	lines := strings.Split(text, "\n")
	width := len(fmt.Sprint(first + len(lines) - 1))
	var b strings.Builder
	for i, l := range lines {
		fmt.Fprintf(&b, "%*d\t%s\n", width, first+i, l)
	}
	return b.String()
}

// symbolInput is the input of the symbol tool.
type symbolInput struct {
	Name    string `json:"name" jsonschema:"Go symbol: Store.Hold, New, pkg.Name, Options.Timeout"`
	FromDir string `json:"from_dir,omitempty" jsonschema:"package directory the name is written in, . for the root (default: the first package that resolves it)"`
}

// refJSON is one piece of evidence about a symbol.
type refJSON struct {
	Symbol    string   `json:"symbol" jsonschema:"the symbol the evidence is (callee, caller, test); empty for docs"`
	Path      string   `json:"path" jsonschema:"slash path relative to the repository root"`
	StartLine int      `json:"start_line"`
	EndLine   int      `json:"end_line"`
	Why       string   `json:"why" jsonschema:"how it was reached"`
	Hops      []string `json:"hops" jsonschema:"symbol chain from the queried symbol"`
}

// symbolOutput is the output of the symbol tool.
type symbolOutput struct {
	Name       string    `json:"name" jsonschema:"the symbol, qualified within its package"`
	Kind       string    `json:"kind" jsonschema:"package, func, method, type, field, const or var"`
	Package    string    `json:"package" jsonschema:"import path of its package"`
	Signature  string    `json:"signature"`
	Doc        string    `json:"doc" jsonschema:"its doc comment"`
	Definition refJSON   `json:"definition"`
	Callees    []refJSON `json:"callees"`
	Callers    []refJSON `json:"callers"`
	Tests      []refJSON `json:"tests"`
	Examples   []refJSON `json:"examples"`
	Docs       []refJSON `json:"docs" jsonschema:"Markdown sections and doc comments that mention it"`
}

func (t *mcpTools) symbol(ctx context.Context, _ *mcp.CallToolRequest, in symbolInput) (*mcp.CallToolResult, symbolOutput, error) {
	if strings.TrimSpace(in.Name) == "" {
		return nil, symbolOutput{}, errors.New("symbol: name is empty")
	}
	r, err := t.retriever(ctx, true)
	if err != nil {
		return nil, symbolOutput{}, err
	}
	info, err := r.SymbolInfo(ctx, in.FromDir, strings.TrimSpace(in.Name))
	if err != nil {
		return nil, symbolOutput{}, err
	}
	out := symbolOutput{
		Name: info.Symbol.Name, Kind: string(info.Symbol.Kind), Signature: info.Symbol.Signature, Doc: info.Symbol.Doc,
		Definition: newRef(info.Definition),
		Callees:    newRefs(info.Callees), Callers: newRefs(info.Callers),
		Tests: newRefs(info.Tests), Examples: newRefs(info.Examples), Docs: newRefs(info.Docs),
	}
	if info.Symbol.Package != nil {
		out.Package = info.Symbol.Package.ImportPath
	}
	return nil, out, nil
}

func newRef(r retrieval.Ref) refJSON {
	return refJSON{Symbol: r.Symbol.Name, Path: r.Path, StartLine: r.Line, EndLine: r.EndLine, Why: r.Why, Hops: append([]string{}, r.Hops...)}
}

func newRefs(rs []retrieval.Ref) []refJSON {
	out := make([]refJSON, len(rs))
	for i, r := range rs {
		out[i] = newRef(r)
	}
	return out
}
