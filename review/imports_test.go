package review_test

import (
	"os/exec"
	"strings"
	"testing"
)

// TestImportDirection guards the package graph of the design: retrieval
// imports nothing else of docreview; review does not depend on its judges,
// extractors or renderers; rules read the doc model through review (never
// the extractor or another judge) and never reach into cmd or the
// renderers; the CLI readers of rules/clitree and the snippet type checker
// of rules/gocheck import neither review nor the rules (only retrieval);
// prose imports only the standard library.
func TestImportDirection(t *testing.T) {
	const mod = "github.com/docreview/docreview"
	out, err := exec.CommandContext(t.Context(), "go", "list", "-f", "{{.ImportPath}} {{join .Deps \" \"}}", mod+"/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	forbidden := map[string][]string{
		mod + "/retrieval":     {mod + "/review", mod + "/rules", mod + "/cmd"},
		mod + "/review":        {mod + "/rules", mod + "/review/extract", mod + "/review/report", mod + "/review/config", mod + "/cmd"},
		mod + "/review/report": {mod + "/rules", mod + "/cmd", mod + "/review/extract"},
		mod + "/rules":         {mod + "/cmd", mod + "/review/report", mod + "/review/extract", mod + "/review/judge", mod + "/review/github"},
		mod + "/rules/clitree": {mod + "/review", mod + "/rules", mod + "/cmd"},
		mod + "/rules/gocheck": {mod + "/review", mod + "/rules", mod + "/cmd"},
		mod + "/review/prose":  {mod + "/retrieval", mod + "/review", mod + "/rules", mod + "/cmd"},
		mod + "/review/config": {mod + "/retrieval", mod + "/rules", mod + "/cmd"},
	}
	checked := 0
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Fields(line)
		pkg, deps := fields[0], fields[1:]
		for prefix, bad := range forbidden {
			if pkg != prefix && !strings.HasPrefix(pkg, prefix+"/") {
				continue
			}
			checked++
			for _, d := range deps {
				for _, b := range bad {
					if d == b || strings.HasPrefix(d, b+"/") {
						t.Errorf("%s depends on %s", pkg, d)
					}
				}
			}
		}
	}
	if checked < 5 {
		t.Fatalf("checked %d packages; go list output:\n%s", checked, out)
	}
}
