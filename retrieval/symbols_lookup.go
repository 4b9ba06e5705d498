package retrieval

import (
	"go/token"
	"go/types"
	"path"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// symMinAffix is the shortest common part a prefix or suffix rename must
// keep to be suggested ("NewCache" -> "New").
const symMinAffix = 3

// Lookup resolves a reference written in the documentation of the package
// in fromDir ("." for the root; a directory without a package also works,
// then unqualified names are looked up in every package). Accepted forms:
// "Name", "Type.Method", "Type.Field", "pkg.Name", "pkg.Type.Method",
// "importpath.Name", "importpath.Type.Method", "(*Type).Method", each
// optionally followed by "()". pkg is an import name used in fromDir's
// files, or the name or last path element of any repository package, or a
// standard library package (loaded when the repository imports it or it
// is a common one). Methods and fields promoted through embedded fields
// resolve to their declaration. It returns false when the name does not
// resolve, including when it refers to a package that could not be loaded
// (see [Symbols.Resolves]).
func (s *Symbols) Lookup(fromDir, name string) (Symbol, bool) {
	sym, _ := s.resolve(fromDir, name)
	if sym == nil {
		return Symbol{}, false
	}
	return *sym, true
}

// Resolves reports whether name, written in the documentation of the
// package in fromDir, refers to something that exists or may exist: it
// resolves with [Symbols.Lookup], or it goes through something that could
// not be loaded (a third-party package, a standard package whose export
// data is unavailable, a type embedding one, a package with a file that
// does not parse, a package excluded by build constraints), or its
// qualifier is a lower-case name that matches no package docreview knows
// (taken for a third-party package or a variable). Such names are never
// reported as stale.
func (s *Symbols) Resolves(fromDir, name string) bool {
	sym, unknown := s.resolve(fromDir, name)
	return sym != nil || unknown
}

// Defined reports whether any package of the repository declares name: a
// top-level name ("New"), a member ("Cache.Purge") or either qualified by
// its package name ("cache.New"). Package names alone do not count.
func (s *Symbols) Defined(name string) bool {
	if s.defined[name] {
		return true
	}
	q, rest, ok := strings.Cut(name, ".")
	if !ok {
		return false
	}
	for _, p := range s.byName[q] {
		if p.Name == q && p.symByName[rest] != nil {
			return true
		}
	}
	return false
}

// Names returns every symbol name of the repository, unqualified ("New",
// "Cache.Purge") and qualified by its package name ("cache.New",
// "cache.Cache.Purge"), sorted and without duplicates.
func (s *Symbols) Names() []string {
	return slices.Clone(s.names)
}

// Suggest returns the existing name closest to name, in the same form, that
// is visible from the documentation of the package in fromDir: for
// "Name" the top-level names of that package, for "Type.Member" the
// fields and methods of Type (or, when Type is unknown, every
// "Type.Member" of the package), for "pkg.Name" the exported names of pkg.
// Closeness is the Damerau-Levenshtein distance of the lower-cased names,
// at most max(1, len/3), with a unique best (ties broken by the
// case-sensitive distance). When nothing is that close, an exported name
// renamed by dropping or adding a prefix or suffix is recognised
// ("cache.NewCache" -> "cache.New"), preferring one whose dropped part is
// the package's name or a type's name, if there is one such candidate. It returns false when name
// resolves or nothing qualifies. A rename to an unrelated word
// ("Purge" -> "Flush") is not guessed.
func (s *Symbols) Suggest(fromDir, name string) (string, bool) {
	norm := symNormRef(name)
	if norm == "" {
		return "", false
	}
	if sym, _ := s.resolve(fromDir, name); sym != nil {
		return "", false
	}
	from := s.Package(fromDir)
	for _, sp := range symSplits(norm) {
		if len(sp.rest) == 0 || len(sp.rest) > 2 {
			continue
		}
		if sp.qual == "" {
			var pkgs []*Package
			if from != nil {
				pkgs = []*Package{from}
			} else {
				pkgs = s.pkgs
			}
			if len(sp.rest) == 2 && s.localValue(pkgs, sp.rest[0]) == nil && len(s.qualifierTargets(from, sp.rest[0])) > 0 {
				continue // a qualified name: the next split handles it
			}
			if got, ok := s.suggestIn(pkgs, from, sp.rest); ok {
				return got, true
			}
			return "", false
		}
		for _, t := range s.qualifierTargets(from, sp.qual) {
			if t.pkg == nil {
				continue
			}
			got, ok := s.suggestIn([]*Package{t.pkg}, from, sp.rest)
			if ok {
				return sp.qual + "." + got, true
			}
			return "", false
		}
	}
	return "", false
}

// suggestIn suggests a replacement for rest (a name or a Type.Member) among
// the declarations of pkgs visible from the package from.
func (s *Symbols) suggestIn(pkgs []*Package, from *Package, rest []string) (string, bool) {
	visible := func(p *Package, name string) bool { return p == from || token.IsExported(name) }
	if len(rest) == 1 {
		var cands []string
		var stutter []string
		for _, p := range pkgs {
			if p.Types == nil {
				continue
			}
			stutter = append(stutter, p.Name)
			scope := p.Types.Scope()
			for _, n := range scope.Names() {
				if visible(p, n) {
					cands = append(cands, n)
				}
				if _, ok := scope.Lookup(n).(*types.TypeName); ok {
					// "NewStore" -> "New" drops the name of the type New
					// returns.
					stutter = append(stutter, n)
				}
			}
		}
		return symBest(rest[0], cands, stutter, true)
	}
	if obj := s.localValue(pkgs, rest[0]); obj != nil {
		p := pkgs[0]
		for _, q := range pkgs {
			if q.Types == obj.Pkg() {
				p = q
			}
		}
		var cands []string
		for _, m := range symMembers(obj.Type()) {
			if visible(p, m) {
				cands = append(cands, m)
			}
		}
		got, ok := symBest(rest[1], cands, []string{symTypeBase(obj)}, true)
		if !ok {
			return "", false
		}
		return rest[0] + "." + got, true
	}
	var cands []string
	for _, p := range pkgs {
		for _, sym := range p.syms {
			if (sym.Kind == SymbolMethod || sym.Kind == SymbolField) && visible(p, sym.Name) && visible(p, sym.Name[strings.LastIndex(sym.Name, ".")+1:]) {
				cands = append(cands, sym.Name)
			}
		}
	}
	return symBest(rest[0]+"."+rest[1], cands, nil, false)
}

// localValue returns the type, var or const named name in pkgs.
func (s *Symbols) localValue(pkgs []*Package, name string) types.Object {
	for _, p := range pkgs {
		if p.Types == nil {
			continue
		}
		switch obj := p.Types.Scope().Lookup(name).(type) {
		case *types.TypeName, *types.Var, *types.Const:
			return obj
		}
	}
	return nil
}

// symTypeBase returns the name of obj's type (for a type name, its own).
func symTypeBase(obj types.Object) string {
	if _, ok := obj.(*types.TypeName); ok {
		return obj.Name()
	}
	t := obj.Type()
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	if n, ok := t.(*types.Named); ok {
		return n.Obj().Name()
	}
	return ""
}

// symMembers returns the names of the fields and methods of t and *t,
// promoted ones included.
func symMembers(t types.Type) []string {
	set := make(map[string]bool)
	var ms *types.MethodSet
	if types.IsInterface(t) {
		ms = types.NewMethodSet(t)
	} else {
		if _, ok := t.(*types.Pointer); !ok {
			t = types.NewPointer(t)
		}
		ms = types.NewMethodSet(t)
	}
	for i := 0; i < ms.Len(); i++ {
		set[ms.At(i).Obj().Name()] = true
	}
	var fields func(t types.Type, depth int)
	fields = func(t types.Type, depth int) {
		if depth > 4 {
			return
		}
		if p, ok := t.(*types.Pointer); ok {
			t = p.Elem()
		}
		st, ok := t.Underlying().(*types.Struct)
		if !ok {
			return
		}
		for i := 0; i < st.NumFields(); i++ {
			f := st.Field(i)
			set[f.Name()] = true
			if f.Embedded() {
				fields(f.Type(), depth+1)
			}
		}
	}
	fields(t, 0)
	return symSortedKeys(set)
}

// symBest picks the candidate closest to name (see [Symbols.Suggest]).
// stutter lists words whose removal makes a preferred rename; affixes
// enables prefix and suffix renames.
func symBest(name string, cands, stutter []string, affixes bool) (string, bool) {
	cands = slices.DeleteFunc(slices.Clone(cands), func(c string) bool { return c == name })
	slices.Sort(cands)
	cands = slices.Compact(cands)
	lname := strings.ToLower(name)
	n := utf8.RuneCountInString(name)
	limit := max(1, n/3)
	best, bestCase := -1, -1
	var picked []string
	for _, c := range cands {
		// The distance is at least the difference in length, and once a
		// row of the table exceeds limit it can only grow: most names are
		// out of reach before their distance is known.
		if m := utf8.RuneCountInString(c); m-n > limit || n-m > limit {
			continue
		}
		d := symDistanceWithin(lname, strings.ToLower(c), limit)
		if d > limit {
			continue
		}
		dc := symDistance(name, c)
		switch {
		case best < 0 || d < best || (d == best && dc < bestCase):
			best, bestCase, picked = d, dc, []string{c}
		case d == best && dc == bestCase:
			picked = append(picked, c)
		}
	}
	if best >= 0 {
		if len(picked) == 1 {
			return picked[0], true
		}
		return "", false
	}
	if !affixes || !symExported(name) {
		return "", false
	}
	var affixed, stuttered []string
	for _, c := range cands {
		if !symExported(c) {
			continue
		}
		lc := strings.ToLower(c)
		short, long := lc, lname
		if len(short) > len(long) {
			short, long = long, short
		}
		if len(short) < symMinAffix || short == long {
			continue
		}
		var diff string
		switch {
		case strings.HasPrefix(long, short):
			diff = long[len(short):]
		case strings.HasSuffix(long, short):
			diff = long[:len(long)-len(short)]
		default:
			continue
		}
		affixed = append(affixed, c)
		for _, w := range stutter {
			if w != "" && diff == strings.ToLower(w) {
				stuttered = append(stuttered, c)
				break
			}
		}
	}
	switch {
	case len(stuttered) == 1:
		return stuttered[0], true
	case len(stuttered) == 0 && len(affixed) == 1:
		return affixed[0], true
	}
	return "", false
}

func symExported(name string) bool {
	r, _ := utf8.DecodeRuneInString(name)
	return unicode.IsUpper(r)
}

// EditDistance is the optimal string alignment (restricted
// Damerau-Levenshtein) distance between a and b, in runes: the measure of
// the symbol table's suggestions. With limit >= 0 it stops as soon as the
// distance is sure to exceed limit and returns limit+1.
func EditDistance(a, b string, limit int) int {
	return symDistanceWithin(a, b, limit)
}

// symDistance is the optimal string alignment (restricted
// Damerau-Levenshtein) distance between a and b, in runes.
func symDistance(a, b string) int {
	return symDistanceWithin(a, b, -1)
}

// symDistanceWithin is symDistance, except that with limit >= 0 it stops
// as soon as the distance is sure to exceed limit and returns limit+1.
func symDistanceWithin(a, b string, limit int) int {
	ra, rb := []rune(a), []rune(b)
	prev2 := make([]int, len(rb)+1)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		rowMin := cur[0]
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
			rowMin = min(rowMin, cur[j])
		}
		// Every later cell descends from this row or the previous one
		// (a transposition reaches back two rows, adding one), so once
		// both rows exceed limit the distance does.
		if limit >= 0 && rowMin > limit && slices.Min(prev) > limit {
			return limit + 1
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(rb)]
}

