package rules

import (
	"context"
	"fmt"
	"go/token"
	"go/types"
	"io/fs"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/docreview/docreview/retrieval"
	"github.com/docreview/docreview/review"
	"github.com/docreview/docreview/review/prose"
)

var _ review.Judge = (*StaleReference)(nil)

// StaleReference is the stale-reference rule: a claim names an identifier
// (a doc link, a backticked name or an identifier-shaped word) that does not
// exist at head, and either the diff renamed or removed it, or exactly one
// close name exists. It labels the claim contradicted and, when the
// replacement is certain, suggests the text with the name replaced.
//
// When nothing close exists, the repository's history may still know the
// name: a commit that removed its declaration and added exactly one of the
// same kind in its place renamed it (see review.History). A doc comment
// whose first word misspells its own symbol is reported too,
// with the symbol's name as the fix. Names of the standard library and of
// third-party packages, Go keywords and predeclared identifiers, the
// claim's own symbol and parameters, names inside code blocks (see
// [Snippet]), receiver-less names of methods or fields that some type has,
// plurals of existing names, quoted example words, names declared in test
// files (for claims in test files) and anything in change logs are never
// reported; docs/rules.md lists the exact boundaries. The zero value is
// ready to use and safe for concurrent use.
type StaleReference struct {
	testNames memo[map[string]bool]
	foreign   memo[bool]
	proposals proposals
	history   memo[*review.Commit]
	budget    memo[*historyBudget]
}

// Name returns "stale-reference".
func (*StaleReference) Name() string { return "stale-reference" }

// staleKind says why a name is stale.
type staleKind int

const (
	staleSuggested      staleKind = iota // no such name; a unique close one exists
	staleRenamed                         // the diff renamed it
	staleRemoved                         // the diff removed it
	staleOwn                             // a doc comment opens with a misspelling of its symbol
	staleRenamedEarlier                  // an earlier commit renamed it (from the history)
	staleAbsent                          // no such name where Go puts it, and no certain replacement
	staleEdited                          // the diff wrote it in place of a name that exists
	staleSibling                         // a doc comment opens with a sibling's name, copied from its doc
	staleVariant                         // a sentence copied from a sibling's doc keeps a name of the sibling's
)

// stale is one stale name of a claim.
type stale struct {
	kind    staleKind
	mention review.Mention
	name    string // the name as written, normalised ("Store.Flush")
	repl    string // the replacement in the same form; "" when unknown
	newSym  retrieval.Symbol
	hasNew  bool
	change  review.SymbolRef // the diff side that changed (New for renames)
	oldName string           // the changed symbol's old qualified name
	// removedIn is the earlier commit that removed the name, when the
	// history says so cheaply.
	removedIn *review.Commit
	// absent says where an absent name was looked for.
	absent absence
	// opening: the diff put another declaration's name first in the doc
	// comment, where its own symbol's name was (staleEdited).
	opening bool
	// sibling is the declaration whose doc a staleSibling doc copies.
	sibling retrieval.Symbol
}

// Judge reports the claim's stale names, or nil when every name resolves or
// no certain correction exists. It fails only when the diff's symbol
// changes cannot be computed.
func (r *StaleReference) Judge(ctx context.Context, ws *review.Workspace, c review.Claim) (*review.Verdict, error) {
	if ws == nil || ws.Symbols == nil || isHistory(c.Path) || isOtherVersionDoc(ws, c.Path) || r.proposals.is(ws, c.Path) {
		return nil, nil
	}
	if c.Kind == review.KindMarkdown {
		if foreign, _ := r.foreign.get(ws, c.Path, func() (bool, error) { return foreignDoc(ws, c.Path), nil }); foreign {
			// A guide to another language's client of the project
			// (AthenZ's Java ZTSClient.cancelPrefetch(), thrift's
			// Node.js TBinaryProtocol.readI64) names that language's
			// API, which a Go type of the same name does not have.
			return nil, nil
		}
	}
	sc := newScope(ws.Symbols, c)
	skip := ownNames(sc, c)
	var (
		found []stale
		seen  = map[string]bool{}
	)
	mentions := withOpening(c)
	if m, ok, err := r.renamedOpening(ctx, ws, c, mentions); err != nil {
		return nil, err
	} else if ok {
		mentions = append([]review.Mention{m}, mentions...)
	}
	found = append(found, r.editedNames(ws, sc, c, seen, skip)...)
	if s, ok := siblingOpening(sc, c); ok && !seen[s.name] {
		seen[s.name] = true
		found = append(found, s)
	}
	if s, ok := siblingVariant(sc, c); ok && !seen[s.name] {
		seen[s.name] = true
		found = append(found, s)
	}
	for _, m := range mentions {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if inBlock(c.Mentions, m) {
			continue
		}
		if m.Kind == review.MentionDocLink && strings.Contains(m.Text, "/") {
			var ok bool
			if m, ok = moduleDocLink(sc, m); !ok {
				continue
			}
		}
		name, ok := refName(m)
		if !ok || seen[name] || skip[name] {
			continue
		}
		seen[name] = true
		if historySection(c, name) {
			continue // a list of breaking changes names what is gone
		}
		local, typed, isLocal := throughLocal(sc, c, name)
		if isLocal && typed == "" {
			continue // a member of a type docreview cannot see
		}
		checked := name
		if isLocal {
			checked = typed
		}
		s, ok, err := r.check(ctx, ws, sc, c, m, checked)
		if err != nil {
			return nil, err
		}
		if !ok {
			continue
		}
		if isLocal {
			// Report and fix the name as written: "c.Run", not
			// "Command.Run".
			s.name = name
			if s.repl != "" {
				s.repl = local + "." + lastPart(s.repl)
			}
			for i, n := range s.absent.near {
				s.absent.near[i] = local + "." + lastPart(n)
			}
		}
		found = append(found, s)
	}
	if len(found) == 0 {
		return nil, nil
	}
	return r.verdict(ctx, ws, sc, c, found), nil
}

