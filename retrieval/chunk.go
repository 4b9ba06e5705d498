package retrieval

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"path"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Source says what kind of file, or part of a file, a [Chunk] comes from.
// Judges weigh evidence by it: a test or an example shows behaviour, a doc
// only restates it.
type Source string

// The sources a chunk can have.
const (
	// SourceCode is non-test Go code and any other non-documentation file.
	SourceCode Source = "code"
	// SourceTest is a Go _test.go file, except its Example functions.
	SourceTest Source = "test"
	// SourceExample is a Go Example function of a _test.go file.
	SourceExample Source = "example"
	// SourceDoc is Markdown, plain text (.txt) or reStructuredText (.rst).
	SourceDoc Source = "doc"
	// SourceUpstream is documentation or code of a dependency. [ChunkFile]
	// never assigns it; callers that index upstream material set it.
	SourceUpstream Source = "upstream"
)

// Chunk is the unit docreview indexes and retrieves: a Go declaration, a
// Markdown section or a window of lines of one file.
type Chunk struct {
	// ID is "Path#StartLine", stable across runs for unchanged files. When
	// two chunks of a file start on the same line, the later ones get a
	// "~2", "~3", ... suffix.
	ID string
	// Path is the slash-separated file path the chunk was made from, as
	// given to [ChunkFile].
	Path string
	// StartLine and EndLine are the 1-based, inclusive lines of Path the
	// chunk covers.
	StartLine, EndLine int
	Source             Source
	// Symbol names the Go declaration: "Cache.Purge" for a method, "Options"
	// for a type, the first name of a const or var block, "package cache"
	// for the package clause. Empty for other files.
	Symbol string
	// Heading is the Markdown heading path of a section, outermost first:
	// "Install > From source". Empty for text before the first heading and
	// for other files.
	Heading string
	// Lang is "go", "markdown", or the file's extension without the dot
	// ("yaml", "txt"); empty for files without an extension.
	Lang string
	// Text is the chunk's lines, newline-separated, without carriage returns
	// or a final newline. For a Go type, Text ends with a summary block that
	// lists the signatures of the type's methods declared in the same file;
	// those lines are not part of StartLine..EndLine.
	Text string
}

// Chunking parameters. A window covers chunkWindowLines lines and overlaps
// the previous one by chunkWindowOverlap lines; a Markdown section longer
// than chunkSectionMaxLines is split into windows.
const (
	chunkWindowLines     = 40
	chunkWindowOverlap   = 10
	chunkSectionMaxLines = 80
)

// ChunkFile splits the file at path (slash-separated, used for IDs,
// language and source) with contents src into chunks, in file order.
//
// Go files get one chunk per func or method (doc comment included), per
// type (its same-file method signatures appended to Text), per const or var
// block, and one for the package clause with the package doc and imports;
// a Go file that does not parse is split into line windows instead.
// Markdown files (.md, .markdown) get one chunk per section: a heading with
// its content and its subsections while that fits in about 80 lines, else
// the heading's own content, split into windows if long, followed by each
// subsection on its own. Other files get windows of 40 lines overlapping by
// 10. Blank-only files and windows give no chunks. Invalid UTF-8 is
// replaced by U+FFFD (one per run of bad bytes), so chunk text is always
// valid UTF-8. ChunkFile never fails: any input gives a result.
func ChunkFile(path string, src []byte) []Chunk {
	if !utf8.Valid(src) {
		src = bytes.ToValidUTF8(src, []byte(string(utf8.RuneError)))
	}
	lines := chunkSplitLines(src)
	ext := chunkExt(path)
	var chunks []Chunk
	switch ext {
	case "go":
		chunks = chunkGo(path, src, lines)
	case "md", "markdown":
		chunks = chunkMarkdown(path, lines)
	default:
		source := SourceCode
		if ext == "txt" || ext == "rst" {
			source = SourceDoc
		}
		chunks = chunkWindows(path, lines, 1, len(lines), source, ext, "")
	}
	chunkAssignIDs(chunks)
	return chunks
}

// chunkExt returns path's extension, lower case and without the dot.
func chunkExt(p string) string {
	return strings.ToLower(strings.TrimPrefix(path.Ext(p), "."))
}

// chunkSplitLines splits src into lines without their "\n" or "\r\n"; a
// final newline does not start another line.
func chunkSplitLines(src []byte) []string {
	if len(src) == 0 {
		return nil
	}
	s := strings.TrimSuffix(string(src), "\n")
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimSuffix(l, "\r")
	}
	return lines
}

