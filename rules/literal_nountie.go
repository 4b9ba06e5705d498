package rules

import (
	"cmp"
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"maps"
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/docreview/docreview/retrieval"
	"github.com/docreview/docreview/review"
	"github.com/docreview/docreview/review/prose"
)

// This file holds the noun-phrase tie of the literal-mismatch rule: the
// words around a number in a sentence name a constant ("the frame header
// (8 bytes)" for HeaderSize, "version 2 of the protocol" for
// ProtocolVersion2Compatible), so the number states that constant's value.
// It binds only where another fact already points at the constant: the
// diff changed the constant's value and the number is its old value, or
// the diff changed the number and the old number was the constant's value.

// nounWindow is how many words either side of a number the words naming
// its constant may stand.
const nounWindow = 6

// nounTie reports whether the words of sent within nounWindow words of
// the number at sent[start:end] name the constant or field name
// ([prose.TopicNamed]).
func nounTie(sent string, start, end int, name string) bool {
	return prose.TopicNear(sent, start, end, nounWindow, prose.TopicWords(name))
}

// nounTiedOld returns the number of sent that the words around it tie to
// the changed constant and that states its old value but not its new
// one, with how the new value compares. A sentence that states the new
// value too, or the old one twice, is left alone.
//
// Under a Markdown heading that names the constant's topic (the
// parameter `maxAllowedPacket` for defaultMaxAllowedPacket), a number
// with "default" a few words away is tied too: the heading says what the
// section's default is of.
func nounTiedOld(sent string, vc valueChange, headed bool) (litPlaced, litMatch, bool) {
	var found *litPlaced
	var now litMatch
	for _, n := range sentenceNumbers(sent) {
		if noValue(sent, n) {
			continue
		}
		lit := numberLit(sent, n)
		was, ok := matchLiteral(lit, vc.was)
		if !ok {
			continue
		}
		m, ok := matchLiteral(lit, vc.now)
		if !ok || m.equal {
			return litPlaced{}, litMatch{}, false
		}
		tied := nounTie(sent, n.start, n.end, vc.name) ||
			headed && topicDefaultCueRE.MatchString(sent[max(0, n.start-40):min(len(sent), n.end+20)])
		if !was.equal || !tied {
			continue
		}
		if found != nil {
			return litPlaced{}, litMatch{}, false
		}
		found, now = &lit, m
	}
	if found == nil {
		return litPlaced{}, litMatch{}, false
	}
	return *found, now, true
}

// numberLit makes the number n of sent a literal mention, a bare number
// counting ("count").
func numberLit(sent string, n sentNum) litPlaced {
	return litPlaced{
		Mention: review.Mention{Kind: review.MentionLiteral, Text: sent[n.start:n.end], Value: n.value, Unit: cmp.Or(n.unit, "count")},
		start:   n.start, end: n.end,
	}
}

// noValue reports whether number n of sent states no value worth
// comparing: 0, a bare 1, part of a longer number, or an attribute of an
// HTML tag (bubbles' README shows its logo with width="400").
func noValue(sent string, n sentNum) bool {
	return n.value == 0 || n.value == 1 && n.unit == "" || partOfNumber(sent, n.start, n.end) || inHTMLTag(sent, n.start)
}

// inHTMLTag reports whether offset i of text lies inside an HTML tag:
// after a "<" that opens one (a letter follows it) with no ">" between,
// and before a ">".
func inHTMLTag(text string, i int) bool {
	open := strings.LastIndexByte(text[:i], '<')
	if open < 0 || open+1 >= len(text) || strings.IndexByte(text[open:i], '>') >= 0 {
		return false
	}
	if c := text[open+1]; !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z') {
		return false
	}
	return strings.IndexByte(text[i:], '>') >= 0
}

// docPackage returns the package a func's, method's, type's or package's
// doc comment belongs to, or the package in a Markdown file's directory;
// nil for other docs and where there is no such package.
func docPackage(ws *review.Workspace, c review.Claim) *retrieval.Package {
	dir := c.Package
	if c.Kind == review.KindMarkdown {
		dir = path.Dir(c.Path)
	}
	if dir == "" {
		return nil
	}
	p := ws.Symbols.Package(dir)
	if p == nil || p.Types == nil {
		return nil
	}
	return p
}

