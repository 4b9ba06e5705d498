package rules

import (
	"cmp"
	"context"
	"fmt"
	"go/scanner"
	"go/token"
	"go/types"
	"io/fs"
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/docreview/docreview/retrieval"
	"github.com/docreview/docreview/review"
	"github.com/docreview/docreview/review/prose"
)

// absence says where a name that does not exist was looked for.
type absence struct {
	// where names the scope searched: "package cache", "type Store".
	where string
	// near lists the closest existing names of that scope, best first, in
	// the form the doc wrote the name.
	near []string
	// scopeSym is the type whose members were searched; zero for a
	// package.
	scopeSym retrieval.Symbol
	hasScope bool
}

// absentIn decides whether name, mentioned by m in claim c and declared
// nowhere the claim's reader would look, is absent: Go convention puts it
// in one scope, that scope was loaded completely, and the name is not
// there. The scopes are
//
//   - for a single name in a doc comment, the doc's package (and every
//     package it imports, which must not export it either): a doc link,
//     a backticked mixedCaps name, or a bare word [prose.CodeShaped]
//     calls code;
//   - for "pkg.Name", the module packages called pkg;
//   - for "Type.Member", the fields and methods of the module type Type;
//   - for a single backticked name in Markdown, the module (see
//     [absentInModule]).
//
// Anything else (a qualifier it cannot load, another single name in Markdown,
// a bare word of another shape, the opening word of main's doc, a name in
// a section about the past) is unknown, never absent.
func absentIn(ws *review.Workspace, sc scope, c review.Claim, m review.Mention, name string) (absence, bool) {
	parts := strings.Split(name, ".")
	switch len(parts) {
	case 1:
		if c.Kind == review.KindMarkdown {
			return absentInModule(ws, sc, c, m, name)
		}
		if c.Kind != review.KindDocComment {
			return absence{}, false
		}
		if m.Kind != review.MentionDocLink && placeholderName(name) {
			// A name the reader is to declare: "new(MyHook)", "where
			// YourType implements Hook". A doc link is a reference.
			return absence{}, false
		}
		if m.Kind != review.MentionDocLink && qualifiedElsewhere(c.Text, name) {
			// "…with methods like tls.Config.SetSessionTicketKeys. To use
			// SetSessionTicketKeys, …": the bare name is the one the doc
			// qualified.
			return absence{}, false
		}
		if strings.HasPrefix(name, "Example") {
			// Example functions live in test files, which the
			// symbol table does not load ("See ExampleGaugeFunc").
			return absence{}, false
		}
		if c.Symbol == "main" && opensDoc(c, name) {
			// No one calls main by name, so its doc's opening word
			// names the program ("ArrayListExample to demonstrate
			// basic usage of ArrayList", gods' examples).
			return absence{}, false
		}
		switch m.Kind {
		case review.MentionDocLink:
		case review.MentionCode:
			if !identShaped(name) {
				return absence{}, false
			}
		case review.MentionIdent:
			if inDiagramOnly(c.Text, name) {
				// A cell of a layout drawn in text, "| pageID (8
				// bytes) | metaBits (1 byte) |", names a field of
				// bytes, not code.
				return absence{}, false
			}
			if mapKeyOnly(c.Text, name) {
				// A type sketched in prose names what its keys
				// are: "a map[typeName]map[extensionName]*Field".
				return absence{}, false
			}
			if inCallArgs(c.Text, name) {
				// An argument of a call written in prose is a
				// placeholder: "RelTime(timeInPast, timeInFuture,
				// "earlier", "later")".
				return absence{}, false
			}
			// The opening word of a doc names its symbol, so there a
			// mixedCaps word of two words followed by a verb is code
			// too ("JSONTime implements the Scanner interface" on
			// NullTime; not "OpenTelemetry support for ...").
			if !prose.CodeShaped(name, calledIn(c.Text, name)) && !(opensDoc(c, name) && twoWordCamel(name) && verbFollows(c.Text)) {
				return absence{}, false
			}
		default:
			return absence{}, false
		}
		p := sc.syms.Package(c.Package)
		if p != nil && strings.EqualFold(name, p.Name) {
			// The project's own name, as its authors write it
			// ("the 64-bit variant of xxHash" in package xxhash).
			return absence{}, false
		}
		if !p.Complete() || importsDeclare(p, name) || asExample(c.Text, name) || pastMention(c.Text, name) || repoWords(ws)[name] {
			return absence{}, false
		}
		near := nearNames(packageNames(p, true), name)
		if m.Kind == review.MentionIdent && !opensDoc(c, name) && termOfNearDoc(sc, c, p, near, name) {
			return absence{}, false
		}
		// An UpperCamel word amid prose may be a term of the domain
		// ("UpDownCounter", "RedisTimeSeries"), a lowerCamel one is
		// code ("passing control to lexComment"); the first is absent only as the
		// doc's opening word (which names its symbol), as a call, or
		// when a name of the package is close enough to be what it
		// meant.
		if m.Kind == review.MentionIdent && !lowerCamel(name) && !prose.IsCodePrefixed(name) && !opensDoc(c, name) && !calledIn(c.Text, name) && !afterCallVerb(c.Text, name) && !closeEnough(near, name) {
			return absence{}, false
		}
		return absence{where: "package " + p.Name, near: near}, true
	case 2:
		if pkgs := sc.packagesNamed(parts[0]); len(pkgs) > 0 {
			if stdRival(sc, parts[0], parts[1], "") || pastMention(c.Text, name) {
				return absence{}, false
			}
			var names []string
			for _, p := range pkgs {
				if !p.Complete() || packageHasMember(p, parts[1]) {
					// A member written as if top-level
					// ("pool.RemovePoolHook" for a method of a pool
					// type) is loose, not absent.
					return absence{}, false
				}
				names = append(names, packageNames(p, false)...)
			}
			near := nearNames(names, parts[1])
			for i := range near {
				near[i] = parts[0] + "." + near[i]
			}
			return absence{where: "package " + parts[0], near: near}, true
		}
		sym, ok := sc.lookup(parts[0])
		if !ok || sym.Kind != "type" || !sym.Package.Complete() || pastMention(c.Text, name) || otherTypeHas(sc, parts[0], parts[1]) {
			return absence{}, false
		}
		tn, ok := sym.Object.(*types.TypeName)
		if !ok {
			return absence{}, false
		}
		near := nearNames(memberNames(tn), parts[1])
		for i := range near {
			near[i] = parts[0] + "." + near[i]
		}
		return absence{where: "type " + parts[0], near: near, scopeSym: sym, hasScope: true}, true
	}
	return absence{}, false
}

