package retrieval

import (
	"context"
	"fmt"
	"path"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// SymbolInfo is what the symbol table and the index know of one symbol.
type SymbolInfo struct {
	// Symbol is the symbol the name resolved to.
	Symbol Symbol
	// Definition is where it is declared.
	Definition Ref
	// Callees are the repository functions it calls, directly (depth 1)
	// then through one more call (depth 2), each by path and line.
	Callees []Ref
	// Callers, Tests and Examples are as [Symbols.Callers],
	// [Symbols.Tests] and [Symbols.Examples] return them.
	Callers, Tests, Examples []Ref
	// Docs are the Markdown and plain-text sections and the doc comments of
	// other declarations that mention the symbol, best lexical match first.
	// A Markdown Ref has a zero Symbol and covers the section; a doc comment
	// Ref has the declaration as Symbol and covers the comment.
	Docs []Ref
}

// SymbolInfo resolves name as written in the package in fromDir ("" means
// the first package, in directory order, in which it resolves; see
// [Request.FromDir]) and returns its definition, callees, callers, tests,
// examples and the documentation that mentions it. It returns an error if
// r has no Symbols or no Index, the name does not resolve (with the closest
// existing name when there is one), or the index cannot be searched; and
// ctx's error if ctx ends first.
func (r *Retriever) SymbolInfo(ctx context.Context, fromDir, name string) (SymbolInfo, error) {
	switch {
	case r.Symbols == nil:
		return SymbolInfo{}, fmt.Errorf("symbol info %s: retriever has no symbol table", name)
	case r.Index == nil:
		return SymbolInfo{}, fmt.Errorf("symbol info %s: retriever has no index", name)
	}
	if err := ctx.Err(); err != nil {
		return SymbolInfo{}, fmt.Errorf("symbol info %s: %w", name, err)
	}
	sym, ok := r.resolve(fromDir, name)
	if !ok {
		where := "in any package"
		if fromDir != "" {
			where = "from " + fromDir
		}
		dir := fromDir
		if dir == "" {
			dir = "."
		}
		if fix, ok := r.Symbols.Suggest(dir, name); ok {
			return SymbolInfo{}, fmt.Errorf("symbol info %s: no such symbol %s (did you mean %s?)", name, where, fix)
		}
		return SymbolInfo{}, fmt.Errorf("symbol info %s: no such symbol %s", name, where)
	}
	s := r.Symbols
	info := SymbolInfo{
		Symbol:     sym,
		Definition: s.Definition(sym),
		Callees:    calleesByDepth(s.Callees(sym, symMaxDepth)),
		Callers:    s.Callers(sym),
		Tests:      s.Tests(sym),
		Examples:   s.Examples(sym),
	}
	docs, err := r.mentions(ctx, sym, Request{}, retrieverMinDepth, true)
	if err != nil {
		return SymbolInfo{}, fmt.Errorf("symbol info %s: %w", name, err)
	}
	for _, d := range docs {
		info.Docs = append(info.Docs, d.ref)
	}
	return info, nil
}

// resolve looks name up from fromDir, or when fromDir is "" from each
// package in directory order until it resolves.
// ResolveSymbol resolves a [Request.Symbol] as the structural channel does:
// in fromDir, or with fromDir "" in the first package that resolves it. It
// is false without Symbols.
func (r *Retriever) ResolveSymbol(fromDir, name string) (Symbol, bool) {
	if r.Symbols == nil {
		return Symbol{}, false
	}
	return r.resolve(fromDir, name)
}

func (r *Retriever) resolve(fromDir, name string) (Symbol, bool) {
	if fromDir != "" {
		return r.Symbols.Lookup(fromDir, name)
	}
	for _, p := range r.Symbols.Packages() {
		if sym, ok := r.Symbols.Lookup(p.Dir, name); ok {
			return sym, true
		}
	}
	return r.Symbols.Lookup(".", name)
}

// calleesByDepth orders callees by distance from the subject (direct ones
// first), keeping the path and line order within a depth.
func calleesByDepth(refs []Ref) []Ref {
	slices.SortStableFunc(refs, func(a, b Ref) int { return len(a.Hops) - len(b.Hops) })
	return refs
}

// structural is the structural channel: from q.Symbol, its definition, its
// direct callees, its first tests and examples, its depth-2 callees, the
// other tests and examples, its callers and the docs that mention it, each mapped to the chunk holding
// its first line. A chunk reached twice keeps its first (best) place.
func (r *Retriever) structural(ctx context.Context, q Request, depth int) ([]channelHit, error) {
	sym, ok := r.resolve(q.FromDir, q.Symbol)
	if !ok {
		r.logger().Debug("structural channel: symbol does not resolve", retrieverLogSymbol, q.Symbol)
		return nil, nil
	}
	s := r.Symbols
	// Direct callees come before most tests: a claim about behaviour is
	// decided by what the symbol calls, and a heavily tested symbol would
	// otherwise push its callees out of reach. The first few tests and
	// examples still come first, since they show the contract in use.
	callees := calleesByDepth(s.Callees(sym, symMaxDepth))
	direct := 0
	for direct < len(callees) && len(callees[direct].Hops) <= 2 {
		direct++
	}
	tests, examples := s.Tests(sym), s.Examples(sym)
	nt, ne := min(len(tests), 3), min(len(examples), 2)
	refs := []Ref{s.Definition(sym)}
	refs = append(refs, tests[:nt]...)
	refs = append(refs, examples[:ne]...)
	refs = append(refs, callees[:direct]...)
	refs = append(refs, callees[direct:]...)
	refs = append(refs, tests[nt:]...)
	refs = append(refs, examples[ne:]...)
	refs = append(refs, s.Callers(sym)...)

	var out []channelHit
	seen := map[string]bool{}
	add := func(c Chunk, why string, hops []string) {
		if len(out) >= depth || seen[c.ID] || !q.keep(c) {
			return
		}
		seen[c.ID] = true
		out = append(out, channelHit{chunk: c, why: why, hops: slices.Clone(hops)})
	}
	// Map the refs to their chunks in batches (one span query per file,
	// one load per batch) until the list is full: a symbol with hundreds of
	// callers costs no more than needed.
	spans := map[string][]chunkSpan{}
	for from := 0; from < len(refs) && len(out) < depth; from += depth {
		batch := refs[from:min(from+depth, len(refs))]
		ids := make([]string, len(batch))
		var load []string
		for i, ref := range batch {
			if ref.Path == "" || ref.Line < 1 || !strings.HasPrefix(ref.Path, q.PathPrefix) {
				continue
			}
			sp, ok := spans[ref.Path]
			if !ok {
				var err error
				if sp, err = r.Index.chunkSpans(ctx, ref.Path); err != nil {
					return nil, err
				}
				spans[ref.Path] = sp
			}
			if id, ok := chunkSpanAt(sp, ref.Line); ok && !seen[id] {
				ids[i] = id
				load = append(load, id)
			}
		}
		slices.Sort(load)
		chunks, err := r.Index.chunksByID(ctx, slices.Compact(load))
		if err != nil {
			return nil, err
		}
		for i, ref := range batch {
			if c, ok := chunks[ids[i]]; ok {
				add(c, ref.Why, ref.Hops)
			}
		}
	}
	if len(out) < depth {
		docs, err := r.mentions(ctx, sym, q, depth, false)
		if err != nil {
			return nil, err
		}
		for _, d := range docs {
			add(d.chunk, d.ref.Why, d.ref.Hops)
		}
	}
	return out, nil
}

// mention is a chunk of documentation that mentions a symbol, and the Ref
// to the lines that do.
type mention struct {
	chunk Chunk
	ref   Ref
}

// mentions returns the chunks of documentation, among the best k lexical
// matches of sym's name, that mention it, best first: Markdown and plain-text sections, and
// with docComments also the doc comments of other Go declarations. Only
// chunks passing q's filters are searched.
func (r *Retriever) mentions(ctx context.Context, sym Symbol, q Request, k int, docComments bool) ([]mention, error) {
	sources := []Source{SourceDoc}
	if docComments {
		sources = append(sources, SourceCode, SourceTest, SourceExample)
	}
	if len(q.Sources) > 0 {
		sources = slices.DeleteFunc(sources, func(s Source) bool { return !slices.Contains(q.Sources, s) })
		if len(sources) == 0 {
			return nil, nil
		}
	}
	text := sym.Name
	if sym.Kind == SymbolPackage && sym.Package != nil {
		text = "package " + sym.Name
	}
	hits, err := r.Index.Search(ctx, Query{Text: text, TopK: k, Sources: sources, PathPrefix: q.PathPrefix})
	if err != nil {
		return nil, fmt.Errorf("find docs mentioning %s: %w", sym.Name, err)
	}
	why := "mentions " + sym.Name
	var out []mention
	for _, h := range hits {
		c := h.Chunk
		if c.Source == SourceDoc {
			if mentionsSymbol(c.Text, sym) {
				out = append(out, mention{c, Ref{Path: c.Path, Line: c.StartLine, EndLine: c.EndLine, Why: why, Hops: []string{sym.Name, c.Path}}})
			}
			continue
		}
		if c.Lang != "go" || c.Symbol == "" || c.Path == sym.Path && c.StartLine <= sym.Line && sym.Line <= c.EndLine {
			continue
		}
		n := leadingCommentLines(c.Text)
		if n == 0 || !mentionsSymbol(chunkText(strings.Split(c.Text, "\n"), 1, n), sym) {
			continue
		}
		ref := Ref{
			Path: c.Path, Line: c.StartLine, EndLine: c.StartLine + n - 1,
			Why: "doc comment of " + c.Symbol + " " + why, Hops: []string{sym.Name, c.Symbol},
		}
		if r.Symbols != nil {
			if decl, ok := r.Symbols.Lookup(path.Dir(c.Path), c.Symbol); ok {
				ref.Symbol = decl
			}
		}
		out = append(out, mention{c, ref})
	}
	return out, nil
}

// leadingCommentLines counts the "//" comment lines that open a Go chunk:
// its doc comment.
func leadingCommentLines(text string) int {
	n := 0
	for line := range strings.SplitSeq(text, "\n") {
		if !strings.HasPrefix(strings.TrimSpace(line), "//") {
			break
		}
		n++
	}
	return n
}

// mentionsSymbol reports whether text names sym: its name ("Cache.Purge",
// "New") as a whole word, or for a member its last part ("Purge"). An
// unexported last part ("run", "mark") counts only when written as code:
// after a dot, before "(", or in backquotes; as a plain word it is most
// likely prose. Matching is case-sensitive.
func mentionsSymbol(text string, sym Symbol) bool {
	if len(findWords(text, sym.Name)) > 0 {
		return true
	}
	i := strings.LastIndexByte(sym.Name, '.')
	if i < 0 {
		return false
	}
	last := sym.Name[i+1:]
	r, _ := utf8.DecodeRuneInString(last)
	for _, at := range findWords(text, last) {
		before, _ := utf8.DecodeLastRuneInString(text[:at])
		after, _ := utf8.DecodeRuneInString(text[at+len(last):])
		if unicode.IsUpper(r) || before == '.' || before == '`' || after == '(' || after == '`' {
			return true
		}
	}
	return false
}

// findWords returns the offsets of the occurrences of w in s with no
// letter, digit or underscore right before or after them.
func findWords(s, w string) []int {
	if w == "" {
		return nil
	}
	var out []int
	for off := 0; ; {
		i := strings.Index(s[off:], w)
		if i < 0 {
			return out
		}
		i += off
		before, _ := utf8.DecodeLastRuneInString(s[:i])
		after, _ := utf8.DecodeRuneInString(s[i+len(w):])
		if !isWordRune(before) && !isWordRune(after) {
			out = append(out, i)
		}
		off = i + 1
	}
}

func isWordRune(r rune) bool {
	return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r)
}
