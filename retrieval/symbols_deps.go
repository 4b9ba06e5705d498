package retrieval

import (
	"context"
	"errors"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"golang.org/x/mod/module"
)

// symDepsBudget bounds the dependency packages one symbol table
// type-checks; a package past it stays a placeholder.
const symDepsBudget = 400

// symDeps loads the packages of the repository's dependencies that the
// module cache holds, at the versions its go.mod files require (after
// their replace directives), type-checked from source, declarations only.
// A package whose module is not required, not in the cache or replaced by
// a local directory, or one past the budget, stays a placeholder, and so
// does anything a loaded package imports that cannot be loaded: what
// refers to it is unknown, not wrong.
type symDeps struct {
	fset     *token.FileSet
	logger   *slog.Logger
	env      *stdEnv
	std      *symStd
	fakes    *symFakes
	inModule func(string) bool
	// reqs are the required module versions to read, longest path first.
	reqs []module.Version

	mu   sync.Mutex
	pkgs map[string]*types.Package
	// known holds the loaded packages as [Package] values, with the names
	// their files for other platforms declare.
	known   map[string]*Package
	failed  map[string]bool
	loading map[string]bool
	budget  int
	// checked and errs count the packages type-checked and those with
	// type errors (kept with what could be understood).
	checked, errs int
}

// newSymDeps reads the requirements of the go.mod files among files; nil
// when the module cache is unknown or nothing is required.
func newSymDeps(fsys fs.FS, files []string, s *Symbols) *symDeps {
	if s.std == nil || s.std.env == nil || s.std.env.modcache == "" {
		return nil
	}
	seen := map[string]bool{}
	var reqs []module.Version
	// The root go.mod first: its requirements win over a nested module's.
	mods := slices.Clone(files)
	slices.SortStableFunc(mods, func(a, b string) int { return strings.Count(a, "/") - strings.Count(b, "/") })
	for _, p := range mods {
		if filepath.Base(p) != "go.mod" || symSkipPath(p) {
			continue
		}
		data, err := fs.ReadFile(fsys, p)
		if err != nil {
			continue
		}
		rs, err := Requirements(p, data)
		if err != nil {
			s.logger.Warn("dependencies: parse go.mod", "path", p, "err", err)
			continue
		}
		for _, r := range rs {
			if seen[r.Path] {
				continue
			}
			seen[r.Path] = true
			// The import paths stay the required module's.
			reqs = append(reqs, module.Version{Path: r.Path, Version: r.Fetch.Path + "@" + r.Fetch.Version})
		}
	}
	if len(reqs) == 0 {
		return nil
	}
	slices.SortFunc(reqs, func(a, b module.Version) int { return len(b.Path) - len(a.Path) })
	return &symDeps{
		fset: s.fset, logger: s.logger, env: s.std.env, std: s.std, fakes: s.fakes, inModule: s.inModule,
		reqs: reqs, pkgs: map[string]*types.Package{}, known: map[string]*Package{}, failed: map[string]bool{}, loading: map[string]bool{},
		budget: symDepsBudget,
	}
}

