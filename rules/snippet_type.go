package rules

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"github.com/docreview/docreview/retrieval"
	"github.com/docreview/docreview/review"
)

// This file holds the type listings of the go-snippet rule. A Markdown Go
// block may copy a package's type instead of using it:
//
//	type Config struct {
//	    // Next defines a function to skip this middleware when returned true.
//	    Next func(c *fiber.Ctx) bool
//	    Expiration time.Duration
//	}
//
// Such a block is the package's own source, which the compiler cannot
// judge from outside. It is compared with the declaration it copies
// instead: each field of a listed struct must be a field of the code's
// struct, and each method of a listed interface a method of the code's
// interface, with a type that does not certainly differ. A listing may
// leave fields out; it may not name ones the code lacks. Unexported
// fields and methods are the package's internals and are not compared.

// typeEntry is one field or method of a listed type.
type typeEntry struct {
	line int    // 1-based line within the block
	text string // the entry's line, as written
	name string
	typ  ast.Expr // the field's type, or the method's *ast.FuncType
}

// typeListed is one type declaration of a listing.
type typeListed struct {
	name      string
	iface     bool
	entries   []typeEntry
	generic   bool
	embedding bool // the listing embeds a type, whose fields or methods it leaves unnamed
}

// typeListing returns the type declarations of a block that declares
// nothing but types, or nil for any other block.
func typeListing(text string) []typeListed {
	if !strings.Contains(text, "type ") {
		return nil
	}
	src := "package p\n" + text
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", src, parser.SkipObjectResolution)
	if err != nil || len(f.Decls) == 0 || len(f.Imports) > 0 {
		return nil
	}
	line := func(p token.Pos) int { return fset.Position(p).Line - 1 }
	lines := strings.Split(text, "\n")
	var out []typeListed
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.TYPE {
			return nil
		}
		for _, sp := range g.Specs {
			ts := sp.(*ast.TypeSpec)
			if ts.Assign.IsValid() {
				continue // an alias lists nothing of its own
			}
			t := typeListed{name: ts.Name.Name, generic: ts.TypeParams != nil}
			var fields *ast.FieldList
			switch x := ts.Type.(type) {
			case *ast.StructType:
				fields = x.Fields
			case *ast.InterfaceType:
				fields, t.iface = x.Methods, true
			default:
				continue
			}
			for _, fd := range fields.List {
				if len(fd.Names) == 0 {
					t.embedding = true
					continue
				}
				for _, n := range fd.Names {
					if !n.IsExported() {
						// The package's internals, which no reader
						// uses: a listing of them is not compared.
						continue
					}
					l := line(n.Pos())
					t.entries = append(t.entries, typeEntry{line: l, text: lines[l-1], name: n.Name, typ: fd.Type})
				}
			}
			out = append(out, t)
		}
	}
	return out
}

// typeMismatch is the first field or method of a listing the code's type
// does not have, or has with another type.
type typeMismatch struct {
	listed  typeListed
	entry   typeEntry
	pkg     *retrieval.Package
	sym     retrieval.Symbol
	line    int    // the entry's line in the claim's file
	missing bool   // the code's type has no such field or method
	closest string // for a missing one: the code's one close name, if any
	want    string // for a differing one: the code's type or signature
	// listedAs is the listing's type or signature of a differing one.
	listedAs string
}

// typeListingMismatch compares the listed types with the declarations of
// the same name in the doc's packages: only a type the doc's own package
// declares (its directory's, or the one it is named after), or that
// exactly one package of pkgs (else of the module) declares, is
// compared, and only when most of the listing's fields or methods are the
// code's (a listing that shares a name but few fields is another type,
// the reader's own). keep filters the mismatches reported by the type's
// or the entry's name.
func typeListingMismatch(ws *review.Workspace, c review.Claim, pkgs []*retrieval.Package, listed []typeListed, keep func(name string) bool) (typeMismatch, bool) {
	own := docOwnPackages(ws, c)
	for _, t := range listed {
		if t.generic || len(t.entries) == 0 {
			continue
		}
		p, tn := listedTypeDecl(pkgs, own, t.name)
		if tn == nil {
			// A README at a root without a package lists the type of
			// the one package that declares it, not one of an example's,
			// a test's or a command's: genqlient's docs show the User a
			// reader's query generates, beside its integration test
			// server's own User.
			readers := slices.DeleteFunc(slices.Clone(ws.Symbols.Packages()), func(p *retrieval.Package) bool {
				return p.Name == "main" || exampleDir(p.Dir)
			})
			p, tn = listedTypeDecl(readers, nil, t.name)
		}
		if tn == nil || !tn.Exported() || tn.IsAlias() {
			continue
		}
		named, ok := tn.Type().(*types.Named)
		if !ok || named.TypeParams().Len() > 0 {
			continue
		}
		var (
			iface *types.Interface
			st    *types.Struct
		)
		switch u := named.Underlying().(type) {
		case *types.Interface:
			iface = u
		case *types.Struct:
			st = u
		}
		if t.iface && iface == nil || !t.iface && st == nil {
			continue
		}
		var names []string
		if iface != nil {
			for i := range iface.NumMethods() {
				names = append(names, iface.Method(i).Name())
			}
		} else {
			for i := range st.NumFields() {
				if f := st.Field(i); f.Exported() {
					names = append(names, f.Name())
				}
			}
		}
		var first *typeMismatch
		known := 0
		for _, e := range t.entries {
			obj, _, _ := types.LookupFieldOrMethod(named, true, p.Types, e.name)
			m := typeMismatch{listed: t, entry: e, pkg: p}
			switch o := obj.(type) {
			case nil:
				m.missing = true
				m.closest = closestOf(e.name, names)
			case *types.Var:
				known++
				if iface != nil || !o.IsField() || listedType(e.typ, o.Type(), p.Types) != typeDiffer {
					continue
				}
				m.want = types.TypeString(o.Type(), types.RelativeTo(p.Types))
				m.listedAs = types.ExprString(e.typ)
			case *types.Func:
				known++
				ft, isFunc := e.typ.(*ast.FuncType)
				sig, ok := o.Type().(*types.Signature)
				if iface == nil || !isFunc || !ok || sig.TypeParams().Len() > 0 || sigCompare(ft, sig, p.Types) != typeDiffer {
					continue
				}
				m.want = e.name + strings.TrimPrefix(types.TypeString(sig, types.RelativeTo(p.Types)), "func")
				m.listedAs = e.name + strings.TrimPrefix(types.ExprString(ft), "func")
			default:
				continue
			}
			if first == nil {
				first = &m
			}
		}
		// Most of the listing must be the code's: "type Config struct {
		// DSN string }" in a walk-through is the reader's own Config.
		if first == nil || known == 0 || 2*known < len(t.entries) {
			continue
		}
		if first.missing && t.embedding {
			continue // the field may come from the embedded type the listing shows
		}
		if !keep(t.name) && !keep(first.entry.name) {
			continue
		}
		sym, ok := ws.Symbols.Lookup(p.Dir, t.name)
		if !ok {
			continue
		}
		first.sym = sym
		return *first, true
	}
	return typeMismatch{}, false
}

