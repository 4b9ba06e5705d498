package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
)

// This file mines a repository's commit history rather than its releases:
// a commit whose message says it fixes something ("docs: fix route group
// example code") and that changes documentation only is applied to the
// release before it. The release and the release with the fix applied are
// then mined as a version pair (minePair), so each hunk is the fix alone,
// positioned in the release a user would have read.

// fixSubject is a commit subject that says it corrects something.
var fixSubject = regexp.MustCompile(`(?i)\b(?:fix|fixes|fixed|correct|corrects|corrected|wrong|typo|mistake|incorrect|outdated|broken|invalid|mismatch|stale)\b`)

// moduleLine is go.mod's module directive.
var moduleLine = regexp.MustCompile(`(?m)^module\s+(\S+)`)

// historyCommit is a documentation fix of a repository's history.
type historyCommit struct {
	hash, subject string
}

// gitOut runs git on the bare or work repository gitDir.
func gitOut(ctx context.Context, gitDir string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "git", append([]string{"--git-dir", gitDir}, args...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	b, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("git %s: %w: %s", strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return string(b), nil
}

// docFixes lists the commits since the date whose subject says they fix
// something and that change only Markdown and Go files, with no Go line
// outside comments and test files. With numbers, a documentation commit
// whatever its subject ("docs: update the default timeout") is listed too
// when it rewrites a line's numbers and nothing else (numberEdit).
func docFixes(ctx context.Context, gitDir, since string, numbers bool) ([]historyCommit, error) {
	log, err := gitOut(ctx, gitDir, "log", "--no-merges", "--since="+since, "--format=%H%x1f%s")
	if err != nil {
		return nil, err
	}
	var out []historyCommit
	for _, line := range strings.Split(strings.TrimSpace(log), "\n") {
		hash, subject, ok := strings.Cut(line, "\x1f")
		fix := ok && fixSubject.MatchString(subject)
		if !ok || !fix && !numbers {
			continue
		}
		diff, err := gitOut(ctx, gitDir, "show", "--format=", "--no-color", "-U0", "--no-renames", hash)
		if err != nil {
			return nil, err
		}
		if docsOnly(diff) && (fix || numberEdit(diff)) {
			out = append(out, historyCommit{hash: hash, subject: subject})
		}
	}
	return out, nil
}

// docsOnly reports whether a commit's diff changes Markdown and Go files
// only, and in Go files other than tests only comments and blank lines.
func docsOnly(diff string) bool {
	path := ""
	seen := false
	for _, l := range strings.Split(diff, "\n") {
		switch {
		case strings.HasPrefix(l, "diff --git "):
			f := strings.Fields(l)
			path = strings.TrimPrefix(f[len(f)-1], "b/")
			if !isMarkdown(path) && !strings.HasSuffix(path, ".go") {
				return false
			}
			seen = true
		case strings.HasPrefix(l, "+++ ") || strings.HasPrefix(l, "--- "):
		case strings.HasPrefix(l, "+") || strings.HasPrefix(l, "-"):
			if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
				continue
			}
			s := strings.TrimSpace(l[1:])
			if s != "" && !strings.HasPrefix(s, "//") && !strings.HasPrefix(s, "/*") && !strings.HasPrefix(s, "*") {
				return false
			}
		}
	}
	return seen
}

// numberRun is a number as docs write it: digits, maybe with a fraction.
var numberRun = regexp.MustCompile(`\d+(?:[.,]\d+)*`)

// notAValue marks lines whose numbers are versions, dates, addresses or
// years rather than values of the code.
var notAValue = regexp.MustCompile(`(?i)v\d+\.\d|\d+\.\d+\.\d+|\b(?:19|20)\d\d\b|https?://|copyright|\bgo ?1\.\d|@v\d`)

// numberEdit reports whether a -U0 diff replaces a line by one that
// differs from it only in its numbers (the n-th removed line of a hunk
// against its n-th added line), on a line whose numbers are values.
func numberEdit(diff string) bool {
	var minus, plus []string
	edited := func() bool {
		if len(minus) != len(plus) {
			return false
		}
		for i, a := range minus {
			b := plus[i]
			if a == b || notAValue.MatchString(a) || notAValue.MatchString(b) {
				continue
			}
			if numberRun.ReplaceAllString(a, "#") == numberRun.ReplaceAllString(b, "#") &&
				strings.Join(numberRun.FindAllString(a, -1), " ") != strings.Join(numberRun.FindAllString(b, -1), " ") {
				return true
			}
		}
		return false
	}
	for _, l := range strings.Split(diff, "\n") {
		switch {
		case strings.HasPrefix(l, "@@"), strings.HasPrefix(l, "diff --git "):
			if edited() {
				return true
			}
			minus, plus = nil, nil
		case strings.HasPrefix(l, "+++ ") || strings.HasPrefix(l, "--- "):
		case strings.HasPrefix(l, "-"):
			minus = append(minus, l[1:])
		case strings.HasPrefix(l, "+"):
			plus = append(plus, l[1:])
		}
	}
	return edited()
}

// releaseBefore returns the newest release tag (vX.Y.Z at the repository
// root) reachable from the commit's parent.
func releaseBefore(ctx context.Context, gitDir, hash string) (string, error) {
	tags, err := gitOut(ctx, gitDir, "tag", "--merged", hash+"^")
	if err != nil {
		return "", err
	}
	best := ""
	for _, t := range strings.Fields(tags) {
		if semverRelease.MatchString(t) && !strings.HasSuffix(t, "+incompatible") && (best == "" || semverLess(best, t)) {
			best = t
		}
	}
	if best == "" {
		return "", fmt.Errorf("no release before %s", hash[:12])
	}
	return best, nil
}

// semverLess orders release tags vX.Y.Z numerically.
func semverLess(a, b string) bool {
	pa, pb := strings.Split(a[1:], "."), strings.Split(b[1:], ".")
	for i := range 3 {
		if x, y := atoi(pa[i]), atoi(pb[i]); x != y {
			return x < y
		}
	}
	return false
}

// mineHistory mines the documentation fixes of a repository's history
// since a date, each against the release before it.
func mineHistory(ctx context.Context, gitDir, since string, numbers bool) ([]Candidate, error) {
	commits, err := docFixes(ctx, gitDir, since, numbers)
	if err != nil {
		return nil, err
	}
	var out []Candidate
	for _, c := range commits {
		cs, err := mineCommit(ctx, gitDir, c)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", c.hash[:12], err)
		}
		out = append(out, cs...)
	}
	return out, nil
}

