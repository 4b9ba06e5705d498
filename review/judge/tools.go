package judge

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/openai/openai-go"

	"github.com/docreview/docreview/retrieval"
	"github.com/docreview/docreview/review"
)

// Tool limits.
const (
	// readMaxLines is the most lines one read call returns.
	readMaxLines = 200
	// hitMaxLines is the most lines shown of one search hit; preMaxLines
	// of one pre-retrieved hit (the model can read more).
	hitMaxLines = 20
	preMaxLines = 12
	// symbolMaxLines is the most lines shown of a symbol's definition.
	symbolMaxLines = 60
	// searchMaxTopK and searchDefaultTopK bound search's top_k.
	searchMaxTopK     = 8
	searchDefaultTopK = 5
	// refsMax is the most callees, callers, tests or examples listed.
	refsMax = 8
)

// heads reads files at head, once each.
type heads struct {
	fsys  fs.FS
	files map[string]bool // nil: every file of fsys
	mu    sync.Mutex
	lines map[string][]string
}

func newHeads(ws *review.Workspace) *heads {
	h := &heads{fsys: ws.HeadFS, lines: map[string][]string{}}
	if len(ws.HeadFiles) > 0 {
		h.files = map[string]bool{}
		for _, f := range ws.HeadFiles {
			h.files[f] = true
		}
	}
	return h
}

// get returns the lines of a text file at head the review covers; false
// when there is no such file.
func (h *heads) get(path string) ([]string, bool) {
	if h == nil || h.fsys == nil || !fs.ValidPath(path) || path == "." || (h.files != nil && !h.files[path]) {
		return nil, false
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if l, ok := h.lines[path]; ok {
		return l, l != nil
	}
	data, err := fs.ReadFile(h.fsys, path)
	if err != nil {
		h.lines[path] = nil
		return nil, false
	}
	s := strings.ReplaceAll(string(data), "\r\n", "\n")
	s = strings.TrimSuffix(s, "\n")
	l := strings.Split(s, "\n")
	h.lines[path] = l
	return l, true
}

// text returns lines start..end (1-based, inclusive) of path joined with
// "\n"; false when they do not exist at head.
func (h *heads) text(path string, start, end int) (string, bool) {
	l, ok := h.get(path)
	if !ok || start < 1 || end < start || end > len(l) {
		return "", false
	}
	return strings.Join(l[start-1:end], "\n"), true
}

// seenRange is a range of a head file shown to the model.
type seenRange struct {
	Path       string
	Start, End int
	// Via says how it was reached: "pre-retrieved", "search \"q\"",
	// "read", "symbol Store.Hold".
	Via string
}

// seen is what one conversation showed the model.
type seen struct {
	mu     sync.Mutex
	ranges []seenRange
}

func (s *seen) add(r seenRange) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.ranges = append(s.ranges, r)
}

// covering returns how the lines start..end of path were shown: the Via of
// the latest range holding start, when every line was shown by some range.
func (s *seen) covering(path string, start, end int) (string, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	via := ""
	for line := start; line <= end; line++ {
		found := false
		for _, r := range slices.Backward(s.ranges) {
			if r.Path == path && r.Start <= line && line <= r.End {
				if via == "" {
					via = r.Via
				}
				found = true
				break
			}
		}
		if !found {
			return "", false
		}
	}
	return via, true
}

func (s *seen) list() []seenRange {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.ranges)
}

// escapeData keeps repository text from closing the data delimiters.
func escapeData(s string) string {
	s = strings.ReplaceAll(s, "</repository-data", "<\\/repository-data")
	return strings.ReplaceAll(s, "<repository-data", "<\\repository-data")
}

// numbered writes lines start..end of l with their numbers and a tab.
func numbered(b *strings.Builder, l []string, start, end int) {
	for n := start; n <= end; n++ {
		fmt.Fprintf(b, "%d\t%s\n", n, escapeData(l[n-1]))
	}
}

// show writes a hit-like block of lines start..end of path (clipped to
// maxLines) and records it; it returns false when the lines are not at
// head.
func (r *run) show(b *strings.Builder, sn *seen, path string, start, end, maxLines int, attrs, via string) bool {
	l, ok := r.heads.get(path)
	if !ok || start < 1 || start > len(l) {
		return false
	}
	end = min(end, len(l), start+maxLines-1)
	if end < start {
		return false
	}
	if _, ok := sn.covering(path, start, end); ok {
		// Shown before in this conversation: a reference saves the tokens.
		fmt.Fprintf(b, "<lines path=%s start=\"%d\" end=\"%d\"%s shown=\"earlier in this conversation\"/>\n", strconv.Quote(path), start, end, attrs)
		sn.add(seenRange{Path: path, Start: start, End: end, Via: via})
		return true
	}
	fmt.Fprintf(b, "<lines path=%s start=\"%d\" end=\"%d\"%s>\n", strconv.Quote(path), start, end, attrs)
	numbered(b, l, start, end)
	b.WriteString("</lines>\n")
	sn.add(seenRange{Path: path, Start: start, End: end, Via: via})
	return true
}

