package github

import (
	"errors"
	"fmt"
	"strings"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/parser"

	"github.com/docreview/docreview/review"
)

// DismissedPath is the repository file of committed dismissals, read by
// the Action and the App at the pull request's base commit: a pull request
// never dismisses its own findings.
const DismissedPath = ".docreview/dismissed.yml"

// Dismissal suppresses one finding for good: it is not posted, not
// annotated and not counted against the check, and the summary lists it
// with its reason and who dismissed it.
type Dismissal struct {
	// Fingerprint is the finding's [Fingerprint].
	Fingerprint string
	// Reason says why the finding is wrong or accepted.
	Reason string
	// By names who dismissed it (a GitHub login for a reply); may be empty
	// in the file.
	By string
}

// dismissalEntry is one entry of .docreview/dismissed.yml.
type dismissalEntry struct {
	Fingerprint string `yaml:"fingerprint"`
	Reason      string `yaml:"reason"`
	By          string `yaml:"by"`
}

// LoadDismissed parses the contents of .docreview/dismissed.yml: a YAML
// list of entries with the keys fingerprint and reason (both required) and
// by (optional):
//
//   - fingerprint: 3f2a9c0d1e4b5a67.stale-reference
//     reason: the old name is kept as a deprecated alias
//     by: alice
//
// An empty document gives no dismissals. Decoding is strict: an unknown or
// duplicate key, a value of the wrong type, a missing required key, a
// malformed fingerprint or a fingerprint listed twice is an error naming
// the line and the key.
func LoadDismissed(data []byte) ([]Dismissal, error) {
	var entries []dismissalEntry
	if err := yaml.UnmarshalWithOptions(data, &entries, yaml.Strict()); err != nil {
		return nil, fmt.Errorf("dismissed.yml: %w", yamlErr(err))
	}
	lines := entryLines(data)
	lineOf := func(i int) string {
		if i < len(lines) && lines[i] > 0 {
			return fmt.Sprintf("line %d", lines[i])
		}
		return fmt.Sprintf("entry %d", i+1)
	}
	out := make([]Dismissal, 0, len(entries))
	seen := map[string]int{}
	for i, e := range entries {
		fp, reason := strings.TrimSpace(e.Fingerprint), strings.TrimSpace(e.Reason)
		switch {
		case fp == "":
			return nil, fmt.Errorf("dismissed.yml: %s: key fingerprint: required", lineOf(i))
		case !fpRE.MatchString(fp) || strings.Contains(fp, "--"):
			return nil, fmt.Errorf("dismissed.yml: %s: key fingerprint: %q is not a docreview fingerprint", lineOf(i), fp)
		case reason == "":
			return nil, fmt.Errorf("dismissed.yml: %s: key reason: required", lineOf(i))
		}
		if j, dup := seen[fp]; dup {
			return nil, fmt.Errorf("dismissed.yml: %s: key fingerprint: %s is already dismissed at %s", lineOf(i), fp, lineOf(j))
		}
		seen[fp] = i
		out = append(out, Dismissal{Fingerprint: fp, Reason: reason, By: strings.TrimSpace(e.By)})
	}
	return out, nil
}

// entryLines returns the line of each entry of the top-level list, or nil
// when the document is not one.
func entryLines(data []byte) []int {
	f, err := parser.ParseBytes(data, 0)
	if err != nil || len(f.Docs) == 0 {
		return nil
	}
	seq, ok := f.Docs[0].Body.(*ast.SequenceNode)
	if !ok {
		return nil
	}
	out := make([]int, len(seq.Values))
	for i, v := range seq.Values {
		if tk := v.GetToken(); tk != nil && tk.Position != nil {
			out[i] = tk.Position.Line
		}
	}
	return out
}

// yamlErr turns a go-yaml error into "line L, column C: message".
func yamlErr(err error) error {
	var ye yaml.Error
	if errors.As(err, &ye) {
		if tk := ye.GetToken(); tk != nil && tk.Position != nil {
			return fmt.Errorf("line %d, column %d: %s", tk.Position.Line, tk.Position.Column, ye.GetMessage())
		}
		return errors.New(ye.GetMessage())
	}
	return err
}

// MayDismiss reports whether the author of a comment, by GitHub's
// author_association, may dismiss a finding or ask for a re-run: the
// repository's owner, its organisation's members and its collaborators.
// Anyone can comment on a public repository, so nobody else can. The
// publisher (replies it reads) and the App's webhook (replies that queue a
// re-run) both decide with it.
func MayDismiss(association string) bool {
	switch association {
	case "OWNER", "MEMBER", "COLLABORATOR":
		return true
	}
	return false
}

// ParseDismiss reads a "/docreview dismiss <reason>" reply: the command's
// two words must open the reply's first non-blank line, separated by any
// blanks. The reason is the rest of the reply with its whitespace
// collapsed; it may be empty. The publisher and the App's webhook both read
// replies with it.
func ParseDismiss(body string) (reason string, ok bool) {
	fields := strings.Fields(body)
	if len(fields) < 2 || fields[0] != "/docreview" || fields[1] != "dismiss" {
		return "", false
	}
	first := strings.TrimSpace(body)
	if i := strings.IndexAny(first, "\r\n"); i >= 0 {
		first = first[:i]
	}
	if f := strings.Fields(first); len(f) < 2 {
		return "", false // "/docreview" alone on its line, "dismiss" below it
	}
	return strings.Join(fields[2:], " "), true
}

// IsDismissed reports, for [review.FailOn.Failed], whether a verdict's
// [Fingerprint] is one of ds.
func IsDismissed(ds []Dismissal) func(review.Verdict) bool {
	fps := make(map[string]bool, len(ds))
	for _, d := range ds {
		fps[d.Fingerprint] = true
	}
	return func(v review.Verdict) bool { return fps[Fingerprint(v)] }
}
