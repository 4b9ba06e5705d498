package main

import (
	"strings"
	"testing"
)

func TestBenchQualityBadUsage(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"unknown module", []string{"bench", "quality", "--modules", "example.com/none"}, `"example.com/none" is not a pinned module`},
		{"unknown category", []string{"bench", "quality", "--categories", "typos"}, `unknown category "typos"`},
		{"bad format", []string{"bench", "quality", "--format", "xml"}, `unknown format "xml"`},
		{"no cases", []string{"bench", "quality", "--per-category", "0"}, "want at least 1"},
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
