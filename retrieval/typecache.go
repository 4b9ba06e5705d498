package retrieval

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"go/build"
	"go/token"
	"go/types"
	"io/fs"
	"log/slog"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"golang.org/x/tools/go/gcexportdata"
)

// typesFormat versions the layout of a [TypeCache]: entries of another
// version are never read.
const typesFormat = 1

// typesMagic starts every file of a [TypeCache].
const typesMagic = "docreview-types"

// TypeCache keeps the type information [LoadSymbols] needs from the Go
// standard library, so that a process pays for type-checking it once per
// Go installation instead of on every load: each standard package is
// type-checked from GOROOT's sources the first time it is imported
// (declarations only, on every core: about 0.9 s and 260 MB allocated for
// net/http and the 190 packages it imports, on 2 cores) and stored under
// Dir as Go export data (about 60 ms and 17 MB to read the same packages
// back; BenchmarkStdTypes).
//
// Entries live in Dir/std-<go version>-linux-amd64-<key>/, one file per
// package; the key covers GOROOT's path, the Go version and the cache's
// format, so another Go installation never reads them. Each entry records
// a checksum of its data and a fingerprint of its package's source files
// (names, sizes, modification times): an entry that is truncated, corrupt,
// undecodable or stale is type-checked again and rewritten. Entries are
// written to a temporary file and renamed into place, so any number of
// processes may share one Dir: a reader sees a whole entry or none, and
// two writers of one entry write the same bytes.
//
// The zero value keeps nothing between loads (Dir ""), and still avoids
// the go command's build cache: loads type-check what they import from
// source. A TypeCache is safe for concurrent use; its fields must not
// change once it is used.
type TypeCache struct {
	// Dir is the cache directory; "" keeps nothing on disk.
	Dir string
	// NoDependencies leaves the packages of the repository's
	// dependencies placeholders, as if the module cache held none: for a
	// load whose outcome must not depend on the machine's module cache
	// (tests).
	NoDependencies bool

	once sync.Once
	env  *stdEnv
}

// LoadSymbols is [LoadSymbols] with the standard library read from, and
// added to, c. A nil c keeps nothing.
func (c *TypeCache) LoadSymbols(ctx context.Context, fsys fs.FS, files []string, logger *slog.Logger) (*Symbols, error) {
	return loadSymbols(ctx, c, fsys, files, logger)
}

// stdEnv is what a [TypeCache] knows of the Go installation: found once.
type stdEnv struct {
	// goroot is the go command's GOROOT; srcDir its src directory, ""
	// when it has no sources (then std packages are unavailable).
	goroot, srcDir string
	// version is the Go version ("go1.26.8"); key the name of the cache
	// directory for this installation.
	version, key string
	// names maps std import paths to package names; nil when unknown
	// (then any path without a dot may be std). byName maps package
	// names to import paths, preferred first.
	names  map[string]string
	byName map[string][]string
	// modcache is the go command's GOMODCACHE, where dependencies are
	// read from; "" when unknown.
	modcache string
}

// stdEnv finds the Go installation and lists its packages, once per c.
func (c *TypeCache) stdEnv(ctx context.Context, logger *slog.Logger) *stdEnv {
	c.once.Do(func() { c.env = findStdEnv(ctx, c.Dir, logger) })
	return c.env
}

// cacheDir returns the directory of this installation's entries in c, or
// "" when c keeps nothing.
func (e *stdEnv) cacheDir(c *TypeCache) string {
	if c == nil || c.Dir == "" || e.key == "" {
		return ""
	}
	return filepath.Join(c.Dir, e.key)
}

// langVersion returns the language version of the installation ("go1.26"),
// or "" for a development version.
func (e *stdEnv) langVersion() string {
	v, ok := strings.CutPrefix(e.version, "go")
	if !ok {
		return ""
	}
	parts := strings.SplitN(v, ".", 3)
	if len(parts) < 2 {
		return ""
	}
	minor := parts[1]
	if i := strings.IndexFunc(minor, func(r rune) bool { return r < '0' || r > '9' }); i >= 0 {
		minor = minor[:i]
	}
	if _, err := strconv.Atoi(parts[0]); err != nil || minor == "" {
		return ""
	}
	return "go" + parts[0] + "." + minor
}

