package rules

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/docreview/docreview/retrieval"
	"github.com/docreview/docreview/review"
	"github.com/docreview/docreview/review/prose"
)

// This file holds the argument half of the literal-mismatch rule: a
// func's doc states a number for a word that is the name of a parameter
// of a function its body calls ("seeks from the end, using whence set to
// '2'", "reads with a buffer size of 4096"), and every call of the body
// to a function with that parameter passes one constant for it, another
// number (r.Seek(-100, 2), bufio.NewReaderSize(r, 8192)).

// argTieRE matches what may stand between a parameter's name and the
// number the doc gives it: "whence set to '2'", "base 16", "size of
// 4096", "depth = 3", "timeout: 5s".
var argTieRE = regexp.MustCompile(`(?i)^\s*(?:set\s+to|of|=|:|is|equal\s+to|equals|as)?\s*['"]?$`)

// argWordRE finds the words of a sentence.
var argWordRE = regexp.MustCompile(`[A-Za-z][A-Za-z0-9]*`)

// argSite is a constant a body passes for a named parameter.
type argSite struct {
	param  string // the parameter's name, lower case
	pname  string // the parameter's name as declared
	callee string // "Seek", "bufio.NewReaderSize"
	val    constant.Value
	dur    bool   // the parameter is a time.Duration
	arg    string // the argument as written
	call   string // the call as written, shortened
	path   string
	line   int
}

// judgeArgValue reports a number a func's doc gives a parameter of a
// callee that every call of its body passes as another constant, or nil.
func (r *LiteralMismatch) judgeArgValue(ws *review.Workspace, c review.Claim) *review.Verdict {
	if c.Kind != review.KindDocComment || c.Symbol == "" || strings.HasPrefix(c.Symbol, "package ") || !strings.ContainsAny(c.Text, "0123456789") {
		return nil
	}
	sym, ok := ws.Symbols.Lookup(c.Package, c.Symbol)
	if !ok || sym.Path != c.Path || (sym.Kind != retrieval.SymbolFunc && sym.Kind != retrieval.SymbolMethod) || sym.Package == nil || sym.Package.Info == nil {
		return nil
	}
	sites := argSites(sym)
	if len(sites) == 0 {
		return nil
	}
	// The doc's own parameters are the func's to state, not a callee's.
	own := map[string]bool{}
	if fd := funcDecl(sym); fd != nil {
		for _, f := range fd.Type.Params.List {
			for _, n := range f.Names {
				own[strings.ToLower(n.Name)] = true
			}
		}
	}
	var found *review.Verdict
	var foundParam string
	agreed := map[string]bool{} // parameters the doc also gives the value passed
	for _, span := range prose.Sentences(c.Text) {
		sent := c.Text[span.Start:span.End]
		if driftHistoryRE.MatchString(sent) || topicExampleRE.MatchString(sent) {
			continue
		}
		for _, m := range driftDigitsRE.FindAllStringIndex(sent, -1) {
			if partOfNumber(sent, m[0], m[1]) || litInExpr(sent, m[0], m[1]) {
				continue
			}
			// Digits of a name or version ("int64", "v2", "2nd") are no
			// number of their own.
			if m[0] > 0 && (isIdentByte(sent[m[0]-1]) || sent[m[0]-1] == '.' || sent[m[0]-1] == '-') {
				continue
			}
			if m[1] < len(sent) && isIdentByte(sent[m[1]]) {
				if _, ok := literalAt(sent, m[0], m[1]); !ok {
					continue
				}
			}
			param, ok := argParamBefore(sent[:m[0]], sites)
			if !ok {
				param, ok = argParamSplit(sent, sent[:m[0]], sites)
			}
			if !ok || own[param] {
				continue
			}
			site, ok := soleArg(sites, param)
			if !ok {
				continue
			}
			v, same := r.compareArg(c, sym, sent, span.Start, m, site)
			if same {
				agreed[param] = true
			}
			if v != nil && found == nil {
				found, foundParam = v, param
			}
		}
	}
	// A doc that also gives the parameter the value the body passes
	// speaks of more than the call ("a base 10 (“e”) or a base 2 (“p”)
	// exponent"; "overridden to value 1 … the default value is 0").
	if found == nil || agreed[foundParam] || negativeAgrees(c.Text, foundParam, sites) {
		return nil
	}
	return found
}

