package rules

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"regexp"
	"strings"

	"github.com/docreview/docreview/retrieval"
	"github.com/docreview/docreview/review"
	"github.com/docreview/docreview/review/prose"
)

// This file holds the named-value half of the literal-mismatch rule: a
// field's doc (or the doc of an option func that sets the field) names a
// package-level value as its default ("Defaults to os.Stdout", "If nil,
// DefaultTransport is used"), and the package gives the field another
// value: another var or const (os.Stderr, LevelWarn), or a value of its
// own (&Transport{…}).

var (
	// namedValueRE finds names a sentence may give as a default: a
	// qualified name (os.Stderr) or an exported one (LevelInfo), bare,
	// backticked or in doc-link brackets.
	namedValueRE = regexp.MustCompile("[\\[`]?\\b((?:[a-z][A-Za-z0-9]*\\.)?[A-Z][A-Za-z0-9_]*)\\b[\\]`]?")
	// usedAfterRE follows a default named in a sentence about nil or zero:
	// "If nil, DefaultTransport is used".
	usedAfterRE = regexp.MustCompile(`(?i)^\s*(?:is|will\s+be)\s+used\b`)
	// fallsBackRE ends right before such a default: "falls back to".
	fallsBackRE = regexp.MustCompile(`(?i)\b(?:falls?\s+back\s+to|uses|means)\s*$`)
)

// judgeNamedDefault reports a named default of a field that the field's
// default in the code contradicts, or nil.
func (r *LiteralMismatch) judgeNamedDefault(ws *review.Workspace, c review.Claim) *review.Verdict {
	sym, field, ok := claimField(ws, c)
	if !ok || sym.Package.Types == nil {
		return nil
	}
	site, ok := r.namedFieldDefault(ws, field)
	if !ok {
		return nil
	}
	for _, sent := range prose.SplitSentences(c.Text) {
		if driftHistoryRE.MatchString(sent) {
			continue
		}
		for _, m := range namedValueRE.FindAllStringSubmatchIndex(sent, -1) {
			name := sent[m[2]:m[3]]
			before, after := sent[:m[0]], sent[m[1]:]
			bound := defaultCueRE.MatchString(before) ||
				zeroRE.MatchString(before) && (usedAfterRE.MatchString(after) || fallsBackRE.MatchString(before))
			if !bound {
				continue
			}
			obj := resolveNamed(sym.Package, name)
			if obj == nil || !types.AssignableTo(obj.Type(), field.Object.Type()) {
				continue
			}
			if v := r.compareNamed(ws, c, field, name, obj, site); v != nil {
				return v
			}
		}
	}
	return nil
}

// compareNamed compares the default a doc names with the field's.
func (r *LiteralMismatch) compareNamed(ws *review.Workspace, c review.Claim, field retrieval.Symbol, name string, obj types.Object, site valueSite) *review.Verdict {
	var msg, suggestion string
	switch {
	case site.ref != nil:
		if site.ref == obj || initializedTo(field.Package, r.pkgValuesOf(ws, field.Package), site.ref, obj) {
			return nil
		}
		a, aok := obj.(*types.Const)
		b, bok := site.ref.(*types.Const)
		if aok && bok && constant.Compare(a.Val(), token.EQL, b.Val()) {
			return nil
		}
		msg = fmt.Sprintf("The doc gives %s as the default of %s, but the code sets %s.", name, field.Name, site.why)
		if strings.Count(c.Text, name) == 1 {
			suggestion = strings.Replace(c.Text, name, site.expr, 1)
		}
	case site.fresh:
		if _, isVar := obj.(*types.Var); !isVar {
			return nil
		}
		msg = fmt.Sprintf("The doc gives %s as the default of %s, but the code sets %s, a value of its own.", name, field.Name, site.why)
	default:
		return nil
	}
	hop := c.Symbol
	hops := []string{hop}
	if site.fn != "" {
		hops = append(hops, site.fn)
	}
	return &review.Verdict{
		Label: review.Contradicted, Rule: r.Name(), Message: msg, Confidence: 0.85,
		Suggestion: suggestion,
		Evidence: []review.Evidence{{
			Path: site.path, StartLine: site.line, EndLine: site.end, Source: review.SourceCode,
			Why: site.why, Hops: hops,
		}},
	}
}

// initializedTo reports whether ref is a package-level var of p that no
// func of p assigns and whose declaration initializes it to obj: otel's
// stdouttrace sets Writer: defaultWriter, with defaultWriter = os.Stdout,
// and documents "If not set, os.Stdout is used".
func initializedTo(p *retrieval.Package, pv *pkgValues, ref, obj types.Object) bool {
	v, ok := ref.(*types.Var)
	if !ok || p == nil || p.Info == nil || p.Types == nil || v.Parent() != p.Types.Scope() {
		return false
	}
	for _, f := range p.Syntax {
		for _, d := range f.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != token.VAR {
				continue
			}
			for _, sp := range gd.Specs {
				vs := sp.(*ast.ValueSpec)
				for i, n := range vs.Names {
					if p.Info.Defs[n] != ref || i >= len(vs.Values) || len(vs.Names) != len(vs.Values) {
						continue
					}
					var id *ast.Ident
					switch x := ast.Unparen(vs.Values[i]).(type) {
					case *ast.Ident:
						id = x
					case *ast.SelectorExpr:
						id = x.Sel
					}
					return id != nil && p.Info.Uses[id] == obj && !pv.assigned[v]
				}
			}
		}
	}
	return false
}

// namedFieldDefault returns the field's default when every func of the
// package that gives it one gives the same named value (all one var or
// const), or all give composite literals; false when a Default<Field>
// constant exists, when there is no default, or the defaults differ.
func (r *LiteralMismatch) namedFieldDefault(ws *review.Workspace, field retrieval.Symbol) (valueSite, bool) {
	if field.Package == nil || field.Object == nil {
		return valueSite{}, false
	}
	pv := r.pkgValuesOf(ws, field.Package)
	typ, name, ok := strings.Cut(field.Name, ".")
	if !ok {
		return valueSite{}, false
	}
	for _, n := range []string{"Default" + name, "default" + name, "Default" + typ + name, "default" + typ + name} {
		if _, ok := pv.byName[n]; ok {
			return valueSite{}, false
		}
	}
	sites := pv.fields[field.Object]
	if len(sites) == 0 {
		return valueSite{}, false
	}
	first := sites[0]
	for _, s := range sites {
		switch {
		case first.ref != nil && s.ref != first.ref:
			return valueSite{}, false
		case first.fresh && !s.fresh:
			return valueSite{}, false
		case first.ref == nil && !first.fresh:
			return valueSite{}, false
		}
	}
	return first, true
}

// resolveNamed finds a name as package p's code can write it: one of its
// own package-level vars and consts, or "pkg.Name" of a package it
// imports.
func resolveNamed(p *retrieval.Package, name string) types.Object {
	pkg, sel, qualified := strings.Cut(name, ".")
	if !qualified {
		return namedValue(p.Types.Scope().Lookup(name))
	}
	for _, imp := range p.Types.Imports() {
		if imp.Name() == pkg {
			return namedValue(imp.Scope().Lookup(sel))
		}
	}
	return nil
}
