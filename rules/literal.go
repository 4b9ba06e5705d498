package rules

import (
	"context"
	"fmt"
	"go/ast"
	"go/constant"
	"go/parser"
	"go/token"
	"go/types"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/docreview/docreview/retrieval"
	"github.com/docreview/docreview/review"
	"github.com/docreview/docreview/review/prose"
	"github.com/docreview/docreview/rules/clitree"
)

var _ review.Judge = (*LiteralMismatch)(nil)

// LiteralMismatch is the literal-mismatch rule: a doc states a default or
// limit as a number with a unit ("defaults to 30s", "at most 100 entries",
// "[DefaultTTL] (15 minutes)") and the compile-time constant the code uses
// for it says otherwise. It labels the claim contradicted, cites the
// constant or the assignment that sets the default, and suggests the text
// with the literal rewritten in the doc's own unit when that is exact.
//
// A literal is checked only when it is bound to a value of the code:
//   - right after a doc link or backticked name of a const, or of a var
//     with a constant initializer ("`DefaultTTL` is 30 seconds",
//     "[MaxEntries] (100 entries)"), when the sentence or the name speaks
//     of a default or limit;
//   - right after a struct field's name and "defaults to" or "(default";
//   - in the doc comment of such a const or var, after a default or limit
//     phrase, in parentheses, or as "Name is 30s";
//   - in the doc comment of a struct field, after a default phrase ("by
//     default", "defaults to") or, in a sentence about zero or unset
//     values, after "means" or "uses".
//
// A field's default is its Default<Field> (or default<Field>,
// Default<Type><Field>) constant, the constant a zero-value fallback
// ("if o.F <= 0 { o.F = X }") assigns, or the constant a New… or Default…
// func sets in a composite literal, the constant a func returns when the
// field is unset, or the default of a field the field is copied over
// when set; when these disagree, nothing is reported. Durations compare with time.Duration constants in nanoseconds
// (10*time.Minute is 600 seconds), and with integer constants only when the
// constant's name ends in a unit (TimeoutMs, DelaySeconds). Sizes compare
// in bytes, with KB, MB, GB and TB read as either powers of 1000 or 1024,
// and counts compare as they are; an integer constant equal to the doc's
// number itself is taken to count in the doc's unit. Percentages, number
// words without a binding, literals in changelogs, and sentences with
// several literals of the same kind are skipped.
//
// A backticked arithmetic expression of constants followed by the value
// it has ("`maxBatchSize * maxPacketSize` bytes (currently 64 × 1472 =
// 94,208 bytes)") is checked number by number (judgeExprValue).
//
// A Markdown table row whose header has a Default column is the default of
// the struct field its first cell names (judgeTable).
//
// When that finds nothing, a diff-anchored check (judgeDrift) covers the
// doc comment of a func, method, type, const or var declaring one name, in
// a diff review whose diff edits the doc or the declaration of a file that
// existed at base. It takes the numbers the doc states with a unit word
// right after them ("6 bytes", "16-byte", "9 digits", "30 seconds") or
// alone in parentheses, written with digits, neither 0 nor 1, and not in
// a code block, quotes, backticks, a URL, a version or dotted or hex
// number, or a sentence about the past ("previously", "since v2"). Such a
// number N is contradicted when the declaration at base (same name and
// receiver, through the diff's renames) held an integer or float literal
// N, and either
//   - the diff changed the code: the head doc states N in the same
//     sentence word for word, the head declaration holds no constant of
//     value N (literal, constant expression or named constant), and every
//     literal N became one value M that the doc does not state, matched
//     by the order of the declaration's literals (stretches of changed
//     literals of unequal length on both sides are not matched), on a line
//     the diff added; or
//   - the diff changed the doc: a sentence that stated N states M at head
//     and is otherwise the same (whitespace aside), the head declaration
//     still holds literal N and holds no constant of value M.
//
// A literal passed to an integer parameter named base (the radix of
// strconv.FormatInt) is not a value the head declaration holds. The
// suggestion restores the doc's
// N, or writes M in place of N when N occurs once in the doc. The zero
// value is ready to use and safe for concurrent use.
type LiteralMismatch struct {
	values   memo[*pkgValues]
	defaults memo[[]namedDefault]
	depLits  memo[*depLit]
	flagDefs memo[map[string][]clitree.FlagDefault]
	lines    memo[[]string]
	flows    memo[*fieldFlows]
}

// Name returns "literal-mismatch".
func (*LiteralMismatch) Name() string { return "literal-mismatch" }

// valueSite is a compile-time constant value of the code and where it is
// written.
type valueSite struct {
	val  constant.Value
	typ  types.Type
	name string // the const ("DefaultTTL") or assignment target ("o.TTL")
	expr string // the value as written: "10 * time.Minute"
	why  string // "DefaultTTL = 10 * time.Minute"
	path string
	line int
	end  int
	// fn is the func that assigns a field's default; empty for a
	// declared const or var.
	fn string
	// ref is the package-level var or const a field's default names
	// (os.Stderr, LevelWarn); fresh is true when the default is a
	// composite literal (&http.Client{…}), a value of its own.
	ref   types.Object
	fresh bool
	// derived is true when the default adjusts another value
	// ("defaultMaxSessions - 1"), so a field copied over it does not
	// default to it.
	derived bool
	// enum is true for a constant whose value iota gives, written or
	// repeated (an enum member): a name, not a quantity.
	enum bool
	// src is a field default's value expression as the func writes it
	// (nil for a declared const or var).
	src ast.Expr
	// fallback is true for a default a func gives a field it finds at
	// its zero value ("if c.F == 0 { c.F = X }"): it holds whatever
	// zero the field was handed.
	fallback bool
	// omitted is true for the zero of a field no constructor sets and
	// no code replaces (literal_omitted.go).
	omitted bool
	// docNanos is the unit, in nanoseconds, that the field's own doc
	// says an integer field counts ("Interval, in ms, …"); 0 if none.
	docNanos float64
}

// usesIota reports whether x mentions iota.
func usesIota(x ast.Expr) bool {
	found := false
	ast.Inspect(x, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && id.Name == "iota" {
			found = true
		}
		return !found
	})
	return found
}

// namedValue returns obj when it is a package-level var or const, else
// nil.
func namedValue(obj types.Object) types.Object {
	switch obj.(type) {
	case *types.Var, *types.Const:
		if obj.Pkg() != nil && obj.Parent() == obj.Pkg().Scope() {
			return obj
		}
	}
	return nil
}

// pkgValues holds the constant values of one package: its consts and
// constant-initialized vars, by object and by name, and the defaults its
// funcs give struct fields.
type pkgValues struct {
	byObj  map[types.Object]valueSite
	byName map[string]valueSite
	fields map[types.Object][]valueSite
	// varFields are the constant fields of default vars (see
	// collectDefaultVar), by var and field.
	varFields map[types.Object]map[types.Object]valueSite
	// assigned holds the package-level vars a func of the package
	// assigns: their initializers are no defaults.
	assigned map[types.Object]bool
}

// Judge reports the first literal of the claim that contradicts the
// constant it is bound to, else a number of a doc comment that drifted
// from its declaration's literal in this diff, or nil.
func (r *LiteralMismatch) Judge(ctx context.Context, ws *review.Workspace, c review.Claim) (*review.Verdict, error) {
	if ws == nil || isHistory(c.Path) {
		return nil, nil
	}
	if c.Kind != review.KindDocComment && c.Kind != review.KindMarkdown {
		return nil, nil
	}
	if v := r.judgeGoVersion(ws, c); v != nil {
		return v, nil
	}
	if ws.Symbols == nil {
		return nil, nil
	}
	// In a diff review, a value the diff changed is the most telling
	// account of a doc that states the old one.
	if v := r.judgeValueChange(ctx, ws, c); v != nil {
		return v, nil
	}
	if v := r.judgeFlagHelp(ws, c); v != nil {
		return v, nil
	}
	if v := r.judgeFlagProse(ws, c); v != nil {
		return v, nil
	}
	if v := r.judgeFlagTable(ws, c); v != nil {
		return v, nil
	}
	if hasLiteral(c) {
		if v, err := r.judgeBound(ctx, ws, c); v != nil || err != nil {
			return v, err
		}
	}
	if v := r.judgeExprValue(ws, c); v != nil {
		return v, nil
	}
	if v := r.judgeTable(ws, c); v != nil {
		return v, nil
	}
	if v := r.judgeTableKey(ws, c); v != nil {
		return v, nil
	}
	if v := r.judgeKeyDefault(ws, c); v != nil {
		return v, nil
	}
	if v := r.judgeRange(ws, c); v != nil {
		return v, nil
	}
	if v := r.judgeFieldExpr(ws, c); v != nil {
		return v, nil
	}
	if v := r.judgeDeclCopy(ws, c); v != nil {
		return v, nil
	}
	if v := r.judgeOption(ws, c); v != nil {
		return v, nil
	}
	if v := r.judgeFuncLitDefault(ws, c); v != nil {
		return v, nil
	}
	if v := r.judgeBoolDefault(ws, c); v != nil {
		return v, nil
	}
	if v := r.judgeNamedDefault(ws, c); v != nil {
		return v, nil
	}
	if v := r.judgeParamDefault(ws, c); v != nil {
		return v, nil
	}
	if v := r.judgeArgValue(ws, c); v != nil {
		return v, nil
	}
	if v := r.judgeSentinel(ws, c); v != nil {
		return v, nil
	}
	if v := r.judgeNoBoundDefault(ws, c); v != nil {
		return v, nil
	}
	if v := r.judgeLocalConst(ws, c); v != nil {
		return v, nil
	}
	if v := r.judgeRetryCount(ws, c); v != nil {
		return v, nil
	}
	if v := r.judgeFileMode(ws, c); v != nil {
		return v, nil
	}
	if v := r.judgeSleep(ws, c); v != nil {
		return v, nil
	}
	if v := r.judgeTypeWord(ws, c); v != nil {
		return v, nil
	}
	if v := r.judgeNounValue(ws, c); v != nil {
		return v, nil
	}
	if v := r.judgeTopicDefault(ws, c); v != nil {
		return v, nil
	}
	if v := r.judgeTopicEdit(ws, c); v != nil {
		return v, nil
	}
	if v := r.judgeLimitConst(ws, c); v != nil {
		return v, nil
	}
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	return r.judgeDrift(ws, c), nil
}

