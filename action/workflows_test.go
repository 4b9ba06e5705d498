package action_test

import (
	"io"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/goccy/go-yaml"
	"github.com/rhysd/actionlint"
)

// workflow is the part of a workflow file this test reads.
type workflow struct {
	On   any `yaml:"on"`
	Jobs map[string]struct {
		Steps []struct {
			ID   string         `yaml:"id"`
			Uses string         `yaml:"uses"`
			With map[string]any `yaml:"with"`
		} `yaml:"steps"`
	} `yaml:"jobs"`
}

// actionInterface is what action.yml declares.
type actionInterface struct {
	Inputs  map[string]any `yaml:"inputs"`
	Outputs map[string]any `yaml:"outputs"`
}

// fencedYAML returns the ```yaml and ```yml blocks of a Markdown file.
func fencedYAML(t *testing.T, path string) []string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var blocks []string
	var cur []string
	in := false
	for _, l := range strings.Split(string(data), "\n") {
		switch {
		case !in && (l == "```yaml" || l == "```yml"):
			in, cur = true, nil
		case in && l == "```":
			in = false
			blocks = append(blocks, strings.Join(cur, "\n")+"\n")
		case in:
			cur = append(cur, l)
		}
	}
	return blocks
}

var stepOutputRE = regexp.MustCompile(`steps\.([A-Za-z0-9_-]+)\.outputs\.([A-Za-z0-9_-]+)`)

// TestWorkflowsAsWritten: every workflow in the README and in
// examples/workflows passes actionlint (shellcheck and pyflakes off, so the
// test needs nothing installed), gives the docreview action only inputs
// action.yml declares, and reads only step outputs that exist: the step id
// is in the same job and, for the docreview action, the output is one
// action.yml declares; and none runs docreview through go run or go
// install of a version, which needs a published release.
func TestWorkflowsAsWritten(t *testing.T) {
	meta, err := os.ReadFile("../action.yml")
	if err != nil {
		t.Fatal(err)
	}
	var iface actionInterface
	if err := yaml.Unmarshal(meta, &iface); err != nil {
		t.Fatalf("action.yml: %v", err)
	}
	docs := map[string]string{}
	for i, b := range fencedYAML(t, "../README.md") {
		if strings.Contains(b, "\njobs:") && (strings.HasPrefix(b, "on:") || strings.Contains(b, "\non:")) {
			docs["README.md workflow "+string(rune('A'+i))] = b
		}
	}
	if len(docs) < 2 {
		t.Fatalf("found %d workflows in README.md, want at least the Action's and the SARIF one", len(docs))
	}
	files, err := filepath.Glob("../examples/workflows/*.yml")
	if err != nil || len(files) == 0 {
		t.Fatalf("examples/workflows: %v (%d files)", err, len(files))
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		docs[filepath.Base(f)] = string(b)
	}
	for name, text := range docs {
		t.Run(name, func(t *testing.T) {
			l, err := actionlint.NewLinter(io.Discard, &actionlint.LinterOptions{WorkingDir: t.TempDir()})
			if err != nil {
				t.Fatal(err)
			}
			errs, err := l.Lint(name+".yml", []byte(text), nil)
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range errs {
				t.Errorf("actionlint: line %d:%d: %s [%s]", e.Line, e.Column, e.Message, e.Kind)
			}
			if strings.Contains(text, "github.com/docreview/docreview/cmd/docreview@") {
				t.Error("runs docreview with go run/install @VERSION: the module is not on the Go module proxy; use the action, which builds from its source")
			}
			var wf workflow
			if err := yaml.Unmarshal([]byte(text), &wf); err != nil {
				t.Fatalf("parse: %v", err)
			}
			for job, j := range wf.Jobs {
				ids := map[string]string{} // step id → uses
				for _, s := range j.Steps {
					if s.ID != "" {
						ids[s.ID] = s.Uses
					}
					if !strings.HasPrefix(s.Uses, "docreview/docreview@") {
						continue
					}
					for k := range s.With {
						if _, ok := iface.Inputs[k]; !ok {
							t.Errorf("job %s: input %q is not in action.yml (inputs: %v)", job, k, slices.Sorted(maps.Keys(iface.Inputs)))
						}
					}
				}
				for _, m := range stepOutputRE.FindAllStringSubmatch(text, -1) {
					uses, ok := ids[m[1]]
					if !ok && len(wf.Jobs) == 1 {
						t.Errorf("job %s: %s: no step has id %q", job, m[0], m[1])
						continue
					}
					if ok && strings.HasPrefix(uses, "docreview/docreview@") {
						if _, declared := iface.Outputs[m[2]]; !declared {
							t.Errorf("job %s: %s: action.yml has no output %q", job, m[0], m[2])
						}
					}
				}
			}
		})
	}
}
