package quality

import (
	"go/ast"
	"go/parser"
	"go/token"
	"regexp"
	"strconv"
	"strings"
	"unicode"

	"github.com/docreview/docreview/review"
)

// Category names a kind of case.
type Category string

// The benchmark's categories: drift the review must find, then clean edits
// and real version diffs it must stay quiet on.
const (
	// WrongIdentifier: a doc link or backticked name becomes a near miss
	// the module does not declare.
	WrongIdentifier Category = "wrong-identifier"
	// WrongLiteral: a doc's number with a unit no longer matches the
	// literal of the declaration it documents.
	WrongLiteral Category = "wrong-literal"
	// ChangedDefault: the literal changes in code; the doc stating it
	// does not.
	ChangedDefault Category = "changed-default"
	// RenamedMethod: a method and its call sites are renamed; docs are
	// not.
	RenamedMethod Category = "renamed-method"
	// WrongParameter: a parameter the doc names is renamed in code.
	WrongParameter Category = "wrong-parameter"
	// SnippetMethod: a Markdown Go block calls a near miss of a method.
	SnippetMethod Category = "snippet-wrong-method"
	// SnippetImport: a Markdown Go block loses an import it uses.
	SnippetImport Category = "snippet-missing-import"
	// MissingContract: a doc loses the sentence stating its error or
	// panic contract.
	MissingContract Category = "missing-contract"
	// Restatement: a doc is reduced to a restatement of its name.
	Restatement Category = "restatement"
	// CleanReflow: a doc is rewrapped at another width.
	CleanReflow Category = "clean-reflow"
	// CleanTypo: a misspelt doc word is fixed.
	CleanTypo Category = "clean-typo-fix"
	// CleanTrue: a doc gains a sentence quoting its constant's real value.
	CleanTrue Category = "clean-true-sentence"
	// VersionDiff: the real diff between consecutive module versions.
	VersionDiff Category = "version-diff"
)

// Categories returns the generated categories in report order, in a new
// slice; [VersionDiff] is not generated and not listed.
func Categories() []Category {
	return []Category{
		WrongIdentifier, WrongParameter, RenamedMethod, ChangedDefault, WrongLiteral,
		SnippetMethod, SnippetImport, MissingContract, Restatement,
		CleanReflow, CleanTypo, CleanTrue,
	}
}

// Clean reports whether cases of c must stay quiet.
func (c Category) Clean() bool {
	return c == CleanReflow || c == CleanTypo || c == CleanTrue || c == VersionDiff
}

// Span is a line range of a file at head.
type Span struct {
	Path          string
	Line, EndLine int
}

// Case is one pull request of the benchmark.
type Case struct {
	Module   string
	Category Category
	// Site says what was changed ("multierr.go: Combine doc").
	Site string
	// Pre, when non-nil, holds files written and committed on top of the
	// module before Edit; the review's base is then that commit.
	Pre map[string]string
	// Edit holds the files of the head commit, by path.
	Edit map[string]string
	// Expect lists the claims that must be flagged; empty for clean cases.
	Expect []Span
	// Label is the expected label; "" accepts any finding.
	Label review.Label
}

// generate returns every candidate case of cat in s, in file order; nil
// for categories that are not generated.
func generate(s *source, cat Category) []Case {
	switch cat {
	case WrongIdentifier:
		return genWrongIdentifier(s)
	case WrongLiteral, ChangedDefault:
		return genNumbers(s, cat)
	case RenamedMethod:
		return genRenamed(s)
	case WrongParameter:
		return genWrongParameter(s)
	case SnippetMethod, SnippetImport:
		return genSnippet(s, cat)
	case MissingContract:
		return genMissingContract(s)
	case Restatement:
		return genRestatement(s)
	case CleanReflow:
		return genReflow(s)
	case CleanTypo:
		return genTypo(s)
	case CleanTrue:
		return genTrueSentence(s)
	}
	return nil
}

