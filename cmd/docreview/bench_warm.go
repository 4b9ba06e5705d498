package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"text/tabwriter"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"golang.org/x/mod/modfile"

	"github.com/docreview/docreview/retrieval"
	"github.com/docreview/docreview/review"
)

// benchWarmUsage is the help of 'docreview bench warm'.
const benchWarmUsage = `Usage: docreview bench warm [flags]

Measures what a docreview process costs cold (an empty cache directory:
no index, no type cache) and warm (the same cache, later runs), on two
trees made into git repositories of two commits, the second editing one
doc comment line: a copy of the standard library's net/http and a module
from the module cache. For each tree it times whole docreview processes
(wall time and max RSS): a text query, a structural query, the first
search of 'docreview mcp', a review of the one-line doc edit, and a
review with --scope all; and, as the reference for type-checking done
well, 'go vet' of the same code with an empty and then a warm Go build
cache. Each docreview process runs with an empty docreview cache and Go
build cache of its own at the cold run, as on a CI runner. With
--baseline, another docreview build is measured beside it, row by row.
Prints one table.

Flags:
`

// warmFlags are the flags of 'docreview bench warm'.
type warmFlags struct {
	nethttp, module string
	runs            int
	format          string
	download        bool
	// bin is the docreview binary measured; the running one when empty.
	// baseline, when set, is measured beside it, row by row.
	bin, baseline string
}

// warmTree is one measured repository.
type warmTree struct {
	Name string `json:"tree"`
	// repo is the git repository; symbol the function whose doc the
	// second commit edits (the subject of the queries).
	repo, symbol string
	// vet runs go vet on the same code: in dir, with args; empty when the
	// tree has no buildable form.
	vetDir  string
	vetArgs []string
}

// WarmRow is one line of the table.
type WarmRow struct {
	Tree      string  `json:"tree"`
	Operation string  `json:"operation"`
	ColdS     float64 `json:"cold_s"`
	ColdRSSMB float64 `json:"cold_rss_mb"`
	// WarmS is the median of the warm runs, WarmRSSMB the largest.
	WarmS     float64 `json:"warm_s"`
	WarmRSSMB float64 `json:"warm_rss_mb"`
	// Target is the warm target, "" when the issue sets none.
	Target string `json:"target,omitempty"`
	// Baseline holds the same measurement of the --baseline binary.
	Baseline *WarmRow `json:"baseline,omitempty"`
	Note     string   `json:"note,omitempty"`
}

// WarmReport is the outcome of 'docreview bench warm'.
type WarmReport struct {
	Rows []WarmRow `json:"rows"`
	// TypeCacheBytes is the size of the type cache of one warm cache
	// directory, TypeCacheEntries its files.
	TypeCacheBytes   int64 `json:"type_cache_bytes"`
	TypeCacheEntries int   `json:"type_cache_entries"`
	Runs             int   `json:"warm_runs"`
}

