package config

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var known = []string{"restates-name", "snippet", "stale-reference"}

func TestParse(t *testing.T) {
	tests := []struct {
		name    string
		yaml    string
		want    Config
		wantErr string
	}{
		{
			name: "every key",
			yaml: "scope: all\nfail-on: incomplete\ninclude: [\"**/*.md\"]\nexclude:\n  - vendor/**\nrules:\n  restates-name: false\n  snippet: true\nmax-file-size: 2MiB\nmax-markdown-lines: 5000\n" +
				"include-vendor: true\nupstream: true\nembeddings-model: text-embedding-3-large\nmodel: gpt-4.1-mini\n" +
				"judge:\n  confirm: true\n  mode: json-object\n  concurrency: 2\n  max-tool-calls: 4\n  claim-tokens: 8000\n" +
				"  review-tokens: 100000\n  timeout-seconds: 30\n  cache: false\n",
			want: Config{Scope: "all", FailOn: "incomplete", Include: []string{"**/*.md"}, Exclude: []string{"vendor/**"},
				Disabled: []string{"restates-name"}, MaxFileSize: 2 << 20, MaxMarkdownLines: 5000,
				IncludeVendor: true, Upstream: true, EmbeddingsModel: "text-embedding-3-large", Model: "gpt-4.1-mini",
				Judge: Judge{Confirm: true, Mode: "json-object", Concurrency: 2, MaxToolCalls: 4, ClaimTokens: 8000,
					ReviewTokens: 100000, TimeoutSeconds: 30, NoCache: true}},
		},
		{name: "bad judge mode", yaml: "judge:\n  mode: telepathy\n", wantErr: `key judge.mode: unknown judge mode "telepathy"`},
		{name: "zero budget", yaml: "judge:\n  max-tool-calls: 0\n", wantErr: "key judge.max-tool-calls: must be at least 1"},
		{name: "unknown judge key", yaml: "judge:\n  temperature: 1\n", wantErr: `.docreview.yml:2:3: unknown field "temperature"`},
		{name: "empty file keeps defaults", yaml: "", want: Default()},
		{name: "size as integer", yaml: "max-file-size: 1000\n", want: func() Config { c := Default(); c.MaxFileSize = 1000; return c }()},
		{name: "unknown key names key and line", yaml: "scope: all\nfial-on: never\n", wantErr: `.docreview.yml:2:1: unknown field "fial-on"`},
		{name: "wrong type names line", yaml: "scope: all\ninclude: 3\n", wantErr: ".docreview.yml:2:"},
		{name: "bad scope", yaml: "scope: some\n", wantErr: `.docreview.yml: key scope: unknown scope "some"`},
		{name: "bad fail-on", yaml: "fail-on: always\n", wantErr: `key fail-on: unknown fail-on level "always"`},
		{name: "unknown rule", yaml: "rules:\n  spelling: false\n", wantErr: "key rules.spelling: unknown rule"},
		{name: "bad size", yaml: "max-file-size: lots\n", wantErr: `invalid size "lots"`},
		{name: "negative lines", yaml: "max-markdown-lines: -1\n", wantErr: "max-markdown-lines: must not be negative"},
		{name: "syntax error", yaml: "scope: [all\n", wantErr: ".docreview.yml:"},
		{name: "include-vendor not a bool", yaml: "include-vendor: [x]\n", wantErr: ".docreview.yml:1:"},
		{name: "upstream off", yaml: "upstream: false\n", want: Default()},
		{name: "upstream not a bool", yaml: "scope: all\nupstream: sometimes\n", wantErr: ".docreview.yml:2:"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Parse(Default(), FileName, []byte(tt.yaml), known)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("Parse error = %v, want it to contain %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("Parse mismatch (-want +got):\n%s", d)
			}
		})
	}
}

