package retrieval

import (
	"bytes"
	"context"
	"fmt"
	"go/ast"
	"go/build/constraint"
	"go/parser"
	"go/token"
	"go/types"
	"io/fs"
	"log/slog"
	"path"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// symGoMinor is the newest Go minor version whose go1.N build tags hold.
const symGoMinor = 26

// LoadSymbols parses and type-checks the Go packages among files (the
// repository's file list: slash paths relative to the root of fsys; only
// .go and go.mod files are read) and indexes their declarations. logger
// receives progress and the reasons for fallbacks; nil discards them.
//
// Each package gets its import path from the module directive of the
// nearest go.mod at or above its directory, so modules nested in the
// repository are handled; without any go.mod the directory is the import
// path. As the go tool does, it skips directories named testdata or
// vendor or starting with _ or ., and files excluded for linux/amd64 by
// their //go:build line or a _GOOS / _GOARCH name suffix (cgo counts as
// enabled).
//
// Standard library packages are loaded when the repository's code first
// imports them or a lookup first names them: type-checked from GOROOT's
// sources, declarations only (see [TypeCache], whose method of this name
// keeps them between loads); without GOROOT's sources they are unknown.
// Packages of the modules the repository's go.mod files require are
// loaded the same way from the local module cache (`go env GOMODCACHE`),
// at the required version after replace directives, up to a budget of
// packages; nothing is ever downloaded. Any other third-party package, and
// one whose module the cache lacks, stands as an empty placeholder, and
// what refers to it counts as unknown, not missing.
//
// A file that does not read or parse, or a package with type errors, is
// kept with what could be understood and the errors recorded in
// [Package.Errors]; the load fails only when ctx ends (with ctx's error).
func LoadSymbols(ctx context.Context, fsys fs.FS, files []string, logger *slog.Logger) (*Symbols, error) {
	return loadSymbols(ctx, nil, fsys, files, logger)
}

// loadSymbols is LoadSymbols with std from cache (nil keeps nothing).
func loadSymbols(ctx context.Context, cache *TypeCache, fsys fs.FS, files []string, logger *slog.Logger) (*Symbols, error) {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	started := time.Now()
	s := &Symbols{
		fset:     token.NewFileSet(),
		byDir:    make(map[string]*Package),
		byPath:   make(map[string]*Package),
		byName:   make(map[string][]*Package),
		excluded: make(map[string]bool),
		symAt:    make(map[token.Pos]*Symbol),
		defined:  make(map[string]bool),
		fakes:    &symFakes{m: make(map[string]*types.Package)},
		logger:   logger,
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("load symbols: %w", err)
	}
	s.modules = symFindModules(fsys, files, logger)
	if err := s.parseAll(ctx, fsys, files); err != nil {
		return nil, fmt.Errorf("load symbols: %w", err)
	}
	parsed := time.Now()
	s.std = newSymStd(ctx, cache, s.fset, logger)
	s.std.prefetch(ctx, s.stdImports())
	if cache == nil || !cache.NoDependencies {
		s.deps = newSymDeps(fsys, files, s)
	}
	stdDone := time.Now()
	for _, p := range s.pkgs {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("load symbols: %w", err)
		}
		s.check(ctx, p)
	}
	checked := time.Now()
	for _, p := range s.pkgs {
		s.indexPackage(p)
		p.testImports = s.astImportNames(p, p.internalTests, p.externalTests)
	}
	s.indexNames()
	nerr := 0
	for _, p := range s.pkgs {
		nerr += len(p.Errors)
	}
	ms := func(d time.Duration) time.Duration { return d.Round(time.Millisecond) }
	stdMode, stdCached, stdChecked := s.std.stats()
	depsChecked, depsErrs := s.deps.stats()
	logger.Info("symbols loaded", "packages", len(s.pkgs), "modules", len(s.modules),
		"symbols", len(s.symAt), "errors", nerr, "std", stdMode, "std_cached", stdCached, "std_checked", stdChecked,
		"deps_checked", depsChecked, "deps_with_errors", depsErrs,
		"duration", ms(time.Since(started)), "parse", ms(parsed.Sub(started)), "std_setup", ms(stdDone.Sub(parsed)),
		"check", ms(checked.Sub(stdDone)), "index", ms(time.Since(checked)))
	return s, nil
}

