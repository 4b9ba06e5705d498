package extract

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"path"
	"regexp"
	"slices"
	"sort"
	"strings"

	"golang.org/x/mod/modfile"

	"github.com/docreview/docreview/retrieval"
	"github.com/docreview/docreview/review"
	"github.com/docreview/docreview/review/diff"
	"github.com/docreview/docreview/review/prose"
)

// DefaultMaxMarkdownLines is the length above which Extract skips a
// Markdown file when [Extractor.MaxMarkdownLines] is zero.
const DefaultMaxMarkdownLines = 200000

// Extractor finds the claims of a review in Go doc comments and Markdown
// files. The zero value is ready to use.
type Extractor struct {
	// Logger receives debug records of the extraction; nil discards them.
	Logger *slog.Logger
	// MaxMarkdownLines is the number of lines above which a Markdown file is
	// skipped with a note; zero means DefaultMaxMarkdownLines.
	MaxMarkdownLines int
}

var (
	_ review.Extractor = (*Extractor)(nil)
	_ review.DocReader = (*Extractor)(nil)
)

// FileClaims returns the claims of one file's contents: [GoClaims] for a
// .go file, [MarkdownClaims] for .md and .markdown, and an error for any
// other file.
func (e *Extractor) FileClaims(path string, src []byte) ([]review.Claim, error) {
	switch {
	case strings.HasSuffix(path, ".go"):
		return GoClaims(path, src)
	case strings.HasSuffix(path, ".md"), strings.HasSuffix(path, ".markdown"):
		return MarkdownClaims(path, src), nil
	}
	return nil, fmt.Errorf("read claims of %s: not a Go or Markdown file", path)
}

// TextMentions returns the mentions of text that need no resolution
// ([Mentions] with no resolver).
func (e *Extractor) TextMentions(text string) []review.Mention {
	return Mentions(text, 1, nil, "")
}

// Extract returns the claims of the files ws.HeadFiles lists (and
// ws.Reviewed selects, when set) that end in
// .go, .md or .markdown, selected by scope and sorted by path and line, and
// notes on files it could not fully read. A claim's Changed field is true
// when its lines intersect the lines the diff adds (for every claim of an
// added file).
//
//   - [review.ScopeChanged] selects the changed claims.
//   - [review.ScopeAffected] (also the empty scope) adds the doc comments
//     of Go declarations whose code intersects added lines and, when there
//     is a base to compare with, differs from the base in more than
//     comments and layout or was renamed (as [review.Workspace.Changes] reports), and claims
//     anywhere at head that mention a declaration [review.Workspace.Changes] reports
//     as changed, removed or renamed, by its name, "Type.Member", its last
//     component, a package-qualified name, or in a code block.
//   - [review.ScopeAll] selects every claim.
//
// Identifiers of prose are resolved with ws.Symbols; with nil Symbols, no
// bare word is an identifier, except the names the diff removes or
// renames, which count as defined in every scope. A file that cannot be
// read, a Markdown file longer than [Extractor.MaxMarkdownLines] or nested
// too deeply (see [MarkdownClaims]) and a Go file that does not parse give
// a note; the claims of the latter come from a comment-only scan and carry
// the note too. Extract fails only on a nil workspace or head file system,
// an unknown scope or a cancelled ctx.
func (e *Extractor) Extract(ctx context.Context, ws *review.Workspace, scope review.Scope) ([]review.Claim, []review.Note, error) {
	if ws == nil || ws.HeadFS == nil {
		return nil, nil, errors.New("extract claims: workspace has no head files")
	}
	return e.extract(ctx, ws, scope, resolverOf(ws))
}

