package retrieval

import (
	"go/ast"
	"go/token"
	"go/types"
	"log/slog"
	"strings"
	"sync"
)

// Symbols is the Go symbol table of a repository at one commit: every
// package of its module (and of modules nested in it), parsed with
// go/parser and type-checked with go/types, with an index of declarations,
// a call graph and the tests and examples that use each symbol.
//
// A Symbols is built by [LoadSymbols] and is read-only afterwards; its
// methods are safe for concurrent use. The zero value holds no packages.
type Symbols struct {
	fset *token.FileSet

	pkgs   []*Package // sorted by Dir
	byDir  map[string]*Package
	byPath map[string]*Package
	// byName maps package names and last import path elements to the
	// module packages carrying them, sorted by Dir.
	byName  map[string][]*Package
	modules []symModule
	// excluded holds the import paths of directories whose Go files are all
	// excluded by build constraints: their names are unknown, not missing.
	excluded map[string]bool

	// symAt maps the position of a declared name to its symbol.
	symAt map[token.Pos]*Symbol
	// defined holds every symbol name of the module ("New", "Cache.Purge").
	defined map[string]bool
	names   []string

	std   *symStd
	deps  *symDeps
	fakes *symFakes

	logger *slog.Logger

	// testsOnce guards the type-checking of test files (loadTests).
	testsOnce sync.Once
	graphOnce sync.Once
	graph     *symGraph
	usesOnce  sync.Once
	uses      map[token.Pos][]symUse
}

// Package is one Go package of the repository, or a standard library
// package reached through [Symbols.Lookup] (then only ImportPath, Name and
// Types are set).
type Package struct {
	// Dir is the package's directory, slash-separated and relative to the
	// repository root ("." for the root).
	Dir string
	// ImportPath is the package's import path: its module's path joined
	// with Dir relative to the module's root; Dir itself when the
	// repository has no go.mod.
	ImportPath string
	// Name is the package name of the non-test files (of the in-package
	// test files for a directory holding only tests).
	Name string
	// Module is the path of the module the package belongs to (the module
	// directive of the nearest go.mod above Dir); empty without go.mod.
	Module string
	// Files lists the non-test .go files, repository-relative and sorted.
	Files []string
	// TestFiles lists the _test.go files, in-package and external, sorted.
	TestFiles []string
	// Fset holds the positions of every file of the Symbols it belongs to.
	Fset *token.FileSet
	// Syntax holds the parsed non-test files, in the order of Files
	// (minus files too broken to yield a package clause).
	Syntax []*ast.File
	// Types is the type-checked package; never nil for a loaded package.
	Types *types.Package
	// Info holds Defs, Uses, Types, Selections, Implicits and Instances for
	// Syntax.
	Info *types.Info
	// Errors lists the parse errors of its files and the type errors of
	// its non-test files met while loading the package, for information:
	// loading never fails on them. (Test files are type-checked only when
	// their evidence is first asked for.)
	Errors []error
	// Platform is the GOOS the package's files were selected for when
	// linux/amd64 excludes every one of them ("windows" for go-winio);
	// empty otherwise.
	Platform string

	std bool
	// incomplete is true when a file of the package did not parse: names
	// missing from it may exist in the part that was lost.
	incomplete bool
	// otherNames holds the names declared by files excluded by build
	// constraints ("WindowsOnly", "Conn.Fd"): unknown, not missing.
	otherNames map[string]bool
	state      symCheckState
	// members caches Members.
	membersOnce sync.Once
	members     map[string][]string
	// imports maps the import names used in the non-test files to import
	// paths; testImports does the same for the test files.
	imports, testImports map[string]string
	syms                 []*Symbol
	symByName            map[string]*Symbol
	pkgSym               *Symbol

	internalTests, externalTests []*ast.File
	testInfo, xtestInfo          *types.Info
	testFuncs                    []*symTestFunc
	testErrors                   []error
}

// SymbolKind says what a [Symbol] declares.
type SymbolKind string

// The kinds of [Symbol].
const (
	SymbolPackage SymbolKind = "package"
	SymbolFunc    SymbolKind = "func"
	SymbolMethod  SymbolKind = "method"
	SymbolType    SymbolKind = "type"
	SymbolField   SymbolKind = "field"
	SymbolConst   SymbolKind = "const"
	SymbolVar     SymbolKind = "var"
)

// Symbol is a declared Go name: a package, a top-level func, type, const
// or var, a method (also of an interface) or a struct field.
type Symbol struct {
	// Name is qualified within its package: "New", "Cache",
	// "Cache.Purge", "Options.Timeout", "MaxSize"; for a package symbol,
	// the package name.
	Name    string
	Kind    SymbolKind
	Package *Package
	// Path, Line and EndLine locate the declaration (for funcs and methods
	// including the body; for a package, its package clause);
	// repository-relative and 1-based. Empty for standard library symbols.
	Path          string
	Line, EndLine int
	// DocLine and DocEndLine are the lines of the doc comment (for fields
	// and grouped consts and vars without one, the line comment, then the
	// group's doc comment); 0 when there is none.
	DocLine, DocEndLine int
	// Doc is the doc comment's text, as [ast.CommentGroup.Text] gives it.
	Doc string
	// Signature is the declaration in one line, without body or fields:
	// "func (c *Cache) Purge(ctx context.Context) error",
	// "type Options struct", "const MaxSize = 100", "Timeout time.Duration".
	Signature string
	// Exported is true when the name is exported and so is the type it
	// belongs to, if any.
	Exported bool
	// Object is the go/types object declared; nil for package symbols.
	Object types.Object
}

