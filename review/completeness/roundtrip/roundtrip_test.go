package roundtrip_test

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/docreview/docreview/review/completeness/roundtrip"
	"github.com/docreview/docreview/review/judge/judgetest/scripted"
)

// fixture is the package directory of the test module.
var fixture = filepath.Join("testdata", "mod", "cfg")

// options returns the options of a run against srv with a temp dir that
// the test checks is left empty.
func options(t *testing.T, srv *scripted.Server) roundtrip.Options {
	t.Helper()
	tmp := t.TempDir()
	t.Cleanup(func() {
		if left, _ := os.ReadDir(tmp); len(left) > 0 {
			t.Errorf("module copy left behind: %v", left)
		}
	})
	return roundtrip.Options{
		Dir:      fixture,
		Endpoint: roundtrip.Endpoint{Model: "test-model", BaseURL: srv.URL, APIKey: "sk-test", MaxRetries: -1},
		TempDir:  tmp,
	}
}

func TestRun(t *testing.T) {
	for _, tc := range []struct {
		transcript  string
		fidelity    float64
		passed      int
		failed      []string
		buildErrors []string // substrings, each of some build error
		failOutput  map[string]string
	}{
		{transcript: "good.json", fidelity: 1, passed: 6, failed: []string{}},
		{
			// DefaultTimeout 10s instead of 30s, and no ErrEmpty for "".
			transcript: "bad.json", fidelity: 4.0 / 6, passed: 4,
			failed: []string{"TestParsePortEmpty", "TestTimeoutDefault"},
			failOutput: map[string]string{
				"TestParsePortEmpty": `ParsePort("") error = strconv.Atoi: parsing "": invalid syntax, want ErrEmpty`,
				"TestTimeoutDefault": "Timeout(0s) = 10s, want 30s",
			},
		},
		{
			transcript: "nobuild.json", fidelity: 0, passed: 0,
			failed:      []string{"TestJoin", "TestParsePort", "TestParsePortEmpty", "TestParsePortRange", "TestParsePortSyntax", "TestTimeoutDefault"},
			buildErrors: []string{"cfg/cfg.go:36:9: not enough return values; have (int); want (int, error)"},
		},
	} {
		t.Run(tc.transcript, func(t *testing.T) {
			srv := scripted.New(t, filepath.Join("testdata", tc.transcript))
			res, err := roundtrip.Run(t.Context(), options(t, srv))
			if err != nil {
				t.Fatalf("Run: %v", err)
			}
			t.Logf("fidelity %.3f, tests %d, passed %d, failed %v, build errors %v, tokens %d+%d",
				res.Fidelity, res.Tests, res.Passed, res.Failed, res.BuildErrors, res.PromptTokens, res.CompletionTokens)
			if res.Package != "example.com/mod/cfg" || res.File != "cfg/cfg.go" || res.Model != "test-model" {
				t.Errorf("Package, File, Model = %q, %q, %q", res.Package, res.File, res.Model)
			}
			if res.Tests != 6 || res.Passed != tc.passed || res.Fidelity != tc.fidelity {
				t.Errorf("Tests, Passed, Fidelity = %d, %d, %v; want 6, %d, %v", res.Tests, res.Passed, res.Fidelity, tc.passed, tc.fidelity)
			}
			if !slices.Equal(res.Failed, tc.failed) {
				t.Errorf("Failed = %q, want %q", res.Failed, tc.failed)
			}
			for name, want := range tc.failOutput {
				if !slices.ContainsFunc(res.FailOutput[name], func(l string) bool { return strings.Contains(l, want) }) {
					t.Errorf("FailOutput[%s] = %q, want a line with %q", name, res.FailOutput[name], want)
				}
			}
			if len(tc.buildErrors) == 0 && len(res.BuildErrors) > 0 {
				t.Errorf("BuildErrors = %q, want none", res.BuildErrors)
			}
			for _, want := range tc.buildErrors {
				if !slices.ContainsFunc(res.BuildErrors, func(l string) bool { return strings.Contains(l, want) }) {
					t.Errorf("BuildErrors = %q, want one with %q", res.BuildErrors, want)
				}
			}
			if res.PromptTokens == 0 || res.CompletionTokens == 0 {
				t.Errorf("tokens = %d, %d; want both counted", res.PromptTokens, res.CompletionTokens)
			}
			if res.Generated == "" {
				t.Error("Generated is empty")
			}
		})
	}
}