// termOfNearDoc reports whether the doc of one of the names closest to a
// bare word names the word too, past its opening: the author writes both,
// the word as a term of the domain the name is made from ("decodePDFDoc
// maps each byte of s from PDFDocEncoding", "parseChainSubRule reads a
// ChainSubRule").
func termOfNearDoc(sc scope, c review.Claim, p *retrieval.Package, near []string, word string) bool {
	for _, n := range near {
		if sym, ok := sc.syms.Lookup(p.Dir, n); ok && otherDocNames(c, sym, word) {
			return true
		}
	}
	return false
}

// otherDocNames reports whether the doc comment of sym, when it is not
// claim c's, names word past its opening word (which may be the stale
// name itself, in a doc copied and left unrenamed).
func otherDocNames(c review.Claim, sym retrieval.Symbol, word string) bool {
	if sym.Doc == "" || sym.Path == c.Path && sym.DocLine == c.Line {
		return false
	}
	_, rest, _ := strings.Cut(strings.TrimSpace(sym.Doc), " ")
	return litNamesWord(rest, word)
}

// stdRival reports whether a standard library package called q declares
// rest or a name close to it: then "q.rest" may well mean that package
// ("json.Marshaller" for encoding/json's Marshaler, in a file importing
// the module's own json package), and neither a module name close to it
// nor its absence from the module is certain. fix is the module's
// candidate for rest ("" for none); a standard name spelled the same
// ("json.Marshall" -> Marshal in both) is no rival, the fix being the
// same text.
func stdRival(sc scope, q, rest, fix string) bool {
	for _, ip := range sc.syms.StdPaths(q) {
		full := ip + "." + rest
		if sc.syms.Resolves(sc.primary(), full) {
			return true
		}
		if got, ok := sc.syms.Suggest(sc.primary(), full); ok && got != ip+"."+fix {
			return true
		}
	}
	return false
}

// callVerbRE matches a verb of calling right before a name: "it calls
// setupEdgeField".
var callVerbRE = regexp.MustCompile(`(?i)\b(?:calls?|calling|invokes?|invoking)\s+$`)

// afterCallVerb reports whether name follows a verb of calling somewhere
// in text.
func afterCallVerb(text, name string) bool {
	for i := 0; ; {
		j := strings.Index(text[i:], name)
		if j < 0 {
			return false
		}
		start := i + j
		i = start + len(name)
		if wordAt(text, start, i) && callVerbRE.MatchString(text[:start]) {
			return true
		}
	}
}