func TestApplyEnv(t *testing.T) {
	env := map[string]string{
		"DOCREVIEW_SCOPE":              "changed",
		"DOCREVIEW_FAIL_ON":            "never",
		"DOCREVIEW_INCLUDE":            "docs/**, *.go",
		"DOCREVIEW_DISABLE":            "snippet",
		"DOCREVIEW_MAX_FILE_SIZE":      "10KiB",
		"DOCREVIEW_MAX_MARKDOWN_LINES": "7",
		"DOCREVIEW_EMBEDDINGS_MODEL":   " nomic-embed-text ",
		"DOCREVIEW_UPSTREAM":           "1",
		"DOCREVIEW_MODEL":              "llama3.1",
		"DOCREVIEW_JUDGE_MODE":         "oneshot",
		"DOCREVIEW_CONFIRM":            "true",
		"DOCREVIEW_REVIEW_TOKENS":      "5000",
	}
	base := Default()
	base.Disabled = []string{"restates-name"}
	got, err := ApplyEnv(base, func(k string) string { return env[k] }, known)
	if err != nil {
		t.Fatal(err)
	}
	want := Config{Scope: "changed", FailOn: "never", Include: []string{"docs/**", "*.go"},
		Disabled: []string{"restates-name", "snippet"}, MaxFileSize: 10 << 10, MaxMarkdownLines: 7,
		Upstream: true, EmbeddingsModel: "nomic-embed-text", Model: "llama3.1",
		Judge: Judge{Mode: "oneshot", Confirm: true, ReviewTokens: 5000}}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("ApplyEnv mismatch (-want +got):\n%s", d)
	}
	for k, v := range map[string]string{"DOCREVIEW_SCOPE": "x", "DOCREVIEW_DISABLE": "nope", "DOCREVIEW_MAX_FILE_SIZE": "-1", "DOCREVIEW_UPSTREAM": "yes",
		"DOCREVIEW_JUDGE_MODE": "psychic", "DOCREVIEW_CONFIRM": "maybe", "DOCREVIEW_REVIEW_TOKENS": "0"} {
		if _, err := ApplyEnv(Default(), func(key string) string {
			if key == k {
				return v
			}
			return ""
		}, known); err == nil || !strings.Contains(err.Error(), k) {
			t.Errorf("ApplyEnv with %s=%s: error %v, want one naming %s", k, v, err, k)
		}
	}
}

// TestApplyEnvUpstream checks that DOCREVIEW_UPSTREAM switches the
// upstream corpus on and off over the file's setting, and that an empty
// value keeps it.
func TestApplyEnvUpstream(t *testing.T) {
	tests := []struct {
		value      string
		file, want bool
	}{
		{"1", false, true},
		{"true", false, true},
		{"0", true, false},
		{"false", true, false},
		{"", true, true},
		{"", false, false},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%q over %v", tt.value, tt.file), func(t *testing.T) {
			base := Default()
			base.Upstream = tt.file
			got, err := ApplyEnv(base, func(k string) string {
				if k == "DOCREVIEW_UPSTREAM" {
					return tt.value
				}
				return ""
			}, known)
			if err != nil {
				t.Fatal(err)
			}
			if got.Upstream != tt.want {
				t.Errorf("Upstream = %v, want %v", got.Upstream, tt.want)
			}
		})
	}
}

func TestSplitRuleNamed(t *testing.T) {
	known := []string{"go-snippet", "cli-flag", "link", "example-output"}
	_, err := ApplyEnv(Default(), func(k string) string {
		if k == "DOCREVIEW_DISABLE" {
			return "snippet"
		}
		return ""
	}, known)
	if err == nil || !strings.Contains(err.Error(), "snippet was split into go-snippet, cli-flag, link and example-output") {
		t.Errorf("DOCREVIEW_DISABLE=snippet: err = %v, want the rules it was split into", err)
	}
	_, err = Parse(Default(), "x.yml", []byte("rules:\n  snippet: false\n"), known)
	if err == nil || !strings.Contains(err.Error(), "x.yml: key rules.snippet: unknown rule: snippet was split into") {
		t.Errorf("rules.snippet in a file: err = %v", err)
	}
}

// TestParseErrorsSayKeyAndKind: a value of the wrong kind names the key as
// written and what it wants, not the decoder's Go types; a tab in the
// indentation is named.
func TestParseErrorsSayKeyAndKind(t *testing.T) {
	tests := []struct{ in, want string }{
		{"rules:\n  stale-reference: yes-please\n", ".docreview.yml:2:20: rules.stale-reference: want true or false, got a string (yes-please)"},
		{"max-markdown-lines: lots\n", ".docreview.yml:1:21: max-markdown-lines: want a whole number, got a string (lots)"},
		{"judge:\n  confirm: 3\n", ".docreview.yml:2:12: judge.confirm: want true or false, got a number (3)"},
		{"include: docs\n", ".docreview.yml:1:10: include: want a list, got a string (docs)"},
		{"rules: [a]\n", ".docreview.yml:1:8: rules: want a mapping of key: value lines, got a list ([a])"},
		{"scope: all\nrules:\n\tlink: true\n", ".docreview.yml:3: the indentation has a tab; YAML indents with spaces only"},
	}
	for _, tt := range tests {
		_, err := Parse(Default(), ".docreview.yml", []byte(tt.in), []string{"stale-reference", "link"})
		if err == nil || err.Error() != tt.want {
			t.Errorf("Parse(%q):\n got %v\nwant %s", tt.in, err, tt.want)
		}
	}
}