// symFile is one parsed .go file.
type symFile struct {
	path string
	ast  *ast.File // nil when not even the package clause parsed
	test bool
	// header is the file's text before its package clause, where build
	// constraints stand.
	header []byte
}

// parseAll reads and parses the Go files of files and groups them into
// packages.
func (s *Symbols) parseAll(ctx context.Context, fsys fs.FS, files []string) error {
	byDir := make(map[string][]symFile)
	errs := make(map[string][]error)
	// other holds the names declared by files excluded by build
	// constraints: documentation may mention them.
	other := make(map[string]map[string]bool)
	// aside holds the sources of those files, for a directory with no
	// other (a Windows-only package).
	aside := make(map[string][]symSource)
	var dirs []string
	for _, p := range symSorted(files) {
		if !strings.HasSuffix(p, ".go") || symSkipPath(p) {
			continue
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		dir := path.Dir(p)
		if _, ok := byDir[dir]; !ok {
			byDir[dir] = nil
			dirs = append(dirs, dir)
		}
		src, err := fs.ReadFile(fsys, p)
		if err != nil {
			errs[dir] = append(errs[dir], fmt.Errorf("read %s: %w", p, err))
			byDir[dir] = append(byDir[dir], symFile{path: p, test: strings.HasSuffix(p, "_test.go")})
			continue
		}
		if !symGoodOSArch(path.Base(p)) || !symBuildOK(src) {
			if other[dir] == nil {
				other[dir] = make(map[string]bool)
			}
			symDeclaredNames(p, src, other[dir])
			aside[dir] = append(aside[dir], symSource{path: p, src: src})
			continue
		}
		f, err := parser.ParseFile(s.fset, p, src, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			errs[dir] = append(errs[dir], fmt.Errorf("parse %s: %w", p, err))
		}
		if f != nil && (f.Name == nil || f.Name.Name == "" || f.Name.Name == "_") {
			f = nil
		}
		byDir[dir] = append(byDir[dir], symFile{path: p, ast: f, test: strings.HasSuffix(p, "_test.go"), header: symHeader(src)})
	}
	for _, dir := range dirs {
		dirFiles := byDir[dir]
		// A directory most of whose files are for another platform is
		// read as that platform sees it (go-winio is Windows-only), its
		// files type-checked against the standard library as docreview
		// sees it, whose errors leave types invalid, never names missing.
		platform := symPlatform{}
		if files, pl, names, ok := s.parseOther(dirFiles, aside[dir], errs, dir); ok {
			dirFiles, platform, other[dir] = files, pl, names
		}
		if len(dirFiles) == 0 {
			// Every file is excluded by build constraints.
			s.excluded[s.importPath(dir)] = true
			continue
		}
		p := s.newPackage(dir, dirFiles, errs[dir])
		p.Platform = platform.goos
		p.otherNames = other[dir]
		s.pkgs = append(s.pkgs, p)
		s.byDir[p.Dir] = p
		s.byPath[p.ImportPath] = p
	}
	slices.SortFunc(s.pkgs, func(a, b *Package) int { return strings.Compare(a.Dir, b.Dir) })
	return nil
}

// symSource is a file's path and text.
type symSource struct {
	path string
	src  []byte
}

// parseOther returns, for a directory whose files linux/amd64 admits
// (linux) or excludes (aside), none of them written for linux, the files
// of the first of symOtherPlatforms that admits more of its non-test
// files than linux/amd64 does, the excluded ones parsed, with that
// platform and the names the files it leaves out declare; false when
// there is none.
func (s *Symbols) parseOther(linux []symFile, aside []symSource, errs map[string][]error, dir string) ([]symFile, symPlatform, map[string]bool, bool) {
	if len(aside) == 0 {
		return nil, symPlatform{}, nil, false
	}
	count := func(pl symPlatform) (n int) {
		for _, f := range linux {
			if !f.test && pl.goodOSArch(path.Base(f.path)) && pl.buildOK(f.header) {
				n++
			}
		}
		for _, f := range aside {
			if !strings.HasSuffix(f.path, "_test.go") && pl.goodOSArch(path.Base(f.path)) && pl.buildOK(f.src) {
				n++
			}
		}
		return n
	}
	own := 0
	for _, f := range linux {
		if symForLinux(f) {
			// A file written for linux (gopsutil's process_linux.go)
			// makes the directory linux's as much as any platform's.
			return nil, symPlatform{}, nil, false
		}
		if !f.test {
			own++
		}
	}
	for _, pl := range symOtherPlatforms {
		if count(pl) <= own {
			continue
		}
		var out []symFile
		left := map[string]bool{}
		for _, f := range linux {
			if pl.goodOSArch(path.Base(f.path)) && pl.buildOK(f.header) {
				out = append(out, f)
			} else if f.ast != nil {
				symFileNames(f.ast, left)
			}
		}
		for _, f := range aside {
			if !pl.goodOSArch(path.Base(f.path)) || !pl.buildOK(f.src) {
				symDeclaredNames(f.path, f.src, left)
				continue
			}
			af, err := parser.ParseFile(s.fset, f.path, f.src, parser.ParseComments|parser.SkipObjectResolution)
			if err != nil {
				errs[dir] = append(errs[dir], fmt.Errorf("parse %s: %w", f.path, err))
			}
			if af != nil && (af.Name == nil || af.Name.Name == "" || af.Name.Name == "_") {
				af = nil
			}
			out = append(out, symFile{path: f.path, ast: af, test: strings.HasSuffix(f.path, "_test.go")})
		}
		slices.SortFunc(out, func(a, b symFile) int { return strings.Compare(a.path, b.path) })
		return out, pl, left, true
	}
	return nil, symPlatform{}, nil, false
}

// symForLinux reports whether a file is selected for linux/amd64 by its
// name (x_linux.go, x_unix.go is no suffix Go knows) or by a build
// constraint that names linux or unix.
func symForLinux(f symFile) bool {
	name, _, _ := strings.Cut(path.Base(f.path), ".")
	name = strings.TrimSuffix(name, "_test")
	if strings.HasSuffix(name, "_linux") || strings.Contains(name, "_linux_") {
		return true
	}
	for _, l := range strings.Split(string(f.header), "\n") {
		t := strings.TrimSpace(l)
		if (constraint.IsGoBuild(t) || constraint.IsPlusBuild(t)) && (strings.Contains(t, "linux") || strings.Contains(t, "unix")) {
			return true
		}
	}
	return false
}

// symHeader returns a file's text before its package clause, where build
// constraints stand (all of it when it has none).
func symHeader(src []byte) []byte {
	for i := 0; i < len(src); {
		j := bytes.IndexByte(src[i:], '\n')
		line := src[i:]
		if j >= 0 {
			line = src[i : i+j]
		}
		if bytes.HasPrefix(bytes.TrimSpace(line), []byte("package ")) {
			return src[:i]
		}
		if j < 0 {
			break
		}
		i += j + 1
	}
	return src
}

// newPackage builds the package of dir from its files.
func (s *Symbols) newPackage(dir string, files []symFile, errs []error) *Package {
	p := &Package{Dir: dir, Fset: s.fset, Errors: errs, incomplete: len(errs) > 0}
	p.Module = s.moduleOf(dir).path
	p.ImportPath = s.importPath(dir)

	// The package name is the most common one of the non-test files (the
	// first file's on a tie); files naming another package are left out.
	count := make(map[string]int)
	var order []string
	for _, f := range files {
		if f.test || f.ast == nil {
			continue
		}
		n := f.ast.Name.Name
		if count[n] == 0 {
			order = append(order, n)
		}
		count[n]++
	}
	for _, n := range order {
		if p.Name == "" || count[n] > count[p.Name] {
			p.Name = n
		}
	}
	if p.Name == "" {
		for _, f := range files {
			if f.test && f.ast != nil {
				p.Name = strings.TrimSuffix(f.ast.Name.Name, "_test")
				if !strings.HasSuffix(f.ast.Name.Name, "_test") {
					break
				}
			}
		}
	}
	for _, f := range files {
		switch {
		case f.ast == nil:
			if f.test {
				p.TestFiles = append(p.TestFiles, f.path)
			} else {
				p.Files = append(p.Files, f.path)
			}
			p.incomplete = true
		case !f.test && f.ast.Name.Name == p.Name:
			p.Files = append(p.Files, f.path)
			p.Syntax = append(p.Syntax, f.ast)
		case f.test && f.ast.Name.Name == p.Name:
			p.TestFiles = append(p.TestFiles, f.path)
			p.internalTests = append(p.internalTests, f.ast)
		case f.test && f.ast.Name.Name == p.Name+"_test":
			p.TestFiles = append(p.TestFiles, f.path)
			p.externalTests = append(p.externalTests, f.ast)
		default:
			p.Errors = append(p.Errors, fmt.Errorf("%s: package %s, want %s: file left out", f.path, f.ast.Name.Name, p.Name))
		}
	}
	return p
}

// symDeclaredNames adds the names a file declares ("New", "Cache",
// "Cache.Purge", "Options.Timeout") to set, as far as it parses.
func symDeclaredNames(p string, src []byte, set map[string]bool) {
	f, _ := parser.ParseFile(token.NewFileSet(), p, src, parser.SkipObjectResolution)
	if f == nil {
		return
	}
	symFileNames(f, set)
}

// symFileNames adds the names a parsed file declares to set, as
// [symDeclaredNames] does.
func symFileNames(f *ast.File, set map[string]bool) {
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Recv != nil && len(d.Recv.List) > 0 {
				set[ReceiverTypeName(d.Recv.List[0].Type)+"."+d.Name.Name] = true
			} else {
				set[d.Name.Name] = true
			}
		case *ast.GenDecl:
			for _, spec := range d.Specs {
				switch spec := spec.(type) {
				case *ast.TypeSpec:
					set[spec.Name.Name] = true
					if st, ok := spec.Type.(*ast.StructType); ok {
						for _, field := range st.Fields.List {
							for _, id := range field.Names {
								set[spec.Name.Name+"."+id.Name] = true
							}
						}
					}
				case *ast.ValueSpec:
					for _, id := range spec.Names {
						set[id.Name] = true
					}
				}
			}
		}
	}
}

