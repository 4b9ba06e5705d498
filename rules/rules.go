package rules

import (
	"go/token"
	"go/types"
	"path"
	"runtime"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
	"weak"

	"github.com/docreview/docreview/retrieval"
	"github.com/docreview/docreview/review"
)

// All returns a fresh instance of every rule, in the order the engine runs
// them: stale-reference, go-snippet, cli-flag, link, example-output,
// restates-name, literal-mismatch, wrong-parameter, missing-contract,
// deprecated-use. Each call returns new
// values, so their per-workspace caches are not shared between callers.
func All() []review.Judge {
	return []review.Judge{
		&StaleReference{},
		&GoSnippet{},
		&CLIFlag{},
		&Link{},
		&ExampleOutput{},
		&RestatesName{},
		&LiteralMismatch{},
		&WrongParameter{},
		&MissingContract{},
		&DeprecatedUse{},
	}
}

// memo caches one value per workspace and key, computing it at most once
// even when several claims ask at the same time. Entries are dropped when
// their workspace is garbage collected, so a long-running server does not
// accumulate them. The zero value is ready to use.
type memo[V any] struct {
	mu sync.Mutex
	m  map[memoKey]*memoEntry[V]
}

type memoKey struct {
	ws  weak.Pointer[review.Workspace]
	key string
}

type memoEntry[V any] struct {
	once sync.Once
	v    V
	err  error
}

// get returns the cached value for ws and key, computing it with f on first
// use. An error is cached like a value.
func (c *memo[V]) get(ws *review.Workspace, key string, f func() (V, error)) (V, error) {
	k := memoKey{ws: weak.Make(ws), key: key}
	c.mu.Lock()
	if c.m == nil {
		c.m = map[memoKey]*memoEntry[V]{}
	}
	e, ok := c.m[k]
	if !ok {
		e = &memoEntry[V]{}
		c.m[k] = e
		runtime.AddCleanup(ws, c.drop, k)
	}
	c.mu.Unlock()
	e.once.Do(func() { e.v, e.err = f() })
	return e.v, e.err
}

func (c *memo[V]) drop(k memoKey) {
	c.mu.Lock()
	delete(c.m, k)
	c.mu.Unlock()
}

// len reports how many entries the cache holds.
func (c *memo[V]) len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.m)
}

// scope resolves names the way a claim's reader would: from the package a
// doc comment belongs to, or for Markdown from the package in the file's
// directory, its parent directories and the module root, with "pkg.Name"
// also resolved against every module package called pkg.
type scope struct {
	syms     *retrieval.Symbols
	dirs     []string
	markdown bool
}

// newScope returns the scope of claim c.
func newScope(syms *retrieval.Symbols, c review.Claim) scope {
	if c.Kind != review.KindMarkdown && c.Package != "" {
		return scope{syms: syms, dirs: []string{c.Package}}
	}
	var dirs []string
	for d := path.Dir(c.Path); ; d = path.Dir(d) {
		if d == "." || d == "/" || d == "" {
			break
		}
		if syms.Package(d) != nil {
			dirs = append(dirs, d)
		}
	}
	dirs = append(dirs, ".")
	return scope{syms: syms, dirs: dirs, markdown: true}
}

// primary is the directory names are first resolved from.
func (s scope) primary() string { return s.dirs[0] }

// packagesNamed returns the module packages a qualifier name stands for,
// read as Go reads it: in a doc comment whose package imports a package
// under that name, that package only (none when it is not a module
// package); otherwise every module package called name, unless a
// standard library package is called name too ("json" for the module's
// internal/json and encoding/json), when the qualifier is ambiguous and
// stands for none. The doc's own package always counts.
func (s scope) packagesNamed(name string) []*retrieval.Package {
	own := s.syms.Package(s.primary())
	if !s.markdown {
		if own != nil && own.Name == name {
			return []*retrieval.Package{own}
		}
		if ip, ok := s.syms.ImportedAs(s.primary(), name); ok {
			if p := s.syms.PackageByPath(ip); p != nil {
				return []*retrieval.Package{p}
			}
			return nil
		}
	}
	var out []*retrieval.Package
	for _, p := range s.syms.Packages() {
		if p.Name == name {
			out = append(out, p)
		}
	}
	if len(out) > 0 && s.syms.StdNamed(name) {
		return nil
	}
	return out
}

// resolves reports whether name refers to something that exists: a module
// symbol, a standard library or third-party name, or a field or method
// reached through the type checker.
func (s scope) resolves(name string) bool {
	for _, d := range s.dirs {
		if s.syms.Resolves(d, name) || memberResolves(s.syms.Package(d), name) {
			return true
		}
	}
	if pkg, rest, ok := strings.Cut(name, "."); ok {
		for _, p := range s.packagesNamed(pkg) {
			if s.syms.Resolves(p.Dir, rest) || memberResolves(p, rest) {
				return true
			}
		}
	}
	return false
}

// namesAnything reports whether name resolves, or is a field or method of
// some type of the scope, with its first letter in either case and
// without a plural "s": "storeEntry" for a type named "StoreEntry",
// "newStore" for a func named "NewStore", "entryIDs" for a field named
// "EntryID".
func (s scope) namesAnything(name string) bool {
	forms := []string{name}
	if base, ok := strings.CutSuffix(name, "s"); ok && base != "" {
		forms = append(forms, base)
	}
	for _, f := range forms {
		r := []rune(f)
		other := r[0]
		if unicode.IsUpper(other) {
			other = unicode.ToLower(other)
		} else {
			other = unicode.ToUpper(other)
		}
		flipped := string(other) + string(r[1:])
		for _, n := range []string{f, flipped} {
			if s.resolves(n) || s.hasMember(n) || s.syms.Defined(n) {
				return true
			}
		}
	}
	return false
}

