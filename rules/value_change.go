package rules

import (
	"context"
	"fmt"
	"go/constant"
	"go/token"
	"go/types"
	"io/fs"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/docreview/docreview/review"
	"github.com/docreview/docreview/review/prose"
)

// This file holds the value-change half of the literal-mismatch rule: the
// diff changes the value of a package-level constant, and a doc the diff
// leaves alone still states the old value, in the constant's own doc, in
// the doc of a field or func that takes its value from the constant, or in
// any doc (Markdown too) that names the constant or such a field.

// valueChange is a package-level constant whose value the diff changed.
type valueChange struct {
	dir  string
	name string
	was  valueSite // at base
	now  valueSite // at head
	// fields are the struct fields the package sets from the constant
	// ("Client.RetryCount": a composite literal's key or an assignment),
	// funcs the funcs and methods whose bodies use it ("New").
	fields, funcs []string
	// via names, for each field, the func that sets it.
	via map[string]string
	// field is true when the value is a struct field's default that a
	// func of the package sets ("Port: 9042" in NewCluster), not a
	// constant; name is then the field ("ClusterConfig.Port").
	field bool
}

// valueChangesKey keys the workspace's value changes.
type valueChangesKey struct{}

// valueChanges returns the constants whose value the diff changed,
// computed once per review. The base value comes from type-checking the
// constant's package at base.
func valueChanges(ctx context.Context, ws *review.Workspace) []valueChange {
	v, _ := ws.Shared(valueChangesKey{}, func() (any, error) { return computeValueChanges(ctx, ws), nil })
	out, _ := v.([]valueChange)
	return out
}

func computeValueChanges(ctx context.Context, ws *review.Workspace) []valueChange {
	if ws.BaseFS == nil || ws.Symbols == nil || len(ws.Diff) == 0 {
		return nil
	}
	changes, err := ws.Changes(ctx)
	if err != nil {
		return nil
	}
	byDir := map[string][]review.SymbolRef{}
	// funcDirs are the packages where the diff changed a func or method,
	// which may set a field's default.
	funcDirs := map[string]bool{}
	for _, s := range changes.Changed {
		switch s.Kind {
		case review.SymbolConst:
			byDir[s.Dir] = append(byDir[s.Dir], s)
		case review.SymbolFunc, review.SymbolMethod:
			funcDirs[s.Dir] = true
			if byDir[s.Dir] == nil {
				byDir[s.Dir] = []review.SymbolRef{}
			}
		}
	}
	var out []valueChange
	dirs := make([]string, 0, len(byDir))
	for d := range byDir {
		dirs = append(dirs, d)
	}
	slices.Sort(dirs)
	for _, dir := range dirs {
		if ctx.Err() != nil {
			return out
		}
		base := baseConsts(ctx, ws, dir)
		if base == nil {
			continue
		}
		var head *pkgValues
		if funcDirs[dir] {
			out = append(out, fieldDefaultChanges(ws, dir, base)...)
		}
		for _, s := range byDir[dir] {
			sym, ok := ws.Symbols.Lookup(dir, s.Name)
			if !ok || sym.Package == nil || sym.Object == nil {
				continue
			}
			if head == nil {
				head = collectValues(sym.Package)
			}
			now, ok := head.byObj[sym.Object]
			if !ok || now.val == nil {
				continue
			}
			was, ok := base.byName[s.Name]
			if !ok || was.val == nil || was.val.Kind() != now.val.Kind() || constant.Compare(was.val, token.EQL, now.val) {
				continue
			}
			flow := ws.Symbols.ValueFlow(sym)
			vc := valueChange{dir: dir, name: s.Name, was: was, now: now, via: flow.Fields, funcs: flow.Funcs}
			for f := range flow.Fields {
				vc.fields = append(vc.fields, f)
			}
			slices.Sort(vc.fields)
			out = append(out, vc)
		}
	}
	return out
}