// closeEnough reports whether the best of near is close enough to name to
// be what the doc meant: most of their words in common (abbreviations
// expanded), or an edit distance of at most a quarter of the length.
func closeEnough(near []string, name string) bool {
	if len(near) == 0 {
		return false
	}
	best := lastPart(near[0])
	wa, wb := prose.ExpandedWords(name), prose.ExpandedWords(best)
	common := 0
	for _, w := range wa {
		if slices.Contains(wb, w) {
			common++
		}
	}
	if total := max(len(wa), len(wb)); total >= 2 && float64(common)/float64(total) >= 0.66 {
		return true
	}
	la, lb := strings.ToLower(name), strings.ToLower(best)
	return prose.EditDistance(la, lb) <= max(1, len(la)/4)
}

// sharesMostWords reports whether the nearest of near shares two or more
// words with name, and two thirds of the words of the longer
// (abbreviations expanded): "WithRawFunc" and "WithMergeFunc", not
// "VersionID" and "Version".
func sharesMostWords(near []string, name string) bool {
	if len(near) == 0 {
		return false
	}
	best := lastPart(near[0])
	common := prose.CommonWords(name, best)
	total := max(len(prose.Words(name)), len(prose.Words(best)))
	return common >= 2 && float64(common)/float64(total) >= 0.66
}

// otherTypeHas reports whether a module type called typ, in any package,
// has the field or method member: "Conn.WithReaderHardDeadline" may mean
// the Conn of another package.
func otherTypeHas(sc scope, typ, member string) bool {
	for _, p := range sc.syms.Packages() {
		if memberResolves(p, typ+"."+member) {
			return true
		}
	}
	return false
}

// historyCueRE matches the words that make a name in the clause after
// them a piece of history: "the previous drainQueuePlain", "renaming from
// TestParseFailoverURL".
var historyCueRE = regexp.MustCompile(`(?i)\b(?:old|older|previous|previously|former|formerly|legacy|removed|renamed|renaming|replaced|replacing|instead\s+of|no\s+longer|used\s+to|was|were|had\s+been)\b`)

// removalRE matches, in the rest of a name's clause, words that say the
// name is gone: "the cron.WithPanicLogger option has been removed".
var removalRE = regexp.MustCompile(`(?i)\b(?:removed|renamed|deleted|dropped|deprecated|replaced|no\s+longer)\b`)

// historyHeadingRE matches the headings of sections about the past:
// "BREAKING CHANGES", "Changelog", "Migrating from v1", "Upgrade notes",
// "History", "Release notes", "What's new in 2.0".
var historyHeadingRE = regexp.MustCompile(`(?i)\b(?:breaking\s+changes?|change\s*log|changes\s+in|migrat\w*|upgrad\w*|history|release\s+notes|what'?s\s+new)\b`)

// historySection reports whether name first appears in c under a heading
// about the past ([historyHeadingRE]): the heading path of a Markdown
// claim, or the last "# " heading of a doc comment before the name. A
// section listing breaking changes names what was removed (retry-go's
// "`retry.Retry` function are changed to `retry.Do`").
func historySection(c review.Claim, name string) bool {
	if c.Kind == review.KindMarkdown {
		return historyHeadingRE.MatchString(c.Context)
	}
	i := strings.Index(c.Text, name)
	if i < 0 {
		return false
	}
	heading := ""
	for line := range strings.SplitSeq(c.Text[:i], "\n") {
		if strings.HasPrefix(line, "# ") {
			heading = line
		}
	}
	return heading != "" && historyHeadingRE.MatchString(heading)
}

// pastMention reports whether every mention of name in text speaks of it
// as history, hypothetically or in contrast (see [historical]): such a
// name need not exist any more.
func pastMention(text, name string) bool {
	found := false
	for i := 0; ; {
		j := strings.Index(text[i:], name)
		if j < 0 {
			return found
		}
		start, end := i+j, i+j+len(name)
		i = end
		if !wordAt(text, start, end) {
			continue
		}
		before := text[:start]
		if loc := clauseEndRE.FindAllStringIndex(before, -1); loc != nil {
			before = before[loc[len(loc)-1][1]:]
		}
		before = strings.TrimRight(before, "[`*&(")
		after := text[end:]
		if loc := clauseEndRE.FindStringIndex(after); loc != nil {
			after = after[:loc[0]]
		}
		if !historical(before, nextWords(text[end:], 2)) && !contrastRE.MatchString(before) && !historyCueRE.MatchString(before) &&
			!removalRE.MatchString(after) {
			return false
		}
		found = true
	}
}

// calledIn reports whether text writes name as a call: "name(".
func calledIn(text, name string) bool {
	for i := 0; ; {
		j := strings.Index(text[i:], name+"(")
		if j < 0 {
			return false
		}
		j += i
		if j == 0 || !isIdentByte(text[j-1]) && text[j-1] != '.' {
			return true
		}
		i = j + len(name)
	}
}

