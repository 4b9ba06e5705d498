package quality

import (
	"context"
	"fmt"
	"go/ast"
	"go/constant"
	"go/parser"
	"go/token"
	"math/rand/v2"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"unicode"

	"github.com/docreview/docreview/retrieval"
)

// The mutation kinds. Doc mutations change one mention in a real doc
// sentence, in place; code mutations change the code and leave the docs
// behind; clean edits keep every fact.
const (
	// MutName: a mentioned name becomes one recombined from the package's
	// own vocabulary that the module spells nowhere.
	MutName = "name"
	// MutParameter: a parameter the doc names becomes a parameter of a
	// sibling function.
	MutParameter = "parameter"
	// MutLiteral: a number the doc states, equal to a constant of the
	// package, becomes the value of a sibling constant.
	MutLiteral = "literal"
	// MutPercent: a percentage the doc states for a fraction the code
	// holds is written as that fraction with a percent sign.
	MutPercent = "percent"
	// MutRename: a package-level function is renamed in code, with its
	// calls; the docs that mention it are not.
	MutRename = "code-rename"
	// MutDefault: a constant whose value a doc states gets a new value in
	// code; the doc is not changed.
	MutDefault = "code-default"
	// MutClean: a fact-keeping edit: a rewrapped doc, "e.g." spelt out,
	// a contraction.
	MutClean = "clean"
)

// MutationKinds lists the mutation kinds in report order.
func MutationKinds() []string {
	return []string{MutName, MutParameter, MutLiteral, MutPercent, MutRename, MutDefault, MutClean}
}

// Mention styles: how a doc writes the code it names.
const (
	StyleBare     = "bare"
	StyleBacktick = "backtick"
	StyleDocLink  = "doclink"
	StyleProse    = "prose" // a number or value in prose
	StyleCode     = "code"  // inside a code block or example
)

// Edit replaces lines Line..EndLine (1-based) of Path, whose text must be
// Old, with New (lines joined by "\n"; New may have another line count).
type Edit struct {
	Path    string `json:"path"`
	Line    int    `json:"line"`
	EndLine int    `json:"end_line"`
	Old     string `json:"old"`
	New     string `json:"new"`
}

// Mutation is one case of the mutation set: edits on top of a module at
// a pinned version, and the doc lines a review must flag (none for clean
// edits).
type Mutation struct {
	ID      string `json:"id"`
	Module  string `json:"module"`
	Version string `json:"version"`
	Kind    string `json:"kind"`
	// Style is how the mutated mention is written (bare, backtick,
	// doclink, prose); empty for clean edits.
	Style string `json:"style,omitempty"`
	// Path and Line locate the mutated doc (code mutations: the first
	// doc left behind).
	Path   string `json:"path"`
	Line   int    `json:"line"`
	Edits  []Edit `json:"edits"`
	Expect []Span `json:"expect,omitempty"`
	// Detail says what changed ("NewReader -> NewDecoder").
	Detail string `json:"detail"`
	// Sentence is the author's doc line, before the change.
	Sentence string `json:"sentence"`
}

// Span is a line range of a file.
type Span struct {
	Path    string `json:"path"`
	Line    int    `json:"line"`
	EndLine int    `json:"end_line"`
}

// StyleCounts counts the mentions of code in a corpus's docs, by style.
type StyleCounts map[string]int

// mutationQuota is the most cases [GenerateMutations] makes per kind
// for one module.
var mutationQuota = map[string]int{
	MutName: 6, MutParameter: 4, MutLiteral: 4, MutPercent: 2, MutRename: 3, MutDefault: 4, MutClean: 5,
}

// corpus is one module's files, parsed once for generating mutations.
type corpus struct {
	module, version string
	files           map[string]string
	lines           map[string][]string
	fset            *token.FileSet
	parsed          map[string]*ast.File
	// spelled holds every identifier the module's Go files spell.
	spelled map[string]bool
	// names are the package-level names and "T.M" of every package, and
	// declCount counts every declaration of a bare name.
	names     map[string]bool
	declCount map[string]int
	// topLevel are the names declared at a package's top level.
	topLevel map[string]bool
	// vocab are the camel-case parts of the declared names.
	vocab []string
	pkgs  map[string]*pkgInfo
	docs  []docLine
	// all is every file's text, built on first use.
	all string
}

type pkgInfo struct {
	dir    string
	name   string
	funcs  []*funcInfo
	consts []constInfo
	// lits are number literals of function bodies and field assignments,
	// each owned by the function or "Type.Field" whose doc may state it.
	lits []constInfo
}

type funcInfo struct {
	name   string // "F" or "T.M"
	params []string
	method bool
	path   string
	decl   *ast.FuncDecl
}

type constInfo struct {
	// name is the constant's name; for a literal, its owner.
	name  string
	owner string
	// body is true for a literal of a function body that is not a field
	// assignment.
	body  bool
	value constant.Value
	path  string
	line  int
	lit   *ast.BasicLit // the literal to change; nil when the value is not one literal
	doc   *ast.CommentGroup
	float bool
}

// docLine is one line of documentation prose: a Go doc comment line or a
// Markdown line outside code fences.
type docLine struct {
	path string
	line int
	// text is the prose (without the comment marker); prefix is what
	// precedes it on the line.
	text, prefix string
	// owner is the declaration a Go doc belongs to ("" in Markdown), fn
	// its function when it is one, pkg its package directory.
	owner string
	fn    *funcInfo
	pkg   string
	// first is true on the first line of a Go doc comment.
	first bool
	group *ast.CommentGroup
}

// GenerateMutations samples real doc sentences of one module at random
// (rng) and mutates them in place, and makes the code-only and clean
// cases; styles counts every mention of code in the module's docs.
func GenerateMutations(module, version string, files map[string]string, rng *rand.Rand) ([]Mutation, StyleCounts) {
	c := newCorpus(module, version, files)
	styles := StyleCounts{}
	var mentions []mention
	for i := range c.docs {
		for _, m := range c.mentions(&c.docs[i]) {
			styles[m.style]++
			mentions = append(mentions, m)
		}
	}
	var out []Mutation
	out = append(out, c.genName(rng, mentions)...)
	out = append(out, c.genParameter(rng)...)
	out = append(out, c.genLiteral(rng)...)
	out = append(out, c.genPercent(rng)...)
	out = append(out, c.genRename(rng, mentions)...)
	out = append(out, c.genDefault(rng)...)
	out = append(out, c.genClean(rng)...)
	for i := range out {
		out[i].Module, out[i].Version = module, version
		out[i].ID = fmt.Sprintf("%s@%s#%s-%d", module, version, out[i].Kind, i)
	}
	return out, styles
}

