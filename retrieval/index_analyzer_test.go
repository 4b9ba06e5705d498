package retrieval

import (
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

func TestIndexParts(t *testing.T) {
	tests := []struct {
		id   string
		want []string
	}{
		{"Purge", []string{"Purge"}},
		{"purgeAll", []string{"purge", "All"}},
		{"parseHTTPRequest", []string{"parse", "HTTP", "Request"}},
		{"HTTPServer2Go", []string{"HTTP", "Server", "2", "Go"}},
		{"max_retry_count", []string{"max", "retry", "count"}},
		{"__init__", []string{"init"}},
		{"_", nil},
		{"sha256Sum", []string{"sha", "256", "Sum"}},
		{"ABc", []string{"A", "Bc"}},
		{"IOError", []string{"IO", "Error"}},
		{"ÜberGröße", []string{"Über", "Größe"}},
		{"日本語Text", []string{"日本語", "Text"}},
	}
	for _, tt := range tests {
		t.Run(tt.id, func(t *testing.T) {
			var got []string
			n := indexParts(tt.id, func(p string) { got = append(got, p) })
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("indexParts(%q) (-want +got):\n%s", tt.id, diff)
			}
			if n != len(got) {
				t.Errorf("indexParts(%q) = %d, called fn %d times", tt.id, n, len(got))
			}
		})
	}
}

func TestIndexScan(t *testing.T) {
	tests := []struct {
		text          string
		idents, dotts []string
	}{
		{"c.Purge() purges.", []string{"c", "Purge", "purges"}, []string{"c.Purge"}},
		{"http.Client.Do(req)", []string{"http", "Client", "Do", "req"}, []string{"http.Client.Do"}},
		{"see x..y and 3.14 and a.9b.c", []string{"see", "x", "y", "and", "3", "14", "and", "a", "9b", "c"}, nil},
		{"end. Next sentence", []string{"end", "Next", "sentence"}, nil},
		{"max_retry_count=3", []string{"max_retry_count", "3"}, nil},
		{"café.Olé ok", []string{"café", "Olé", "ok"}, []string{"café.Olé"}},
		{"", nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			var idents, dotts []string
			indexScan(tt.text, func(s string) { idents = append(idents, s) }, func(s string) { dotts = append(dotts, s) })
			if diff := cmp.Diff(tt.idents, idents); diff != "" {
				t.Errorf("identifiers (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.dotts, dotts); diff != "" {
				t.Errorf("dotted names (-want +got):\n%s", diff)
			}
		})
	}
}

func TestIndexAnalyzerText(t *testing.T) {
	tests := []struct {
		text                  string
		words, idents, dotted []string
	}{
		{
			text:   "// Purge removes all the entries of c.cache immediately.",
			words:  []string{"purg", "remov", "entri", "c", "cach", "immedi"},
			dotted: []string{"c.cache"},
		},
		{
			text:   "parseHTTPRequest(max_retry_count)",
			words:  []string{"pars", "http", "request", "max", "retri", "count"},
			idents: []string{"parsehttprequest", "max_retry_count"},
		},
		{
			text:   "The SHA256 sum",
			words:  []string{"sha", "256", "sum"},
			idents: []string{"sha256"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			a := newIndexAnalyzer(indexStopWords(), true)
			var words, idents, dotted []string
			str := func(dst *[]string) func(indexTerm) {
				return func(term indexTerm) {
					if string(term.b) != term.s {
						t.Errorf("term %q has bytes %q", term.s, term.b)
					}
					*dst = append(*dst, term.s)
				}
			}
			// Twice: the second pass comes from the caches.
			for range 2 {
				words, idents, dotted = nil, nil, nil
				a.text(tt.text, str(&words), str(&idents), str(&dotted))
				if diff := cmp.Diff(tt.words, words); diff != "" {
					t.Errorf("words (-want +got):\n%s", diff)
				}
				if diff := cmp.Diff(tt.idents, idents); diff != "" {
					t.Errorf("identifiers (-want +got):\n%s", diff)
				}
				if diff := cmp.Diff(tt.dotted, dotted); diff != "" {
					t.Errorf("dotted names (-want +got):\n%s", diff)
				}
			}
		})
	}
}

func TestIndexAnalyzerDocument(t *testing.T) {
	a := newIndexAnalyzer(indexStopWords(), true)
	c := Chunk{ID: "c.go#3", Path: "c.go", StartLine: 3, EndLine: 4, Source: SourceCode, Symbol: "Cache.PurgeAll",
		Lang: "go", Text: "// PurgeAll purges.\nfunc (c *Cache) PurgeAll() { c.items.Clear() }"}
	d := a.document(c)
	got := map[string]map[string]int{}
	stored := map[string]any{}
	for _, f := range d.Fields {
		f.Analyze()
		if f.Options().IsStored() {
			stored[f.Name()] = string(f.Value())
		}
		if !f.Options().IsIndexed() {
			continue
		}
		terms := map[string]int{}
		for k, tf := range f.AnalyzedTokenFrequencies() {
			terms[k] = tf.Frequency()
		}
		got[f.Name()] = terms
	}
	want := map[string]map[string]int{
		indexFieldPath:   {"c.go": 1},
		indexFieldSource: {"code": 1},
		indexFieldSymbol: {"cache": 1, "purgeall": 1},
		indexFieldText: {"purg": 3, "func": 1, "c": 2, "cach": 1,
			"item": 1, "clear": 1},
		indexFieldIdent: {"purgeall": 2},
		indexFieldQual:  {"c.items.clear": 1},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("indexed terms (-want +got):\n%s", diff)
	}
	// Stored fields give the chunk back.
	for _, f := range d.Fields {
		if f.Name() == indexFieldStart || f.Name() == indexFieldEnd {
			stored[f.Name()] = float64(map[string]int{indexFieldStart: 3, indexFieldEnd: 4}[f.Name()])
		}
	}
	if diff := cmp.Diff(c, indexChunkFromFields(c.ID, stored)); diff != "" {
		t.Errorf("chunk from stored fields (-want +got):\n%s", diff)
	}
}

// FuzzIndexAnalyzer checks that any text analyzes without panicking into
// valid, non-empty, bounded terms. Run longer with
// go test -fuzz FuzzIndexAnalyzer -fuzztime 30s ./retrieval.
func FuzzIndexAnalyzer(f *testing.F) {
	for _, s := range []string{"parseHTTPRequest(max_retry_count)", "c.Purge() ÜberGröße 日本語", "a..b._.9c", "\xff\xfe"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		a := newIndexAnalyzer(indexStopWords(), true)
		check := func(term indexTerm) {
			if term.s == "" || len(term.s) > 4*indexMaxTermBytes || string(term.b) != term.s {
				t.Errorf("bad term %q / %q of %q", term.s, term.b, s)
			}
			if utf8.ValidString(s) && !utf8.ValidString(term.s) {
				t.Errorf("invalid UTF-8 term %q of valid text %q", term.s, s)
			}
		}
		a.text(s, check, check, check)
		a.symbolTerms(s, check)
	})
}