// extract is Extract with the resolver given.
func (e *Extractor) extract(ctx context.Context, ws *review.Workspace, scope review.Scope, res Resolver) ([]review.Claim, []review.Note, error) {
	if ws == nil || ws.HeadFS == nil {
		return nil, nil, errors.New("extract claims: workspace has no head files")
	}
	switch scope {
	case "":
		scope = review.ScopeAffected
	case review.ScopeChanged, review.ScopeAffected, review.ScopeAll:
	default:
		return nil, nil, fmt.Errorf("extract claims: unknown scope %q", scope)
	}
	log := e.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	maxLines := e.MaxMarkdownLines
	if maxLines <= 0 {
		maxLines = DefaultMaxMarkdownLines
	}

	diffs := map[string]diff.File{}
	for _, f := range ws.Diff {
		if f.Status != diff.Deleted && f.NewPath != "" {
			diffs[f.NewPath] = f
		}
	}
	r := newMemo(res)
	var notes []review.Note
	var targets []target
	// valueDocs holds the doc comments ("dir\x00Client.RetryCount") of the
	// fields and funcs that take their value from a constant the diff
	// changed.
	var valueDocs map[string]bool
	// valueTopics are the constants the diff changed, by the words of
	// their names, for the docs that state their value in words.
	var valueTopics []valueTopic
	// declChanged reports whether the code of a documented declaration
	// changed; without a base to compare with, any added line in it counts.
	declChanged := func(dir string, names []string, from, to int, f diff.File) bool {
		return f.Status == diff.Added || f.Touches(from, to)
	}
	// Every scope resolves the names the diff removes or renames, so that a
	// claim's mentions do not depend on the scope that selected it.
	if len(ws.Diff) > 0 {
		changes, err := ws.Changes(ctx)
		if err != nil {
			if ctx.Err() != nil {
				return nil, nil, ctx.Err()
			}
			notes = append(notes, review.Note{Message: "changed symbols may be incomplete: " + err.Error()})
		}
		if scope == review.ScopeAffected {
			targets = targetsOf(changes)
			var flowTargets []target
			valueDocs, flowTargets = valueFlowTargets(ws.Symbols, changes, func(path string, line int) bool {
				f, ok := diffs[path]
				return ok && f.AddedAt(line)
			})
			targets = append(targets, flowTargets...)
			valueTopics = valueTopicsOf(changes)
		}
		r.extra = extraNames(changes)
		if err == nil && ws.BaseFS != nil {
			// Only code changes count: a struct whose field comments
			// change keeps its own doc out of the review.
			code := map[string]bool{}
			for _, c := range changes.Changed {
				code[c.Dir+"\x00"+c.Name] = true
			}
			for _, rn := range changes.Renamed {
				code[rn.New.Dir+"\x00"+rn.New.Name] = true
			}
			declChanged = func(dir string, names []string, from, to int, f diff.File) bool {
				if f.Status == diff.Added {
					return true
				}
				if !f.Touches(from, to) {
					return false
				}
				for _, name := range names {
					if code[dir+"\x00"+name] {
						return true
					}
				}
				return false
			}
		}
		log.Debug("changed symbols", "stage", "extract", "changed", len(changes.Changed),
			"removed", len(changes.Removed), "renamed", len(changes.Renamed))
	}

	// A diff that changes a go.mod's go line affects every doc that states
	// a minimum Go release.
	goLine := scope == review.ScopeAffected && goLineChanged(ws.HeadFS, diffs)
	// A diff that registers a flag anew (another default, another usage)
	// affects every help output copied into the docs that prints it.
	var flags []string
	if scope == review.ScopeAffected {
		flags = changedFlags(ws.HeadFS, diffs)
	}

	var claims []review.Claim
	for _, p := range ws.HeadFiles {
		kind := docKind(p)
		if kind == "" || ws.Reviewed != nil && !ws.Reviewed(p) || toolDir(p) {
			continue
		}
		f, inDiff := diffs[p]
		if !inDiff && (scope == review.ScopeChanged || scope == review.ScopeAffected && len(targets) == 0 && !goLine && len(flags) == 0) {
			continue
		}
		if err := ctx.Err(); err != nil {
			return nil, nil, err
		}
		src, err := fs.ReadFile(ws.HeadFS, p)
		if err != nil {
			notes = append(notes, review.Note{Path: p, Message: "unreadable: " + err.Error()})
			continue
		}
		changed := func(from, to int) bool {
			return inDiff && (f.Status == diff.Added || f.Touches(from, to))
		}
		keep := func(c *review.Claim, declChanged bool) bool {
			c.Changed = changed(c.Line, c.EndLine)
			switch scope {
			case review.ScopeAll:
				return true
			case review.ScopeChanged:
				return c.Changed
			}
			return c.Changed || declChanged || mentionsAny(*c, targets) || copiesChanged(*c, targets) ||
				c.Kind == review.KindDocComment && valueDocs[c.Package+"\x00"+c.Symbol] ||
				statesTopicValue(*c, valueTopics) ||
				goLine && len(prose.GoRequirements(c.Text)) > 0 ||
				printsFlagDefault(c.Text, flags)
		}
		before := len(claims)
		switch kind {
		case "go":
			gcs, err := goClaims(p, src, r)
			if err != nil {
				notes = append(notes, review.Note{Path: p, Message: "file does not parse: " + err.Error()})
			}
			for _, g := range gcs {
				if keep(&g.Claim, inDiff && declChanged(g.Package, g.names, g.declLine, g.declEnd, f)) {
					claims = append(claims, g.Claim)
				}
			}
		case "markdown":
			if n := newLineIndex(src).count(); n > maxLines {
				notes = append(notes, review.Note{Path: p, Message: fmt.Sprintf("skipped: %d lines, more than the limit of %d", n, maxLines)})
				continue
			}
			mcs, err := markdownClaims(p, src, r)
			if err != nil {
				notes = append(notes, review.Note{Path: p, Message: err.Error()})
			}
			for i := range mcs {
				if keep(&mcs[i], false) {
					claims = append(claims, mcs[i])
				}
			}
		}
		log.Debug("extracted", "stage", "extract", "path", p, "claims", len(claims)-before)
	}
	sort.SliceStable(claims, func(i, j int) bool {
		a, b := claims[i], claims[j]
		if a.Path != b.Path {
			return a.Path < b.Path
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Symbol < b.Symbol
	})
	sort.SliceStable(notes, func(i, j int) bool { return notes[i].Path < notes[j].Path })
	log.Debug("extract done", "stage", "extract", "scope", string(scope), "claims", len(claims), "notes", len(notes))
	return claims, notes, nil
}

// toolDir reports whether p lies in a hidden directory other than
// .github's and .gitlab's: a tool's files (.claude/skills, .agents,
// .vscode), which address the tool, not the project's readers; the go
// command ignores such directories too. .github holds the project's
// CONTRIBUTING.md and translated READMEs.
func toolDir(p string) bool {
	dirs := strings.Split(p, "/")
	for _, d := range dirs[:len(dirs)-1] {
		if strings.HasPrefix(d, ".") && d != "." && d != ".." && d != ".github" && d != ".gitlab" {
			return true
		}
	}
	return false
}

// docKind returns "go" or "markdown" for the files claims come from, and ""
// for others.
func docKind(p string) string {
	switch strings.ToLower(path.Ext(p)) {
	case ".go":
		return "go"
	case ".md", ".markdown":
		return "markdown"
	}
	return ""
}

// resolverOf returns ws.Symbols as a Resolver, or nil when it is nil. The
// assignment also checks at compile time that the symbol table satisfies
// Resolver.
func resolverOf(ws *review.Workspace) Resolver {
	if ws.Symbols == nil {
		return nil
	}
	return ws.Symbols
}

// target is a changed, removed or renamed declaration that claims may
// mention.
type target struct {
	dir, pkg, name string
	// member is the part after the type for methods and fields ("Purge"
	// for "Cache.Purge"); empty for top-level names.
	member string
}

func targetsOf(c review.Changes) []target {
	var out []target
	add := func(s review.SymbolRef) {
		t := target{dir: s.Dir, pkg: strings.TrimSuffix(s.Package, "_test"), name: s.Name}
		if _, m, ok := strings.Cut(s.Name, "."); ok {
			t.member = m
		}
		out = append(out, t)
	}
	for _, s := range c.Changed {
		add(s)
	}
	for _, s := range c.Removed {
		add(s)
	}
	for _, r := range c.Renamed {
		add(r.Old)
	}
	return out
}

// extraNames returns the names that documentation may still use although
// the head symbol table no longer defines them.
func extraNames(c review.Changes) map[string]bool {
	names := map[string]bool{}
	add := func(s review.SymbolRef) {
		names[s.Name] = true
		if _, m, ok := strings.Cut(s.Name, "."); ok {
			names[m] = true
		}
	}
	for _, s := range c.Removed {
		add(s)
	}
	for _, r := range c.Renamed {
		add(r.Old)
	}
	return names
}

// mentionsAny reports whether the claim mentions one of the targets.
func mentionsAny(c review.Claim, targets []target) bool {
	if len(targets) == 0 {
		return false
	}
	var blockToks map[string]bool
	for _, m := range c.Mentions {
		switch m.Kind {
		case review.MentionDocLink, review.MentionCode, review.MentionIdent:
			name := strings.TrimLeft(m.Text, "*&")
			for _, t := range targets {
				if t.matchesName(c, name) {
					return true
				}
			}
		case review.MentionBlock:
			blockToks = identTokens(m.Text, blockToks)
		}
	}
	if blockToks == nil {
		return false
	}
	for _, t := range targets {
		if t.matchesBlock(c, blockToks) {
			return true
		}
	}
	return false
}

// copyDeclRE finds the names a Go block declares at the start of a line:
// "var ConfigDefault = …", "type Config struct", "const MaxSize", "func
// New(", and a method's name: "func (s *Store) Get(" declares Get.
var copyDeclRE = regexp.MustCompile(`(?m)^(?:var|const|type|func)\s+(?:\([^)]*\)\s*)?([A-Za-z_][A-Za-z0-9_]*)`)

// copiesChanged reports whether a Markdown claim's Go block copies a
// declaration of a package the diff changed: it declares a name the diff
// changed ("var ConfigDefault = Config{…}" after ConfigDefault changed),
// or a struct type of that package while the diff changed a default
// ("type Config struct" with its field docs' defaults, after
// ConfigDefault or New changed). The file must belong to the package: in
// its directory or below it, or named after it (docs/middleware/cache.md
// for middleware/cache).
func copiesChanged(c review.Claim, targets []target) bool {
	if c.Kind != review.KindMarkdown || len(targets) == 0 {
		return false
	}
	for _, m := range c.Mentions {
		if m.Kind != review.MentionBlock {
			continue
		}
		decls := copyDeclRE.FindAllStringSubmatch(m.Text, -1)
		if len(decls) == 0 {
			continue
		}
		for _, t := range targets {
			if !docOfPackage(c.Path, t.dir) {
				continue
			}
			for _, d := range decls {
				if d[1] == t.name || t.member != "" && d[1] == t.member {
					return true
				}
				if t.member == "" && strings.Contains(m.Text, "struct") && defaultsName(t.name) {
					return true
				}
			}
		}
	}
	return false
}

// defaultsName reports whether a changed name may give struct fields
// their defaults: a var or func named for defaults, or a constructor.
func defaultsName(name string) bool {
	return strings.Contains(strings.ToLower(name), "default") || strings.HasPrefix(name, "New")
}

// docOfPackage reports whether the Markdown file at p documents the
// package in dir: it lies in dir or below, or its name (without
// extension) is dir's last element.
func docOfPackage(p, dir string) bool {
	d := path.Dir(p)
	if dir == "." || d == dir || strings.HasPrefix(d, dir+"/") {
		return true
	}
	return strings.TrimSuffix(path.Base(p), path.Ext(p)) == path.Base(dir)
}

// local reports whether an unqualified name in c may refer to the target's
// package: Markdown speaks of any package, a doc comment of its own.
func (t target) local(c review.Claim) bool {
	return c.Kind == review.KindMarkdown || c.Package == t.dir
}

func (t target) qualifiers() []string {
	q := []string{path.Base(t.dir)}
	if t.pkg != "" && t.pkg != q[0] {
		q = append(q, t.pkg)
	}
	return q
}

func (t target) matchesName(c review.Claim, name string) bool {
	switch {
	case name == t.name:
		return t.member != "" || t.local(c)
	case t.member != "" && name == t.member:
		return t.local(c)
	}
	// Package-qualified: "cache.New", "example.com/m/cache.New".
	prefix, ok := strings.CutSuffix(name, "."+t.name)
	if !ok {
		return false
	}
	if i := strings.LastIndexByte(prefix, '/'); i >= 0 {
		prefix = prefix[i+1:]
	}
	for _, q := range t.qualifiers() {
		if prefix == q {
			return true
		}
	}
	return false
}

// matchesBlock reports whether a code block uses the target: qualified by
// its package ("cache.New"), or for Examples and code of the same package
// by its bare name; a member when the block also uses its package or type.
func (t target) matchesBlock(c review.Claim, toks map[string]bool) bool {
	qs := t.qualifiers()
	usesPkg := c.Package == t.dir && c.Kind != review.KindMarkdown
	for _, q := range qs {
		if toks[q] {
			usesPkg = true
		}
	}
	if t.member == "" {
		for _, q := range qs {
			if toks[q+"."+t.name] {
				return true
			}
		}
		return c.Package == t.dir && c.Kind != review.KindMarkdown && toks[t.name]
	}
	typ, _, _ := strings.Cut(t.name, ".")
	return (usesPkg || toks[typ]) && toks["."+t.member]
}

// identTokens adds to toks the identifiers of code: each dotted chain
// ("cache.New"), each of its parts, and each part after the first with its
// dot (".Purge").
func identTokens(code string, toks map[string]bool) map[string]bool {
	if toks == nil {
		toks = map[string]bool{}
	}
	for _, m := range identRE.FindAllString(code, -1) {
		m = strings.TrimSuffix(m, "()")
		toks[m] = true
		parts := strings.Split(m, ".")
		for i, p := range parts {
			toks[p] = true
			if i > 0 {
				toks["."+p] = true
				toks[parts[i-1]+"."+p] = true
			}
		}
	}
	return toks
}

// flagRegRE is a flag registration of the standard flag package or
// pflag with its name: `flag.Int64Var(&f.Timeout, "timeout"`,
// `Flags().StringP("listen"`.
var flagRegRE = regexp.MustCompile(`\.(?:Bool|Int|Int8|Int16|Int32|Int64|Uint|Uint8|Uint16|Uint32|Uint64|Float32|Float64|String|Duration)(?:Var)?P?\(\s*(?:&?[\w.\[\]]+\s*,\s*)?"([\w.-]+)"`)

// changedFlags returns the names of the flags whose registrations in the
// Go files at head the diff adds or changes: a registration call on an
// added line, or opened up to three lines before one and still open
// there (a call written over several lines, its default on a line of its
// own).
func changedFlags(fsys fs.FS, diffs map[string]diff.File) []string {
	var out []string
	for p, f := range diffs {
		if path.Ext(p) != ".go" || strings.HasSuffix(p, "_test.go") || len(f.Added) == 0 {
			continue
		}
		data, err := fs.ReadFile(fsys, p)
		if err != nil {
			continue
		}
		lines := strings.Split(string(data), "\n")
		for i := range lines {
			if !f.AddedAt(i + 1) {
				continue
			}
			var names []string
			for _, m := range flagRegRE.FindAllStringSubmatch(lines[i], -1) {
				names = append(names, m[1])
			}
			// A call opened on an earlier line and still open where
			// this one starts.
			for j := max(0, i-3); j < i && len(names) == 0; j++ {
				joined := strings.Join(lines[j:i+1], "\n")
				for _, loc := range flagRegRE.FindAllStringSubmatchIndex(joined, -1) {
					if loc[0] >= len(lines[j]) {
						continue // opened on a later line, read on its own turn
					}
					before := joined[loc[0] : len(joined)-len(lines[i])]
					if strings.Count(before, "(") > strings.Count(before, ")") {
						names = append(names, joined[loc[2]:loc[3]])
					}
				}
			}
			for _, n := range names {
				if !slices.Contains(out, n) {
					out = append(out, n)
				}
			}
		}
	}
	return out
}

// printsFlagDefault reports whether text has a line of help output that
// prints one of the flags with a default: "-name" or "--name" on a line
// that has "(default ", or whose next line has.
func printsFlagDefault(text string, flags []string) bool {
	if len(flags) == 0 || !strings.Contains(text, "(default ") {
		return false
	}
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		t := strings.TrimSpace(l)
		if !strings.HasPrefix(t, "-") ||
			!strings.Contains(l, "(default ") && (i+1 == len(lines) || !strings.Contains(lines[i+1], "(default ")) {
			continue
		}
		for _, w := range strings.FieldsFunc(t, func(r rune) bool { return r == ' ' || r == '\t' || r == ',' || r == '=' }) {
			// "-name" or "--name"
			if name := strings.TrimPrefix(strings.TrimPrefix(w, "-"), "-"); name != w && slices.Contains(flags, name) {
				return true
			}
		}
	}
	return false
}

