package csvimport_test

import (
	"strings"
	"testing"

	"example.com/inventory"
	"example.com/inventory/csvimport"
)

func TestLoad(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		want    []inventory.Item
		wantErr string
	}{
		{
			name: "columns in order",
			in:   "sku,name,quantity\nTEA-100,Green tea,20\nMUG-200,Stoneware mug,6\n",
			want: []inventory.Item{
				{SKU: "TEA-100", Name: "Green tea", Quantity: 20},
				{SKU: "MUG-200", Name: "Stoneware mug", Quantity: 6},
			},
		},
		{
			name: "reordered and extra columns",
			in:   "Quantity,price,SKU,Name\n3,4.50,CUP-300,Espresso cup\n",
			want: []inventory.Item{{SKU: "CUP-300", Name: "Espresso cup", Quantity: 3}},
		},
		{name: "missing column", in: "sku,name\nTEA-100,Green tea\n", wantErr: `header has no "quantity" column`},
		{name: "empty input", in: "", wantErr: "missing header row"},
		{name: "bad quantity", in: "sku,name,quantity\nTEA-100,Green tea,20\nMUG-200,Mug,six\n", wantErr: "line 3: quantity"},
		{name: "empty sku", in: "sku,name,quantity\n,Green tea,20\n", wantErr: "line 2: empty sku"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := csvimport.Load(strings.NewReader(tt.in))
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("Load: got error %v, want one containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("Load: %v", err)
			}
			if len(got) != len(tt.want) {
				t.Fatalf("Load: got %d items, want %d", len(got), len(tt.want))
			}
			for i := range got {
				if got[i] != tt.want[i] {
					t.Errorf("item %d: got %+v, want %+v", i, got[i], tt.want[i])
				}
			}
		})
	}
}

func TestImport(t *testing.T) {
	s := inventory.New(inventory.Options{})
	n, err := csvimport.Import(s, strings.NewReader("sku,name,quantity\nTEA-100,Green tea,20\nTEA-100,Green tea,5\n"))
	if err != nil {
		t.Fatal(err)
	}
	if n != 2 {
		t.Errorf("Import: got %d, want 2", n)
	}
	if got := s.Available("TEA-100"); got != 25 {
		t.Errorf("Available: got %d, want 25", got)
	}
	if _, err := csvimport.Import(s, strings.NewReader("sku,name,quantity\nMUG-200,Mug,0\n")); err == nil {
		t.Error("Import with a zero quantity: got nil error")
	}
	if _, ok := s.Get("MUG-200"); ok {
		t.Error("failed Import added MUG-200")
	}
}