// symTarget is what a qualifier names: a loaded package, or something
// that exists but could not be loaded.
type symTarget struct {
	pkg     *Package
	unknown bool
}

// resolve looks name up from the package in fromDir; unknown is true when
// some reading of it goes through something that could not be loaded.
func (s *Symbols) resolve(fromDir, name string) (sym *Symbol, unknown bool) {
	norm := symNormRef(name)
	if norm == "" {
		return nil, false
	}
	from := s.Package(fromDir)
	for i, sp := range symSplits(norm) {
		if len(sp.rest) == 0 || len(sp.rest) > 2 {
			continue
		}
		if sp.qual == "" {
			pkgs := s.pkgs
			if from != nil {
				pkgs = []*Package{from}
			}
			for _, p := range pkgs {
				got, unk := s.resolveIn(p, sp.rest)
				if got != nil {
					return got, false
				}
				unknown = unknown || unk
			}
			if len(sp.rest) == 1 {
				for _, t := range s.qualifierTargets(from, sp.rest[0]) {
					if t.pkg != nil {
						return s.packageSymbolOf(t.pkg), false
					}
				}
			}
			continue
		}
		targets := s.qualifierTargets(from, sp.qual)
		for _, t := range targets {
			if t.unknown {
				unknown = true
				continue
			}
			got, unk := s.resolveIn(t.pkg, sp.rest)
			if got != nil {
				return got, false
			}
			unknown = unknown || unk
		}
		if len(targets) == 0 && i == 1 && symLowerIdent(sp.qual) && (from == nil || s.localValue([]*Package{from}, sp.qual) == nil) {
			// An unknown lower-case qualifier: a package docreview does
			// not know (third-party, not imported here) or a variable.
			unknown = true
		}
	}
	return nil, unknown
}