// statesSiteValue reports whether another number of the sentence than n is
// the site's value: "Try acquiring 3 keys (given that the default
// KeyMajority is 2)" states KeyMajority's default as 2, and its 3 counts
// something else.
func statesSiteValue(sent string, n sentNum, site valueSite) bool {
	for _, o := range sentenceNumbers(sent) {
		if o.start == n.start {
			continue
		}
		if got, ok := matchLiteral(numberLit(sent, o), site); ok && got.equal {
			return true
		}
	}
	return false
}

// partOfNumber reports whether sent[start:end] is part of a longer number
// or version: "2" of "2.5", "1,000" or "1.2.3".
func partOfNumber(sent string, start, end int) bool {
	if end+1 < len(sent) && (sent[end] == '.' || sent[end] == ',') && litDigit(sent[end+1]) {
		return true
	}
	return start >= 2 && (sent[start-1] == '.' || sent[start-1] == ',') && litDigit(sent[start-2])
}

var (
	// topicDefaultCueRE finds the words that make a number a default.
	topicDefaultCueRE = regexp.MustCompile(`(?i)\bdefault(?:s|ed)?\b`)
	// topicExampleRE finds sentences whose numbers are examples, not the
	// code's values.
	topicExampleRE = regexp.MustCompile(`(?i)\b(?:for\s+example|for\s+instance|e\.g\.|such\s+as|say)\b`)
)

// judgeTopicDefault reports a default a doc states for something its
// words name, when the package gives that thing another value: "the
// default session timeout is 10s" in a package whose defaults set
// Config.sessionTimeout to 45 * time.Second. The number must stand
// within a few words of "default" and of the words of the name
// ([nounTie]); every constant and field default of the package that the
// words name and that can be compared with the number must hold the same
// value, and none may equal the number.
func (r *LiteralMismatch) judgeTopicDefault(ws *review.Workspace, c review.Claim) *review.Verdict {
	if hasCodeBlock(c) {
		return nil
	}
	if sym, ok := ws.Symbols.Lookup(c.Package, c.Symbol); ok && c.Kind == review.KindDocComment &&
		sym.Kind != retrieval.SymbolFunc && sym.Kind != retrieval.SymbolMethod && sym.Kind != retrieval.SymbolType {
		// A field's or constant's doc speaks of its own value, which
		// the rule's other bindings compare.
		return nil
	}
	p := docPackage(ws, c)
	if p == nil {
		return nil
	}
	var body ast.Node
	if sym, ok := ws.Symbols.Lookup(c.Package, c.Symbol); ok && c.Kind == review.KindDocComment &&
		(sym.Kind == retrieval.SymbolFunc || sym.Kind == retrieval.SymbolMethod) {
		if fd := funcDecl(sym); fd != nil && fd.Body != nil && sym.Package.Info != nil {
			body = fd.Body
		}
	}
	var sites map[string]valueSite
	for _, span := range prose.Sentences(c.Text) {
		sent := c.Text[span.Start:span.End]
		if driftHistoryRE.MatchString(sent) || topicExampleRE.MatchString(sent) || !topicDefaultCueRE.MatchString(sent) {
			continue
		}
		for _, n := range sentenceNumbers(sent) {
			if noValue(sent, n) || litInExpr(sent, n.start, n.end) || litApproxRE.MatchString(sent[:n.start]) ||
				!topicDefaultCueRE.MatchString(sent[max(0, n.start-60):min(len(sent), n.end+40)]) {
				continue
			}
			if sites == nil {
				sites = topicSites(r.pkgValuesOf(ws, p))
			}
			lit := numberLit(sent, n)
			var tied []string
			var first valueSite
			var m litMatch
			agree := true
			for _, name := range slices.Sorted(maps.Keys(sites)) {
				site := sites[name]
				if !prose.TopicPhrase(sent, n.start, n.end, nounWindow, prose.TopicWords(name)) {
					continue
				}
				got, ok := matchLiteral(lit, site)
				if !ok {
					continue
				}
				if got.equal {
					agree = false
					break
				}
				if len(tied) > 0 && !constant.Compare(site.val, token.EQL, first.val) {
					agree = false
					break
				}
				if len(tied) == 0 {
					first, m = site, got
				}
				tied = append(tied, name)
			}
			if !agree || len(tied) == 0 || statesSiteValue(sent, n, first) || namesOtherDecl(p, sent, tied) ||
				body != nil && holdsValue(p, body, lit) {
				continue
			}
			value := first.expr
			if m.shown != "" && m.shown != first.expr {
				value += " (" + m.shown + ")"
			}
			hop := c.Symbol
			if hop == "" {
				hop = fmt.Sprintf("%s:%d", c.Path, c.Line+strings.Count(c.Text[:span.Start+n.start], "\n"))
			}
			msg := fmt.Sprintf("The doc gives %s as the default of %s, but %s is %s.", lit.Text, strings.Join(tied, ", "), first.name, value)
			if first.fn != "" {
				msg = fmt.Sprintf("The doc gives %s as the default of %s, but %s sets %s = %s.", lit.Text, strings.Join(tied, ", "), first.fn, first.name, value)
			}
			suggestion := ""
			if strings.Count(c.Text, lit.Text) == 1 {
				suggestion = rewriteLiteral(c.Text, lit, m.inUnit)
			}
			return &review.Verdict{
				Label: review.Contradicted, Rule: r.Name(), Message: msg, Confidence: 0.7,
				Suggestion: suggestion,
				Evidence: []review.Evidence{{
					Path: first.path, StartLine: first.line, EndLine: first.end, Source: review.SourceCode,
					Why: first.why, Hops: []string{hop, cmp.Or(first.fn, tied[0])},
				}},
			}
		}
	}
	return nil
}

