package retrieval

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"go/build"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"
)

// symStdMode is how standard library packages are loaded.
type symStdMode int

const (
	// symStdNone: no go command and no GOROOT sources; std packages are
	// placeholders.
	symStdNone symStdMode = iota
	// symStdExport: gc export data from the build cache, located with one
	// go list -export run (about 0.3 s for a typical module when cached).
	symStdExport
	// symStdSource: type-checked from GOROOT/src (about 2 s for net/http
	// and its dependencies), used when export data would need compiling.
	symStdSource
)

// symStdCommon lists the standard library packages fetched at load time in
// addition to those the repository imports, so that documentation and
// snippets may mention them: Lookup cannot run the go command later.
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

var (
	// errSymStdUnavailable: the package exists (or may) but cannot be
	// loaded; what refers to it is unknown.
	errSymStdUnavailable = errors.New("standard library package unavailable")
	// errSymStdMissing: the standard library has no such package.
	errSymStdMissing = errors.New("no such standard library package")
)

// symStd loads standard library packages for one [Symbols].
type symStd struct {
	fset   *token.FileSet
	logger *slog.Logger
	goCmd  string
	goDir  string

	mu   sync.Mutex
	mode symStdMode
	// names maps std import paths to package names; nil when the list is
	// unknown (then any path without a dot may be std).
	names  map[string]string
	byName map[string][]string
	// stale holds packages whose export data is not in the build cache.
	stale   map[string]bool
	exports map[string]string
	asked   map[string]bool
	imp     types.Importer
	pkgs    map[string]*Package
}

// newSymStd prepares std loading, fetching the export data of needed and
// of the common packages when the go command works.
func newSymStd(ctx context.Context, fset *token.FileSet, logger *slog.Logger, needed []string) *symStd {
	st := &symStd{
		fset:    fset,
		logger:  logger,
		exports: make(map[string]string),
		asked:   make(map[string]bool),
		pkgs:    make(map[string]*Package),
		stale:   make(map[string]bool),
	}
	st.goCmd, st.goDir = symFindGo()
	if st.goCmd == "" {
		logger.Info("no go command: standard library packages are type-checked from GOROOT's sources if it has them")
	}
	// Listing std (from GOROOT/src, much faster than go list std) and
	// asking which wanted packages have export data cached are
	// independent; run them side by side.
	var wg sync.WaitGroup
	staleKnown := false
	if st.goCmd != "" {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := st.listStale(ctx, append(slices.Clone(needed), symStdCommon...)); err != nil {
				logger.Warn("check standard library export data", "err", err)
				return
			}
			staleKnown = true
		}()
	}
	if err := st.list(ctx); err != nil {
		logger.Warn("list standard library", "err", err)
	}
	wg.Wait()
	if st.names == nil {
		st.byName = make(map[string][]string)
		for _, p := range symStdCommon {
			st.byName[path.Base(p)] = append(st.byName[path.Base(p)], p)
		}
	}
	st.mode = st.chooseMode(ctx, needed, staleKnown)
	switch st.mode {
	case symStdExport:
		st.imp = importer.ForCompiler(fset, "gc", st.lookup)
	case symStdSource:
		st.imp = importer.ForCompiler(fset, "source", nil)
	}
	return st
}

// chooseMode picks export data when every needed package has it cached,
// else GOROOT sources, else nothing.
func (st *symStd) chooseMode(ctx context.Context, needed []string, staleKnown bool) symStdMode {
	hasSrc := false
	if root := build.Default.GOROOT; root != "" {
		if fi, err := os.Stat(filepath.Join(root, "src", "fmt")); err == nil && fi.IsDir() {
			hasSrc = true
		}
	}
	fallback := symStdNone
	if hasSrc {
		fallback = symStdSource
	}
	if st.goCmd == "" || st.names == nil || !staleKnown {
		return fallback
	}
	var want []string
	for _, p := range needed {
		if _, ok := st.names[p]; !ok {
			continue
		}
		if st.stale[p] && hasSrc {
			st.logger.Info("standard library export data not cached; type-checking from source", "package", p)
			return symStdSource
		}
		want = append(want, p)
	}
	for _, p := range symStdCommon {
		if _, ok := st.names[p]; ok && !st.stale[p] {
			want = append(want, p)
		}
	}
	if err := st.fetch(ctx, want); err != nil {
		st.logger.Warn("fetch standard library export data", "err", err)
		return fallback
	}
	return symStdExport
}

