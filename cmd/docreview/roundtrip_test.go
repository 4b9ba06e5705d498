package main

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/docreview/docreview/review/completeness/roundtrip"
	"github.com/docreview/docreview/review/judge/judgetest/scripted"
)

// roundtripData is the roundtrip package's testdata: the fixture module
// and its transcripts.
var roundtripData = filepath.Join("..", "..", "review", "completeness", "roundtrip", "testdata")

func TestRoundtripCommand(t *testing.T) {
	repo := filepath.Join(roundtripData, "mod")
	for _, tc := range []struct {
		name, transcript string
		args             []string
		want             []string
	}{
		{
			name: "good", transcript: "good.json",
			args: []string{"completeness", "--roundtrip", "cfg", "--repo", repo},
			want: []string{
				"roundtrip example.com/mod/cfg: cfg/cfg.go regenerated from its documentation by test-model\n",
				"fidelity 1.00: 6 of 6 tests pass\n",
				"tokens: ", " prompt, ", " completion\n",
			},
		},
		{
			name: "bad by import path", transcript: "bad.json",
			args: []string{"completeness", "--repo", repo, "--roundtrip=example.com/mod/cfg", "--file", "cfg.go"},
			want: []string{
				"fidelity 0.67: 4 of 6 tests pass\n",
				"tests failed (2), each a fact the documentation may not state:\n  TestParsePortEmpty\n",
				"  TestTimeoutDefault\n      cfg_test.go:49: Timeout(0s) = 10s, want 30s\n",
				"tokens: ",
			},
		},
		{
			name: "does not compile", transcript: "nobuild.json",
			args: []string{"completeness", "--roundtrip", "cfg", "--repo", repo},
			want: []string{
				"fidelity 0.00: 0 of 6 tests pass\n",
				"the regenerated file does not compile, so no test ran:\n  cfg/cfg.go:36:9: not enough return values; have (int); want (int, error)\n",
			},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := scripted.New(t, filepath.Join(roundtripData, tc.transcript))
			srv.NoKey = true
			env := map[string]string{"DOCREVIEW_MODEL": "test-model", "OPENAI_BASE_URL": srv.URL}
			if !wantsRoundtrip(tc.args[1:]) {
				t.Fatalf("wantsRoundtrip(%q) = false", tc.args[1:])
			}
			var stdout, stderr bytes.Buffer
			if err := runRoundtrip(t.Context(), tc.args[1:], &stdout, &stderr, func(k string) string { return env[k] }); err != nil {
				t.Fatalf("runRoundtrip: %v\nstderr: %s", err, stderr.String())
			}
			t.Logf("output:\n%s", stdout.String())
			for _, w := range tc.want {
				if !strings.Contains(stdout.String(), w) {
					t.Errorf("output lacks %q:\n%s", w, stdout.String())
				}
			}
		})
	}
}

func TestRoundtripCommandJSON(t *testing.T) {
	srv := scripted.New(t, filepath.Join(roundtripData, "bad.json"))
	srv.NoKey = true
	env := map[string]string{"OPENAI_BASE_URL": srv.URL}
	var stdout, stderr bytes.Buffer
	args := []string{"--roundtrip", "cfg", "--repo", filepath.Join(roundtripData, "mod"), "--model", "m", "--format", "json"}
	if err := runRoundtrip(t.Context(), args, &stdout, &stderr, func(k string) string { return env[k] }); err != nil {
		t.Fatalf("runRoundtrip: %v", err)
	}
	var res roundtrip.Result
	if err := json.Unmarshal(stdout.Bytes(), &res); err != nil {
		t.Fatalf("output is not a result: %v\n%s", err, stdout.String())
	}
	if res.Fidelity != 4.0/6 || strings.Join(res.Failed, ",") != "TestParsePortEmpty,TestTimeoutDefault" || res.Model != "m" {
		t.Errorf("result = %+v", res)
	}
}

func TestRoundtripCommandUsage(t *testing.T) {
	repo := filepath.Join(roundtripData, "mod")
	for _, tc := range []struct {
		name string
		args []string
		env  map[string]string
		want string
	}{
		{"no model", []string{"--roundtrip", "cfg", "--repo", repo}, map[string]string{"OPENAI_API_KEY": "k"}, "--roundtrip needs a model: set --model or DOCREVIEW_MODEL"},
		{"no key", []string{"--roundtrip", "cfg", "--repo", repo, "--model", "m"}, nil, `model "m" is configured but OPENAI_API_KEY is not set`},
		{"no package", []string{"--roundtrip", "", "--model", "m"}, map[string]string{"OPENAI_API_KEY": "k"}, "--roundtrip needs a package"},
		{"unknown package", []string{"--roundtrip", "nope", "--repo", repo, "--model", "m"}, map[string]string{"OPENAI_API_KEY": "k"}, "neither a directory in"},
		{"extra argument", []string{"--roundtrip", "cfg", "other"}, nil, `unexpected argument "other"`},
		{"bad format", []string{"--roundtrip", "cfg", "--format", "xml"}, nil, `unknown format "xml"`},
		{"bad flag", []string{"--roundtrip", "cfg", "--bogus"}, nil, "flag provided but not defined: -bogus"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			err := runRoundtrip(t.Context(), tc.args, &stdout, &stderr, func(k string) string { return tc.env[k] })
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error = %v, want one containing %q", err, tc.want)
			}
			if code := exitCode(err, &stderr); code != exitError {
				t.Errorf("exit code %d, want %d", code, exitError)
			}
		})
	}
}

func TestWantsRoundtrip(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want bool
	}{
		{[]string{"--roundtrip", "p"}, true},
		{[]string{"-roundtrip=p"}, true},
		{[]string{"--format", "json", "./..."}, false},
		{[]string{"--", "--roundtrip"}, false},
		{[]string{"roundtrip"}, false},
	} {
		if got := wantsRoundtrip(tc.args); got != tc.want {
			t.Errorf("wantsRoundtrip(%q) = %v, want %v", tc.args, got, tc.want)
		}
	}
}
