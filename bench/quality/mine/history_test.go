package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

func TestDocsOnly(t *testing.T) {
	tests := []struct {
		name, diff string
		want       bool
	}{
		{"doc comment", "diff --git a/a.go b/a.go\n--- a/a.go\n+++ b/a.go\n@@ -1 +1 @@\n-// Get returns x.\n+// Get returns y.\n", true},
		{"markdown", "diff --git a/README.md b/README.md\n--- a/README.md\n+++ b/README.md\n@@ -3 +3 @@\n-x := New(1)\n+x := New()\n", true},
		{"code line", "diff --git a/a.go b/a.go\n--- a/a.go\n+++ b/a.go\n@@ -1 +1 @@\n-const N = 1\n+const N = 2\n", false},
		{"test code", "diff --git a/a_test.go b/a_test.go\n--- a/a_test.go\n+++ b/a_test.go\n@@ -1 +1 @@\n-x := 1\n+x := 2\n", true},
		{"other file", "diff --git a/go.mod b/go.mod\n--- a/go.mod\n+++ b/go.mod\n@@ -1 +1 @@\n-go 1.21\n+go 1.22\n", false},
		{"empty", "", false},
	}
	for _, tt := range tests {
		if got := docsOnly(tt.diff); got != tt.want {
			t.Errorf("%s: docsOnly = %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestNumberEdit(t *testing.T) {
	hunk := func(old, new string) string {
		return "diff --git a/a.go b/a.go\n--- a/a.go\n+++ b/a.go\n@@ -1 +1 @@\n-" + old + "\n+" + new + "\n"
	}
	tests := []struct {
		name, diff string
		want       bool
	}{
		{"default changed", hunk("// Timeout defaults to 30 seconds.", "// Timeout defaults to 10 seconds."), true},
		{"size changed", hunk("The limit is 1.5 MB.", "The limit is 2 MB."), true},
		{"words changed too", hunk("// Timeout defaults to 30 seconds.", "// Timeout is 10 seconds by default."), false},
		{"version", hunk("Requires v1.2.0 or later, 3 times.", "Requires v1.3.0 or later, 3 times."), false},
		{"year", hunk("// Copyright 2019 the authors.", "// Copyright 2020 the authors."), false},
		{"no numbers", hunk("// Get returns x.", "// Get returns y."), false},
		{"unequal hunk", "diff --git a/a.go b/a.go\n--- a/a.go\n+++ b/a.go\n@@ -1 +1,2 @@\n-// 3 retries.\n+// 4 retries.\n+// More.\n", false},
	}
	for _, tt := range tests {
		if got := numberEdit(tt.diff); got != tt.want {
			t.Errorf("%s: numberEdit = %v, want %v", tt.name, got, tt.want)
		}
	}
}

// TestHistoryCommits builds a repository whose history has a release, a
// code change, a documentation fix and a documentation change that fixes
// nothing, and checks which commits are fixes and which release each
// follows.
func TestHistoryCommits(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	ctx := context.Background()
	dir := t.TempDir()
	run := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com",
			"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com", "GIT_CONFIG_NOSYSTEM=1")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v: %s", args, err, out)
		}
	}
	write := func(name, text string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	run("init", "-q", "-b", "main")
	write("go.mod", "module example.com/m\n")
	write("a.go", "package m\n\n// N is 3.\nconst N = 3\n")
	run("add", "-A")
	run("commit", "-qm", "first")
	run("tag", "v1.2.0")
	run("tag", "v1.10.0-rc.1")
	write("a.go", "package m\n\n// N is 3.\nconst N = 4\n")
	run("commit", "-qam", "fix: N is 4")
	run("tag", "v1.9.0")
	write("a.go", "package m\n\n// N is 4.\nconst N = 4\n")
	run("commit", "-qam", "docs: fix the value of N")
	write("README.md", "# m\n")
	run("add", "-A")
	run("commit", "-qm", "docs: add a README")
	gitDir := filepath.Join(dir, ".git")
	commits, err := docFixes(ctx, gitDir, "2000-01-01", false)
	if err != nil {
		t.Fatal(err)
	}
	if len(commits) != 1 || commits[0].subject != "docs: fix the value of N" {
		t.Fatalf("docFixes = %+v, want only the documentation fix", commits)
	}
	tag, err := releaseBefore(ctx, gitDir, commits[0].hash)
	if err != nil {
		t.Fatal(err)
	}
	if tag != "v1.9.0" {
		t.Errorf("releaseBefore = %s, want v1.9.0 (the newest release, not the pre-release)", tag)
	}
}
