package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/docreview/docreview/review/judge/judgetest/scripted"
	"github.com/docreview/docreview/review/report"
)

// TestReviewWithModel runs 'docreview review --model' on the bundled
// example against the scripted OpenAI-compatible server: the rules'
// findings stand, every claim they left consistent goes to the model, and
// the JSON stats carry the model's costs.
func TestReviewWithModel(t *testing.T) {
	dir := buildExample(t)
	srv := scripted.New(t, "../../review/judge/testdata/bundled.json")
	srv.NoKey = true
	// A local server needs no key; without one the judge's search has no
	// dense channel (review.TestLoadDenseChannel covers that wiring).
	env := map[string]string{"OPENAI_BASE_URL": srv.URL, "HOME": t.TempDir()}
	var stdout, stderr bytes.Buffer
	code := run(t.Context(), []string{"review", "--repo", dir, "--format", "json", "--model", "gpt-test", "--fail-on", "never"}, nil, &stdout, &stderr,
		func(k string) string { return env[k] })
	if code != exitOK {
		t.Fatalf("exit %d\n%s", code, stderr.String())
	}
	rep, err := report.DecodeJSON(&stdout)
	if err != nil {
		t.Fatal(err)
	}
	rulesOnly, _, _ := reviewJSON(t, "--repo", dir, "--fail-on", "never")
	m := rep.Stats.Model
	if m == nil || m.Model != "gpt-test" || m.Claims != rulesOnly.Stats.Consistent || m.Judged != m.Claims || m.Calls != srv.Requests() {
		t.Fatalf("model stats %+v; rules alone left %d consistent; server answered %d", m, rulesOnly.Stats.Consistent, srv.Requests())
	}
	if rep.Stats.Contradicted != rulesOnly.Stats.Contradicted || rep.Stats.Incomplete != rulesOnly.Stats.Incomplete {
		t.Errorf("findings changed with the model: %+v vs %+v", rep.Stats, rulesOnly.Stats)
	}

	// A second run answers from the verdict cache: no request at all.
	before := srv.Requests()
	stdout.Reset()
	code = run(t.Context(), []string{"review", "--repo", dir, "--model", "gpt-test", "--fail-on", "never"}, nil, &stdout, &stderr,
		func(k string) string { return env[k] })
	if code != exitOK {
		t.Fatalf("second run: exit %d\n%s", code, stderr.String())
	}
	if srv.Requests() != before {
		t.Errorf("second run made %d model requests, want none (cache)", srv.Requests()-before)
	}
	if !strings.Contains(stdout.String(), "from the cache") {
		t.Errorf("text report does not mention the cache:\n%s", stdout.String())
	}
}

func TestReviewModelNeedsEndpoint(t *testing.T) {
	dir := buildExample(t)
	var stdout, stderr bytes.Buffer
	code := run(t.Context(), []string{"review", "--repo", dir, "--model", "gpt-test", "--no-cache"}, nil, &stdout, &stderr, func(string) string { return "" })
	if code != exitError || !strings.Contains(stderr.String(), "OPENAI_API_KEY is not set") {
		t.Errorf("exit %d, stderr %q: want a usage error naming OPENAI_API_KEY", code, stderr.String())
	}
	code = run(t.Context(), []string{"review", "--repo", dir, "--judge-mode", "psychic", "--no-cache"}, nil, &stdout, &stderr, func(string) string { return "" })
	if code != exitError || !strings.Contains(stderr.String(), `--judge-mode: unknown judge mode "psychic"`) {
		t.Errorf("exit %d, stderr %q: want a usage error naming --judge-mode", code, stderr.String())
	}
}