func newCorpus(module, version string, files map[string]string) *corpus {
	c := &corpus{module: module, version: version, files: files, lines: map[string][]string{}, fset: token.NewFileSet(),
		parsed: map[string]*ast.File{}, spelled: map[string]bool{}, names: map[string]bool{}, declCount: map[string]int{}, pkgs: map[string]*pkgInfo{}}
	vocab := map[string]bool{}
	for _, p := range sortedKeys(files) {
		c.lines[p] = strings.Split(files[p], "\n")
		if !strings.HasSuffix(p, ".go") || strings.Contains(p, "testdata/") || strings.HasPrefix(p, "vendor/") {
			continue
		}
		f, err := parser.ParseFile(c.fset, p, files[p], parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			continue
		}
		c.parsed[p] = f
		ast.Inspect(f, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok {
				c.spelled[id.Name] = true
			}
			return true
		})
		countDecls(f, c.declCount)
		if strings.HasSuffix(p, "_test.go") {
			continue
		}
		dir := pathDir(p)
		pk := c.pkgs[dir]
		if pk == nil {
			pk = &pkgInfo{dir: dir, name: f.Name.Name}
			c.pkgs[dir] = pk
		}
		c.collect(p, f, pk, vocab)
	}
	c.vocab = sortedKeys(vocab)
	c.topLevel = c.topLevelNames()
	for _, p := range sortedKeys(files) {
		if f := c.parsed[p]; f != nil && !strings.HasSuffix(p, "_test.go") {
			c.goDocs(p, f)
		} else if isMarkdown(p) {
			c.markdownDocs(p)
		}
	}
	return c
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func pathDir(p string) string {
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		return p[:i]
	}
	return "."
}

func isMarkdown(p string) bool {
	l := strings.ToLower(p)
	return (strings.HasSuffix(l, ".md") || strings.HasSuffix(l, ".markdown")) && !strings.Contains(l, "changelog") &&
		!strings.HasPrefix(l, "vendor/") && !strings.Contains(l, "testdata/")
}

// countDecls counts every declared bare name of f: functions, methods,
// types, fields, constants, variables and parameters.
func countDecls(f *ast.File, n map[string]int) {
	ast.Inspect(f, func(x ast.Node) bool {
		switch x := x.(type) {
		case *ast.FuncDecl:
			n[x.Name.Name]++
		case *ast.TypeSpec:
			n[x.Name.Name]++
		case *ast.ValueSpec:
			for _, id := range x.Names {
				n[id.Name]++
			}
		case *ast.Field:
			for _, id := range x.Names {
				n[id.Name]++
			}
		}
		return true
	})
}

func (c *corpus) collect(p string, f *ast.File, pk *pkgInfo, vocab map[string]bool) {
	addVocab := func(name string) {
		for _, part := range splitCamel(name) {
			if len(part) >= 2 && plainWord.MatchString(part) {
				vocab[part] = true
			}
		}
	}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			fi := &funcInfo{name: d.Name.Name, path: p, decl: d}
			if d.Recv != nil && len(d.Recv.List) > 0 {
				fi.method = true
				fi.name = retrieval.ReceiverTypeName(d.Recv.List[0].Type) + "." + d.Name.Name
			}
			for _, fl := range []*ast.FieldList{d.Type.TypeParams, d.Type.Params, d.Type.Results} {
				if fl == nil {
					continue
				}
				for _, fd := range fl.List {
					for _, id := range fd.Names {
						if id.Name != "_" {
							fi.params = append(fi.params, id.Name)
						}
					}
				}
			}
			pk.funcs = append(pk.funcs, fi)
			if d.Body != nil {
				c.collectLits(p, d.Body, fi.name, pk)
			}
			c.names[fi.name] = true
			c.names[d.Name.Name] = true
			addVocab(d.Name.Name)
		case *ast.GenDecl:
			for _, sp := range d.Specs {
				switch sp := sp.(type) {
				case *ast.TypeSpec:
					c.names[sp.Name.Name] = true
					addVocab(sp.Name.Name)
					ast.Inspect(sp.Type, func(n ast.Node) bool {
						if fd, ok := n.(*ast.Field); ok {
							for _, id := range fd.Names {
								c.names[sp.Name.Name+"."+id.Name] = true
								c.names[id.Name] = true
							}
						}
						return true
					})
				case *ast.ValueSpec:
					for i, id := range sp.Names {
						c.names[id.Name] = true
						addVocab(id.Name)
						if d.Tok != token.CONST || i >= len(sp.Values) {
							continue
						}
						ci := constInfo{name: id.Name, path: p, line: c.fset.Position(id.Pos()).Line, doc: sp.Doc}
						if ci.doc == nil && len(d.Specs) == 1 {
							ci.doc = d.Doc
						}
						ci.value, ci.lit = constValue(sp.Values[i])
						if ci.value != nil {
							ci.float = ci.value.Kind() == constant.Float
							pk.consts = append(pk.consts, ci)
						}
					}
				}
			}
		}
	}
}

// collectLits records the number literals of body: owned by fn, or by
// "T.F" when assigned to a field F of a composite literal of type T or
// through a selector x.F (owner ".F" then, matched by field name).
func (c *corpus) collectLits(p string, body ast.Node, fn string, pk *pkgInfo) {
	add := func(e ast.Expr, owner string) {
		v, lit := constValue(e)
		if v == nil || lit == nil {
			return
		}
		pk.lits = append(pk.lits, constInfo{name: owner, owner: owner, body: owner == fn, value: v, lit: lit, path: p,
			line: c.fset.Position(lit.Pos()).Line, float: v.Kind() == constant.Float})
	}
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CompositeLit:
			typ := ""
			if id, ok := n.Type.(*ast.Ident); ok {
				typ = id.Name
			}
			for _, el := range n.Elts {
				if kv, ok := el.(*ast.KeyValueExpr); ok {
					if key, ok := kv.Key.(*ast.Ident); ok && typ != "" {
						add(kv.Value, typ+"."+key.Name)
					}
				}
			}
		case *ast.AssignStmt:
			for i, l := range n.Lhs {
				if se, ok := l.(*ast.SelectorExpr); ok && i < len(n.Rhs) {
					add(n.Rhs[i], "."+se.Sel.Name)
				}
			}
		case *ast.BasicLit:
			if n.Kind == token.INT || n.Kind == token.FLOAT {
				add(n, fn)
			}
		}
		return true
	})
}