// resolveIn resolves a name or Type.Member in p.
func (s *Symbols) resolveIn(p *Package, rest []string) (*Symbol, bool) {
	if p == nil || p.Types == nil {
		return nil, true
	}
	// A name also declared in a build-excluded file counts as existing when
	// the scope lookup fails, but must not shadow the loaded declaration.
	other := p.otherNames[strings.Join(rest, ".")]
	obj := p.Types.Scope().Lookup(rest[0])
	if obj == nil {
		return nil, p.incomplete || other
	}
	if len(rest) == 1 {
		return s.symbolOf(p, obj, ""), false
	}
	switch obj.(type) {
	case *types.TypeName, *types.Var, *types.Const:
	default:
		return nil, false
	}
	t := obj.Type()
	mobj, _, _ := types.LookupFieldOrMethod(t, true, p.Types, rest[1])
	if mobj == nil {
		return nil, p.incomplete || other || s.unknownMembers(t, 0)
	}
	return s.symbolOf(p, mobj, symTypeBase(obj)), false
}

// unknownMembers reports whether t may have members docreview cannot see:
// its type or an embedded one could not be loaded.
func (s *Symbols) unknownMembers(t types.Type, depth int) bool {
	if depth > 5 || t == nil {
		return false
	}
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	if n, ok := t.(*types.Named); ok && s.fakes.is(n.Obj().Pkg()) {
		return true
	}
	switch u := t.Underlying().(type) {
	case *types.Basic:
		return u.Kind() == types.Invalid
	case *types.Struct:
		for i := 0; i < u.NumFields(); i++ {
			if f := u.Field(i); f.Embedded() && s.unknownMembers(f.Type(), depth+1) {
				return true
			}
		}
	case *types.Interface:
		for i := 0; i < u.NumEmbeddeds(); i++ {
			if s.unknownMembers(u.EmbeddedType(i), depth+1) {
				return true
			}
		}
	}
	return false
}

