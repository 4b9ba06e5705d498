package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestFaultBenchmark runs a small fault benchmark against real serve
// processes (SQLite queue; PostgreSQL too when DOCREVIEW_TEST_DATABASE_URL
// is set): kill -9 twice, duplicates, replays, older heads with the newest
// push's time, a force-push back, a fifth of GitHub's writes answered 502
// after they were carried out. Every pull request's current head must be
// published, and nothing posted twice.
func TestFaultBenchmark(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	bin := filepath.Join(t.TempDir(), "docreview")
	if out, err := exec.CommandContext(t.Context(), "go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	queues := []string{""}
	if u := os.Getenv("DOCREVIEW_TEST_DATABASE_URL"); u != "" {
		queues = append(queues, u)
	}
	for _, db := range queues {
		name := "sqlite"
		if db != "" {
			name = "postgres"
		}
		t.Run(name, func(t *testing.T) {
			var out bytes.Buffer
			err := runFaultBench(t.Context(), faultBench{
				deliveries: 80, prs: 4, heads: 2, kills: 2, faultRate: 0.2, seed: 7,
				database: db, wait: 4 * time.Minute, bin: bin,
			}, &out)
			t.Log(out.String())
			if err != nil {
				t.Fatal(err)
			}
			for _, want := range []string{"pull requests whose current head was not published: 0", "duplicates: review 0", "summary 0", "check run 0", "inline comment 0",
				"cache: 1 index directories for the repository, 0 review worktrees left behind"} {
				if !strings.Contains(out.String(), want) {
					t.Errorf("output lacks %q", want)
				}
			}
		})
	}
}