func (s *source) groupSpan(path string, g *ast.CommentGroup, lines int) Span {
	start := s.fset.Position(g.Pos()).Line
	if lines <= 0 {
		lines = s.fset.Position(g.End()).Line - start + 1
	}
	return Span{Path: path, Line: start, EndLine: start + lines - 1}
}

var (
	docLinkRE  = regexp.MustCompile(`\[([A-Z]\w*(?:\.[A-Z]\w*)?)\]|` + "`" + `([A-Z]\w*(?:\.[A-Z]\w*)?)` + "`")
	mdCodeRE   = regexp.MustCompile("`([A-Z]\\w*(?:\\.[A-Z]\\w*)?)`")
	numberRE   = regexp.MustCompile(`\b\d+(?:\.\d+)?(?:[ -]?(?i:ns|us|µs|ms|s|m|h|B|KB|kB|MB|MiB|KiB|GB|GiB|nanoseconds?|microseconds?|milliseconds?|seconds?|minutes?|hours?|days?|bytes?|bits?|kilobytes?|megabytes?|characters?|chars|digits?|entries|items?|elements?|times|retries|attempts?|runes?|lines?|columns?|levels?|places?|decimals?|octets?|nibbles?|words?|workers?|percent|%))\b`)
	digitsRE   = regexp.MustCompile(`^\d+(?:\.\d+)?`)
	fenceRE    = regexp.MustCompile("^\\s*```")
	callRE     = regexp.MustCompile(`(\w+)\.([A-Z]\w*)\(`)
	importRE   = regexp.MustCompile(`^\s*(?:import\s+)?(?:\w+\s+)?"([\w./-]+)"\s*$`)
	proseRE    = regexp.MustCompile(`\b[a-z]{6,}\b`)
	sentenceRE = regexp.MustCompile(`\b[Ee]rrors?\b|\bErr[A-Z]\w*|\bpanics?\b`)
)

// genWrongIdentifier replaces a resolved doc link or backticked name with
// a near miss the module does not declare.
func genWrongIdentifier(s *source) []Case {
	var out []Case
	for _, d := range s.docSites() {
		src := s.files[d.path]
		lo, hi := s.off(d.group.Pos()), s.off(d.group.End())
		for _, m := range docLinkRE.FindAllStringSubmatchIndex(src[lo:hi], -1) {
			a, b := m[2], m[3]
			if a < 0 {
				a, b = m[4], m[5]
			}
			name := src[lo+a : lo+b]
			if !s.names[name] {
				continue
			}
			prefix, last := "", name
			if i := strings.LastIndexByte(name, '.'); i >= 0 {
				prefix, last = name[:i+1], name[i+1:]
			}
			miss := s.nearMiss(last)
			if miss == "" || s.names[prefix+miss] {
				continue
			}
			out = append(out, Case{
				Category: WrongIdentifier, Site: d.path + ": " + name + " in the doc of " + d.name,
				Edit:   map[string]string{d.path: src[:lo+a] + prefix + miss + src[lo+b:]},
				Expect: []Span{s.groupSpan(d.path, d.group, 0)}, Label: review.Contradicted,
			})
		}
	}
	for _, p := range sortedKeys(s.files) {
		if !strings.HasSuffix(p, ".md") || changeLog(p) {
			continue
		}
		lines := strings.Split(s.files[p], "\n")
		inFence := false
		for i, l := range lines {
			if fenceRE.MatchString(l) {
				inFence = !inFence
				continue
			}
			if inFence {
				continue
			}
			for _, m := range mdCodeRE.FindAllStringSubmatchIndex(l, -1) {
				name := l[m[2]:m[3]]
				if !s.names[name] {
					continue
				}
				prefix, last := "", name
				if j := strings.LastIndexByte(name, '.'); j >= 0 {
					prefix, last = name[:j+1], name[j+1:]
				}
				miss := s.nearMiss(last)
				if miss == "" || s.names[prefix+miss] {
					continue
				}
				nl := append([]string(nil), lines...)
				nl[i] = l[:m[2]] + prefix + miss + l[m[3]:]
				out = append(out, Case{
					Category: WrongIdentifier, Site: p + ": `" + name + "`",
					Edit:   map[string]string{p: strings.Join(nl, "\n")},
					Expect: []Span{{Path: p, Line: i + 1, EndLine: i + 1}}, Label: review.Contradicted,
				})
			}
		}
	}
	return out
}