// judgeBound reports the first literal of the claim bound to a constant
// of the code that contradicts it, or nil.
func (r *LiteralMismatch) judgeBound(ctx context.Context, ws *review.Workspace, c review.Claim) (*review.Verdict, error) {
	sc := newScope(ws.Symbols, c)
	var self *retrieval.Symbol
	if c.Kind == review.KindDocComment && c.Symbol != "" && !strings.HasPrefix(c.Symbol, "package ") {
		if sym, ok := ws.Symbols.Lookup(c.Package, c.Symbol); ok && sc.inModule(sym) {
			self = &sym
		}
	}
	for i, sent := range prose.SplitSentences(c.Text) {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if v := r.judgeSentence(ws, sc, c, self, sent, i == 0); v != nil {
			return v, nil
		}
	}
	return nil, nil
}

// hasLiteral reports whether the claim mentions a literal at all.
func hasLiteral(c review.Claim) bool {
	for _, m := range c.Mentions {
		if m.Kind == review.MentionLiteral {
			return true
		}
	}
	return false
}

// litPlaced is a mention of a sentence with its byte range there.
type litPlaced struct {
	review.Mention
	start, end int
}

// placeMentions finds the literals and names of a sentence with their
// offsets, as the review's doc reader reads them (none without one); a
// name's range includes its closing bracket or backtick.
func placeMentions(ws *review.Workspace, sent string) (lits, names []litPlaced) {
	if ws.Docs == nil {
		return nil, nil
	}
	cursor := 0
	for _, m := range ws.Docs.TextMentions(sent) {
		i := strings.Index(sent[cursor:], m.Text)
		if i < 0 {
			continue
		}
		p := litPlaced{Mention: m, start: cursor + i, end: cursor + i + len(m.Text)}
		cursor = p.end
		switch m.Kind {
		case review.MentionLiteral:
			lits = append(lits, p)
		case review.MentionDocLink, review.MentionCode:
			for p.end < len(sent) && (sent[p.end] == ']' || sent[p.end] == '`') {
				p.end++
			}
			names = append(names, p)
		}
	}
	return lits, names
}

// bareNames finds where a sentence writes the claim's bare names
// ("MaxRetries is 5 by default"): the identifiers the extractor resolved
// in the claim's prose, as whole words not inside backticks or brackets.
func bareNames(c review.Claim, sent string) []litPlaced {
	var out []litPlaced
	seen := map[string]bool{}
	for _, m := range c.Mentions {
		if m.Kind != review.MentionIdent || seen[m.Text] {
			continue
		}
		seen[m.Text] = true
		for i := 0; ; {
			j := strings.Index(sent[i:], m.Text)
			if j < 0 {
				break
			}
			start, end := i+j, i+j+len(m.Text)
			i = end
			if start > 0 && (isIdentByte(sent[start-1]) || strings.ContainsRune(".`[", rune(sent[start-1]))) ||
				end < len(sent) && (isIdentByte(sent[end]) || strings.ContainsRune("`]", rune(sent[end]))) {
				continue
			}
			out = append(out, litPlaced{Mention: m, start: start, end: end})
		}
	}
	slices.SortFunc(out, func(a, b litPlaced) int { return a.start - b.start })
	return out
}

var (
	// defaultCueRE ends right before a literal that states a default.
	// A sentence may open with it ("Default 30s"), and "the default
	// 4MB", "overrides default 120ms" name it before the value.
	defaultCueRE = regexp.MustCompile(`(?i)(?:\bdefaults?\s+(?:to|is|of|value\s+is)|\bdefault(?:\s+value)?\s*[:=]|\bdefault\s+value|\(default|\bby\s+default,?(?:\s+(?:it\s+)?is)?|\bdefault\s+is\s+set\s+to|\bdefault,?\s+(?:which|that)\s+is|^\s*default|\b(?:the|overrides)\s+default)\s*$`)
	// limitCueRE ends right before a literal that states a limit.
	limitCueRE = regexp.MustCompile(`(?i)(?:\bat\s+most|\bat\s+least|\bup\s+to|\bno\s+more\s+than|\bmaximum(?:\s+(?:of|is))?|\bminimum(?:\s+(?:of|is))?|\bmax(?:imum)?\s*[:=]|\bmin(?:imum)?\s*[:=]|\blimit(?:ed)?\s+(?:to|of|is)|\bcapped\s+at)\s*$`)
	// defaultAfterRE starts right after a literal that a field's doc
	// marks as the default: "1400 bytes (which is the default)", "30s
	// (the default)", "10 is the default", "at most 1000 messages by
	// default" (one word between).
	defaultAfterRE = regexp.MustCompile(`(?i)^\s*(?:\(\s*(?:which\s+is\s+)?(?:the\s+)?default\s*\)|,?\s*(?:which\s+)?is\s+the\s+default\b|(?:[a-z]+\s+)?by\s+default\b)`)
	// zeroMeansRE ends right before the literal of "zero means 30s".
	zeroMeansRE = regexp.MustCompile(`(?i)\b(?:means|uses)\s*$`)
	// zeroRE finds a sentence about a zero or unset value.
	zeroRE = regexp.MustCompile(`(?i)\b(?:zero|0|unset|not\s+set|negative|nil)\b`)
	// cueWordRE finds words that make a sentence about a default or limit.
	cueWordRE = regexp.MustCompile(`(?i)\b(?:default|defaults|at\s+most|at\s+least|up\s+to|maximum|minimum|max|min|limit|limits|capped|no\s+more\s+than)\b`)
	// nameGapRE matches what may stand between a const's name and the
	// literal stating its value.
	nameGapRE = regexp.MustCompile(`(?i)^\s*(?:\(|\(\s*default(?:s\s+to)?|\(\s*currently|:|=|,?\s*which\s+is|is(?:\s+set\s+to|\s+currently)?|equals|of|defaults\s+to)?\s*$`)
	// fieldGapRE matches what may stand between a field's name and the
	// literal stating its default.
	fieldGapRE = regexp.MustCompile(`(?i)^\s*(?:defaults\s+to|\(\s*default(?:s\s+to)?:?|,\s*default(?:s\s+to)?:?|\s+has\s+a\s+default\s+of)\s*$`)
	// unsetGapRE is the gap of "If Timeout is zero, 30s is used" and
	// "If Timeout is not set, a default of 30s".
	unsetGapRE = regexp.MustCompile(`(?i)^\s*is\s+(?:not\s+(?:set|given|specified|provided)|zero|0|unset|empty)\s*,\s*(?:(?:a|the)\s+default\s+(?:of|is)\s+)?$`)
	// noneGapRE is the gap of "If no ReadHeaderTimeout is set, a
	// default of 200ms will be used", with noBeforeRE before the name.
	noneGapRE  = regexp.MustCompile(`(?i)^\s*is\s+(?:set|given|specified|provided)\s*,\s*(?:a|the)\s+default\s+(?:of|is)\s+$`)
	noBeforeRE = regexp.MustCompile(`(?i)\bno\s+$`)
)

