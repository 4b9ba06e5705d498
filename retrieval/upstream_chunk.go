package retrieval

import (
	"bytes"
	"context"
	"fmt"
	"go/ast"
	"go/build"
	"go/format"
	"go/parser"
	"go/token"
	"io/fs"
	"log/slog"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"strings"

	"golang.org/x/mod/module"
)

// upstreamModule reads the packages of one module directory into chunks.
type upstreamModule struct {
	importPath string         // module path the repository imports (before any replace)
	target     module.Version // module version read, named in chunk paths
	dir        string
	maxFile    int64
	maxChunks  int
	log        *slog.Logger
}

// upstreamPkgFile is one parsed file of a package.
type upstreamPkgFile struct {
	name string // base name
	f    *ast.File
}

// chunks walks the module directory and returns the chunks of its
// packages, in directory and file order, and whether maxChunks cut them.
func (u *upstreamModule) chunks(ctx context.Context) ([]Chunk, bool, error) {
	var dirs []string
	err := filepath.WalkDir(u.dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			u.log.Debug("upstream skip", upstreamLogPath, p, upstreamLogReason, err.Error())
			if d != nil && d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if !d.IsDir() {
			return nil
		}
		if p != u.dir {
			name := d.Name()
			if name == "testdata" || name == "internal" || name == "vendor" ||
				strings.HasPrefix(name, "_") || strings.HasPrefix(name, ".") {
				return fs.SkipDir
			}
			// A nested module is not part of this one.
			if _, err := os.Stat(filepath.Join(p, "go.mod")); err == nil {
				return fs.SkipDir
			}
		}
		dirs = append(dirs, p)
		return nil
	})
	if err != nil {
		return nil, false, fmt.Errorf("walk %s: %w", u.dir, err)
	}

	bc := upstreamBuildContext()
	var out []Chunk
	for _, dir := range dirs {
		if err := ctx.Err(); err != nil {
			return nil, false, fmt.Errorf("read upstream module %s: %w", u.target, err)
		}
		rel, err := filepath.Rel(u.dir, dir)
		if err != nil {
			return nil, false, fmt.Errorf("read upstream module %s: %w", u.target, err)
		}
		rel = filepath.ToSlash(rel)
		cs := u.pkgChunks(&bc, dir, rel)
		if len(out)+len(cs) > u.maxChunks {
			out = append(out, cs[:u.maxChunks-len(out)]...)
			chunkAssignIDs(out)
			return out, true, nil
		}
		out = append(out, cs...)
	}
	chunkAssignIDs(out)
	return out, false, nil
}

// upstreamBuildContext is the build context that decides which files of a
// package count: this machine's GOOS and GOARCH, cgo enabled, no extra
// tags, whatever the environment says.
func upstreamBuildContext() build.Context {
	bc := build.Default
	bc.GOOS, bc.GOARCH = runtime.GOOS, runtime.GOARCH
	bc.CgoEnabled = true
	bc.BuildTags = nil
	return bc
}

