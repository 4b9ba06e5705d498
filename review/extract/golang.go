package extract

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/docreview/docreview/retrieval"
	"github.com/docreview/docreview/review"
)

// maxGroupNames caps the names listed in the Symbol of a grouped
// declaration's doc comment.
const maxGroupNames = 5

// GoClaims returns the doc-comment claims of the Go file at path (slash
// separated, relative to the repository root), sorted by line: the package
// clause ("package name"), funcs ("New"), methods ("Cache.Purge", whatever
// the receiver's pointer or type parameters), types, struct fields
// ("Options.Timeout", from the doc above the field or, when it has none,
// its trailing line comment), interface methods, consts and vars (a spec's
// own doc, or for a grouped declaration's doc the spec names joined with
// ", ", at most five then "..."). In _test.go files each Example function
// is a [review.KindExample] claim whose Text is its doc comment followed by
// its body, and whose mentions include the body as a [review.MentionBlock]
// with Lang "go". Package is path.Dir(path); Changed is false; mentions are
// found without a [Resolver], so no [review.MentionIdent] is recorded.
//
// Generated files ("// Code generated ... DO NOT EDIT.") have no claims.
// When the file does not parse, GoClaims returns the claims of a
// comment-only scan (// comment blocks directly above lines starting with
// func, type, const, var or package), each with Note "file does not
// parse: ...", together with the parse error. It never panics.
func GoClaims(path string, src []byte) ([]review.Claim, error) {
	gcs, err := goClaims(path, src, newMemo(nil))
	if err != nil {
		err = fmt.Errorf("parse %s: %w", path, err)
	}
	if len(gcs) == 0 {
		return nil, err
	}
	out := make([]review.Claim, len(gcs))
	for i, g := range gcs {
		out[i] = g.Claim
	}
	return out, err
}

// goClaim is a doc-comment claim with the lines of the declaration it
// documents, used to find doc comments of code the diff changes.
type goClaim struct {
	review.Claim
	declLine, declEnd int
	// names are the declared names the claim documents, all of them for
	// a group whose Symbol lists only the first few.
	names []string
}

// goClaims is [GoClaims] with a resolver; its error is the parse error as
// go/parser reports it.
func goClaims(filename string, src []byte, r *memo) ([]goClaim, error) {
	if isGenerated(src) {
		return nil, nil
	}
	b := &goBuilder{path: filename, dir: path.Dir(filename), src: src, r: r, isTest: strings.HasSuffix(filename, "_test.go")}
	b.fset = token.NewFileSet()
	f, err := parser.ParseFile(b.fset, filename, src, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		b.fallback("file does not parse: " + err.Error())
		b.finish()
		return b.out, err
	}
	b.file(f)
	b.finish()
	return b.out, nil
}

type goBuilder struct {
	path, dir string
	pkg       string // the package name, without "_test"
	src       []byte
	fset      *token.FileSet
	r         *memo
	isTest    bool
	// locals are the receiver and parameter names of the func or method
	// whose doc comment is being read: "c.Run" there names a method of
	// the receiver's type, however short the qualifier.
	locals map[string]bool
	out    []goClaim
}

func (b *goBuilder) line(p token.Pos) int { return b.fset.Position(p).Line }

func (b *goBuilder) file(f *ast.File) {
	if f.Name != nil {
		b.pkg = strings.TrimSuffix(f.Name.Name, "_test")
	}
	if f.Doc != nil && f.Name != nil {
		b.add(f.Doc, []string{"package " + f.Name.Name}, b.line(f.Package), b.line(f.Name.End()))
	}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			b.funcDecl(d)
		case *ast.GenDecl:
			b.genDecl(d)
		}
	}
}

func (b *goBuilder) funcDecl(d *ast.FuncDecl) {
	if d.Name == nil {
		return
	}
	name := d.Name.Name
	if d.Recv != nil && len(d.Recv.List) > 0 {
		recv := retrieval.ReceiverTypeName(d.Recv.List[0].Type)
		if recv == "" {
			return
		}
		name = recv + "." + name
	} else if b.isTest && isExampleName(name) && d.Body != nil {
		b.example(d)
		return
	}
	b.locals = funcLocals(d)
	b.add(d.Doc, []string{name}, b.line(d.Pos()), b.line(d.End()))
	b.locals = nil
}