// importsDeclare reports whether a package p imports declares name, or may
// (an import that could not be loaded): the doc may then mean it
// unqualified, as docs often do ("ResponseWriter"). Unexported names count
// too: "the boolFlag internal interface in flag".
func importsDeclare(p *retrieval.Package, name string) bool {
	declared, unknown := importDeclares(p, name)
	return declared || unknown
}

// anyImportExports reports whether a package that some package of the
// module imports exports name, or its singular.
func anyImportExports(sc scope, name string) bool {
	for _, p := range sc.syms.Packages() {
		if p.Types != nil && (importExports(p, name) || importExports(p, strings.TrimSuffix(name, "s"))) {
			return true
		}
	}
	return false
}

// importExports reports whether a loaded package p imports exports name.
func importExports(p *retrieval.Package, name string) bool {
	declared, _ := importDeclares(p, name)
	return declared && token0Exported(name)
}

// importDeclares reports whether a loaded import of p declares name, and
// whether some import could not be loaded.
func importDeclares(p *retrieval.Package, name string) (declared, unknown bool) {
	for _, imp := range p.Types.Imports() {
		switch {
		case !imp.Complete():
			unknown = true
		case imp.Scope().Lookup(name) != nil:
			declared = true
		}
	}
	return declared, unknown
}

// packageNames lists the top-level names of p, with the unexported ones
// only when own says the doc is p's own.
func packageNames(p *retrieval.Package, own bool) []string {
	var out []string
	for _, n := range p.Types.Scope().Names() {
		if own || token0Exported(n) {
			out = append(out, n)
		}
	}
	return out
}

