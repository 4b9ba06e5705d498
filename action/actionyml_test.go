package action_test

import (
	"os"
	"strings"
	"testing"

	"github.com/goccy/go-yaml"
)

// actionMetadata is the part of action.yml this test reads.
type actionMetadata struct {
	Runs struct {
		Using string `yaml:"using"`
		Steps []struct {
			ID   string            `yaml:"id"`
			Name string            `yaml:"name"`
			Uses string            `yaml:"uses"`
			With map[string]string `yaml:"with"`
			Env  map[string]string `yaml:"env"`
			Run  string            `yaml:"run"`
		} `yaml:"steps"`
	} `yaml:"runs"`
}

// TestActionCachesDocreview: the composite action restores and saves
// docreview's cache directory, the one the review step points docreview
// at, under a key of the Go version, the repository's go.sum and the
// docreview build, and restores a cache of another go.sum or build of the
// same Go version when there is no exact one.
func TestActionCachesDocreview(t *testing.T) {
	b, err := os.ReadFile("../action.yml")
	if err != nil {
		t.Fatal(err)
	}
	var md actionMetadata
	if err := yaml.Unmarshal(b, &md); err != nil {
		t.Fatalf("action.yml: %v", err)
	}
	cacheAt, reviewAt := -1, -1
	var path, key, restore, dir string
	for i, s := range md.Runs.Steps {
		switch {
		case strings.HasPrefix(s.Uses, "actions/cache@"):
			cacheAt, path, key, restore = i, s.With["path"], s.With["key"], s.With["restore-keys"]
		case s.ID == "review":
			reviewAt, dir = i, s.Env["DOCREVIEW_CACHE_DIR"]
		}
	}
	if cacheAt < 0 || reviewAt < 0 || cacheAt > reviewAt {
		t.Fatalf("cache step at %d, review step at %d: want the cache restored before the review", cacheAt, reviewAt)
	}
	if path == "" || path != dir {
		t.Errorf("cache path %q, review's DOCREVIEW_CACHE_DIR %q: want the same directory", path, dir)
	}
	for _, part := range []string{"steps.cache-key.outputs.go", "hashFiles('**/go.sum')", "steps.cache-key.outputs.docreview"} {
		if !strings.Contains(key, part) {
			t.Errorf("cache key %q lacks %s", key, part)
		}
	}
	var lines []string
	for _, l := range strings.Split(restore, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			lines = append(lines, l)
		}
	}
	if len(lines) < 2 || !strings.HasPrefix(key, lines[0]) || !strings.HasPrefix(lines[0], lines[1]) {
		t.Errorf("restore-keys %q: want prefixes of the key, most specific first", restore)
	}
}