// fieldDefaultChanges returns the struct fields of the package in dir
// whose one default, as fieldDefault reads it from the package's funcs, is
// a constant at base and another constant at head. A default written the
// same at both (a named constant whose value changed) is left to the
// constant's own change.
func fieldDefaultChanges(ws *review.Workspace, dir string, base *pkgValues) []valueChange {
	p := ws.Symbols.Package(dir)
	if p == nil || p.Types == nil {
		return nil
	}
	head := collectValues(p)
	was, now := fieldDefaultsByName(base), fieldDefaultsByName(head)
	names := make([]string, 0, len(now))
	for n := range now {
		names = append(names, n)
	}
	slices.Sort(names)
	var out []valueChange
	for _, n := range names {
		a, b := was[n], now[n]
		if a.val == nil || b.val == nil || b.fn == "" || a.expr == b.expr || a.val.Kind() != b.val.Kind() || constant.Compare(a.val, token.EQL, b.val) {
			continue
		}
		out = append(out, valueChange{
			dir: dir, name: n, was: a, now: b, field: true,
			fields: []string{n}, funcs: []string{b.fn}, via: map[string]string{n: b.fn},
		})
	}
	return out
}

// fieldDefaultsByName returns, by "Type.Field", the one constant default
// the package's funcs give each field of its struct types, as fieldDefault
// does; fields whose defaults disagree or are computed are left out.
func fieldDefaultsByName(pv *pkgValues) map[string]valueSite {
	out := map[string]valueSite{}
	// The fields may belong to several packages (a struct of another
	// package that a func of this one fills in): their owners are looked
	// up in each one's own package, whatever order the map gives.
	owners := map[*types.Package]map[*types.Var]string{}
	for obj, sites := range pv.fields {
		v, ok := obj.(*types.Var)
		if !ok || !v.IsField() || v.Pkg() == nil || len(sites) == 0 {
			continue
		}
		if owners[v.Pkg()] == nil {
			owners[v.Pkg()] = fieldOwners(v.Pkg())
		}
		owner := owners[v.Pkg()][v]
		if owner == "" {
			continue
		}
		agreed := true
		for _, s := range sites {
			if s.val == nil || s.val.Kind() != sites[0].val.Kind() || !constant.Compare(s.val, token.EQL, sites[0].val) {
				agreed = false
				break
			}
		}
		if agreed {
			out[owner+"."+v.Name()] = sites[0]
		}
	}
	return out
}

// fieldOwners maps the fields of a package's package-level struct types
// to the name of the type that declares them directly.
func fieldOwners(pkg *types.Package) map[*types.Var]string {
	out := map[*types.Var]string{}
	scope := pkg.Scope()
	for _, n := range scope.Names() {
		tn, ok := scope.Lookup(n).(*types.TypeName)
		if !ok {
			continue
		}
		if st, ok := tn.Type().Underlying().(*types.Struct); ok {
			for i := range st.NumFields() {
				out[st.Field(i)] = n
			}
		}
	}
	return out
}

// baseConsts type-checks the package in dir as it was at base and returns
// its constant values; nil when it cannot be read.
func baseConsts(ctx context.Context, ws *review.Workspace, dir string) *pkgValues {
	entries, err := fs.ReadDir(ws.BaseFS, dir)
	if err != nil {
		return nil
	}
	var files []string
	for _, e := range entries {
		if !e.IsDir() && strings.HasSuffix(e.Name(), ".go") && !strings.HasSuffix(e.Name(), "_test.go") {
			files = append(files, path.Join(dir, e.Name()))
		}
	}
	for d := dir; ; d = path.Dir(d) {
		if _, err := fs.Stat(ws.BaseFS, path.Join(d, "go.mod")); err == nil {
			files = append(files, path.Join(d, "go.mod"))
			break
		}
		if d == "." || d == "/" {
			break
		}
	}
	if len(files) == 0 {
		return nil
	}
	syms, err := ws.Types.LoadSymbols(ctx, ws.BaseFS, files, nil)
	if err != nil {
		return nil
	}
	p := syms.Package(dir)
	if p == nil {
		return nil
	}
	return collectValues(p)
}

// bareDefaultRE finds a number written without a unit right after a
// default phrase: "Default is 16.", "defaults to 100 if unset".
var bareDefaultRE = regexp.MustCompile(`(?i)(?:\bdefaults?\s+(?:to|is|of|value\s+is)|\bdefault(?:\s+value)?\s*[:=]|\bdefault\s+value|\(default:?|\bby\s+default,?(?:\s+(?:it\s+)?is)?)\s*(\d[\d,]*(?:\.\d+)?)`)

