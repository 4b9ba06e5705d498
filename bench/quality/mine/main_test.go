package main

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

func TestWordDiff(t *testing.T) {
	gone, came := wordDiff("Decode reads from p into v, see https://x.io/a.b", "Decode reads from data into v")
	if !reflect.DeepEqual(gone, []string{"p", "see"}) || !reflect.DeepEqual(came, []string{"data"}) {
		t.Errorf("gone %q came %q", gone, came)
	}
}

func TestNear(t *testing.T) {
	tests := []struct {
		a, b string
		want bool
	}{
		{"ErrorWithLocation", "ErrorWithPosition", true},
		{"paresdJWTKey", "parsedJWTKey", true},
		{"Foo", "Bar", false},
		{"Same", "Same", false},
	}
	for _, tt := range tests {
		if got := near(tt.a, tt.b); got != tt.want {
			t.Errorf("near(%q, %q) = %v", tt.a, tt.b, got)
		}
	}
}

func TestLocalLinks(t *testing.T) {
	got := localLinks("See [the docs](docs/a.md#x), [web](https://e.com), [Client.Do] and [mail](mailto:a@b).")
	if want := []string{"docs/a.md#x", "Client.Do"}; !reflect.DeepEqual(got, want) {
		t.Errorf("localLinks = %q, want %q", got, want)
	}
}

// TestSignals mines one fixture pair: a doc comment that names a removed
// function, fixed with the declared one, and a README link to a file the
// older tree lacks.
func TestSignals(t *testing.T) {
	dir := t.TempDir()
	older, newer := filepath.Join(dir, "old"), filepath.Join(dir, "new")
	write := func(root, name, src string) {
		t.Helper()
		if err := os.MkdirAll(root, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	code := "package p\n\n// %s returns the value of key.\nfunc Lookup(key string) string { return key }\n"
	write(older, "p.go", fmt.Sprintf(code, "LookupValue"))
	write(newer, "p.go", fmt.Sprintf(code, "Lookup"))
	write(older, "README.md", "# p\n\nSee [usage](docs/usage.md).\n")
	write(newer, "README.md", "# p\n\nSee [usage](USAGE.md).\n")
	write(older, "USAGE.md", "usage\n")
	write(newer, "USAGE.md", "usage\n")
	cs, err := minePair(t.Context(), "example.com/p", "v1.0.0", "v1.0.1", older, newer)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string][]string{}
	for _, c := range cs {
		got[c.Path] = c.Strong
		if c.Line != 3 && c.Path == "p.go" || c.Line != 3 && c.Path == "README.md" {
			t.Errorf("%s: line %d, want 3", c.Path, c.Line)
		}
	}
	if !reflect.DeepEqual(got["p.go"], []string{"name"}) {
		t.Errorf("p.go strong signals %v, want [name]", got["p.go"])
	}
	if !reflect.DeepEqual(got["README.md"], []string{"link"}) {
		t.Errorf("README.md strong signals %v, want [link]", got["README.md"])
	}
}