// judgeSentence checks the literals of one sentence; first is true for
// the claim's first sentence.
func (r *LiteralMismatch) judgeSentence(ws *review.Workspace, sc scope, c review.Claim, self *retrieval.Symbol, sent string, first bool) *review.Verdict {
	lits, names := placeMentions(ws, sent)
	if len(lits) == 0 {
		return nil
	}
	// A literal bound to a name written right before it: linked,
	// backticked or, as Go docs mostly write names, bare.
	for _, n := range append(slices.Clip(names), bareNames(c, sent)...) {
		var lit *litPlaced
		for i := range lits {
			if lits[i].start >= n.end {
				lit = &lits[i]
				break
			}
		}
		if lit == nil {
			continue
		}
		gap := sent[n.end:lit.start]
		sym, ok := sc.lookup(strings.TrimPrefix(n.Text, "*"))
		if !ok && self != nil && self.Kind == retrieval.SymbolType && !strings.Contains(n.Text, ".") {
			// A field of the type whose doc this is, written bare
			// ("If no ReadHeaderTimeout is set" in Listener's doc).
			sym, ok = sc.lookup(self.Name + "." + n.Text)
		}
		if !ok {
			continue
		}
		var site valueSite
		switch sym.Kind {
		case retrieval.SymbolConst, retrieval.SymbolVar:
			if !nameGapRE.MatchString(gap) || !cueWordRE.MatchString(sent) && !limitName(sym.Name) {
				continue
			}
			if site, ok = r.constSite(ws, sym); !ok {
				continue
			}
		case retrieval.SymbolField:
			if !fieldGapRE.MatchString(gap) && !unsetGapRE.MatchString(gap) &&
				!(noneGapRE.MatchString(gap) && noBeforeRE.MatchString(sent[:n.start])) {
				continue
			}
			if site, ok = r.fieldDefault(ws, sym); !ok {
				continue
			}
		default:
			continue
		}
		if !soleOfKind(lits, *lit) || litInExpr(sent, lit.start, lit.end) || inQuotation(sent, lit.start) {
			continue
		}
		if v := r.compare(c, sym.Name, *lit, site); v != nil {
			return v
		}
	}
	if self == nil {
		return nil
	}
	// A literal in the subject's own doc comment.
	for _, lit := range lits {
		before := sent[:lit.start]
		var site valueSite
		var ok bool
		switch self.Kind {
		case retrieval.SymbolConst, retrieval.SymbolVar:
			// Only a sentence about the const itself: the doc's first
			// one, or one that names it; a later sentence may be about
			// something else ("A token is at least one byte").
			if !first && !litNamesWord(sent, lastPart(self.Name)) {
				continue
			}
			bound := defaultCueRE.MatchString(before) || limitCueRE.MatchString(before) && startsWithDigit(lit.Text) ||
				(cueWordRE.MatchString(sent) || limitName(self.Name)) && (litInParens(sent, lit) || strings.HasSuffix(strings.TrimSpace(before), ":")) ||
				litStatement(sent, self.Name, lit)
			if !bound || boundToOtherName(sent, names, lit) || asideOfOther(sent, lit, self.Name) {
				continue
			}
			site, ok = r.constSite(ws, *self)
		case retrieval.SymbolField:
			bound := defaultCueRE.MatchString(before) || zeroRE.MatchString(before) && zeroMeansRE.MatchString(before) ||
				defaultAfterRE.MatchString(sent[lit.end:]) || byDefaultLead(sent, lit)
			if !bound || boundToOtherName(sent, names, lit) {
				continue
			}
			site, ok = r.fieldDefaultFor(ws, *self, lit)
		case retrieval.SymbolFunc, retrieval.SymbolMethod:
			// An option func or setter: the default of the one field it
			// sets, where the sentence states one ("By default, the
			// cache is considered expired after 24 hours").
			field, set := optionField(*self)
			if !set || !byDefaultLead(sent, lit) || boundToOtherName(sent, names, lit) {
				continue
			}
			site, ok = r.fieldDefaultFor(ws, field, lit)
		}
		if !ok || !soleOfKind(lits, lit) || litInExpr(sent, lit.start, lit.end) || inQuotation(sent, lit.start) {
			continue
		}
		if v := r.compare(c, self.Name, lit, site); v != nil {
			return v
		}
	}
	return nil
}

// byDefaultLeadRE is a sentence that opens by saying what happens by
// default.
var byDefaultLeadRE = regexp.MustCompile(`(?i)^\s*(?:by\s+default|if\s+(?:not|never)\s+(?:set|called|given|specified)|when\s+(?:not|never)\s+(?:set|called|given|specified)|unless\s+(?:set|called|given|specified))\b`)

// byDefaultLead reports whether lit, a value with a unit, is what a
// sentence opening with "By default" ("By default, the cache is
// considered expired after 24 hours") says the default is: the only
// value with a unit in it, with no "if", "unless" or "when" clause of its
// own before it.
func byDefaultLead(sent string, lit litPlaced) bool {
	m := byDefaultLeadRE.FindStringIndex(sent)
	if m == nil || lit.Unit == "" || lit.start < m[1] {
		return false
	}
	between := strings.ToLower(sent[m[1]:lit.start])
	for _, w := range []string{" if ", " unless ", " when ", " or ", " per ", " each "} {
		if strings.Contains(" "+between+" ", w) {
			return false
		}
	}
	return true
}

// inQuotation reports whether offset i of sent lies in a quotation of
// another text: a double-quoted span ("Implementations MUST support
// buffering at least 4096 bytes", quoting a specification) of four words
// or more, closed in the sentence or not. A quoted value ("30s") is no
// quotation.
func inQuotation(sent string, i int) bool {
	open := -1
	for k := 0; k < i; k++ {
		switch {
		case sent[k] == '"':
			if open >= 0 {
				open = -1
			} else {
				open = k
			}
		case strings.HasPrefix(sent[k:], "\u201c"):
			open = k
		case strings.HasPrefix(sent[k:], "\u201d"):
			open = -1
		}
	}
	if open < 0 {
		return false
	}
	end := len(sent)
	if j := strings.IndexAny(sent[i:], "\"\u201d"); j >= 0 {
		end = i + j
	}
	return len(strings.Fields(sent[open:end])) >= 4
}

// litExprAfterRE and litExprBeforeRE match an arithmetic operator between
// two numbers, as the text after a literal begins or the text before it
// ends; litApproxRE ends the text before an approximate number.
var (
	litExprAfterRE  = regexp.MustCompile(`^\s*[-+*/×−]\s*\d`)
	litExprBeforeRE = regexp.MustCompile(`\d\s*(?:[A-Za-z]+\s*)?[-+*/×−]\s*$`)
	litApproxRE     = regexp.MustCompile(`(?i)(?:~|\b(?:about|approximately|approx\.?|around|roughly|nearly|almost|some)\s*)$`)
)

// litInExpr reports whether the literal at sent[start:end] is an operand
// of arithmetic the doc writes out ("1 GB - 1 KB", "64 × 1472"), whose
// value is the expression's, not the literal's.
func litInExpr(sent string, start, end int) bool {
	return litExprAfterRE.MatchString(sent[end:]) || litExprBeforeRE.MatchString(sent[:start])
}

// litNamesWord reports whether name stands alone as a word in text.
func litNamesWord(text, name string) bool {
	_, n := replaceName(text, name, name)
	return n > 0
}

// startsWithDigit reports whether a literal is written with digits, not
// a number word.
func startsWithDigit(s string) bool { return s != "" && litDigit(s[0]) }

// limitName reports whether a name speaks of a default or limit.
func limitName(name string) bool {
	for _, w := range prose.Words(lastPart(name)) {
		switch w {
		case "default", "max", "maximum", "min", "minimum", "limit":
			return true
		}
	}
	return false
}

// asideOfOther reports whether the literal stands in a parenthesised aside
// in the middle of its sentence, after a word that is not the subject's
// name: "enough to hold an exception block (at most 16KiB) plus
// read-ahead" states the block's size, not the constant's.
func asideOfOther(sent string, lit litPlaced, name string) bool {
	open := strings.LastIndexByte(sent[:lit.start], '(')
	if open < 0 || strings.IndexByte(sent[open:lit.start], ')') >= 0 {
		return false
	}
	end := strings.IndexByte(sent[lit.end:], ')')
	if end < 0 {
		return false
	}
	after := strings.TrimSpace(sent[lit.end+end+1:])
	if after == "" || strings.IndexFunc(after, unicode.IsLetter) < 0 {
		return false // the aside ends the sentence: it may speak of the whole
	}
	words := prose.Words(strings.TrimSpace(sent[:open]))
	if len(words) == 0 {
		return false
	}
	last := words[len(words)-1]
	for _, w := range prose.Words(lastPart(name)) {
		if w == last {
			return false
		}
	}
	return !cueWordRE.MatchString(last)
}

// litInParens reports whether the literal is alone in parentheses: "(15 minutes)".
func litInParens(sent string, lit litPlaced) bool {
	before := strings.TrimRight(sent[:lit.start], " ")
	after := strings.TrimLeft(sent[lit.end:], " ")
	return strings.HasSuffix(before, "(") && strings.HasPrefix(after, ")")
}

// litStatement reports whether the sentence starts "Name is <lit>" or
// "Name = <lit>".
func litStatement(sent, name string, lit litPlaced) bool {
	head := strings.TrimSpace(sent[:lit.start])
	for _, n := range []string{name, lastPart(name)} {
		if rest, ok := strings.CutPrefix(head, n); ok {
			rest = strings.TrimSpace(rest)
			if rest == "is" || rest == "=" || rest == "equals" {
				return true
			}
		}
	}
	return false
}

// boundToOtherName reports whether a name is written right before the
// literal, so the literal is that name's value, not the subject's.
func boundToOtherName(sent string, names []litPlaced, lit litPlaced) bool {
	for _, n := range names {
		if n.end <= lit.start && nameGapRE.MatchString(sent[n.end:lit.start]) {
			return true
		}
	}
	return false
}

// soleOfKind reports whether lit is the only literal of its kind in the
// sentence, so which value it states is not in doubt.
func soleOfKind(lits []litPlaced, lit litPlaced) bool {
	k := prose.DimensionOf(lit.Unit)
	for _, o := range lits {
		if o.start != lit.start && prose.DimensionOf(o.Unit) == k {
			return false
		}
	}
	return true
}

// nameNanoseconds returns the nanoseconds of the duration unit a name's
// last part ends in, after other words ("TimeoutMs" gives 1e6), or 0.
func nameNanoseconds(name string) float64 {
	unit, whole := prose.NameUnit(lastPart(name))
	if whole {
		return 0
	}
	return prose.Nanoseconds(unit)
}