// goLineChanged reports whether the diff adds or replaces the go line of a
// go.mod file at head.
func goLineChanged(fsys fs.FS, diffs map[string]diff.File) bool {
	for p, f := range diffs {
		if path.Base(p) != "go.mod" {
			continue
		}
		data, err := fs.ReadFile(fsys, p)
		if err != nil {
			continue
		}
		mf, err := modfile.ParseLax(p, data, nil)
		if err != nil || mf.Go == nil || mf.Go.Syntax == nil {
			continue
		}
		if f.AddedAt(mf.Go.Syntax.Start.Line) {
			return true
		}
	}
	return false
}

// valueFlowTargets returns, for the constants the diff changed, the doc
// comments of the fields and funcs of their package that take their
// value from them (keyed "dir\x00name"), and those fields as targets, so
// that a doc stating the old value of a default is reviewed although
// nothing in it changed. A changed func that sets a field to a constant
// on a line the diff added ("Port: 9042" in NewCluster) makes that
// field's doc such a doc too.
func valueFlowTargets(syms *retrieval.Symbols, changes review.Changes, added func(path string, line int) bool) (map[string]bool, []target) {
	if syms == nil {
		return nil, nil
	}
	docs := map[string]bool{}
	var out []target
	addField := func(s review.SymbolRef, f string) {
		if docs[s.Dir+"\x00"+f] {
			return
		}
		docs[s.Dir+"\x00"+f] = true
		t := target{dir: s.Dir, pkg: strings.TrimSuffix(s.Package, "_test"), name: f}
		_, t.member, _ = strings.Cut(f, ".")
		out = append(out, t)
	}
	for _, s := range changes.Changed {
		if s.Kind == review.SymbolFunc || s.Kind == review.SymbolMethod || s.Kind == review.SymbolVar {
			sym, ok := syms.Lookup(s.Dir, s.Name)
			if !ok || sym.Package == nil || sym.Package.Dir != s.Dir {
				continue
			}
			set := syms.FieldsSet(sym)
			fields := make([]string, 0, len(set))
			for f, line := range set {
				if added(s.Path, line) {
					fields = append(fields, f)
				}
			}
			sort.Strings(fields)
			for _, f := range fields {
				addField(s, f)
			}
			continue
		}
		if s.Kind != review.SymbolConst {
			continue
		}
		sym, ok := syms.Lookup(s.Dir, s.Name)
		if !ok || sym.Package == nil || sym.Package.Dir != s.Dir {
			continue
		}
		flow := syms.ValueFlow(sym)
		fields := make([]string, 0, len(flow.Fields))
		for f := range flow.Fields {
			fields = append(fields, f)
		}
		sort.Strings(fields)
		for _, f := range fields {
			addField(s, f)
		}
		for _, fn := range flow.Funcs {
			docs[s.Dir+"\x00"+fn] = true
		}
	}
	return docs, out
}