// negativeAgrees reports whether the doc gives param, somewhere, a
// negative number ("value -1") that some call of the body passes.
func negativeAgrees(text, param string, sites []argSite) bool {
	for _, m := range argNegativeRE.FindAllStringSubmatchIndex(text, -1) {
		p, ok := argParamBefore(text[:m[0]], sites)
		if !ok || p != param {
			continue
		}
		n, err := strconv.ParseFloat(text[m[2]:m[3]], 64)
		if err != nil {
			continue
		}
		for _, s := range sites {
			if v, ok := constant.Float64Val(constant.ToFloat(s.val)); ok && s.param == param && v == -n {
				return true
			}
		}
	}
	return false
}

// argNegativeRE finds a negative number written after a space: "value -1".
var argNegativeRE = regexp.MustCompile(`(?:^|\s)-(\d+(?:\.\d+)?)\b`)

// argParamBefore returns the parameter, among the sites', that the words
// right before a number name: one to three words joined by spaces, then
// only a tie ("whence set to", "buffer size of" for bufferSize or size).
func argParamBefore(before string, sites []argSite) (string, bool) {
	words := argWordRE.FindAllStringIndex(before, -1)
	for k := len(words) - 1; k >= 0 && k >= len(words)-4; k-- {
		gap := before[words[k][1]:]
		if !argTieRE.MatchString(gap) {
			continue
		}
		// The longest phrase first: "initial max delay" is
		// initialMaxDelay, not maxDelay.
		for n := min(3, k+1); n >= 1; n-- {
			if first := k - n + 1; first > 0 && strings.TrimSpace(before[words[first-1][1]:words[first][0]]) == "" &&
				!argLeadWords[strings.ToLower(before[words[first-1][0]:words[first-1][1]])] {
				continue // another word qualifies the phrase
			}
			var b strings.Builder
			ok := true
			for i := k - n + 1; i <= k; i++ {
				if i > k-n+1 && strings.TrimSpace(before[words[i-1][1]:words[i][0]]) != "" {
					ok = false // words joined only by spaces
				}
				b.WriteString(strings.ToLower(before[words[i][0]:words[i][1]]))
			}
			name := b.String()
			if !ok || len(name) < 4 {
				continue
			}
			for _, s := range sites {
				if s.param == name {
					return name, true
				}
			}
		}
	}
	return "", false
}

// argParamSplit returns the parameter, among the sites', whose name the
// sentence writes apart: the word right before the number (and its tie)
// ends the name, and the rest of the name is a word of the sentence too
// (go-edlib's "used with Shingle split method with a length of 2" for
// splitLength). Exactly one parameter of the sites may fit.
func argParamSplit(sent, before string, sites []argSite) (string, bool) {
	words := argWordRE.FindAllStringIndex(before, -1)
	if len(words) == 0 {
		return "", false
	}
	w := ""
	for k := len(words) - 1; k >= 0 && k >= len(words)-3 && w == ""; k-- {
		word := strings.ToLower(before[words[k][0]:words[k][1]])
		if argLeadWords[word] || word == "equal" || word == "equals" {
			continue // the tie itself ("of", "set to")
		}
		if !argTieRE.MatchString(before[words[k][1]:]) {
			break
		}
		w = word
	}
	if len(w) < 4 {
		return "", false
	}
	sentWords := map[string]bool{}
	for _, m := range argWordRE.FindAllString(sent, -1) {
		sentWords[strings.ToLower(m)] = true
	}
	found := ""
	for _, s := range sites {
		rest, ok := strings.CutSuffix(s.param, w)
		if !ok || len(rest) < 3 || !sentWords[rest] || s.param == found {
			continue
		}
		if found != "" {
			return "", false
		}
		found = s.param
	}
	return found, found != ""
}

// argLeadWords may stand right before a parameter's name without
// qualifying it: "using whence", "in base 16", "a timeout of".
var argLeadWords = map[string]bool{
	"a": true, "an": true, "the": true, "its": true, "their": true, "with": true, "using": true, "uses": true,
	"use": true, "of": true, "for": true, "and": true, "or": true, "to": true, "by": true, "at": true, "in": true,
	"on": true, "set": true, "sets": true, "passes": true, "pass": true, "gives": true, "give": true, "has": true,
	"is": true, "as": true, "default": true, "then": true,
}

// soleArg returns the one constant the sites pass for param, failing when
// they pass several.
func soleArg(sites []argSite, param string) (argSite, bool) {
	var found *argSite
	for i, s := range sites {
		if s.param != param {
			continue
		}
		if found != nil && (found.dur != s.dur || !constant.Compare(found.val, token.EQL, s.val)) {
			return argSite{}, false
		}
		if found == nil {
			found = &sites[i]
		}
	}
	if found == nil {
		return argSite{}, false
	}
	return *found, true
}