// mineCommit applies one fix to the release before it and mines the pair;
// nil when there is no release, the module's version is not served, or
// the fix does not apply to the release.
func mineCommit(ctx context.Context, gitDir string, c historyCommit) ([]Candidate, error) {
	tag, err := releaseBefore(ctx, gitDir, c.hash)
	if err != nil {
		return nil, nil
	}
	gomod, err := gitOut(ctx, gitDir, "show", tag+":go.mod")
	if err != nil {
		return nil, nil
	}
	m := moduleLine.FindStringSubmatch(gomod)
	if m == nil {
		return nil, nil
	}
	mod := strings.Trim(m[1], `"`)
	dirs, err := download(ctx, mod, []string{tag})
	if err != nil || dirs[tag] == "" {
		return nil, nil
	}
	older := dirs[tag]
	tmp, err := os.MkdirTemp("", "mine-history-")
	if err != nil {
		return nil, fmt.Errorf("temp dir: %w", err)
	}
	defer func() { _ = os.RemoveAll(tmp) }()
	// A writable copy of the read-only module cache directory.
	newer := filepath.Join(tmp, "fixed")
	if err := os.CopyFS(newer, os.DirFS(older)); err != nil {
		return nil, fmt.Errorf("copy %s: %w", older, err)
	}
	patch, err := gitOut(ctx, gitDir, "show", "--format=", "--no-color", "--no-renames", c.hash)
	if err != nil {
		return nil, err
	}
	apply := exec.CommandContext(ctx, "git", "apply", "--unidiff-zero", "-")
	apply.Dir = newer
	apply.Stdin = strings.NewReader(patch)
	if err := apply.Run(); err != nil {
		return nil, nil // the fix does not apply to the release: the text moved
	}
	fixed := c.hash[:12]
	if s, err := gitOut(ctx, gitDir, "describe", "--tags", "--contains", c.hash); err == nil {
		if t, _, _ := strings.Cut(strings.TrimSpace(s), "~"); semverRelease.MatchString(t) {
			fixed = t
		}
	}
	cs, err := minePair(ctx, mod, tag, fixed, older, newer)
	if err != nil {
		return nil, err
	}
	for i := range cs {
		cs[i].Commit, cs[i].Subject = c.hash, c.subject
	}
	return cs, nil
}

// encodeAll writes candidates as JSON lines.
func encodeAll(enc *json.Encoder, cs []Candidate) error {
	for _, c := range cs {
		if err := enc.Encode(c); err != nil {
			return fmt.Errorf("write: %w", err)
		}
	}
	return nil
}
