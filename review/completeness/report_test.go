package completeness

import "testing"

func sym(name string, facts []Fact, stated ...bool) Symbol {
	return Symbol{Package: "example.com/m", Name: name, Kind: "func", Facts: facts, Stated: stated}
}

func TestCoverage(t *testing.T) {
	dep := Fact{Kind: KindDeprecated, Name: "F"}
	p := Fact{Kind: KindParam, Name: "n"}
	e := Fact{Kind: KindError, Name: "ErrX"}
	tests := []struct {
		name    string
		s       Symbol
		want    float64
		missing int
	}{
		{"no facts", sym("F", nil), 1, 0},
		{"deprecated only", sym("F", []Fact{dep}, true), 1, 0},
		{"half", sym("F", []Fact{p, e, dep}, true, false, true), 0.5, 1},
		{"none stated", sym("F", []Fact{p, e}, false, false), 0, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.s.Coverage(); got != tt.want {
				t.Errorf("Coverage() = %v, want %v", got, tt.want)
			}
			if got := len(tt.s.Missing()); got != tt.missing {
				t.Errorf("len(Missing()) = %d, want %d", got, tt.missing)
			}
		})
	}
}

func TestCompare(t *testing.T) {
	p := Fact{Kind: KindParam, Name: "n"}
	e := Fact{Kind: KindError, Name: "ErrX"}
	d := Fact{Kind: KindDefault, Name: "DefaultTTL", Value: "30s"}
	before := []Symbol{
		sym("F", []Fact{p, e}, true, false),
		sym("G", []Fact{p, d}, true, true),
		sym("H", []Fact{p}, false),
	}
	after := []Symbol{
		sym("F", []Fact{p, e}, true, true),
		sym("G", []Fact{p, d}, false, true),
		sym("H", []Fact{p}, false),
		sym("New", []Fact{p, e}, true, true),
	}
	tests := []struct {
		name    string
		touched []string
		want    string
	}{
		{"touched F and G", []string{"example.com/m.F", "example.com/m.G"}, "coverage of the symbols this PR touched: 75% → 75% (+1 fact stated, 1 lost)"},
		{"a new symbol", []string{"example.com/m.New"}, "coverage of the symbols this PR touched: none → 100% (+2 facts stated, 0 lost)"},
		{"unknown names are ignored", []string{"example.com/m.F", "example.com/m.gone"}, "coverage of the symbols this PR touched: 50% → 100% (+1 fact stated, 0 lost)"},
		{"nothing documented", []string{"example.com/m.gone"}, "no documented facts among the symbols this PR touched"},
		{"everything", nil, "coverage of the symbols this PR touched: 60% → 71% (+3 facts stated, 1 lost)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := Compare(before, after, tt.touched)
			if err != nil {
				t.Fatal(err)
			}
			if got := s.String(); got != tt.want {
				t.Errorf("got  %q\nwant %q", got, tt.want)
			}
		})
	}
	if _, err := Compare(append(before, before[0]), after, nil); err == nil {
		t.Error("Compare accepted a symbol listed twice")
	}
}