// constValue evaluates a constant expression made of number literals and
// the units of package time; lit is the expression's one number literal.
func constValue(e ast.Expr) (constant.Value, *ast.BasicLit) {
	var lit *ast.BasicLit
	var eval func(ast.Expr) constant.Value
	eval = func(e ast.Expr) constant.Value {
		switch e := e.(type) {
		case *ast.BasicLit:
			if e.Kind != token.INT && e.Kind != token.FLOAT {
				return nil
			}
			if lit == nil {
				lit = e
			} else {
				lit = &ast.BasicLit{} // more than one literal: not editable
			}
			return constant.MakeFromLiteral(e.Value, e.Kind, 0)
		case *ast.ParenExpr:
			return eval(e.X)
		case *ast.BinaryExpr:
			x, y := eval(e.X), eval(e.Y)
			if x == nil || y == nil {
				return nil
			}
			switch e.Op {
			case token.MUL, token.ADD, token.SUB, token.QUO:
				if e.Op == token.QUO && constant.Sign(y) == 0 {
					return nil
				}
				return constant.BinaryOp(x, e.Op, y)
			case token.SHL:
				s, ok := constant.Uint64Val(y)
				if !ok {
					return nil
				}
				return constant.Shift(x, token.SHL, uint(s))
			}
		case *ast.SelectorExpr:
			if id, ok := e.X.(*ast.Ident); ok && id.Name == "time" {
				if u, ok := timeUnits[e.Sel.Name]; ok {
					return constant.MakeInt64(u)
				}
			}
		}
		return nil
	}
	v := eval(e)
	if lit != nil && lit.Value == "" {
		lit = nil
	}
	return v, lit
}

var timeUnits = map[string]int64{"Nanosecond": 1, "Microsecond": 1e3, "Millisecond": 1e6, "Second": 1e9, "Minute": 6e10, "Hour": 3.6e12}

// goDocs records the doc comment lines of f's declarations.
func (c *corpus) goDocs(p string, f *ast.File) {
	dir := pathDir(p)
	fns := map[*ast.FuncDecl]*funcInfo{}
	if pk := c.pkgs[dir]; pk != nil {
		for _, fi := range pk.funcs {
			fns[fi.decl] = fi
		}
	}
	add := func(g *ast.CommentGroup, owner string, fn *funcInfo) {
		if g == nil {
			return
		}
		for i, cm := range g.List {
			if !strings.HasPrefix(cm.Text, "//") {
				return // block comments are left alone
			}
			line := c.fset.Position(cm.Pos()).Line
			raw := c.lines[p][line-1]
			idx := strings.Index(raw, "//")
			if idx < 0 {
				continue
			}
			body := raw[idx+2:]
			prefix := raw[:idx+2]
			if strings.HasPrefix(body, " ") {
				body, prefix = body[1:], prefix+" "
			}
			if strings.HasPrefix(body, "\t") || strings.HasPrefix(body, "  ") || strings.HasPrefix(body, "go:") {
				continue // code in a doc, or a directive
			}
			c.docs = append(c.docs, docLine{path: p, line: line, text: body, prefix: prefix, owner: owner, fn: fn, pkg: dir, first: i == 0, group: g})
		}
	}
	add(f.Doc, "package "+f.Name.Name, nil)
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			fi := fns[d]
			name := d.Name.Name
			if fi != nil {
				name = fi.name
			}
			add(d.Doc, name, fi)
		case *ast.GenDecl:
			for _, sp := range d.Specs {
				switch sp := sp.(type) {
				case *ast.TypeSpec:
					doc := sp.Doc
					if doc == nil && len(d.Specs) == 1 {
						doc = d.Doc
					}
					add(doc, sp.Name.Name, nil)
					if st, ok := sp.Type.(*ast.StructType); ok {
						for _, fd := range st.Fields.List {
							if len(fd.Names) > 0 {
								add(fd.Doc, sp.Name.Name+"."+fd.Names[0].Name, nil)
							}
						}
					}
				case *ast.ValueSpec:
					doc := sp.Doc
					if doc == nil && len(d.Specs) == 1 {
						doc = d.Doc
					}
					add(doc, sp.Names[0].Name, nil)
				}
			}
			if len(d.Specs) > 1 {
				add(d.Doc, "", nil)
			}
		}
	}
}

// markdownDocs records the prose lines of a Markdown file: outside code
// fences, not tables, not HTML, not link definitions.
func (c *corpus) markdownDocs(p string) {
	fence := ""
	for i, l := range c.lines[p] {
		t := strings.TrimSpace(l)
		if fence != "" {
			if strings.HasPrefix(t, fence) {
				fence = ""
			}
			continue
		}
		if strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
			fence = t[:3]
			continue
		}
		if t == "" || strings.HasPrefix(t, "|") || strings.HasPrefix(t, "<") || strings.HasPrefix(l, "    ") ||
			strings.HasPrefix(l, "\t") || linkDef.MatchString(t) {
			continue
		}
		c.docs = append(c.docs, docLine{path: p, line: i + 1, text: l})
	}
}

var (
	linkDef   = regexp.MustCompile(`^\[[^\]]+\]:\s`)
	plainWord = regexp.MustCompile(`^[A-Za-z][a-z]*$|^[A-Z]+$`)
	// historical marks a line that records history (a changelog entry
	// in a README): a rename rightly leaves it alone.
	historical = regexp.MustCompile(`\bv\d+\.\d+|\b(19|20)\d\d-\d\d`)
)