// topicSites returns the package's constants named as defaults and the
// one constant default its funcs give each struct field
// ("cfg.sessionTimeout"), by name.
func topicSites(pv *pkgValues) map[string]valueSite {
	out := map[string]valueSite{}
	for n, s := range pv.byName {
		// A constant is a default when its name says so
		// ("defaultMaxRangeSize"); "Shards = 16" may be a bound.
		if s.val != nil && slices.Contains(prose.Words(n), "default") {
			out[n] = s
		}
	}
	for n, s := range fieldDefaultsByName(pv) {
		if s.val != nil {
			out[n] = s
		}
	}
	return out
}

// judgeTopicEdit reports a number a diff edited in a doc while a constant
// or field default whose name the words around it make up still holds the
// old number: "the frame header (8 bytes)" edited to "(16 bytes)" while
// frameHeaderLen is 8. The line must be replaced one for one with only
// that number changed; every such value near the words must be the old
// number, and none the new one.
func (r *LiteralMismatch) judgeTopicEdit(ws *review.Workspace, c review.Claim) *review.Verdict {
	if ws.BaseFS == nil || ws.Scope == review.ScopeAll || !c.Changed {
		return nil
	}
	if hasCodeBlock(c) {
		return nil
	}
	p := docPackage(ws, c)
	if p == nil {
		return nil
	}
	var sites map[string]valueSite
	lines := strings.SplitAfter(c.Text, "\n")
	for _, e := range editedLines(ws, c) {
		was, now, ok := oneNumberEdited(e.Old, e.New)
		if !ok {
			continue
		}
		k := e.NewLine - c.Line
		if k < 0 || k >= len(lines) {
			continue
		}
		lineStart := len(strings.Join(lines[:k], ""))
		digits := e.New[now.start:now.end] // with its unit, if any
		at := strings.Index(lines[k], digits+strings.TrimRight(e.New[now.end:], " \t\r\n"))
		if at < 0 {
			continue
		}
		at += lineStart
		for _, span := range prose.Sentences(c.Text) {
			if at < span.Start || at >= span.End {
				continue
			}
			sent := c.Text[span.Start:span.End]
			start, end := at-span.Start, at-span.Start+len(digits)
			if driftHistoryRE.MatchString(sent) || topicExampleRE.MatchString(sent) || litInExpr(sent, start, end) {
				break
			}
			if sites == nil {
				// Any constant of the package, not only one named as a
				// default: the old number already agreed with it.
				pv := r.pkgValuesOf(ws, p)
				sites = topicSites(pv)
				for n, s := range pv.byName {
					if s.val != nil {
						sites[n] = s
					}
				}
			}
			unit := cmp.Or(now.unit, "count")
			mk := func(v float64, text string) litPlaced {
				return litPlaced{Mention: review.Mention{Kind: review.MentionLiteral, Text: text, Value: v, Unit: unit}, start: start, end: end}
			}
			newLit := mk(now.value, digits)
			oldLit := mk(was.value, e.Old[was.start:was.end])
			var tied []string
			var site valueSite
			for _, name := range slices.Sorted(maps.Keys(sites)) {
				s := sites[name]
				if !nounTie(sent, start, end, name) {
					continue
				}
				o, ok := matchLiteral(oldLit, s)
				if !ok {
					continue
				}
				if n, _ := matchLiteral(newLit, s); n.equal || !o.equal {
					tied = nil
					break
				}
				if len(tied) == 0 {
					site = s
				}
				tied = append(tied, name)
			}
			if len(tied) == 0 {
				tied, site = usedTie(ws, c, p, sites, oldLit, newLit)
			}
			if len(tied) == 0 {
				break
			}
			hop := c.Symbol
			if hop == "" {
				hop = fmt.Sprintf("%s:%d", c.Path, e.NewLine)
			}
			msg := fmt.Sprintf("The doc states %s, but %s is %s (this diff changed the doc's %s to %s).",
				digits, tied[0], site.expr, e.Old[was.start:was.end], digits)
			evs := []review.Evidence{{
				Path: site.path, StartLine: site.line, EndLine: site.end, Source: review.SourceCode,
				Why: site.why, Hops: []string{hop, cmp.Or(site.fn, tied[0])},
			}}
			if ev, ok := hunkEvidence(ws.Diff, review.SymbolRef{Path: c.Path, Line: e.NewLine}, false); ok {
				ev.Why = fmt.Sprintf("this diff changed the doc's %s to %s", e.Old[was.start:was.end], digits)
				ev.Hops = []string{hop, "diff " + ev.Path}
				evs = append(evs, ev)
			}
			return &review.Verdict{
				Label: review.Contradicted, Rule: r.Name(), Message: msg, Confidence: 0.8,
				Suggestion: c.Text[:at] + e.Old[was.start:was.end] + c.Text[at+len(digits):], Evidence: evs,
			}
		}
	}
	return nil
}