// chunkAssignIDs sets each chunk's ID to "path#start", suffixing repeats.
func chunkAssignIDs(chunks []Chunk) {
	seen := make(map[string]int, len(chunks))
	for i := range chunks {
		id := fmt.Sprintf("%s#%d", chunks[i].Path, chunks[i].StartLine)
		seen[id]++
		if n := seen[id]; n > 1 {
			id = fmt.Sprintf("%s~%d", id, n)
		}
		chunks[i].ID = id
	}
}

// chunkBlank reports whether lines[start-1:end] are all blank.
func chunkBlank(lines []string, start, end int) bool {
	for i := start; i <= end; i++ {
		if strings.TrimSpace(lines[i-1]) != "" {
			return false
		}
	}
	return true
}

// chunkTrimEnd returns end moved up past trailing blank lines, not below
// start.
func chunkTrimEnd(lines []string, start, end int) int {
	for end > start && strings.TrimSpace(lines[end-1]) == "" {
		end--
	}
	return end
}

// chunkText joins lines start..end (1-based, inclusive).
func chunkText(lines []string, start, end int) string {
	return strings.Join(lines[start-1:end], "\n")
}

// chunkWindows splits lines start..end into windows of chunkWindowLines
// overlapping by chunkWindowOverlap, dropping blank windows and trailing
// blank lines.
func chunkWindows(p string, lines []string, start, end int, src Source, lang, heading string) []Chunk {
	var out []Chunk
	step := chunkWindowLines - chunkWindowOverlap
	for s := start; s <= end; s += step {
		e := min(s+chunkWindowLines-1, end)
		if !chunkBlank(lines, s, e) {
			e2 := chunkTrimEnd(lines, s, e)
			out = append(out, Chunk{
				Path: p, StartLine: s, EndLine: e2, Source: src,
				Heading: heading, Lang: lang, Text: chunkText(lines, s, e2),
			})
		}
		if e == end {
			break
		}
	}
	return out
}

// chunkGo chunks a Go file by declaration, or by windows if it does not
// parse.
func chunkGo(p string, src []byte, lines []string) []Chunk {
	g := chunkGoFile{path: p, lines: lines, source: SourceCode, fset: token.NewFileSet()}
	if strings.HasSuffix(p, "_test.go") {
		g.source = SourceTest
	}
	f, err := parser.ParseFile(g.fset, p, src, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return chunkWindows(p, lines, 1, len(lines), g.source, "go", "")
	}

	// Method signatures by receiver type, in source order, for the type
	// summaries.
	methods := make(map[string][]string)
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv != nil && len(fd.Recv.List) > 0 {
			recv := chunkRecvName(fd.Recv.List[0].Type)
			methods[recv] = append(methods[recv], chunkSignature(fd))
		}
	}

	pkgEnd := g.line(f.Name.End())
	var chunks []Chunk
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			name, src := d.Name.Name, g.source
			if d.Recv != nil && len(d.Recv.List) > 0 {
				name = chunkRecvName(d.Recv.List[0].Type) + "." + name
			} else if g.source == SourceTest && chunkIsExample(name) {
				src = SourceExample
			}
			chunks = append(chunks, g.chunk(g.start(d.Doc, d.Pos()), g.line(d.End()), name, src))
		case *ast.GenDecl:
			switch d.Tok {
			case token.IMPORT:
				pkgEnd = max(pkgEnd, g.line(d.End()))
			case token.CONST, token.VAR:
				chunks = append(chunks, g.chunk(g.start(d.Doc, d.Pos()), g.line(d.End()), chunkValueName(d), g.source))
			case token.TYPE:
				chunks = append(chunks, g.types(d, methods)...)
			}
		}
	}
	pkg := g.chunk(g.start(f.Doc, f.Package), pkgEnd, "package "+f.Name.Name, g.source)
	return append([]Chunk{pkg}, chunks...)
}

// chunkGoFile holds what chunkGo needs to turn declarations into chunks.
type chunkGoFile struct {
	path   string
	lines  []string
	source Source // of the file: code or test
	fset   *token.FileSet
}

// line is the line of pos in the file itself, ignoring //line directives.
func (g *chunkGoFile) line(pos token.Pos) int { return g.fset.PositionFor(pos, false).Line }

// start is the first line of a declaration at pos with doc comment doc.
func (g *chunkGoFile) start(doc *ast.CommentGroup, pos token.Pos) int {
	if doc != nil {
		return g.line(doc.Pos())
	}
	return g.line(pos)
}

func (g *chunkGoFile) chunk(start, end int, symbol string, src Source) Chunk {
	return Chunk{
		Path: g.path, StartLine: start, EndLine: end, Source: src, Symbol: symbol,
		Lang: "go", Text: chunkText(g.lines, start, end),
	}
}