// list learns the standard packages and their names from the package
// clauses under GOROOT/src (the go command's GOROOT, else the one this
// program was built with).
func (st *symStd) list(ctx context.Context) error {
	root := build.Default.GOROOT
	if st.goCmd != "" {
		out, err := st.run(ctx, "env", "GOROOT")
		if err != nil {
			return err
		}
		root = strings.TrimSpace(string(out))
	}
	if root == "" {
		return errors.New("GOROOT unknown")
	}
	src := filepath.Join(root, "src")
	names := make(map[string]string)
	byName := make(map[string][]string)
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == src {
				return err
			}
			return fs.SkipDir
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		rel, _ := filepath.Rel(src, p)
		rel = filepath.ToSlash(rel)
		base := d.Name()
		if rel != "." && (base == "testdata" || base == "internal" || base == "vendor" || rel == "cmd" || rel == "builtin" ||
			strings.HasPrefix(base, ".") || strings.HasPrefix(base, "_")) {
			return fs.SkipDir
		}
		if rel == "." {
			return nil
		}
		if name := symStdPackageName(p); name != "" && name != "main" {
			names[rel] = name
			byName[name] = append(byName[name], rel)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("walk %s: %w", src, err)
	}
	if len(names) == 0 {
		return fmt.Errorf("no packages under %s", src)
	}
	for name, paths := range byName {
		pref := symStdPreferred[name]
		slices.SortFunc(paths, func(a, b string) int {
			switch {
			case a == pref:
				return -1
			case b == pref:
				return 1
			}
			if na, nb := strings.Count(a, "/"), strings.Count(b, "/"); na != nb {
				return na - nb
			}
			return strings.Compare(a, b)
		})
	}
	st.names, st.byName = names, byName
	return nil
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

// listStale records which of paths lack export data in the build cache
// (building it could take a minute on a cold cache).
func (st *symStd) listStale(ctx context.Context, paths []string) error {
	var ask []string
	for _, p := range paths {
		if symIsStdPath(p) {
			ask = append(ask, p)
		}
	}
	slices.Sort(ask)
	ask = slices.Compact(ask)
	args := append([]string{"list", "-e", "-f", "{{.ImportPath}}\t{{.Stale}}"}, ask...)
	out, err := st.run(ctx, args...)
	if err != nil {
		return err
	}
	for _, line := range strings.Split(string(out), "\n") {
		if ip, stale, ok := strings.Cut(line, "\t"); ok && stale == "true" {
			st.stale[ip] = true
		}
	}
	return nil
}

// fetch asks the go command for the export data of paths and their
// dependencies.
func (st *symStd) fetch(ctx context.Context, paths []string) error {
	var ask []string
	for _, p := range paths {
		if !st.asked[p] {
			st.asked[p] = true
			ask = append(ask, p)
		}
	}
	if len(ask) == 0 {
		return nil
	}
	slices.Sort(ask)
	ask = slices.Compact(ask)
	started := time.Now()
	args := append([]string{"list", "-e", "-export", "-deps", "-f", "{{.ImportPath}}\t{{.Export}}"}, ask...)
	out, err := st.run(ctx, args...)
	if err != nil {
		return err
	}
	for _, line := range strings.Split(string(out), "\n") {
		ip, file, ok := strings.Cut(line, "\t")
		if ok && file != "" {
			st.exports[ip] = file
		}
	}
	st.logger.Debug("standard library export data", "packages", len(ask), "duration", time.Since(started).Round(time.Millisecond))
	return nil
}

// run runs the go command outside any module, offline and with the local
// toolchain.
func (st *symStd) run(ctx context.Context, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, st.goCmd, args...)
	cmd.Dir = st.goDir
	cmd.Env = append(os.Environ(), "GOTOOLCHAIN=local", "GOFLAGS=", "GOWORK=off", "GOPROXY=off", "GO111MODULE=on")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	started := time.Now()
	out, err := cmd.Output()
	st.logger.Debug("go command", "args", strings.Join(args[:min(len(args), 5)], " "), "duration", time.Since(started).Round(time.Millisecond))
	if err != nil {
		msg := strings.TrimSpace(stderr.String())
		if len(msg) > 500 {
			msg = msg[:500]
		}
		return nil, fmt.Errorf("go %s: %w: %s", args[0], err, msg)
	}
	return out, nil
}

