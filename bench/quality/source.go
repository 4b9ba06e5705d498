package quality

import (
	"go/ast"
	"go/parser"
	"go/token"
	"regexp"
	"sort"
	"strings"

	"github.com/docreview/docreview/retrieval"
)

// source is one module's files at the mutated version, parsed once.
type source struct {
	module string
	files  map[string]string
	fset   *token.FileSet
	// gofiles are the parsed non-test Go files, sorted by path.
	gofiles []goFile
	// names holds every identifier declared in the module, and
	// "Type.Method" for methods.
	names   map[string]bool
	wordSet map[string]bool
	// declared counts the declarations of each bare name (funcs,
	// methods, types, fields, consts and vars).
	declared map[string]int
}

type goFile struct {
	path string
	file *ast.File
}

// docSite is a declaration with a doc comment.
type docSite struct {
	path  string
	group *ast.CommentGroup
	name  string // declared name, "Type.Method" for methods
	ident string // bare identifier
	node  ast.Node
	fn    *ast.FuncDecl // nil unless a func or method
}

func newSource(module string, files map[string]string) *source {
	s := &source{module: module, files: files, fset: token.NewFileSet(), names: map[string]bool{}, declared: map[string]int{}}
	paths := sortedKeys(files)
	for _, p := range paths {
		if !strings.HasSuffix(p, ".go") || strings.Contains(p, "testdata/") {
			continue
		}
		f, err := parser.ParseFile(s.fset, p, files[p], parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			continue
		}
		if !strings.HasSuffix(p, "_test.go") {
			s.gofiles = append(s.gofiles, goFile{path: p, file: f})
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				s.declared[d.Name.Name]++
				s.names[d.Name.Name] = true
				if r := recvName(d); r != "" {
					s.names[r+"."+d.Name.Name] = true
				}
			case *ast.GenDecl:
				for _, sp := range d.Specs {
					switch sp := sp.(type) {
					case *ast.TypeSpec:
						s.names[sp.Name.Name] = true
						s.declared[sp.Name.Name]++
						ast.Inspect(sp.Type, func(n ast.Node) bool {
							if f, ok := n.(*ast.Field); ok {
								for _, nm := range f.Names {
									s.declared[nm.Name]++
									s.names[nm.Name] = true
									s.names[sp.Name.Name+"."+nm.Name] = true
								}
							}
							return true
						})
					case *ast.ValueSpec:
						for _, nm := range sp.Names {
							s.declared[nm.Name]++
							s.names[nm.Name] = true
						}
					}
				}
			}
		}
	}
	return s
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func recvName(d *ast.FuncDecl) string {
	if d.Recv == nil || len(d.Recv.List) == 0 {
		return ""
	}
	return retrieval.ReceiverTypeName(d.Recv.List[0].Type)
}

// docSites lists the exported declarations with doc comments.
func (s *source) docSites() []docSite {
	var out []docSite
	for _, gf := range s.gofiles {
		for _, d := range gf.file.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Doc == nil || !d.Name.IsExported() {
					continue
				}
				name := d.Name.Name
				if r := recvName(d); r != "" {
					if !ast.IsExported(r) {
						continue
					}
					name = r + "." + name
				}
				out = append(out, docSite{path: gf.path, group: d.Doc, name: name, ident: d.Name.Name, node: d, fn: d})
			case *ast.GenDecl:
				for _, sp := range d.Specs {
					doc := d.Doc
					var id *ast.Ident
					switch sp := sp.(type) {
					case *ast.TypeSpec:
						id = sp.Name
						if sp.Doc != nil {
							doc = sp.Doc
						}
					case *ast.ValueSpec:
						id = sp.Names[0]
						if sp.Doc != nil {
							doc = sp.Doc
						} else if len(d.Specs) > 1 {
							doc = nil
						}
					}
					if doc == nil || id == nil || !id.IsExported() {
						continue
					}
					out = append(out, docSite{path: gf.path, group: doc, name: id.Name, ident: id.Name, node: sp})
				}
			}
		}
	}
	return out
}

// off returns the byte offset of pos.
func (s *source) off(pos token.Pos) int { return s.fset.Position(pos).Offset }

// simpleDoc reports whether every line of g is a plain "// text" line or
// an empty "//", so the comment can be rewritten without losing code
// blocks, lists or directives.
func simpleDoc(g *ast.CommentGroup) bool {
	for _, c := range g.List {
		t := c.Text
		if t == "//" {
			continue
		}
		if !strings.HasPrefix(t, "// ") || len(t) < 4 || t[3] == ' ' || t[3] == '\t' || t[3] == '-' || t[3] == '*' {
			return false
		}
		if strings.HasPrefix(t, "//go:") {
			return false
		}
	}
	return true
}

// paragraphs splits a simple doc comment's text into paragraphs, each one
// line of words.
func paragraphs(g *ast.CommentGroup) []string {
	var out []string
	var cur []string
	for _, c := range g.List {
		t := strings.TrimSpace(strings.TrimPrefix(c.Text, "//"))
		if t == "" {
			if len(cur) > 0 {
				out = append(out, strings.Join(cur, " "))
				cur = nil
			}
			continue
		}
		cur = append(cur, t)
	}
	if len(cur) > 0 {
		out = append(out, strings.Join(cur, " "))
	}
	return out
}

// renderDoc renders paragraphs as a "//" comment wrapped at width,
// without the trailing newline; indent prefixes every line but the first.
func renderDoc(paras []string, width int, indent string) string {
	var lines []string
	for i, p := range paras {
		if i > 0 {
			lines = append(lines, "//")
		}
		line := "//"
		for _, w := range strings.Fields(p) {
			if len(line) > 2 && len(line)+1+len(w) > width {
				lines = append(lines, line)
				line = "//"
			}
			line += " " + w
		}
		lines = append(lines, line)
	}
	return strings.Join(lines, "\n"+indent)
}

// replaceGroup returns the file's content with the comment group replaced
// by text.
func (s *source) replaceGroup(path string, g *ast.CommentGroup, text string) string {
	src := s.files[path]
	return src[:s.off(g.Pos())] + text + src[s.off(g.End()):]
}

// indentOf returns the whitespace before the group's first line.
func (s *source) indentOf(path string, g *ast.CommentGroup) string {
	src := s.files[path]
	o := s.off(g.Pos())
	start := strings.LastIndexByte(src[:o], '\n') + 1
	return src[start:o]
}

var wordRE = regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_]*`)

// nearMiss returns a plausible misspelling of name that the module does
// not declare, or "" when none is found.
func (s *source) nearMiss(name string) string {
	var cands []string
	if len(name) >= 4 {
		b := []byte(name)
		for i := len(b) / 2; i+1 < len(b); i++ {
			if b[i] != b[i+1] && b[i] >= 'a' && b[i] <= 'z' && b[i+1] >= 'a' && b[i+1] <= 'z' {
				b[i], b[i+1] = b[i+1], b[i]
				cands = append(cands, string(b))
				break
			}
		}
	}
	if len(name) >= 5 {
		cands = append(cands, name[:len(name)-2]+name[len(name)-1:])
	}
	for _, c := range cands {
		if c != name && c != "" && !s.names[c] && !s.words()[c] {
			return c
		}
	}
	return ""
}

// words returns every identifier-like word of the module's files.
func (s *source) words() map[string]bool {
	if s.wordSet == nil {
		s.wordSet = map[string]bool{}
		for _, p := range sortedKeys(s.files) {
			for _, w := range wordRE.FindAllString(s.files[p], -1) {
				s.wordSet[w] = true
			}
		}
	}
	return s.wordSet
}