// changeLog reports whether path is a change log, whose history is not
// drift.
func changeLog(path string) bool {
	u := strings.ToUpper(path)
	return strings.Contains(u, "CHANGELOG") || strings.Contains(u, "CHANGES") || strings.Contains(u, "HISTORY")
}

// bumped returns a different, plausible value for the number text n.
func bumped(n string) string {
	if f, err := strconv.ParseFloat(n, 64); err == nil && strings.Contains(n, ".") {
		return strconv.FormatFloat(f*2, 'f', -1, 64)
	}
	v, err := strconv.Atoi(n)
	if err != nil {
		return ""
	}
	if v < 10 {
		return strconv.Itoa(v + 1)
	}
	return strconv.Itoa(v * 2)
}

// genNumbers finds docs stating a number that the documented declaration
// also holds as a literal; WrongLiteral changes the doc, ChangedDefault
// the code.
func genNumbers(s *source, cat Category) []Case {
	var out []Case
	for _, d := range s.docSites() {
		src := s.files[d.path]
		lo, hi := s.off(d.group.Pos()), s.off(d.group.End())
		lits := map[string]*ast.BasicLit{}
		ast.Inspect(d.node, func(n ast.Node) bool {
			if b, ok := n.(*ast.BasicLit); ok && (b.Kind == token.INT || b.Kind == token.FLOAT) {
				if _, seen := lits[b.Value]; !seen {
					lits[b.Value] = b
				}
			}
			return true
		})
		for _, m := range numberRE.FindAllStringIndex(src[lo:hi], -1) {
			m[1] = m[0] + len(digitsRE.FindString(src[lo+m[0]:lo+m[1]]))
			n := src[lo+m[0] : lo+m[1]]
			lit, ok := lits[n]
			if !ok || n == "0" || n == "1" {
				continue
			}
			if m[0] > 0 && (src[lo+m[0]-1] == 'v' || src[lo+m[0]-1] == '.' || src[lo+m[0]-1] == '-') {
				continue
			}
			nb := bumped(n)
			if nb == "" {
				continue
			}
			c := Case{Category: cat, Module: s.module, Expect: []Span{s.groupSpan(d.path, d.group, 0)}, Label: review.Contradicted}
			if cat == WrongLiteral {
				c.Site = d.path + ": " + n + " in the doc of " + d.name
				c.Edit = map[string]string{d.path: src[:lo+m[0]] + nb + src[lo+m[1]:]}
			} else {
				o := s.off(lit.Pos())
				c.Site = d.path + ": " + d.name + " holds " + nb + " instead of " + n
				c.Edit = map[string]string{d.path: src[:o] + nb + src[o+len(lit.Value):]}
			}
			out = append(out, c)
			break
		}
	}
	return out
}

// ifaceOrStd lists method names that implement well-known interfaces;
// renaming them would not be a realistic change.
var ifaceOrStd = map[string]bool{
	"String": true, "Error": true, "Read": true, "Write": true, "Close": true, "Len": true, "Less": true,
	"Swap": true, "ServeHTTP": true, "MarshalJSON": true, "UnmarshalJSON": true, "MarshalText": true,
	"UnmarshalText": true, "Scan": true, "Value": true, "MarshalBinary": true, "UnmarshalBinary": true,
	"Unwrap": true, "Is": true, "As": true, "Format": true, "GoString": true, "Set": true, "Type": true,
}