// findStdEnv asks the go command for GOROOT and the Go version (else uses
// the GOROOT docreview was built with and its VERSION file), and reads the
// list of std packages from the cache in dir, else from GOROOT/src
// (writing it to the cache).
func findStdEnv(ctx context.Context, dir string, logger *slog.Logger) *stdEnv {
	e := findStdEnvList(ctx, dir, logger)
	if e.names == nil {
		// The common packages' names stand for them.
		e.byName = make(map[string][]string)
		for _, p := range symStdCommon {
			e.byName[path.Base(p)] = append(e.byName[path.Base(p)], p)
		}
	}
	return e
}

// findStdEnvList is findStdEnv up to the list of std packages.
func findStdEnvList(ctx context.Context, dir string, logger *slog.Logger) *stdEnv {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	e := &stdEnv{goroot: build.Default.GOROOT}
	if goCmd, goDir := symFindGo(); goCmd != "" {
		cmd := exec.CommandContext(ctx, goCmd, "env", "GOROOT", "GOVERSION", "GOMODCACHE")
		cmd.Dir = goDir
		cmd.Env = append(os.Environ(), "GOTOOLCHAIN=local", "GOFLAGS=", "GOWORK=off")
		if out, err := cmd.Output(); err == nil {
			lines := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
			if len(lines) >= 2 && lines[0] != "" {
				e.goroot, e.version = strings.TrimSpace(lines[0]), strings.TrimSpace(lines[1])
			}
			if len(lines) == 3 {
				e.modcache = strings.TrimSpace(lines[2])
			}
		} else {
			logger.Warn("go env", "err", err)
		}
	} else {
		logger.Info("no go command: standard library packages are type-checked from GOROOT's sources if it has them")
	}
	if e.goroot == "" {
		logger.Warn("GOROOT unknown: standard library packages are unavailable")
		return e
	}
	if fi, err := os.Stat(filepath.Join(e.goroot, "src", "fmt")); err == nil && fi.IsDir() {
		e.srcDir = filepath.Join(e.goroot, "src")
	} else {
		logger.Warn("GOROOT has no sources: standard library packages are unavailable", "goroot", e.goroot)
	}
	if e.version == "" {
		if b, err := os.ReadFile(filepath.Join(e.goroot, "VERSION")); err == nil {
			e.version, _, _ = strings.Cut(strings.TrimSpace(string(b)), "\n")
		}
	}
	e.setKey()
	if e.srcDir == "" {
		return e
	}
	cdir := e.cacheDir(&TypeCache{Dir: dir})
	if cdir != "" {
		if names, err := readStdList(filepath.Join(cdir, stdListName)); err == nil {
			e.setNames(names)
			return e
		} else if !errors.Is(err, fs.ErrNotExist) {
			logger.Warn("type cache: package list unreadable; listing GOROOT again", "err", err)
		}
	}
	names, err := listStd(ctx, e.srcDir)
	if err != nil {
		logger.Warn("list standard library", "err", err)
		return e
	}
	e.setNames(names)
	if cdir != "" {
		if err := writeStdList(filepath.Join(cdir, stdListName), names); err != nil {
			logger.Warn("type cache: write package list", "err", err)
		}
	}
	return e
}

// setKey names the cache directory of the installation: its Go version,
// and a hash of GOROOT's path, the version and the cache's format. Without
// a version there is none (nothing is cached).
func (e *stdEnv) setKey() {
	if e.version == "" {
		return
	}
	sum := sha256.Sum256(fmt.Appendf(nil, "%s\n%s\n%d\n", e.goroot, e.version, typesFormat))
	e.key = fmt.Sprintf("std-%s-linux-amd64-%s", typesSafeName(e.version), hex.EncodeToString(sum[:6]))
}

// setNames records the std packages and orders the paths of each name.
func (e *stdEnv) setNames(names map[string]string) {
	byName := make(map[string][]string)
	for ip, name := range names {
		byName[name] = append(byName[name], ip)
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
	e.names, e.byName = names, byName
}

// listStd learns the standard packages and their names from the package
// clauses under src.
func listStd(ctx context.Context, src string) (map[string]string, error) {
	names := make(map[string]string)
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
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("walk %s: %w", src, err)
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("no packages under %s", src)
	}
	return names, nil
}

// stdListName is the cache file listing the std packages.
const stdListName = "packages"

