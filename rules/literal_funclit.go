package rules

import (
	"go/ast"
	"go/types"
	"regexp"
	"strings"

	"github.com/docreview/docreview/retrieval"
	"github.com/docreview/docreview/review"
	"github.com/docreview/docreview/review/prose"
)

// This file holds the func-literal half of the literal-mismatch rule: a
// field whose default is a func the constructor builds ("retryBackoff:
// func() func(int) time.Duration { … const (min = 250 * time.Millisecond;
// max = 5 * time.Second) … }()") has no one value, but its named
// constants are the numbers a doc states of it: "overriding the default
// jittery exponential backoff that ranges from 250ms min to 2.5s max"
// (franz-go's RetryBackoffFn).

// judgeFuncLitDefault reports a number that a sentence about the default
// of a field (the field's doc, or the doc of the option func or setter
// that sets it) writes right beside the name of a constant that the
// field's one func-literal default declares, when the two differ; nil
// otherwise.
func (r *LiteralMismatch) judgeFuncLitDefault(ws *review.Workspace, c review.Claim) *review.Verdict {
	_, field, ok := claimField(ws, c)
	if !ok {
		return nil
	}
	sites := r.fieldSites(ws, field)
	if len(sites) != 1 || sites[0].src == nil {
		return nil
	}
	consts := funcLitConsts(field.Package, sites[0])
	if len(consts) == 0 {
		return nil
	}
	for _, sent := range prose.SplitSentences(c.Text) {
		if driftHistoryRE.MatchString(sent) || !funcLitDefaultRE.MatchString(sent) {
			continue
		}
		lits, _ := placeMentions(ws, sent)
		for _, l := range lits {
			name := litBesideWord(sent, l)
			site, ok := consts[name]
			if !ok {
				continue
			}
			if v := r.compare(c, field.Name+"'s default "+site.name, l, site); v != nil {
				return v
			}
		}
	}
	return nil
}

// funcLitDefaultRE matches a sentence that speaks of a default.
var funcLitDefaultRE = regexp.MustCompile(`(?i)\bdefault`)

// funcLitConsts returns the constants that the func literals of a field's
// default expression declare, by lower-case name ("min", "max"), each
// as a site of its own; a name declared twice is left out.
func funcLitConsts(p *retrieval.Package, def valueSite) map[string]valueSite {
	if p == nil || p.Info == nil || p.Fset == nil {
		return nil
	}
	// An expression declares constants only inside its func literals.
	out := map[string]valueSite{}
	twice := map[string]bool{}
	eachConst(p, def.src, func(vs *ast.ValueSpec, id *ast.Ident, obj *types.Const, val ast.Expr) {
		if obj == nil || obj.Val() == nil || !isNumeric(obj.Val()) || val == nil {
			return
		}
		key := strings.ToLower(id.Name)
		if _, seen := out[key]; seen {
			twice[key] = true
		}
		a, b := p.Fset.Position(vs.Pos()), p.Fset.Position(vs.End())
		expr := types.ExprString(val)
		out[key] = valueSite{
			val: obj.Val(), typ: obj.Type(), name: id.Name, expr: expr,
			why:  id.Name + " = " + expr + ", a constant of the func literal " + funcLitOwner(def) + " sets " + def.name + " to",
			path: a.Filename, line: a.Line, end: max(b.Line, a.Line), fn: def.fn,
		}
	})
	for k := range twice {
		delete(out, k)
	}
	return out
}

// litBesideWord returns, in lower case and with "minimum" and "maximum"
// shortened to "min" and "max", the word right after the literal ("2.5s
// max") or, failing that, right before it with at most "of", "is" or "="
// between ("a maximum of 5s", "max = 5s"); "" for none.
func litBesideWord(sent string, l litPlaced) string {
	norm := func(w string) string {
		w = strings.ToLower(w)
		switch w {
		case "minimum":
			return "min"
		case "maximum":
			return "max"
		}
		return w
	}
	if m := litWordAfterRE.FindStringSubmatch(sent[l.end:]); m != nil {
		return norm(m[1])
	}
	if m := litWordBeforeRE.FindStringSubmatch(sent[:l.start]); m != nil {
		return norm(m[1])
	}
	return ""
}

var (
	litWordAfterRE  = regexp.MustCompile(`^[ \t]+([A-Za-z_]\w*)\b`)
	litWordBeforeRE = regexp.MustCompile(`\b([A-Za-z_]\w*)(?:[ \t]+(?:of|is)|[ \t]*=)?[ \t]+$`)
)

// funcLitOwner names the func that assigns a default, or the default's
// declaration when no func does.
func funcLitOwner(def valueSite) string {
	if def.fn != "" {
		return def.fn
	}
	return def.name
}
