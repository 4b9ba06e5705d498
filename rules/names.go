package rules

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"io/fs"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/docreview/docreview/retrieval"
	"github.com/docreview/docreview/review"
	"github.com/docreview/docreview/review/prose"
)

// sameForm reports whether a and b have the same number of parts and differ
// in exactly one of them.
func sameForm(a, b string) bool {
	pa, pb := strings.Split(a, "."), strings.Split(b, ".")
	if len(pa) != len(pb) {
		return false
	}
	diff := 0
	for i := range pa {
		if pa[i] != pb[i] {
			diff++
		}
	}
	return diff == 1
}

// certainlyClose reports whether b, offered by the symbol table for a, is
// close enough to be a certain correction; pkg is the package declaring
// b, and member says that a is "Type.Member". In the one part where they
// differ, both must be exported or both unexported, and either the
// lower-cased parts are within edit distance max(1, len/3) of each other
// ("Relase" and "Release"), or one is the other with the name of b's
// package or of one of its types added or dropped ("NewStore" and "New"
// when Store is a type), or, for the member of a type, b's part is a's with
// words dropped from its start or end ("Store.SweepExpired" and
// "Store.Sweep"). Other affix matches among top-level names ("Error" and
// "UsageError", "AddOption" and "Option") are too weak to suggest.
func certainlyClose(a, b string, pkg *retrieval.Package, member bool) bool {
	pa, pb := strings.Split(a, "."), strings.Split(b, ".")
	if len(pa) != len(pb) {
		return false
	}
	for i := range pa {
		if pa[i] == pb[i] {
			continue
		}
		x, y := pa[i], pb[i]
		if token0Exported(x) != token0Exported(y) {
			return false
		}
		lx, ly := strings.ToLower(x), strings.ToLower(y)
		if prose.EditDistance(lx, ly) <= max(1, len([]rune(x))/3) && wordsIntact(x, y) {
			return true
		}
		long, short := x, y
		if len(long) < len(short) {
			long, short = short, long
		}
		ll, ls := strings.ToLower(long), strings.ToLower(short)
		if len(ls) < 3 || len(ll) == len(ls) {
			return false
		}
		var extra string
		switch {
		case strings.HasPrefix(ll, ls):
			extra = long[len(short):]
		case strings.HasSuffix(ll, ls):
			extra = long[:len(long)-len(short)]
		default:
			return false
		}
		if member && i == len(pa)-1 && long == x {
			return true
		}
		return isPackageOrTypeName(pkg, extra)
	}
	return false
}

// wordsIntact reports whether the edit from x to y stays inside words:
// the part where they differ (after their common prefix and suffix,
// compared without case) holds no complete camel-case word of either.
// "Relase" and "Release" differ in one letter of a word; "EncodeOptions"
// and "IndexOptions" differ by a whole word, which is no typo.
func wordsIntact(x, y string) bool {
	rx, ry := []rune(strings.ToLower(x)), []rune(strings.ToLower(y))
	p := 0
	for p < len(rx) && p < len(ry) && rx[p] == ry[p] {
		p++
	}
	s := 0
	for s < len(rx)-p && s < len(ry)-p && rx[len(rx)-1-s] == ry[len(ry)-1-s] {
		s++
	}
	for _, n := range []string{x, y} {
		runes := []rune(n)
		end := len(runes) - s
		for _, w := range prose.WordSpans(runes) {
			if w[0] >= p && w[1] <= end {
				return false
			}
		}
	}
	return true
}

// plural reports whether name is the plural of a name that resolves, as
// prose writes it: "EncodeOptions" for EncodeOption, "Store.Entries" is
// not.
func plural(sc scope, name string) bool {
	last := lastPart(name)
	for _, suf := range []string{"s", "es"} {
		if len(last) > len(suf)+1 && strings.HasSuffix(last, suf) {
			if single := strings.TrimSuffix(name, suf); sc.resolves(single) {
				return true
			}
		}
	}
	return false
}

// memberVerb reports whether a bare name is a field or method of a type of
// the claim's package with -s or -es added, as prose uses a method's name
// as a verb ("ExecContext builds and ExecContexts the query").
func memberVerb(sc scope, name string) bool {
	for _, suf := range []string{"s", "es"} {
		if len(name) > len(suf)+1 && strings.HasSuffix(name, suf) && sc.hasMember(strings.TrimSuffix(name, suf)) {
			return true
		}
	}
	return false
}