// litIsDuration reports whether t is time.Duration, or a type of its own
// named Duration over int64, as configuration packages declare one
// ("type Duration time.Duration") to parse and print it.
func litIsDuration(t types.Type) bool {
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || n.Obj().Pkg() == nil || n.Obj().Name() != "Duration" {
		return false
	}
	if n.Obj().Pkg().Path() == "time" {
		return true
	}
	b, ok := n.Underlying().(*types.Basic)
	return ok && b.Kind() == types.Int64
}

// compare checks a literal against a code value and returns the verdict
// of a mismatch, or nil when they agree or cannot be compared.
func (r *LiteralMismatch) compare(c review.Claim, subject string, lit litPlaced, site valueSite) *review.Verdict {
	site.docNanos = docUnitNanos(c, site)
	m, ok := matchLiteral(lit, site)
	if !ok || m.equal || statesOperand(lit, site) || zeroMeansUnset(c, site) {
		return nil
	}
	codeInUnit, codeShown := m.inUnit, m.shown
	value := site.expr
	if codeShown != site.expr {
		value += " (" + codeShown + ")"
	}
	written := strings.Join(strings.Fields(lit.Text), " ")
	msg := fmt.Sprintf("The doc gives %s for %s, but %s is %s.", written, subject, site.name, value)
	switch {
	case site.omitted:
		msg = fmt.Sprintf("The doc gives %s for %s, but %s leaves %s out, and no code replaces its zero (%s).", written, subject, site.fn, site.name, codeShown)
	case site.fn != "":
		msg = fmt.Sprintf("The doc gives %s for %s, but the code sets %s = %s.", written, subject, site.name, value)
	}
	hop := c.Symbol
	if hop == "" {
		hop = fmt.Sprintf("%s:%d", c.Path, claimLine(c, lit))
	}
	hops := []string{hop}
	switch {
	case site.fn != "":
		hops = append(hops, site.fn)
	case site.name != hop:
		hops = append(hops, site.name)
	}
	return &review.Verdict{
		Label:      review.Contradicted,
		Rule:       r.Name(),
		Message:    msg,
		Confidence: 0.85,
		Suggestion: rewriteLiteral(c.Text, lit, codeInUnit),
		Evidence: []review.Evidence{{
			Path: site.path, StartLine: site.line, EndLine: site.end, Source: review.SourceCode,
			Why: site.why, Hops: hops,
		}},
	}
}

// docUnitRE finds the unit a doc says a number counts: "in ms", "in
// milliseconds", "(in seconds)".
var docUnitRE = regexp.MustCompile(`(?i)\bin\s+(ms|msec|milliseconds?|µs|us|microseconds?|ns|nanoseconds?|s|secs?|seconds?|mins?|minutes?|hours?)\b`)

// docUnitNanos returns the unit in nanoseconds that a field's own doc
// says the field counts, when the site is that field's, an integer, and
// the doc names one unit: influxdb-client-go's retryInterval, "Default
// retry interval in ms, if not sent by server. Default 30s", against
// retryInterval: 1000. 0 otherwise.
func docUnitNanos(c review.Claim, site valueSite) float64 {
	if c.Kind != review.KindDocComment || site.typ == nil || litIsDuration(site.typ) || nameNanoseconds(site.name) > 0 {
		return 0
	}
	if b, ok := site.typ.Underlying().(*types.Basic); !ok || b.Info()&types.IsInteger == 0 {
		return 0
	}
	if !strings.HasSuffix(c.Symbol, "."+lastPart(site.name)) {
		return 0
	}
	units := map[float64]bool{}
	for _, m := range docUnitRE.FindAllStringSubmatch(c.Text, -1) {
		if ns := prose.Nanoseconds(strings.ToLower(m[1])); ns > 0 {
			units[ns] = true
		}
	}
	if len(units) != 1 {
		return 0
	}
	for ns := range units {
		return ns
	}
	return 0
}

// omittedRE finds words that say a value was left out.
var omittedRE = regexp.MustCompile(`(?i)\b(?:omitted|omit|unset|not\s+set|not\s+specified|unspecified|left\s+(?:empty|out))\b`)

// zeroMeansUnset reports whether site is a func's assignment of the zero
// value to a field whose doc says what a zero or omitted value stands
// for: dropbox's riviera args builder sets "s.SceneChangeThreshold = 0.0"
// under a doc that says "When omitted (0.0) the service uses a default of
// 0.3". The zero is the field left unset; the doc's number is what unset
// means to whatever reads it, not a value the code contradicts.
func zeroMeansUnset(c review.Claim, site valueSite) bool {
	if site.fn == "" || site.val == nil || !isZeroConst(site.val) {
		return false
	}
	return omittedRE.MatchString(c.Text) || zeroRE.MatchString(c.Text)
}

// isZeroConst reports whether v is a zero value: 0, 0.0, "" or false.
func isZeroConst(v constant.Value) bool {
	switch v.Kind() {
	case constant.Int, constant.Float, constant.Complex:
		return constant.Sign(v) == 0
	case constant.String:
		return constant.StringVal(v) == ""
	case constant.Bool:
		return !constant.BoolVal(v)
	}
	return false
}

// statesOperand reports whether the literal states an operand of the
// constant's expression rather than its value: dynamic-ssz's
// maxPooledOffsetSlice counts "entries (64 KiB)" as 64 << 10 / 4, the 64
// KiB it divides by the entry's size.
func statesOperand(lit litPlaced, site valueSite) bool {
	x, err := parser.ParseExpr(site.expr)
	if err != nil {
		return false
	}
	found := false
	ast.Inspect(x, func(n ast.Node) bool {
		b, ok := n.(*ast.BinaryExpr)
		if !ok || found {
			return !found
		}
		for _, operand := range []ast.Expr{b.X, b.Y} {
			tv, err := types.Eval(token.NewFileSet(), nil, token.NoPos, types.ExprString(operand))
			if err != nil || tv.Value == nil {
				continue
			}
			part := site
			part.val = tv.Value
			if m, ok := matchLiteral(lit, part); ok && m.equal {
				found = true
			}
		}
		return !found
	})
	return found
}

// litMatch is how a doc's literal compares with a constant value.
type litMatch struct {
	equal bool
	// inUnit is the code's value in the literal's unit, 0 when that is
	// not a whole number; shown is the code's value as a reader sees it
	// ("10m0s", "1048576 bytes").
	inUnit float64
	shown  string
}

// matchLiteral compares a literal with an integer constant after
// normalising units: durations in nanoseconds (a plain integer only when
// its name gives a unit), sizes in bytes, counts as they are. It fails
// when the two cannot be compared.
func matchLiteral(lit litPlaced, site valueSite) (litMatch, bool) {
	if lit.Unit == "%" {
		return matchPercent(lit, site)
	}
	if m, ok := matchFloatCount(lit, site); ok {
		return m, true
	}
	if site.val == nil || site.val.Kind() != constant.Int {
		return litMatch{}, false
	}
	// An enum member (DefaultCompression = iota) is a name, not a
	// quantity a doc would state.
	if site.enum {
		return litMatch{}, false
	}
	code, exact := constant.Float64Val(site.val)
	if !exact && math.IsInf(code, 0) {
		return litMatch{}, false
	}
	if b, ok := site.typ.Underlying().(*types.Basic); !ok || b.Info()&types.IsInteger == 0 {
		return litMatch{}, false
	}
	// A negative default is a sentinel ("shareMaxRecords: -1, // not set,
	// the broker's 500 applies"), not a quantity a doc would state.
	if code < 0 {
		return litMatch{}, false
	}
	doc := lit.Value
	var codeInUnit float64 // the code's value in the doc's unit; 0 if not exact
	var codeShown string
	switch prose.DimensionOf(lit.Unit) {
	case prose.Duration:
		per := prose.Nanoseconds(lit.Unit)
		switch {
		case litIsDuration(site.typ):
		case nameNanoseconds(site.name) > 0:
			code *= nameNanoseconds(site.name)
		case site.docNanos > 0:
			code *= site.docNanos
		default:
			return litMatch{}, false
		}
		if litSame(doc*per, code) {
			return litMatch{equal: true}, true
		}
		codeInUnit = code / per
		codeShown = time.Duration(code).String()
	case prose.Size:
		if litIsDuration(site.typ) || countName(site.name) {
			return litMatch{}, false
		}
		if litSame(doc, code) {
			return litMatch{equal: true}, true
		}
		for _, per := range prose.Bytes(lit.Unit) {
			if litSame(doc*per, code) {
				return litMatch{equal: true}, true
			}
		}
		least := math.Inf(1)
		for _, per := range prose.Bytes(lit.Unit) {
			least = min(least, per)
		}
		if code > 0 && code < least && least > 1 {
			// Fewer bytes than one of the doc's unit: the value counts
			// that unit (lumberjack's MaxSize, in megabytes).
			codeInUnit = code
			break
		}
		for _, per := range prose.Bytes(lit.Unit) {
			if q := code / per; q == math.Trunc(q) {
				codeInUnit = q
				break
			}
		}
		codeShown = strconv.FormatFloat(code, 'f', -1, 64) + " bytes"
		if last := lit.Text[len(lit.Text)-1]; last == 'k' || last == 'K' {
			// "10k" may count anything: nbio's MaxLoad, "10k by
			// default", is a number of connections.
			codeShown = strconv.FormatFloat(code, 'f', -1, 64)
		}
	case prose.Count:
		if litIsDuration(site.typ) {
			return litMatch{}, false
		}
		if litSame(doc, code) {
			return litMatch{equal: true}, true
		}
		// "Default: 0770" for a file mode is octal, as Go reads 0770.
		if v, ok := octalDigits(lit.Text); ok {
			if litSame(v, code) {
				return litMatch{equal: true}, true
			}
			return litMatch{}, false
		}
		// "(3 bits)" on a maximum of 7 states its width: 2^N-1 and 2^N
		// are what N bits hold. Beside a constant whose name counts no
		// bits ("Up to 6 bits" on maxLLCode = 35), any value N bits hold
		// agrees, and a larger one is no value the width states.
		if lit.Unit == "bits" && doc >= 1 && doc < 64 {
			if litSame(math.Exp2(doc)-1, code) || litSame(math.Exp2(doc), code) {
				return litMatch{equal: true}, true
			}
			if !bitName(site.name) {
				if code <= math.Exp2(doc) {
					return litMatch{equal: true}, true
				}
				return litMatch{}, false
			}
		}
		codeInUnit = code
		codeShown = strconv.FormatFloat(code, 'f', -1, 64)
	default:
		return litMatch{}, false
	}
	return litMatch{inUnit: codeInUnit, shown: codeShown}, true
}