// genRenamed renames an exported method and its call sites in code, and
// leaves every comment and Markdown file alone.
func genRenamed(s *source) []Case {
	type parsed struct {
		path string
		file *ast.File
	}
	var all []parsed
	fset := token.NewFileSet()
	declCount := map[string]int{}
	for _, p := range sortedKeys(s.files) {
		if !strings.HasSuffix(p, ".go") {
			continue
		}
		f, err := parser.ParseFile(fset, p, s.files[p], parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			continue
		}
		all = append(all, parsed{p, f})
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok {
				declCount[fd.Name.Name]++
			}
		}
	}
	var out []Case
	for _, d := range s.docSites() {
		if d.fn == nil || d.fn.Recv == nil || declCount[d.ident] != 1 || s.declared[d.ident] != 1 || ifaceOrStd[d.ident] || len(d.ident) < 4 {
			continue
		}
		ifaceDecl := 0
		for k := range s.names {
			if strings.HasSuffix(k, "."+d.ident) {
				ifaceDecl++
			}
		}
		if ifaceDecl > 1 {
			continue
		}
		newName := "Do" + d.ident
		if strings.HasPrefix(d.ident, "Get") {
			newName = "Fetch" + strings.TrimPrefix(d.ident, "Get")
		}
		if s.names[newName] || s.words()[newName] {
			continue
		}
		edit := map[string]string{}
		for _, pf := range all {
			var offs []int
			ast.Inspect(pf.file, func(n ast.Node) bool {
				switch x := n.(type) {
				case *ast.SelectorExpr:
					if x.Sel.Name == d.ident {
						offs = append(offs, fset.Position(x.Sel.Pos()).Offset)
					}
				case *ast.FuncDecl:
					if x.Name.Name == d.ident && x.Recv != nil {
						offs = append(offs, fset.Position(x.Name.Pos()).Offset)
					}
				}
				return true
			})
			if len(offs) == 0 {
				continue
			}
			src := s.files[pf.path]
			var b strings.Builder
			prev := 0
			for _, o := range sortedInts(offs) {
				b.WriteString(src[prev:o])
				b.WriteString(newName)
				prev = o + len(d.ident)
			}
			b.WriteString(src[prev:])
			edit[pf.path] = b.String()
		}
		// A reference to the method: after a dot, bracket or backtick, as
		// a comment's first word, or called with "()".
		word := regexp.MustCompile(`(?:[.\[` + "`" + `]|^\s*(?://|/\*)?\s*)` + regexp.QuoteMeta(d.ident) + `\b|\b` + regexp.QuoteMeta(d.ident) + `\(\)`)
		own := s.groupSpan(d.path, d.group, 0)
		expect := []Span{own}
		for _, p := range sortedKeys(s.files) {
			isGo, isMD := strings.HasSuffix(p, ".go"), strings.HasSuffix(p, ".md")
			if !isGo && !isMD {
				continue
			}
			inComment := commentLines(s.files[p], isGo)
			for i, l := range strings.Split(s.files[p], "\n") {
				if isGo && !inComment[i+1] {
					continue
				}
				if p == d.path && i+1 >= own.Line && i+1 <= own.EndLine || changeLog(p) {
					continue
				}
				if word.MatchString(l) {
					expect = append(expect, Span{Path: p, Line: i + 1, EndLine: i + 1})
				}
			}
		}
		if len(expect) == 1 {
			continue
		}
		out = append(out, Case{
			Category: RenamedMethod, Site: d.path + ": " + d.name + " renamed " + newName,
			Edit: edit, Expect: expect, Label: review.Contradicted,
		})
	}
	return out
}

// commentLines returns the 1-based lines of a Go file that comments
// cover, "//" and "/* */" alike; nil for other files or a file that does
// not parse.
func commentLines(src string, isGo bool) map[int]bool {
	if !isGo {
		return nil
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", src, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return nil
	}
	lines := map[int]bool{}
	for _, g := range f.Comments {
		for l := fset.Position(g.Pos()).Line; l <= fset.Position(g.End()).Line; l++ {
			lines[l] = true
		}
	}
	return lines
}