// readStdList reads the package list of a cache directory.
func readStdList(file string) (map[string]string, error) {
	kv, payload, err := readTypesFile(file)
	if err != nil {
		return nil, err
	}
	if kv["kind"] != "packages" {
		return nil, fmt.Errorf("%s: not a package list", file)
	}
	names := make(map[string]string)
	for _, line := range strings.Split(string(payload), "\n") {
		if ip, name, ok := strings.Cut(line, " "); ok {
			names[ip] = name
		}
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("%s: empty package list", file)
	}
	return names, nil
}

// writeStdList writes the package list of a cache directory.
func writeStdList(file string, names map[string]string) error {
	var b bytes.Buffer
	for _, ip := range symSortedKeys(names) {
		fmt.Fprintf(&b, "%s %s\n", ip, names[ip])
	}
	return writeTypesFile(file, [][2]string{{"kind", "packages"}}, b.Bytes())
}

// typesEntry is one package of a [TypeCache]: its export data and what
// decides whether it is still valid.
type typesEntry struct {
	path        string
	fingerprint string
	// imports lists the resolved import paths of the package's direct
	// imports: loaded before the entry is decoded.
	imports []string
	data    []byte
}

// typesEntryName is the file name of the entry of import path ip.
func typesEntryName(ip string) string {
	return typesSafeName(ip) + ".types"
}

// typesSafeName turns s into a file name: "/" and anything but letters,
// digits, '.', '-' and '_' become '!'+hex.
func typesSafeName(s string) string {
	var b strings.Builder
	for _, c := range []byte(s) {
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '.', c == '-', c == '_':
			b.WriteByte(c)
		default:
			fmt.Fprintf(&b, "!%02x", c)
		}
	}
	return b.String()
}

// readTypesEntry reads and verifies an entry file.
func readTypesEntry(file string) (*typesEntry, error) {
	kv, payload, err := readTypesFile(file)
	if err != nil {
		return nil, err
	}
	if kv["kind"] != "package" || kv["path"] == "" {
		return nil, fmt.Errorf("%s: not a package entry", file)
	}
	e := &typesEntry{path: kv["path"], fingerprint: kv["fingerprint"], data: payload}
	if imps := kv["imports"]; imps != "" {
		e.imports = strings.Fields(imps)
	}
	return e, nil
}

// write stores tp as e's export data in file.
func (e *typesEntry) write(file string, fset *token.FileSet, tp *types.Package) error {
	var data bytes.Buffer
	if err := gcexportdata.Write(&data, fset, tp); err != nil {
		return fmt.Errorf("export %s: %w", e.path, err)
	}
	return writeTypesFile(file, [][2]string{
		{"kind", "package"}, {"path", e.path}, {"fingerprint", e.fingerprint}, {"imports", strings.Join(e.imports, " ")},
	}, data.Bytes())
}

// decode reads e's package into imports (whose entries for e's imports
// must be complete), recording positions in fset. A panic of the decoder
// on data that passed the checksum (a decoder bug) is an error.
func (e *typesEntry) decode(fset *token.FileSet, imports map[string]*types.Package) (tp *types.Package, err error) {
	defer func() {
		if r := recover(); r != nil {
			tp, err = nil, fmt.Errorf("decode %s: internal error: %v", e.path, r)
		}
	}()
	tp, err = gcexportdata.Read(bytes.NewReader(e.data), fset, imports, e.path)
	if err != nil {
		return nil, fmt.Errorf("decode %s: %w", e.path, err)
	}
	return tp, nil
}

// readTypesFile reads a cache file: a header of "key value" lines after
// the magic line, a blank line, and the payload; the header's sha256 line
// covers the rest of the header and the payload.
func readTypesFile(file string) (map[string]string, []byte, error) {
	b, err := os.ReadFile(file)
	if err != nil {
		return nil, nil, err
	}
	head, payload, ok := bytes.Cut(b, []byte("\n\n"))
	if !ok {
		return nil, nil, fmt.Errorf("%s: no header", file)
	}
	kv := make(map[string]string)
	var signed bytes.Buffer // the header without its sha256 line
	sc := bufio.NewScanner(bytes.NewReader(head))
	first := true
	for sc.Scan() {
		line := sc.Text()
		if !strings.HasPrefix(line, "sha256 ") {
			signed.WriteString(line + "\n")
		}
		if first {
			if line != fmt.Sprintf("%s %d", typesMagic, typesFormat) {
				return nil, nil, fmt.Errorf("%s: not a docreview type cache file of format %d", file, typesFormat)
			}
			first = false
			continue
		}
		k, v, _ := strings.Cut(line, " ")
		kv[k] = v
	}
	if first {
		return nil, nil, fmt.Errorf("%s: empty header", file)
	}
	if kv["sha256"] != typesSum(signed.Bytes(), payload) {
		return nil, nil, fmt.Errorf("%s: checksum mismatch (truncated or corrupt)", file)
	}
	return kv, payload, nil
}

