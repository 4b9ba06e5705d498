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