// check decides whether name, mentioned by m, is stale.
func (r *StaleReference) check(ctx context.Context, ws *review.Workspace, sc scope, c review.Claim, m review.Mention, name string) (stale, bool, error) {
	single := !strings.Contains(name, ".")
	if single && isBuiltin(name) {
		return stale{}, false, nil
	}
	if single && specSpelling(sc, name) {
		return stale{}, false, nil
	}
	if isFile(ws.HeadFS, c.Path, name) || sc.resolves(name) || plural(sc, name) {
		return stale{}, false, nil
	}
	if single && (sc.hasMember(name) || ws.Symbols.Defined(name)) {
		return stale{}, false, nil
	}
	if single && !opensDoc(c, name) && memberVerb(sc, name) {
		// The opening word of a doc comment names its symbol, so
		// "SelectedItems returns" on SelectedItem stays a finding.
		return stale{}, false, nil
	}
	if m.Kind == review.MentionIdent && quotedOnly(c.Text, name) {
		// A prose word in double quotes is an example or a literal
		// ("NewStore"), not a reference.
		return stale{}, false, nil
	}
	if single && m.Kind != review.MentionDocLink && c.Kind == review.KindDocComment && !opensDoc(c, name) {
		// (The opening word names the doc's own declaration, never an
		// imported type: "LevelFilter returns a LevelFilter" on a func
		// this diff renamed stays a finding beside logutils.LevelFilter;
		// nor is a name of the package that this diff renamed or
		// removed: ndp's "an error from ParseMessage" after ParseMessage
		// became ParseNo, beside x/net/icmp's ParseMessage.)
		if p := sc.syms.Package(c.Package); p != nil && p.Types != nil && (importExports(p, name) || importExports(p, strings.TrimSuffix(name, "s"))) &&
			!r.changedHere(ctx, ws, sc, name) {
			// A type of an imported package named bare
			// ("implements the RoundTripper interface" in a package
			// importing net/http, or its plural, "RoundTrippers") is
			// a loose reference to it, not a typo of one of ours.
			return stale{}, false, nil
		}
	}
	if strings.HasSuffix(c.Path, "_test.go") {
		names, err := r.testNames.get(ws, c.Package, func() (map[string]bool, error) { return testDecls(ws, c.Package), nil })
		if err != nil {
			return stale{}, false, err
		}
		first, _, _ := strings.Cut(name, ".")
		if names[name] || names[first] {
			return stale{}, false, nil
		}
	}
	s := stale{mention: m, name: name}
	changes, err := ws.Changes(ctx)
	if err != nil {
		return stale{}, false, fmt.Errorf("symbols changed by the diff: %w", err)
	}
	targets := sc.targets(name)
	if rn, repl, ok := matchRename(changes.Renamed, targets); ok {
		sym, found := sc.lookup(repl)
		if !found && !strings.Contains(repl, ".") && strings.Contains(rn.New.Name, ".") {
			// A receiver-less method or field name ("GetInt" for
			// FlagSet.GetInt) is looked up by its qualified new name.
			sym, found = ws.Symbols.Lookup(rn.New.Dir, rn.New.Name)
		}
		if found {
			s.kind, s.repl, s.newSym, s.hasNew = staleRenamed, repl, sym, true
			s.change, s.oldName = rn.New, rn.Old.Name
			return s, true, nil
		}
	}
	if single && c.Kind == review.KindDocComment && len(sc.syms.PackagesNamed(name)) == 0 {
		// A bare name of an imported module package that this diff
		// renamed, as the doc's own package does not declare it.
		if rn, repl, ok := matchRename(changes.Renamed, sc.importTargets(name)); ok {
			if sym, found := ws.Symbols.Lookup(rn.New.Dir, repl); found {
				s.kind, s.repl, s.newSym, s.hasNew = staleRenamed, repl, sym, true
				s.change, s.oldName = rn.New, rn.Old.Name
				return s, true, nil
			}
		}
	}
	if rm, ok := matchRemoval(changes.Removed, targets); ok {
		s.kind, s.change, s.oldName = staleRemoved, rm, rm.Name
		if repl, sym, ok := suggest(sc, targets, name); ok && repl != c.Symbol {
			s.repl, s.newSym, s.hasNew = repl, sym, true
		}
		return s, true, nil
	}
	if own, sym, ok := ownTypo(sc, c, name); ok {
		s.kind, s.repl, s.newSym, s.hasNew = staleOwn, own, sym, true
		return s, true, nil
	}
	if !anchored(sc, name) {
		return stale{}, false, nil
	}
	if single && m.Kind == review.MentionIdent && !opensDoc(c, name) && termOfNames(sc.syms.Package(c.Package), name) {
		// "DBaaS V2" beside the package's ServiceTypeDBaaS: a term of
		// the domain its names are made of, not a name (unless this
		// diff renamed or removed it, above).
		return stale{}, false, nil
	}
	if single && !opensDoc(c, name) && m.Kind == review.MentionIdent && c.Kind == review.KindDocComment {
		if p := sc.syms.Package(c.Package); p != nil && p.Platform != "" {
			// A package read for another platform documents that
			// platform's API in its own words (go-winio's "We do not
			// use WaitNamedPipe", wmi's "loads a SWbemObject"): a bare
			// name it lacks is the platform's, not a stale one of ours.
			return stale{}, false, nil
		}
	}
	if single && c.Kind == review.KindMarkdown && anyImportExports(sc, name) {
		// Unless this diff renamed or removed it, a single name in
		// Markdown that a package the module imports exports is that
		// package's: a README saying a type implements `Stringer`
		// means fmt's, not a typo of String.
		return stale{}, false, nil
	}
	repl, sym, ok := abbreviated(sc, name)
	if !ok {
		repl, sym, ok = suggest(sc, targets, name)
	}
	if !ok && single && (m.Kind == review.MentionCode || m.Kind == review.MentionDocLink || identShaped(name)) {
		// A receiver-less member name ("the `Wakl` method") is
		// checked against the fields and methods of the scope's types.
		repl, sym, ok = sc.closeMember(name)
	}
	if !ok && (m.Kind == review.MentionCode || m.Kind == review.MentionDocLink) {
		// No close name: an earlier commit may have renamed it.
		if rc := r.removedIn(ctx, ws, sc, name); rc != nil && len(rc.Added) == 1 {
			prefix := ""
			if q, _, dotted := strings.Cut(name, "."); dotted && len(sc.packagesNamed(q)) > 0 {
				prefix = q + "."
			}
			if sym, found := sc.lookup(prefix + rc.Added[0]); found && prefix+rc.Added[0] != c.Symbol {
				s.kind, s.repl, s.newSym, s.hasNew, s.removedIn = staleRenamedEarlier, prefix+rc.Added[0], sym, true, rc
				return s, true, nil
			}
		}
	}
	if ok && repl == c.Symbol {
		return stale{}, false, nil
	}
	if ok && termBesideName(ws, c, m, name, sym) {
		return stale{}, false, nil
	}
	if !ok {
		a, absent := absentIn(ws, sc, c, m, name)
		if !absent {
			return stale{}, false, nil
		}
		s.kind, s.absent = staleAbsent, a
		return s, true, nil
	}
	s.kind, s.repl, s.newSym, s.hasNew = staleSuggested, repl, sym, true
	s.removedIn = r.removedIn(ctx, ws, sc, name)
	return s, true, nil
}