// pkgChunks parses the package in dir (rel to the module root, "." for the
// root) and returns its chunks; nil for a directory without a non-main
// package.
func (u *upstreamModule) pkgChunks(bc *build.Context, dir, rel string) []Chunk {
	entries, err := os.ReadDir(dir)
	if err != nil {
		u.log.Debug("upstream skip", upstreamLogPath, dir, upstreamLogReason, err.Error())
		return nil
	}
	fset := token.NewFileSet()
	byPkg := make(map[string][]upstreamPkgFile)
	for _, e := range entries {
		name := e.Name()
		if !e.Type().IsRegular() || !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			continue
		}
		full := filepath.Join(dir, name)
		fi, err := e.Info()
		if err != nil {
			u.log.Debug("upstream skip", upstreamLogPath, full, upstreamLogReason, err.Error())
			continue
		}
		if fi.Size() > u.maxFile {
			u.log.Info("upstream skip", upstreamLogPath, full,
				upstreamLogReason, fmt.Sprintf("%d bytes, more than the limit of %d", fi.Size(), u.maxFile))
			continue
		}
		if ok, err := bc.MatchFile(dir, name); err != nil || !ok {
			continue
		}
		src, err := os.ReadFile(full)
		if err != nil {
			u.log.Debug("upstream skip", upstreamLogPath, full, upstreamLogReason, err.Error())
			continue
		}
		f, err := parser.ParseFile(fset, full, src, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			u.log.Debug("upstream skip", upstreamLogPath, full, upstreamLogReason, err.Error())
			continue
		}
		byPkg[f.Name.Name] = append(byPkg[f.Name.Name], upstreamPkgFile{name: name, f: f})
	}
	// The package is the name most files declare; ties go to the first
	// name in sort order, so the choice does not depend on map order.
	pkg := ""
	for name, pfs := range byPkg {
		if name == "main" {
			continue
		}
		if pkg == "" || len(pfs) > len(byPkg[pkg]) || (len(pfs) == len(byPkg[pkg]) && name < pkg) {
			pkg = name
		}
	}
	if pkg == "" {
		return nil
	}
	files := byPkg[pkg] // in directory order, which is sorted
	importPath := u.importPath
	if rel != "." {
		importPath += "/" + rel
	}
	p := upstreamPkg{
		u: u, fset: fset, name: pkg, importPath: importPath, rel: rel,
		methods: make(map[string][]string),
	}
	for _, pf := range files {
		for _, d := range pf.f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Recv == nil || len(fd.Recv.List) == 0 || !fd.Name.IsExported() {
				continue
			}
			recv, _ := upstreamEmbeddedName(fd.Recv.List[0].Type)
			p.methods[recv] = append(p.methods[recv], p.signature(fd))
		}
	}

	var out []Chunk
	if doc := upstreamPkgDocFile(files); doc != nil {
		out = append(out, p.pkgDoc(doc))
	}
	for _, pf := range files {
		out = append(out, p.fileChunks(pf)...)
	}
	return out
}

// upstreamPkgDocFile returns the file holding the package doc: the one
// with the longest package comment, doc.go on a tie; nil if no file has
// one.
func upstreamPkgDocFile(files []upstreamPkgFile) *upstreamPkgFile {
	var best *upstreamPkgFile
	bestLen := 0
	for i := range files {
		pf := &files[i]
		if pf.f.Doc == nil {
			continue
		}
		n := len(pf.f.Doc.Text())
		if best == nil || n > bestLen || (n == bestLen && pf.name == "doc.go") {
			best, bestLen = pf, n
		}
	}
	return best
}

// upstreamPkg holds what is needed to chunk the files of one package.
type upstreamPkg struct {
	u          *upstreamModule
	fset       *token.FileSet
	name       string // package name
	importPath string
	rel        string              // package directory relative to the module root
	methods    map[string][]string // exported method signatures by receiver type name
}

// line is the line of pos in its file, ignoring //line directives.
func (p *upstreamPkg) line(pos token.Pos) int { return p.fset.PositionFor(pos, false).Line }

// chunk makes a chunk of file name covering the lines of doc (if any)
// through end, with text = doc comment + sig.
func (p *upstreamPkg) chunk(name string, doc *ast.CommentGroup, pos, end token.Pos, symbol, sig string) Chunk {
	start := p.line(pos)
	text := sig
	if doc != nil {
		start = p.line(doc.Pos())
		text = upstreamCommentText(doc) + "\n" + sig
	}
	if len(text) > upstreamMaxText {
		text = strings.ToValidUTF8(text[:upstreamMaxText], "") + "\n// ... (truncated)"
	}
	filePath := path.Join(p.rel, name)
	return Chunk{
		Path:      upstreamPathPrefix + p.u.target.String() + "/" + filePath,
		StartLine: start,
		EndLine:   max(start, p.line(end)),
		Source:    SourceUpstream,
		Symbol:    symbol,
		Heading:   p.u.target.String(),
		Lang:      "go",
		Text:      text,
	}
}

