package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/docreview/docreview/retrieval"
	"github.com/docreview/docreview/retrieval/gitrepo"
	"github.com/docreview/docreview/review"
	"github.com/docreview/docreview/review/completeness"
)

const completenessUsage = `Usage: docreview completeness [flags] [packages]
       docreview completeness --roundtrip PKG [--model M] [--file F] [--repo DIR]

Scores how much of each exported symbol's contract its doc comment states:
parameters and named results, sentinel and typed errors (through callees two
calls deep), panics, defaults, bounding constants, units, blocking,
goroutines, locks. Packages are directories relative to the repository root
or import paths, "DIR/..." for a directory and everything below it, or
"./..." (the default) for every package. The working tree is read (tracked
and untracked files); a directory that is not a git repository is read as it
is on disk.

With --roundtrip, a model regenerates one file of PKG from its documentation
and exported API alone, and the package's own tests run against it in a
temporary copy of the module: fidelity is the share of tests that pass (see
'docreview completeness --roundtrip -h').

Flags:
`

// completenessOptions is what 'docreview completeness' was asked for.
type completenessOptions struct {
	repo     string
	format   string
	verbose  bool
	debug    bool
	patterns []string
}

// runCompleteness runs 'docreview completeness'.
func runCompleteness(ctx context.Context, args []string, stdout, stderr io.Writer, getenv func(string) string) error {
	if wantsRoundtrip(args) {
		return runRoundtrip(ctx, args, stdout, stderr, getenv)
	}
	var opts completenessOptions
	fs := flag.NewFlagSet("completeness", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&opts.repo, "repo", ".", "repository `dir`")
	fs.StringVar(&opts.format, "format", "table", "output `format`: table or json")
	fs.BoolVar(&opts.verbose, "v", false, "table: list each symbol with facts and the facts its doc misses")
	fs.BoolVar(&opts.debug, "debug", false, "log progress and timings to stderr")
	fs.Usage = func() {
		fmt.Fprint(stderr, completenessUsage)
		fs.PrintDefaults()
	}
	patterns, err := parseInterleaved(fs, args)
	if err != nil {
		return err
	}
	opts.patterns = patterns
	if opts.format != "table" && opts.format != "json" {
		return &review.UsageError{Msg: fmt.Sprintf("unknown --format %q: want table or json", opts.format)}
	}
	level := slog.LevelWarn
	if opts.debug {
		level = slog.LevelDebug
	}
	logger := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level}))

	start := time.Now()
	fsys, files, err := completenessFiles(ctx, opts.repo)
	if err != nil {
		return err
	}
	files = pruneModules(fsys, files, opts.patterns)
	read := time.Now()
	syms, err := typeCache(reviewFlags{}, getenv).LoadSymbols(ctx, fsys, files, logger)
	if err != nil {
		return fmt.Errorf("load Go symbols: %w", err)
	}
	loaded := time.Now()
	dirs, unmatched, err := selectPackages(syms, opts.patterns)
	if err != nil {
		return err
	}
	for _, pat := range unmatched {
		fmt.Fprintf(stderr, "docreview: warning: %q matched no packages\n", pat)
	}
	got, err := completeness.Analyze(ctx, syms, dirs)
	if err != nil {
		return fmt.Errorf("analyse: %w", err)
	}
	report := completeness.NewReport(got)
	logger.Debug("completeness", "packages", len(report.Packages), "symbols", len(got),
		"read", read.Sub(start).Round(time.Millisecond), "load", loaded.Sub(read).Round(time.Millisecond),
		"analyse", time.Since(loaded).Round(time.Millisecond))
	if opts.format == "json" {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(report); err != nil {
			return fmt.Errorf("write report: %w", err)
		}
		return nil
	}
	return report.WriteTable(stdout, opts.verbose)
}

// completenessFiles returns the files of the repository at dir and their
// list: the .go and go.mod files of the working tree below dir when dir is
// in a git repository, else of dir as it is on disk
// (leaving out directories named .git, vendor or testdata and those
// starting with _ or .). The Go standard library's source tree (a go.mod
// declaring "module std", as GOROOT/src has) is read as the go command
// reads it: its import paths are its directories, and the unsafe and
// builtin pseudo-packages are left out.
func completenessFiles(ctx context.Context, dir string) (fs.FS, []string, error) {
	var fsys fs.FS
	var files []string
	repo, err := gitrepo.Open(ctx, dir)
	switch {
	case err == nil:
		snap, err := repo.Snapshot(ctx, "", gitrepo.SnapshotOptions{Include: []string{"**/*.go", "**/go.mod"}})
		if err != nil {
			return nil, nil, fmt.Errorf("read the working tree: %w", err)
		}
		fsys, files = snap, snap.Files()
		if fsys, files, err = subtree(fsys, files, repo.Dir, dir); err != nil {
			return nil, nil, err
		}
	case errors.Is(err, gitrepo.ErrNotRepository):
		abs, err := filepath.Abs(dir)
		if err != nil {
			return nil, nil, fmt.Errorf("read %s: %w", dir, err)
		}
		fsys = os.DirFS(abs)
		if files, err = goFiles(fsys); err != nil {
			return nil, nil, &review.UsageError{Msg: fmt.Sprintf("read %s: %v", dir, err)}
		}
	default:
		return nil, nil, &review.UsageError{Msg: err.Error()}
	}
	if src, err := fs.ReadFile(fsys, "go.mod"); err == nil && stdModule(src) {
		fsys = hideFile{FS: fsys, name: "go.mod"}
		files = slices.DeleteFunc(files, func(p string) bool {
			return p == "go.mod" || strings.HasPrefix(p, "unsafe/") || strings.HasPrefix(p, "builtin/")
		})
	}
	return fsys, files, nil
}