// memberNames lists the fields and methods of the named type tn, promoted
// ones included.
func memberNames(tn *types.TypeName) []string {
	t := tn.Type()
	if !types.IsInterface(t) {
		t = types.NewPointer(t)
	}
	ms := types.NewMethodSet(t)
	var out []string
	for sel := range ms.Methods() {
		out = append(out, sel.Obj().Name())
	}
	if st, ok := tn.Type().Underlying().(*types.Struct); ok {
		for f := range st.Fields() {
			out = append(out, f.Name())
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// nearNames returns up to three of names closest to name by
// [prose.NameSimilarity], best first; none below one half.
func nearNames(names []string, name string) []string {
	type scored struct {
		name string
		s    float64
	}
	var cands []scored
	for _, n := range names {
		if n == name || n == "_" {
			continue
		}
		if s := prose.NameSimilarity(name, n); s >= 0.5 {
			cands = append(cands, scored{n, s})
		}
	}
	slices.SortStableFunc(cands, func(a, b scored) int {
		if c := cmp.Compare(b.s, a.s); c != 0 {
			return c
		}
		return cmp.Compare(a.name, b.name)
	})
	var out []string
	for _, c := range cands[:min(3, len(cands))] {
		out = append(out, c.name)
	}
	return out
}

// abbreviated returns the existing name that name becomes with one of its
// words abbreviated or expanded ("Command.ExecuteCtx" -> "Command.ExecuteContext"),
// when exactly one such name resolves in the scope. The last part must
// have two words or more, and a Markdown name a qualifier.
func abbreviated(sc scope, name string) (string, retrieval.Symbol, bool) {
	dot := strings.LastIndexByte(name, '.')
	prefix, last := name[:dot+1], name[dot+1:]
	runes := []rune(last)
	if len(prose.WordSpans(runes)) < 2 || sc.markdown && dot < 0 {
		// A whole name that is an abbreviation ("Cfg") says too little,
		// and a single name of Markdown has no package to be looked up in.
		return "", retrieval.Symbol{}, false
	}
	var found []string
	var sym retrieval.Symbol
	for _, sp := range prose.WordSpans(runes) {
		w := string(runes[sp[0]:sp[1]])
		lw := strings.ToLower(w)
		for _, alt := range prose.Alternatives(lw) {
			if w[0] >= 'A' && w[0] <= 'Z' {
				alt = strings.ToUpper(alt[:1]) + alt[1:]
			}
			cand := prefix + string(runes[:sp[0]]) + alt + string(runes[sp[1]:])
			if s, ok := sc.lookup(cand); ok && !slices.Contains(found, cand) {
				found, sym = append(found, cand), s
			}
		}
	}
	if len(found) != 1 {
		return "", retrieval.Symbol{}, false
	}
	return found[0], sym, true
}

// absentMessage describes an absent name for a verdict's message.
func absentMessage(s stale) string {
	var p string
	switch {
	case strings.HasPrefix(s.absent.where, "type "):
		p = fmt.Sprintf("%s does not exist: %s has no field or method %s", s.name, s.absent.where, lastPart(s.name))
	case strings.Contains(s.name, "."):
		p = fmt.Sprintf("%s does not exist: %s declares no %s", s.name, s.absent.where, lastPart(s.name))
	default:
		p = fmt.Sprintf("%s does not exist: neither %s nor a package it imports declares it", s.name, s.absent.where)
	}
	switch len(s.absent.near) {
	case 0:
		p += ", and no name there is close to it"
	case 1:
		p += fmt.Sprintf(" (the closest name is %s)", s.absent.near[0])
	default:
		p += fmt.Sprintf(" (the closest names are %s)", joinAnd(s.absent.near))
	}
	return p
}

// absentEvidence points at what shows a name absent: the declaration of
// the type whose members were searched, or else the doc line that names
// it.
func absentEvidence(ws *review.Workspace, sc scope, c review.Claim, s stale, hop string) review.Evidence {
	if s.absent.hasScope {
		ref := ws.Symbols.Definition(s.absent.scopeSym)
		start, end := lineRange(ref.Line, ref.EndLine)
		return review.Evidence{
			Path: ref.Path, StartLine: start, EndLine: end, Source: review.SourceCode,
			Why:  fmt.Sprintf("declares %s, which has no field or method %s", s.absent.scopeSym.Name, lastPart(s.name)),
			Hops: []string{hop, s.absent.scopeSym.Name},
		}
	}
	if len(s.absent.near) > 0 {
		if sym, ok := sc.lookup(s.absent.near[0]); ok {
			ref := ws.Symbols.Definition(sym)
			start, end := lineRange(ref.Line, ref.EndLine)
			return review.Evidence{
				Path: ref.Path, StartLine: start, EndLine: end, Source: review.SourceCode,
				Why:  fmt.Sprintf("defines %s, the closest name in %s", s.absent.near[0], s.absent.where),
				Hops: []string{hop, sym.Name},
			}
		}
	}
	start, end := lineRange(s.mention.Line, s.mention.EndLine)
	return review.Evidence{
		Path: c.Path, StartLine: start, EndLine: end, Source: review.SourceDoc,
		Why:  fmt.Sprintf("names %s, which %s does not declare", s.name, s.absent.where),
		Hops: []string{hop},
	}
}

// throughLocal reads a name qualified by the receiver or a parameter of
// the documented func ("c.Run" for a method with receiver c): it returns
// the qualifier and the name through the variable's named type
// ("Command.Run"), with typed empty when the type is not a named type of
// a module package. ok is false when the qualifier is not such a variable.
func throughLocal(sc scope, c review.Claim, name string) (local, typed string, ok bool) {
	q, member, dotted := strings.Cut(name, ".")
	if !dotted || strings.Contains(member, ".") || c.Kind != review.KindDocComment || c.Symbol == "" {
		return "", "", false
	}
	sym, found := sc.syms.Lookup(sc.primary(), c.Symbol)
	if !found || sym.Object == nil {
		return "", "", false
	}
	fn, isFn := sym.Object.(*types.Func)
	if !isFn {
		return "", "", false
	}
	sig := fn.Type().(*types.Signature)
	var v *types.Var
	if rv := sig.Recv(); rv != nil && rv.Name() == q {
		v = rv
	}
	for p := range sig.Params().Variables() {
		if p.Name() == q {
			v = p
		}
	}
	if v == nil {
		return "", "", false
	}
	t := v.Type()
	if ptr, isPtr := t.(*types.Pointer); isPtr {
		t = ptr.Elem()
	}
	named, isNamed := t.(*types.Named)
	if !isNamed || named.Obj().Pkg() == nil {
		return q, "", true
	}
	p := sc.syms.PackageByPath(named.Obj().Pkg().Path())
	if p == nil || !sc.inModule(retrieval.Symbol{Package: p, Path: "x", Line: 1}) {
		return q, "", true
	}
	tname := named.Obj().Name()
	if p.Dir != sc.primary() {
		tname = p.Name + "." + tname
	}
	return q, tname + "." + member, true
}

var _ review.Unverifier = (*StaleReference)(nil)

// Unverified lists the names claim c mentions that neither resolve nor
// could be shown absent: names in packages docreview could not load, and
// names whose shape leaves open whether they are code (see [absentIn]).
// Names it reports as stale are not listed.
func (r *StaleReference) Unverified(ctx context.Context, ws *review.Workspace, c review.Claim) []string {
	if ws == nil || ws.Symbols == nil || isHistory(c.Path) || isOtherVersionDoc(ws, c.Path) {
		return nil
	}
	sc := newScope(ws.Symbols, c)
	skip := ownNames(sc, c)
	var out []string
	for _, m := range c.Mentions {
		if ctx.Err() != nil {
			return out
		}
		if inBlock(c.Mentions, m) || m.Kind == review.MentionDocLink && strings.Contains(m.Text, "/") {
			continue
		}
		name, ok := refName(m)
		if !ok || skip[name] || isBuiltin(name) || slices.Contains(out, name) {
			continue
		}
		checked := name
		if _, typed, isLocal := throughLocal(sc, c, name); isLocal {
			if typed == "" {
				out = append(out, name)
				continue
			}
			checked = typed
		}
		if r.known(ws, sc, c, checked) {
			continue
		}
		if _, absent := absentIn(ws, sc, c, m, checked); !absent || sc.resolves(checked) {
			out = append(out, name)
		}
	}
	return out
}

// known reports whether name resolves to a declaration docreview loaded,
// or is one of the words the stale-reference rule reads as prose or as a
// file.
func (r *StaleReference) known(ws *review.Workspace, sc scope, c review.Claim, name string) bool {
	if _, ok := sc.lookup(name); ok {
		return true
	}
	for _, d := range sc.dirs {
		if _, ok := ws.Symbols.Lookup(d, name); ok {
			return true
		}
	}
	single := !strings.Contains(name, ".")
	return isFile(ws.HeadFS, c.Path, name) || plural(sc, name) || memberResolvesAny(sc, name) ||
		single && (sc.hasMember(name) || ws.Symbols.Defined(name) || memberVerb(sc, name)) ||
		quotedOnly(c.Text, name)
}

// memberResolvesAny reports whether name is "Type.Member" of a type of the
// scope's packages.
func memberResolvesAny(sc scope, name string) bool {
	for _, d := range sc.dirs {
		if memberResolves(sc.syms.Package(d), name) {
			return true
		}
	}
	return false
}

// repoWordsKey is the [review.Workspace.Shared] key of [repoWordSets].
type repoWordsKey struct{}

// repoWordsBudget bounds how many bytes of files [repoWords] reads.
const repoWordsBudget = 64 << 20

// wordSets are the words the repository uses outside its prose: all of
// them, and those used as themselves, not as code quoted in a string.
type wordSets struct {
	all, plain map[string]bool
}

// repoWords returns every word the repository uses outside its prose: the
// identifiers and the words of string literals of its Go files (tests
// included, comments not), and the words of its other text files but
// documentation (Markdown, reStructuredText, plain text). A bare name
// found there exists in some form (a local variable, a struct tag, a key
// of a YAML file, a test function), so it is never reported absent.
func repoWords(ws *review.Workspace) map[string]bool {
	return repoWordSets(ws).all
}

// repoPlainWords is [repoWords] without the words a string literal
// writes as code, qualified or called ("increase opt.MaxTableSize",
// "ErrorWithLocation()"): an old name a message or a test's output still
// quotes is as stale as the doc's.
func repoPlainWords(ws *review.Workspace) map[string]bool {
	return repoWordSets(ws).plain
}

func repoWordSets(ws *review.Workspace) wordSets {
	v, _ := ws.Shared(repoWordsKey{}, func() (any, error) {
		words := wordSets{all: map[string]bool{}, plain: map[string]bool{}}
		left := repoWordsBudget
		for _, p := range ws.HeadFiles {
			ext := strings.ToLower(path.Ext(p))
			switch ext {
			case ".md", ".markdown", ".rst", ".txt", ".adoc", "":
				continue
			}
			info, err := fs.Stat(ws.HeadFS, p)
			if err != nil || info.Size() > int64(left) || info.Size() > 4<<20 {
				continue
			}
			src, err := fs.ReadFile(ws.HeadFS, p)
			if err != nil {
				continue
			}
			left -= len(src)
			if ext == ".go" {
				goWords(src, words)
				continue
			}
			for _, w := range identWordRE.FindAll(src, -1) {
				words.all[string(w)] = true
				words.plain[string(w)] = true
			}
		}
		return words, nil
	})
	words, _ := v.(wordSets)
	return words
}

var identWordRE = regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_]*`)

// goWords adds the identifiers and string-literal words of a Go file to
// words.
func goWords(src []byte, words wordSets) {
	fset := token.NewFileSet()
	f := fset.AddFile("", -1, len(src))
	var s scanner.Scanner
	s.Init(f, src, func(token.Position, string) {}, 0)
	for {
		_, tok, lit := s.Scan()
		switch tok {
		case token.EOF:
			return
		case token.IDENT:
			words.all[lit] = true
			words.plain[lit] = true
		case token.STRING, token.CHAR:
			for _, m := range identWordRE.FindAllStringIndex(lit, -1) {
				w := lit[m[0]:m[1]]
				words.all[w] = true
				if !(m[0] > 0 && lit[m[0]-1] == '.' || strings.HasPrefix(lit[m[1]:], "(")) {
					words.plain[w] = true
				}
			}
		}
	}
}

// exampleCues are the words after which a name is an example, not a
// reference: "a sentinel such as ErrNotFound", "e.g. maxSize".
var exampleCues = []string{"such as", "e.g.", "e.g.,", "eg.", "for example", "for instance", "like", "say", "i.e."}

// asExample reports whether name stands in text right after an example
// cue, or in a list that follows one in the same sentence.
func asExample(text, name string) bool {
	for i := 0; ; {
		j := strings.Index(text[i:], name)
		if j < 0 {
			return false
		}
		j += i
		i = j + len(name)
		start := strings.LastIndexAny(text[:j], ".;:!?\n")
		sentence := strings.ToLower(text[max(start, 0):j])
		if start >= 0 && strings.HasSuffix(strings.ToLower(text[:start+1]), "e.g.") {
			// "e.g." ends in a full stop: look past it.
			sentence = strings.ToLower(text[max(strings.LastIndexAny(text[:start-3], ".;:!?\n"), 0):j])
		}
		for _, cue := range exampleCues {
			if k := strings.LastIndex(sentence, cue); k >= 0 && (k == 0 || !isIdentByte(sentence[k-1])) {
				between := sentence[k+len(cue):]
				if strings.Count(between, " ") <= 4 || strings.Contains(between, ",") {
					return true
				}
			}
		}
	}
}

// absentInModule decides a single name in Markdown. Markdown may speak
// of anything, so only a backticked exported mixedCaps name of several
// words ("`WithRawFunc`") can be absent: every package of the module was
// loaded completely, none of them, nor any package they import, declares
// it in any case or number, no file of the repository uses the word, the
// text does not give it as an example or as history, and an exported
// name of the module shares most of its words (the doc meant that one,
// or one that was renamed; see [sharesMostWords]). Anything else is
// unknown.
func absentInModule(ws *review.Workspace, sc scope, c review.Claim, m review.Mention, name string) (absence, bool) {
	if m.Kind != review.MentionCode || !identShaped(name) || !token0Exported(name) || len(prose.Words(name)) < 2 ||
		placeholderName(name) || strings.HasPrefix(name, "Example") || prose.IsBrand(name) {
		return absence{}, false
	}
	pkgs := sc.syms.Packages()
	if len(pkgs) == 0 {
		return absence{}, false
	}
	var names []string
	for _, p := range pkgs {
		if !p.Complete() || importsDeclare(p, name) {
			return absence{}, false
		}
		names = append(names, packageNames(p, false)...)
	}
	if sc.namesAnything(name) || repoWords(ws)[name] || asExample(c.Text, name) || pastMention(c.Text, name) {
		return absence{}, false
	}
	near := nearNames(names, name)
	if !sharesMostWords(near, name) {
		return absence{}, false
	}
	return absence{where: "the module", near: near}, true
}

// inDiagramOnly reports whether every line of text naming name is a row
// of a table or diagram drawn with three or more "|".
func inDiagramOnly(text, name string) bool {
	seen := false
	for line := range strings.SplitSeq(text, "\n") {
		if countWord(line, name) == 0 {
			continue
		}
		if strings.Count(line, "|") < 3 {
			return false
		}
		seen = true
	}
	return seen
}

// everyOccurrence reports whether name occurs in text as a word and
// every such occurrence, at text[start:end], satisfies ok.
func everyOccurrence(text, name string, ok func(start, end int) bool) bool {
	seen := false
	for i := 0; ; {
		j := strings.Index(text[i:], name)
		if j < 0 {
			return seen
		}
		start, end := i+j, i+j+len(name)
		i = end
		if !wordAt(text, start, end) {
			continue
		}
		if !ok(start, end) {
			return false
		}
		seen = true
	}
}

// mapKeyOnly reports whether every occurrence of name in text is the key
// type of a map written in prose ("map[htmlElementName]"): a description
// of the keys, not a reference.
func mapKeyOnly(text, name string) bool {
	return everyOccurrence(text, name, func(start, end int) bool {
		return strings.HasSuffix(text[:start], "map[") && strings.HasPrefix(text[end:], "]")
	})
}

// placeholderName reports whether name is one Go docs use for what the
// reader declares: My… or Your… followed by a capital ("MyHook",
// "YourType"), or Foo, Bar, Baz and Qux with what follows ("FooService").
func placeholderName(name string) bool {
	for _, p := range []string{"My", "Your"} {
		if rest, ok := strings.CutPrefix(name, p); ok && rest != "" && rest[0] >= 'A' && rest[0] <= 'Z' {
			return true
		}
	}
	for _, p := range []string{"Foo", "Bar", "Baz", "Qux", "foo", "bar", "baz", "qux"} {
		if rest, ok := strings.CutPrefix(name, p); ok && (rest == "" || rest[0] >= 'A' && rest[0] <= 'Z') {
			return true
		}
	}
	return false
}

// lowerCamel reports whether a code-shaped word starts lower-case
// ("typeFields", "lexComment"): prose has no such words but brands,
// which [prose.CodeShaped] leaves out.
func lowerCamel(name string) bool {
	return name != "" && name[0] >= 'a' && name[0] <= 'z'
}

// twoWordCamel reports whether name is an UpperCamel word of two words or
// more with a lower-case letter ("JSONTime", "NullTime"; not "HTTP").
func twoWordCamel(name string) bool {
	if name == "" || name[0] < 'A' || name[0] > 'Z' || strings.ContainsAny(name, "._") || prose.IsBrand(name) {
		return false
	}
	return len(prose.Words(name)) >= 2 && strings.ToUpper(name) != name
}

// verbFollows reports whether the second word of a doc is a verb in the
// third person, as Go docs follow their subject: "implements", "returns",
// "is", "can", "should".
func verbFollows(text string) bool {
	f := strings.Fields(text)
	if len(f) < 2 {
		return false
	}
	w := strings.ToLower(strings.TrimRight(f[1], ",.:;"))
	switch w {
	case "is", "was", "has", "can", "could", "should", "must", "will", "may", "does":
		return true
	}
	return len(w) > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && !strings.HasSuffix(w, "us") && isLowerASCII(w)
}

// isLowerASCII reports whether w is made of the letters a to z only.
func isLowerASCII(w string) bool {
	for i := 0; i < len(w); i++ {
		if w[i] < 'a' || w[i] > 'z' {
			return false
		}
	}
	return true
}

// inCallArgs reports whether some whole-word occurrence of name in text
// stands between the parentheses of a call on one line: after "f(" (or
// "f(a, ") and before the closing ")".
func inCallArgs(text, name string) bool {
	for i := 0; ; {
		j := strings.Index(text[i:], name)
		if j < 0 {
			return false
		}
		start, end := i+j, i+j+len(name)
		i = end
		if !wordAt(text, start, end) {
			continue
		}
		lineStart := strings.LastIndexByte(text[:start], '\n') + 1
		lineEnd := strings.IndexByte(text[end:], '\n')
		if lineEnd < 0 {
			lineEnd = len(text)
		} else {
			lineEnd += end
		}
		open := strings.LastIndexByte(text[lineStart:start], '(')
		if open < 0 || strings.Contains(text[lineStart+open:start], ")") {
			continue
		}
		open += lineStart
		if open == 0 || !isIdentByte(text[open-1]) || !strings.Contains(text[end:lineEnd], ")") {
			continue
		}
		return true
	}
}

// qualifiedElsewhere reports whether text writes name as the member of a
// qualifier too ("tls.Config.SetSessionTicketKeys" for
// SetSessionTicketKeys).
func qualifiedElsewhere(text, name string) bool {
	for j := range wordSpans(text, name) {
		if j >= 2 && text[j-1] == '.' && isIdentByte(text[j-2]) {
			return true
		}
	}
	return false
}

// termOfNames reports whether word, starting with an upper-case letter
// and of one run of lower-case letters at most (DBaaS, ObjectID), is a
// whole camel-case part of a longer name p declares at package level
// (DBaaS of ServiceTypeDBaaS): the package builds its names of the term.
func termOfNames(p *retrieval.Package, word string) bool {
	if p == nil || p.Types == nil || word == "" || word[0] < 'A' || word[0] > 'Z' || lowerRuns(word) > 1 {
		// A name of several words (PartialAttributeFactory beside
		// NewPartialAttributeFactory) is a name, not a term.
		return false
	}
	for _, n := range p.Types.Scope().Names() {
		for i := 0; ; {
			j := strings.Index(n[i:], word)
			if j < 0 {
				break
			}
			j += i
			end := j + len(word)
			i = j + 1
			if len(n) == len(word) {
				break
			}
			before := j == 0 || n[j-1] >= 'a' && n[j-1] <= 'z' || n[j-1] >= '0' && n[j-1] <= '9'
			after := end == len(n) || n[end] >= 'A' && n[end] <= 'Z'
			if before && after {
				return true
			}
		}
	}
	return false
}

// lowerRuns counts the runs of lower-case ASCII letters in s: 1 for
// DBaaS, 3 for PartialAttributeFactory.
func lowerRuns(s string) int {
	n, in := 0, false
	for i := 0; i < len(s); i++ {
		lower := s[i] >= 'a' && s[i] <= 'z'
		if lower && !in {
			n++
		}
		in = lower
	}
	return n
}