// pkgDoc makes the package doc chunk.
func (p *upstreamPkg) pkgDoc(pf *upstreamPkgFile) Chunk {
	clause := fmt.Sprintf("package %s // import %q", p.name, p.importPath)
	return p.chunk(pf.name, pf.f.Doc, pf.f.Package, pf.f.Name.End(), "package "+p.importPath, clause)
}

// fileChunks makes the chunks of the exported declarations of one file, in
// file order.
func (p *upstreamPkg) fileChunks(pf upstreamPkgFile) []Chunk {
	var out []Chunk
	for _, d := range pf.f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if !d.Name.IsExported() {
				continue
			}
			symbol := p.name + "." + d.Name.Name
			if d.Recv != nil && len(d.Recv.List) > 0 {
				recv, _ := upstreamEmbeddedName(d.Recv.List[0].Type)
				if !token.IsExported(recv) {
					continue
				}
				symbol = p.name + "." + recv + "." + d.Name.Name
			}
			out = append(out, p.chunk(pf.name, d.Doc, d.Pos(), d.Type.End(), symbol, p.signature(d)))
		case *ast.GenDecl:
			switch d.Tok {
			case token.TYPE:
				out = append(out, p.typeChunks(pf.name, d)...)
			case token.CONST, token.VAR:
				if c, ok := p.valueChunk(pf.name, d); ok {
					out = append(out, c)
				}
			}
		}
	}
	return out
}

// signature renders a func declaration without doc comment and body.
func (p *upstreamPkg) signature(fd *ast.FuncDecl) string {
	c := *fd
	c.Doc, c.Body = nil, nil
	return p.format(&c)
}

// format prints a node as gofmt does; a node that does not print gives
// its position instead, which never happens for nodes of a parsed file.
func (p *upstreamPkg) format(n ast.Node) string {
	var b bytes.Buffer
	if err := format.Node(&b, p.fset, n); err != nil {
		return fmt.Sprintf("// unprintable declaration at %s", p.fset.Position(n.Pos()))
	}
	return b.String()
}

// typeChunks makes one chunk per exported type spec of d.
func (p *upstreamPkg) typeChunks(file string, d *ast.GenDecl) []Chunk {
	var out []Chunk
	for _, s := range d.Specs {
		ts, ok := s.(*ast.TypeSpec)
		if !ok || !ts.Name.IsExported() {
			continue
		}
		doc := ts.Doc
		if doc == nil && len(d.Specs) == 1 {
			doc = d.Doc
		}
		pos, end := ts.Pos(), ts.End()
		if !d.Lparen.IsValid() {
			pos = d.Pos()
		}
		spec := *ts
		spec.Doc, spec.Comment = nil, nil
		spec.Type = upstreamFilterType(ts.Type)
		text := p.format(&ast.GenDecl{Tok: token.TYPE, TokPos: d.TokPos, Specs: []ast.Spec{&spec}})
		if ms := p.methods[ts.Name.Name]; len(ms) > 0 {
			text += "\n\n// Methods of " + ts.Name.Name + ":\n" + strings.Join(ms, "\n")
		}
		out = append(out, p.chunk(file, doc, pos, end, p.name+"."+ts.Name.Name, text))
	}
	return out
}