func sortedInts(v []int) []int {
	out := append([]int(nil), v...)
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j] < out[j-1]; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

// paramRenames are realistic renames of common parameter names.
var paramRenames = map[string]string{
	"name": "key", "key": "name", "value": "val", "data": "buf", "input": "src", "str": "text",
	"text": "str", "size": "length", "index": "pos", "path": "route", "prefix": "head",
}

// determiners are words after which a noun is English, not a name.
var determiners = map[string]bool{
	"a": true, "an": true, "the": true, "this": true, "that": true, "each": true, "every": true,
	"its": true, "their": true, "any": true, "some": true, "no": true, "our": true, "your": true,
}

// functionWords are English words that parameters are sometimes named
// after ("into", "from") but that prose uses as themselves.
var functionWords = map[string]bool{
	"into": true, "from": true, "to": true, "in": true, "on": true, "at": true, "by": true, "with": true,
	"for": true, "of": true, "as": true, "or": true, "and": true, "if": true, "then": true, "than": true,
	"out": true, "over": true, "after": true, "before": true, "until": true, "since": true,
}

// namesParam reports whether doc uses p as a name at least once: in
// backticks, or not only as a noun behind a determiner ("accepts a
// shorthand letter", "returns the match") or as a function word ("append
// it into the error"), unless "argument" or "parameter" follows ("the tpl
// argument"). A doc that uses a word only as English stays true when the
// parameter of that name is renamed, so such a rename is no drift.
func namesParam(doc, p string) bool {
	if strings.Contains(doc, "`"+p+"`") {
		return true
	}
	words := wordRE.FindAllString(doc, -1)
	for i, w := range words {
		if w != p {
			continue
		}
		if !functionWords[p] && (i == 0 || !determiners[strings.ToLower(words[i-1])]) {
			return true
		}
		if i+1 < len(words) {
			switch strings.ToLower(words[i+1]) {
			case "argument", "arguments", "parameter", "parameters":
				return true
			}
		}
	}
	return false
}

// genWrongParameter renames a parameter in code that the doc names.
func genWrongParameter(s *source) []Case {
	var out []Case
	for _, d := range s.docSites() {
		if d.fn == nil || d.fn.Body == nil {
			continue
		}
		docWords := map[string]bool{}
		for _, w := range wordRE.FindAllString(d.group.Text(), -1) {
			docWords[w] = true
		}
		fnWords := map[string]bool{}
		src := s.files[d.path]
		for _, w := range wordRE.FindAllString(src[s.off(d.fn.Pos()):s.off(d.fn.End())], -1) {
			fnWords[w] = true
		}
		for _, f := range d.fn.Type.Params.List {
			for _, id := range f.Names {
				p := id.Name
				if len(p) < 3 || !docWords[p] || s.names[p] || !namesParam(d.group.Text(), p) {
					continue
				}
				np := paramRenames[p]
				if np == "" {
					np = p + "Arg"
				}
				if fnWords[np] || docWords[np] {
					continue
				}
				var offs []int
				keys := map[*ast.Ident]bool{}
				ast.Inspect(d.fn, func(n ast.Node) bool {
					switch x := n.(type) {
					case *ast.SelectorExpr:
						keys[x.Sel] = true
					case *ast.KeyValueExpr:
						if k, ok := x.Key.(*ast.Ident); ok {
							keys[k] = true
						}
					case *ast.Ident:
						if x.Name == p && !keys[x] {
							offs = append(offs, s.off(x.Pos()))
						}
					}
					return true
				})
				var b strings.Builder
				prev := 0
				for _, o := range sortedInts(offs) {
					b.WriteString(src[prev:o])
					b.WriteString(np)
					prev = o + len(p)
				}
				b.WriteString(src[prev:])
				out = append(out, Case{
					Category: WrongParameter, Site: d.path + ": " + d.name + " parameter " + p + " renamed " + np,
					Edit:   map[string]string{d.path: b.String()},
					Expect: []Span{s.groupSpan(d.path, d.group, 0)}, Label: review.Contradicted,
				})
			}
		}
	}
	return out
}

