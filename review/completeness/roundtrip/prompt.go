package roundtrip

import (
	"bytes"
	"errors"
	"fmt"
	"go/ast"
	"go/build"
	"go/parser"
	"go/printer"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/mod/modfile"
)

// pkgInfo is the package a roundtrip regenerates a file of.
type pkgInfo struct {
	// root is the module root (the directory of go.mod), modPath its
	// module path, rel the package directory relative to root ("." for
	// the root package, slash-separated).
	root, modPath, rel string
	// importPath and name are the package's.
	importPath, name string
	fset             *token.FileSet
	// files are the package's non-test files (for this platform, as
	// go/build selects them), by base name; names lists them sorted.
	files map[string]*ast.File
	sizes map[string]int64
	names []string
	// idents holds, per file, every identifier of the file; "" keys those
	// of the in-package test files (package name, not name_test).
	idents map[string]map[string]bool
	// hasTests reports whether the package has any test file.
	hasTests bool
}

// findModule returns the directory of the nearest go.mod at or above dir
// and its module path.
func findModule(dir string) (string, string, error) {
	for d := dir; ; {
		data, err := os.ReadFile(filepath.Join(d, "go.mod"))
		if err == nil {
			mp := modfile.ModulePath(data)
			if mp == "" {
				return "", "", fmt.Errorf("roundtrip: %s has no module line", filepath.Join(d, "go.mod"))
			}
			return d, mp, nil
		}
		if !errors.Is(err, os.ErrNotExist) {
			return "", "", fmt.Errorf("roundtrip: %w", err)
		}
		parent := filepath.Dir(d)
		if parent == d {
			return "", "", fmt.Errorf("roundtrip: %s is not in a Go module (no go.mod at or above it)", dir)
		}
		d = parent
	}
}

// loadPackage parses the package in dir.
func loadPackage(dir string) (*pkgInfo, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("roundtrip: %w", err)
	}
	root, modPath, err := findModule(abs)
	if err != nil {
		return nil, err
	}
	rel, err := filepath.Rel(root, abs)
	if err != nil {
		return nil, fmt.Errorf("roundtrip: %w", err)
	}
	rel = filepath.ToSlash(rel)
	bp, err := build.ImportDir(abs, 0)
	if err != nil {
		return nil, fmt.Errorf("roundtrip: package %s: %w", dir, err)
	}
	p := &pkgInfo{root: root, modPath: modPath, rel: rel, name: bp.Name, fset: token.NewFileSet(),
		files: map[string]*ast.File{}, sizes: map[string]int64{}, idents: map[string]map[string]bool{"": {}}}
	p.importPath = modPath
	if rel != "." {
		p.importPath += "/" + rel
	}
	for _, name := range bp.GoFiles {
		path := filepath.Join(abs, name)
		f, err := parser.ParseFile(p.fset, path, nil, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return nil, fmt.Errorf("roundtrip: %w", err)
		}
		fi, err := os.Stat(path)
		if err != nil {
			return nil, fmt.Errorf("roundtrip: %w", err)
		}
		p.files[name], p.sizes[name] = f, fi.Size()
		p.idents[name] = identsOf(f, map[string]bool{})
		p.names = append(p.names, name)
	}
	slices.Sort(p.names)
	p.hasTests = len(bp.TestGoFiles)+len(bp.XTestGoFiles) > 0
	for _, name := range bp.TestGoFiles {
		f, err := parser.ParseFile(p.fset, filepath.Join(abs, name), nil, parser.SkipObjectResolution)
		if err != nil {
			return nil, fmt.Errorf("roundtrip: %w", err)
		}
		identsOf(f, p.idents[""])
	}
	return p, nil
}

// identsOf adds the names of every identifier of f to set and returns it.
func identsOf(f *ast.File, set map[string]bool) map[string]bool {
	ast.Inspect(f, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			set[id.Name] = true
		}
		return true
	})
	return set
}

// chooseFile returns the base name of the file to regenerate: file when
// given (a base name, or a path relative to the package directory or to
// the working directory that names a file of the package), else the
// largest file that declares exported API (ties: the first by name).
func (p *pkgInfo) chooseFile(file string) (string, error) {
	if file != "" {
		base := filepath.Base(file)
		if _, ok := p.files[base]; !ok || strings.HasSuffix(base, "_test.go") {
			return "", fmt.Errorf("roundtrip: %s is not a non-test Go file of package %s (files: %s)", file, p.importPath, strings.Join(p.names, ", "))
		}
		return base, nil
	}
	best := ""
	for _, name := range p.names {
		if len(p.decls(name, apiView)) == 0 {
			continue
		}
		if best == "" || p.sizes[name] > p.sizes[best] {
			best = name
		}
	}
	if best == "" {
		return "", fmt.Errorf("roundtrip: package %s has no file that declares exported API", p.importPath)
	}
	return best, nil
}