// subtree narrows the files of the repository at top to the directory
// dir within it, with paths relative to dir.
func subtree(fsys fs.FS, files []string, top, dir string) (fs.FS, []string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, nil, fmt.Errorf("read %s: %w", dir, err)
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		abs = real
	}
	if real, err := filepath.EvalSymlinks(top); err == nil {
		top = real
	}
	rel, err := filepath.Rel(top, abs)
	if err != nil || rel == "." || strings.HasPrefix(rel, "..") {
		return fsys, files, nil
	}
	rel = filepath.ToSlash(rel)
	sub, err := fs.Sub(fsys, rel)
	if err != nil {
		return nil, nil, fmt.Errorf("read %s: %w", dir, err)
	}
	var kept []string
	for _, f := range files {
		if r, ok := strings.CutPrefix(f, rel+"/"); ok {
			kept = append(kept, r)
		}
	}
	return sub, kept, nil
}

// goFiles lists the .go and go.mod files of fsys, skipping the directories
// the go command ignores.
func goFiles(fsys fs.FS) ([]string, error) {
	var files []string
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if p != "." && (name == "vendor" || name == "testdata" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
				return fs.SkipDir
			}
			return nil
		}
		if d.Type().IsRegular() && (strings.HasSuffix(name, ".go") || name == "go.mod") {
			files = append(files, p)
		}
		return nil
	})
	return files, err
}

// stdModule reports whether a go.mod declares the standard library's
// module, "std".
func stdModule(src []byte) bool { return modulePath(src) == "std" }

// hideFile is fsys without the file name.
type hideFile struct {
	fs.FS
	name string
}

// Open opens a file of the underlying FS; the hidden one does not exist.
func (h hideFile) Open(name string) (fs.File, error) {
	if name == h.name {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
	return h.FS.Open(name)
}

// pruneModules leaves out the files of the modules nested in the
// repository (directories below the root with a go.mod of their own) that
// no pattern can select, so that they are not type-checked: a pattern
// selects a module when, without its "/..." suffix, it names the module's
// directory or import path, or one above or below it. Without patterns,
// or with "./...", every file stays.
func pruneModules(fsys fs.FS, files, patterns []string) []string {
	if len(patterns) == 0 {
		return files
	}
	type module struct{ dir, path string }
	var mods []module
	for _, f := range files {
		if path.Base(f) != "go.mod" || f == "go.mod" {
			continue
		}
		src, err := fs.ReadFile(fsys, f)
		if err != nil {
			return files
		}
		mods = append(mods, module{dir: path.Dir(f), path: modulePath(src)})
	}
	if len(mods) == 0 {
		return files
	}
	dropped := map[string]bool{}
	for _, m := range mods {
		keep := false
		for _, pat := range patterns {
			base := strings.TrimSuffix(strings.TrimPrefix(filepath.ToSlash(pat), "./"), "...")
			base = strings.TrimSuffix(base, "/")
			if base == "" || base == "." || within(base, m.dir) || within(m.dir, base) ||
				m.path != "" && (within(base, m.path) || within(m.path, base)) {
				keep = true
				break
			}
		}
		if !keep {
			dropped[m.dir] = true
		}
	}
	return slices.DeleteFunc(files, func(f string) bool {
		// The nearest module above f decides.
		for d := path.Dir(f); ; d = path.Dir(d) {
			if dropped[d] {
				return true
			}
			if slices.ContainsFunc(mods, func(m module) bool { return m.dir == d }) || d == "." || d == "/" {
				return false
			}
		}
	})
}

// modulePath returns the module path a go.mod declares, or "".
func modulePath(src []byte) string {
	for _, line := range strings.Split(string(src), "\n") {
		f := strings.Fields(line)
		if len(f) >= 2 && f[0] == "module" {
			return strings.Trim(f[1], `"`)
		}
	}
	return ""
}

// selectPackages resolves package patterns to the directories of syms:
// "./..." (or no pattern) for all, "X/..." for the package X (a directory
// or an import path) and those below it, else a directory or an import
// path. A pattern without "/..." that matches nothing is a usage error;
// the "/..." patterns that match nothing are returned in unmatched, as the
// go command warns about them.
func selectPackages(syms *retrieval.Symbols, patterns []string) (dirs, unmatched []string, err error) {
	if len(patterns) == 0 {
		return nil, nil, nil
	}
	for _, pat := range patterns {
		pat = strings.TrimPrefix(filepath.ToSlash(pat), "./")
		if pat == "..." || pat == "" {
			return nil, nil, nil
		}
		n := len(dirs)
		if prefix, ok := strings.CutSuffix(pat, "/..."); ok {
			prefix = path.Clean(prefix)
			for _, p := range syms.Packages() {
				if within(p.Dir, prefix) || within(p.ImportPath, prefix) {
					dirs = append(dirs, p.Dir)
				}
			}
			if len(dirs) == n {
				unmatched = append(unmatched, pat)
			}
			continue
		} else if p := syms.Package(path.Clean(pat)); p != nil {
			dirs = append(dirs, p.Dir)
		} else if p := syms.PackageByPath(pat); p != nil {
			dirs = append(dirs, p.Dir)
		}
		if len(dirs) == n {
			return nil, nil, &review.UsageError{Msg: fmt.Sprintf("no Go package matches %q", pat)}
		}
	}
	if len(dirs) == 0 {
		return nil, nil, &review.UsageError{Msg: "no Go package matches " + strings.Join(patterns, " ")}
	}
	slices.Sort(dirs)
	return slices.Compact(dirs), unmatched, nil
}

// within reports whether p is prefix or lies below it ("." holds all).
func within(p, prefix string) bool {
	return prefix == "." || p == prefix || strings.HasPrefix(p, prefix+"/")
}