// stdImports returns the sorted import paths of standard library packages
// that the repository's non-test files import.
func (s *Symbols) stdImports() []string {
	set := make(map[string]bool)
	for _, p := range s.pkgs {
		for _, f := range p.Syntax {
			for _, imp := range f.Imports {
				ip, err := strconv.Unquote(imp.Path.Value)
				if err != nil || ip == "C" || ip == "unsafe" || s.byPath[ip] != nil || s.inModule(ip) || !symIsStdPath(ip) {
					continue
				}
				set[ip] = true
			}
		}
	}
	return symSortedKeys(set)
}

// moduleOf returns the module of the nearest go.mod at or above dir; the
// zero module when there is none.
func (s *Symbols) moduleOf(dir string) symModule {
	var best symModule
	bestLen := -1
	for _, m := range s.modules {
		if !symDirWithin(dir, m.dir) {
			continue
		}
		n := len(m.dir)
		if m.dir == "." {
			n = 0
		}
		if n > bestLen {
			best, bestLen = m, n
		}
	}
	return best
}

// importPath returns the import path of the package in dir.
func (s *Symbols) importPath(dir string) string {
	m := s.moduleOf(dir)
	if m.path == "" {
		return dir
	}
	if dir == m.dir {
		return m.path
	}
	rel := dir
	if m.dir != "." {
		rel = strings.TrimPrefix(dir, m.dir+"/")
	}
	return m.path + "/" + rel
}