// matchFloatCount compares a number written without a unit ("The
// default is 72.0.") with the default of a floating-point field or
// constant (captcha's FontDPI float64); false for anything else.
func matchFloatCount(lit litPlaced, site valueSite) (litMatch, bool) {
	if lit.Unit != "count" || site.val == nil || site.enum || site.typ == nil || !isNumeric(site.val) {
		return litMatch{}, false
	}
	if b, ok := site.typ.Underlying().(*types.Basic); !ok || b.Info()&types.IsFloat == 0 {
		return litMatch{}, false
	}
	code, _ := constant.Float64Val(constant.ToFloat(site.val))
	if math.IsInf(code, 0) || math.IsNaN(code) || code < 0 {
		return litMatch{}, false
	}
	if litSame(lit.Value, code) {
		return litMatch{equal: true}, true
	}
	return litMatch{inUnit: code, shown: strconv.FormatFloat(code, 'f', -1, 64)}, true
}

// bitName reports whether a constant's name says it counts bits
// ("headerBits", "WordWidth").
func bitName(name string) bool {
	l := strings.ToLower(lastPart(name))
	return strings.Contains(l, "bit") || strings.Contains(l, "width")
}

// octalDigits reads text, a literal as a doc writes it, as an octal
// number when it is written as one: a leading 0 (or 0o) and octal digits
// only ("0770", "0o644"). A doc writing such a number means Go's reading,
// which is not the decimal one, and the rule cannot tell which the writer
// meant when they differ.
func octalDigits(text string) (float64, bool) {
	t := strings.TrimPrefix(strings.TrimPrefix(text, "0o"), "0O")
	if t == text {
		if len(text) < 2 || text[0] != '0' {
			return 0, false
		}
		t = text[1:]
	}
	v, err := strconv.ParseUint(t, 8, 32)
	if err != nil {
		return 0, false
	}
	return float64(v), true
}

// matchPercent compares a percentage with a constant: a float fraction
// ("10%" and 0.1), or an integer whose name says it counts percent
// ("RatioPercent = 10", "MaxPct = 10").
func matchPercent(lit litPlaced, site valueSite) (litMatch, bool) {
	if site.val == nil || litIsDuration(site.typ) {
		return litMatch{}, false
	}
	code, _ := constant.Float64Val(constant.ToFloat(site.val))
	if math.IsInf(code, 0) || math.IsNaN(code) {
		return litMatch{}, false
	}
	words := prose.Words(lastPart(site.name))
	switch {
	case site.val.Kind() == constant.Float && code >= 0 && code <= 1:
		if litSame(lit.Value/100, code) {
			return litMatch{equal: true}, true
		}
		pct := math.Round(code*100*1e6) / 1e6
		return litMatch{inUnit: pct, shown: strconv.FormatFloat(pct, 'f', -1, 64) + "%"}, true
	case site.val.Kind() == constant.Int && (slices.Contains(words, "percent") || slices.Contains(words, "pct")):
		if litSame(lit.Value, code) {
			return litMatch{equal: true}, true
		}
		return litMatch{inUnit: code, shown: strconv.FormatFloat(code, 'f', -1, 64) + "%"}, true
	}
	return litMatch{}, false
}

// claimLine returns the line of the claim's file the literal is on.
func claimLine(c review.Claim, lit litPlaced) int {
	for _, m := range c.Mentions {
		if m.Kind == review.MentionLiteral && m.Text == lit.Text {
			return m.Line
		}
	}
	return c.Line
}

// litSame reports whether two values are equal up to float rounding.
func litSame(a, b float64) bool {
	return math.Abs(a-b) <= 1e-9*math.Max(1, math.Max(math.Abs(a), math.Abs(b)))
}

// rewriteLiteral returns text with the literal's number replaced by v,
// written the way the literal writes numbers, or "" when that is not
// certain: v not a whole number, the literal written in words or as a
// compound duration, a change between one and many, or the literal not
// unique in text.
func rewriteLiteral(text string, lit litPlaced, v float64) string {
	if v <= 0 || v != math.Trunc(v) || v > 1e15 || strings.Count(text, lit.Text) != 1 {
		return ""
	}
	i := 0
	for i < len(lit.Text) && (litDigit(lit.Text[i]) || lit.Text[i] == ',' || lit.Text[i] == '.') {
		i++
	}
	if i == 0 && lit.Text != "" && !litDigit(lit.Text[0]) {
		// Number words ("two hundred connections", "half a second"):
		// digits take the place of the words before the unit.
		i = strings.LastIndexAny(lit.Text, " \t\n-")
		if i <= 0 {
			return ""
		}
		if word := strings.ToLower(lit.Text[i+1:]); (v == 1) != (lit.Value == 1) && !strings.HasSuffix(word, "s") {
			return "" // "a minute" vs "2 minutes"
		}
	}
	if i == 0 || strings.ContainsAny(lit.Text[i:], "0123456789") {
		return ""
	}
	rest := lit.Text[i:]
	if word := strings.TrimLeft(rest, " -\n\t"); (v == 1) != (lit.Value == 1) && word != rest && len(word) > 2 && strings.HasSuffix(strings.ToLower(word), "s") {
		return "" // "1 minute" vs "10 minutes"
	}
	num := strconv.FormatFloat(v, 'f', -1, 64)
	if strings.Contains(lit.Text[:i], ",") {
		num = groupThousands(num)
	}
	return strings.Replace(text, lit.Text, num+rest, 1)
}

func litDigit(b byte) bool { return b >= '0' && b <= '9' }