// TestRunTimeout: a regenerated Timeout that never returns for d <= 0 is
// stopped by the test timeout; the test running then and those that never
// ran count as failed.
func TestRunTimeout(t *testing.T) {
	srv := scripted.New(t, filepath.Join("testdata", "hang.json"))
	opts := options(t, srv)
	opts.TestTimeout = 3 * time.Second
	start := time.Now()
	res, err := roundtrip.Run(t.Context(), opts)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	t.Logf("fidelity %.3f, failed %v, in %s", res.Fidelity, res.Failed, time.Since(start))
	if want := []string{"TestJoin", "TestTimeoutDefault"}; res.Passed != 4 || !slices.Equal(res.Failed, want) {
		t.Errorf("Passed, Failed = %d, %q; want 4, %q", res.Passed, res.Failed, want)
	}
	if !slices.ContainsFunc(res.FailOutput["TestTimeoutDefault"], func(l string) bool { return strings.Contains(l, "test timed out after 3s") }) {
		t.Errorf("FailOutput = %q, want the timeout panic", res.FailOutput)
	}
}

// TestRunNoCode: an answer without a ```go block is a clear error, with
// the tokens spent still reported.
func TestRunNoCode(t *testing.T) {
	srv := scripted.New(t, filepath.Join("testdata", "nocode.json"))
	res, err := roundtrip.Run(t.Context(), options(t, srv))
	if !errors.Is(err, roundtrip.ErrNoCode) {
		t.Fatalf("Run error = %v, want ErrNoCode", err)
	}
	if !strings.Contains(err.Error(), "it has none") {
		t.Errorf("error %q does not say what is missing", err)
	}
	if res.PromptTokens == 0 || res.File != "cfg/cfg.go" {
		t.Errorf("result = %+v, want tokens and file", res)
	}
}

// TestRunErrors: bad options and packages fail before any model call (the
// server has no conversation, so a call would fail the test).
func TestRunErrors(t *testing.T) {
	srv := scripted.New(t)
	for _, tc := range []struct {
		name string
		edit func(*roundtrip.Options)
		want string
	}{
		{"no model", func(o *roundtrip.Options) { o.Endpoint.Model = "" }, "no model configured"},
		{"bad base URL", func(o *roundtrip.Options) { o.Endpoint.BaseURL = "localhost:8080" }, "bad base URL"},
		{"no dir", func(o *roundtrip.Options) { o.Dir = "" }, "no package directory"},
		{"not a module", func(o *roundtrip.Options) { o.Dir = t.TempDir() }, "not in a Go module"},
		{"unknown file", func(o *roundtrip.Options) { o.File = "nope.go" }, "nope.go is not a non-test Go file of package example.com/mod/cfg (files: cfg.go, doc.go)"},
		{"test file", func(o *roundtrip.Options) { o.File = "cfg_test.go" }, "is not a non-test Go file"},
		{"copy limit", func(o *roundtrip.Options) { o.MaxCopyBytes = 100 }, "larger than the copy limit of 100 bytes"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			opts := options(t, srv)
			tc.edit(&opts)
			_, err := roundtrip.Run(t.Context(), opts)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Run error = %v, want one containing %q", err, tc.want)
			}
		})
	}
	if n := srv.Requests(); n != 0 {
		t.Errorf("%d model requests, want none", n)
	}
}