// inModule reports whether importPath lies within one of the repository's
// modules.
func (s *Symbols) inModule(importPath string) bool {
	for _, m := range s.modules {
		if m.path != "" && (importPath == m.path || strings.HasPrefix(importPath, m.path+"/")) {
			return true
		}
	}
	return false
}

// check type-checks p, first its module imports, and indexes nothing.
func (s *Symbols) check(ctx context.Context, p *Package) {
	if p.state != symUnchecked {
		return
	}
	p.state = symChecking
	conf := s.config(ctx, nil, func(err error) { p.Errors = append(p.Errors, err) })
	info := symNewInfo()
	tp := symCheck(conf, p.ImportPath, p.Name, s.fset, p.Syntax, info, func(err error) {
		p.Errors = append(p.Errors, err)
		p.incomplete = true
	})
	if tp.Name() == "" {
		tp.SetName(p.Name)
	}
	p.Types, p.Info = tp, info
	p.imports = symImportNames(p.Syntax, info)
	p.state = symChecked
}

// loadTests type-checks and indexes the test files of every package, once,
// when first needed: most reviews and queries never look at tests, and
// they are often as large as the code. It runs without a deadline of its
// own (the work is bounded: each test file is checked once).
func (s *Symbols) loadTests() {
	s.testsOnce.Do(func() {
		started := time.Now()
		for _, p := range s.pkgs {
			s.checkTests(context.Background(), p)
		}
		for _, p := range s.pkgs {
			s.indexTests(p)
		}
		if s.logger != nil {
			s.logger.Debug("test files checked", "packages", len(s.pkgs), "duration", time.Since(started).Round(time.Millisecond))
		}
	})
}