// groupThousands writes an integer with comma separators: 10000 -> 10,000.
func groupThousands(s string) string {
	var b strings.Builder
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// pkgValuesOf returns the constant values of a package, computed once per
// workspace.
func (r *LiteralMismatch) pkgValuesOf(ws *review.Workspace, p *retrieval.Package) *pkgValues {
	v, _ := r.values.get(ws, p.Dir, func() (*pkgValues, error) { return collectValues(p), nil })
	return v
}

// constSite returns the value of a const, or of a var with a constant
// initializer.
func (r *LiteralMismatch) constSite(ws *review.Workspace, sym retrieval.Symbol) (valueSite, bool) {
	if sym.Package == nil || sym.Object == nil {
		return valueSite{}, false
	}
	site, ok := r.pkgValuesOf(ws, sym.Package).byObj[sym.Object]
	return site, ok
}

// fieldDefault returns the one default the package gives a struct field:
// its Default<Field> constant, a zero-value fallback or a constructor's
// composite literal. It fails when there is none or they disagree.
func (r *LiteralMismatch) fieldDefault(ws *review.Workspace, sym retrieval.Symbol) (valueSite, bool) {
	return agreeingSite(r.fieldSites(ws, sym))
}

// fieldSites returns the sources of a struct field's default: its
// Default<Field> constants, zero-value fallbacks and constructors'
// composite literals.
func (r *LiteralMismatch) fieldSites(ws *review.Workspace, sym retrieval.Symbol) []valueSite {
	if sym.Package == nil || sym.Object == nil {
		return nil
	}
	pv := r.pkgValuesOf(ws, sym.Package)
	typ, field, ok := strings.Cut(sym.Name, ".")
	if !ok || strings.Contains(field, ".") {
		return nil
	}
	var sites []valueSite
	for _, n := range []string{"Default" + field, "default" + field, "Default" + typ + field, "default" + typ + field} {
		if s, ok := pv.byName[n]; ok && (len(pv.fields[sym.Object]) > 0 || !defaultOfOther(pv, n, sym.Object)) {
			sites = append(sites, s)
		}
	}
	sites = append(sites, pv.fields[sym.Object]...)
	if len(sites) == 0 {
		if site, ok := r.omittedDefault(ws, sym); ok {
			sites = append(sites, site)
		}
	}
	return sites
}

// defaultOfOther reports whether a func of the package gives the const
// named name to a field other than field: testdata's defaultLimit is
// options.limit's default (options{limit: defaultLimit}), not
// Writer.Limit's, whose name it shares and which no func gives a
// default (one that does, as a guarded copy of options.limit, keeps the
// const).
func defaultOfOther(pv *pkgValues, name string, field types.Object) bool {
	for obj, sites := range pv.fields {
		if obj == field {
			continue
		}
		for _, s := range sites {
			if s.expr == name {
				return true
			}
		}
	}
	return false
}

// agreeingSite returns the site all of sites agree with, or fails.
func agreeingSite(sites []valueSite) (valueSite, bool) {
	if len(sites) == 0 {
		return valueSite{}, false
	}
	for _, s := range sites {
		if s.val == nil || s.val.Kind() != sites[0].val.Kind() || !constant.Compare(s.val, token.EQL, sites[0].val) {
			return valueSite{}, false
		}
	}
	return sites[0], true
}

// fieldDefaultFor is [fieldDefault] for a literal of the field's doc:
// when the defaults disagree and exactly the ones of lit's kind agree,
// those are the field's. A percentage is a fraction's (minio's
// ExpiryWindow: "refreshing once 80% of the credential lifetime has
// elapsed" is defaultExpiryWindow = 0.8, not the sentinel
// DefaultExpiryWindow = -1); a number that is not negative is no
// negative sentinel's.
func (r *LiteralMismatch) fieldDefaultFor(ws *review.Workspace, sym retrieval.Symbol, lit litPlaced) (valueSite, bool) {
	sites := r.fieldSites(ws, sym)
	if site, ok := agreeingSite(sites); ok {
		return site, true
	}
	if lit.Value < 0 {
		return valueSite{}, false
	}
	kept := slices.DeleteFunc(slices.Clone(sites), func(s valueSite) bool {
		if s.val == nil || !isNumeric(s.val) || constant.Sign(s.val) < 0 {
			return true
		}
		if lit.Unit == "%" {
			f, _ := constant.Float64Val(constant.ToFloat(s.val))
			return s.val.Kind() != constant.Float || f <= 0 || f > 1
		}
		return false
	})
	if len(kept) == 0 || len(kept) == len(sites) {
		return valueSite{}, false
	}
	return agreeingSite(kept)
}

// collectValues records the constants of a package and the constant
// defaults its funcs give struct fields.
func collectValues(p *retrieval.Package) *pkgValues {
	pv := &pkgValues{byObj: map[types.Object]valueSite{}, byName: map[string]valueSite{}, fields: map[types.Object][]valueSite{},
		varFields: map[types.Object]map[types.Object]valueSite{}, assigned: map[types.Object]bool{}}
	if p.Info == nil || p.Fset == nil {
		return pv
	}
	for _, f := range p.Syntax {
		ast.Inspect(f, func(n ast.Node) bool {
			as, ok := n.(*ast.AssignStmt)
			if !ok {
				return true
			}
			for _, l := range as.Lhs {
				var id *ast.Ident
				switch l := ast.Unparen(l).(type) {
				case *ast.Ident:
					id = l
				case *ast.SelectorExpr:
					id = l.Sel
				}
				if v, ok := p.Info.Uses[id].(*types.Var); ok && id != nil && v.Parent() != nil && v.Pkg() != nil && v.Parent() == v.Pkg().Scope() {
					pv.assigned[v] = true
				}
			}
			return true
		})
	}
	pos := func(from, to token.Pos) (string, int, int) {
		a, b := p.Fset.Position(from), p.Fset.Position(to)
		return a.Filename, a.Line, max(b.Line, a.Line)
	}
	// Declarations first: a func's "cfg.F = ConfigDefault.F" reads a
	// var another file may declare.
	for _, f := range p.Syntax {
		for _, d := range f.Decls {
			if d, ok := d.(*ast.GenDecl); ok {
				collectSpecs(p, pv, d, pos)
			}
		}
	}
	for _, f := range p.Syntax {
		for _, d := range f.Decls {
			if d, ok := d.(*ast.FuncDecl); ok && d.Body != nil {
				collectDefaults(p, pv, d, pos)
			}
		}
	}
	decls := map[*types.Func]*ast.FuncDecl{}
	for _, f := range p.Syntax {
		for _, d := range f.Decls {
			if d, ok := d.(*ast.FuncDecl); ok && d.Body != nil {
				optionCopies(p, pv, d)
				if fn, ok := p.Info.Defs[d.Name].(*types.Func); ok {
					decls[fn] = d
				}
			}
		}
	}
	for _, f := range p.Syntax {
		for _, d := range f.Decls {
			if d, ok := d.(*ast.FuncDecl); ok && d.Body != nil {
				passedCopies(p, pv, d, decls)
			}
		}
	}
	return pv
}

// markFallback flags the site just added for field as a zero-value
// fallback.
func markFallback(pv *pkgValues, field types.Object) {
	if sites := pv.fields[field]; len(sites) > 0 {
		sites[len(sites)-1].fallback = true
	}
}

// passedCopies gives a field the zero-value fallback of the field it is
// copied into, where the copy is a key of a composite literal that d
// passes straight to a func of the package, and that func, or a method it
// calls on the parameter, gives the target its default when zero:
// kafka-go's Reader builds "ConsumerGroupConfig{RetentionTime:
// r.config.RetentionTime}" for NewConsumerGroup(config), whose
// config.Validate() sets "config.RetentionTime = defaultRetentionTime"
// when it is 0, so an unset ReaderConfig.RetentionTime is
// defaultRetentionTime too. A field with a default of its own keeps it.
func passedCopies(p *retrieval.Package, pv *pkgValues, d *ast.FuncDecl, decls map[*types.Func]*ast.FuncDecl) {
	where := funcLabel(d)
	ast.Inspect(d.Body, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		callee := decls[calledFunc(p.Info, call)]
		if callee == nil || callee == d {
			return true
		}
		for i, arg := range call.Args {
			lit := passedLiteral(arg)
			if lit == nil {
				continue
			}
			fns := fallbackFuncs(p.Info, callee, i, decls)
			if len(fns) == 0 {
				continue
			}
			for _, kf := range keyedFields(p.Info, lit) {
				to, kv := kf.field, kf.kv
				from := selectedField(p.Info, retrieval.Unconvert(p.Info, kv.Value))
				if from == nil || from == to || from.Pkg() != p.Types || len(pv.fields[from]) > 0 {
					continue
				}
				cp := retrieval.FieldCopy{From: from, To: to}
				inheritDefaults(pv, cp, func(site valueSite) bool { return site.fallback && fns[site.fn] }, " (copied by "+where+")")
			}
		}
		return true
	})
}

// keyedField is an element of a struct literal that names its field.
type keyedField struct {
	kv    *ast.KeyValueExpr
	key   *ast.Ident
	field *types.Var
}

// keyedFields returns the elements of lit written "Field: value".
func keyedFields(info *types.Info, lit *ast.CompositeLit) []keyedField {
	var out []keyedField
	for _, el := range lit.Elts {
		kv, ok := el.(*ast.KeyValueExpr)
		if !ok {
			continue
		}
		key, ok := kv.Key.(*ast.Ident)
		if !ok {
			continue
		}
		if f, ok := info.Uses[key].(*types.Var); ok && f.IsField() {
			out = append(out, keyedField{kv: kv, key: key, field: f})
		}
	}
	return out
}

// passedLiteral returns the composite literal an argument is, written as
// T{…} or &T{…}, or nil.
func passedLiteral(arg ast.Expr) *ast.CompositeLit {
	x := ast.Unparen(arg)
	if u, ok := x.(*ast.UnaryExpr); ok && u.Op == token.AND {
		x = ast.Unparen(u.X)
	}
	lit, _ := x.(*ast.CompositeLit)
	return lit
}

// selectedField returns the struct field x selects, or nil.
func selectedField(info *types.Info, x ast.Expr) *types.Var {
	sel, ok := x.(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	s := info.Selections[sel]
	if s == nil || s.Kind() != types.FieldVal {
		return nil
	}
	v, _ := s.Obj().(*types.Var)
	return v
}

// fallbackFuncs returns the labels of the funcs that see the value
// callee's parameter i is handed: callee itself and the methods callee
// calls on that parameter ("config.Validate()"); none when callee
// assigns the parameter anew or i is not a named parameter.
func fallbackFuncs(info *types.Info, callee *ast.FuncDecl, i int, decls map[*types.Func]*ast.FuncDecl) map[string]bool {
	var param types.Object
	k := 0
	for _, f := range callee.Type.Params.List {
		if len(f.Names) == 0 {
			k++
			continue
		}
		for _, n := range f.Names {
			if k == i {
				param = info.Defs[n]
			}
			k++
		}
	}
	if param == nil {
		return nil
	}
	fns := map[string]bool{funcLabel(callee): true}
	ast.Inspect(callee.Body, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		if !ok {
			return true
		}
		if x, ok := ast.Unparen(sel.X).(*ast.Ident); ok && info.Uses[x] == param {
			if m := decls[calledFunc(info, call)]; m != nil {
				fns[funcLabel(m)] = true
			}
		}
		return true
	})
	return fns
}