// judgeValueChange reports a doc that the diff leaves alone and that
// still states the value a constant had before the diff changed it, or
// nil.
func (r *LiteralMismatch) judgeValueChange(ctx context.Context, ws *review.Workspace, c review.Claim) *review.Verdict {
	if ws.Scope == review.ScopeAll || ws.BaseFS == nil || c.Changed {
		return nil
	}
	if c.Kind == review.KindMarkdown && hasCodeBlock(c) {
		return nil
	}
	vcs := valueChanges(ctx, ws)
	if len(vcs) == 0 {
		return nil
	}
	for _, vc := range vcs {
		own := c.Kind == review.KindDocComment && c.Package == vc.dir &&
			(c.Symbol == vc.name || slices.Contains(vc.fields, c.Symbol) || slices.Contains(vc.funcs, c.Symbol))
		named := vc.namedBy(c)
		near := c.AboutPackage(vc.dir)
		if !own && len(named) == 0 && !near {
			continue
		}
		for i, sent := range prose.SplitSentences(c.Text) {
			if driftHistoryRE.MatchString(sent) {
				continue
			}
			if near {
				if lit, now, ok := nounTiedOld(sent, vc, headedBy(c, vc.name)); ok {
					return r.valueChangeVerdict(ws, c, vc, lit, now)
				}
			}
			if !own && len(named) == 0 {
				continue
			}
			names := slices.ContainsFunc(named, func(n string) bool { return strings.Contains(sent, n) || litNamesWord(sent, lastPart(n)) })
			// The constant's own doc speaks of its value in its first
			// sentence or one that names it; another doc, in a sentence
			// about a default or limit.
			self := c.Kind == review.KindDocComment && c.Package == vc.dir && c.Symbol == vc.name &&
				(i == 0 || litNamesWord(sent, vc.name))
			if c.Kind == review.KindDocComment && c.Package == vc.dir && c.Symbol == vc.name {
				// The constant's own doc stating its old value bare, in
				// any sentence: "1004 is reserved and so unexported.",
				// "Picked 255 as it seems to be a widely used limit".
				if lit, now, ok := ownOld(sent, vc); ok {
					return r.valueChangeVerdict(ws, c, vc, lit, now)
				}
			}
			if own && !names && !self && !cueWordRE.MatchString(sent) {
				// The doc of a func that uses the constant, or of a
				// field set from it, stating its old value bare.
				if lit, now, ok := ownOld(sent, vc); ok {
					return r.valueChangeVerdict(ws, c, vc, lit, now)
				}
				continue
			}
			if !names && !self && !own {
				continue
			}
			for _, lit := range sentenceValues(ws, sent, vc.now) {
				was, ok := matchLiteral(lit, vc.was)
				if !ok || !was.equal {
					continue
				}
				now, ok := matchLiteral(lit, vc.now)
				if !ok || now.equal {
					continue
				}
				return r.valueChangeVerdict(ws, c, vc, lit, now)
			}
			if own || names {
				// A sentence of several values of one kind, of a doc
				// that uses the constant or names it: kitex's
				// CheckPoolConfig says "default MaxIdleTimeout = 30s, min
				// value is 3s" after minMaxIdleTimeout became 2s. The
				// old value counts when no number of the sentence
				// states the new one, no other name states it, and no
				// other constant of the package has it.
				if lit, now, ok := ownOld(sent, vc); ok && !r.otherStates(ws, sent, vc, lit) {
					return r.valueChangeVerdict(ws, c, vc, lit, now)
				}
			}
		}
	}
	return nil
}

// namedBy returns the names of the change (the constant, the fields set
// from it) that c mentions.
func (vc valueChange) namedBy(c review.Claim) []string {
	var out []string
	for _, m := range c.Mentions {
		switch m.Kind {
		case review.MentionDocLink, review.MentionCode, review.MentionIdent:
		default:
			continue
		}
		name := strings.TrimLeft(m.Text, "*&")
		if _, after, ok := strings.Cut(name, "."); ok && !strings.Contains(after, ".") && name != "" && !slices.Contains(vc.fields, name) {
			// A package-qualified constant: "cache.DefaultTTL".
			if after == vc.name {
				name = after
			}
		}
		if name == vc.name || slices.Contains(vc.fields, name) {
			if !slices.Contains(out, name) {
				out = append(out, name)
			}
		}
	}
	return out
}