// mention is a reference to code in a doc line.
type mention struct {
	doc *docLine
	// start, end are byte offsets of the name in doc.text; name is the
	// name as written ("Client.Do", "NewReader").
	start, end int
	name       string
	style      string
}

var (
	docLinkRE  = regexp.MustCompile(`\[\*?([A-Za-z_][\w]*(?:\.[A-Za-z_]\w*){0,2})\]`)
	backtickRE = regexp.MustCompile("`([A-Za-z_][\\w]*(?:\\.[A-Za-z_]\\w*){0,2})(?:\\(\\))?`")
	wordTokRE  = regexp.MustCompile(`[A-Za-z_][\w]*(?:\.[A-Za-z_]\w*){0,2}`)
)

// mentions finds the references to the module's code in d: doc links,
// backticked names and bare words that name a declaration of the module.
func (c *corpus) mentions(d *docLine) []mention {
	var out []mention
	taken := make([]bool, len(d.text)+1)
	mark := func(a, b int) {
		for i := a; i < b && i < len(taken); i++ {
			taken[i] = true
		}
	}
	for _, m := range docLinkRE.FindAllStringSubmatchIndex(d.text, -1) {
		if m[1] < len(d.text) && (d.text[m[1]] == '(' || d.text[m[1]] == '[') {
			continue // a Markdown link's text
		}
		name := d.text[m[2]:m[3]]
		if c.resolves(name, d) {
			out = append(out, mention{doc: d, start: m[2], end: m[3], name: name, style: StyleDocLink})
		}
		mark(m[0], m[1])
	}
	for _, m := range backtickRE.FindAllStringSubmatchIndex(d.text, -1) {
		name := d.text[m[2]:m[3]]
		if !taken[m[0]] && c.resolves(name, d) {
			out = append(out, mention{doc: d, start: m[2], end: m[3], name: name, style: StyleBacktick})
		}
		mark(m[0], m[1])
	}
	for _, m := range wordTokRE.FindAllStringIndex(d.text, -1) {
		if taken[m[0]] || m[0] > 0 && (d.text[m[0]-1] == '/' || d.text[m[0]-1] == '.' || d.text[m[0]-1] == '-') {
			continue
		}
		name := strings.TrimRight(d.text[m[0]:m[1]], ".")
		if d.first && m[0] == 0 {
			continue // a doc's own name, by convention
		}
		if !c.resolves(name, d) || !codeShaped(name, d.text, m[0]) {
			continue
		}
		out = append(out, mention{doc: d, start: m[0], end: m[0] + len(name), name: name, style: StyleBare})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].start < out[j].start })
	return out
}

// resolves is true when name is a declaration of the module: a
// package-level name, "T.M", or "pkg.Name" of one of its packages.
func (c *corpus) resolves(name string, d *docLine) bool {
	if c.names[name] && (strings.Contains(name, ".") || c.topLevel[name]) {
		return true
	}
	if i := strings.IndexByte(name, '.'); i > 0 {
		for _, pk := range c.pkgs {
			if pk.name == name[:i] && c.names[name[i+1:]] {
				return true
			}
		}
	}
	return false
}

// topLevelNames are the names some package declares at its top level (not
// only as a field or method): functions of its non-test files, and the
// types, variables and constants of every file.
func (c *corpus) topLevelNames() map[string]bool {
	out := map[string]bool{}
	for _, pk := range c.pkgs {
		for _, f := range pk.funcs {
			if !f.method {
				out[f.name] = true
			}
		}
	}
	for _, f := range c.parsed {
		for _, d := range f.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok {
				continue
			}
			for _, sp := range g.Specs {
				switch sp := sp.(type) {
				case *ast.TypeSpec:
					out[sp.Name.Name] = true
				case *ast.ValueSpec:
					for _, id := range sp.Names {
						out[id.Name] = true
					}
				}
			}
		}
	}
	return out
}

// codeShaped is true when a bare word reads as code rather than English:
// dotted, followed by "(", with an inner capital, or an exported
// single word that does not start a sentence.
func codeShaped(name, text string, at int) bool {
	if strings.Contains(name, ".") || strings.HasPrefix(text[at+len(name):], "(") {
		return true
	}
	r := []rune(name)
	for i := 1; i < len(r); i++ {
		if unicode.IsUpper(r[i]) {
			return true
		}
	}
	if !unicode.IsUpper(r[0]) || len(r) < 3 {
		return false
	}
	before := strings.TrimRight(text[:at], " ")
	return before != "" && !strings.HasSuffix(before, ".") && !strings.HasSuffix(before, ":") && !strings.HasSuffix(before, "#") && !strings.HasSuffix(before, "-") && !strings.HasSuffix(before, "*")
}

func splitCamel(s string) []string {
	var out []string
	start := 0
	r := []rune(s)
	for i := 1; i < len(r); i++ {
		if unicode.IsUpper(r[i]) && (unicode.IsLower(r[i-1]) || (i+1 < len(r) && unicode.IsLower(r[i+1]))) {
			out = append(out, string(r[start:i]))
			start = i
		}
	}
	return append(out, string(r[start:]))
}

// replaceInLine is the edit that writes repl over text[start:end] of d.
func replaceInLine(d *docLine, lines []string, start, end int, repl string) Edit {
	old := lines[d.line-1]
	return Edit{Path: d.path, Line: d.line, EndLine: d.line, Old: old, New: d.prefix + d.text[:start] + repl + d.text[end:] + old[len(d.prefix)+len(d.text):]}
}

// genName recombines mentioned names.
func (c *corpus) genName(rng *rand.Rand, ms []mention) []Mutation {
	return sample(rng, len(ms), mutationQuota[MutName], func(i int) (Mutation, bool) {
		m := ms[i]
		last := m.name[strings.LastIndexByte(m.name, '.')+1:]
		repl, ok := c.recombine(rng, last)
		if !ok {
			return Mutation{}, false
		}
		full := m.name[:len(m.name)-len(last)] + repl
		off := m.start + len(m.name) - len(last)
		return Mutation{Kind: MutName, Style: m.style, Path: m.doc.path, Line: m.doc.line,
			Edits:  []Edit{replaceInLine(m.doc, c.lines[m.doc.path], off, m.end, repl)},
			Expect: []Span{c.docSpan(m.doc)}, Detail: m.name + " -> " + full, Sentence: strings.TrimSpace(m.doc.text)}, true
	})
}