// fencedGo returns the Go blocks of a Markdown file: 0-based line indexes
// of the opening and closing fences.
func fencedGo(lines []string) [][2]int {
	var out [][2]int
	open := -1
	for i, l := range lines {
		if !fenceRE.MatchString(l) {
			continue
		}
		if open < 0 {
			lang := strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(l), "`"))
			if lang == "go" || lang == "golang" {
				open = i
			} else {
				open = -2 - i
			}
			continue
		}
		if open >= 0 {
			out = append(out, [2]int{open, i})
		}
		open = -1
	}
	return out
}

// genSnippet breaks a Go block of a Markdown file: SnippetMethod calls a
// near miss of a method the module declares, SnippetImport drops an
// import the block uses.
func genSnippet(s *source, cat Category) []Case {
	var out []Case
	for _, p := range sortedKeys(s.files) {
		if !strings.HasSuffix(p, ".md") {
			continue
		}
		lines := strings.Split(s.files[p], "\n")
		for _, blk := range fencedGo(lines) {
			span := Span{Path: p, Line: blk[0] + 1, EndLine: blk[1] + 1}
			body := strings.Join(lines[blk[0]+1:blk[1]], "\n")
			for i := blk[0] + 1; i < blk[1]; i++ {
				l := lines[i]
				if cat == SnippetMethod {
					m := callRE.FindStringSubmatchIndex(l)
					if m == nil || stdPackages[l[m[2]:m[3]]] || !s.names[l[m[4]:m[5]]] {
						continue
					}
					m = m[2:]
					name := l[m[2]:m[3]]
					miss := s.nearMiss(name)
					if miss == "" {
						continue
					}
					nl := append([]string(nil), lines...)
					nl[i] = l[:m[2]] + miss + l[m[3]:]
					out = append(out, Case{Category: cat, Site: p + ": ." + name + " called as ." + miss,
						Edit: map[string]string{p: strings.Join(nl, "\n")}, Expect: []Span{span}, Label: review.Contradicted})
					break
				}
				m := importRE.FindStringSubmatch(l)
				if m == nil {
					continue
				}
				pkg := m[1][strings.LastIndexByte(m[1], '/')+1:]
				if !strings.Contains(body, pkg+".") {
					continue
				}
				nl := append(append([]string(nil), lines[:i]...), lines[i+1:]...)
				span.EndLine--
				out = append(out, Case{Category: cat, Site: p + ": import " + m[1] + " dropped",
					Edit: map[string]string{p: strings.Join(nl, "\n")}, Expect: []Span{span}})
				break
			}
		}
	}
	return out
}

// stdPackages are standard-library package names README snippets call
// into; a call on one of them is not a call of the module's API.
var stdPackages = map[string]bool{
	"strings": true, "fmt": true, "http": true, "os": true, "json": true, "time": true, "log": true,
	"context": true, "errors": true, "io": true, "bytes": true, "sort": true, "strconv": true, "url": true,
	"filepath": true, "httptest": true, "signal": true, "template": true, "regexp": true, "sync": true,
}

// sentences splits a paragraph after ". ".
func sentences(p string) []string {
	var out []string
	for {
		i := strings.Index(p, ". ")
		if i < 0 {
			break
		}
		out = append(out, p[:i+1])
		p = p[i+2:]
	}
	if p != "" {
		out = append(out, p)
	}
	return out
}