// termBesideName reports whether a bare name of a doc's prose, close to
// the existing sym, is a term of its own rather than sym misspelt: the
// repository's code uses the word (folio's "PDF BaseFont name" beside
// ParseFont, the code writing "/BaseFont"), or sym's own doc names it,
// so its author knows both ("timeStampResp is the ASN.1 TimeStampResp
// structure"; "parseChainSubRule reads a ChainSubRule"). The opening
// word of a doc names its symbol and stays checked.
func termBesideName(ws *review.Workspace, c review.Claim, m review.Mention, name string, sym retrieval.Symbol) bool {
	if m.Kind != review.MentionIdent || strings.Contains(name, ".") || opensDoc(c, name) {
		return false
	}
	return repoPlainWords(ws)[name] || otherDocNames(c, sym, name)
}

// changedHere reports whether this diff renamed or removed a declaration
// that name, as the claim's scope reads it, meant.
func (r *StaleReference) changedHere(ctx context.Context, ws *review.Workspace, sc scope, name string) bool {
	changes, err := ws.Changes(ctx)
	if err != nil {
		return false
	}
	targets := sc.targets(name)
	if _, _, ok := matchRename(changes.Renamed, append(targets, sc.importTargets(name)...)); ok {
		return true
	}
	_, ok := matchRemoval(changes.Removed, targets)
	return ok
}

