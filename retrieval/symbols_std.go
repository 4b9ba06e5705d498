package retrieval

import (
	"context"
	"errors"
	"fmt"
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"go/types"
	"log/slog"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
)

// symStdCommon lists standard library packages whose names stand for them
// when the list of standard packages is unknown (no GOROOT sources).
var symStdCommon = []string{
	"bufio", "bytes", "cmp", "context", "crypto", "crypto/rand", "crypto/sha256", "crypto/tls",
	"database/sql", "embed", "encoding", "encoding/base64", "encoding/binary", "encoding/csv",
	"encoding/hex", "encoding/json", "encoding/xml", "errors", "flag", "fmt", "hash", "html",
	"html/template", "io", "io/fs", "iter", "log", "log/slog", "maps", "math", "math/big",
	"math/rand", "net", "net/http", "net/http/httptest", "net/url", "os", "os/exec", "os/signal",
	"path", "path/filepath", "reflect", "regexp", "runtime", "slices", "sort", "strconv",
	"strings", "sync", "sync/atomic", "testing", "text/template", "time", "unicode",
	"unicode/utf8",
}

// symStdPreferred settles package names several standard packages share.
var symStdPreferred = map[string]string{
	"rand":     "math/rand",
	"template": "text/template",
	"scanner":  "text/scanner",
	"pprof":    "runtime/pprof",
	"ast":      "go/ast",
	"parser":   "go/parser",
}

// ErrStdMissing is the error, possibly wrapped, of importing a path the
// standard library does not have through [Symbols.Importer] or
// [Symbols.StdPackage]; a type checker's "could not import" error for such
// a path holds its text.
var ErrStdMissing = errors.New("no such standard library package")

// errSymStdUnavailable: the package exists (or may) but cannot be loaded;
// what refers to it is unknown.
var errSymStdUnavailable = errors.New("standard library package unavailable")

// symStd loads standard library packages for one [Symbols]: from the
// export data of its [TypeCache] when that holds them, else type-checked
// from GOROOT's sources (declarations only, function bodies skipped) and
// then added to the cache. Packages are loaded when first imported or
// looked up, dependencies first, so that every package read from export
// data shares the objects of its imports.
type symStd struct {
	fset   *token.FileSet
	logger *slog.Logger
	env    *stdEnv
	// dir holds the cache entries of this Go installation; "" keeps
	// nothing.
	dir string

	mu sync.Mutex
	// tpkgs holds the loaded packages by (resolved) import path; it is
	// also the imports map of the export data reader.
	tpkgs   map[string]*types.Package
	pkgs    map[string]*Package
	failed  map[string]error
	loading map[string]bool
	// badEntry holds the packages whose cache entry did not decode.
	badEntry map[string]bool
	// fromCache and checked count the packages read from export data and
	// type-checked from source.
	fromCache, checked int
	// noWrite is set after a write to the cache failed (a read-only or
	// full disk): the rest of the load does not try again, nor warn again.
	noWrite bool
}

// newSymStd prepares std loading for one symbol table; nothing is loaded
// until imported.
func newSymStd(ctx context.Context, cache *TypeCache, fset *token.FileSet, logger *slog.Logger) *symStd {
	if cache == nil {
		cache = &TypeCache{}
	}
	env := cache.stdEnv(ctx, logger)
	return &symStd{
		fset:     fset,
		logger:   logger,
		env:      env,
		dir:      env.cacheDir(cache),
		tpkgs:    make(map[string]*types.Package),
		pkgs:     make(map[string]*Package),
		failed:   make(map[string]error),
		loading:  make(map[string]bool),
		badEntry: make(map[string]bool),
	}
}

// importPkg returns the std package ip, loading it (and what it imports)
// from the cache or from source. It returns ErrStdMissing if the
// standard library is known to have no such package and
// errSymStdUnavailable if it cannot be loaded.
func (st *symStd) importPkg(ctx context.Context, ip string) (*types.Package, error) {
	p, err := st.pkg(ctx, ip)
	if err != nil {
		return nil, err
	}
	return p.Types, nil
}

// loaded returns the std package ip, loading it if need be; false when
// there is no such package or it cannot be loaded.
func (st *symStd) loaded(ip string) (*Package, bool) {
	p, err := st.pkg(context.Background(), ip)
	return p, err == nil
}