// astImportNames maps the names the files of sets import packages under to
// their import paths, as the type checker would name them (the first file
// wins on a conflict): an explicit name, else the imported package's name
// (a repository package's, a standard package's, else the placeholder's
// guess).
func (s *Symbols) astImportNames(p *Package, sets ...[]*ast.File) map[string]string {
	names := make(map[string]string)
	for _, files := range sets {
		for _, f := range files {
			for _, imp := range f.Imports {
				ip, err := strconv.Unquote(imp.Path.Value)
				if err != nil || ip == "C" {
					continue
				}
				var name string
				switch {
				case imp.Name != nil:
					name = imp.Name.Name
				case ip == "unsafe":
					name = "unsafe"
				case s.byPath[ip] != nil:
					name = s.byPath[ip].Name
				case ip == p.ImportPath:
					name = p.Name
				case symIsStdPath(ip) && !s.inModule(ip):
					name = s.std.name(ip)
				default:
					name = symGuessName(ip)
				}
				if name == "_" || name == "." || name == "" {
					continue
				}
				if _, dup := names[name]; !dup {
					names[name] = ip
				}
			}
		}
	}
	return names
}

// checkTests type-checks p's test files: the in-package ones with p's
// files, the external ones against that test variant of p. Their type
// errors go to p.testErrors.
func (s *Symbols) checkTests(ctx context.Context, p *Package) {
	onlyTests := func(err error) {
		if te, ok := err.(types.Error); ok && !strings.HasSuffix(s.fset.Position(te.Pos).Filename, "_test.go") {
			return
		}
		p.testErrors = append(p.testErrors, err)
	}
	under := p.Types
	if len(p.internalTests) > 0 {
		info := symNewInfo()
		conf := s.config(ctx, nil, onlyTests)
		// The package's own files were checked with their bodies already;
		// only their declarations matter to the test files (and this
		// Info is read for test files only), so the bodies are left out.
		files := append(symDeclarationsOnly(p.Syntax), p.internalTests...)
		tp := symCheck(conf, p.ImportPath, p.Name, s.fset, files, info, onlyTests)
		under = tp
		p.testInfo = info
	}
	if len(p.externalTests) > 0 {
		info := symNewInfo()
		conf := s.config(ctx, map[string]*types.Package{p.ImportPath: under}, onlyTests)
		symCheck(conf, p.ImportPath+"_test", p.Name+"_test", s.fset, p.externalTests, info, onlyTests)
		p.xtestInfo = info
	}
}

// symDeclarationsOnly returns shallow copies of files whose function
// declarations have no bodies; the originals are left as they are.
func symDeclarationsOnly(files []*ast.File) []*ast.File {
	out := make([]*ast.File, len(files))
	for i, f := range files {
		c := *f
		c.Decls = make([]ast.Decl, len(f.Decls))
		for j, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
				fc := *fd
				fc.Body = nil
				d = &fc
			}
			c.Decls[j] = d
		}
		out[i] = &c
	}
	return out
}

// symCheck type-checks files. A panic of go/types (a bug, but one input
// must not bring the review down) is reported to onPanic and yields an
// empty package.
func symCheck(conf *types.Config, path, name string, fset *token.FileSet, files []*ast.File, info *types.Info, onPanic func(error)) (tp *types.Package) {
	defer func() {
		if r := recover(); r != nil {
			onPanic(fmt.Errorf("type-check %s: internal error: %v", path, r))
			tp = types.NewPackage(path, name)
			tp.MarkComplete()
		}
	}()
	tp, _ = conf.Check(path, fset, files, info)
	return tp
}

// config returns the types configuration for checking repository code:
// module packages from source, the standard library through s.std, other
// packages as placeholders. override replaces some import paths.
func (s *Symbols) config(ctx context.Context, override map[string]*types.Package, errf func(error)) *types.Config {
	return &types.Config{
		Importer:    s.importer(ctx, override),
		Error:       errf,
		FakeImportC: true,
		Sizes:       types.SizesFor("gc", "amd64"),
	}
}

