package retrieval

import (
	"context"
	"go/token"
	"go/types"
	"slices"
)

// This file holds what a checker that type-checks code of its own against
// the repository (a code block of the documentation) needs to know about
// the symbol table beyond its lookups: an importer, and which packages and
// types are known in full.

// Importer returns the importer that type-checks code against the
// repository as the symbol table did: a repository package as loaded, a
// standard library package from the [TypeCache] or GOROOT's sources (ctx
// bounds the go command runs needed for packages not loaded yet), and any
// other package, or a repository directory that build constraints exclude,
// as an empty placeholder (see [Symbols.Placeholder]). An import path inside
// the repository's modules that no package has, or one the standard library
// lacks ([ErrStdMissing]), is an error. The importer is safe for concurrent
// use.
func (s *Symbols) Importer(ctx context.Context) types.Importer {
	return s.importer(ctx, nil)
}

// Placeholder reports whether tp is an empty stand-in for a package the
// symbol table did not load (a third-party package, a standard package it
// cannot load, a directory whose files build constraints exclude), as
// [Symbols.Importer] returns: what refers to its names is unknown, not
// wrong.
func (s *Symbols) Placeholder(tp *types.Package) bool {
	return s.fakes.is(tp)
}

// UnknownMembers reports whether t (or what it points to) may have fields
// or methods the symbol table cannot see: its named type, or a type it
// embeds, belongs to a [Symbols.Placeholder] package, or it is invalid.
func (s *Symbols) UnknownMembers(t types.Type) bool {
	return s.unknownMembers(t, 0)
}

// SymbolAt returns the repository symbol whose declared name is at pos, a
// position of the symbol table's file set such as the [types.Object.Pos]
// of an object of a repository package (of a generic function's origin,
// not of an instance); false when none is declared there.
func (s *Symbols) SymbolAt(pos token.Pos) (Symbol, bool) {
	sym := s.symAt[pos]
	if sym == nil {
		return Symbol{}, false
	}
	return *sym, true
}

// PackagesNamed returns the repository packages whose package name or last
// import path element is name, sorted by Dir.
func (s *Symbols) PackagesNamed(name string) []*Package {
	return slices.Clone(s.byName[name])
}

// TestImportedAs is [Symbols.ImportedAs] for the test files, in-package and
// external, of the package in fromDir.
func (s *Symbols) TestImportedAs(fromDir, name string) (string, bool) {
	p := s.Package(fromDir)
	if p == nil {
		return "", false
	}
	ip, ok := p.testImports[name]
	return ip, ok
}

// InModule reports whether importPath lies within one of the repository's
// modules (it may still name no package).
func (s *Symbols) InModule(importPath string) bool {
	return s.inModule(importPath)
}

// Excluded reports whether importPath is a directory of the repository
// whose Go files build constraints all exclude (files for another
// operating system, or behind a build tag): it has no [Package], yet what
// it declares is unknown, not missing.
func (s *Symbols) Excluded(importPath string) bool {
	return s.excluded[importPath]
}

// ModulePaths returns the paths of the repository's modules (one per
// go.mod with a module directive), sorted by the go.mod's directory.
func (s *Symbols) ModulePaths() []string {
	var out []string
	for _, m := range s.modules {
		out = append(out, m.path)
	}
	return out
}

// StdPackage returns the standard library package ip, loading it (and what
// it imports) from the [TypeCache] or GOROOT's sources when first asked;
// ctx bounds that load. The error is [ErrStdMissing] when the standard
// library has no such package, another one when it cannot be loaded.
func (s *Symbols) StdPackage(ctx context.Context, ip string) (*Package, error) {
	return s.std.pkg(ctx, ip)
}

// DepPackage returns the package ip of a dependency of the repository
// that [Symbols.Importer] loaded from the module cache, at the version
// go.mod requires: the names it declares are known in full, so a name it
// lacks is missing, as in a repository package. What it imports that
// could not be loaded leaves types invalid ([Symbols.UnknownMembers]),
// never a declaration out. It has ImportPath, Name, Types and Fset set;
// false for any other path, and for a dependency not loaded yet.
func (s *Symbols) DepPackage(ip string) (*Package, bool) {
	return s.deps.knownPkg(ip)
}

// PlaceholderOf returns the empty stand-in [Symbols.Importer] gives a
// package it does not load, for ip: a checker that guesses a dependency
// for a name a code block uses without importing it imports this instead,
// so that a guess is never judged against the dependency's API.
func (s *Symbols) PlaceholderOf(ip string) *types.Package {
	return s.fakes.get(ip, "")
}

// DependencyDeclares reports whether a dependency package loaded so far
// declares name at its top level, exported or not: a doc that names it
// ("maxCellLevel in the geo repo's region coverer") speaks of that code.
func (s *Symbols) DependencyDeclares(name string) bool {
	return s.deps.declares(name)
}

// DepModule returns the requirement of the repository's go.mod files
// that provides package ip of a dependency: the module path and the
// version read ("v1.0.0", or "other/path@v1.0.0" for a replacement);
// false when none does.
func (s *Symbols) DepModule(ip string) (path, version string, ok bool) {
	return s.deps.module(ip)
}

// StdPathsByPreference returns the import paths of the standard library
// packages called name, the one a bare name.X most likely means first
// (math/rand before crypto/rand, text/template before html/template, then
// fewer path elements first); nil when there is none or the list of
// standard packages is unknown. Unlike [Symbols.StdPaths] it neither sorts
// the paths by name nor falls back to a list of common packages.
func (s *Symbols) StdPathsByPreference(name string) []string {
	return slices.Clone(s.std.pathsNamed(name))
}

// StdClosestPath returns the one standard library import path within two
// edits of ip (one for paths of up to four letters), or "" when there is
// none, more than one, or the list of standard packages is unknown.
func (s *Symbols) StdClosestPath(ip string) string {
	return s.std.closestPath(ip)
}

// ExcludedName reports whether name ("WindowsOnly", "Conn.Fd") is declared
// by a file of p that build constraints exclude: such a name is unknown,
// not missing. See also [Symbols.Resolves].
func (p *Package) ExcludedName(name string) bool {
	return p != nil && p.otherNames[name]
}