// recombine swaps one camel-case part of name for another part of the
// vocabulary, giving a name the module spells nowhere.
func (c *corpus) recombine(rng *rand.Rand, name string) (string, bool) {
	parts := splitCamel(name)
	if len(parts) < 2 || len(c.vocab) < 5 {
		return "", false
	}
	for try := 0; try < 30; try++ {
		i := rng.IntN(len(parts))
		w := c.vocab[rng.IntN(len(c.vocab))]
		if strings.EqualFold(w, parts[i]) {
			continue
		}
		if i == 0 && unicode.IsLower([]rune(parts[0])[0]) {
			w = strings.ToLower(w[:1]) + w[1:]
		} else {
			w = strings.ToUpper(w[:1]) + w[1:]
		}
		np := append([]string(nil), parts...)
		np[i] = w
		cand := strings.Join(np, "")
		if !c.spelled[cand] && !c.names[cand] && !strings.Contains(c.allText(), cand) {
			return cand, true
		}
	}
	return "", false
}

// allText is every file's text, for the check that a new name appears
// nowhere.
func (c *corpus) allText() string {
	if c.all == "" {
		var b strings.Builder
		for _, p := range sortedKeys(c.files) {
			b.WriteString(c.files[p])
			b.WriteByte(0)
		}
		c.all = b.String()
	}
	return c.all
}

// docSpan is the span of the doc comment (Go) or line (Markdown) d is on.
func (c *corpus) docSpan(d *docLine) Span {
	if d.group != nil {
		return Span{Path: d.path, Line: c.fset.Position(d.group.Pos()).Line, EndLine: c.fset.Position(d.group.End()).Line}
	}
	return Span{Path: d.path, Line: d.line, EndLine: d.line}
}

var stopParams = map[string]bool{"a": true, "an": true, "to": true, "in": true, "is": true, "at": true, "or": true, "and": true, "of": true,
	"on": true, "it": true, "by": true, "as": true, "be": true, "do": true, "go": true, "if": true, "no": true, "so": true, "up": true,
	"us": true, "we": true, "the": true, "for": true, "not": true, "all": true, "any": true, "new": true, "one": true}

// genParameter replaces a parameter the doc names with a parameter of a
// sibling function.
func (c *corpus) genParameter(rng *rand.Rand) []Mutation {
	type site struct {
		d          *docLine
		start, end int
		param      string
	}
	var sites []site
	for i := range c.docs {
		d := &c.docs[i]
		if d.fn == nil {
			continue
		}
		for _, p := range d.fn.params {
			if len(p) < 2 || stopParams[strings.ToLower(p)] {
				continue
			}
			for _, m := range wordTokRE.FindAllStringIndex(d.text, -1) {
				if d.text[m[0]:m[1]] == p && !(d.first && m[0] == 0) {
					sites = append(sites, site{d, m[0], m[1], p})
				}
			}
		}
	}
	return sample(rng, len(sites), mutationQuota[MutParameter], func(i int) (Mutation, bool) {
		s := sites[i]
		own := map[string]bool{}
		for _, p := range s.d.fn.params {
			own[p] = true
		}
		var cands []string
		for _, f := range c.pkgs[s.d.pkg].funcs {
			for _, p := range f.params {
				if !own[p] && len(p) >= 2 && !stopParams[strings.ToLower(p)] && !strings.Contains(s.d.text, p) && !c.names[p] {
					cands = append(cands, p)
				}
			}
		}
		if len(cands) == 0 {
			return Mutation{}, false
		}
		sort.Strings(cands)
		repl := cands[rng.IntN(len(cands))]
		style := StyleBare
		if s.start > 0 && s.d.text[s.start-1] == '`' {
			style = StyleBacktick
		}
		return Mutation{Kind: MutParameter, Style: style, Path: s.d.path, Line: s.d.line,
			Edits:  []Edit{replaceInLine(s.d, c.lines[s.d.path], s.start, s.end, repl)},
			Expect: []Span{c.docSpan(s.d)}, Detail: s.d.fn.name + ": " + s.param + " -> " + repl, Sentence: strings.TrimSpace(s.d.text)}, true
	})
}

var numberRE = regexp.MustCompile(`\b\d+(?:\.\d+)?\b`)

// numberSite is a number a doc states that equals a constant of its
// package.
type numberSite struct {
	d          *docLine
	start, end int
	k          constInfo
}

// numberSites finds doc numbers equal to a constant the doc is tied to:
// the constant's own doc, a doc that names the constant, the doc of a
// function whose body uses it, or the doc of a declaration whose name is
// part of the constant's (Timeout and DefaultTimeout). Zero and one are
// left out: too many things equal them.
func (c *corpus) numberSites() []numberSite {
	var out []numberSite
	for i := range c.docs {
		d := &c.docs[i]
		nums := numberRE.FindAllStringIndex(d.text, -1)
		if len(nums) == 0 {
			continue
		}
		for _, dir := range sortedKeys(c.pkgs) {
			pk := c.pkgs[dir]
			if d.group != nil && pk.dir != d.pkg {
				continue
			}
			for _, k := range append(append([]constInfo(nil), pk.consts...), pk.lits...) {
				if !c.tied(d, k) {
					continue
				}
				for _, m := range nums {
					lit := d.text[m[0]:m[1]]
					if lit == "0" || lit == "1" || !standalone(d.text, m[0], m[1]) {
						continue
					}
					v := constant.MakeFromLiteral(lit, literalKind(lit), 0)
					if v.Kind() != constant.Unknown && constant.Compare(constant.ToFloat(v), token.EQL, constant.ToFloat(k.value)) {
						out = append(out, numberSite{d, m[0], m[1], k})
					}
				}
			}
		}
	}
	return out
}

