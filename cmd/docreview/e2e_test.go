package main

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/docreview/docreview/review"
	"github.com/docreview/docreview/review/report"
	"github.com/docreview/docreview/rules"
)

// expectation is one row of examples/inventory/EXPECTED.md.
type expectation struct {
	path       string
	start, end int
	label      review.Label
	rule       string
}

// readExpected parses the two tables of EXPECTED.md: findings (with a rule
// column) and consistent edits.
func readExpected(t *testing.T) []expectation {
	t.Helper()
	data, err := os.ReadFile("../../examples/inventory/EXPECTED.md")
	if err != nil {
		t.Fatal(err)
	}
	var out []expectation
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		cells := strings.Split(sc.Text(), "|")
		if len(cells) < 7 || !isNumber(strings.TrimSpace(cells[1])) {
			continue
		}
		for i := range cells {
			cells[i] = strings.Trim(strings.TrimSpace(cells[i]), "`")
		}
		a, b, ok := strings.Cut(cells[3], "-")
		if !ok {
			b = a
		}
		e := expectation{path: cells[2], start: atoi(t, a), end: atoi(t, b)}
		if len(cells) >= 10 { // findings: # file lines at symbol label rule why
			e.label, e.rule = review.Label(cells[6]), cells[7]
		} else { // consistent: # file lines symbol label why
			e.label = review.Label(cells[5])
		}
		out = append(out, e)
	}
	if len(out) < 10 {
		t.Fatalf("EXPECTED.md: parsed only %d rows", len(out))
	}
	return out
}

func isNumber(s string) bool { _, err := strconv.Atoi(s); return err == nil }

func atoi(t *testing.T, s string) int {
	t.Helper()
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil {
		t.Fatalf("EXPECTED.md: bad line number %q", s)
	}
	return n
}

// buildExample builds the bundled example repository in a temporary
// directory with examples/build.sh.
func buildExample(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	cmd := exec.CommandContext(t.Context(), "bash", "../../examples/build.sh", dir)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("build example: %v\n%s", err, out)
	}
	return dir
}

// reviewJSON runs 'docreview review --format json' and decodes the report.
func reviewJSON(t *testing.T, args ...string) (review.Report, int, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := run(t.Context(), append([]string{"review", "--format", "json", "--no-cache"}, args...), nil, &stdout, &stderr, func(string) string { return "" })
	if code == exitError {
		return review.Report{}, code, stderr.String()
	}
	r, err := report.DecodeJSON(&stdout)
	if err != nil {
		t.Fatalf("decode report: %v\nstderr: %s", err, stderr.String())
	}
	return r, code, stderr.String()
}

// TestReviewExample reviews the bundled example end to end and checks every
// row of its EXPECTED.md: labels, rules and line ranges.
func TestReviewExample(t *testing.T) {
	dir := buildExample(t)
	r, code, stderr := reviewJSON(t, "--repo", dir)
	if code != exitFindings {
		t.Errorf("exit code = %d, want %d (contradicted findings exist); stderr: %s", code, exitFindings, stderr)
	}
	implemented := map[string]bool{}
	for _, n := range knownRules() {
		implemented[n] = true
	}
	for _, e := range readExpected(t) {
		name := e.path + ":" + strconv.Itoa(e.start)
		i := slices.IndexFunc(r.Verdicts, func(v review.Verdict) bool {
			return v.Claim.Path == e.path && v.Claim.Line == e.start
		})
		if i < 0 {
			t.Errorf("%s: no claim reviewed at this line", name)
			continue
		}
		v := r.Verdicts[i]
		if v.Claim.EndLine != e.end {
			t.Errorf("%s: claim ends at line %d, want %d", name, v.Claim.EndLine, e.end)
		}
		if e.rule != "" && !implemented[e.rule] {
			t.Logf("%s: rule %s not implemented yet; got %s", name, e.rule, v.Label)
			continue
		}
		if v.Label != e.label || (e.rule != "" && v.Rule != e.rule) {
			t.Errorf("%s: got %s by %s (%s), want %s by %s", name, v.Label, v.Rule, v.Message, e.label, e.rule)
			continue
		}
		if v.Label == review.Consistent {
			continue
		}
		if len(v.Evidence) == 0 {
			t.Errorf("%s: finding without evidence", name)
		}
		for _, ev := range v.Evidence {
			if ev.StartLine < 1 || ev.EndLine < ev.StartLine || ev.Snippet == "" || ev.Why == "" {
				t.Errorf("%s: malformed evidence %+v", name, ev)
			}
			if _, err := os.Stat(filepath.Join(dir, ev.Path)); err != nil {
				t.Errorf("%s: evidence path %s does not exist at head", name, ev.Path)
			}
		}
	}
}

func knownRules() []string {
	var out []string
	for _, j := range rules.All() {
		out = append(out, j.Name())
	}
	return out
}