// optionCopies gives a field the default of the field it is copied over
// when set, where the copy is in a func that configures a struct it is
// handed (a parameter or receiver of the struct or a pointer to it) and
// the default in a constructor of that struct: orbit.go's
// NewFastPublisher builds "fastPublisherOpts{flow: defaultFastFlow}" and
// hands it to each option, and FastPublishFlowControl's
// configureFastPublisher(opts *fastPublisherOpts) copies "if fc.Flow > 0 {
// opts.flow = fc.Flow }": an unset Flow leaves defaultFastFlow. A field
// with a default of its own keeps it; a copy within one func is
// collectDefaults's.
func optionCopies(p *retrieval.Package, pv *pkgValues, d *ast.FuncDecl) {
	fn := funcLabel(d)
	for _, cp := range retrieval.HandedCopies(p.Info, d) {
		if len(pv.fields[cp.From]) == 0 {
			inheritDefaults(pv, cp, func(site valueSite) bool { return site.fn != fn }, " ("+fn+")")
		}
	}
}

// inheritDefaults gives cp.From the constant defaults of cp.To that keep
// accepts, each noted as kept unless cp.From is set (then where); a
// default that adjusts another value is not passed on.
func inheritDefaults(pv *pkgValues, cp retrieval.FieldCopy, keep func(valueSite) bool, where string) {
	var sites []valueSite
	for _, site := range pv.fields[cp.To] {
		if site.val == nil || site.derived || !keep(site) {
			continue
		}
		site.why = fmt.Sprintf("%s, kept unless %s is set%s", site.why, cp.From.Name(), where)
		sites = append(sites, site)
	}
	pv.fields[cp.From] = append(pv.fields[cp.From], sites...)
}

// collectDefaultVar records the constant fields of a package-level var
// whose name says default and whose value is a composite literal of a
// struct (`var ConfigDefault = Config{Expiration: 1 * time.Minute}`) as
// those fields' defaults.
func collectDefaultVar(p *retrieval.Package, pv *pkgValues, name *ast.Ident, value ast.Expr, pos func(token.Pos, token.Pos) (string, int, int)) {
	if !strings.Contains(strings.ToLower(name.Name), "default") {
		return
	}
	v := ast.Unparen(value)
	if u, ok := v.(*ast.UnaryExpr); ok && u.Op == token.AND {
		v = ast.Unparen(u.X)
	}
	lit, ok := v.(*ast.CompositeLit)
	if !ok {
		return
	}
	obj := p.Info.Defs[name]
	if obj == nil {
		return
	}
	for _, kf := range keyedFields(p.Info, lit) {
		kv, key, f := kf.kv, kf.key, kf.field
		val, _ := exprValue(p.Info, pv, kv.Value)
		if val == nil {
			continue
		}
		path, line, end := pos(kv.Pos(), kv.End())
		expr := types.ExprString(kv.Value)
		site := valueSite{
			val: val, typ: f.Type(), name: name.Name + "." + key.Name, expr: expr,
			why: key.Name + ": " + expr, path: path, line: line, end: end, fn: name.Name,
		}
		pv.fields[f] = append(pv.fields[f], site)
		if pv.varFields[obj] == nil {
			pv.varFields[obj] = map[types.Object]valueSite{}
		}
		pv.varFields[obj][f] = site
	}
}

// collectSpecs records the package-level consts and constant-initialized
// vars of a declaration.
func collectSpecs(p *retrieval.Package, pv *pkgValues, d *ast.GenDecl, pos func(token.Pos, token.Pos) (string, int, int)) {
	if d.Tok != token.CONST && d.Tok != token.VAR {
		return
	}
	// The last explicit values of a const group, which a spec without
	// values repeats.
	var last []ast.Expr
	for _, s := range d.Specs {
		spec, ok := s.(*ast.ValueSpec)
		if !ok {
			continue
		}
		values := spec.Values
		if d.Tok == token.CONST {
			if len(values) == 0 {
				values = last
			} else {
				last = values
			}
		}
		for i, name := range spec.Names {
			obj := p.Info.Defs[name]
			if obj == nil {
				continue
			}
			var val constant.Value
			typ := obj.Type()
			expr := ""
			if i < len(spec.Values) {
				expr = types.ExprString(spec.Values[i])
			}
			switch o := obj.(type) {
			case *types.Const:
				val = o.Val()
				if val.Kind() == constant.Unknown && i < len(spec.Values) {
					if v, t := exprValue(p.Info, pv, spec.Values[i]); v != nil {
						val, typ = v, t
					}
				}
				if expr == "" {
					expr = val.ExactString()
				}
			case *types.Var:
				if i < len(spec.Values) {
					var t types.Type
					if val, t = exprValue(p.Info, pv, spec.Values[i]); val != nil && !typeKnown(typ) {
						typ = t
					}
					if d.Tok == token.VAR && len(spec.Values) == len(spec.Names) {
						collectDefaultVar(p, pv, name, spec.Values[i], pos)
					}
				}
			}
			if val == nil {
				continue
			}
			path, line, end := pos(spec.Pos(), spec.End())
			site := valueSite{
				val: val, typ: typ, name: name.Name, expr: expr,
				why: name.Name + " = " + expr, path: path, line: line, end: end,
			}
			if i < len(values) {
				site.enum = usesIota(values[i])
			}
			pv.byObj[obj] = site
			pv.byName[name.Name] = site
		}
	}
}

// collectDefaults records the constants a func assigns to struct fields
// when they are zero ("if o.F <= 0 { o.F = X }", "switch o.F { case 0:
// o.F = X }") and, in New… and new… funcs, funcs and methods whose name
// says default (DefaultOptions, setDefaults) and funcs that take
// functional options, the constants of composite literals
// ("Options{F: X}") and of assignments in the func's own statement list
// ("o.F = X"). A field the func copies, when set, over a field with such
// a default has that default too ([retrieval.GuardedCopies]), and so has
// a field a func returns when set, returning a constant otherwise
// ([retrieval.FallbackReturns]).
func collectDefaults(p *retrieval.Package, pv *pkgValues, d *ast.FuncDecl, pos func(token.Pos, token.Pos) (string, int, int)) {
	field := func(x ast.Expr) types.Object {
		sel, ok := x.(*ast.SelectorExpr)
		if !ok {
			return nil
		}
		if s := p.Info.Selections[sel]; s != nil && s.Kind() == types.FieldVal {
			return s.Obj()
		}
		return nil
	}
	fn := funcLabel(d)
	// A default the func computes is recorded without a value, so that
	// the field's default counts as unknown.
	add := func(obj types.Object, lhs string, val ast.Expr, at ast.Node) {
		if obj == nil {
			return
		}
		v, _ := exprValue(p.Info, pv, val)
		path, line, end := pos(at.Pos(), at.End())
		expr := types.ExprString(val)
		site := valueSite{
			val: v, typ: obj.Type(), name: lhs, expr: expr, src: val,
			why: lhs + " = " + expr, path: path, line: line, end: end, fn: fn,
		}
		// "cfg.F = ConfigDefault.F": the default var's constant.
		if sel, ok := ast.Unparen(val).(*ast.SelectorExpr); ok && site.val == nil {
			if x, ok := sel.X.(*ast.Ident); ok {
				if from, ok := pv.varFields[p.Info.Uses[x]][p.Info.Uses[sel.Sel]]; ok {
					site.val, site.expr = from.val, from.expr
					site.why = lhs + " = " + expr + " (" + from.why + ")"
				}
			}
		}
		// "p.ReadHeaderTimeout = DefaultReadHeaderTimeout" of a var
		// with a constant initializer that no func of the package
		// assigns (go-proxyproto): that constant.
		if site.val == nil {
			var id *ast.Ident
			switch v := ast.Unparen(val).(type) {
			case *ast.Ident:
				id = v
			case *ast.SelectorExpr:
				id = v.Sel
			}
			if obj, ok := p.Info.Uses[id].(*types.Var); ok && id != nil && !pv.assigned[obj] {
				if from, ok := pv.byObj[obj]; ok && from.val != nil {
					site.val = from.val
					site.why = lhs + " = " + expr + " (" + from.why + ")"
				}
			}
		}
		// "o.ExtendInterval = o.KeyValidity / 2" after KeyValidity's own
		// fallback: a constant while the other field keeps its default.
		if site.val == nil {
			if from, v, ok := scaledDefault(p, pv, fn, field, val); ok {
				site.val = v
				site.why = fmt.Sprintf("%s = %s, with %s's default %s", lhs, expr, from.name, from.expr)
			}
		}
		switch v := ast.Unparen(val).(type) {
		case *ast.Ident:
			site.ref = namedValue(p.Info.Uses[v])
		case *ast.SelectorExpr:
			site.ref = namedValue(p.Info.Uses[v.Sel])
		case *ast.CompositeLit:
			site.fresh = true
		case *ast.UnaryExpr:
			_, site.fresh = ast.Unparen(v.X).(*ast.CompositeLit)
			site.fresh = site.fresh && v.Op == token.AND
		case *ast.BinaryExpr:
			// "defaultMaxSessions - 1" adjusts a value; "30 *
			// time.Second" and "1 << 20" write one.
			site.derived = v.Op != token.MUL && v.Op != token.SHL
		}
		pv.fields[obj] = append(pv.fields[obj], site)
	}
	ctor := d.Recv == nil && (strings.HasPrefix(d.Name.Name, "New") || strings.HasPrefix(d.Name.Name, "new") || takesOptions(p, d)) ||
		strings.Contains(strings.ToLower(d.Name.Name), "default") // setDefaults, (c *Config) applyDefaults
	if ctor {
		// A constructor's unconditional assignments set defaults too:
		// "var o Options; o.Size = 64; return o".
		for _, st := range d.Body.List {
			as, ok := st.(*ast.AssignStmt)
			if !ok || as.Tok != token.ASSIGN || len(as.Lhs) != len(as.Rhs) {
				continue
			}
			for i, l := range as.Lhs {
				add(field(l), types.ExprString(l), as.Rhs[i], as)
			}
		}
	}
	ast.Inspect(d.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.IfStmt:
			cond, ok := n.Cond.(*ast.BinaryExpr)
			if !ok || !zeroTest(p, cond) {
				return true
			}
			target := field(cond.X)
			if target == nil {
				return true
			}
			for _, st := range n.Body.List {
				as, ok := st.(*ast.AssignStmt)
				if !ok || as.Tok != token.ASSIGN || len(as.Lhs) != len(as.Rhs) {
					continue
				}
				for i, l := range as.Lhs {
					if field(l) == target {
						add(target, types.ExprString(l), as.Rhs[i], as)
						markFallback(pv, target)
					}
				}
			}
		case *ast.SwitchStmt:
			// "switch o.F { case 0: o.F = X }" is a zero-value fallback too.
			target := field(n.Tag)
			if target == nil {
				return true
			}
			for _, st := range n.Body.List {
				cc, ok := st.(*ast.CaseClause)
				if !ok || len(cc.List) != 1 || !zeroValue(p, cc.List[0]) {
					continue
				}
				for _, st := range cc.Body {
					as, ok := st.(*ast.AssignStmt)
					if !ok || as.Tok != token.ASSIGN || len(as.Lhs) != len(as.Rhs) {
						continue
					}
					for i, l := range as.Lhs {
						if field(l) == target {
							add(target, types.ExprString(l), as.Rhs[i], as)
							markFallback(pv, target)
						}
					}
				}
			}
		case *ast.CompositeLit:
			if !ctor || translated(p, d, n) {
				return true
			}
			for _, kf := range keyedFields(p.Info, n) {
				add(kf.field, kf.key.Name, kf.kv.Value, kf.kv)
			}
		}
		return true
	})
	// A func returning a field when set and a constant otherwise ("if
	// w.BatchSize > 0 { return w.BatchSize }; return 100").
	for _, fb := range retrieval.FallbackReturns(p.Info, d.Body) {
		add(fb.Field, fb.Field.Name(), fb.Value, fb.At)
		sites := pv.fields[fb.Field]
		sites[len(sites)-1].why = fmt.Sprintf("%s returns %s when %s is unset", fn, types.ExprString(fb.Value), fb.Field.Name())
	}
	// A field copied over one with a default ("if opts.MaxFrameSize > 0 {
	// c.maxFrameSize = opts.MaxFrameSize }") has that default when unset.
	for _, cp := range retrieval.GuardedCopies(p.Info, d.Body) {
		inheritDefaults(pv, cp, func(site valueSite) bool { return site.fn == fn }, "")
	}
}

