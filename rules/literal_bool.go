package rules

import (
	"cmp"
	"fmt"
	"go/constant"
	"go/types"
	"regexp"
	"strings"

	"github.com/docreview/docreview/review"
	"github.com/docreview/docreview/review/prose"
)

// boolDefaultRE finds a boolean a sentence states as a default: "Default
// value false", "defaults to true", "(default: false)".
var boolDefaultRE = regexp.MustCompile(`(?i)(?:\bdefaults?\s+(?:to|is|value\s+is)|\bdefault(?:\s+value)?\s*[:=]?|\(default:?|\bby\s+default,?\s+(?:it\s+)?is)\s*` + "[`\"]?" + `(true|false)\b`)

// judgeBoolDefault reports a field whose own doc states a boolean default
// ("Optional. Default value false.") while the field holds a string or a
// number: the doc was copied from a boolean field's (fiber's session
// Config.CookieSameSite, a string, says "Default value false" like the
// CookieHTTPOnly above it). Only the field's own doc counts, and only a
// field of a basic string or numeric type: a bool behind a pointer, an
// interface or a func may take a boolean's meaning, and so may a type of
// its own that encodes one (encodesBool).
func (r *LiteralMismatch) judgeBoolDefault(ws *review.Workspace, c review.Claim) *review.Verdict {
	sym, field, ok := claimField(ws, c)
	if !ok || sym.Name != field.Name || field.Object == nil {
		return nil
	}
	b, ok := field.Object.Type().Underlying().(*types.Basic)
	if !ok || b.Info()&(types.IsString|types.IsNumeric) == 0 || encodesBool(field.Object.Type()) {
		return nil
	}
	for _, sent := range prose.SplitSentences(c.Text) {
		m := boolDefaultRE.FindStringSubmatchIndex(sent)
		if m == nil || driftHistoryRE.MatchString(sent) {
			continue
		}
		stated := sent[m[2]:m[3]]
		kind := "a string"
		if b.Info()&types.IsNumeric != 0 {
			kind = "a number"
		}
		typ := types.TypeString(field.Object.Type(), func(p *types.Package) string { return p.Name() })
		msg := fmt.Sprintf("The doc gives %s as the default of %s, a boolean, but %s is %s (%s)", stated, field.Name, field.Name, kind, typ)
		v := &review.Verdict{
			Label: review.Contradicted, Rule: r.Name(), Confidence: 0.8,
			Evidence: []review.Evidence{{
				Path: field.Path, StartLine: field.Line, EndLine: max(field.EndLine, field.Line), Source: review.SourceCode,
				Why: fmt.Sprintf("declares %s as %s", field.Name, typ), Hops: []string{c.Symbol, field.Name},
			}},
		}
		if site, ok := r.fieldDefault(ws, field); ok && site.val != nil {
			msg += fmt.Sprintf("; the code sets %s = %s", site.name, site.expr)
			v.Evidence = append(v.Evidence, review.Evidence{
				Path: site.path, StartLine: site.line, EndLine: max(site.end, site.line), Source: review.SourceCode,
				Why: site.why, Hops: []string{c.Symbol, cmp.Or(site.fn, site.name)},
			})
			v.Suggestion = strings.Replace(c.Text, sent, sent[:m[2]]+site.expr+sent[m[3]:], 1)
		}
		v.Message = msg + "."
		return v
	}
	return nil
}

// encodesBool reports whether t is a defined type that stands for a
// boolean in its own encoding (tailscale's opt.Bool, a string of "true",
// "false" or ""): its name says bool, a method of it returns a bool, or
// its package declares a constant of it spelt "true" or "false".
func encodesBool(t types.Type) bool {
	named, ok := types.Unalias(t).(*types.Named)
	if !ok {
		return false
	}
	obj := named.Obj()
	if strings.Contains(strings.ToLower(obj.Name()), "bool") {
		return true
	}
	ms := types.NewMethodSet(types.NewPointer(named))
	for i := range ms.Len() {
		sig, ok := ms.At(i).Type().(*types.Signature)
		if !ok {
			continue
		}
		for v := range sig.Results().Variables() {
			if b, ok := v.Type().Underlying().(*types.Basic); ok && b.Kind() == types.Bool {
				return true
			}
		}
	}
	if obj.Pkg() == nil {
		return false
	}
	scope := obj.Pkg().Scope()
	for _, name := range scope.Names() {
		k, ok := scope.Lookup(name).(*types.Const)
		if !ok || !types.Identical(k.Type(), named) || k.Val().Kind() != constant.String {
			continue
		}
		if s := strings.ToLower(constant.StringVal(k.Val())); s == "true" || s == "false" {
			return true
		}
	}
	return false
}