// usedTie returns the constants of sites that c, the doc of a constant
// or of a func or method, is about without naming them in words: the
// constant itself ("1004 is reserved and so unexported." on statusReserved
// = 1004), or those the func's body uses ("replies with a close frame
// carrying status 1002" on a func that sends wsCloseStatusProtocolError).
// They must hold the old number; none may hold the new one.
func usedTie(ws *review.Workspace, c review.Claim, p *retrieval.Package, sites map[string]valueSite, oldLit, newLit litPlaced) ([]string, valueSite) {
	if c.Kind != review.KindDocComment || c.Symbol == "" || p.Info == nil {
		return nil, valueSite{}
	}
	sym, ok := ws.Symbols.Lookup(c.Package, c.Symbol)
	if !ok || sym.Package != p {
		return nil, valueSite{}
	}
	used := map[string]bool{}
	switch sym.Kind {
	case retrieval.SymbolConst, retrieval.SymbolVar:
		used[sym.Name] = true
	case retrieval.SymbolFunc, retrieval.SymbolMethod:
		fd := funcDecl(sym)
		if fd == nil || fd.Body == nil {
			return nil, valueSite{}
		}
		literalNew := false
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.Ident:
				if k, ok := p.Info.Uses[n].(*types.Const); ok && k.Pkg() == p.Types && k.Parent() == p.Types.Scope() {
					used[k.Name()] = true
				}
			case *ast.BasicLit:
				// The body writing the new number itself ("retries 5
				// times" on a loop to 5) may be what the edit follows.
				if v := p.Info.Types[n].Value; v != nil && (v.Kind() == constant.Int || v.Kind() == constant.Float) {
					if f, _ := constant.Float64Val(constant.ToFloat(v)); litSame(f, newLit.Value) {
						literalNew = true
					}
				}
			}
			return true
		})
		if literalNew {
			return nil, valueSite{}
		}
	default:
		return nil, valueSite{}
	}
	var tied []string
	var site valueSite
	for _, name := range slices.Sorted(maps.Keys(used)) {
		s, ok := sites[name]
		if !ok {
			continue
		}
		if n, ok := matchLiteral(newLit, s); ok && n.equal {
			return nil, valueSite{}
		}
		if o, ok := matchLiteral(oldLit, s); ok && o.equal {
			if len(tied) == 0 {
				site = s
			}
			tied = append(tied, name)
		}
	}
	return tied, site
}

