package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/docreview/docreview/retrieval/benchmark"
)

// benchGoroot writes a tiny Go root: a src tree of a few packages, with
// doc comments for the phrase queries.
func benchGoroot(t *testing.T) (dir string, files int) {
	t.Helper()
	dir = t.TempDir()
	src := map[string]string{
		"tiny/tiny.go": `// Package tiny is a fixture of docreview bench.
package tiny

// Sum returns the sum of the numbers it is given, zero for none.
func Sum(xs ...int) int {
	n := 0
	for _, x := range xs {
		n += x
	}
	return n
}

// Counter counts events for the tiny fixture package.
type Counter struct{ n int }

// Add increments the counter by one and returns the new count.
func (c *Counter) Add() int { c.n++; return c.n }
`,
		"tiny/tiny_test.go": "package tiny\n\nimport \"testing\"\n\nfunc TestSum(t *testing.T) {\n\tif Sum(1, 2) != 3 {\n\t\tt.Fatal(\"sum\")\n\t}\n}\n",
		"other/other.go":    "package other\n\n// Greeting returns the greeting the other fixture package prints.\nfunc Greeting() string { return \"hello\" }\n",
		"other/README.md":   "# other\n\nA second package of the fixture, with a Greeting.\n",
	}
	for p, content := range src {
		full := filepath.Join(dir, "src", filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir, len(src)
}

// benchCLI runs docreview in-process with an empty environment.
func benchCLI(t *testing.T, env map[string]string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = run(t.Context(), args, strings.NewReader(""), &out, &errOut, func(k string) string { return env[k] })
	return code, out.String(), errOut.String()
}

func TestBenchRetrievalTable(t *testing.T) {
	goroot, _ := benchGoroot(t)
	code, stdout, stderr := benchCLI(t, nil, "bench", "retrieval", "--goroot", goroot, "--skip-rg", "--queries", "10")
	if code != exitOK {
		t.Fatalf("exit %d, stderr:\n%s", code, stderr)
	}
	for _, want := range []string{
		"corpus " + filepath.Join(goroot, "src") + ": 4 files",
		"AREA", "MEASURE", "VALUE", "TARGET", "STATUS",
		"full build", "incremental update (2 files)", "(2/2 edits found)",
		"size on disk", "peak RSS after full build",
		"warm p50 / p99 (10 queries)", "cold p50 / p99 (10 queries)",
		"not run: skipped (--skip-rg)",
		"not run: not available from the module proxy",
		"lexical recall@5", "structural recall@5", "fused recall@5", "dense channel",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("table lacks %q:\n%s", want, stdout)
		}
	}
	for _, stage := range []string{benchmark.StageBuild, benchmark.StageIncremental, benchmark.StageQueriesWarm, benchmark.StageQuality} {
		if !strings.Contains(stderr, "bench: "+stage) {
			t.Errorf("progress on stderr lacks stage %q:\n%s", stage, stderr)
		}
	}
	// One table: every row has the same columns as the header.
	lines := strings.Split(strings.TrimRight(stdout, "\n"), "\n")
	header := -1
	for i, l := range lines {
		if strings.HasPrefix(l, "AREA") {
			header = i
		}
	}
	if header < 0 || header == len(lines)-1 {
		t.Fatalf("no table rows:\n%s", stdout)
	}
	col := strings.Index(lines[header], "MEASURE")
	for _, l := range lines[header+1:] {
		if len(l) <= col || l[col-1] != ' ' || l[col] == ' ' {
			t.Errorf("row not aligned with the MEASURE column: %q", l)
		}
	}
}

func TestBenchRetrievalJSON(t *testing.T) {
	goroot, nfiles := benchGoroot(t)
	code, stdout, stderr := benchCLI(t, nil, "bench", "retrieval", "--goroot", goroot, "--skip-rg", "--queries", "6", "--format", "json")
	if code != exitOK {
		t.Fatalf("exit %d, stderr:\n%s", code, stderr)
	}
	var rep benchmark.Report
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatalf("output is not a report: %v\n%s", err, stdout)
	}
	items, err := benchmark.Pairs()
	if err != nil {
		t.Fatal(err)
	}
	stdlib := 0
	for _, it := range items {
		if it.Corpus != benchmark.CorpusExample {
			stdlib++
		}
	}
	switch {
	case rep.Corpus.Files != nfiles || rep.Corpus.Indexed != nfiles:
		t.Errorf("corpus: %d files listed, %d indexed; want %d", rep.Corpus.Files, rep.Corpus.Indexed, nfiles)
	case rep.Build.Duration <= 0 || rep.Build.FilesPerSec <= 0:
		t.Errorf("build not timed: %+v", rep.Build)
	case rep.Incremental.Files != 2 || rep.Incremental.Found != 2:
		t.Errorf("incremental: %+v, want 2 files edited and found", rep.Incremental)
	case rep.Queries.Identifiers+rep.Queries.Phrases != 6 || rep.Queries.Warm.N != 6 || rep.Queries.Cold.N != 6:
		t.Errorf("queries: %+v, want 6 timed twice", rep.Queries)
	case rep.Ripgrep.Ran || rep.Ripgrep.Note != "skipped (--skip-rg)":
		t.Errorf("ripgrep: %+v, want skipped", rep.Ripgrep)
	case rep.Quality == nil:
		t.Fatal("no quality report")
	case len(rep.Quality.Skipped) != stdlib || rep.Quality.Items != len(items)-stdlib:
		t.Errorf("quality: %d items, %d skipped; want the %d example items and the %d standard library ones skipped",
			rep.Quality.Items, len(rep.Quality.Skipped), len(items)-stdlib, stdlib)
	}
}

