package quality

import (
	"slices"
	"testing"
)

// TestRequirementArgs: the direct requirements of a go.mod, with their
// replacements, are what the benchmark downloads; indirect ones and local
// replacements are not.
func TestRequirementArgs(t *testing.T) {
	gomod := `module example.com/app

go 1.22

require (
	example.com/dep v1.2.0
	example.com/orig v0.1.0
	example.com/local v1.0.0
	example.com/pinned v1.1.0
	example.com/deep v0.9.0 // indirect
)

replace example.com/orig => example.com/fork v0.3.0

replace example.com/local => ../local

replace example.com/pinned v1.1.0 => example.com/pinned v1.1.1
`
	got, err := requirementArgs(gomod)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"example.com/dep@v1.2.0", "example.com/fork@v0.3.0", "example.com/pinned@v1.1.1"}
	if !slices.Equal(got, want) {
		t.Errorf("requirementArgs = %v, want %v", got, want)
	}
	if _, err := requirementArgs("module\n"); err == nil {
		t.Error("a go.mod that does not parse gave no error")
	}
	if got, err := requirementArgs(""); err != nil || got != nil {
		t.Errorf("no go.mod: %v, %v; want nothing", got, err)
	}
}