// specSpelling reports whether name, in capitals and underscores, is the
// spelling of a protocol or a C API for a name of the scope's package
// written in mixed caps: FerretDB's OpMsg documented as "OP_MSG",
// crypto11's CkaEcdsaParams as "CKA_ECDSA_PARAMS".
func specSpelling(sc scope, name string) bool {
	if !strings.Contains(name, "_") || strings.ToUpper(name) != name {
		return false
	}
	folded := strings.ReplaceAll(strings.ToLower(name), "_", "")
	for _, d := range sc.dirs {
		p := sc.syms.Package(d)
		if p == nil || p.Types == nil {
			continue
		}
		for _, n := range p.Types.Scope().Names() {
			if !strings.Contains(n, "_") && strings.ToLower(n) == folded {
				return true
			}
		}
	}
	return false
}

// removedIn asks the repository's history, within
// [staleHistoryTimeout], which commit removed the declaration of name;
// nil when there is no history, nothing is found in time, or git fails.
// A name qualified by a module package's name is asked without the
// qualifier.
func (r *StaleReference) removedIn(ctx context.Context, ws *review.Workspace, sc scope, name string) *review.Commit {
	if ws.History == nil {
		return nil
	}
	if q, rest, ok := strings.Cut(name, "."); ok && len(sc.packagesNamed(q)) > 0 {
		name = rest
	}
	budget, _ := r.budget.get(ws, "", func() (*historyBudget, error) {
		return &historyBudget{left: staleHistoryBudget}, nil
	})
	c, _ := r.history.get(ws, name, func() (*review.Commit, error) {
		limit := budget.take(staleHistoryTimeout)
		if limit <= 0 {
			return nil, nil
		}
		ctx, cancel := context.WithTimeout(ctx, limit)
		defer cancel()
		start := time.Now()
		c, ok, err := ws.History.RemovedIn(ctx, name)
		budget.giveBack(limit - time.Since(start))
		if err != nil || !ok {
			return nil, nil // history only adds to a finding
		}
		return &c, nil
	})
	return c
}

// The history lookups of one review take at most staleHistoryTimeout per
// name and staleHistoryBudget in all; past that, names get no history.
const (
	staleHistoryTimeout = 2 * time.Second
	staleHistoryBudget  = 10 * time.Second
)

// historyBudget is the time left for one review's history lookups.
type historyBudget struct {
	mu   sync.Mutex
	left time.Duration
}

// take reserves up to d of the budget and returns what it reserved.
func (b *historyBudget) take(d time.Duration) time.Duration {
	b.mu.Lock()
	defer b.mu.Unlock()
	d = min(d, b.left)
	b.left -= d
	return d
}