// oneNumberEdited reports whether line new is line old with one number
// replaced by another and nothing else changed, and returns the two.
func oneNumberEdited(old, new string) (was, now sentNum, ok bool) {
	a, b := sentenceNumbers(old), sentenceNumbers(new)
	if len(a) != len(b) || len(a) == 0 {
		return sentNum{}, sentNum{}, false
	}
	found := -1
	for i := range a {
		if old[a[i].start:a[i].end] == new[b[i].start:b[i].end] {
			continue
		}
		if found >= 0 {
			return sentNum{}, sentNum{}, false
		}
		found = i
	}
	if found < 0 {
		return sentNum{}, sentNum{}, false
	}
	x, y := a[found], b[found]
	if old[:x.start] != new[:y.start] || old[x.end:] != new[y.end:] || x.unit != y.unit {
		return sentNum{}, sentNum{}, false
	}
	return x, y, true
}

// ownOld returns the number of sent, a sentence of the doc of a func that
// uses the changed constant or of a field set from it, that states the
// constant's old value, when no number of the sentence states the new one.
// Numbers of arithmetic, parts of longer numbers, 0 and 1 do not count.
func ownOld(sent string, vc valueChange) (litPlaced, litMatch, bool) {
	var found *litPlaced
	var now litMatch
	for _, n := range sentenceNumbers(sent) {
		if noValue(sent, n) || litInExpr(sent, n.start, n.end) {
			continue
		}
		lit := numberLit(sent, n)
		m, ok := matchLiteral(lit, vc.now)
		if !ok {
			continue
		}
		if m.equal {
			return litPlaced{}, litMatch{}, false
		}
		if was, _ := matchLiteral(lit, vc.was); was.equal && found == nil {
			found, now = &lit, m
		}
	}
	if found == nil {
		return litPlaced{}, litMatch{}, false
	}
	return *found, now, true
}

// headedBy reports whether c is a Markdown claim whose nearest heading is
// a short name or phrase naming the topic of name: "`maxAllowedPacket`"
// for defaultMaxAllowedPacket.
func headedBy(c review.Claim, name string) bool {
	if c.Kind != review.KindMarkdown || c.Context == "" {
		return false
	}
	h := c.Context
	if i := strings.LastIndex(h, " > "); i >= 0 {
		h = h[i+3:]
	}
	words := prose.Words(h)
	return len(words) <= 4 && prose.TopicNamed(words, prose.TopicWords(name))
}

// identRE finds the names a sentence writes as code: a code span, or a
// word in mixed case ("maxPendingMessages").
var identRE = regexp.MustCompile("`([A-Za-z_][A-Za-z0-9_.]*)`|\\b([a-z]+[A-Z][A-Za-z0-9]*|[A-Z][a-z0-9]+[A-Z][A-Za-z0-9]*)\\b")

// namesOtherDecl reports whether sent names, as code, a struct field or
// constant of p that none of the tied names is: pulsar's SendAsync doc
// says "the `maxPendingMessages` becomes full (default: 1000)", of the
// producer's MaxPendingMessages, and its words do not tie it to
// ReaderOptions.MaxPendingChunkedMessage.
func namesOtherDecl(p *retrieval.Package, sent string, tied []string) bool {
	if p.Types == nil {
		return false
	}
	own := map[string]bool{}
	for _, t := range tied {
		own[strings.ToLower(lastPart(t))] = true
	}
	declared := map[string]bool{}
	for f := range fieldOwners(p.Types) {
		declared[strings.ToLower(f.Name())] = true
	}
	scope := p.Types.Scope()
	for _, n := range scope.Names() {
		if _, ok := scope.Lookup(n).(*types.Const); ok {
			declared[strings.ToLower(n)] = true
		}
	}
	for _, m := range identRE.FindAllStringSubmatch(sent, -1) {
		name := strings.ToLower(lastPart(cmp.Or(m[1], m[2])))
		if declared[name] && !own[name] {
			return true
		}
	}
	return false
}

// holdsValue reports whether the body of a doc's func holds a constant
// equal to lit: go-mail's WriteToSendmailWithCommand says "a default
// timeout of 5 seconds" and passes time.Second*5, whatever the package's
// DefaultTimeout is.
func holdsValue(p *retrieval.Package, body ast.Node, lit litPlaced) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		e, ok := n.(ast.Expr)
		if !ok || found {
			return !found
		}
		tv, ok := p.Info.Types[e]
		if !ok || tv.Value == nil {
			return true
		}
		if m, ok := matchLiteral(lit, valueSite{val: tv.Value, typ: tv.Type}); ok && m.equal {
			found = true
		}
		return false
	})
	return found
}