// tied is true when doc line d is about constant k, or about the
// function or field that owns literal k.
func (c *corpus) tied(d *docLine, k constInfo) bool {
	if k.owner != "" {
		return d.group != nil && (k.owner == d.owner || strings.HasPrefix(k.owner, ".") && strings.HasSuffix(d.owner, k.owner))
	}
	if k.doc != nil && k.doc == d.group || wordIn(d.text, k.name) {
		return true
	}
	if d.group == nil {
		return false
	}
	if d.fn != nil && d.fn.decl.Body != nil {
		used := false
		ast.Inspect(d.fn.decl.Body, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok && id.Name == k.name {
				used = true
			}
			return !used
		})
		if used {
			return true
		}
	}
	owner := d.owner[strings.LastIndexByte(d.owner, '.')+1:]
	return len(owner) >= 4 && owner != k.name && strings.HasSuffix(k.name, owner)
}

// wordIn is true when w occurs in s as a whole word.
func wordIn(s, w string) bool {
	for i := strings.Index(s, w); i >= 0; {
		end := i + len(w)
		if (i == 0 || !isIdentByte(s[i-1])) && (end == len(s) || !isIdentByte(s[end])) {
			return true
		}
		j := strings.Index(s[i+1:], w)
		if j < 0 {
			break
		}
		i += 1 + j
	}
	return false
}

func isIdentByte(b byte) bool {
	return b == '_' || b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z'
}

// standalone is true for a number that stands as a value in prose: not
// a list marker, not part of a version, a name, a range or an identifier
// ("v1.2", "SHA-256", "base-10", "0-255", "x86").
func standalone(text string, start, end int) bool {
	if start > 0 {
		switch b := text[start-1]; {
		case b == 'v' || b == '.' || b == '-' || b == '_' || b == '/' || isIdentByte(b):
			return false
		}
	}
	if end < len(text) {
		rest := text[end:]
		if rest[0] == '-' || rest[0] == '_' || rest[0] == '/' || len(rest) > 1 && rest[0] == '.' && rest[1] >= '0' && rest[1] <= '9' {
			return false
		}
		if strings.TrimSpace(text[:start]) == "" && (rest[0] == '.' || rest[0] == ')') {
			return false // "3. Iterate": a list marker
		}
	}
	return true
}

func literalKind(s string) token.Token {
	if strings.Contains(s, ".") {
		return token.FLOAT
	}
	return token.INT
}

// genLiteral writes the value of a sibling constant over a number the doc
// states.
func (c *corpus) genLiteral(rng *rand.Rand) []Mutation {
	sites := c.numberSites()
	return sample(rng, len(sites), mutationQuota[MutLiteral], func(i int) (Mutation, bool) {
		s := sites[i]
		var cands []string
		pk := c.pkgs[pathDir(s.k.path)]
		pool := pk.consts
		if s.k.owner != "" || len(pool) < 2 {
			pool = append(append([]constInfo(nil), pk.consts...), pk.lits...)
		}
		for _, k := range pool {
			if k.name == s.k.name && k.owner == "" || k.float != s.k.float || constant.Compare(k.value, token.EQL, s.k.value) {
				continue
			}
			if k.owner != "" && !withinFactor(k.value, s.k.value, 10) {
				continue
			}
			if t := k.value.ExactString(); len(t) <= 8 && !strings.Contains(t, "/") && !strings.HasPrefix(t, "-") && t != "0" && t != "1" && !containsStr(cands, t) {
				cands = append(cands, t)
			}
		}
		sort.Strings(cands)
		if len(cands) == 0 {
			return Mutation{}, false
		}
		repl := cands[rng.IntN(len(cands))]
		return Mutation{Kind: MutLiteral, Style: StyleProse, Path: s.d.path, Line: s.d.line,
			Edits:  []Edit{replaceInLine(s.d, c.lines[s.d.path], s.start, s.end, repl)},
			Expect: []Span{c.docSpan(s.d)}, Detail: s.k.name + ": " + s.d.text[s.start:s.end] + " -> " + repl, Sentence: strings.TrimSpace(s.d.text)}, true
	})
}

var percentRE = regexp.MustCompile(`\b(\d+(?:\.\d+)?)\s?%`)

// genPercent rewrites a percentage that matches a fraction constant as
// the fraction with a percent sign ("20%" for 0.2 becomes "0.2%").
func (c *corpus) genPercent(rng *rand.Rand) []Mutation {
	type site struct {
		d          *docLine
		start, end int
		k          constInfo
	}
	var sites []site
	for i := range c.docs {
		d := &c.docs[i]
		for _, m := range percentRE.FindAllStringSubmatchIndex(d.text, -1) {
			p, err := strconv.ParseFloat(d.text[m[2]:m[3]], 64)
			if err != nil {
				continue
			}
			for _, pk := range c.pkgs {
				for _, k := range pk.consts {
					f, _ := constant.Float64Val(constant.ToFloat(k.value))
					if k.float && f > 0 && f < 1 && abs(f*100-p) < 1e-9 && (k.doc == d.group && k.doc != nil || strings.Contains(d.text, k.name) || d.pkg == pk.dir) {
						sites = append(sites, site{d, m[0], m[1], k})
					}
				}
			}
		}
	}
	return sample(rng, len(sites), mutationQuota[MutPercent], func(i int) (Mutation, bool) {
		s := sites[i]
		f, _ := constant.Float64Val(constant.ToFloat(s.k.value))
		repl := strconv.FormatFloat(f, 'g', -1, 64) + "%"
		return Mutation{Kind: MutPercent, Style: StyleProse, Path: s.d.path, Line: s.d.line,
			Edits:  []Edit{replaceInLine(s.d, c.lines[s.d.path], s.start, s.end, repl)},
			Expect: []Span{c.docSpan(s.d)}, Detail: s.k.name + ": " + s.d.text[s.start:s.end] + " -> " + repl, Sentence: strings.TrimSpace(s.d.text)}, true
	})
}

func abs(f float64) float64 {
	if f < 0 {
		return -f
	}
	return f
}