// decl is one declaration shown to the model: its doc comment (raw
// comment lines, "" when none) and its code without bodies.
type decl struct {
	doc, code string
	// note follows the code ("struct has unexported fields").
	note string
}

// view selects what of a file's declarations the model is shown: the
// names show accepts (and, of a type, the struct fields it accepts), and
// the doc comments when docs is set.
type view struct {
	show func(name string) bool
	docs bool
}

// apiView is the exported API without docs.
var apiView = view{show: ast.IsExported}

// otherView shows every declaration of another file of the package,
// without docs: the names it takes, which the regenerated file may use
// and must not declare again.
var otherView = view{show: func(string) bool { return true }}

// targetView is the view of the file to regenerate: its exported
// declarations and the unexported ones (and struct fields) that the
// package's other files or in-package tests name, so that the rest of the
// package still compiles against the regenerated file; with their docs.
func (p *pkgInfo) targetView(file string) view {
	return view{docs: true, show: func(name string) bool {
		if ast.IsExported(name) || p.idents[""][name] {
			return true
		}
		for f, set := range p.idents {
			if f != file && set[name] {
				return true
			}
		}
		return false
	}}
}

// recvName returns the base type name of a method receiver.
func recvName(fd *ast.FuncDecl) string {
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return ""
	}
	t := fd.Recv.List[0].Type
	for {
		switch x := t.(type) {
		case *ast.StarExpr:
			t = x.X
		case *ast.ParenExpr:
			t = x.X
		case *ast.IndexExpr:
			t = x.X
		case *ast.IndexListExpr:
			t = x.X
		case *ast.Ident:
			return x.Name
		default:
			return ""
		}
	}
}

// decls returns the declarations of file that v shows, in source order,
// without bodies: functions and methods (of shown types) as signatures,
// constant groups whole, variables without initializers that hold a
// function literal (a lone one gives its type), types without the struct
// fields v does not show; with their doc comments and those of their
// fields and specs when v.docs is set.
func (p *pkgInfo) decls(file string, v view) []decl {
	f := p.files[file]
	var out []decl
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if !v.show(d.Name.Name) {
				continue
			}
			if r := recvName(d); r != "" && !v.show(r) {
				continue
			}
			sig := *d
			sig.Doc, sig.Body = nil, nil
			out = append(out, decl{doc: docText(d.Doc, v.docs), code: p.print(&sig, nil)})
		case *ast.GenDecl:
			if dd, ok := p.genDecl(f, d, v); ok {
				out = append(out, dd)
			}
		}
	}
	return out
}

// genDecl renders the shown part of a const, var or type declaration.
func (p *pkgInfo) genDecl(f *ast.File, d *ast.GenDecl, v view) (decl, bool) {
	if d.Tok == token.IMPORT {
		return decl{}, false
	}
	cp := *d
	cp.Doc = nil
	cp.Specs = nil
	var removed []ast.Node
	note := ""
	anyShown := false
	for _, s := range d.Specs {
		switch s := s.(type) {
		case *ast.ValueSpec:
			for _, n := range s.Names {
				anyShown = anyShown || v.show(n.Name)
			}
		case *ast.TypeSpec:
			anyShown = anyShown || v.show(s.Name.Name)
		}
	}
	if !anyShown {
		return decl{}, false
	}
	for _, s := range d.Specs {
		switch s := s.(type) {
		case *ast.ValueSpec:
			// A constant group is kept whole: leaving a spec out would
			// change what the implicit repetitions of iota mean.
			shown := d.Tok == token.CONST
			for _, n := range s.Names {
				shown = shown || v.show(n.Name)
			}
			if !shown {
				removed = append(removed, s)
				continue
			}
			if d.Tok == token.VAR && slices.ContainsFunc(s.Values, hasFuncLit) {
				vs := *s
				for _, v := range s.Values {
					removed = append(removed, v)
				}
				if fl, ok := s.Values[0].(*ast.FuncLit); ok && vs.Type == nil && len(s.Values) == 1 {
					// var Hook = func(k string) {...} shows as
					// var Hook func(k string).
					vs.Type = fl.Type
				}
				vs.Values = nil
				cp.Specs = append(cp.Specs, &vs)
				note = "initializers holding function literals are left out"
				continue
			}
			cp.Specs = append(cp.Specs, s)
		case *ast.TypeSpec:
			if !v.show(s.Name.Name) {
				removed = append(removed, s)
				continue
			}
			st, ok := s.Type.(*ast.StructType)
			if !ok || st.Fields == nil {
				cp.Specs = append(cp.Specs, s)
				continue
			}
			fields := &ast.FieldList{Opening: st.Fields.Opening, Closing: st.Fields.Closing}
			for _, fld := range st.Fields.List {
				keep := len(fld.Names) == 0 // embedded
				for _, n := range fld.Names {
					keep = keep || v.show(n.Name)
				}
				if keep {
					fields.List = append(fields.List, fld)
				} else {
					removed = append(removed, fld)
					note = "the struct has unexported fields, not shown"
				}
			}
			ts := *s
			ts.Type = &ast.StructType{Struct: st.Struct, Fields: fields}
			cp.Specs = append(cp.Specs, &ts)
		}
	}
	var comments []*ast.CommentGroup
	if v.docs {
		for _, c := range f.Comments {
			if c.Pos() < cp.Pos() || c.End() > d.End() {
				continue
			}
			if slices.ContainsFunc(removed, func(n ast.Node) bool { return c.Pos() >= n.Pos() && c.End() <= n.End() || inDoc(n, c) }) {
				continue
			}
			comments = append(comments, c)
		}
	}
	return decl{doc: docText(d.Doc, v.docs), code: p.print(&cp, comments), note: note}, true
}