// symbolOf returns the symbol of obj, found in p (typeName is the type
// a member was looked up on).
func (s *Symbols) symbolOf(p *Package, obj types.Object, typeName string) *Symbol {
	if sym := s.symAt[obj.Pos()]; sym != nil {
		return sym
	}
	name := obj.Name()
	switch o := obj.(type) {
	case *types.Func:
		if recv := o.Type().(*types.Signature).Recv(); recv != nil {
			if n := symNamedOf(recv.Type()); n != "" {
				name = n + "." + name
			} else if typeName != "" {
				name = typeName + "." + name
			}
		}
	case *types.Var:
		if o.IsField() && typeName != "" {
			name = typeName + "." + name
		}
	}
	owner := p
	if obj.Pkg() != nil && obj.Pkg() != p.Types {
		if q := s.byPath[obj.Pkg().Path()]; q != nil {
			owner = q
		} else if q, ok := s.std.loaded(obj.Pkg().Path()); ok {
			owner = q
		}
	}
	sym := &Symbol{
		Name: name, Kind: symKindOf(obj), Package: owner, Exported: obj.Exported(), Object: obj,
		Signature: symObjectSignature(obj, symQualifier(owner.Types)),
	}
	if !owner.std {
		if pos := s.fset.Position(obj.Pos()); pos.IsValid() {
			sym.Path, sym.Line, sym.EndLine = pos.Filename, pos.Line, pos.Line
		}
	}
	return sym
}

// packageSymbolOf returns the package symbol of p.
func (s *Symbols) packageSymbolOf(p *Package) *Symbol {
	if p.pkgSym != nil {
		return p.pkgSym
	}
	return &Symbol{Name: p.Name, Kind: SymbolPackage, Package: p, Signature: "package " + p.Name, Exported: true}
}