// listedTypeDecl finds the type a listing names: in one of the doc's own
// packages, else in the one package of pkgs that declares it.
func listedTypeDecl(pkgs []*retrieval.Package, own map[*retrieval.Package]bool, name string) (*retrieval.Package, *types.TypeName) {
	var found []*retrieval.Package
	var tns []*types.TypeName
	for _, p := range pkgs {
		if p.Types == nil {
			continue
		}
		tn, ok := p.Types.Scope().Lookup(name).(*types.TypeName)
		if !ok {
			continue
		}
		if own[p] {
			return p, tn
		}
		found, tns = append(found, p), append(tns, tn)
	}
	if len(found) != 1 {
		return nil, nil
	}
	return found[0], tns[0]
}

// typeVerdict reports a listed field or method the code's type lacks or
// types otherwise.
func (r *GoSnippet) typeVerdict(ws *review.Workspace, c review.Claim, m typeMismatch) *review.Verdict {
	kind := "field"
	if m.listed.iface {
		kind = "method"
	}
	name := m.listed.name
	v := &review.Verdict{Label: review.Contradicted, Rule: r.Name(), Confidence: 0.9}
	why := ""
	switch {
	case m.missing && m.closest != "":
		v.Message = fmt.Sprintf("The Go code block lists %s with %s %s, but %s has no %s %s (closest: %s.%s).", name, kind, m.entry.name, name, kind, m.entry.name, name, m.closest)
		why = fmt.Sprintf("%s has no %s %s; closest: %s", name, kind, m.entry.name, m.closest)
	case m.missing:
		v.Message = fmt.Sprintf("The Go code block lists %s with %s %s, but %s has no %s %s.", name, kind, m.entry.name, name, kind, m.entry.name)
		why = fmt.Sprintf("%s has no %s %s", name, kind, m.entry.name)
	default:
		v.Message = fmt.Sprintf("The Go code block lists %s.%s as `%s`, but the code declares `%s`.", name, m.entry.name, m.listedAs, m.want)
		why = fmt.Sprintf("%s.%s: %s", name, m.entry.name, m.want)
	}
	hop := fmt.Sprintf("%s:%d (code block)", c.Path, m.line)
	v.Evidence = append(v.Evidence, review.Evidence{
		Path: c.Path, StartLine: m.line, EndLine: m.line, Source: review.SourceDoc,
		Why: fmt.Sprintf("code block lists %s.%s", name, m.entry.name), Hops: []string{hop},
	})
	ref := ws.Symbols.Definition(m.sym)
	start, end := lineRange(ref.Line, ref.EndLine)
	if !m.missing {
		if fs, ok := ws.Symbols.Lookup(m.pkg.Dir, name+"."+m.entry.name); ok {
			if fr := ws.Symbols.Definition(fs); fr.Path != "" {
				ref = fr
				start, end = lineRange(fr.Line, fr.EndLine)
			}
		}
	}
	v.Evidence = append(v.Evidence, review.Evidence{
		Path: ref.Path, StartLine: start, EndLine: end, Source: review.SourceCode,
		Why: why, Hops: []string{hop, name},
	})
	if m.missing && m.closest != "" && strings.Count(m.entry.text, m.entry.name) == 1 && strings.Count(c.Text, m.entry.text) == 1 {
		fixed := strings.Replace(m.entry.text, m.entry.name, m.closest, 1)
		v.Suggestion = strings.Replace(c.Text, m.entry.text, fixed, 1)
	}
	return v
}