// funcLocals returns the receiver and parameter names of d.
func funcLocals(d *ast.FuncDecl) map[string]bool {
	out := map[string]bool{}
	for _, fl := range []*ast.FieldList{d.Recv, d.Type.Params} {
		if fl == nil {
			continue
		}
		for _, f := range fl.List {
			for _, n := range f.Names {
				if n.Name != "_" {
					out[n.Name] = true
				}
			}
		}
	}
	return out
}

func (b *goBuilder) genDecl(d *ast.GenDecl) {
	if d.Tok == token.IMPORT || len(d.Specs) == 0 {
		return
	}
	grouped := d.Lparen.IsValid()
	if grouped && d.Doc != nil {
		var names []string
		for _, s := range d.Specs {
			names = append(names, specNames(s)...)
		}
		b.add(d.Doc, names, b.line(d.Pos()), b.line(d.End()))
	}
	for _, s := range d.Specs {
		switch s := s.(type) {
		case *ast.TypeSpec:
			doc := s.Doc
			from, to := s.Pos(), s.End()
			if !grouped {
				doc, from = d.Doc, d.Pos()
			}
			if doc == nil {
				doc = s.Comment
			}
			b.add(doc, []string{s.Name.Name}, b.line(from), b.line(to))
			switch t := s.Type.(type) {
			case *ast.StructType:
				b.fields(s.Name.Name, t.Fields)
			case *ast.InterfaceType:
				b.fields(s.Name.Name, t.Methods)
			}
		case *ast.ValueSpec:
			doc := s.Doc
			from, to := s.Pos(), s.End()
			if !grouped {
				doc, from = d.Doc, d.Pos()
			}
			if doc == nil {
				doc = s.Comment
			}
			b.add(doc, specNames(s), b.line(from), b.line(to))
		}
	}
}

// fields adds the doc comments of struct fields and interface methods,
// recursing into anonymous struct types.
func (b *goBuilder) fields(owner string, list *ast.FieldList) {
	if list == nil {
		return
	}
	for _, f := range list.List {
		var names []string
		for _, n := range f.Names {
			names = append(names, owner+"."+n.Name)
		}
		if len(f.Names) == 0 {
			if n := retrieval.ReceiverTypeName(f.Type); n != "" {
				names = append(names, owner+"."+n)
			}
		}
		if len(names) == 0 {
			continue
		}
		doc := f.Doc
		if doc == nil {
			doc = f.Comment
		}
		b.add(doc, names, b.line(f.Pos()), b.line(f.End()))
		if st, ok := f.Type.(*ast.StructType); ok && len(f.Names) == 1 {
			b.fields(names[0], st.Fields)
		}
	}
}

// example adds an Example function: its doc and body as one claim.
func (b *goBuilder) example(d *ast.FuncDecl) {
	body, bodyLine, bodyEnd := b.exampleBody(d.Body)
	doc, docLine, _, docMentions := b.commentText(d.Doc, []string{d.Name.Name})
	from := b.line(d.Pos())
	if doc != "" {
		from = docLine
	}
	text := body
	if doc != "" {
		text = doc + "\n\n" + body
	}
	if strings.TrimSpace(text) == "" {
		return
	}
	ms := docMentions
	if body != "" {
		ms = append(ms, review.Mention{Kind: review.MentionBlock, Text: body, Line: bodyLine, EndLine: bodyEnd, Lang: "go"})
	}
	b.out = append(b.out, goClaim{
		Claim: review.Claim{
			Path: b.path, Line: from, EndLine: b.line(d.End()), Kind: review.KindExample,
			Symbol: d.Name.Name, Package: b.dir, Text: text, Mentions: ms,
		},
		declLine: b.line(d.Pos()), declEnd: b.line(d.End()), names: []string{d.Name.Name},
	})
}

