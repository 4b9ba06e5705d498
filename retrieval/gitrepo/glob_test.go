package gitrepo

import (
	"errors"
	"path"
	"testing"
)

func TestMatch(t *testing.T) {
	t.Parallel()
	tests := []struct {
		pattern, name string
		want          bool
	}{
		{"README.md", "README.md", true},
		{"README.md", "docs/README.md", false},
		{"*.md", "README.md", true},
		{"*.md", "docs/a.md", false}, // anchored at the root
		{"**/*.md", "README.md", true},
		{"**/*.md", "docs/a.md", true},
		{"**/*.md", "docs/deep/a.md", true},
		{"**/*.md", "docs/a.go", false},
		{"docs/**/*.md", "docs/a.md", true},
		{"docs/**/*.md", "docs/x/y/a.md", true},
		{"docs/**/*.md", "src/docs/a.md", false},
		{"docs/**", "docs/x/y/a.go", true},
		{"**", "anything/at/all", true},
		{"**/**/a", "a", true},
		{"docs", "docs/a.md", true},  // a directory matches what is below it
		{"docs/", "docs/a.md", true}, // trailing slash
		{"/docs", "docs/a.md", true}, // leading slash
		{"docs", "docsite/a.md", false},
		{"vendor", "src/vendor/a.go", false},
		{"**/vendor", "src/vendor/a.go", true},
		{"**/testdata/**", "a/testdata/b/c.txt", true},
		{"a?c.md", "abc.md", true},
		{"a?c.md", "a/c.md", false}, // ? never matches a slash
		{"[a-c]*.go", "b.go", true},
		{"[^a-c]*.go", "b.go", false},
		{"*", "a/b", true}, // matches the directory "a"
		{"a/*/c", "a/b/c", true},
		{"a/*/c", "a/b/x/c", false},
		{"a\\*b", "a*b", true},
		{"a\\*b", "axb", false},
		{".github/**", ".github/workflows/ci.yml", true},
	}
	for _, tt := range tests {
		t.Run(tt.pattern+" "+tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := Match(tt.pattern, tt.name)
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("Match(%q, %q) = %v, want %v", tt.pattern, tt.name, got, tt.want)
			}
		})
	}
}

func TestMatchBadPattern(t *testing.T) {
	t.Parallel()
	for _, pattern := range []string{"", "/", "docs/[a", "a/\\", "[]"} {
		t.Run(pattern, func(t *testing.T) {
			t.Parallel()
			if _, err := Match(pattern, "docs/a.md"); !errors.Is(err, path.ErrBadPattern) {
				t.Errorf("Match(%q) error = %v, want ErrBadPattern", pattern, err)
			}
		})
	}
}

func TestFilterKeep(t *testing.T) {
	t.Parallel()
	f, err := newFilter([]string{"**/*.md", "cmd"}, []string{"**/internal/**", "cmd/gen"})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		want bool
	}{
		{"README.md", true},
		{"docs/a.md", true},
		{"docs/a.go", false},
		{"cmd/tool/main.go", true},
		{"cmd/gen/main.go", false}, // exclude wins
		{"pkg/internal/a.md", false},
		{".git/config", false},
		{"sub/.git/HEAD", false},
		{"x/.git", false},
		{".github/a.md", true},
	}
	for _, tt := range tests {
		if got := f.keep(tt.name); got != tt.want {
			t.Errorf("keep(%q) = %v, want %v", tt.name, got, tt.want)
		}
	}
}
