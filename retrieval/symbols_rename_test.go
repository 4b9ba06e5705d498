package retrieval

import (
	"testing"
	"testing/fstest"
)

func TestRenamedFrom(t *testing.T) {
	t.Parallel()
	const gomod = "module example.com/inventory\n\ngo 1.22\n"
	const common = `package inventory

// Reservation holds stock.
type Reservation struct{ ID int64 }

// Store keeps stock.
type Store struct{ n int }

// New returns a store.
func New() *Store { return &Store{} }

// Count returns the number of items.
func (s *Store) Count() int { return s.n }
`
	base := fstest.MapFS{
		"go.mod":    {Data: []byte(gomod)},
		"common.go": {Data: []byte(common)},
		"store.go": {Data: []byte(`package inventory

// Reserve holds qty units of sku.
func (s *Store) Reserve(sku string, qty int) (Reservation, error) { return Reservation{}, nil }

// Total returns a total.
func (s *Store) Total() int { return 0 }

// Limit is a limit.
const Limit = 10
`)},
	}
	head := fstest.MapFS{
		"go.mod":    {Data: []byte(gomod)},
		"common.go": {Data: []byte(common)},
		"store.go": {Data: []byte(`package inventory

// Hold holds qty units of sku.
func (s *Store) Hold(item string, n int) (Reservation, error) { return Reservation{}, nil }

// Sweep drops expired holds.
func (s *Store) Sweep() int { return 0 }

// Size returns a size.
func (s *Store) Size() int { return 0 }

// MaxUnits is a limit.
const MaxUnits = 10
`)},
	}
	files := []string{"common.go", "go.mod", "store.go"}
	bs, err := LoadSymbols(t.Context(), base, files, nil)
	if err != nil {
		t.Fatal(err)
	}
	hs, err := LoadSymbols(t.Context(), head, files, nil)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, want string
	}{
		{"Store.Reserve", "Store.Hold"},
		{"(*Store).Reserve", "Store.Hold"},
		{"inventory.Store.Reserve", "inventory.Store.Hold"},
		{"Limit", "MaxUnits"},
		// Two new methods share Total's signature; Count still exists;
		// Missing never existed.
		{"Store.Total", ""},
		{"Store.Count", ""},
		{"Store.Missing", ""},
	}
	for _, tt := range tests {
		got, ok := hs.RenamedFrom(bs, ".", tt.name)
		if got != tt.want || ok != (tt.want != "") {
			t.Errorf("RenamedFrom(%q) = %q, %v, want %q", tt.name, got, ok, tt.want)
		}
	}
	if got, ok := hs.RenamedFrom(nil, ".", "Store.Reserve"); ok {
		t.Errorf("RenamedFrom without a base = %q, want nothing", got)
	}
	// A constructor that lost the type's name is a suffix rename.
	if got, ok := hs.Suggest(".", "inventory.NewStore"); got != "inventory.New" || !ok {
		t.Errorf(`Suggest("inventory.NewStore") = %q, %v, want "inventory.New"`, got, ok)
	}
}