func TestBenchBadUsage(t *testing.T) {
	goroot, _ := benchGoroot(t)
	tests := []struct {
		name string
		env  map[string]string
		args []string
		want string
	}{
		{"no benchmark", nil, []string{"bench"}, "name the benchmark"},
		{"unknown benchmark", nil, []string{"bench", "index"}, `unknown benchmark "index"`},
		{"bad format", nil, []string{"bench", "retrieval", "--goroot", goroot, "--format", "xml"}, `unknown format "xml"`},
		{"too few queries", nil, []string{"bench", "retrieval", "--goroot", goroot, "--queries", "1"}, "want at least 2"},
		{"dense without key", nil, []string{"bench", "retrieval", "--goroot", goroot, "--dense"}, "needs OPENAI_API_KEY"},
		{"dense without quality", map[string]string{"OPENAI_API_KEY": "k"}, []string{"bench", "retrieval", "--goroot", goroot, "--dense", "--skip-quality"}, "drop --skip-quality"},
		{"goroot without src", nil, []string{"bench", "retrieval", "--goroot", t.TempDir()}, "has no src directory"},
		{"extra argument", nil, []string{"bench", "retrieval", "--goroot", goroot, "more"}, `unexpected argument "more"`},
		{"unknown flag", nil, []string{"bench", "retrieval", "--nope"}, "flag provided but not defined"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := benchCLI(t, tt.env, tt.args...)
			if code != exitError {
				t.Errorf("exit %d, want %d", code, exitError)
			}
			if !strings.Contains(stderr, tt.want) {
				t.Errorf("stderr lacks %q:\n%s", tt.want, stderr)
			}
			if stdout != "" {
				t.Errorf("stdout not empty:\n%s", stdout)
			}
		})
	}
}

func TestBenchHelp(t *testing.T) {
	// Help asked for is output: stdout, exit 0.
	code, stdout, stderr := benchCLI(t, nil, "bench", "-h")
	if code != exitOK || !strings.Contains(stdout, "docreview bench retrieval [flags]") || !strings.Contains(stdout, "-skip-rg") || stderr != "" {
		t.Errorf("exit %d, stdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
}