// types makes one chunk per type spec of d, each followed by the summary of
// its methods. In a grouped declaration the first chunk starts with the
// group's doc comment and "type (", and the last ends with ")".
func (g *chunkGoFile) types(d *ast.GenDecl, methods map[string][]string) []Chunk {
	var out []Chunk
	grouped := d.Lparen.IsValid()
	for i, s := range d.Specs {
		ts, ok := s.(*ast.TypeSpec)
		if !ok {
			continue
		}
		start, end := g.start(ts.Doc, ts.Pos()), g.line(ts.End())
		if !grouped || i == 0 {
			start = g.start(d.Doc, d.Pos())
		}
		if !grouped || i == len(d.Specs)-1 {
			end = g.line(d.End())
		}
		c := g.chunk(start, end, ts.Name.Name, g.source)
		if ms := methods[ts.Name.Name]; len(ms) > 0 {
			c.Text += "\n\n// Methods of " + ts.Name.Name + " in this file:\n" + strings.Join(ms, "\n")
		}
		out = append(out, c)
	}
	return out
}

// chunkIsExample reports whether a test file's top-level func name is an
// Example function as go test sees it: "Example", or "Example" followed by
// a non-lower-case rune.
func chunkIsExample(name string) bool {
	rest, ok := strings.CutPrefix(name, "Example")
	if !ok {
		return false
	}
	if rest == "" {
		return true
	}
	r, _ := utf8.DecodeRuneInString(rest)
	return !unicode.IsLower(r)
}

// chunkRecvName returns the base type name of a method receiver type:
// "Cache" for *Cache, Cache[K, V] and (*Cache[K]).
func chunkRecvName(e ast.Expr) string {
	if n := ReceiverTypeName(e); n != "" {
		return n
	}
	return "?"
}

// chunkValueName returns the first non-blank name of a const or var
// declaration, "_" if all are blank.
func chunkValueName(d *ast.GenDecl) string {
	for _, s := range d.Specs {
		vs, ok := s.(*ast.ValueSpec)
		if !ok {
			continue
		}
		for _, n := range vs.Names {
			if n.Name != "_" {
				return n.Name
			}
		}
	}
	return "_"
}

// chunkSignature renders a method's signature on one line:
// "func (c *Cache) Purge() error".
func chunkSignature(fd *ast.FuncDecl) string {
	var b strings.Builder
	b.WriteString("func ")
	if fd.Recv != nil && len(fd.Recv.List) > 0 {
		r := fd.Recv.List[0]
		b.WriteString("(")
		if len(r.Names) > 0 {
			b.WriteString(r.Names[0].Name + " ")
		}
		b.WriteString(types.ExprString(r.Type) + ") ")
	}
	b.WriteString(fd.Name.Name)
	b.WriteString(strings.TrimPrefix(types.ExprString(fd.Type), "func"))
	return b.String()
}

// chunkHeading is a Markdown heading: its first line, level and text.
type chunkHeading struct {
	line, level int
	title       string
}

// chunkMarkdown chunks a Markdown file by section.
func chunkMarkdown(p string, lines []string) []Chunk {
	heads := chunkMarkdownHeadings(lines)
	n := len(lines)
	// sectionEnd(i) is the last line of heading i's section, subsections
	// included.
	sectionEnd := func(i int) int {
		for j := i + 1; j < len(heads); j++ {
			if heads[j].level <= heads[i].level {
				return heads[j].line - 1
			}
		}
		return n
	}
	var out []Chunk
	emit := func(start, end int, heading string) {
		if start > end || chunkBlank(lines, start, end) {
			return
		}
		end = chunkTrimEnd(lines, start, end)
		if end-start+1 > chunkSectionMaxLines {
			out = append(out, chunkWindows(p, lines, start, end, SourceDoc, "markdown", heading)...)
			return
		}
		out = append(out, Chunk{
			Path: p, StartLine: start, EndLine: end, Source: SourceDoc,
			Heading: heading, Lang: "markdown", Text: chunkText(lines, start, end),
		})
	}

	first := n + 1
	if len(heads) > 0 {
		first = heads[0].line
	}
	emit(1, first-1, "")

	var stack []chunkHeading // the current heading and its ancestors, outermost first
	for i := 0; i < len(heads); {
		h := heads[i]
		for len(stack) > 0 && stack[len(stack)-1].level >= h.level {
			stack = stack[:len(stack)-1]
		}
		stack = append(stack, h)
		titles := make([]string, len(stack))
		for k, a := range stack {
			titles[k] = a.title
		}
		heading := strings.Join(titles, " > ")

		end := sectionEnd(i)
		next := i + 1
		for next < len(heads) && heads[next].line <= end {
			next++
		}
		if chunkTrimEnd(lines, h.line, end)-h.line+1 <= chunkSectionMaxLines || next == i+1 {
			// The whole section, subsections included, is one chunk (or
			// windows, when it has no subsections but is long).
			emit(h.line, end, heading)
			i = next
			continue
		}
		// Too long with subsections: the heading's own content, then each
		// subsection on its own.
		own := heads[i+1].line - 1
		if !chunkBlank(lines, h.line+1, own) {
			emit(h.line, own, heading)
		}
		i++
	}
	return out
}