// importer returns the importer for module code.
func (s *Symbols) importer(ctx context.Context, override map[string]*types.Package) types.Importer {
	return symImporterFunc(func(ip string) (*types.Package, error) {
		if tp := override[ip]; tp != nil {
			return tp, nil
		}
		if p := s.byPath[ip]; p != nil {
			if p.state == symChecking {
				return nil, fmt.Errorf("import cycle through %s", ip)
			}
			s.check(ctx, p)
			return p.Types, nil
		}
		return s.importOther(ctx, ip)
	})
}

// importOther imports a package that is not a repository package.
func (s *Symbols) importOther(ctx context.Context, ip string) (*types.Package, error) {
	switch {
	case ip == "unsafe":
		return types.Unsafe, nil
	case s.excluded[ip]:
		return s.fakes.get(ip, ""), nil
	case s.inModule(ip):
		if tp, ok := s.deps.importNested(ctx, ip); ok {
			return tp, nil
		}
		return nil, fmt.Errorf("no package %s in the repository", ip)
	case symIsStdPath(ip):
		tp, err := s.std.importPkg(ctx, ip)
		if err == errSymStdUnavailable {
			return s.fakes.get(ip, s.std.name(ip)), nil
		}
		return tp, err
	}
	if tp, ok := s.deps.importPkg(ctx, ip); ok {
		return tp, nil
	}
	return s.fakes.get(ip, ""), nil
}

// symImporterFunc adapts a function to [types.Importer].
type symImporterFunc func(path string) (*types.Package, error)

// Import implements [types.Importer].
func (f symImporterFunc) Import(path string) (*types.Package, error) { return f(path) }

// symFakes holds the placeholder packages standing for packages that could
// not be loaded (third-party modules, unavailable standard packages).
type symFakes struct {
	mu sync.Mutex
	m  map[string]*types.Package
}