// lookup opens the export data of a package for the gc importer.
func (st *symStd) lookup(ip string) (io.ReadCloser, error) {
	file, ok := st.exports[ip]
	if !ok {
		return nil, fmt.Errorf("no export data for %s", ip)
	}
	return os.Open(file)
}

// importPkg returns the std package ip. fetch allows running the go
// command for a package not fetched at load time. It returns
// errSymStdMissing if the standard library is known to have no such
// package and errSymStdUnavailable if it cannot be loaded.
func (st *symStd) importPkg(ctx context.Context, ip string, fetch bool) (*types.Package, error) {
	var fetcher func(string) error
	if fetch {
		fetcher = func(ip string) error { return st.fetch(ctx, []string{ip}) }
	}
	p, err := st.pkg(ip, fetcher)
	if err != nil {
		return nil, err
	}
	return p.Types, nil
}

// loaded returns the std package ip if it is loaded or can be without
// running the go command.
func (st *symStd) loaded(ip string) (*Package, bool) {
	p, err := st.pkg(ip, nil)
	return p, err == nil
}

// pkg returns the std package ip, using fetch (when not nil) to get
// export data not fetched at load time.
func (st *symStd) pkg(ip string, fetch func(string) error) (*Package, error) {
	if st == nil {
		return nil, errSymStdUnavailable
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	if p := st.pkgs[ip]; p != nil {
		return p, nil
	}
	if st.names != nil {
		if _, ok := st.names[ip]; !ok {
			return nil, errSymStdMissing
		}
	}
	switch st.mode {
	case symStdNone:
		return nil, errSymStdUnavailable
	case symStdExport:
		if _, ok := st.exports[ip]; !ok {
			if fetch == nil || st.stale[ip] || st.asked[ip] {
				return nil, errSymStdUnavailable
			}
			if err := fetch(ip); err != nil {
				st.logger.Warn("fetch standard library export data", "package", ip, "err", err)
				return nil, errSymStdUnavailable
			}
			if _, ok := st.exports[ip]; !ok {
				return nil, errSymStdUnavailable
			}
		}
	}
	tp, err := st.imp.Import(ip)
	if err != nil {
		if st.mode == symStdSource && st.names == nil {
			// Without the list of std packages, a failed import from
			// source is how a missing package shows.
			return nil, errSymStdMissing
		}
		st.logger.Warn("import standard library package", "package", ip, "err", err)
		return nil, errSymStdUnavailable
	}
	p := &Package{ImportPath: ip, Name: tp.Name(), Types: tp, Fset: st.fset, std: true, state: symChecked}
	st.pkgs[ip] = p
	return p, nil
}

// exists reports whether ip is a standard library package; when the list
// is unknown, whether it looks like one.
func (st *symStd) exists(ip string) bool {
	if st == nil || st.names == nil {
		return symIsStdPath(ip)
	}
	_, ok := st.names[ip]
	return ok
}

// name returns the package name of std package ip, or its last element.
func (st *symStd) name(ip string) string {
	if st == nil {
		return path.Base(ip)
	}
	if n := st.names[ip]; n != "" {
		return n
	}
	return path.Base(ip)
}

// pathsNamed returns the std packages named name, preferred first.
func (st *symStd) pathsNamed(name string) []string {
	if st == nil {
		return nil
	}
	return st.byName[name]
}

func (st *symStd) modeName() string {
	if st == nil {
		return "none"
	}
	switch st.mode {
	case symStdExport:
		return "export-data"
	case symStdSource:
		return "source"
	}
	return "none"
}

// symFindGo returns the go command and the directory to run it in (GOROOT,
// outside any module), or "" when there is no go command.
func symFindGo() (cmd, dir string) {
	cmd, err := exec.LookPath("go")
	if err != nil {
		cmd = ""
		if root := build.Default.GOROOT; root != "" {
			c := filepath.Join(root, "bin", "go")
			if fi, err := os.Stat(c); err == nil && !fi.IsDir() {
				cmd = c
			}
		}
	}
	dir = os.TempDir()
	if root := build.Default.GOROOT; root != "" {
		if fi, err := os.Stat(root); err == nil && fi.IsDir() {
			dir = root
		}
	}
	return cmd, dir
}