// runBenchWarm implements 'docreview bench warm'.
func runBenchWarm(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("docreview bench warm", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var f warmFlags
	fs.StringVar(&f.nethttp, "nethttp", "", "`dir` copied as the net/http tree (default $(go env GOROOT)/src/net/http)")
	fs.StringVar(&f.module, "module", "go.uber.org/zap@v1.27.0", "the module tree: `path@version` from the module cache, or a directory")
	fs.BoolVar(&f.download, "download", false, "download the module with 'go mod download' when the module cache lacks it")
	fs.IntVar(&f.runs, "runs", 3, "warm runs per measurement (the median is reported)")
	fs.StringVar(&f.format, "format", "table", "output format: table or json")
	fs.StringVar(&f.bin, "bin", "", "measure this docreview `binary` instead of the running one")
	fs.StringVar(&f.baseline, "baseline", "", "also measure this docreview `binary` (an earlier build), side by side in the same run")
	fs.Usage = func() {
		fmt.Fprint(stderr, benchWarmUsage)
		fs.PrintDefaults()
	}
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	switch {
	case fs.NArg() > 0:
		return &review.UsageError{Msg: fmt.Sprintf("bench warm: unexpected argument %q", fs.Arg(0))}
	case f.runs < 1:
		return &review.UsageError{Msg: fmt.Sprintf("--runs: want at least 1, got %d", f.runs)}
	case f.format != "table" && f.format != "json":
		return &review.UsageError{Msg: fmt.Sprintf("--format: unknown format %q (want table or json)", f.format)}
	}
	rep, err := benchWarm(ctx, f, stderr)
	if err != nil {
		return err
	}
	if f.format == "json" {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(rep)
	}
	return rep.writeTable(stdout)
}

// benchWarm sets up the trees and measures them.
func benchWarm(ctx context.Context, f warmFlags, stderr io.Writer) (*WarmReport, error) {
	bin := f.bin
	if bin == "" {
		var err error
		if bin, err = os.Executable(); err != nil {
			return nil, fmt.Errorf("bench warm: %w", err)
		}
	}
	work, err := os.MkdirTemp("", "docreview-bench-warm-")
	if err != nil {
		return nil, fmt.Errorf("bench warm: %w", err)
	}
	defer func() { _ = os.RemoveAll(work) }()

	src := f.nethttp
	var vetDir string
	var vetArgs []string
	if src == "" {
		out, err := exec.CommandContext(ctx, "go", "env", "GOROOT").Output()
		if err != nil {
			return nil, &review.UsageError{Msg: fmt.Sprintf("bench warm: find GOROOT with 'go env GOROOT': %v (pass --nethttp)", err)}
		}
		root := strings.TrimSpace(string(out))
		src = filepath.Join(root, "src", "net", "http")
		vetDir, vetArgs = filepath.Join(root, "src"), []string{"vet", "net/http"}
	}
	nethttp, err := warmRepo(ctx, src, filepath.Join(work, "nethttp"), "net/http")
	if err != nil {
		return nil, err
	}
	nethttp.vetDir, nethttp.vetArgs = vetDir, vetArgs

	modDir, modName, err := warmModuleDir(ctx, f.module, f.download)
	if err != nil {
		return nil, err
	}
	mod, err := warmRepo(ctx, modDir, filepath.Join(work, "module"), modName)
	if err != nil {
		return nil, err
	}
	if _, err := os.Stat(filepath.Join(mod.repo, "go.mod")); err == nil {
		mod.vetDir, mod.vetArgs = mod.repo, []string{"vet", "./..."}
	}

	rep := &WarmReport{Runs: f.runs}
	for _, tree := range []*warmTree{nethttp, mod} {
		ops := []struct {
			name, target string
			args         []string
			mcp          bool
		}{
			{name: "query (text)", args: []string{"query", "--repo", tree.repo, tree.symbol}},
			{name: "query --symbol", args: []string{"query", "--repo", tree.repo, "--symbol", tree.symbol}},
			{name: "mcp: first search", mcp: true},
			{name: "review: one-line doc edit", args: []string{"review", "--repo", tree.repo, "--base", "HEAD~1", "--fail-on", "never"}},
			{name: "review --scope all", args: []string{"review", "--repo", tree.repo, "--scope", "all", "--fail-on", "never"}},
		}
		for _, op := range ops {
			fmt.Fprintf(stderr, "bench warm: %s: %s\n", tree.Name, op.name)
			cache := filepath.Join(work, "cache-"+safeName(tree.Name+"-"+op.name))
			// Each measured binary gets a docreview cache and a Go build
			// cache of its own, both empty at the cold run: a CI runner
			// starts with neither.
			measure := func(bin, cache string) func() (warmRun, error) {
				env := []string{"DOCREVIEW_CACHE_DIR=" + cache, "GOCACHE=" + cache + "-gocache"}
				return func() (warmRun, error) {
					if op.mcp {
						return warmMCP(ctx, bin, tree, env)
					}
					return warmCommand(ctx, tree.repo, env, bin, op.args...)
				}
			}
			row, err := warmMeasure(tree.Name, op.name, f.runs, measure(bin, cache))
			if err != nil {
				return nil, err
			}
			if f.baseline != "" {
				b, err := warmMeasure(tree.Name, op.name, f.runs, measure(f.baseline, cache+"-baseline"))
				if err != nil {
					return nil, fmt.Errorf("baseline: %w", err)
				}
				row.Baseline = &b
			}
			row.Target = warmTarget(tree == nethttp, op.name)
			rep.Rows = append(rep.Rows, row)
			if op.name == "review --scope all" {
				dirs, err := retrieval.TypeCacheDirs(filepath.Join(cache, typesDirName))
				if err == nil && len(dirs) > 0 && tree == nethttp {
					rep.TypeCacheBytes, rep.TypeCacheEntries = dirs[0].Bytes, dirs[0].Entries
				}
			}
		}
		if tree.vetDir != "" {
			fmt.Fprintf(stderr, "bench warm: %s: go vet\n", tree.Name)
			gocache := filepath.Join(work, "gocache-"+safeName(tree.Name))
			env := []string{"GOCACHE=" + gocache, "GOFLAGS=-mod=mod", "GOWORK=off", "GOTOOLCHAIN=local"}
			if !f.download {
				env = append(env, "GOPROXY=off")
			}
			row, err := warmMeasure(tree.Name, "go vet (reference)", f.runs, func() (warmRun, error) {
				return warmCommand(ctx, tree.vetDir, env, "go", tree.vetArgs...)
			})
			if err != nil {
				note, _, _ := strings.Cut(err.Error(), "\n")
				if !f.download {
					note = "not run: its dependencies are not all in the module cache (--download fetches them): " + note
				}
				row = WarmRow{Tree: tree.Name, Operation: "go vet (reference)", Note: note}
			}
			rep.Rows = append(rep.Rows, row)
		}
	}
	return rep, nil
}

// warmTarget is the warm target of the issue that asked for this bench.
func warmTarget(nethttp bool, op string) string {
	switch {
	case nethttp && (op == "query (text)" || op == "mcp: first search"):
		return "≤ 0.15 s"
	case nethttp && op == "review: one-line doc edit":
		return "≤ 1 s"
	case !nethttp && op == "review --scope all":
		return "≤ 2.5 s"
	}
	return ""
}

// warmRun is one measured process.
type warmRun struct {
	wall   time.Duration
	rssKiB int64
}

// warmMeasure runs measure once cold, then runs times warm.
func warmMeasure(tree, op string, runs int, measure func() (warmRun, error)) (WarmRow, error) {
	cold, err := measure()
	if err != nil {
		return WarmRow{}, fmt.Errorf("bench warm: %s: %s: %w", tree, op, err)
	}
	var walls []time.Duration
	var rss int64
	for range runs {
		r, err := measure()
		if err != nil {
			return WarmRow{}, fmt.Errorf("bench warm: %s: %s: %w", tree, op, err)
		}
		walls = append(walls, r.wall)
		rss = max(rss, r.rssKiB)
	}
	slices.Sort(walls)
	return WarmRow{
		Tree: tree, Operation: op,
		ColdS: cold.wall.Seconds(), ColdRSSMB: float64(cold.rssKiB) / 1024,
		WarmS: walls[len(walls)/2].Seconds(), WarmRSSMB: float64(rss) / 1024,
	}, nil
}

// warmCommand runs name with args in dir, the environment plus env, and
// returns its wall time and max RSS (its children's included).
func warmCommand(ctx context.Context, dir string, env []string, name string, args ...string) (warmRun, error) {
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var stderr strings.Builder
	cmd.Stdout, cmd.Stderr = io.Discard, &stderr
	start := time.Now()
	err := cmd.Run()
	wall := time.Since(start)
	if err != nil {
		msg := strings.TrimSpace(stderr.String())
		if len(msg) > 400 {
			msg = msg[len(msg)-400:]
		}
		return warmRun{}, fmt.Errorf("%s %s: %w: %s", filepath.Base(name), strings.Join(args, " "), err, msg)
	}
	return warmRun{wall: wall, rssKiB: maxRSS(cmd.ProcessState)}, nil
}

// maxRSS returns the max resident set size of a finished process in KiB.
func maxRSS(ps *os.ProcessState) int64 {
	if ru, ok := ps.SysUsage().(*syscall.Rusage); ok {
		return ru.Maxrss
	}
	return 0
}

// warmMCP starts 'docreview mcp' on tree and times it from the start of
// the process to the answer of its first search (a text search for the
// tree's symbol).
func warmMCP(ctx context.Context, bin string, tree *warmTree, env []string) (warmRun, error) {
	cmd := exec.CommandContext(ctx, bin, "mcp", "--repo", tree.repo)
	cmd.Env = append(os.Environ(), env...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	start := time.Now()
	client := mcp.NewClient(&mcp.Implementation{Name: "docreview-bench", Version: version}, nil)
	session, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		return warmRun{}, fmt.Errorf("mcp: connect: %w: %s", err, stderr.String())
	}
	res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: "search", Arguments: map[string]any{"query": tree.symbol}})
	wall := time.Since(start)
	cerr := session.Close()
	switch {
	case err != nil:
		return warmRun{}, fmt.Errorf("mcp: search: %w: %s", err, stderr.String())
	case res.IsError:
		return warmRun{}, fmt.Errorf("mcp: search failed: %s", stderr.String())
	case cerr != nil && !errors.Is(cerr, context.Canceled):
		return warmRun{}, fmt.Errorf("mcp: close: %w", cerr)
	}
	var rss int64
	if cmd.ProcessState != nil {
		rss = maxRSS(cmd.ProcessState)
	}
	return warmRun{wall: wall, rssKiB: rss}, nil
}