// exampleBody returns the source of an Example's body without its braces,
// dedented, and the lines it spans.
func (b *goBuilder) exampleBody(body *ast.BlockStmt) (string, int, int) {
	tf := b.fset.File(body.Pos())
	if tf == nil || !body.Rbrace.IsValid() {
		return "", 0, 0
	}
	start, end := tf.Offset(body.Lbrace)+1, tf.Offset(body.Rbrace)
	if start > end || end > len(b.src) {
		return "", 0, 0
	}
	code := string(b.src[start:end])
	first, last := b.line(body.Lbrace), b.line(body.Rbrace)
	// Drop the rest of the "{" line and the indentation before "}".
	if i := strings.IndexByte(code, '\n'); i >= 0 && strings.TrimSpace(code[:i]) == "" {
		code = code[i+1:]
		first++
	}
	if i := strings.LastIndexByte(code, '\n'); i >= 0 && strings.TrimSpace(code[i+1:]) == "" {
		code = code[:i]
		last--
	}
	code = dedent(code)
	if strings.TrimSpace(code) == "" {
		return "", 0, 0
	}
	if last < first {
		last = first
	}
	return code, first, last
}

// add records a doc-comment claim for the names documented by cg; the
// declaration spans lines declLine to declEnd.
func (b *goBuilder) add(cg *ast.CommentGroup, names []string, declLine, declEnd int) {
	text, line, end, ms := b.commentText(cg, names)
	if text == "" {
		return
	}
	b.out = append(b.out, goClaim{
		Claim: review.Claim{
			Path: b.path, Line: line, EndLine: end, Kind: review.KindDocComment,
			Symbol: joinNames(names), Package: b.dir, Text: text, Mentions: ms,
		},
		declLine: declLine, declEnd: declEnd, names: names,
	})
}

// commentText returns the text of a comment group as [ast.CommentGroup.Text]
// gives it, minus lint directives, with the lines of its first and last
// non-directive lines and its mentions. The names it documents are its
// subject, not mentions.
func (b *goBuilder) commentText(cg *ast.CommentGroup, names []string) (string, int, int, []review.Mention) {
	if cg == nil || len(cg.List) == 0 {
		return "", 0, 0, nil
	}
	text := cleanDoc(cg.Text())
	if text == "" {
		return "", 0, 0, nil
	}
	// Rebuild the comment line by line so mentions get file lines.
	byLine := map[int]string{}
	lo, hi := 0, 0
	for _, c := range cg.List {
		l := b.line(c.Slash)
		var parts []string
		if strings.HasPrefix(c.Text, "//") {
			body := c.Text[2:]
			if isDirective(body) {
				body = ""
			} else {
				body = strings.TrimPrefix(body, " ")
			}
			parts = []string{body}
		} else {
			// The text on the opening line is never indented code.
			body := strings.TrimSuffix(strings.TrimPrefix(c.Text, "/*"), "*/")
			parts = strings.Split(body, "\n")
			parts[0] = strings.TrimLeft(parts[0], " \t")
			if len(parts) > 1 {
				rest := strings.Split(dedent(strings.Join(parts[1:], "\n")), "\n")
				parts = append(parts[:1], rest...)
			}
		}
		for i, p := range parts {
			p = strings.TrimRightFunc(p, unicode.IsSpace)
			if strings.TrimSpace(p) == "" {
				continue
			}
			byLine[l+i] = p
			if lo == 0 || l+i < lo {
				lo = l + i
			}
			if l+i > hi {
				hi = l + i
			}
		}
	}
	if lo == 0 {
		return "", 0, 0, nil
	}
	var sb strings.Builder
	for l := lo; l <= hi; l++ {
		if l > lo {
			sb.WriteByte('\n')
		}
		sb.WriteString(byLine[l])
	}
	ms := withoutSubject(mentions(sb.String(), lo, b.r, b.dir, scanOpts{pkg: b.pkg, doc: true, locals: b.locals}), names)
	ms = append(ms, indentedBlocks(sb.String(), lo)...)
	sortMentions(ms)
	return text, lo, hi, ms
}