// Ref is a piece of evidence the symbol table reaches from a symbol: a
// definition, a callee or caller, a test, an example or a use.
type Ref struct {
	// Symbol is what the evidence is: the callee, the caller, the test or
	// example function, or for references the declaration enclosing the
	// use (zero when the use is outside any).
	Symbol Symbol
	// Path, Line and EndLine locate the evidence, repository-relative and
	// 1-based.
	Path          string
	Line, EndLine int
	// Why says how the evidence was reached: "defines Cache.Purge",
	// "callee of Cache.Purge", "test that calls Cache.Purge".
	Why string
	// Hops is the chain of symbol names from the queried symbol to the
	// evidence, both included; names of other packages are qualified with
	// their package name.
	Hops []string
}

// symModule is a go.mod of the repository.
type symModule struct {
	dir, path string
}

// symCheckState tracks type-checking of a package, to detect import cycles.
type symCheckState int

const (
	symUnchecked symCheckState = iota
	symChecking
	symChecked
)

// Packages returns the repository's packages, sorted by Dir.
func (s *Symbols) Packages() []*Package {
	return append([]*Package(nil), s.pkgs...)
}

// ModulePath returns the path of the module whose go.mod is nearest above
// the file or directory p (slash-separated, relative to the root), or ""
// when no go.mod holds it.
func (s *Symbols) ModulePath(p string) string {
	best, bestLen := "", -1
	for _, m := range s.modules {
		n := 0
		if m.dir != "." {
			if p != m.dir && !strings.HasPrefix(p, m.dir+"/") {
				continue
			}
			n = len(m.dir)
		}
		if n > bestLen {
			best, bestLen = m.path, n
		}
	}
	return best
}

// Package returns the package in dir (slash-separated, relative to the
// root, "." for the root), or nil if there is none.
func (s *Symbols) Package(dir string) *Package {
	return s.byDir[symCleanDir(dir)]
}

// PackageByPath returns the repository package with the given import path,
// or nil if there is none.
func (s *Symbols) PackageByPath(importPath string) *Package {
	return s.byPath[importPath]
}

// Members returns the field and method names of the named types p
// declares (methods of the pointer type included, promoted members too),
// each with the names of the types that have it, sorted. It is computed
// once; the map must not be modified.
func (p *Package) Members() map[string][]string {
	p.membersOnce.Do(func() {
		p.members = map[string][]string{}
		if p.Types == nil {
			return
		}
		sc := p.Types.Scope()
		for _, n := range sc.Names() {
			tn, ok := sc.Lookup(n).(*types.TypeName)
			if !ok {
				continue
			}
			t := tn.Type()
			if !types.IsInterface(t) {
				t = types.NewPointer(t)
			}
			add := func(m string) {
				if owners := p.members[m]; len(owners) == 0 || owners[len(owners)-1] != n {
					p.members[m] = append(owners, n)
				}
			}
			for sel := range types.NewMethodSet(t).Methods() {
				add(sel.Obj().Name())
			}
			symStructFields(tn.Type(), 0, add)
		}
	})
	return p.members
}

// symStructFields calls add for each field of t's struct, and for the
// fields promoted through its embedded fields and those of its fields of
// an unnamed struct type (Config.Producer.Flush.MaxMessages), up to a
// depth of three.
func symStructFields(t types.Type, depth int, add func(string)) {
	if ptr, ok := t.(*types.Pointer); ok {
		t = ptr.Elem()
	}
	st, ok := t.Underlying().(*types.Struct)
	if !ok || depth > 3 {
		return
	}
	for f := range st.Fields() {
		add(f.Name())
		if f.Embedded() || unnamedStruct(f.Type()) {
			symStructFields(f.Type(), depth+1, add)
		}
	}
}

// unnamedStruct reports whether t is a struct type literal, or a pointer
// to one.
func unnamedStruct(t types.Type) bool {
	if ptr, ok := t.(*types.Pointer); ok {
		t = ptr.Elem()
	}
	_, ok := t.(*types.Struct)
	return ok
}

// PackageOf returns the loaded package, of the repository or the standard
// library, whose type information is tp; nil for any other package.
func (s *Symbols) PackageOf(tp *types.Package) *Package {
	if tp == nil {
		return nil
	}
	if p := s.byPath[tp.Path()]; p != nil && p.Types == tp {
		return p
	}
	if symIsStdPath(tp.Path()) {
		if p, ok := s.std.loaded(tp.Path()); ok && p.Types == tp {
			return p
		}
	}
	return nil
}

// Complete reports whether every file of p parsed and was type-checked, so
// that a name p does not declare is really not there. Names declared only
// in files excluded by build constraints still count as unknown; see
// [Symbols.Resolves].
func (p *Package) Complete() bool {
	return p != nil && p.Types != nil && !p.incomplete
}