// genRename renames, in code only, a package-level function declared once
// in the module that a doc other than its own mentions.
func (c *corpus) genRename(rng *rand.Rand, ms []mention) []Mutation {
	byName := map[string][]mention{}
	for _, m := range ms {
		if historical.MatchString(m.doc.text) {
			continue
		}
		last := m.name[strings.LastIndexByte(m.name, '.')+1:]
		byName[last] = append(byName[last], m)
	}
	var cands []*funcInfo
	for _, dir := range sortedKeys(c.pkgs) {
		for _, f := range c.pkgs[dir].funcs {
			if !f.method && ast.IsExported(f.name) && c.declCount[f.name] == 1 && len(byName[f.name]) > 0 {
				cands = append(cands, f)
			}
		}
	}
	return sample(rng, len(cands), mutationQuota[MutRename], func(i int) (Mutation, bool) {
		f := cands[i]
		repl, ok := c.recombine(rng, f.name)
		if !ok {
			return Mutation{}, false
		}
		edits := c.renameEdits(f, repl)
		if len(edits) == 0 {
			return Mutation{}, false
		}
		var expect []Span
		seen := map[Span]bool{}
		for _, m := range byName[f.name] {
			if sp := c.docSpan(m.doc); !seen[sp] {
				seen[sp] = true
				expect = append(expect, sp)
			}
		}
		first := byName[f.name][0]
		return Mutation{Kind: MutRename, Style: first.style, Path: first.doc.path, Line: first.doc.line, Edits: edits,
			Expect: expect, Detail: f.name + " -> " + repl + " in code", Sentence: strings.TrimSpace(first.doc.text)}, true
	})
}

// renameEdits renames f to repl in code: its declaration, unqualified
// uses in its package, and pkg.F uses in files that import the package.
func (c *corpus) renameEdits(f *funcInfo, repl string) []Edit {
	dir := pathDir(f.path)
	pkgPath := c.module
	if dir != "." {
		pkgPath += "/" + dir
	}
	type pos struct{ line, col int }
	byFile := map[string][]pos{}
	for _, p := range sortedKeys(c.parsed) {
		file := c.parsed[p]
		inPkg := pathDir(p) == dir && (file.Name.Name == c.pkgs[dir].name || file.Name.Name == c.pkgs[dir].name+"_test")
		local := ""
		for _, imp := range file.Imports {
			if ip, _ := strconv.Unquote(imp.Path.Value); ip == pkgPath {
				local = c.pkgs[dir].name
				if imp.Name != nil {
					local = imp.Name.Name
				}
			}
		}
		if !inPkg && local == "" {
			continue
		}
		sels := map[*ast.Ident]bool{}
		ast.Inspect(file, func(n ast.Node) bool {
			if se, ok := n.(*ast.SelectorExpr); ok {
				sels[se.Sel] = true
				if x, ok := se.X.(*ast.Ident); ok && x.Name == local && local != "" && se.Sel.Name == f.decl.Name.Name {
					ps := c.fset.Position(se.Sel.Pos())
					byFile[p] = append(byFile[p], pos{ps.Line, ps.Column})
				}
			}
			return true
		})
		if !inPkg || file.Name.Name != c.pkgs[dir].name {
			continue
		}
		ast.Inspect(file, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok && id.Name == f.decl.Name.Name && !sels[id] {
				ps := c.fset.Position(id.Pos())
				byFile[p] = append(byFile[p], pos{ps.Line, ps.Column})
			}
			return true
		})
	}
	var edits []Edit
	for _, p := range sortedKeys(byFile) {
		lines := c.lines[p]
		ps := byFile[p]
		sort.Slice(ps, func(i, j int) bool {
			return ps[i].line < ps[j].line || ps[i].line == ps[j].line && ps[i].col > ps[j].col
		})
		for i := 0; i < len(ps); {
			l := ps[i].line
			text := lines[l-1]
			nl := text
			for ; i < len(ps) && ps[i].line == l; i++ {
				at := ps[i].col - 1
				nl = nl[:at] + repl + nl[at+len(f.decl.Name.Name):]
			}
			edits = append(edits, Edit{Path: p, Line: l, EndLine: l, Old: text, New: nl})
		}
	}
	return edits
}

// genDefault changes, in code, a constant whose value a doc states.
func (c *corpus) genDefault(rng *rand.Rand) []Mutation {
	sites := c.numberSites()
	used := map[string]bool{}
	return sample(rng, len(sites), mutationQuota[MutDefault], func(i int) (Mutation, bool) {
		s := sites[i]
		if s.k.lit == nil || s.k.body {
			return Mutation{}, false
		}
		key := fmt.Sprintf("%s:%d", s.k.path, s.k.lit.Pos())
		if used[key] || strings.HasSuffix(s.k.path, "_test.go") {
			return Mutation{}, false
		}
		used[key] = true
		old := s.k.lit.Value
		var repl string
		if s.k.float {
			f, err := strconv.ParseFloat(old, 64)
			if err != nil {
				return Mutation{}, false
			}
			repl = strconv.FormatFloat(f*2, 'g', -1, 64)
		} else {
			n, err := strconv.ParseInt(old, 0, 64)
			if err != nil || n == 0 {
				return Mutation{}, false
			}
			repl = strconv.FormatInt(n*2, 10)
		}
		ps := c.fset.Position(s.k.lit.Pos())
		text := c.lines[s.k.path][ps.Line-1]
		nl := text[:ps.Column-1] + repl + text[ps.Column-1+len(old):]
		var expect []Span
		for _, t := range sites {
			if t.k.path == s.k.path && t.k.name == s.k.name && t.k.line == s.k.line {
				sp := c.docSpan(t.d)
				if !containsSpan(expect, sp) {
					expect = append(expect, sp)
				}
			}
		}
		return Mutation{Kind: MutDefault, Style: StyleProse, Path: s.d.path, Line: s.d.line,
			Edits:  []Edit{{Path: s.k.path, Line: ps.Line, EndLine: ps.Line, Old: text, New: nl}},
			Expect: expect, Detail: s.k.name + ": " + old + " -> " + repl + " in code", Sentence: strings.TrimSpace(s.d.text)}, true
	})
}

// withinFactor is true when a and b are within a factor f of each other.
func withinFactor(a, b constant.Value, f float64) bool {
	x, _ := constant.Float64Val(constant.ToFloat(a))
	y, _ := constant.Float64Val(constant.ToFloat(b))
	if x <= 0 || y <= 0 {
		return false
	}
	return x/y <= f && y/x <= f
}