// warmModuleDir finds the module tree: a directory as given, or path@version
// in the module cache (downloaded first with download).
func warmModuleDir(ctx context.Context, spec string, download bool) (dir, name string, err error) {
	if fi, err := os.Stat(spec); err == nil && fi.IsDir() {
		name := filepath.Base(spec)
		if b, err := os.ReadFile(filepath.Join(spec, "go.mod")); err == nil && modfile.ModulePath(b) != "" {
			name = modfile.ModulePath(b)
		}
		return spec, name, nil
	}
	path, ver, ok := strings.Cut(spec, "@")
	if !ok || path == "" || ver == "" {
		return "", "", &review.UsageError{Msg: fmt.Sprintf("--module: want path@version or a directory, got %q", spec)}
	}
	cmd := exec.CommandContext(ctx, "go", "mod", "download", "-json", spec)
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod")
	if !download {
		cmd.Env = append(cmd.Env, "GOPROXY=off")
	}
	cmd.Dir = os.TempDir()
	out, err := cmd.Output()
	var info struct{ Dir, Error string }
	_ = json.Unmarshal(out, &info)
	if err != nil || info.Dir == "" {
		msg := info.Error
		if msg == "" && err != nil {
			msg = err.Error()
		}
		return "", "", &review.UsageError{Msg: fmt.Sprintf("--module: %s is not in the module cache (%s); pass --download", spec, msg)}
	}
	return info.Dir, path + "@" + ver, nil
}