// compareArg compares the number sent[m[0]:m[1]] (at offset off in the
// claim) with the argument a body passes, in the doc's unit: the verdict
// of a mismatch, or whether the two are the same.
func (r *LiteralMismatch) compareArg(c review.Claim, sym retrieval.Symbol, sent string, off int, m []int, site argSite) (*review.Verdict, bool) {
	digits := sent[m[0]:m[1]]
	stated, err := strconv.ParseFloat(digits, 64)
	if err != nil {
		return nil, false
	}
	code, ok := constant.Float64Val(constant.ToFloat(site.val))
	if !ok {
		return nil, false
	}
	written := digits
	per := 1.0
	if l, ok := literalAt(sent, m[0], m[1]); ok {
		written = sent[l.Start:l.End]
		switch prose.DimensionOf(l.Unit) {
		case prose.Duration:
			if !site.dur {
				return nil, false
			}
			per = prose.Nanoseconds(l.Unit)
		case prose.Size:
			return nil, false // a size against a count of what is not certain
		}
	} else if site.dur {
		return nil, false // a bare number for a duration has no unit to compare in
	}
	if per <= 0 {
		return nil, false
	}
	if math.Abs(stated*per-code) < 0.5 {
		return nil, true
	}
	shown := site.arg
	if site.dur {
		shown = fmt.Sprintf("%s (%s)", site.arg, time.Duration(int64(code)))
	}
	msg := fmt.Sprintf("The doc gives %s for %s, but %s passes %s as %s's %s (%s).",
		strings.Join(strings.Fields(written), " "), site.pname, lastPart(sym.Name), shown, site.callee, site.pname, site.call)
	v := &review.Verdict{
		Label: review.Contradicted, Rule: r.Name(), Message: msg, Confidence: 0.75,
		Evidence: []review.Evidence{{
			Path: site.path, StartLine: site.line, EndLine: site.line, Source: review.SourceCode,
			Why:  fmt.Sprintf("passes %s as %s's %s", site.arg, site.callee, site.pname),
			Hops: []string{c.Symbol + " (doc)", c.Symbol, site.callee},
		}},
	}
	if n := code / per; n == math.Trunc(n) && countNumber(c.Text, digits) == 1 {
		v.Suggestion = c.Text[:off+m[0]] + strconv.FormatFloat(n, 'f', -1, 64) + c.Text[off+m[1]:]
	}
	return v, false
}

// literalAt reads the literal with a unit that starts at the number
// sent[i:j], if any.
func literalAt(sent string, i, j int) (prose.Literal, bool) {
	lits := prose.Literals(sent[i:])
	if len(lits) == 0 || lits[0].Start != 0 || lits[0].End < j-i {
		return prose.Literal{}, false
	}
	l := lits[0]
	l.Start += i
	l.End += i
	return l, true
}

// argSites returns the constants sym's body passes for the named
// parameters of the functions and methods it calls (func literals
// included): for each call and argument with a constant value, the
// parameter's name and the value. Variadic and unnamed parameters, and
// names shorter than four letters, are left out.
func argSites(sym retrieval.Symbol) []argSite {
	fd := funcDecl(sym)
	p := sym.Package
	if fd == nil || fd.Body == nil || p.Info == nil || p.Fset == nil {
		return nil
	}
	var out []argSite
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		fn := calledFunc(p.Info, call)
		if fn == nil {
			return true
		}
		sig, ok := fn.Type().(*types.Signature)
		if !ok {
			return true
		}
		callee := fn.Name()
		if fn.Pkg() != nil && fn.Pkg() != p.Types && sig.Recv() == nil {
			callee = fn.Pkg().Name() + "." + callee
		}
		for i, a := range call.Args {
			if i >= sig.Params().Len() || sig.Variadic() && i >= sig.Params().Len()-1 {
				break
			}
			par := sig.Params().At(i)
			name := strings.ToLower(par.Name())
			if len(name) < 4 {
				continue
			}
			tv := p.Info.Types[a]
			if tv.Value == nil || tv.Value.Kind() != constant.Int && tv.Value.Kind() != constant.Float {
				continue
			}
			pos := p.Fset.Position(a.Pos())
			text := types.ExprString(call)
			if len(text) > 80 {
				text = text[:77] + "..."
			}
			out = append(out, argSite{
				param: name, pname: par.Name(), callee: callee, val: tv.Value, dur: litIsDuration(par.Type()),
				arg: types.ExprString(a), call: text, path: pos.Filename, line: pos.Line,
			})
		}
		return true
	})
	slices.SortStableFunc(out, func(a, b argSite) int { return a.line - b.line })
	return out
}
