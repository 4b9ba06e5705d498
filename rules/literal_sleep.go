package rules

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/types"
	"math"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/docreview/docreview/retrieval"
	"github.com/docreview/docreview/review"
	"github.com/docreview/docreview/review/prose"
)

// This file holds the sleep half of the literal-mismatch rule: the doc
// comment of a func says how long it sleeps or pauses ("the client will
// sleep for 200ms after a successful commit"), and the one constant
// duration the code passes to time.Sleep, in the func, its callees up to
// depth 2 or, for a constructor, the methods of the type it returns, is
// another.

// sleepVerbRE finds a verb of sleeping right before the duration it
// takes: "sleeps for", "will sleep", "pauses for about".
var sleepVerbRE = regexp.MustCompile(`(?i)\b(?:sleeps?|sleeping|pauses?|pausing)\s+(?:for\s+)?(?:about\s+|approximately\s+|roughly\s+)?$`)

// leadingDigitsRE reads the number a duration literal starts with.
var leadingDigitsRE = regexp.MustCompile(`^\d+(?:\.\d+)?`)

// sleepSite is a time.Sleep call with a constant duration.
type sleepSite struct {
	ns   int64
	text string // the argument as written: "500 * time.Millisecond"
	path string
	line int
	hops []string
}

// judgeSleep reports a duration the claim's doc comment says its func
// sleeps that differs from the one constant the code sleeps, or nil.
func (r *LiteralMismatch) judgeSleep(ws *review.Workspace, c review.Claim) *review.Verdict {
	if c.Kind != review.KindDocComment || c.Symbol == "" || strings.HasPrefix(c.Symbol, "package ") {
		return nil
	}
	if lower := strings.ToLower(c.Text); !strings.Contains(lower, "sleep") && !strings.Contains(lower, "paus") {
		return nil
	}
	sym, ok := ws.Symbols.Lookup(c.Package, c.Symbol)
	if !ok || (sym.Kind != retrieval.SymbolFunc && sym.Kind != retrieval.SymbolMethod) || sym.Package == nil || sym.Package.Info == nil {
		return nil
	}
	var stated *prose.Literal
	for _, l := range prose.Literals(c.Text) {
		if prose.DimensionOf(l.Unit) != prose.Duration || !sleepVerbRE.MatchString(c.Text[:l.Start]) {
			continue
		}
		if stated != nil {
			return nil // two sleeps stated: which is which is not certain
		}
		stated = &l
	}
	if stated == nil {
		return nil
	}
	sites := sleepSites(ws.Symbols, sym)
	if len(sites) == 0 {
		return nil
	}
	for _, s := range sites[1:] {
		if s.ns != sites[0].ns {
			return nil // the code sleeps for more than one duration
		}
	}
	site := sites[0]
	doc := stated.Value * prose.Nanoseconds(stated.Unit)
	if doc <= 0 || math.Abs(doc-float64(site.ns)) < 0.5 {
		return nil
	}
	written := c.Text[stated.Start:stated.End]
	msg := fmt.Sprintf("The doc says %s sleeps %s, but it sleeps %s (time.Sleep(%s)).", c.Symbol, written, time.Duration(site.ns), site.text)
	v := &review.Verdict{
		Label: review.Contradicted, Rule: r.Name(), Message: msg, Confidence: 0.8,
		Evidence: []review.Evidence{{
			Path: site.path, StartLine: site.line, EndLine: site.line, Source: review.SourceCode,
			Why: "sleeps " + site.text, Hops: append([]string{c.Symbol + " (doc)"}, site.hops...),
		}},
	}
	// Rewrite only the number, in the doc's own unit, when it is whole.
	if per := prose.Nanoseconds(stated.Unit); per > 0 {
		if n := float64(site.ns) / per; n == math.Trunc(n) {
			digits := leadingDigitsRE.FindString(written)
			if digits != "" {
				v.Suggestion = c.Text[:stated.Start] + strconv.FormatFloat(n, 'f', -1, 64) + written[len(digits):] + c.Text[stated.End:]
			}
		}
	}
	return v
}

// sleepSites returns the time.Sleep calls with a constant duration in
// sym's body, in its callees up to depth 2 and, when sym is a func named
// New… that returns a type of its package, in that type's methods.
func sleepSites(syms *retrieval.Symbols, sym retrieval.Symbol) []sleepSite {
	var out []sleepSite
	add := func(s retrieval.Symbol, hops []string) {
		fd := funcDecl(s)
		if fd == nil || fd.Body == nil || s.Package == nil || s.Package.Info == nil {
			return
		}
		out = append(out, sleepCalls(s.Package, fd, hops)...)
	}
	add(sym, []string{sym.Name})
	for _, ref := range syms.Callees(sym, 2) {
		add(ref.Symbol, ref.Hops)
	}
	if sym.Kind == retrieval.SymbolFunc && strings.HasPrefix(sym.Name, "New") {
		if fn, ok := sym.Object.(*types.Func); ok {
			res := fn.Type().(*types.Signature).Results()
			if res.Len() > 0 {
				if named, ok := symDerefNamed(res.At(0).Type()); ok && named.Obj().Pkg() == sym.Package.Types {
					for i := range named.NumMethods() {
						m := named.Method(i)
						if ms, ok := syms.Lookup(sym.Package.Dir, named.Obj().Name()+"."+m.Name()); ok {
							add(ms, []string{sym.Name, ms.Name})
						}
					}
				}
			}
		}
	}
	return out
}

// symDerefNamed returns the named type t is or points to.
func symDerefNamed(t types.Type) (*types.Named, bool) {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := t.(*types.Named)
	return n, ok
}

// sleepCalls returns the time.Sleep calls of fd whose argument is a
// constant.
func sleepCalls(p *retrieval.Package, fd *ast.FuncDecl, hops []string) []sleepSite {
	var out []sleepSite
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || len(call.Args) != 1 {
			return true
		}
		sel, ok := call.Fun.(*ast.SelectorExpr)
		if !ok {
			return true
		}
		fn, ok := p.Info.Uses[sel.Sel].(*types.Func)
		if !ok || fn.Pkg() == nil || fn.Pkg().Path() != "time" || fn.Name() != "Sleep" {
			return true
		}
		tv, ok := p.Info.Types[call.Args[0]]
		if !ok || tv.Value == nil || tv.Value.Kind() != constant.Int {
			return true
		}
		ns, exact := constant.Int64Val(tv.Value)
		if !exact || ns <= 0 {
			return true
		}
		pos := p.Fset.Position(call.Pos())
		out = append(out, sleepSite{
			ns: ns, text: types.ExprString(call.Args[0]), path: pos.Filename, line: pos.Line, hops: hops,
		})
		return true
	})
	return out
}