// qualifierTargets returns the packages q may name in the documentation of
// from (nil for none): an import name of from's files, an import path, a
// repository package's name or last path element (from's module first),
// a standard package's name.
func (s *Symbols) qualifierTargets(from *Package, q string) []symTarget {
	var out []symTarget
	seen := make(map[string]bool)
	add := func(ip string) {
		if seen[ip] {
			return
		}
		seen[ip] = true
		if p := s.byPath[ip]; p != nil {
			out = append(out, symTarget{pkg: p})
			return
		}
		switch {
		case s.excluded[ip]:
			out = append(out, symTarget{unknown: true})
		case s.inModule(ip):
		case symIsStdPath(ip):
			if p, ok := s.std.loaded(ip); ok {
				out = append(out, symTarget{pkg: p})
			} else if s.std.exists(ip) {
				out = append(out, symTarget{unknown: true})
			}
		case strings.Contains(ip, "/") || s.fakes.has(ip):
			// A third-party package: never loaded.
			out = append(out, symTarget{unknown: true})
		}
	}
	if from != nil {
		if ip, ok := from.imports[q]; ok {
			add(ip)
		}
		if ip, ok := from.testImports[q]; ok {
			add(ip)
		}
	}
	if strings.ContainsAny(q, "/.") || s.byPath[q] != nil || s.std.exists(q) {
		add(q)
	}
	named := slices.Clone(s.byName[q])
	if from != nil {
		slices.SortStableFunc(named, func(a, b *Package) int {
			am, bm := a.Module == from.Module, b.Module == from.Module
			switch {
			case am && !bm:
				return -1
			case bm && !am:
				return 1
			}
			return 0
		})
	}
	for _, p := range named {
		add(p.ImportPath)
	}
	for _, ip := range s.std.pathsNamed(q) {
		add(ip)
	}
	return out
}

// symSplit is one reading of a dotted reference: a qualifier (empty for
// none) and the name or Type.Member after it.
type symSplit struct {
	qual string
	rest []string
}

// symSplits returns the readings of a normalised reference, unqualified
// first.
func symSplits(name string) []symSplit {
	var out []symSplit
	if i := strings.LastIndex(name, "/"); i >= 0 {
		head, tail := name[:i+1], name[i+1:]
		t := strings.Split(tail, ".")
		for k := 1; k < len(t); k++ {
			if symIdents(t[k:]) {
				out = append(out, symSplit{qual: head + strings.Join(t[:k], "."), rest: t[k:]})
			}
		}
		return out
	}
	parts := strings.Split(name, ".")
	for k := 0; k < len(parts); k++ {
		if symIdents(parts[k:]) {
			out = append(out, symSplit{qual: strings.Join(parts[:k], "."), rest: parts[k:]})
		}
	}
	return out
}

// symNormRef normalises a reference: trims spaces, a trailing "()", a
// leading "*", generic brackets, and turns "(*T).M" into "T.M". It returns
// "" for something that cannot be a Go reference.
func symNormRef(name string) string {
	name = strings.TrimSpace(name)
	name = strings.TrimSuffix(name, "()")
	if strings.HasPrefix(name, "(") {
		end := strings.Index(name, ")")
		if end < 0 {
			return ""
		}
		name = strings.TrimPrefix(name[1:end], "*") + name[end+1:]
	}
	name = strings.TrimPrefix(name, "*")
	var b strings.Builder
	depth := 0
	for _, r := range name {
		switch {
		case r == '[':
			depth++
		case r == ']':
			depth--
		case depth == 0:
			b.WriteRune(r)
		}
	}
	name = b.String()
	if depth != 0 || name == "" || strings.ContainsAny(name, " \t\n()*,") {
		return ""
	}
	return name
}

// symIdents reports whether every element is a Go identifier.
func symIdents(elems []string) bool {
	for _, e := range elems {
		if !token.IsIdentifier(e) {
			return false
		}
	}
	return len(elems) > 0
}

// symLowerIdent reports whether q is an identifier starting with a lower
// case letter.
func symLowerIdent(q string) bool {
	r, _ := utf8.DecodeRuneInString(q)
	return token.IsIdentifier(q) && unicode.IsLower(r)
}

// symNamedOf returns the name of t's named type (through a pointer).
func symNamedOf(t types.Type) string {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	if n, ok := t.(*types.Named); ok {
		return n.Obj().Name()
	}
	return ""
}

// symKindOf returns the symbol kind of a go/types object.
func symKindOf(obj types.Object) SymbolKind {
	switch o := obj.(type) {
	case *types.Func:
		if o.Type().(*types.Signature).Recv() != nil {
			return SymbolMethod
		}
		return SymbolFunc
	case *types.TypeName:
		return SymbolType
	case *types.Const:
		return SymbolConst
	case *types.Var:
		if o.IsField() {
			return SymbolField
		}
		return SymbolVar
	case *types.PkgName:
		return SymbolPackage
	}
	return SymbolVar
}