// genMissingContract deletes the sentence of a function's doc that states
// its error or panic contract.
func genMissingContract(s *source) []Case {
	var out []Case
	for _, d := range s.docSites() {
		if d.fn == nil || !simpleDoc(d.group) || d.fn.Type.Results == nil {
			continue
		}
		returnsErr := false
		for _, r := range d.fn.Type.Results.List {
			if id, ok := r.Type.(*ast.Ident); ok && id.Name == "error" {
				returnsErr = true
			}
		}
		if !returnsErr {
			continue
		}
		paras := paragraphs(d.group)
		for pi, para := range paras {
			ss := sentences(para)
			idx := -1
			for si, sen := range ss {
				if (pi > 0 || si > 0) && sentenceRE.MatchString(sen) {
					idx = si
					break
				}
			}
			if idx < 0 {
				continue
			}
			np := append([]string(nil), paras...)
			rest := append(append([]string(nil), ss[:idx]...), ss[idx+1:]...)
			if len(rest) == 0 {
				np = append(np[:pi], np[pi+1:]...)
			} else {
				np[pi] = strings.Join(rest, " ")
			}
			text := renderDoc(np, 77, s.indentOf(d.path, d.group))
			out = append(out, Case{
				Category: MissingContract, Site: d.path + ": the doc of " + d.name + " loses " + strconv.Quote(ss[idx]),
				Edit:   map[string]string{d.path: s.replaceGroup(d.path, d.group, text)},
				Expect: []Span{s.groupSpan(d.path, d.group, strings.Count(text, "\n")+1)}, Label: review.Incomplete,
			})
			break
		}
	}
	return out
}

// splitCamel splits "ParseDuration" into "Parse", "Duration".
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

// restateVerbs maps a leading name word to the verb a restating doc uses.
var restateVerbs = map[string]string{
	"Get": "gets the", "Set": "sets the", "New": "returns a new", "Parse": "parses the", "Add": "adds the",
	"Remove": "removes the", "Is": "reports whether it is", "Has": "reports whether it has", "Format": "formats the",
	"Append": "appends the", "Must": "must", "Read": "reads the", "Write": "writes the", "Handle": "handles the",
	"Match": "matches the", "Compare": "compares the", "Validate": "validates the", "Combine": "combines the",
	"Build": "builds the", "Encode": "encodes the", "Decode": "decodes the", "Lookup": "looks up the",
	"Visit": "visits the", "Init": "initialises the", "Print": "prints the", "Comma": "commas the",
}

// genRestatement replaces a function's doc with one that only restates
// its name.
func genRestatement(s *source) []Case {
	var out []Case
	for _, d := range s.docSites() {
		if d.fn == nil || !simpleDoc(d.group) || len(strings.Fields(d.group.Text())) < 8 {
			continue
		}
		words := splitCamel(d.ident)
		var rest []string
		for _, w := range words[1:] {
			rest = append(rest, strings.ToLower(w))
		}
		verb, ok := restateVerbs[words[0]]
		switch {
		case ok && len(rest) > 0:
		case d.fn.Type.Results != nil && len(d.fn.Type.Results.List) > 0:
			verb, rest = "returns the", nil
			for _, w := range words {
				rest = append(rest, strings.ToLower(w))
			}
		default:
			continue
		}
		text := "// " + d.ident + " " + verb + " " + strings.Join(rest, " ") + "."
		out = append(out, Case{
			Category: Restatement, Site: d.path + ": the doc of " + d.name + " becomes " + strconv.Quote(text),
			Edit:   map[string]string{d.path: s.replaceGroup(d.path, d.group, text)},
			Expect: []Span{s.groupSpan(d.path, d.group, 1)}, Label: review.Incomplete,
		})
	}
	return out
}

// genReflow rewraps a doc comment at another width.
func genReflow(s *source) []Case {
	var out []Case
	for _, d := range s.docSites() {
		if !simpleDoc(d.group) || len(d.group.List) < 3 {
			continue
		}
		old := s.files[d.path][s.off(d.group.Pos()):s.off(d.group.End())]
		indent := s.indentOf(d.path, d.group)
		text := renderDoc(paragraphs(d.group), 60, indent)
		if text == old {
			text = renderDoc(paragraphs(d.group), 100, indent)
		}
		if text == old {
			continue
		}
		out = append(out, Case{Category: CleanReflow, Site: d.path + ": the doc of " + d.name + " rewrapped",
			Edit: map[string]string{d.path: s.replaceGroup(d.path, d.group, text)}})
	}
	return out
}