// toolDefs returns the three tools, with strict parameter schemas.
func toolDefs() []openai.ChatCompletionToolParam {
	def := func(name, desc string, props map[string]any) openai.ChatCompletionToolParam {
		req := make([]string, 0, len(props))
		for k := range props {
			req = append(req, k)
		}
		slices.Sort(req)
		return openai.ChatCompletionToolParam{Function: openai.FunctionDefinitionParam{
			Name: name, Description: openai.String(desc), Strict: openai.Bool(true),
			Parameters: openai.FunctionParameters{"type": "object", "properties": props, "required": req, "additionalProperties": false},
		}}
	}
	str := func(d string) map[string]any { return map[string]any{"type": "string", "description": d} }
	num := func(d string) map[string]any { return map[string]any{"type": "integer", "description": d} }
	return []openai.ChatCompletionToolParam{
		def("search", "Search the repository (BM25 over code, tests, examples and docs, fused with the Go symbol graph). Returns the best chunks with their line-numbered text.",
			map[string]any{
				"query":  str("identifiers or a behaviour phrase"),
				"top_k":  num(fmt.Sprintf("number of hits, 1 to %d", searchMaxTopK)),
				"source": map[string]any{"type": "string", "enum": []string{"code", "test", "example", "doc", "any"}, "description": "keep only hits of this source"},
			}),
		def("read", fmt.Sprintf("Read lines of a file at the reviewed commit, at most %d per call, each prefixed with its number and a tab.", readMaxLines),
			map[string]any{
				"path":       str("slash path relative to the repository root"),
				"start_line": num("first line, 1-based"),
				"end_line":   num("last line, inclusive"),
			}),
		def("symbol", "Look up a Go symbol (Store.Hold, pkg.Name): its signature and definition, and where its callees, callers, tests and examples are.",
			map[string]any{"name": str("the symbol")}),
	}
}

// runTool answers one tool call; a bad call is an "error: ..." result for
// the model, never a failure of the conversation.
func (r *run) runTool(ctx context.Context, sn *seen, c review.Claim, name, args string) string {
	var a struct {
		Query     string `json:"query"`
		TopK      int    `json:"top_k"`
		Source    string `json:"source"`
		Path      string `json:"path"`
		StartLine int    `json:"start_line"`
		EndLine   int    `json:"end_line"`
		Name      string `json:"name"`
	}
	if err := json.Unmarshal([]byte(args), &a); err != nil {
		return "error: arguments are not a JSON object: " + err.Error()
	}
	switch name {
	case "search":
		return r.toolSearch(ctx, sn, a.Query, a.TopK, a.Source)
	case "read":
		return r.toolRead(sn, a.Path, a.StartLine, a.EndLine)
	case "symbol":
		return r.toolSymbol(ctx, sn, c, a.Name)
	}
	return fmt.Sprintf("error: unknown tool %q (want search, read or symbol)", name)
}

func (r *run) toolSearch(ctx context.Context, sn *seen, query string, topK int, source string) string {
	if strings.TrimSpace(query) == "" {
		return "error: empty query"
	}
	if r.ws.Retriever == nil {
		return "error: search is not available in this review"
	}
	if topK <= 0 {
		topK = searchDefaultTopK
	}
	topK = min(topK, searchMaxTopK)
	req := retrieval.Request{Text: query, TopK: topK}
	switch source {
	case "", "any":
	case "code", "test", "example", "doc":
		req.Sources = []retrieval.Source{retrieval.Source(source)}
	default:
		return fmt.Sprintf("error: unknown source %q (want code, test, example, doc or any)", source)
	}
	hits, err := r.ws.Retriever.Search(ctx, req)
	if err != nil {
		return "error: " + err.Error()
	}
	var b strings.Builder
	b.WriteString("<repository-data>\n")
	n := 0
	for _, h := range hits {
		ch := h.Chunk
		attrs := fmt.Sprintf(" source=%q why=%s", ch.Source, strconv.Quote(h.Why))
		if r.show(&b, sn, ch.Path, ch.StartLine, ch.EndLine, hitMaxLines, attrs, "search "+strconv.Quote(query)) {
			n++
		}
	}
	b.WriteString("</repository-data>\n")
	if n == 0 {
		return "no hits"
	}
	return b.String()
}

