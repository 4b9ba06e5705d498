package rules

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/docreview/docreview/retrieval"
	"github.com/docreview/docreview/review"
)

// TestDependencyNames: with the module's dependency loaded from a module
// cache, a name it declares is no wrong parameter name when shaped like
// an identifier (maxCellLevel), a plain word the diff writes for a parameter still is (dst for srcOut), and a doc
// that opens with the old name of its renamed func stays a finding beside
// the dependency's type of that name.
func TestDependencyNames(t *testing.T) {
	cache, err := filepath.Abs("testdata/depnames/modcache")
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("GOMODCACHE", cache)
	ws := loadWorkspaceWith(t, "depnames", &retrieval.TypeCache{})
	if _, ok := ws.Symbols.DepPackage("example.com/logutils"); !ok {
		t.Fatal("example.com/logutils was not loaded from the fixture's module cache")
	}
	tests := []struct {
		symbol string
		rule   review.Judge
		want   string // a part of the message, "" for no verdict
	}{
		{"LevelRun", &StaleReference{}, "LevelFilter was renamed to LevelRun in this diff"},
		{"newServer", &WrongParameter{}, "The doc names parameter dst"},
		{"calcScore", &WrongParameter{}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.symbol, func(t *testing.T) {
			c := goClaim(t, ws, "agent.go", tt.symbol)
			got, err := tt.rule.Judge(t.Context(), ws, c)
			if err != nil {
				t.Fatal(err)
			}
			checkContradicted(t, got, tt.want, strings.Contains)
		})
	}
}

// TestSnippetOtherDependencyVersion: a block whose names are missing from
// three packages of a dependency is written for another version of it
// (the SDK's first), while one misspelt name of one package is still a
// finding.
func TestSnippetOtherDependencyVersion(t *testing.T) {
	cache, err := filepath.Abs("testdata/depversion/modcache")
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("GOMODCACHE", cache)
	ws := loadWorkspaceWith(t, "depversion", &retrieval.TypeCache{})
	ws.Scope = review.ScopeAll
	if _, ok := ws.Symbols.DepPackage("example.com/sdk/v2/s3"); !ok {
		t.Fatal("example.com/sdk/v2/s3 was not loaded from the fixture's module cache")
	}
	tests := []struct{ block, want string }{
		{"cfg.Credentials = credentials", ""},
		{"conf := aws.Config", "aws.Strin"},
	}
	for _, tt := range tests {
		t.Run(tt.block, func(t *testing.T) {
			got, err := (&GoSnippet{}).Judge(t.Context(), ws, mdClaim(t, ws, "README.md", tt.block))
			if err != nil {
				t.Fatal(err)
			}
			checkContradicted(t, got, tt.want, strings.Contains)
		})
	}
}