// lookup finds name as a module symbol (one declared in a loaded package of
// the repository, with a path at head).
func (s scope) lookup(name string) (retrieval.Symbol, bool) {
	for _, d := range s.dirs {
		if sym, ok := s.syms.Lookup(d, name); ok && s.inModule(sym) {
			return sym, true
		}
	}
	if pkg, rest, ok := strings.Cut(name, "."); ok {
		for _, p := range s.packagesNamed(pkg) {
			if sym, ok := s.syms.Lookup(p.Dir, rest); ok && s.inModule(sym) {
				return sym, true
			}
		}
	}
	return retrieval.Symbol{}, false
}

// inModule reports whether sym is declared in the repository.
func (s scope) inModule(sym retrieval.Symbol) bool {
	return sym.Package != nil && sym.Path != "" && sym.Line > 0 && s.syms.Package(sym.Package.Dir) == sym.Package
}

// hasMember reports whether some type of the scope's packages has a field
// or method called name; for Markdown, some type of any module package.
func (s scope) hasMember(name string) bool {
	pkgs := s.syms.Packages()
	if !s.markdown {
		pkgs = nil
		for _, d := range s.dirs {
			if p := s.syms.Package(d); p != nil {
				pkgs = append(pkgs, p)
			}
		}
	}
	for _, p := range pkgs {
		if packageHasMember(p, name) {
			return true
		}
	}
	return false
}

// memberResolves reports whether name is "Type.Member" with Type a named
// type of p that has the field or method Member.
func memberResolves(p *retrieval.Package, name string) bool {
	if p == nil || p.Types == nil {
		return false
	}
	typ, member, ok := strings.Cut(strings.TrimPrefix(name, "*"), ".")
	if !ok || strings.Contains(member, ".") {
		return false
	}
	tn, ok := p.Types.Scope().Lookup(typ).(*types.TypeName)
	if !ok {
		return false
	}
	t := tn.Type()
	if !types.IsInterface(t) {
		t = types.NewPointer(t)
	}
	obj, _, _ := types.LookupFieldOrMethod(t, true, p.Types, member)
	return obj != nil
}

// packageHasMember reports whether a named type declared in p has the field
// or method name.
func packageHasMember(p *retrieval.Package, name string) bool {
	return p.Types != nil && len(p.Members()[name]) > 0
}

// isBuiltin reports whether name is a Go keyword or predeclared identifier.
func isBuiltin(name string) bool {
	return token.IsKeyword(name) || types.Universe.Lookup(name) != nil
}

// isIdentPath reports whether s is one identifier or several joined by dots.
func isIdentPath(s string) bool {
	if s == "" {
		return false
	}
	for part := range strings.SplitSeq(s, ".") {
		if !token.IsIdentifier(part) {
			return false
		}
	}
	return true
}

// exportedPath reports whether every dot-separated part of a symbol name is
// exported ("Store.Close" yes, "store.Close" and "Store.close" no).
func exportedPath(name string) bool {
	for part := range strings.SplitSeq(name, ".") {
		if !token.IsExported(part) {
			return false
		}
	}
	return true
}

// lastPart returns what follows the last dot of name.
func lastPart(name string) string {
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		return name[i+1:]
	}
	return name
}

// isIdentByte reports whether b can be part of a Go identifier (ASCII
// only; good enough for boundaries around ASCII names).
func isIdentByte(b byte) bool {
	return b == '_' || b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= utf8.RuneSelf
}

// replaceName replaces every occurrence of old in text that stands alone as
// a name: not preceded by an identifier byte or a dot, and not followed by
// an identifier byte. It reports how many it replaced.
func replaceName(text, old, repl string) (string, int) {
	return replaceNameUnless(text, old, repl, nil)
}

// replaceNameUnless is replaceName leaving the occurrences for which skip,
// given the text after one, is true.
func replaceNameUnless(text, old, repl string, skip func(after string) bool) (string, int) {
	var b strings.Builder
	n := 0
	for i := 0; i < len(text); {
		j := strings.Index(text[i:], old)
		if j < 0 {
			b.WriteString(text[i:])
			break
		}
		j += i
		end := j + len(old)
		before := j == 0 || !(isIdentByte(text[j-1]) || text[j-1] == '.')
		after := end == len(text) || !isIdentByte(text[end])
		b.WriteString(text[i:j])
		if before && after && (skip == nil || !skip(text[end:])) {
			b.WriteString(repl)
			n++
		} else {
			b.WriteString(old)
		}
		i = end
	}
	return b.String(), n
}

// joinAnd joins words as English prose: "a", "a and b", "a, b and c".
func joinAnd(words []string) string {
	switch len(words) {
	case 0:
		return ""
	case 1:
		return words[0]
	}
	return strings.Join(words[:len(words)-1], ", ") + " and " + words[len(words)-1]
}

// lineRange clamps a reference's lines into a valid inclusive range.
func lineRange(start, end int) (int, int) {
	if end < start {
		end = start
	}
	return start, end
}

// uniq returns the distinct values of s in first-seen order.
func uniq(s []string) []string {
	var out []string
	for _, v := range s {
		if !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	return out
}

// hasCodeBlock reports whether claim c holds a code block.
func hasCodeBlock(c review.Claim) bool {
	return slices.ContainsFunc(c.Mentions, func(m review.Mention) bool { return m.Kind == review.MentionBlock })
}