// valueTopic is a constant the diff changed, by the words its name is
// about ([prose.TopicWords]).
type valueTopic struct {
	dir   string
	topic []string
}

// valueTopicsOf returns the changed constants whose names have topic
// words.
func valueTopicsOf(changes review.Changes) []valueTopic {
	var out []valueTopic
	for _, s := range changes.Changed {
		if s.Kind != review.SymbolConst {
			continue
		}
		if t := prose.TopicWords(s.Name); len(t) > 0 {
			out = append(out, valueTopic{dir: s.Dir, topic: t})
		}
	}
	return out
}

// statesTopicValue reports whether claim c may state, in words, the
// value of one of the changed constants: a doc comment of the constant's
// package, or a Markdown file in its directory or a parent of it, whose
// text has a digit and the words the constant's name is about. The
// literal-mismatch rule decides whether it states the old value.
func statesTopicValue(c review.Claim, topics []valueTopic) bool {
	if len(topics) == 0 || !strings.ContainsAny(c.Text, "0123456789") {
		return false
	}
	var words []string
	for _, t := range topics {
		if !c.AboutPackage(t.dir) {
			continue
		}
		if words == nil {
			words = prose.Words(c.Context + " " + c.Text)
		}
		if prose.TopicNamed(words, t.topic) {
			return true
		}
	}
	return false
}