// fallback scans the source for // comment blocks directly above top-level
// declarations, for files that do not parse.
func (b *goBuilder) fallback(note string) {
	lines := strings.Split(string(b.src), "\n")
	for _, l := range lines {
		if sym, ok := declSymbol(strings.TrimRight(l, "\r")); ok && strings.HasPrefix(sym, "package ") {
			b.pkg = strings.TrimSuffix(strings.TrimPrefix(sym, "package "), "_test")
			break
		}
	}
	for i, l := range lines {
		symbol, ok := declSymbol(strings.TrimRight(l, "\r"))
		if !ok {
			continue
		}
		j := i - 1
		for j >= 0 && strings.HasPrefix(strings.TrimLeft(lines[j], " \t"), "//") {
			j--
		}
		if j == i-1 {
			continue
		}
		var raw []string
		for _, c := range lines[j+1 : i] {
			body := strings.TrimPrefix(strings.TrimLeft(strings.TrimRight(c, "\r"), " \t"), "//")
			if isDirective(body) {
				body = ""
			} else {
				body = strings.TrimPrefix(body, " ")
			}
			raw = append(raw, strings.TrimRightFunc(body, unicode.IsSpace))
		}
		// Trim directive and blank lines at both ends, keeping line numbers.
		lo, hi := 0, len(raw)-1
		for lo <= hi && strings.TrimSpace(raw[lo]) == "" {
			lo++
		}
		for hi >= lo && strings.TrimSpace(raw[hi]) == "" {
			hi--
		}
		if lo > hi {
			continue
		}
		block := strings.Join(raw[lo:hi+1], "\n")
		text := cleanDoc(block)
		if text == "" {
			continue
		}
		first := j + 2 + lo
		kind := review.KindDocComment
		if b.isTest && isExampleName(symbol) {
			kind = review.KindExample
		}
		ms := withoutSubject(mentions(block, first, b.r, b.dir, scanOpts{pkg: b.pkg}), []string{symbol})
		b.out = append(b.out, goClaim{
			Claim: review.Claim{
				Path: b.path, Line: first, EndLine: j + 2 + hi, Kind: kind,
				Symbol: symbol, Package: b.dir, Text: text, Mentions: ms, Note: note,
			},
			declLine: i + 1, declEnd: i + 1, names: []string{symbol},
		})
	}
}