// typesSum is the checksum of a cache file: SHA-256 over its header
// (without the checksum line) and its payload, hex.
func typesSum(header, payload []byte) string {
	h := sha256.New()
	h.Write(header)
	h.Write([]byte("\n"))
	h.Write(payload)
	return hex.EncodeToString(h.Sum(nil))
}

// writeTypesFile writes a cache file atomically: to a temporary file in
// the same directory, then renamed into place.
func writeTypesFile(file string, header [][2]string, payload []byte) error {
	dir := filepath.Dir(file)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("type cache: %w", err)
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "%s %d\n", typesMagic, typesFormat)
	for _, h := range header {
		fmt.Fprintf(&b, "%s %s\n", h[0], h[1])
	}
	fmt.Fprintf(&b, "sha256 %s\n\n", typesSum(b.Bytes(), payload))
	b.Write(payload)
	tmp, err := os.CreateTemp(dir, ".tmp-"+filepath.Base(file)+"-*")
	if err != nil {
		return fmt.Errorf("type cache: %w", err)
	}
	_, werr := tmp.Write(b.Bytes())
	cerr := tmp.Close()
	if err := errors.Join(werr, cerr); err != nil {
		_ = os.Remove(tmp.Name())
		return fmt.Errorf("type cache: write %s: %w", file, err)
	}
	if err := os.Rename(tmp.Name(), file); err != nil {
		_ = os.Remove(tmp.Name())
		return fmt.Errorf("type cache: %w", err)
	}
	return nil
}

// stdFingerprint identifies the state of the Go files in dir: their
// names, sizes and modification times. It fails when dir is not a
// directory.
func stdFingerprint(dir string) (string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return "", err
	}
	h := sha256.New()
	for _, d := range entries {
		n := d.Name()
		if d.IsDir() || !strings.HasSuffix(n, ".go") || strings.HasSuffix(n, "_test.go") {
			continue
		}
		fi, err := d.Info()
		if err != nil {
			return "", err
		}
		fmt.Fprintf(h, "%s %d %d\n", n, fi.Size(), fi.ModTime().UnixNano())
	}
	return hex.EncodeToString(h.Sum(nil)[:12]), nil
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

// TypeCacheDirs lists the per-installation directories in dir with their
// sizes in bytes and when each was last written, newest first; for
// reporting and clearing the cache.
func TypeCacheDirs(dir string) ([]TypeCacheDir, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil
		}
		return nil, fmt.Errorf("type cache: %w", err)
	}
	var out []TypeCacheDir
	for _, d := range entries {
		if !d.IsDir() || !strings.HasPrefix(d.Name(), "std-") {
			continue
		}
		td := TypeCacheDir{Path: filepath.Join(dir, d.Name())}
		err := filepath.WalkDir(td.Path, func(p string, e fs.DirEntry, err error) error {
			if err != nil || e.IsDir() {
				return err
			}
			fi, err := e.Info()
			if err != nil {
				return err
			}
			td.Bytes += fi.Size()
			td.Entries++
			if fi.ModTime().After(td.Written) {
				td.Written = fi.ModTime()
			}
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("type cache: %w", err)
		}
		out = append(out, td)
	}
	slices.SortFunc(out, func(a, b TypeCacheDir) int { return b.Written.Compare(a.Written) })
	return out, nil
}

// TypeCacheDir is one Go installation's part of a [TypeCache].
type TypeCacheDir struct {
	// Path is the directory; its base name names the Go version.
	Path string
	// Entries and Bytes count its files and their total size.
	Entries int
	Bytes   int64
	// Written is when its newest file was written.
	Written time.Time
}