// isUpgradeGuide reports whether path is an upgrade or migration guide
// ("UPGRADE.md", "docs/version_migration.md", "upgrade-notes.md"), whose
// code blocks show the old API on purpose. Its prose is still checked: a
// name neither version has is wrong there too.
func isUpgradeGuide(p string) bool {
	if path.Ext(p) == ".go" {
		return false
	}
	base := strings.ToLower(path.Base(p))
	base = strings.TrimSuffix(base, path.Ext(base))
	// A directory of guides named for the versions they lead to
	// (go-proxmox's migration/v0.10.0.md); not a package's README in a
	// migrations directory.
	if historyVersionRE.MatchString(base) {
		for _, dir := range strings.Split(path.Dir(strings.ToLower(p)), "/") {
			switch dir {
			case "upgrade", "upgrades", "upgrading", "migration", "migrations", "migrating":
				return true
			}
		}
	}
	words := strings.FieldsFunc(base, func(r rune) bool { return r == '-' || r == '_' || r == '.' || r == ' ' })
	for _, w := range words {
		switch w {
		case "upgrade", "upgrading", "migration", "migrating", "migrations":
			return true
		}
	}
	// "migrate" alone may name a tool (golang-migrate's docs); beside a
	// version it is a guide: migrate-v1-to-v2.md.
	if slices.Contains(words, "migrate") {
		for _, w := range words {
			if historyVersionRE.MatchString(w) {
				return true
			}
		}
	}
	return false
}

// majorDirRE matches a directory named for a major version ("v1", "v2.x").
var majorDirRE = regexp.MustCompile(`^v([0-9]+)(\.x)?$`)

// isOtherMajorDoc reports whether the documentation file p sits in a
// directory named for a major version other than the one of module
// modPath ("docs/v1/getting-started.md" in github.com/urfave/cli/v2):
// it documents that version's API on purpose.
func isOtherMajorDoc(p, modPath string) bool {
	if path.Ext(p) == ".go" || modPath == "" {
		return false
	}
	major := 1
	if i := strings.LastIndex(modPath, "/v"); i >= 0 {
		if n, err := strconv.Atoi(modPath[i+2:]); err == nil && n >= 2 {
			major = n
		}
	}
	for _, el := range strings.Split(path.Dir(p), "/") {
		if m := majorDirRE.FindStringSubmatch(el); m != nil {
			if n, err := strconv.Atoi(m[1]); err == nil && n != major {
				return true
			}
		}
	}
	return false
}

// isOtherVersionDoc is isOtherMajorDoc for the module that holds p.
func isOtherVersionDoc(ws *review.Workspace, p string) bool {
	return ws != nil && ws.Symbols != nil && isOtherMajorDoc(p, ws.Symbols.ModulePath(p))
}

// historyVersionRE matches the version suffix of a per-version change log
// ("-3.0", "_v2").
var historyVersionRE = regexp.MustCompile(`^[-_.]?v?[0-9]`)

// isHistory reports whether path is a change log, release notes or a
// design proposal, whose old names are history, not drift.
func isHistory(p string) bool {
	if path.Ext(p) == ".go" {
		return false
	}
	// Design proposals and decision records describe the code as it was
	// planned when they were accepted (docs/RFCS/20220311_….md, gateway-api's
	// geps/gep-1867/index.md, a KEP).
	for _, dir := range strings.Split(path.Dir(strings.ToLower(p)), "/") {
		switch dir {
		case "rfcs", "rfc", "proposals", "proposal", "adr", "adrs", "decisions", "geps", "keps", "enhancements":
			return true
		case ".changes", ".changelog", "changelog", "changelogs", "release-notes", "release_notes", "releasenotes":
			// Release notes, one file per version (changie's
			// .changes/1.1.1.md, godog's release-notes/v0.10.0.md).
			return true
		}
	}
	base := strings.ToLower(path.Base(p))
	base = strings.TrimSuffix(base, path.Ext(base))
	for _, h := range []string{"changelog", "changes", "history", "news", "releases", "release-notes", "release_notes", "releasenotes"} {
		// Also per version: CHANGELOG-3.0, changelog_v2.
		if rest, ok := strings.CutPrefix(base, h); ok && (rest == "" || historyVersionRE.MatchString(rest)) {
			return true
		}
	}
	return false
}

// isPackageOrTypeName reports whether name is the name of package p (in
// any case) or of a type declared in it.
func isPackageOrTypeName(p *retrieval.Package, name string) bool {
	if p == nil {
		return false
	}
	if strings.EqualFold(p.Name, name) {
		return true
	}
	if p.Types == nil {
		return false
	}
	_, ok := p.Types.Scope().Lookup(name).(*types.TypeName)
	return ok
}

// quotedOnly reports whether every occurrence of name in text stands
// inside double quotes, directly: "NewStore".
func quotedOnly(text, name string) bool {
	found := false
	for j, end := range wordSpans(text, name) {
		if j == 0 || text[j-1] != '"' || end == len(text) || text[end] != '"' && !strings.HasPrefix(text[end:], "()\"") {
			return false
		}
		found = true
	}
	return found
}