func (r *run) toolRead(sn *seen, path string, start, end int) string {
	l, ok := r.heads.get(path)
	if !ok {
		return fmt.Sprintf("error: no file %q at the reviewed commit", path)
	}
	start = max(start, 1)
	if start > len(l) {
		return fmt.Sprintf("error: %s has %d lines", path, len(l))
	}
	if end < start {
		end = start + readMaxLines - 1
	}
	var b strings.Builder
	b.WriteString("<repository-data>\n")
	r.show(&b, sn, path, start, end, readMaxLines, fmt.Sprintf(" lines_in_file=\"%d\"", len(l)), "read")
	b.WriteString("</repository-data>\n")
	return b.String()
}

func (r *run) toolSymbol(ctx context.Context, sn *seen, c review.Claim, name string) string {
	if strings.TrimSpace(name) == "" {
		return "error: empty name"
	}
	if r.ws.Retriever == nil {
		return "error: symbol lookup is not available in this review"
	}
	info, err := r.ws.Retriever.SymbolInfo(ctx, c.Package, name)
	if err != nil && c.Package != "" {
		info, err = r.ws.Retriever.SymbolInfo(ctx, "", name)
	}
	if err != nil {
		return "error: " + err.Error()
	}
	s := info.Symbol
	var b strings.Builder
	b.WriteString("<repository-data>\n")
	pkg := ""
	if s.Package != nil {
		pkg = s.Package.Dir
	}
	fmt.Fprintf(&b, "symbol %s (%s) in package directory %s\nsignature: %s\n", s.Name, s.Kind, strconv.Quote(pkg), s.Signature)
	if d := info.Definition; d.Path != "" {
		start := d.Line
		if s.DocLine > 0 && s.DocLine < start {
			start = s.DocLine
		}
		r.show(&b, sn, d.Path, start, d.EndLine, symbolMaxLines, " what=\"definition\"", "symbol "+s.Name)
	}
	for _, g := range []struct {
		name string
		refs []retrieval.Ref
	}{{"callees", info.Callees}, {"callers", info.Callers}, {"tests", info.Tests}, {"examples", info.Examples}} {
		if len(g.refs) == 0 {
			continue
		}
		fmt.Fprintf(&b, "%s:\n", g.name)
		for _, ref := range g.refs[:min(len(g.refs), refsMax)] {
			fmt.Fprintf(&b, "  %s:%d-%d %s (%s)\n", ref.Path, ref.Line, ref.EndLine, ref.Symbol.Name, ref.Why)
		}
		if len(g.refs) > refsMax {
			fmt.Fprintf(&b, "  ... %d more\n", len(g.refs)-refsMax)
		}
	}
	b.WriteString("</repository-data>\n")
	return b.String()
}

// preRetrieve shows the model the top k fused hits for c (its text and
// symbol), leaving out the claim's own lines, and returns how many it
// showed.
func (r *run) preRetrieve(ctx context.Context, b *strings.Builder, sn *seen, c review.Claim, k int) int {
	if r.ws.Retriever == nil {
		return 0
	}
	words := strings.Fields(c.Text)
	q := retrieval.Request{Text: strings.Join(words[:min(len(words), 60)], " "), TopK: k + 2}
	if strings.TrimSpace(q.Text) == "" {
		q.Text = c.Symbol
	}
	if c.Symbol != "" && !strings.HasPrefix(c.Symbol, "package ") {
		q.Symbol, q.FromDir = c.Symbol, c.Package
	}
	hits, err := r.ws.Retriever.Search(ctx, q)
	if err != nil {
		r.j.log.Debug("pre-retrieval failed", logClaimID, c.ID, logErr, err)
		return 0
	}
	n := 0
	for _, h := range hits {
		ch := h.Chunk
		if n >= k {
			break
		}
		if ch.Path == c.Path && ch.StartLine >= c.Line && ch.EndLine <= c.EndLine {
			continue // the claim itself
		}
		attrs := fmt.Sprintf(" source=%q why=%s", ch.Source, strconv.Quote(h.Why))
		if r.show(b, sn, ch.Path, ch.StartLine, ch.EndLine, preMaxLines, attrs, "pre-retrieved") {
			n++
		}
	}
	return n
}
