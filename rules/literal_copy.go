package rules

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/parser"
	"go/token"
	"go/types"
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/docreview/docreview/retrieval"
	"github.com/docreview/docreview/review"
)

// This file holds the copied-declaration half of the literal-mismatch
// rule: a Markdown file shows a copy of a declaration of its package, a
// Go block with the config struct and its field docs ("// Optional.
// Default: 5 * time.Minute") or the default var
// ("var ConfigDefault = Config{Expiration: 5 * time.Minute}"), and the
// package's declaration of the same name gives the field another default.
// The copy is bound to the code by its name alone: a declaration of the
// same kind and name in the nearest package of the Markdown file.

// copyDefaultRE finds the default a copied field's doc states, to the end
// of its line: "Optional. Default: 5 * time.Minute", "Default value: 100",
// "Default value 24 * time.Hour" (fiber's first style, without a colon).
var copyDefaultRE = regexp.MustCompile(`(?im)\bdefault(?:\s+value\s*(?:is\s*)?[:=]?|\s*(?:is\s*)?[:=])\s*([^\n]+?)\s*\.?\s*$`)

// judgeDeclCopy reports the first default of a Markdown copy of a struct
// or default var that the package's own declaration contradicts, or nil.
func (r *LiteralMismatch) judgeDeclCopy(ws *review.Workspace, c review.Claim) *review.Verdict {
	if c.Kind != review.KindMarkdown || isUpgradeGuide(c.Path) {
		return nil
	}
	for _, b := range goBlocks(c) {
		if !strings.Contains(b.Text, "struct") && !strings.Contains(b.Text, "var ") {
			continue
		}
		src := b.Text
		if !strings.HasPrefix(strings.TrimSpace(src), "package ") {
			src = "package p\n" + src
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, "", src, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			continue
		}
		sc := newScope(ws.Symbols, c)
		for _, d := range f.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok {
				continue
			}
			for _, spec := range gd.Specs {
				var v *review.Verdict
				switch s := spec.(type) {
				case *ast.TypeSpec:
					v = r.copiedStruct(ws, c, sc, s, copyBlock{fset: fset, src: src, text: b.Text})
				case *ast.ValueSpec:
					if gd.Tok == token.VAR {
						v = r.copiedVar(ws, c, sc, s, fset, src)
					}
				}
				if v != nil {
					return v
				}
			}
		}
	}
	return nil
}

// copiedStruct compares the defaults a copied struct's field docs state
// with the fields of the package's struct of that name.
func (r *LiteralMismatch) copiedStruct(ws *review.Workspace, c review.Claim, sc scope, s *ast.TypeSpec, block copyBlock) *review.Verdict {
	st, ok := s.Type.(*ast.StructType)
	if !ok || st.Fields == nil {
		return nil
	}
	p := copyPackage(ws, c, sc, s.Name.Name, func(obj types.Object) bool {
		tn, ok := obj.(*types.TypeName)
		if !ok {
			return false
		}
		_, ok = tn.Type().Underlying().(*types.Struct)
		return ok
	})
	if p == nil {
		return nil
	}
	for _, fl := range st.Fields.List {
		if fl.Doc == nil || len(fl.Names) != 1 {
			continue
		}
		ms := copyDefaultRE.FindAllStringSubmatch(fl.Doc.Text(), -1)
		if len(ms) != 1 {
			continue // none, or several: which is the default is not certain
		}
		doc := strings.TrimSpace(ms[0][1])
		name := s.Name.Name + "." + fl.Names[0].Name
		sym, ok := ws.Symbols.Lookup(p.Dir, name)
		if !ok || sym.Kind != retrieval.SymbolField {
			continue
		}
		site, ok := r.fieldDefault(ws, sym)
		if !ok || site.val == nil {
			// The code sets no default the rules can read: the field's
			// own doc is what the copy copies.
			if v := r.copiedFieldDoc(c, block, s.Name.Name, fl, doc, sym); v != nil {
				return v
			}
			continue
		}
		repl := site.expr
		if strings.HasPrefix(doc, "`") {
			repl = "`" + repl + "`"
		}
		hops := []string{fmt.Sprintf("%s:%d", c.Path, c.Line), sym.Name}
		lead := fmt.Sprintf("This copy of %s gives", s.Name.Name)
		if v := r.compareDefaultText(c, lead, doc, repl, name, hops, site); v != nil {
			return v
		}
	}
	return nil
}

// copyBlock is a copied block as parsed: the source the parser read (the
// block's text, after a package clause it may lack) and its positions.
type copyBlock struct {
	fset *token.FileSet
	src  string
	text string
}