// warmDocLine matches a doc comment line directly above an exported
// top-level function.
var warmDocLine = regexp.MustCompile(`(?m)^// .*\n(func ([A-Z]\w*)\()`)

// warmRepo copies src (its files, without .git) to dst, commits it, then
// commits an edit of the last doc comment line above the first exported
// function it finds (sniff.go's DetectContentType when present), and
// returns the tree.
func warmRepo(ctx context.Context, src, dst, name string) (*warmTree, error) {
	if err := copyTree(src, dst); err != nil {
		return nil, fmt.Errorf("bench warm: copy %s: %w", src, err)
	}
	git := func(args ...string) error {
		cmd := exec.CommandContext(ctx, "git", append([]string{"-C", dst, "-c", "user.name=docreview bench", "-c", "user.email=bench@docreview.invalid", "-c", "commit.gpgsign=false"}, args...)...)
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("git %s: %w: %s", args[0], err, out)
		}
		return nil
	}
	if err := git("init", "-q"); err != nil {
		return nil, err
	}
	if err := git("add", "-A"); err != nil {
		return nil, err
	}
	if err := git("commit", "-qm", "copy of "+name); err != nil {
		return nil, err
	}
	files, _ := filepath.Glob(filepath.Join(dst, "*.go"))
	slices.Sort(files)
	if i := slices.Index(files, filepath.Join(dst, "sniff.go")); i > 0 {
		files[0], files[i] = files[i], files[0]
	}
	for _, file := range files {
		if strings.HasSuffix(file, "_test.go") {
			continue
		}
		b, err := os.ReadFile(file)
		if err != nil {
			return nil, err
		}
		m := warmDocLine.FindSubmatchIndex(b)
		if m == nil {
			continue
		}
		lineEnd := m[2] - 1 // the newline ending the doc line
		edited := slices.Concat(b[:lineEnd], []byte(" (It is documented here.)"), b[lineEnd:])
		if err := os.WriteFile(file, edited, 0o644); err != nil {
			return nil, err
		}
		if err := git("commit", "-qam", "edit one doc comment line"); err != nil {
			return nil, err
		}
		return &warmTree{Name: name, repo: dst, symbol: string(b[m[4]:m[5]])}, nil
	}
	return nil, fmt.Errorf("bench warm: %s has no doc comment above an exported function in its root directory", src)
}