// inDoc reports whether c is the doc or line comment of the removed node n.
func inDoc(n ast.Node, c *ast.CommentGroup) bool {
	switch n := n.(type) {
	case *ast.ValueSpec:
		return c == n.Doc || c == n.Comment
	case *ast.TypeSpec:
		return c == n.Doc || c == n.Comment
	case *ast.Field:
		return c == n.Doc || c == n.Comment
	}
	return false
}

// hasFuncLit reports whether e holds a function literal.
func hasFuncLit(e ast.Expr) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if _, ok := n.(*ast.FuncLit); ok {
			found = true
		}
		return !found
	})
	return found
}

// docText returns the raw lines of a doc comment when withDocs is set.
func docText(g *ast.CommentGroup, withDocs bool) string {
	if g == nil || !withDocs {
		return ""
	}
	var b strings.Builder
	for _, c := range g.List {
		b.WriteString(c.Text)
		b.WriteByte('\n')
	}
	return b.String()
}

// print formats node with go/printer, with the given comments.
func (p *pkgInfo) print(node ast.Node, comments []*ast.CommentGroup) string {
	var b bytes.Buffer
	var n any = node
	if len(comments) > 0 {
		n = &printer.CommentedNode{Node: node, Comments: comments}
	}
	cfg := printer.Config{Mode: printer.UseSpaces | printer.TabIndent, Tabwidth: 8}
	if err := cfg.Fprint(&b, p.fset, n); err != nil {
		return fmt.Sprintf("/* cannot print: %v */", err)
	}
	return b.String()
}

// packageDoc returns the package doc comment: doc.go's when it has one,
// else the first file's (by name) that has one.
func (p *pkgInfo) packageDoc() string {
	names := slices.Clone(p.names)
	if i := slices.Index(names, "doc.go"); i > 0 {
		names = append([]string{"doc.go"}, slices.Delete(names, i, i+1)...)
	}
	for _, n := range names {
		if d := p.files[n].Doc; d != nil {
			return docText(d, true)
		}
	}
	return ""
}

// userPrompt builds the user message for regenerating file: the package,
// its documentation, the declarations of the other files (signatures,
// without docs) and the declarations of file that targetView shows, with
// their doc comments; never a body.
func (p *pkgInfo) userPrompt(file string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Write the file %s of package %s (import path %s, in module %s).\n\n", file, p.name, p.importPath, p.modPath)
	b.WriteString("<repository-data>\n")
	b.WriteString("## Package documentation\n\n")
	if d := p.packageDoc(); d != "" {
		b.WriteString(d)
	} else {
		b.WriteString("(none)\n")
	}
	b.WriteString("\n## Declarations of the package's other files (signatures only; already declared there: use them, never declare them again)\n")
	others := 0
	for _, n := range p.names {
		if n == file {
			continue
		}
		ds := p.decls(n, otherView)
		if len(ds) == 0 {
			continue
		}
		others++
		fmt.Fprintf(&b, "\n### %s\n\n```go\n", n)
		for _, d := range ds {
			writeDecl(&b, d)
		}
		b.WriteString("```\n")
	}
	if others == 0 {
		b.WriteString("\n(none)\n")
	}
	fmt.Fprintf(&b, "\n## Declarations of %s, with their documentation (write them all, with these exact signatures)\n\n```go\npackage %s\n\n", file, p.name)
	for _, d := range p.decls(file, p.targetView(file)) {
		writeDecl(&b, d)
	}
	b.WriteString("```\n</repository-data>\n")
	return b.String()
}

// writeDecl writes one declaration and a blank line.
func writeDecl(b *strings.Builder, d decl) {
	b.WriteString(d.doc)
	b.WriteString(d.code)
	if d.note != "" {
		b.WriteString(" // (" + d.note + ")")
	}
	b.WriteString("\n\n")
}