// giveBack returns an unused part of a reservation.
func (b *historyBudget) giveBack(d time.Duration) {
	if d <= 0 {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.left += d
}

// verdict turns the stale names of a claim into one contradicted verdict.
func (r *StaleReference) verdict(ctx context.Context, ws *review.Workspace, sc scope, c review.Claim, found []stale) *review.Verdict {
	v := &review.Verdict{Label: review.Contradicted, Rule: r.Name(), Confidence: 1}
	var parts []string
	suggestion, certain := c.Text, true
	for _, s := range found {
		hop := s.name + " (doc)"
		switch s.kind {
		case staleRenamed:
			parts = append(parts, fmt.Sprintf("%s was renamed to %s in this diff", s.name, s.repl))
			v.Confidence = min(v.Confidence, 0.95)
		case staleRemoved:
			p := fmt.Sprintf("%s was removed in this diff", s.name)
			if s.repl != "" {
				p += fmt.Sprintf(" (the closest existing name is %s)", s.repl)
			}
			parts = append(parts, p)
			v.Confidence = min(v.Confidence, 0.9)
		case staleRenamedEarlier:
			parts = append(parts, fmt.Sprintf("%s was renamed to %s in commit %s (%s, %q)", s.name, s.repl, s.removedIn.Short, s.removedIn.Date, s.removedIn.Subject))
			v.Confidence = min(v.Confidence, 0.85)
		case staleOwn:
			parts = append(parts, fmt.Sprintf("the doc comment of %s opens with %s, which does not exist; it should name %s", c.Symbol, s.name, s.repl))
			v.Confidence = min(v.Confidence, 0.8)
		case staleSibling, staleVariant:
			parts = append(parts, siblingMessage(c, s))
			v.Confidence = min(v.Confidence, 0.8)
			if s.sibling.DocLine > 0 {
				v.Evidence = append(v.Evidence, review.Evidence{
					Path: s.sibling.Path, StartLine: s.sibling.DocLine, EndLine: max(s.sibling.DocEndLine, s.sibling.DocLine), Source: review.SourceCode,
					Why: siblingWhy(s), Hops: []string{hop, s.sibling.Name},
				})
			}
		case staleSuggested:
			p := fmt.Sprintf("%s does not exist", s.name)
			if s.newSym.Package != nil {
				p += " in package " + s.newSym.Package.Name
			}
			p += fmt.Sprintf(" (the closest existing name is %s)", s.repl)
			if s.removedIn != nil {
				p += fmt.Sprintf("; it was removed in commit %s (%s, %q)", s.removedIn.Short, s.removedIn.Date, s.removedIn.Subject)
			}
			parts = append(parts, p)
			v.Confidence = min(v.Confidence, 0.8)
		case staleEdited:
			if s.opening {
				parts = append(parts, fmt.Sprintf("this diff made %s the first word of the doc comment of %s, where %s was; by Go convention a doc comment opens with the name of what it documents", s.name, c.Symbol, s.repl))
			} else {
				parts = append(parts, fmt.Sprintf("this diff replaced %s with %s, which does not exist", s.repl, s.name))
			}
			v.Confidence = min(v.Confidence, 0.85)
			if ev, ok := docHunk(ws, c); ok {
				ev.Why = fmt.Sprintf("this diff replaced %s with %s in the doc", s.repl, s.name)
				ev.Hops = []string{hop, "diff " + ev.Path}
				v.Evidence = append(v.Evidence, ev)
			}
		case staleAbsent:
			parts = append(parts, absentMessage(s))
			v.Confidence = min(v.Confidence, 0.7)
			v.Evidence = append(v.Evidence, absentEvidence(ws, sc, c, s, hop))
		}
		if s.hasNew {
			ref := ws.Symbols.Definition(s.newSym)
			start, end := lineRange(ref.Line, ref.EndLine)
			why := "defines " + s.repl
			switch s.kind {
			case staleOwn, staleSibling:
				why = fmt.Sprintf("defines %s, the declaration this doc comment documents", c.Symbol)
			case staleRenamedEarlier:
				why += fmt.Sprintf(" (renamed from %s in commit %s)", lastPart(s.name), s.removedIn.Short)
			}
			v.Evidence = append(v.Evidence, review.Evidence{
				Path: ref.Path, StartLine: start, EndLine: end, Source: review.SourceCode,
				Why: why, Hops: []string{hop, s.newSym.Name},
			})
		}
		if s.kind == staleRenamed || s.kind == staleRemoved || s.kind == staleOwn {
			if ev, ok := hunkEvidence(ws.Diff, s.change, s.kind == staleRemoved); ok {
				ev.Hops = []string{hop, "diff " + ev.Path}
				if s.kind == staleRenamed {
					ev.Why = fmt.Sprintf("%s renamed to %s in this diff", s.oldName, s.change.Name)
				} else {
					ev.Why = fmt.Sprintf("%s removed in this diff", s.oldName)
				}
				v.Evidence = append(v.Evidence, ev)
			} else if !s.hasNew {
				// The file that declared it is gone: the doc line itself is
				// the only thing at head to point at.
				start, end := lineRange(s.mention.Line, s.mention.EndLine)
				v.Evidence = append(v.Evidence, review.Evidence{
					Path: c.Path, StartLine: start, EndLine: end, Source: review.SourceDoc,
					Why: fmt.Sprintf("mentions %s, which this diff removes", s.name), Hops: []string{hop},
				})
			}
		}
		if s.hasNew && s.kind != staleSibling && s.kind != staleVariant {
			if ev, ok := usageEvidence(ctx, ws, s.newSym, s.repl); ok && bearsOn(ws, ev, c.Text, staleNames(found)) {
				ev.Hops = append([]string{hop}, ev.Hops...)
				v.Evidence = append(v.Evidence, ev)
			}
		}
		if s.repl == "" {
			certain = false
			continue
		}
		var n int
		if suggestion, n = replaceName(suggestion, s.name, s.repl); n == 0 {
			certain = false
		}
	}
	v.Message = strings.Join(parts, "; ") + "."
	if rest, ok := strings.CutPrefix(v.Message, "the "); ok {
		v.Message = "The " + rest // never capitalise an identifier
	} else if rest, ok := strings.CutPrefix(v.Message, "this diff "); ok {
		v.Message = "This diff " + rest
	}
	if certain && suggestion != c.Text {
		v.Suggestion = suggestion
	}
	return v
}

// target is a way to read a mentioned name: rel resolved from package
// directory dir, with prefix (a package qualifier and dot, or "") in front
// of it as written.
type target struct {
	dir, rel, prefix string
}

// targets lists the readings of name in the scope: from each of its
// directories as written, and, when name starts with the name of a module
// package, from that package without the qualifier.
func (s scope) targets(name string) []target {
	var ts []target
	for _, d := range s.dirs {
		ts = append(ts, target{dir: d, rel: name})
	}
	if pkg, rest, ok := strings.Cut(name, "."); ok {
		for _, p := range s.packagesNamed(pkg) {
			ts = append(ts, target{dir: p.Dir, rel: rest, prefix: pkg + "."})
		}
	}
	return ts
}

// importTargets lists the readings of a single name of a doc comment as
// a declaration of a module package its package imports: an example
// program's doc that writes a library's func bare ("Uses only two library
// functions, SerializeHeader and SerializeEntries").
func (s scope) importTargets(name string) []target {
	if s.markdown || strings.Contains(name, ".") {
		return nil
	}
	p := s.syms.Package(s.primary())
	if p == nil || p.Types == nil {
		return nil
	}
	var ts []target
	for _, imp := range p.Types.Imports() {
		if q := s.syms.PackageByPath(imp.Path()); q != nil && q.Dir != p.Dir {
			ts = append(ts, target{dir: q.Dir, rel: name})
		}
	}
	return ts
}

// matchRename finds the rename that makes name stale and the name as it
// reads after the rename, in the same qualification form. It fails when no
// rename or several different ones match.
func matchRename(renames []review.Rename, ts []target) (review.Rename, string, bool) {
	var (
		match review.Rename
		repls []string
	)
	for _, rn := range renames {
		for _, t := range ts {
			if rn.Old.Dir != t.dir {
				continue
			}
			if repl, ok := renamed(t.rel, rn.Old.Name, rn.New.Name); ok {
				match = rn
				repls = append(repls, t.prefix+repl)
			}
		}
	}
	if repls = uniq(repls); len(repls) != 1 {
		return review.Rename{}, "", false
	}
	return match, repls[0], true
}

// renamed rewrites rel after old was renamed to neu: rel is old itself, a
// member of old ("Store.Reserve" after the type Store was renamed), or the
// receiver-less name of the method or field old.
func renamed(rel, old, neu string) (string, bool) {
	switch {
	case rel == old:
		return neu, true
	case strings.HasPrefix(rel, old+"."):
		return neu + rel[len(old):], true
	case !strings.Contains(rel, ".") && strings.Contains(old, ".") && lastPart(old) == rel:
		return lastPart(neu), true
	}
	return "", false
}

// matchRemoval finds the unique removed symbol name refers to.
func matchRemoval(removed []review.SymbolRef, ts []target) (review.SymbolRef, bool) {
	var matches []review.SymbolRef
	for _, rm := range removed {
		for _, t := range ts {
			if rm.Dir != t.dir {
				continue
			}
			if _, ok := renamed(t.rel, rm.Name, rm.Name); ok && !slices.Contains(matches, rm) {
				matches = append(matches, rm)
			}
		}
	}
	if len(matches) != 1 {
		return review.SymbolRef{}, false
	}
	return matches[0], true
}

// suggest returns the unique close module name for name, in the same form.
func suggest(sc scope, ts []target, name string) (string, retrieval.Symbol, bool) {
	var cands []string
	for _, t := range ts {
		if sc.syms.Package(t.dir) == nil && (t.dir != "." || sc.markdown && !strings.Contains(t.rel, ".")) {
			// Markdown outside every package: a single name has no
			// package to be close to a name of.
			continue
		}
		if s, ok := sc.syms.Suggest(t.dir, t.rel); ok && s != t.rel {
			cands = append(cands, t.prefix+s)
		}
	}
	cands = uniq(cands)
	if len(cands) != 1 || !sameForm(name, cands[0]) {
		return "", retrieval.Symbol{}, false
	}
	if q, rest, ok := strings.Cut(name, "."); ok && !strings.Contains(rest, ".") && stdRival(sc, q, rest, lastPart(cands[0])) {
		return "", retrieval.Symbol{}, false
	}
	first, _, dotted := strings.Cut(name, ".")
	member := dotted && len(sc.packagesNamed(first)) == 0
	sym, ok := sc.lookup(cands[0])
	if !ok || !certainlyClose(name, cands[0], sym.Package, member) {
		return "", retrieval.Symbol{}, false
	}
	return cands[0], sym, true
}

// withOpening returns the claim's mentions, and for a doc comment whose
// first word has identifier shape but is not among them, that word too:
// by Go convention it names the symbol, so a misspelling of it is drift
// even when the extractor found nothing close to it.
func withOpening(c review.Claim) []review.Mention {
	if c.Kind != review.KindDocComment || c.Symbol == "" {
		return c.Mentions
	}
	first, _, _ := strings.Cut(strings.TrimSpace(c.Text), " ")
	first = strings.TrimRight(first, ",.:;")
	if !identShaped(trimCall(first)) || strings.Contains(first, ".") {
		return c.Mentions
	}
	for _, m := range c.Mentions {
		if m.Text == trimCall(first) {
			return c.Mentions
		}
	}
	opening := review.Mention{Kind: review.MentionIdent, Text: first, Line: c.Line, EndLine: c.Line}
	return append([]review.Mention{opening}, c.Mentions...)
}

// moduleDocLink rewrites a doc link by import path
// ("[example.com/shop/sub.Open]") to the package-name form ("sub.Open")
// when the path is a module package; false for any other path (the
// standard library, third-party packages).
func moduleDocLink(sc scope, m review.Mention) (review.Mention, bool) {
	text := strings.TrimPrefix(strings.TrimSpace(m.Text), "*")
	slash := strings.LastIndexByte(text, '/')
	dot := strings.IndexByte(text[slash+1:], '.')
	if dot < 0 {
		return m, false
	}
	path, rest := text[:slash+1+dot], text[slash+1+dot+1:]
	p := sc.syms.PackageByPath(path)
	if p == nil || p.Types == nil {
		return m, false
	}
	m.Text = p.Types.Name() + "." + rest
	return m, true
}

// renamedOpening returns, for a doc comment whose symbol this diff renamed
// and whose first word is still the old name, that word as a mention. By
// Go convention the first word names the symbol, so the old name there is
// drift even when it is a plain word ("Subrouter creates...") that
// [withOpening] leaves alone.
func (r *StaleReference) renamedOpening(ctx context.Context, ws *review.Workspace, c review.Claim, have []review.Mention) (review.Mention, bool, error) {
	if c.Kind != review.KindDocComment || c.Symbol == "" {
		return review.Mention{}, false, nil
	}
	first, _, _ := strings.Cut(strings.TrimSpace(c.Text), " ")
	first = strings.TrimRight(first, ",.:;")
	if !token.IsIdentifier(first) || !token.IsExported(first) || first == lastPart(c.Symbol) {
		return review.Mention{}, false, nil
	}
	for _, m := range have {
		if m.Text == first {
			return review.Mention{}, false, nil
		}
	}
	changes, err := ws.Changes(ctx)
	if err != nil {
		return review.Mention{}, false, fmt.Errorf("symbols changed by the diff: %w", err)
	}
	for _, rn := range changes.Renamed {
		if rn.New.Name == c.Symbol && rn.New.Path == c.Path && lastPart(rn.Old.Name) == first {
			// MentionCode: the word is a name by convention, whatever
			// its shape.
			return review.Mention{Kind: review.MentionCode, Text: first, Line: c.Line, EndLine: c.Line}, true, nil
		}
	}
	return review.Mention{}, false, nil
}

// opensDoc reports whether name is the first word of doc comment c.
func opensDoc(c review.Claim, name string) bool {
	if c.Kind != review.KindDocComment {
		return false
	}
	first, _, _ := strings.Cut(strings.TrimSpace(c.Text), " ")
	return trimCall(strings.TrimRight(first, ",.:;")) == name
}

// ownTypo recognises a doc comment that opens with a misspelling of its own
// symbol ("AddOption adds" on AddOptions): the Go convention makes the
// first word the symbol's name, so the correction is certain.
func ownTypo(sc scope, c review.Claim, name string) (string, retrieval.Symbol, bool) {
	if c.Kind != review.KindDocComment || c.Symbol == "" || strings.Contains(name, ".") {
		return "", retrieval.Symbol{}, false
	}
	own := lastPart(c.Symbol)
	if !opensDoc(c, name) || own == name || token0Exported(own) != token0Exported(name) ||
		prose.EditDistance(strings.ToLower(own), strings.ToLower(name)) > max(1, len([]rune(own))/3) {
		return "", retrieval.Symbol{}, false
	}
	sym, ok := sc.syms.Lookup(sc.primary(), c.Symbol)
	if !ok || !sc.inModule(sym) {
		return "", retrieval.Symbol{}, false
	}
	return own, sym, true
}

// ownNames lists names a claim may use freely: its own symbol and, for a
// function or method, its receiver, parameter and result names.
func ownNames(sc scope, c review.Claim) map[string]bool {
	skip := map[string]bool{}
	if c.Symbol == "" {
		return skip
	}
	skip[c.Symbol] = true
	skip[lastPart(c.Symbol)] = true
	if c.Kind == review.KindMarkdown {
		return skip
	}
	sig, ok := funcSignature(sc.syms, sc.primary(), c.Symbol)
	if !ok {
		return skip
	}
	if rv := sig.Recv(); rv != nil {
		skip[rv.Name()] = true
	}
	for _, tuple := range []*types.Tuple{sig.Params(), sig.Results()} {
		for v := range tuple.Variables() {
			skip[v.Name()] = true
		}
	}
	return skip
}

// staleNames are the stale names of a claim and their replacements: none
// of them is another member the claim names.
func staleNames(found []stale) []string {
	var names []string
	for _, s := range found {
		names = append(names, s.name, s.repl)
	}
	return names
}

// memberRefRE matches a dotted reference (Options.Now, inventory.New).
var memberRefRE = regexp.MustCompile(`\b[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)+`)

// bearsOn reports whether usage evidence (a test or example of the
// replacement) bears on the claim: when the claim names members besides
// the stale names and their replacements (Options.Now in "create the store
// with inventory.NewStore and an Options.Now function"), the usage must
// use one of them, so that a test that merely calls the new name
// (TestAddEmptySKU) is not cited as if it showed what the doc describes.
// A claim that names nothing else keeps the usage.
func bearsOn(ws *review.Workspace, ev review.Evidence, claim string, names []string) bool {
	skip := map[string]bool{}
	for _, n := range names {
		for _, p := range strings.Split(n, ".") {
			skip[p] = true
		}
	}
	var terms []string
	for _, ref := range memberRefRE.FindAllString(claim, -1) {
		parts := strings.Split(ref, ".")
		if m := parts[len(parts)-1]; !skip[m] && m != "" && m[0] >= 'A' && m[0] <= 'Z' {
			terms = append(terms, m)
		}
	}
	if len(terms) == 0 {
		return true
	}
	data, err := fs.ReadFile(ws.HeadFS, ev.Path)
	if err != nil {
		return true
	}
	lines := strings.Split(string(data), "\n")
	from, to := max(ev.StartLine, 1), min(max(ev.EndLine, ev.StartLine), len(lines))
	if from > to {
		return true
	}
	text := strings.Join(lines[from-1:to], "\n")
	for _, t := range terms {
		if countWord(text, t) > 0 {
			return true
		}
	}
	return false
}

// foreignLangs are the fence languages of code other than Go.
var foreignLangs = map[string]bool{
	"java": true, "js": true, "javascript": true, "ts": true, "typescript": true, "python": true, "py": true,
	"rust": true, "rs": true, "c": true, "cpp": true, "c++": true, "cs": true, "csharp": true, "kotlin": true,
	"kt": true, "swift": true, "php": true, "ruby": true, "rb": true, "scala": true, "dart": true,
	"objc": true, "objective-c": true, "perl": true, "lua": true, "erlang": true, "elixir": true, "haskell": true,
}

// foreignDoc reports whether the Markdown file at path shows code of
// another programming language and no Go: its fenced blocks are in Java,
// JavaScript, Python… and none in Go.
func foreignDoc(ws *review.Workspace, path string) bool {
	src, err := fs.ReadFile(ws.HeadFS, path)
	if err != nil {
		return false
	}
	foreign := false
	for line := range strings.Lines(string(src)) {
		t := strings.TrimSpace(line)
		if !strings.HasPrefix(t, "```") && !strings.HasPrefix(t, "~~~") {
			continue
		}
		info := strings.ToLower(strings.Trim(strings.TrimLeft(t, "`~"), " {}."))
		if f := strings.Fields(info); len(f) > 0 {
			info = f[0]
		}
		if isGoLang(info) {
			return false
		}
		foreign = foreign || foreignLangs[info]
	}
	return foreign
}