// copyTree copies the regular files under src to dst, skipping .git.
func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		target := filepath.Join(dst, rel)
		switch {
		case d.IsDir() && d.Name() == ".git":
			return filepath.SkipDir
		case d.IsDir():
			return os.MkdirAll(target, 0o755)
		case !d.Type().IsRegular():
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, b, 0o644)
	})
}

// safeName turns s into a file name.
func safeName(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '-' {
			return r
		}
		return '_'
	}, s)
}

// writeTable prints the report.
func (r *WarmReport) writeTable(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	baseline := slices.ContainsFunc(r.Rows, func(row WarmRow) bool { return row.Baseline != nil })
	head := fmt.Sprintf("tree\toperation\tcold\tcold RSS\twarm (median of %d)\twarm RSS\twarm target", r.Runs)
	if baseline {
		head += "\tbaseline cold\tbaseline warm\tbaseline warm RSS"
	}
	fmt.Fprintln(tw, head)
	var notes []string
	for _, row := range r.Rows {
		if row.Note != "" {
			// After the table's columns, so that a long note leaves them be.
			notes = append(notes, fmt.Sprintf("%s, %s: %s", row.Tree, row.Operation, row.Note))
			continue
		}
		line := fmt.Sprintf("%s\t%s\t%.2f s\t%.0f MB\t%.2f s\t%.0f MB\t%s", row.Tree, row.Operation,
			row.ColdS, row.ColdRSSMB, row.WarmS, row.WarmRSSMB, row.Target)
		if b := row.Baseline; b != nil {
			line += fmt.Sprintf("\t%.2f s\t%.2f s\t%.0f MB", b.ColdS, b.WarmS, b.WarmRSSMB)
		} else if baseline {
			line += "\t\t\t" // keeps tabwriter's columns in one block
		}
		fmt.Fprintln(tw, line)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, n := range notes {
		fmt.Fprintln(w, n)
	}
	_, err := fmt.Fprintf(w, "\ntype cache of the standard library (net/http tree): %.1f MB in %d files\n",
		float64(r.TypeCacheBytes)/(1<<20), r.TypeCacheEntries)
	return err
}
