package main

import (
	"bufio"
	"encoding/json"
	"strings"
	"testing"
)

func TestBenchQualityBadUsage(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"unknown module", []string{"bench", "quality", "--modules", "example.com/none"}, `"example.com/none" is not a module of the benchmark`},
		{"unknown set", []string{"bench", "quality", "--set", "typos"}, `--set: unknown value "typos" (want real, mutation, audit)`},
		{"unknown half", []string{"bench", "quality", "--half", "train"}, `--half: unknown value "train"`},
		{"bad format", []string{"bench", "quality", "--format", "xml"}, `unknown format "xml"`},
		{"extra argument", []string{"bench", "quality", "more"}, `unexpected argument "more"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := benchCLI(t, nil, tt.args...)
			if code != exitError {
				t.Errorf("exit %d, want %d", code, exitError)
			}
			if !strings.Contains(stderr, tt.want) {
				t.Errorf("stderr lacks %q:\n%s", tt.want, stderr)
			}
			if stdout != "" {
				t.Errorf("stdout not empty:\n%s", stdout)
			}
		})
	}
}

// TestBenchQualityList checks --list --format json: one object per case
// with the fields the listing promises, every set and both halves, one
// audit entry per module, and the selection flags narrowing it.
func TestBenchQualityList(t *testing.T) {
	type entry struct {
		Set, Half, Module, Version, Kind, Path string
		Line                                   int
	}
	parse := func(t *testing.T, out string) []entry {
		t.Helper()
		var es []entry
		sc := bufio.NewScanner(strings.NewReader(out))
		for sc.Scan() {
			var e entry
			if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
				t.Fatalf("line %q: %v", sc.Text(), err)
			}
			es = append(es, e)
		}
		return es
	}
	code, stdout, stderr := benchCLI(t, nil, "bench", "quality", "--list", "--format", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	all := parse(t, stdout)
	seen := map[string]bool{}
	audits := map[string]int{}
	for _, e := range all {
		seen[e.Set+"/"+e.Half] = true
		if e.Module == "" || e.Version == "" || e.Kind == "" {
			t.Errorf("entry lacks module, version or kind: %+v", e)
		}
		if e.Set == "audit" {
			audits[e.Module]++
			if e.Kind != "audit" {
				t.Errorf("audit entry of kind %q", e.Kind)
			}
		} else if e.Path == "" || e.Line < 1 {
			t.Errorf("case lacks path or line: %+v", e)
		}
	}
	for _, k := range []string{"real/dev", "real/test", "mutation/dev", "mutation/test", "audit/dev", "audit/test"} {
		if !seen[k] {
			t.Errorf("no %s entries", k)
		}
	}
	for m, n := range audits {
		if n != 1 {
			t.Errorf("%s: %d audit entries, want 1", m, n)
		}
	}
	code, stdout, stderr = benchCLI(t, nil, "bench", "quality", "--list", "--format", "json", "--set", "real", "--half", "test")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	narrow := parse(t, stdout)
	if len(narrow) == 0 || len(narrow) >= len(all) {
		t.Fatalf("--set real --half test listed %d of %d entries", len(narrow), len(all))
	}
	for _, e := range narrow {
		if e.Set != "real" || e.Half != "test" {
			t.Errorf("selection leaked %+v", e)
		}
	}
}
