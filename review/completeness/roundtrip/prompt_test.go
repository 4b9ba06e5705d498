package roundtrip

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// TestUserPrompt pins the regeneration prompt of the fixture's cfg.go and
// checks that it holds the API and the docs but no function body.
func TestUserPrompt(t *testing.T) {
	p, err := loadPackage(filepath.Join("testdata", "mod", "cfg"))
	if err != nil {
		t.Fatal(err)
	}
	file, err := p.chooseFile("")
	if err != nil {
		t.Fatal(err)
	}
	if file != "cfg.go" {
		t.Fatalf("chooseFile = %q, want cfg.go", file)
	}
	got := p.userPrompt(file)
	for _, want := range []string{
		"package cfg", "import path example.com/mod/cfg",
		"// Package cfg reads the settings",
		"func ParsePort(s string) (int, error)\n",
		"const DefaultTimeout = 30 * time.Second",
		"var ErrEmpty = errors.New(\"cfg: empty port\")",
		"// ParsePort parses a decimal TCP port.",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("prompt lacks %q", want)
		}
	}
	for _, body := range bodies {
		if strings.Contains(got, body) {
			t.Errorf("prompt contains the body text %q", body)
		}
	}
	golden := filepath.Join("testdata", "prompt_cfg.golden")
	if *update {
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Errorf("prompt differs from %s (run with -update):\n%s", golden, got)
	}
}

// bodies are statements of the fixture's function bodies; no prompt may
// hold them.
var bodies = []string{"strings.TrimSpace(s)", "n < 1 || n > 65535", "kept = append", "return DefaultTimeout", "sep = \",\""}