// symObjectSignature renders an object's declaration in one line, types
// as "type Reader interface" like [Symbol.Signature] of repository types.
func symObjectSignature(obj types.Object, qual types.Qualifier) string {
	tn, ok := obj.(*types.TypeName)
	if !ok {
		return types.ObjectString(obj, qual)
	}
	head := "type " + tn.Name()
	if tn.IsAlias() {
		return head + " = " + types.TypeString(types.Unalias(tn.Type()), qual)
	}
	switch u := tn.Type().Underlying().(type) {
	case *types.Struct:
		return head + " struct"
	case *types.Interface:
		return head + " interface"
	default:
		return head + " " + types.TypeString(u, qual)
	}
}

// symQualifier qualifies types of other packages by package name.
func symQualifier(pkg *types.Package) types.Qualifier {
	return func(other *types.Package) string {
		if other == pkg {
			return ""
		}
		return other.Name()
	}
}

// RepoImportedAs returns the one import path that the repository's files,
// tests included, import under name, and false when none or several do:
// a reader who copies a doc's sdktrace.NewTracerProvider writes the import
// the repository's own code writes (sdktrace
// "go.opentelemetry.io/otel/sdk/trace").
func (s *Symbols) RepoImportedAs(name string) (string, bool) {
	found := ""
	for _, p := range s.pkgs {
		for _, m := range []map[string]string{p.imports, p.testImports} {
			ip, ok := m[name]
			if !ok {
				continue
			}
			if found != "" && found != ip {
				return "", false
			}
			found = ip
		}
	}
	return found, found != ""
}

// RepoImportsNamed returns, sorted, the import paths outside the
// repository's modules that its files, tests included, import under any
// name, whose last element names the package name: the path's base, or
// the base before a major version ("v2") or a gopkg.in version (".v3").
// codescan imports oaispec "github.com/go-openapi/spec"; its docs write
// spec.Swagger, as a reader who imports the path plainly does.
func (s *Symbols) RepoImportsNamed(name string) []string {
	var out []string
	for _, p := range s.pkgs {
		for _, m := range []map[string]string{p.imports, p.testImports} {
			for _, ip := range m {
				if importBase(ip) == name && !s.InModule(ip) && !slices.Contains(out, ip) {
					out = append(out, ip)
				}
			}
		}
	}
	slices.Sort(out)
	return out
}

// importBase returns the package name an import path suggests: its last
// element, without a major version element ("v2") or suffix (".v3").
func importBase(ip string) string {
	base := path.Base(ip)
	if len(base) > 1 && base[0] == 'v' && strings.Trim(base[1:], "0123456789") == "" {
		base = path.Base(path.Dir(ip))
	}
	if i := strings.LastIndex(base, ".v"); i > 0 && strings.Trim(base[i+2:], "0123456789") == "" && i+2 < len(base) {
		base = base[:i]
	}
	return base
}

// ImportedAs returns the import path the non-test files of the package in
// fromDir import under name, and false when none does.
func (s *Symbols) ImportedAs(fromDir, name string) (string, bool) {
	p := s.Package(fromDir)
	if p == nil {
		return "", false
	}
	ip, ok := p.imports[name]
	return ip, ok
}

// ImportsPath reports whether the files of the package in fromDir, tests
// included, import ip under any name (html/template as htmltpl).
func (s *Symbols) ImportsPath(fromDir, ip string) bool {
	p := s.Package(fromDir)
	if p == nil {
		return false
	}
	for _, m := range []map[string]string{p.imports, p.testImports} {
		for _, v := range m {
			if v == ip {
				return true
			}
		}
	}
	return false
}

// StdNamed reports whether a standard library package is called name
// ("json" for encoding/json), so that "name.X" written without an import
// may mean it.
func (s *Symbols) StdNamed(name string) bool {
	return len(s.StdPaths(name)) > 0
}

// StdPaths returns the import paths of the standard library packages
// called name, sorted.
func (s *Symbols) StdPaths(name string) []string {
	if ps := s.std.pathsNamed(name); len(ps) > 0 {
		return slices.Sorted(slices.Values(ps))
	}
	var out []string
	for _, ip := range symStdCommon {
		if path.Base(ip) == name {
			out = append(out, ip)
		}
	}
	return out
}