// chunkMarkdownHeadings finds the ATX and setext headings of a Markdown
// file outside fenced code blocks and YAML front matter.
func chunkMarkdownHeadings(lines []string) []chunkHeading {
	var heads []chunkHeading
	i := 0
	if len(lines) > 0 && strings.TrimRight(lines[0], " \t") == "---" {
		for j := 1; j < len(lines); j++ {
			if t := strings.TrimRight(lines[j], " \t"); t == "---" || t == "..." {
				i = j + 1
				break
			}
		}
	}
	var fence string // the opening fence while inside a fenced block
	paraStart := -1  // first line (0-based) of the current paragraph, or -1
	for ; i < len(lines); i++ {
		l := lines[i]
		t, indent := chunkUnindent(l)
		if fence != "" {
			if indent <= 3 && strings.HasPrefix(t, fence) && strings.Trim(strings.TrimRight(t, " \t"), fence[:1]) == "" {
				fence = ""
			}
			continue
		}
		if indent <= 3 && (strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~")) {
			fence = t[:len(t)-len(strings.TrimLeft(t, t[:1]))]
			paraStart = -1
			continue
		}
		if strings.TrimSpace(l) == "" {
			paraStart = -1
			continue
		}
		if level, title, ok := chunkATX(t, indent); ok {
			heads = append(heads, chunkHeading{line: i + 1, level: level, title: title})
			paraStart = -1
			continue
		}
		if level := chunkSetextUnderline(t, indent); level > 0 && paraStart >= 0 {
			parts := make([]string, 0, i-paraStart)
			for _, pl := range lines[paraStart:i] {
				parts = append(parts, strings.TrimSpace(pl))
			}
			heads = append(heads, chunkHeading{line: paraStart + 1, level: level, title: strings.Join(parts, " ")})
			paraStart = -1
			continue
		}
		if paraStart < 0 && indent <= 3 && chunkParagraphLine(t) {
			paraStart = i
		} else if paraStart >= 0 && !chunkParagraphLine(t) {
			paraStart = -1
		}
	}
	return heads
}

// chunkUnindent returns l without leading spaces and tabs, and the width of
// the indentation (a tab counts as 4).
func chunkUnindent(l string) (string, int) {
	w := 0
	for i, r := range l {
		switch r {
		case ' ':
			w++
		case '\t':
			w += 4
		default:
			return l[i:], w
		}
	}
	return "", w
}

// chunkATX parses an ATX heading line ("## Title ##").
func chunkATX(t string, indent int) (level int, title string, ok bool) {
	if indent > 3 {
		return 0, "", false
	}
	for level < len(t) && t[level] == '#' {
		level++
	}
	if level == 0 || level > 6 || (level < len(t) && t[level] != ' ' && t[level] != '\t') {
		return 0, "", false
	}
	title = strings.TrimSpace(t[level:])
	// A closing sequence of #s must be preceded by a space.
	if trimmed := strings.TrimRight(title, "#"); trimmed != title && (trimmed == "" || strings.HasSuffix(trimmed, " ") || strings.HasSuffix(trimmed, "\t")) {
		title = strings.TrimSpace(trimmed)
	}
	return level, title, true
}

// chunkSetextUnderline returns 1 for a "===" line, 2 for a "---" line, else
// 0.
func chunkSetextUnderline(t string, indent int) int {
	t = strings.TrimRight(t, " \t")
	if indent > 3 || t == "" {
		return 0
	}
	switch {
	case strings.Trim(t, "=") == "":
		return 1
	case strings.Trim(t, "-") == "":
		return 2
	}
	return 0
}

// chunkParagraphLine reports whether an unindented line can be part of a
// paragraph that a setext underline turns into a heading: not a list item,
// block quote, table row or HTML block.
func chunkParagraphLine(t string) bool {
	switch {
	case strings.HasPrefix(t, ">"), strings.HasPrefix(t, "|"), strings.HasPrefix(t, "<"):
		return false
	case strings.HasPrefix(t, "- "), strings.HasPrefix(t, "* "), strings.HasPrefix(t, "+ "):
		return false
	}
	i := 0
	for i < len(t) && t[i] >= '0' && t[i] <= '9' {
		i++
	}
	if i > 0 && i+1 < len(t) && (t[i] == '.' || t[i] == ')') && t[i+1] == ' ' {
		return false
	}
	return true
}
