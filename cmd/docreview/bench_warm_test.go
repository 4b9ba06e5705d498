package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// warmFixture writes a tree with one documented exported function and,
// with goMod, a go.mod.
func warmFixture(t *testing.T, pkg string, goMod bool) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		pkg + ".go": "// Package " + pkg + " is a fixture of docreview bench warm.\npackage " + pkg + "\n\n// Twice returns twice n.\nfunc Twice(n int) int { return 2 * n }\n",
	}
	if goMod {
		files["go.mod"] = "module example.com/" + pkg + "\n\ngo 1.22\n"
	}
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestBenchWarm runs the bench on two small trees with a built binary:
// every operation is measured cold and warm, the module gets its go vet
// reference, and the edited doc's function is what the queries look for.
func TestBenchWarm(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and runs it 20 times")
	}
	f := warmFlags{
		nethttp: warmFixture(t, "web", false), module: warmFixture(t, "mod", true),
		runs: 1, format: "json", bin: buildBinary(t),
	}
	f.baseline = f.bin
	t.Setenv("HOME", t.TempDir())
	var stderr bytes.Buffer
	rep, err := benchWarm(t.Context(), f, &stderr)
	if err != nil {
		t.Fatalf("bench warm: %v\n%s", err, stderr.String())
	}
	var ops []string
	for _, r := range rep.Rows {
		ops = append(ops, r.Tree+": "+r.Operation)
		if r.Note != "" {
			t.Errorf("%s %s: %s", r.Tree, r.Operation, r.Note)
			continue
		}
		if r.ColdS <= 0 || r.WarmS <= 0 || r.ColdRSSMB <= 0 || r.WarmRSSMB <= 0 {
			t.Errorf("%s %s: cold %.3f s %.0f MB, warm %.3f s %.0f MB: want all measured", r.Tree, r.Operation, r.ColdS, r.ColdRSSMB, r.WarmS, r.WarmRSSMB)
		}
		if b := r.Baseline; r.Operation != "go vet (reference)" && (b == nil || b.ColdS <= 0 || b.WarmS <= 0) {
			t.Errorf("%s %s: baseline %+v, want it measured", r.Tree, r.Operation, b)
		}
	}
	want := []string{
		"net/http: query (text)", "net/http: query --symbol", "net/http: mcp: first search",
		"net/http: review: one-line doc edit", "net/http: review --scope all",
		"example.com/mod: query (text)", "example.com/mod: query --symbol", "example.com/mod: mcp: first search",
		"example.com/mod: review: one-line doc edit", "example.com/mod: review --scope all", "example.com/mod: go vet (reference)",
	}
	if strings.Join(ops, "\n") != strings.Join(want, "\n") {
		t.Errorf("rows:\n%s\nwant:\n%s", strings.Join(ops, "\n"), strings.Join(want, "\n"))
	}
	var table bytes.Buffer
	if err := rep.writeTable(&table); err != nil || !strings.Contains(table.String(), "review: one-line doc edit") || !strings.Contains(table.String(), "baseline warm") {
		t.Errorf("table: %v\n%s", err, table.String())
	}
	if _, err := json.Marshal(rep); err != nil {
		t.Error(err)
	}
}