// get returns the placeholder for import path ip, creating it with name
// (or a name guessed from ip when empty).
func (f *symFakes) get(ip, name string) *types.Package {
	if f == nil {
		f = &symFakes{}
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if tp := f.m[ip]; tp != nil {
		return tp
	}
	if name == "" {
		name = symGuessName(ip)
	}
	tp := types.NewPackage(ip, name)
	tp.MarkComplete()
	if f.m == nil {
		f.m = make(map[string]*types.Package)
	}
	f.m[ip] = tp
	return tp
}

// has reports whether import path ip has a placeholder.
func (f *symFakes) has(ip string) bool {
	if f == nil {
		return false
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.m[ip] != nil
}

// is reports whether tp is a placeholder.
func (f *symFakes) is(tp *types.Package) bool {
	if f == nil || tp == nil {
		return false
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.m[tp.Path()] == tp
}

// symNewInfo returns an Info with every map the symbol table uses.
func symNewInfo() *types.Info {
	return &types.Info{
		Defs:       make(map[*ast.Ident]types.Object),
		Uses:       make(map[*ast.Ident]types.Object),
		Types:      make(map[ast.Expr]types.TypeAndValue),
		Selections: make(map[*ast.SelectorExpr]*types.Selection),
		Implicits:  make(map[ast.Node]types.Object),
		Instances:  make(map[*ast.Ident]types.Instance),
	}
}

// symImportNames maps the names files import packages under to their
// import paths (the first file wins on a conflict).
func symImportNames(files []*ast.File, info *types.Info) map[string]string {
	names := make(map[string]string)
	for _, f := range files {
		for _, imp := range f.Imports {
			var obj types.Object
			if imp.Name != nil {
				obj = info.Defs[imp.Name]
			} else {
				obj = info.Implicits[imp]
			}
			pn, ok := obj.(*types.PkgName)
			if !ok {
				continue
			}
			if _, dup := names[pn.Name()]; !dup {
				names[pn.Name()] = pn.Imported().Path()
			}
		}
	}
	return names
}

// symFindModules reads the go.mod files among files.
func symFindModules(fsys fs.FS, files []string, logger *slog.Logger) []symModule {
	var mods []symModule
	seenRoot := false
	for _, p := range files {
		if path.Base(p) != "go.mod" || symSkipPath(p) {
			continue
		}
		if p == "go.mod" {
			seenRoot = true
		}
		src, err := fs.ReadFile(fsys, p)
		if err != nil {
			logger.Warn("read go.mod", "path", p, "err", err)
			continue
		}
		mp := symModulePath(string(src))
		if mp == "" {
			logger.Warn("go.mod without module directive", "path", p)
			continue
		}
		mods = append(mods, symModule{dir: path.Dir(p), path: mp})
	}
	if !seenRoot {
		// The file list may leave go.mod out (include globs); the root
		// module decides every import path, so look for it anyway.
		if src, err := fs.ReadFile(fsys, "go.mod"); err == nil {
			if mp := symModulePath(string(src)); mp != "" {
				mods = append(mods, symModule{dir: ".", path: mp})
			}
		}
	}
	slices.SortFunc(mods, func(a, b symModule) int { return strings.Compare(a.dir, b.dir) })
	return mods
}

// symModulePath returns the module path of a go.mod file's text, or "".
func symModulePath(src string) string {
	inBlock := false
	for _, line := range strings.Split(src, "\n") {
		if i := strings.Index(line, "//"); i >= 0 {
			line = line[:i]
		}
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		if inBlock {
			if f[0] == ")" {
				inBlock = false
				continue
			}
			return symUnquote(f[0])
		}
		if f[0] != "module" {
			continue
		}
		if len(f) >= 2 && f[1] == "(" {
			inBlock = true
			continue
		}
		if len(f) >= 2 {
			return symUnquote(f[1])
		}
	}
	return ""
}

func symUnquote(s string) string {
	if strings.HasPrefix(s, `"`) || strings.HasPrefix(s, "`") {
		if u, err := strconv.Unquote(s); err == nil {
			return u
		}
	}
	return s
}

// symSkipPath reports whether the go tool ignores p: a directory or the
// file itself is named testdata or vendor (directories only) or starts
// with _ or .
func symSkipPath(p string) bool {
	elems := strings.Split(p, "/")
	for i, e := range elems {
		if strings.HasPrefix(e, "_") || strings.HasPrefix(e, ".") {
			return true
		}
		if i < len(elems)-1 && (e == "testdata" || e == "vendor") {
			return true
		}
	}
	return false
}

// symKnownOS and symKnownArch are the GOOS and GOARCH values file name
// suffixes are matched against (go/build's lists).
var (
	symKnownOS = map[string]bool{
		"aix": true, "android": true, "darwin": true, "dragonfly": true, "freebsd": true, "hurd": true,
		"illumos": true, "ios": true, "js": true, "linux": true, "nacl": true, "netbsd": true,
		"openbsd": true, "plan9": true, "solaris": true, "wasip1": true, "windows": true, "zos": true,
	}
	symKnownArch = map[string]bool{
		"386": true, "amd64": true, "amd64p32": true, "arm": true, "armbe": true, "arm64": true,
		"arm64be": true, "loong64": true, "mips": true, "mipsle": true, "mips64": true, "mips64le": true,
		"mips64p32": true, "mips64p32le": true, "ppc": true, "ppc64": true, "ppc64le": true,
		"riscv": true, "riscv64": true, "s390": true, "s390x": true, "sparc": true, "sparc64": true,
		"wasm": true,
	}
)

// symPlatform is a GOOS and GOARCH files are selected for.
type symPlatform struct{ goos, goarch string }

// symLinux is docreview's view of a build; symOtherPlatforms are tried,
// in order, for a directory whose every file it excludes (go-winio is
// Windows-only).
var (
	symLinux          = symPlatform{"linux", "amd64"}
	symOtherPlatforms = []symPlatform{{"windows", "amd64"}, {"darwin", "arm64"}}
)

// String writes "windows/amd64".
func (pl symPlatform) String() string { return pl.goos + "/" + pl.goarch }

// symGoodOSArch reports whether a file name's _GOOS, _GOARCH or
// _GOOS_GOARCH suffix (if any) admits linux/amd64.
func symGoodOSArch(base string) bool { return symLinux.goodOSArch(base) }

// goodOSArch reports whether a file name's _GOOS, _GOARCH or
// _GOOS_GOARCH suffix (if any) admits the platform.
func (pl symPlatform) goodOSArch(base string) bool {
	name, _, _ := strings.Cut(base, ".")
	i := strings.Index(name, "_")
	if i < 0 {
		return true
	}
	l := strings.Split(name[i:], "_")
	if n := len(l); n > 0 && l[n-1] == "test" {
		l = l[:n-1]
	}
	n := len(l)
	if n >= 2 && symKnownOS[l[n-2]] && symKnownArch[l[n-1]] {
		return l[n-2] == pl.goos && l[n-1] == pl.goarch
	}
	if n >= 1 && symKnownOS[l[n-1]] {
		return l[n-1] == pl.goos
	}
	if n >= 1 && symKnownArch[l[n-1]] {
		return l[n-1] == pl.goarch
	}
	return true
}

// symBuildOK reports whether the build constraints in a file's header
// (//go:build, or // +build lines when there is none) admit linux/amd64.
func symBuildOK(src []byte) bool { return symLinux.buildOK(src) }

// buildOK reports whether the build constraints in a file's header
// (//go:build, or // +build lines when there is none) admit the platform.
func (pl symPlatform) buildOK(src []byte) bool {
	var goBuild constraint.Expr
	var plus []constraint.Expr
	inBlock := false
	for _, line := range strings.Split(string(src), "\n") {
		t := strings.TrimSpace(line)
		if inBlock {
			i := strings.Index(t, "*/")
			if i < 0 {
				continue
			}
			inBlock = false
			if t = strings.TrimSpace(t[i+2:]); t == "" {
				continue
			}
		}
		switch {
		case t == "":
			continue
		case strings.HasPrefix(t, "//"):
			if constraint.IsGoBuild(t) && goBuild == nil {
				if x, err := constraint.Parse(t); err == nil {
					goBuild = x
				}
			} else if constraint.IsPlusBuild(t) {
				if x, err := constraint.Parse(t); err == nil {
					plus = append(plus, x)
				}
			}
			continue
		case strings.HasPrefix(t, "/*"):
			if !strings.Contains(t[2:], "*/") {
				inBlock = true
			}
			continue
		}
		break
	}
	if goBuild != nil {
		return goBuild.Eval(pl.tag)
	}
	for _, x := range plus {
		if !x.Eval(pl.tag) {
			return false
		}
	}
	return true
}

// tag reports whether a build tag holds for the platform: its GOOS and
// GOARCH, unix for the unix ones, gc, cgo, the current Go release.
func (pl symPlatform) tag(tag string) bool {
	switch tag {
	case pl.goos, pl.goarch, "gc", "cgo":
		return true
	case "unix":
		return pl.goos != "windows" && pl.goos != "plan9" && pl.goos != "js" && pl.goos != "wasip1"
	}
	if v, ok := strings.CutPrefix(tag, "go1."); ok {
		n, err := strconv.Atoi(v)
		return err == nil && n <= symGoMinor
	}
	return false
}

// symIsStdPath reports whether an import path looks like a standard
// library one: its first element has no dot.
func symIsStdPath(ip string) bool {
	first, _, _ := strings.Cut(ip, "/")
	return first != "" && !strings.Contains(first, ".")
}

// symGuessName guesses the package name of an import path that cannot be
// loaded: the last element, skipping a major version suffix, without a
// go- prefix, -go suffix or gopkg.in version.
func symGuessName(ip string) string {
	elems := strings.Split(ip, "/")
	name := elems[len(elems)-1]
	if len(elems) > 1 && symIsMajorVersion(name) {
		name = elems[len(elems)-2]
	}
	if i := strings.Index(name, ".v"); i > 0 {
		if _, err := strconv.Atoi(name[i+2:]); err == nil {
			name = name[:i]
		}
	}
	name = strings.TrimPrefix(name, "go-")
	name = strings.TrimSuffix(name, "-go")
	name = strings.TrimSuffix(name, ".go")
	var b strings.Builder
	for _, r := range name {
		if r == '-' || r == '.' {
			r = '_'
		}
		b.WriteRune(r)
	}
	return b.String()
}

// symIsMajorVersion reports whether s is a module major version suffix
// ("v2").
func symIsMajorVersion(s string) bool {
	if len(s) < 2 || s[0] != 'v' {
		return false
	}
	_, err := strconv.Atoi(s[1:])
	return err == nil
}

// symDirWithin reports whether dir is root or below it.
func symDirWithin(dir, root string) bool {
	return root == "." || dir == root || strings.HasPrefix(dir, root+"/")
}

// symCleanDir normalises a slash directory: "" and "./" become ".".
func symCleanDir(dir string) string {
	dir = path.Clean(strings.TrimPrefix(dir, "/"))
	if dir == "" {
		return "."
	}
	return dir
}

func symSorted(files []string) []string {
	out := slices.Clone(files)
	slices.Sort(out)
	return slices.Compact(out)
}

func symSortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