// sentenceValues returns the literals of a sentence that may state the
// constant's value: those with a unit, each the only one of its kind in
// the sentence, and, for an integer constant that counts nothing in
// particular, a bare number right after a default phrase.
func sentenceValues(ws *review.Workspace, sent string, now valueSite) []litPlaced {
	lits, _ := placeMentions(ws, sent)
	var out []litPlaced
	for _, l := range lits {
		if soleOfKind(lits, l) {
			out = append(out, l)
		}
	}
	if len(out) > 0 || litIsDuration(now.typ) || nameNanoseconds(now.name) > 0 {
		return out
	}
	for _, m := range bareDefaultRE.FindAllStringSubmatchIndex(sent, -1) {
		// "defaults to 1 << 20", "defaults to 2*n": an expression, not
		// the number alone.
		// "the default is 128k": a suffix glued to the number scales it.
		if rest := strings.TrimLeft(sent[m[3]:], " "); rest != "" && strings.ContainsRune("<>*+-/^%x(", rune(rest[0])) ||
			strings.HasPrefix(sent[m[3]:], ".") && len(sent) > m[3]+1 && litDigit(sent[m[3]+1]) ||
			len(sent) > m[3] && (isIdentByte(sent[m[3]]) || sent[m[3]] >= utf8.RuneSelf) {
			continue
		}
		digits := strings.ReplaceAll(sent[m[2]:m[3]], ",", "")
		v, err := strconv.ParseFloat(digits, 64)
		if err != nil {
			continue
		}
		out = append(out, litPlaced{
			Mention: review.Mention{Kind: review.MentionLiteral, Text: sent[m[2]:m[3]], Value: v, Unit: "count"},
			start:   m[2], end: m[3],
		})
	}
	return out
}

func (r *LiteralMismatch) valueChangeVerdict(ws *review.Workspace, c review.Claim, vc valueChange, lit litPlaced, now litMatch) *review.Verdict {
	value := vc.now.expr
	if now.shown != "" && now.shown != vc.now.expr {
		value += " (" + now.shown + ")"
	}
	how := ""
	switch {
	case slices.Contains(vc.fields, c.Symbol):
		how = fmt.Sprintf(", which %s assigns to %s", vc.via[c.Symbol], c.Symbol)
	case slices.Contains(vc.funcs, c.Symbol):
		how = fmt.Sprintf(", which %s uses", c.Symbol)
	}
	msg := fmt.Sprintf("The doc states %s, but this diff changed %s from %s to %s%s.", lit.Text, vc.name, vc.was.expr, value, how)
	if vc.field {
		msg = fmt.Sprintf("The doc states %s, but this diff changed the default %s gives %s from %s to %s.", lit.Text, vc.via[vc.name], vc.name, vc.was.expr, value)
	}
	hop := c.Symbol
	if hop == "" {
		hop = fmt.Sprintf("%s:%d", c.Path, c.Line+strings.Count(c.Text[:max(0, strings.Index(c.Text, lit.Text))], "\n"))
	}
	hops := []string{hop}
	if via := vc.via[c.Symbol]; via != "" {
		hops = append(hops, via)
	}
	if vc.name != c.Symbol {
		hops = append(hops, vc.name)
	}
	evs := []review.Evidence{{
		Path: vc.now.path, StartLine: vc.now.line, EndLine: vc.now.end, Source: review.SourceCode,
		Why: vc.now.why, Hops: hops,
	}}
	if ev, ok := hunkEvidence(ws.Diff, review.SymbolRef{Path: vc.now.path, Line: vc.now.line}, false); ok {
		ev.Why = fmt.Sprintf("this diff changed %s from %s to %s", vc.name, vc.was.expr, vc.now.expr)
		ev.Hops = []string{hop, "diff " + ev.Path}
		evs = append(evs, ev)
	}
	suggestion := ""
	if lit.Unit != "count" || startsWithDigit(lit.Text) {
		suggestion = rewriteLiteral(c.Text, lit, now.inUnit)
	}
	return &review.Verdict{
		Label: review.Contradicted, Rule: r.Name(), Message: msg, Confidence: 0.8,
		Suggestion: suggestion, Evidence: evs,
	}
}

// otherStates reports whether a number of sent that states a changed
// constant's old value may state another's: a name written right before
// it ("MaxIdleTimeout = 30s"), or another constant of the package with
// that value at head.
func (r *LiteralMismatch) otherStates(ws *review.Workspace, sent string, vc valueChange, lit litPlaced) bool {
	_, names := placeMentions(ws, sent)
	if boundToOtherName(sent, names, lit) {
		return true
	}
	p := ws.Symbols.Package(vc.dir)
	if p == nil {
		return true
	}
	for name, site := range r.pkgValuesOf(ws, p).byName {
		if name == vc.name || site.val == nil {
			continue
		}
		if m, ok := matchLiteral(lit, site); ok && m.equal {
			return true
		}
	}
	return false
}