func containsStr(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

func containsSpan(ss []Span, s Span) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

var cleanSwaps = []struct{ from, to string }{
	{"e.g. ", "for example, "}, {"e.g., ", "for example, "}, {"i.e. ", "that is, "}, {"i.e., ", "that is, "},
	{"does not ", "doesn't "}, {"doesn't ", "does not "}, {"cannot ", "can't "}, {"can't ", "cannot "},
	{"is not ", "isn't "}, {"isn't ", "is not "}, {"will not ", "won't "}, {"won't ", "will not "},
}

// genClean makes fact-keeping edits: a Go doc rewrapped at another width,
// or a phrase spelt another way.
func (c *corpus) genClean(rng *rand.Rand) []Mutation {
	var out []Mutation
	// Rewraps of Go doc comments of at least three prose lines.
	groups := map[*ast.CommentGroup][]*docLine{}
	var order []*ast.CommentGroup
	for i := range c.docs {
		d := &c.docs[i]
		if d.group == nil {
			continue
		}
		if _, ok := groups[d.group]; !ok {
			order = append(order, d.group)
		}
		groups[d.group] = append(groups[d.group], d)
	}
	half := mutationQuota[MutClean] / 2
	for _, i := range rng.Perm(len(order)) {
		if len(out) >= half {
			break
		}
		ls := groups[order[i]]
		if len(ls) < 3 || ls[len(ls)-1].line-ls[0].line != len(ls)-1 {
			continue
		}
		var words []string
		plain := true
		for _, d := range ls {
			if strings.TrimSpace(d.text) == "" || strings.HasPrefix(strings.TrimSpace(d.text), "-") {
				plain = false
			}
			words = append(words, strings.Fields(d.text)...)
		}
		if !plain || len(words) < 20 {
			continue
		}
		width := 50 + rng.IntN(40)
		prefix := ls[0].prefix
		var nl []string
		cur := ""
		for _, w := range words {
			if cur != "" && len(cur)+1+len(w) > width {
				nl = append(nl, prefix+cur)
				cur = w
				continue
			}
			if cur != "" {
				cur += " "
			}
			cur += w
		}
		nl = append(nl, prefix+cur)
		old := strings.Join(c.lines[ls[0].path][ls[0].line-1:ls[len(ls)-1].line], "\n")
		if strings.Join(nl, "\n") == old {
			continue
		}
		out = append(out, Mutation{Kind: MutClean, Path: ls[0].path, Line: ls[0].line,
			Edits:  []Edit{{Path: ls[0].path, Line: ls[0].line, EndLine: ls[len(ls)-1].line, Old: old, New: strings.Join(nl, "\n")}},
			Detail: fmt.Sprintf("rewrapped at %d columns", width), Sentence: strings.TrimSpace(ls[0].text)})
	}
	for _, i := range rng.Perm(len(c.docs)) {
		if len(out) >= mutationQuota[MutClean] {
			break
		}
		d := &c.docs[i]
		for _, sw := range cleanSwaps {
			at := strings.Index(d.text, sw.from)
			if at < 0 {
				continue
			}
			out = append(out, Mutation{Kind: MutClean, Path: d.path, Line: d.line,
				Edits:  []Edit{replaceInLine(d, c.lines[d.path], at, at+len(sw.from), sw.to)},
				Detail: strings.TrimSpace(sw.from) + " -> " + strings.TrimSpace(sw.to), Sentence: strings.TrimSpace(d.text)})
			break
		}
	}
	return out
}

// sample tries candidates 0..n-1 in an order rng draws and keeps what try
// makes of them, up to quota.
func sample(rng *rand.Rand, n, quota int, try func(i int) (Mutation, bool)) []Mutation {
	var out []Mutation
	for _, i := range rng.Perm(n) {
		if len(out) >= quota {
			break
		}
		if m, ok := try(i); ok {
			out = append(out, m)
		}
	}
	return out
}

// Apply returns files with m's edits made; an edit whose old text does not
// match is an error naming the file and line.
func (m Mutation) Apply(files map[string]string) (map[string]string, error) {
	out := map[string]string{}
	byPath := map[string][]Edit{}
	for _, e := range m.Edits {
		byPath[e.Path] = append(byPath[e.Path], e)
	}
	for _, p := range sortedKeys(byPath) {
		src, ok := files[p]
		if !ok {
			return nil, fmt.Errorf("mutation %s: %s: no such file", m.ID, p)
		}
		lines := strings.Split(src, "\n")
		es := byPath[p]
		sort.Slice(es, func(i, j int) bool { return es[i].Line > es[j].Line })
		for _, e := range es {
			if e.Line < 1 || e.EndLine < e.Line || e.EndLine > len(lines) {
				return nil, fmt.Errorf("mutation %s: %s:%d-%d: outside the file's %d lines", m.ID, p, e.Line, e.EndLine, len(lines))
			}
			if got := strings.Join(lines[e.Line-1:e.EndLine], "\n"); got != e.Old {
				return nil, fmt.Errorf("mutation %s: %s:%d: text is %q, want %q", m.ID, p, e.Line, got, e.Old)
			}
			lines = append(lines[:e.Line-1], append(strings.Split(e.New, "\n"), lines[e.EndLine:]...)...)
		}
		out[p] = strings.Join(lines, "\n")
	}
	return out, nil
}

// GenerateMutationFile generates the mutation set of every module in mods
// that belongs to the mutation set, at its pinned version, seeded by seed
// and the module path.
func GenerateMutationFile(ctx context.Context, mods []ModuleEntry, seed uint64) (MutationFile, error) {
	mf := MutationFile{Seed: seed, Styles: StyleCounts{}, PerModule: map[string]StyleCounts{}, Cases: []Mutation{}}
	for _, m := range mods {
		if !(Selection{}).wants(SetMutation, m) {
			continue
		}
		dir, err := download(ctx, m.Path, m.Version)
		if err != nil {
			return mf, err
		}
		files, err := readTree(dir)
		if err != nil {
			return mf, err
		}
		cases, styles := GenerateMutations(m.Path, m.Version, files, rand.New(rand.NewPCG(seed, fnv64(m.Path))))
		mf.Cases = append(mf.Cases, cases...)
		mf.PerModule[m.Path] = styles
		for k, v := range styles {
			mf.Styles[k] += v
		}
	}
	return mf, nil
}

// fnv64 is FNV-1a of s.
func fnv64(s string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= 1099511628211
	}
	return h
}