// importPkg returns the dependency package ip; false when it is not one
// the module cache holds (or it did not load).
func (d *symDeps) importPkg(ctx context.Context, ip string) (*types.Package, bool) {
	if d == nil {
		return nil, false
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	tp, err := d.load(ctx, ip)
	return tp, err == nil
}

// errSymDepUnavailable: the dependency package cannot be loaded.
var errSymDepUnavailable = errors.New("dependency package unavailable")

// dir returns the directory of dependency package ip in the module cache.
func (d *symDeps) dir(ip string) (string, bool) {
	for _, r := range d.reqs {
		if ip != r.Path && !strings.HasPrefix(ip, r.Path+"/") {
			continue
		}
		modPath, version, _ := strings.Cut(r.Version, "@")
		ep, err := module.EscapePath(modPath)
		if err != nil {
			return "", false
		}
		ev, err := module.EscapeVersion(version)
		if err != nil {
			return "", false
		}
		dir := filepath.Join(d.env.modcache, filepath.FromSlash(ep)+"@"+ev, filepath.FromSlash(strings.TrimPrefix(ip[len(r.Path):], "/")))
		if fi, err := os.Stat(dir); err == nil && fi.IsDir() {
			return dir, true
		}
		return "", false
	}
	return "", false
}

// nested reports whether ip lies in a module nested in the repository's
// that go.mod requires at a version (franz-go's pkg/kmsg, required by
// github.com/twmb/franz-go): a checkout holds its directory, a module's
// zip does not, and then the module cache has it.
func (d *symDeps) nested(ip string) bool {
	if d == nil {
		return false
	}
	for _, r := range d.reqs {
		if ip == r.Path || strings.HasPrefix(ip, r.Path+"/") {
			return d.inModule(r.Path)
		}
	}
	return false
}

// importNested returns package ip of a nested module go.mod requires
// ([symDeps.nested]); false when ip is not in one or did not load.
func (d *symDeps) importNested(ctx context.Context, ip string) (*types.Package, bool) {
	if !d.nested(ip) {
		return nil, false
	}
	return d.importPkg(ctx, ip)
}

// load returns dependency package ip, type-checking it (and what it
// imports) the first time; d.mu is held.
func (d *symDeps) load(ctx context.Context, ip string) (*types.Package, error) {
	if tp := d.pkgs[ip]; tp != nil {
		return tp, nil
	}
	if d.failed[ip] || d.loading[ip] || d.budget <= 0 {
		return nil, errSymDepUnavailable
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	dir, ok := d.dir(ip)
	if !ok {
		d.failed[ip] = true
		return nil, errSymDepUnavailable
	}
	d.loading[ip] = true
	defer delete(d.loading, ip)
	bp, err := stdBuildContext(d.env.goroot).ImportDir(dir, 0)
	if err != nil || len(bp.GoFiles) == 0 {
		d.failed[ip] = true
		return nil, errSymDepUnavailable
	}
	var files []*ast.File
	for _, name := range bp.GoFiles {
		f, err := parser.ParseFile(d.fset, filepath.Join(dir, name), nil, parser.SkipObjectResolution)
		if err != nil {
			d.failed[ip] = true
			return nil, errSymDepUnavailable
		}
		files = append(files, f)
	}
	d.budget--
	nerr := 0
	conf := &types.Config{
		IgnoreFuncBodies: true,
		FakeImportC:      true,
		Sizes:            types.SizesFor("gc", "amd64"),
		GoVersion:        d.env.langVersion(),
		Importer: symImporterFunc(func(p string) (*types.Package, error) {
			switch {
			case p == "unsafe":
				return types.Unsafe, nil
			case symIsStdPath(p):
				if tp, err := d.std.importPkg(ctx, p); err == nil {
					return tp, nil
				}
				return d.fakes.get(p, d.std.name(p)), nil
			case d.inModule(p) && !d.nested(p):
				// A dependency that imports the repository's own
				// module (a cycle of modules) sees it as unknown.
				return d.fakes.get(p, ""), nil
			}
			if tp, err := d.load(ctx, p); err == nil {
				return tp, nil
			}
			return d.fakes.get(p, ""), nil
		}),
		Error: func(error) { nerr++ },
	}
	panicked := false
	tp := symCheck(conf, ip, bp.Name, d.fset, files, nil, func(err error) {
		panicked = true
		d.logger.Warn("type-check dependency package", "package", ip, "err", err)
	})
	if tp == nil || panicked {
		d.failed[ip] = true
		return nil, errSymDepUnavailable
	}
	d.checked++
	d.pkgs[ip] = tp
	if nerr > 0 {
		// An import it could not load makes types invalid, never a
		// declaration go missing: its names are still all known.
		d.errs++
	}
	other := map[string]bool{}
	for _, name := range bp.IgnoredGoFiles {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		if src, err := os.ReadFile(filepath.Join(dir, name)); err == nil {
			symDeclaredNames(name, src, other)
		}
	}
	d.known[ip] = &Package{ImportPath: ip, Name: tp.Name(), Types: tp, Fset: d.fset, otherNames: other, state: symChecked}
	return tp, nil
}

// knownPkg returns dependency package ip when it is loaded.
func (d *symDeps) knownPkg(ip string) (*Package, bool) {
	if d == nil {
		return nil, false
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	p, ok := d.known[ip]
	return p, ok
}

// stats returns the packages type-checked and those with type errors.
func (d *symDeps) stats() (checked, errs int) {
	if d == nil {
		return 0, 0
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.checked, d.errs
}

// module returns the module that provides dependency package ip and the
// version read: "github.com/x/y", "v1.2.0" (or a replacement's
// "other/path@v1.0.0"); false when no requirement provides ip.
func (d *symDeps) module(ip string) (path, version string, ok bool) {
	if d == nil {
		return "", "", false
	}
	for _, r := range d.reqs {
		if ip == r.Path || strings.HasPrefix(ip, r.Path+"/") {
			modPath, v, _ := strings.Cut(r.Version, "@")
			if modPath != r.Path {
				v = modPath + "@" + v
			}
			return r.Path, v, true
		}
	}
	return "", "", false
}

// declares reports whether a loaded dependency package declares name at
// its top level, exported or not.
func (d *symDeps) declares(name string) bool {
	if d == nil {
		return false
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	for _, tp := range d.pkgs {
		if tp.Scope().Lookup(name) != nil {
			return true
		}
	}
	return false
}