// withoutSubject drops the identifier mentions of the names a doc comment
// documents ("Purge" in "Purge removes ..." of Cache.Purge): a doc comment
// names its own symbol by convention.
func withoutSubject(ms []review.Mention, names []string) []review.Mention {
	out := ms[:0]
	for _, m := range ms {
		if m.Kind == review.MentionIdent && isSubject(m.Text, names) {
			continue
		}
		out = append(out, m)
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

func isSubject(word string, names []string) bool {
	for _, n := range names {
		if word == n || strings.HasSuffix(n, "."+word) {
			return true
		}
	}
	return false
}

// finish sorts the claims and assigns their IDs.
func (b *goBuilder) finish() {
	sort.SliceStable(b.out, func(i, j int) bool {
		if b.out[i].Line != b.out[j].Line {
			return b.out[i].Line < b.out[j].Line
		}
		return b.out[i].Symbol < b.out[j].Symbol
	})
	seen := map[string]int{}
	for i := range b.out {
		c := &b.out[i].Claim
		c.ID = uniqueID(seen, c.Path, c.Symbol, c.Text)
	}
}

// uniqueID returns the fingerprint of a claim, made distinct from earlier
// claims of the same file with the same fingerprint by counting them.
func uniqueID(seen map[string]int, path, symbol, text string) string {
	id := review.Fingerprint(path, symbol, text)
	n := seen[id]
	seen[id] = n + 1
	if n == 0 {
		return id
	}
	return review.Fingerprint(path, fmt.Sprintf("%s#%d", symbol, n+1), text)
}

// declSymbol returns the symbol a top-level declaration line declares, for
// the comment-only fallback.
func declSymbol(l string) (string, bool) {
	word := func(s string) string {
		s = strings.TrimLeft(s, " \t")
		end := 0
		for end < len(s) {
			r, size := utf8.DecodeRuneInString(s[end:])
			if !(r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r)) {
				break
			}
			end += size
		}
		return s[:end]
	}
	switch {
	case strings.HasPrefix(l, "package "):
		if w := word(l[len("package "):]); w != "" {
			return "package " + w, true
		}
		return "", false
	case strings.HasPrefix(l, "func "), strings.HasPrefix(l, "func("):
		rest := strings.TrimLeft(l[len("func"):], " \t")
		recv := ""
		if strings.HasPrefix(rest, "(") {
			end := strings.IndexByte(rest, ')')
			if end < 0 {
				return "", true
			}
			fields := strings.Fields(strings.NewReplacer("*", " ", "[", " ", "(", " ").Replace(rest[:end]))
			if len(fields) > 0 {
				recv = word(fields[len(fields)-1])
				if len(fields) >= 2 {
					recv = word(fields[1])
				}
			}
			rest = rest[end+1:]
		}
		name := word(rest)
		if recv != "" && name != "" {
			return recv + "." + name, true
		}
		return name, true
	case strings.HasPrefix(l, "type "), strings.HasPrefix(l, "const "), strings.HasPrefix(l, "var "):
		_, rest, _ := strings.Cut(l, " ")
		return word(rest), true
	}
	return "", false
}

// isGenerated reports whether src says, in a // comment line before its
// package clause, that it is generated: Go's "// Code generated ... DO NOT
// EDIT." or any line that says "generated" and "do not edit" in any case
// ("// WARNING: this file is generated. DO NOT EDIT", as urfave/cli
// writes it). A generated file's docs are fixed in its generator.
func isGenerated(src []byte) bool {
	for len(src) > 0 {
		var l []byte
		l, src, _ = bytes.Cut(src, []byte("\n"))
		l = bytes.TrimRight(l, "\r")
		if bytes.HasPrefix(l, []byte("package ")) {
			return false
		}
		if bytes.HasPrefix(l, []byte("// Code generated ")) && bytes.HasSuffix(l, []byte(" DO NOT EDIT.")) {
			return true
		}
		if lower := bytes.ToLower(l); bytes.HasPrefix(lower, []byte("//")) &&
			bytes.Contains(lower, []byte("generated")) && bytes.Contains(lower, []byte("do not edit")) {
			return true
		}
	}
	return false
}

// isDirective reports whether the text of a // comment, after the slashes,
// is a directive such as "go:generate", "nolint:errcheck" or "line x.go:1",
// as go/ast defines them, or a bare "nolint".
func isDirective(c string) bool {
	if strings.HasPrefix(c, "line ") || strings.HasPrefix(c, "extern ") || strings.HasPrefix(c, "export ") {
		return true
	}
	if c == "nolint" || strings.HasPrefix(c, "nolint ") {
		return true
	}
	colon := strings.IndexByte(c, ':')
	if colon <= 0 || colon+1 >= len(c) {
		return false
	}
	for i := 0; i <= colon+1; i++ {
		if i == colon {
			continue
		}
		if ch := c[i]; !('a' <= ch && ch <= 'z' || '0' <= ch && ch <= '9') {
			return false
		}
	}
	return true
}

// cleanDoc drops bare nolint lines, which [ast.CommentGroup.Text] keeps,
// and trims the text.
func cleanDoc(text string) string {
	if strings.Contains(text, "nolint") {
		var keep []string
		for l := range strings.SplitSeq(text, "\n") {
			if t := strings.TrimSpace(l); t == "nolint" || strings.HasPrefix(t, "nolint ") || strings.HasPrefix(t, "nolint:") {
				continue
			}
			keep = append(keep, l)
		}
		text = strings.Join(keep, "\n")
	}
	return strings.TrimSpace(text)
}

// indentedBlocks returns the code blocks of a doc comment: runs of
// indented lines that are not list items, as go/doc/comment reads them,
// after a blank line or a line ending in a colon.
func indentedBlocks(text string, firstLine int) []review.Mention {
	var out []review.Mention
	lines := strings.Split(text, "\n")
	for i := 0; i < len(lines); {
		// An indented line right under prose continues it, unless the
		// prose ends in a colon ("Ex:") or the indented lines are Go
		// (goqu's "db: A sql.Db to use…" above an indented "import (…)"
		// and "func main() {…}"), which go/doc/comment reads as code
		// there too.
		underProse := i > 0 && strings.TrimSpace(lines[i-1]) != "" && !isCodeLine(lines[i-1]) &&
			!strings.HasSuffix(strings.TrimSpace(lines[i-1]), ":")
		if !isCodeLine(lines[i]) {
			i++
			continue
		}
		j := i
		for j < len(lines) && (isCodeLine(lines[j]) || strings.TrimSpace(lines[j]) == "" && j+1 < len(lines) && isCodeLine(lines[j+1])) {
			j++
		}
		code := dedent(strings.Join(lines[i:j], "\n"))
		if underProse && !goDeclarations(code) {
			i++
			continue
		}
		out = append(out, review.Mention{Kind: review.MentionBlock, Text: code, Line: firstLine + i, EndLine: firstLine + j - 1})
		i = j
	}
	return out
}

// goDeclarations reports whether an indented run is Go declarations that
// hold a call: it starts with an import or func at its margin and parses
// as a file. Wrapped prose does not.
func goDeclarations(code string) bool {
	if !strings.HasPrefix(code, "import ") && !strings.HasPrefix(code, "import(") && !strings.HasPrefix(code, "func ") {
		return false
	}
	f, err := parser.ParseFile(token.NewFileSet(), "", "package p\n"+code, parser.SkipObjectResolution)
	if err != nil {
		return false
	}
	call := false
	ast.Inspect(f, func(n ast.Node) bool {
		if _, ok := n.(*ast.CallExpr); ok {
			call = true
		}
		return !call
	})
	return call
}

func isCodeLine(l string) bool {
	if l == "" || (l[0] != ' ' && l[0] != '\t') {
		return false
	}
	t := strings.TrimSpace(l)
	if t == "" {
		return false
	}
	// List items of go/doc/comment: "-", "*", "+", "•" or a number and "." or ")".
	if strings.HasPrefix(t, "- ") || strings.HasPrefix(t, "* ") || strings.HasPrefix(t, "+ ") || strings.HasPrefix(t, "• ") {
		return false
	}
	n := 0
	for n < len(t) && t[n] >= '0' && t[n] <= '9' {
		n++
	}
	return !(n > 0 && n+1 < len(t) && (t[n] == '.' || t[n] == ')') && t[n+1] == ' ')
}

// dedent removes the longest common leading whitespace of non-blank lines.
func dedent(code string) string {
	lines := strings.Split(code, "\n")
	prefix := ""
	first := true
	for _, l := range lines {
		if strings.TrimSpace(l) == "" {
			continue
		}
		ws := l[:len(l)-len(strings.TrimLeft(l, " \t"))]
		if first {
			prefix, first = ws, false
			continue
		}
		for !strings.HasPrefix(ws, prefix) {
			prefix = prefix[:len(prefix)-1]
		}
	}
	for i, l := range lines {
		lines[i] = strings.TrimRight(strings.TrimPrefix(l, prefix), " \t\r")
	}
	return strings.Join(lines, "\n")
}

func sortMentions(ms []review.Mention) {
	sort.SliceStable(ms, func(i, j int) bool { return ms[i].Line < ms[j].Line })
}

func specNames(s ast.Spec) []string {
	var names []string
	switch s := s.(type) {
	case *ast.TypeSpec:
		names = append(names, s.Name.Name)
	case *ast.ValueSpec:
		for _, n := range s.Names {
			names = append(names, n.Name)
		}
	}
	return names
}

// joinNames joins the names of a declaration with ", ", at most
// maxGroupNames of them followed by "...".
func joinNames(names []string) string {
	if len(names) > maxGroupNames {
		return strings.Join(names[:maxGroupNames], ", ") + ", ..."
	}
	return strings.Join(names, ", ")
}

// isExampleName reports whether name is an Example function's name:
// "Example", "ExampleName", "Example_suffix", "ExampleType_Method".
func isExampleName(name string) bool {
	rest, ok := strings.CutPrefix(name, "Example")
	if !ok {
		return false
	}
	if rest == "" || rest[0] == '_' {
		return true
	}
	r, _ := utf8.DecodeRuneInString(rest)
	return unicode.IsUpper(r)
}
