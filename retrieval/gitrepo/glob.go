package gitrepo

import (
	"fmt"
	"path"
	"strings"
)

// Match reports whether the slash-separated path name, relative to the
// repository root, matches the glob pattern.
//
// A pattern is a slash-separated list of segments matched against the
// segments of name from the root:
//
//   - "**" as a whole segment matches any number of segments, zero included;
//   - any other segment is a [path.Match] pattern for exactly one segment:
//     "*" matches any run of characters except "/", "?" one character,
//     "[a-z]" and "[^a-z]" a class, and "\" quotes the next character.
//
// A pattern that matches a directory also matches everything below it, so
// "vendor", "vendor/" and "vendor/**" all match "vendor/x/y.go". Patterns
// are anchored at the root: "*.md" matches "README.md" but not
// "docs/a.md"; write "**/*.md" for Markdown files at any depth. A leading
// "/" is ignored.
//
// The error wraps [path.ErrBadPattern] when pattern is empty or malformed;
// it does not depend on name.
func Match(pattern, name string) (bool, error) {
	segs, err := splitPattern(pattern)
	if err != nil {
		return false, err
	}
	return matchPath(segs, name), nil
}

// splitPattern validates a pattern and splits it into segments.
func splitPattern(pattern string) ([]string, error) {
	p := strings.TrimSuffix(strings.TrimPrefix(pattern, "/"), "/")
	if p == "" {
		return nil, fmt.Errorf("glob %q: %w", pattern, path.ErrBadPattern)
	}
	var segs []string
	for seg := range strings.SplitSeq(p, "/") {
		if seg == "**" && len(segs) > 0 && segs[len(segs)-1] == "**" {
			continue // "**/**" is "**"
		}
		if _, err := path.Match(seg, ""); err != nil {
			return nil, fmt.Errorf("glob %q: %w", pattern, err)
		}
		segs = append(segs, seg)
	}
	return segs, nil
}

// matchPath reports whether the pattern segments match name or one of its
// parent directories.
func matchPath(pat []string, name string) bool {
	segs := strings.Split(name, "/")
	for k := 1; k <= len(segs); k++ {
		if matchSegs(pat, segs[:k]) {
			return true
		}
	}
	return false
}

// matchSegs reports whether pat matches all of segs.
func matchSegs(pat, segs []string) bool {
	for len(pat) > 0 {
		if pat[0] == "**" {
			for i := 0; i <= len(segs); i++ {
				if matchSegs(pat[1:], segs[i:]) {
					return true
				}
			}
			return false
		}
		if len(segs) == 0 {
			return false
		}
		if ok, _ := path.Match(pat[0], segs[0]); !ok {
			return false
		}
		pat, segs = pat[1:], segs[1:]
	}
	return len(segs) == 0
}

// filter is a compiled pair of include and exclude pattern lists.
type filter struct {
	include, exclude [][]string
}

// newFilter validates and compiles the patterns of opt.
func newFilter(include, exclude []string) (*filter, error) {
	f := &filter{}
	for _, p := range include {
		segs, err := splitPattern(p)
		if err != nil {
			return nil, fmt.Errorf("include: %w", err)
		}
		f.include = append(f.include, segs)
	}
	for _, p := range exclude {
		segs, err := splitPattern(p)
		if err != nil {
			return nil, fmt.Errorf("exclude: %w", err)
		}
		f.exclude = append(f.exclude, segs)
	}
	return f, nil
}

// keep reports whether name is selected: no path segment is ".git", it
// matches an include pattern (or there are none), and no exclude pattern.
func (f *filter) keep(name string) bool {
	if name == ".git" || strings.HasPrefix(name, ".git/") || strings.Contains(name, "/.git/") || strings.HasSuffix(name, "/.git") {
		return false
	}
	for _, p := range f.exclude {
		if matchPath(p, name) {
			return false
		}
	}
	if len(f.include) == 0 {
		return true
	}
	for _, p := range f.include {
		if matchPath(p, name) {
			return true
		}
	}
	return false
}

// Selector tells which paths a pair of include and exclude pattern lists
// selects, by the rules of [SnapshotOptions]: a path is selected when no
// segment is ".git", it matches an include pattern (or there are none),
// and it matches no exclude pattern.
type Selector struct{ f *filter }

// NewSelector compiles include and exclude; the error wraps
// [path.ErrBadPattern] for a malformed pattern.
func NewSelector(include, exclude []string) (*Selector, error) {
	f, err := newFilter(include, exclude)
	if err != nil {
		return nil, err
	}
	return &Selector{f: f}, nil
}

// Selects reports whether the slash-separated path name is selected.
func (s *Selector) Selects(name string) bool { return s.f.keep(name) }