// pkg returns the std package ip.
func (st *symStd) pkg(ctx context.Context, ip string) (*Package, error) {
	if st == nil {
		return nil, errSymStdUnavailable
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	if p := st.pkgs[ip]; p != nil {
		return p, nil
	}
	if !st.exists(ip) {
		return nil, ErrStdMissing
	}
	if st.env.srcDir == "" {
		return nil, errSymStdUnavailable
	}
	tp, err := st.load(ctx, ip)
	if err != nil {
		if errors.Is(err, ErrStdMissing) {
			return nil, err
		}
		return nil, errSymStdUnavailable
	}
	p := &Package{ImportPath: ip, Name: tp.Name(), Types: tp, Fset: st.fset, std: true, state: symChecked}
	st.pkgs[ip] = p
	return p, nil
}

// load returns the complete package of resolved import path ip; st.mu is
// held.
func (st *symStd) load(ctx context.Context, ip string) (*types.Package, error) {
	if ip == "unsafe" {
		return types.Unsafe, nil
	}
	if err := st.failed[ip]; err != nil {
		return nil, err
	}
	if tp := st.tpkgs[ip]; tp != nil && tp.Complete() && !st.loading[ip] {
		return tp, nil
	}
	if st.loading[ip] {
		return nil, fmt.Errorf("import cycle through %s", ip)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	st.loading[ip] = true
	defer delete(st.loading, ip)
	dir := filepath.Join(st.env.srcDir, filepath.FromSlash(ip))
	fp, err := stdFingerprint(dir)
	if err != nil {
		err = fmt.Errorf("%w: %s: %v", ErrStdMissing, ip, err)
		st.failed[ip] = err
		return nil, err
	}
	if tp, ok := st.readCached(ctx, ip, fp); ok {
		st.fromCache++
		return tp, nil
	}
	tp, imports, err := st.checkSource(ctx, ip, dir)
	if err != nil {
		if ctx.Err() == nil {
			st.logger.Warn("type-check standard library package", "package", ip, "err", err)
			st.failed[ip] = err
		}
		return nil, err
	}
	st.checked++
	st.tpkgs[ip] = tp
	st.writeCached(ip, fp, imports, tp)
	return tp, nil
}

// readCached reads ip from the cache, its imports first; false when the
// cache has no valid entry for fingerprint fp.
func (st *symStd) readCached(ctx context.Context, ip, fp string) (*types.Package, bool) {
	if st.badEntry[ip] {
		return nil, false
	}
	e := st.validEntry(ip, fp)
	if e == nil {
		return nil, false
	}
	for _, dep := range e.imports {
		if _, err := st.load(ctx, dep); err != nil {
			return nil, false
		}
	}
	return st.decode(ip, e)
}

// decode reads entry e of ip, whose imports are loaded; an entry that does
// not decode is dropped (warning once) and never read again in this load.
// st.mu is held.
func (st *symStd) decode(ip string, e *typesEntry) (*types.Package, bool) {
	tp, err := e.decode(st.fset, st.tpkgs)
	if err != nil {
		st.logger.Warn("type cache entry undecodable; type-checking again", "package", ip, "err", err)
		delete(st.tpkgs, ip)
		st.badEntry[ip] = true
		return nil, false
	}
	return tp, true
}

// writeCached stores tp in the cache; a failure is logged, never fatal.
func (st *symStd) writeCached(ip, fp string, imports []string, tp *types.Package) {
	if st.dir == "" || st.noWrite {
		return
	}
	e := typesEntry{path: ip, fingerprint: fp, imports: imports}
	if err := e.write(filepath.Join(st.dir, typesEntryName(ip)), st.fset, tp); err != nil {
		st.noWrite = true
		st.logger.Warn("type cache not written; the standard library is type-checked from source again next time", "package", ip, "err", err)
	}
}

// checkSource type-checks the std package in dir (declarations only),
// loading its imports with st.load, and returns it with the resolved
// import paths of its direct imports; st.mu is held.
func (st *symStd) checkSource(ctx context.Context, ip, dir string) (*types.Package, []string, error) {
	return st.checkSourceWith(ctx, ip, dir, func(r string) (*types.Package, error) { return st.load(ctx, r) })
}

// checkSourceWith is checkSource with the imports (resolved paths) from
// load; it touches no field of st but fset and env, so several may run at
// once with a load of their own.
func (st *symStd) checkSourceWith(ctx context.Context, ip, dir string, load func(string) (*types.Package, error)) (*types.Package, []string, error) {
	bp, err := stdBuildContext(st.env.goroot).ImportDir(dir, 0)
	if err != nil {
		var noGo *build.NoGoError
		if errors.As(err, &noGo) {
			return nil, nil, fmt.Errorf("%w: %s: %v", ErrStdMissing, ip, err)
		}
		return nil, nil, err
	}
	var files []*ast.File
	for _, name := range bp.GoFiles {
		f, err := parser.ParseFile(st.fset, filepath.Join(dir, name), nil, parser.SkipObjectResolution)
		if err != nil {
			return nil, nil, err
		}
		files = append(files, f)
	}
	var imports []string
	var firstErr error
	conf := &types.Config{
		IgnoreFuncBodies: true,
		FakeImportC:      true,
		Sizes:            types.SizesFor("gc", "amd64"),
		GoVersion:        st.env.langVersion(),
		Importer: symImporterFunc(func(path string) (*types.Package, error) {
			r := st.resolve(path)
			tp, err := load(r)
			if err == nil && !slices.Contains(imports, r) {
				imports = append(imports, r)
			}
			return tp, err
		}),
		Error: func(err error) {
			if firstErr == nil {
				firstErr = err
			}
		},
	}
	tp, _ := conf.Check(ip, st.fset, files, nil)
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	if firstErr != nil {
		return nil, nil, firstErr
	}
	slices.Sort(imports)
	return tp, imports, nil
}

// resolve maps an import path written in a std package to the package's
// path: std's own vendored packages live under vendor/.
func (st *symStd) resolve(ip string) string {
	if ip == "unsafe" || ip == "C" {
		return ip
	}
	if fi, err := os.Stat(filepath.Join(st.env.srcDir, filepath.FromSlash(ip))); err == nil && fi.IsDir() {
		return ip
	}
	v := "vendor/" + ip
	if fi, err := os.Stat(filepath.Join(st.env.srcDir, filepath.FromSlash(v))); err == nil && fi.IsDir() {
		return v
	}
	return ip
}

// stdBuildContext is the go/build view of a std build docreview
// analyses: linux/amd64, gc, no cgo (the pure Go files declare the same
// API and need no C toolchain).
func stdBuildContext(goroot string) *build.Context {
	c := build.Default
	c.GOROOT = goroot
	c.GOPATH = ""
	c.GOOS, c.GOARCH = "linux", "amd64"
	c.CgoEnabled = false
	c.Compiler = "gc"
	return &c
}

// exists reports whether ip is a standard library package; when the list
// is unknown, whether it looks like one.
func (st *symStd) exists(ip string) bool {
	if st == nil || st.env == nil || st.env.names == nil {
		return symIsStdPath(ip)
	}
	_, ok := st.env.names[ip]
	return ok
}

// name returns the package name of std package ip, or its last element.
func (st *symStd) name(ip string) string {
	if st != nil && st.env != nil {
		if n := st.env.names[ip]; n != "" {
			return n
		}
	}
	return path.Base(ip)
}

// closestPath returns the one std import path within two edits of ip
// (one for paths of up to four letters), or "" when there is none, more
// than one, or the list of std packages is unknown.
func (st *symStd) closestPath(ip string) string {
	if st == nil || st.env == nil || st.env.names == nil {
		return ""
	}
	limit := 2
	if len(ip) <= 4 {
		limit = 1
	}
	found := ""
	for p := range st.env.names {
		if strings.Contains(p, "internal") || strings.HasPrefix(p, "vendor/") || symDistance(p, ip) > limit {
			continue
		}
		if found != "" {
			return ""
		}
		found = p
	}
	return found
}

// pathsNamed returns the std packages named name, preferred first.
func (st *symStd) pathsNamed(name string) []string {
	if st == nil || st.env == nil {
		return nil
	}
	return st.env.byName[name]
}

// stats returns how std was loaded, for the log: "cache", "source",
// "cache+source", or "none".
func (st *symStd) stats() (mode string, fromCache, checked int) {
	if st == nil || st.env == nil || st.env.srcDir == "" {
		return "none", 0, 0
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	switch {
	case st.checked > 0 && st.fromCache > 0:
		mode = "cache+source"
	case st.checked > 0:
		mode = "source"
	default:
		mode = "cache"
	}
	return mode, st.fromCache, st.checked
}

// symStdPackageName returns the package name of the first non-test Go file
// in dir built for linux/amd64, or "".
func symStdPackageName(dir string) string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return ""
	}
	for _, e := range entries {
		n := e.Name()
		if e.IsDir() || !strings.HasSuffix(n, ".go") || strings.HasSuffix(n, "_test.go") || !symGoodOSArch(n) {
			continue
		}
		src, err := os.ReadFile(filepath.Join(dir, n))
		if err != nil || !symBuildOK(src) {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), n, src, parser.PackageClauseOnly)
		if err == nil && f.Name != nil {
			return f.Name.Name
		}
	}
	return ""
}