// upstreamFilterType returns t with the unexported fields of a struct and
// the unexported methods and embedded names of an interface removed, and a
// comment where fields were removed. t itself is not changed.
func upstreamFilterType(t ast.Expr) ast.Expr {
	var (
		fields *ast.FieldList
		what   string
	)
	switch t := t.(type) {
	case *ast.StructType:
		fields, what = t.Fields, "fields"
	case *ast.InterfaceType:
		fields, what = t.Methods, "methods"
	default:
		return t
	}
	if fields == nil {
		return t
	}
	var kept []*ast.Field
	trimmed := false
	for _, f := range fields.List {
		if len(f.Names) == 0 {
			// An embedded type (or, in an interface, a type-set term):
			// kept unless it names an unexported type other than the
			// predeclared error and comparable.
			name, ok := upstreamEmbeddedName(f.Type)
			if ok && !token.IsExported(name) && name != "error" && name != "comparable" {
				trimmed = true
				continue
			}
			kept = append(kept, f)
			continue
		}
		var names []*ast.Ident
		for _, n := range f.Names {
			if n.IsExported() {
				names = append(names, n)
			}
		}
		switch {
		case len(names) == 0:
			trimmed = true
		case len(names) < len(f.Names):
			trimmed = true
			nf := *f
			nf.Names = names
			kept = append(kept, &nf)
		default:
			kept = append(kept, f)
		}
	}
	if !trimmed {
		return t
	}
	// As go doc does: a nameless field whose type is an empty identifier
	// just before the closing brace prints as its comment alone.
	kept = append(kept, &ast.Field{
		Type:    &ast.Ident{Name: "", NamePos: fields.Closing - 1},
		Comment: &ast.CommentGroup{List: []*ast.Comment{{Text: "// contains unexported " + what + "\n"}}},
	})
	fl := *fields
	fl.List = kept
	switch t := t.(type) {
	case *ast.StructType:
		c := *t
		c.Fields = &fl
		return &c
	case *ast.InterfaceType:
		c := *t
		c.Methods = &fl
		return &c
	}
	return t
}

// upstreamEmbeddedName returns the type name of an embedded field or a
// method receiver: "T" for T, *T, (*T), pkg.T and T[X]; ok is false for
// other expressions (type-set terms such as ~int | ~string).
func upstreamEmbeddedName(e ast.Expr) (string, bool) {
	n := ReceiverTypeName(e)
	return n, n != ""
}

// valueChunk makes the chunk of a const or var block with at least one
// exported name. A const block is kept whole, so that iota sequences read
// right; a var block keeps the specs with an exported name, and a func
// literal value prints as its type.
func (p *upstreamPkg) valueChunk(file string, d *ast.GenDecl) (Chunk, bool) {
	first := ""
	var specs []ast.Spec
	for _, s := range d.Specs {
		vs, ok := s.(*ast.ValueSpec)
		if !ok {
			continue
		}
		exported := false
		for _, n := range vs.Names {
			if n.IsExported() {
				exported = true
				if first == "" {
					first = n.Name
				}
			}
		}
		switch {
		case d.Tok == token.CONST:
			specs = append(specs, vs)
		case exported:
			c := *vs
			c.Values = slices.Clone(vs.Values)
			for i, v := range c.Values {
				c.Values[i] = upstreamStripFuncLits(v)
			}
			specs = append(specs, &c)
		}
	}
	if first == "" {
		return Chunk{}, false
	}
	c := *d
	c.Doc = nil
	c.Specs = specs
	return p.chunk(file, d.Doc, d.Pos(), d.End(), p.name+"."+first, p.format(&c)), true
}

// upstreamStripFuncLits returns v with func literals, at its top level or
// as elements of composite literals, replaced by their func type, so that
// no body is printed.
func upstreamStripFuncLits(v ast.Expr) ast.Expr {
	switch x := v.(type) {
	case *ast.FuncLit:
		return x.Type
	case *ast.CompositeLit:
		c := *x
		c.Elts = make([]ast.Expr, len(x.Elts))
		for i, e := range x.Elts {
			c.Elts[i] = upstreamStripFuncLits(e)
		}
		return &c
	case *ast.KeyValueExpr:
		c := *x
		c.Value = upstreamStripFuncLits(x.Value)
		return &c
	case *ast.UnaryExpr:
		c := *x
		c.X = upstreamStripFuncLits(x.X)
		return &c
	}
	return v
}

// upstreamCommentText returns a comment group as written, one comment per
// line.
func upstreamCommentText(g *ast.CommentGroup) string {
	lines := make([]string, len(g.List))
	for i, c := range g.List {
		lines[i] = c.Text
	}
	return strings.Join(lines, "\n")
}