// testDecls returns the names the _test.go files of the package in dir
// declare at top level ("TestMain", "fakeStore", "fakeStore.Close"): doc
// comments in test files may use them, and the symbol table does not hold
// them.
func testDecls(ws *review.Workspace, dir string) map[string]bool {
	names := map[string]bool{}
	p := ws.Symbols.Package(dir)
	if p == nil || ws.HeadFS == nil {
		return names
	}
	fset := token.NewFileSet()
	for _, path := range p.TestFiles {
		src, err := fs.ReadFile(ws.HeadFS, path)
		if err != nil {
			continue
		}
		f, err := parser.ParseFile(fset, path, src, parser.SkipObjectResolution)
		if f == nil {
			continue
		}
		_ = err // a partial file still declares names
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				names[d.Name.Name] = true
				if d.Recv != nil && len(d.Recv.List) == 1 {
					if recv := retrieval.ReceiverTypeName(d.Recv.List[0].Type); recv != "" {
						names[recv+"."+d.Name.Name] = true
					}
				}
			case *ast.GenDecl:
				for _, spec := range d.Specs {
					switch spec := spec.(type) {
					case *ast.TypeSpec:
						names[spec.Name.Name] = true
					case *ast.ValueSpec:
						for _, n := range spec.Names {
							names[n.Name] = true
						}
					}
				}
			}
		}
	}
	return names
}

// anchored reports whether a name not found anywhere is still clearly
// about the module, so that a close name can stand in for it: a single
// exported or identifier-shaped name, "pkg.Exported" for a module package
// pkg, or "Type.Member" for a module type. Lower-case prefixes that are
// neither (a local variable, a standard library or third-party package)
// are not.
func anchored(sc scope, name string) bool {
	first, rest, dotted := strings.Cut(name, ".")
	if !dotted {
		return token0Exported(name) || identShaped(name)
	}
	if len(sc.packagesNamed(first)) > 0 {
		return token0Exported(rest)
	}
	sym, ok := sc.lookup(first)
	return ok && sym.Kind == "type"
}

func token0Exported(s string) bool {
	r := []rune(s)
	return len(r) > 0 && unicode.IsUpper(r[0])
}

// identShaped reports whether a prose word looks like an identifier rather
// than an English word: an inner capital after a lower-case letter
// ("maxSize", "NewStore"), an underscore, or a dot.
func identShaped(s string) bool {
	if strings.ContainsAny(s, "._") {
		return true
	}
	runes := []rune(s)
	for i := 1; i < len(runes); i++ {
		if unicode.IsUpper(runes[i]) && unicode.IsLower(runes[i-1]) {
			return true
		}
	}
	return false
}

// refName extracts the identifier a mention names, normalised: doc links
// lose a leading star, code loses call parentheses and "(*T).M" becomes
// "T.M"; prose words must look like identifiers. It fails for anything
// that is not a plain dotted identifier (expressions, paths, flags).
func refName(m review.Mention) (string, bool) {
	text := strings.TrimSpace(m.Text)
	switch m.Kind {
	case review.MentionDocLink:
		text = strings.TrimPrefix(text, "*")
	case review.MentionCode:
		text = strings.TrimPrefix(text, "&")
		if strings.HasPrefix(text, "(*") {
			if typ, rest, ok := strings.Cut(text[2:], ")."); ok {
				text = typ + "." + rest
			}
		}
		text = strings.TrimPrefix(text, "*")
		text = trimCall(text)
	case review.MentionIdent:
		called := strings.HasSuffix(text, "()")
		text = trimCall(text)
		if !called && !identShaped(text) {
			return "", false
		}
	default:
		return "", false
	}
	if !isIdentPath(text) || text == "_" {
		return "", false
	}
	return text, true
}

// trimCall strips a trailing argument list: "Store.Hold(ctx, id)" gives
// "Store.Hold".
func trimCall(s string) string {
	if strings.HasSuffix(s, ")") {
		if i := strings.IndexByte(s, '('); i > 0 {
			return s[:i]
		}
	}
	return s
}

// inBlock reports whether m lies inside one of the code blocks of
// mentions (other than being the block itself).
func inBlock(mentions []review.Mention, m review.Mention) bool {
	if m.Kind == review.MentionBlock {
		return false
	}
	for _, b := range mentions {
		if b.Kind == review.MentionBlock && m.Line >= b.Line && m.EndLine <= b.EndLine && m.Line > 0 {
			return true
		}
	}
	return false
}

// isFile reports whether name is really a file name: a path that exists at
// head relative to the claim's directory or the repository root.
func isFile(fsys fs.FS, claimPath, name string) bool {
	if fsys == nil {
		return false
	}
	for _, p := range []string{name, path.Join(path.Dir(claimPath), name)} {
		if _, err := fs.Stat(fsys, p); err == nil {
			return true
		}
	}
	return false
}

// countWord counts the occurrences of word in text that stand alone as an
// identifier (a selector like ".Hold" counts).
func countWord(text, word string) int {
	n := 0
	for i := 0; i < len(text); {
		j := strings.Index(text[i:], word)
		if j < 0 {
			break
		}
		j += i
		end := j + len(word)
		if (j == 0 || !isIdentByte(text[j-1])) && (end == len(text) || !isIdentByte(text[end])) {
			n++
		}
		i = end
	}
	return n
}
