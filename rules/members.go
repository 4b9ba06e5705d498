package rules

import (
	"go/types"
	"slices"
	"strings"

	"github.com/docreview/docreview/retrieval"
	"github.com/docreview/docreview/review/prose"
)

// closeMember returns, for a receiver-less name that nothing declares
// ("Wakl"), the unique field or method name of the scope's types that is
// a misspelling of it ("Walk"), with the member's symbol for evidence.
// Closeness is as for package-level names: a Damerau-Levenshtein distance
// of at most max(1, len/3) with the camel-case words intact, and the best
// distance held by one name only. It fails when the name is a member of
// some type in a package the scope's packages import (a method of another
// library is not a typo of ours), or when the name is shorter than four
// letters.
func (s scope) closeMember(name string) (string, retrieval.Symbol, bool) {
	if len(name) < 4 || strings.Contains(name, ".") {
		return "", retrieval.Symbol{}, false
	}
	pkgs := s.scopePackages()
	best, bestDist := []string(nil), -1
	owner := map[string]string{} // member -> "Type.Member" of its first type
	lname := strings.ToLower(name)
	limit := max(1, len([]rune(name))/3)
	exported := token0Exported(name)
	for _, p := range pkgs {
		if p.Types == nil {
			continue
		}
		for _, imp := range p.Types.Imports() {
			if scopeHasMember(s.syms, imp, name) {
				return "", retrieval.Symbol{}, false
			}
		}
		for member, types := range p.Members() {
			if token0Exported(member) != exported || member == name || abs(len(member)-len(name)) > limit {
				continue
			}
			d := prose.EditDistance(lname, strings.ToLower(member))
			if d > limit || !wordsIntact(name, member) {
				continue
			}
			if _, ok := owner[member]; !ok {
				owner[member] = types[0] + "." + member
			}
			switch {
			case bestDist < 0 || d < bestDist:
				best, bestDist = []string{member}, d
			case d == bestDist && !slices.Contains(best, member):
				best = append(best, member)
			}
		}
	}
	if len(best) != 1 {
		return "", retrieval.Symbol{}, false
	}
	sym, ok := s.lookup(owner[best[0]])
	if !ok {
		return "", retrieval.Symbol{}, false
	}
	return best[0], sym, true
}

// scopePackages returns the module packages names of the scope resolve
// in: the claim's own package, or for Markdown the packages of its
// directory and its parents.
func (s scope) scopePackages() []*retrieval.Package {
	if s.markdown {
		// The packages of the file's directory and its parents; a
		// file outside every package (a README at a root without Go
		// files, docs/) has none whose members it could mean.
		var pkgs []*retrieval.Package
		for _, d := range s.dirs {
			if p := s.syms.Package(d); p != nil {
				pkgs = append(pkgs, p)
			}
		}
		return pkgs
	}
	var pkgs []*retrieval.Package
	for _, d := range s.dirs {
		if p := s.syms.Package(d); p != nil {
			pkgs = append(pkgs, p)
		}
	}
	return pkgs
}

// eachMember calls fn for every field and method of every named type
// declared in pkg, in scope order, with the type's name.
func eachMember(pkg *types.Package, fn func(typ, member string)) {
	sc := pkg.Scope()
	for _, n := range sc.Names() {
		tn, ok := sc.Lookup(n).(*types.TypeName)
		if !ok {
			continue
		}
		t := tn.Type()
		if !types.IsInterface(t) {
			t = types.NewPointer(t)
		}
		ms := types.NewMethodSet(t)
		for m := range ms.Methods() {
			fn(n, m.Obj().Name())
		}
		if st, ok := tn.Type().Underlying().(*types.Struct); ok {
			for f := range st.Fields() {
				fn(n, f.Name())
			}
		}
	}
}

// scopeHasMember reports whether a named type declared in pkg has the
// field or method name; pkg's members come from syms when it loaded pkg.
func scopeHasMember(syms *retrieval.Symbols, pkg *types.Package, name string) bool {
	if p := syms.PackageOf(pkg); p != nil {
		return len(p.Members()[name]) > 0
	}
	found := false
	eachMember(pkg, func(_, member string) { found = found || member == name })
	return found
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