// translated reports whether a composite literal of a constructor copies
// a field of one of the func's struct parameters of another type: pulsar's
// newReader(client, options ReaderOptions) builds the ConsumerOptions of
// its internal consumer with "Topic: options.Topic" and
// "SubscriptionMode: NonDurable", a reader's choice, not the default of a
// consumer the user builds.
func translated(p *retrieval.Package, d *ast.FuncDecl, lit *ast.CompositeLit) bool {
	tv, ok := p.Info.Types[lit]
	if !ok {
		return false
	}
	params := map[types.Object]bool{}
	for _, f := range d.Type.Params.List {
		for _, n := range f.Names {
			obj := p.Info.Defs[n]
			if obj == nil {
				continue
			}
			t := obj.Type()
			if ptr, ok := t.(*types.Pointer); ok {
				t = ptr.Elem()
			}
			if _, ok := t.Underlying().(*types.Struct); ok && !types.Identical(t, tv.Type) {
				params[obj] = true
			}
		}
	}
	if len(params) == 0 {
		return false
	}
	for _, e := range lit.Elts {
		kv, ok := e.(*ast.KeyValueExpr)
		if !ok {
			continue
		}
		sel, ok := ast.Unparen(kv.Value).(*ast.SelectorExpr)
		if !ok {
			continue
		}
		if x, ok := ast.Unparen(sel.X).(*ast.Ident); ok && params[p.Info.Uses[x]] {
			return true
		}
	}
	return false
}

// funcLabel names a func as messages write it: "New", "Config.Validate".
func funcLabel(d *ast.FuncDecl) string {
	if d.Recv != nil && len(d.Recv.List) == 1 {
		return strings.TrimLeft(types.ExprString(d.Recv.List[0].Type), "*") + "." + d.Name.Name
	}
	return d.Name.Name
}

// scaledDefault evaluates val, a default written as another field scaled
// by a constant ("o.KeyValidity / 2", "2 * o.Interval"), when fn has
// already given that field a constant default: it returns that default's
// site and the value val then has.
func scaledDefault(p *retrieval.Package, pv *pkgValues, fn string, field func(ast.Expr) types.Object, val ast.Expr) (valueSite, constant.Value, bool) {
	bin, ok := ast.Unparen(val).(*ast.BinaryExpr)
	if !ok || bin.Op != token.QUO && bin.Op != token.MUL {
		return valueSite{}, nil, false
	}
	other, factor := bin.X, bin.Y
	if bin.Op == token.MUL && field(other) == nil {
		other, factor = factor, other
	}
	from := field(other)
	k := p.Info.Types[factor].Value
	if from == nil || k == nil {
		return valueSite{}, nil, false
	}
	sites := pv.fields[from]
	if len(sites) == 0 {
		return valueSite{}, nil, false
	}
	site := sites[len(sites)-1]
	if site.fn != fn || site.val == nil || site.derived {
		return valueSite{}, nil, false
	}
	op := bin.Op
	if op == token.QUO && site.val.Kind() == constant.Int && k.Kind() == constant.Int {
		op = token.QUO_ASSIGN // integer division, as the code computes it
	}
	if op != token.MUL && constant.Sign(k) == 0 {
		return valueSite{}, nil, false
	}
	site.name = from.Name()
	return site, constant.BinaryOp(site.val, op, k), true
}

// takesOptions reports whether d applies functional options: its last
// parameter is variadic of a named type declared in its own package
// ("func Lists(options ...ListsOption)"), so the struct it builds holds
// the defaults the options override.
func takesOptions(p *retrieval.Package, d *ast.FuncDecl) bool {
	params := d.Type.Params.List
	if len(params) == 0 {
		return false
	}
	ell, ok := params[len(params)-1].Type.(*ast.Ellipsis)
	if !ok {
		return false
	}
	named, ok := p.Info.TypeOf(ell.Elt).(*types.Named)
	return ok && named.Obj().Pkg() == p.Types
}

// zeroValue reports whether x is the constant 0.
func zeroValue(p *retrieval.Package, x ast.Expr) bool {
	tv := p.Info.Types[x]
	if tv.Value == nil || tv.Value.Kind() != constant.Int {
		return false
	}
	v, ok := constant.Int64Val(tv.Value)
	return ok && v == 0
}

// zeroTest reports whether cond, a comparison of x with a constant, holds
// when x is its zero value: "x == 0", "x <= 0", "x < 1", "x < 2" (a
// Protocol below 2 becomes 3), "x == nil" or `x == ""`.
func zeroTest(p *retrieval.Package, cond *ast.BinaryExpr) bool {
	tv := p.Info.Types[cond.Y]
	if cond.Op == token.EQL && tv.IsNil() {
		return true // "if o.Out == nil { o.Out = os.Stderr }"
	}
	if cond.Op == token.EQL && tv.Value != nil && tv.Value.Kind() == constant.String && constant.StringVal(tv.Value) == "" {
		return true // `if o.SameSite == "" { o.SameSite = "Lax" }`
	}
	if tv.Value == nil || tv.Value.Kind() != constant.Int && tv.Value.Kind() != constant.Float {
		return false
	}
	switch cond.Op {
	case token.EQL, token.LEQ, token.LSS:
		return constant.Compare(constant.MakeInt64(0), cond.Op, tv.Value)
	}
	return false
}

// countNameRE matches a name that counts things other than bytes
// ("bufClasses", "maxLevels", "numShards", "poolSlots", "minBufBits").
var countNameRE = regexp.MustCompile(`(?:Classes|Levels|Shards|Slots|Buckets|Entries|Items|Count|Bits|Shift)$|^[Nn]um[A-Z]`)

// countName reports whether a constant's name says it counts things, so
// that a size a doc states beside it ("bufClasses = 15 // Up to 64 MiB")
// is what the count leads to, not its value.
func countName(name string) bool {
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		name = name[i+1:]
	}
	if name == "" {
		return false
	}
	return countNameRE.MatchString(strings.ToUpper(name[:1])+name[1:]) || countNameRE.MatchString(name)
}

// typeKnown reports whether t is a type the checker could tell.
func typeKnown(t types.Type) bool {
	b, ok := t.(*types.Basic)
	return t != nil && (!ok || b.Kind() != types.Invalid)
}