// genTypo commits a doc with a misspelt word, then the fix.
func genTypo(s *source) []Case {
	var out []Case
	for _, d := range s.docSites() {
		src := s.files[d.path]
		lo, hi := s.off(d.group.Pos()), s.off(d.group.End())
		m := proseRE.FindStringIndex(src[lo:hi])
		if m == nil {
			continue
		}
		w := src[lo+m[0] : lo+m[1]]
		if s.names[w] {
			continue
		}
		b := []byte(w)
		b[2], b[3] = b[3], b[2]
		if string(b) == w {
			continue
		}
		out = append(out, Case{Category: CleanTypo, Site: d.path + ": " + string(b) + " -> " + w + " in the doc of " + d.name,
			Pre:  map[string]string{d.path: src[:lo+m[0]] + string(b) + src[lo+m[1]:]},
			Edit: map[string]string{d.path: src}})
	}
	return out
}

// genTrueSentence adds a sentence quoting a constant's real value to its
// doc.
func genTrueSentence(s *source) []Case {
	var out []Case
	for _, d := range s.docSites() {
		vs, ok := d.node.(*ast.ValueSpec)
		if !ok || len(vs.Values) != 1 || !simpleDoc(d.group) {
			continue
		}
		val := valueText(vs.Values[0])
		if val == "" {
			continue
		}
		paras := paragraphs(d.group)
		paras[len(paras)-1] += " Its value is " + val + "."
		text := renderDoc(paras, 77, s.indentOf(d.path, d.group))
		out = append(out, Case{Category: CleanTrue, Site: d.path + ": the doc of " + d.name + " states its value " + val,
			Edit: map[string]string{d.path: s.replaceGroup(d.path, d.group, text)}})
	}
	return out
}

// durationUnits spells the time package's units.
var durationUnits = map[string]string{
	"Nanosecond": "nanoseconds", "Microsecond": "microseconds", "Millisecond": "milliseconds",
	"Second": "seconds", "Minute": "minutes", "Hour": "hours",
}

// valueText spells a constant expression's value: a number literal, a
// product or shift of number literals, or a number times a time unit
// ("30 seconds"), or errors.New of a string ("the error \"eof\""); ""
// for anything else.
func valueText(e ast.Expr) string {
	switch x := e.(type) {
	case *ast.BasicLit:
		if x.Kind == token.INT || x.Kind == token.FLOAT {
			return x.Value
		}
	case *ast.CallExpr:
		sel, ok := x.Fun.(*ast.SelectorExpr)
		if !ok || len(x.Args) != 1 {
			return ""
		}
		if pkg, ok := sel.X.(*ast.Ident); !ok || pkg.Name != "errors" || sel.Sel.Name != "New" {
			return ""
		}
		if lit, ok := x.Args[0].(*ast.BasicLit); ok && lit.Kind == token.STRING {
			return "the error " + lit.Value
		}
	case *ast.BinaryExpr:
		l, lok := x.X.(*ast.BasicLit)
		if !lok || l.Kind != token.INT {
			return ""
		}
		if sel, ok := x.Y.(*ast.SelectorExpr); ok && x.Op == token.MUL {
			if pkg, ok := sel.X.(*ast.Ident); ok && pkg.Name == "time" && durationUnits[sel.Sel.Name] != "" {
				return l.Value + " " + durationUnits[sel.Sel.Name]
			}
			return ""
		}
		r, rok := x.Y.(*ast.BasicLit)
		if !rok || r.Kind != token.INT {
			return ""
		}
		a, err1 := strconv.ParseInt(l.Value, 0, 64)
		b, err2 := strconv.ParseInt(r.Value, 0, 64)
		if err1 != nil || err2 != nil {
			return ""
		}
		switch {
		case x.Op == token.MUL:
			return strconv.FormatInt(a*b, 10)
		case x.Op == token.SHL && b < 62:
			return strconv.FormatInt(a<<b, 10)
		}
	}
	return ""
}