// copiedFieldDoc compares the default a copied field's doc states with
// the default the field's own doc states, for a field whose default the
// code does not show (see [ownDocDefault]): fiber's session README copied
// CookieSameSite's doc as "Optional. Default value false." while the
// field, a string, says `Default value "Lax".`.
func (r *LiteralMismatch) copiedFieldDoc(c review.Claim, block copyBlock, typeName string, fl *ast.Field, doc string, sym retrieval.Symbol) *review.Verdict {
	own, ok := ownDocDefault(doc, sym)
	if !ok {
		return nil
	}
	v := r.ownDocVerdict(c, fmt.Sprintf("This copy of %s gives", typeName), doc, own, sym)
	// Rewrite the copy's comment line of this field only: other fields
	// often state the same default in the same words.
	cm := fl.Doc.List[len(fl.Doc.List)-1]
	for _, cmt := range fl.Doc.List {
		if strings.Contains(cmt.Text, doc) {
			cm = cmt
		}
	}
	off := block.fset.Position(cm.Pos()).Offset - (len(block.src) - len(block.text))
	start := strings.Index(c.Text, block.text)
	if off >= 0 && start >= 0 && strings.Count(c.Text, block.text) == 1 {
		at := start + off
		if line := c.Text[at:min(at+len(cm.Text), len(c.Text))]; line == cm.Text && strings.Count(line, doc) == 1 {
			v.Suggestion = c.Text[:at] + strings.Replace(line, doc, own, 1) + c.Text[at+len(line):]
		}
	}
	return v
}

// ownDocDefault returns the default the doc of a field (sym) states, when
// it contradicts stated, a default a copy or a table states for the field
// whose default the code does not show. Only values of another kind (a
// bool for a string field) or another number or truth value differ; two
// strings are not compared (see cellValue), and neither is a field doc
// whose value does not fit the field.
func ownDocDefault(stated string, sym retrieval.Symbol) (string, bool) {
	ms := copyDefaultRE.FindAllStringSubmatch(sym.Doc, -1)
	if len(ms) != 1 || sym.Object == nil {
		return "", false
	}
	own := strings.TrimSpace(ms[0][1])
	t := sym.Object.Type()
	a, aok := docConst(stated, t)
	b, bok := docConst(own, t)
	if !aok || !bok || sameConstant(a, b) || !fitsType(b, t) {
		return "", false
	}
	if a.Kind() == b.Kind() && a.Kind() == constant.String {
		return "", false
	}
	if a.Kind() != b.Kind() && !(isNumeric(a) && isNumeric(b)) && fitsType(a, t) {
		return "", false
	}
	return own, true
}

// ownDocVerdict reports a default a copy or table states (led by lead,
// "The table gives") against the one the field's own doc states.
func (r *LiteralMismatch) ownDocVerdict(c review.Claim, lead, stated, own string, sym retrieval.Symbol) *review.Verdict {
	return &review.Verdict{
		Label: review.Contradicted, Rule: r.Name(), Confidence: 0.8,
		Message: fmt.Sprintf("%s %s as the default of %s, but the field's own doc gives %s.", lead, stated, sym.Name, own),
		Evidence: []review.Evidence{{
			Path: sym.Path, StartLine: sym.DocLine, EndLine: max(sym.DocEndLine, sym.DocLine), Source: review.SourceDoc,
			Why: fmt.Sprintf("%s's doc: Default %s", sym.Name, own), Hops: []string{fmt.Sprintf("%s:%d", c.Path, c.Line), sym.Name},
		}},
	}
}

// docConst reads a default a doc states as a constant: a truth value, a
// number, a quoted string, or a duration written as Go
// ("24 * time.Hour") for a field of type time.Duration.
func docConst(text string, t types.Type) (constant.Value, bool) {
	src := strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(text), "."))
	if strings.HasPrefix(src, "`") && strings.HasSuffix(src, "`") && len(src) >= 2 {
		src = strings.TrimSpace(src[1 : len(src)-1])
	}
	if src == "" || strings.Contains(src, "`") {
		return nil, false
	}
	if litIsDuration(t) {
		src = timeUnits.Replace(src)
	} else if strings.Contains(src, "time.") {
		return nil, false
	}
	tv, err := types.Eval(token.NewFileSet(), nil, token.NoPos, src)
	if err != nil || tv.Value == nil {
		return nil, false
	}
	return tv.Value, true
}

// fitsType reports whether a constant of v's kind can be a value of t.
func fitsType(v constant.Value, t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	if !ok {
		return false
	}
	switch v.Kind() {
	case constant.Bool:
		return b.Info()&types.IsBoolean != 0
	case constant.String:
		return b.Info()&types.IsString != 0
	case constant.Int, constant.Float:
		return b.Info()&types.IsNumeric != 0
	}
	return false
}

// copiedVar compares the fields of a copied default var's composite
// literal with the constant fields of the package's var of that name.
func (r *LiteralMismatch) copiedVar(ws *review.Workspace, c review.Claim, sc scope, s *ast.ValueSpec, fset *token.FileSet, src string) *review.Verdict {
	if len(s.Names) != 1 || len(s.Values) != 1 {
		return nil
	}
	lit, ok := ast.Unparen(s.Values[0]).(*ast.CompositeLit)
	if u, isAddr := ast.Unparen(s.Values[0]).(*ast.UnaryExpr); isAddr && u.Op == token.AND {
		lit, ok = u.X.(*ast.CompositeLit)
	}
	if !ok {
		return nil
	}
	name := s.Names[0].Name
	p := copyPackage(ws, c, sc, name, func(obj types.Object) bool { _, ok := obj.(*types.Var); return ok })
	if p == nil {
		return nil
	}
	sym, ok := ws.Symbols.Lookup(p.Dir, name)
	if !ok || sym.Object == nil {
		return nil
	}
	fields := r.pkgValuesOf(ws, p).varFields[sym.Object]
	if len(fields) == 0 {
		return nil
	}
	for _, el := range lit.Elts {
		kv, ok := el.(*ast.KeyValueExpr)
		if !ok {
			continue
		}
		key, ok := kv.Key.(*ast.Ident)
		if !ok {
			continue
		}
		var site valueSite
		found := false
		for obj, s := range fields {
			if obj.Name() == key.Name {
				site, found = s, true
			}
		}
		if !found || site.val == nil {
			continue
		}
		from, to := fset.Position(kv.Value.Pos()).Offset, fset.Position(kv.Value.End()).Offset
		if from < 0 || to > len(src) || from >= to {
			continue
		}
		doc := src[from:to]
		hops := []string{fmt.Sprintf("%s:%d", c.Path, c.Line), name + "." + key.Name}
		lead := fmt.Sprintf("This copy of %s gives", name)
		if v := r.compareDefaultText(c, lead, "`"+doc+"`", "`"+site.expr+"`", name+"."+key.Name, hops, site); v != nil {
			// The copy writes Go, not a code span: suggest the code's
			// expression in its place.
			v.Suggestion = ""
			if strings.Count(c.Text, doc) == 1 {
				v.Suggestion = strings.Replace(c.Text, doc, site.expr, 1)
			}
			v.Message = strings.Replace(v.Message, "`"+doc+"`", doc, 1)
			return v
		}
	}
	return nil
}

// copyPackage returns the nearest package in scope that declares name at
// package level as an object keep accepts, or nil.
func copyPackage(ws *review.Workspace, c review.Claim, sc scope, name string, keep func(types.Object) bool) *retrieval.Package {
	for _, p := range docScopePackages(ws, c, sc) {
		if p.Types == nil {
			continue
		}
		if obj := p.Types.Scope().Lookup(name); obj != nil {
			if keep(obj) {
				return p
			}
			return nil // the nearest declaration of the name is another kind
		}
	}
	return nil
}

// docScopePackages returns the packages a Markdown claim's names may be
// declared in, nearest first: the packages of its directories, with the
// package the file is named after ([namedDocPackage]) before the module
// root's.
func docScopePackages(ws *review.Workspace, c review.Claim, sc scope) []*retrieval.Package {
	pkgs := sc.scopePackages()
	named := namedDocPackage(ws, c)
	if named == nil || slices.Contains(pkgs, named) {
		return pkgs
	}
	for i, p := range pkgs {
		if p.Dir == "." {
			return slices.Insert(pkgs, i, named)
		}
	}
	return append(pkgs, named)
}

// namedDocPackage returns the package a Markdown file is named after:
// docs/middleware/cache.md documents the module's one package whose
// directory is called cache or, when several are, the one whose parent
// directory is called as the file's (middleware/cache). It returns nil for
// other claims and for file names no package, or several, answer to.
func namedDocPackage(ws *review.Workspace, c review.Claim) *retrieval.Package {
	if c.Kind != review.KindMarkdown || ws.Symbols == nil {
		return nil
	}
	base := strings.TrimSuffix(path.Base(c.Path), path.Ext(c.Path))
	if base == "" || strings.EqualFold(base, "readme") || strings.EqualFold(base, "index") {
		return nil
	}
	parent := path.Base(path.Dir(c.Path))
	var named, nested []*retrieval.Package
	for _, p := range ws.Symbols.Packages() {
		if p.Types == nil || path.Base(p.Dir) != base {
			continue
		}
		named = append(named, p)
		if path.Base(path.Dir(p.Dir)) == parent {
			nested = append(nested, p)
		}
	}
	switch {
	case len(named) == 1:
		return named[0]
	case len(nested) == 1:
		return nested[0]
	}
	return nil
}
