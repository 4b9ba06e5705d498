package main

import (
	"encoding/json"
	"flag"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseInterleaved(t *testing.T) {
	tests := []struct {
		name      string
		args      []string
		wantWords []string
		wantTopK  int
		wantFmt   string
	}{
		{"flags first", []string{"--top-k", "3", "--format=json", "deferred", "removal"}, []string{"deferred", "removal"}, 3, "json"},
		{"flags last", []string{"deferred removal", "--top-k", "3", "--format", "json"}, []string{"deferred removal"}, 3, "json"},
		{"flags between words", []string{"deferred", "-top-k=4", "removal"}, []string{"deferred", "removal"}, 4, "text"},
		{"double dash ends flags", []string{"--top-k", "2", "--", "--format", "x"}, []string{"--format", "x"}, 2, "text"},
		{"double dash after a word", []string{"word", "--", "-v"}, []string{"word", "-v"}, 10, "text"},
		{"no words", []string{"--top-k", "1"}, nil, 1, "text"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fs := flag.NewFlagSet("test", flag.ContinueOnError)
			topK := fs.Int("top-k", 10, "")
			format := fs.String("format", "text", "")
			words, err := parseInterleaved(fs, tt.args)
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tt.wantWords, words); d != "" {
				t.Errorf("words (-want +got):\n%s", d)
			}
			if *topK != tt.wantTopK || *format != tt.wantFmt {
				t.Errorf("top-k %d, format %q; want %d, %q", *topK, *format, tt.wantTopK, tt.wantFmt)
			}
		})
	}
}

// queryHits runs 'docreview query --format json' and decodes the hits.
func queryHits(t *testing.T, args ...string) []hitJSON {
	t.Helper()
	res := runCLI(t, nil, append([]string{"query"}, args...)...)
	if res.code != exitOK {
		t.Fatalf("query %v: exit %d\nstderr: %s", args, res.code, res.stderr)
	}
	var out queryJSON
	if err := json.Unmarshal([]byte(res.stdout), &out); err != nil {
		t.Fatalf("query %v: decode: %v\n%s", args, err, res.stdout)
	}
	return out.Hits
}

func TestQuery(t *testing.T) {
	repo := buildExample(t)
	cache := t.TempDir()
	base := []string{"--repo", repo, "--cache-dir", cache}

	t.Run("builds a missing index with a note", func(t *testing.T) {
		res := runCLI(t, nil, append([]string{"query"}, append(base, "Hold")...)...)
		if res.code != exitOK || !strings.Contains(res.stderr, "no index in") || !strings.Contains(res.stdout, "1. ") {
			t.Errorf("exit %d\nstdout: %s\nstderr: %s", res.code, res.stdout, res.stderr)
		}
	})

	t.Run("loads Go symbols only for the structural channel", func(t *testing.T) {
		for _, tt := range []struct {
			args []string
			want bool
		}{
			{[]string{"Hold"}, false},
			{[]string{"--channels", "lexical", "--symbol", "Store.Hold", "Hold"}, false},
			{[]string{"--symbol", "Store.Hold"}, true},
		} {
			res := runCLI(t, nil, append([]string{"query", "--debug"}, append(base, tt.args...)...)...)
			if res.code != exitOK {
				t.Fatalf("query %v: exit %d\n%s", tt.args, res.code, res.stderr)
			}
			if got := strings.Contains(res.stderr, "symbols loaded"); got != tt.want {
				t.Errorf("query %v: symbols loaded %v, want %v\nstderr: %s", tt.args, got, tt.want, res.stderr)
			}
		}
	})

	t.Run("flags before and after the text agree", func(t *testing.T) {
		before := queryHits(t, append(base, "--top-k", "3", "--format", "json", "reservation", "expiry")...)
		after := queryHits(t, append([]string{"reservation", "expiry"}, append(base, "--top-k", "3", "--format=json")...)...)
		if len(before) == 0 || len(before) > 3 {
			t.Fatalf("got %d hits, want 1 to 3", len(before))
		}
		if d := cmp.Diff(before, after); d != "" {
			t.Errorf("hits differ with flags after the text (-before +after):\n%s", d)
		}
	})

	t.Run("unresolved symbol is said", func(t *testing.T) {
		res := runCLI(t, nil, append([]string{"query"}, append(base, "--symbol", "Nope.Nothing", "--format", "json")...)...)
		var out queryJSON
		if err := json.Unmarshal([]byte(res.stdout), &out); err != nil {
			t.Fatalf("decode %s: %v", res.stdout, err)
		}
		if res.code != exitOK || out.UnresolvedSymbol != "Nope.Nothing" || !strings.Contains(res.stderr, "--symbol Nope.Nothing resolves to no Go symbol") {
			t.Errorf("query --symbol Nope.Nothing: exit %d, unresolved_symbol %q, stderr %q", res.code, out.UnresolvedSymbol, res.stderr)
		}
		res = runCLI(t, nil, append([]string{"query"}, append(base, "--symbol", "Store.Hold", "--format", "json")...)...)
		if strings.Contains(res.stdout, "unresolved_symbol") || strings.Contains(res.stderr, "resolves to no") {
			t.Errorf("query --symbol Store.Hold says it did not resolve:\n%s\n%s", res.stdout, res.stderr)
		}
	})

	t.Run("json fields", func(t *testing.T) {
		res := runCLI(t, nil, append([]string{"query"}, append(base, "--format", "json", "Hold")...)...)
		var obj struct {
			Hits []map[string]json.RawMessage `json:"hits"`
		}
		err := json.Unmarshal([]byte(res.stdout), &obj)
		raw := obj.Hits
		if err != nil || len(raw) == 0 {
			t.Fatalf("decode %s: %v (%d hits)", res.stdout, err, len(raw))
		}
		want := []string{"end_line", "hops", "id", "path", "ranks", "score", "snippet", "source", "start_line", "why"}
		for i, h := range raw {
			var keys []string
			for k := range h {
				keys = append(keys, k)
			}
			slices.Sort(keys)
			if d := cmp.Diff(want, keys); d != "" {
				t.Errorf("hit %d fields (-want +got):\n%s", i, d)
			}
			if string(h["hops"]) == "null" || string(h["ranks"]) == "null" {
				t.Errorf("hit %d: hops %s, ranks %s; want arrays and objects, never null", i, h["hops"], h["ranks"])
			}
		}
	})

	t.Run("symbol reaches definition and test", func(t *testing.T) {
		hits := queryHits(t, append(base, "--symbol", "Store.Hold", "--format", "json", "--top-k", "20")...)
		var def, test *hitJSON
		for i, h := range hits {
			if h.Path == "store.go" && strings.Contains(h.Snippet, "func (s *Store) Hold(") && def == nil {
				def = &hits[i]
			}
			if h.Path == "store_test.go" && strings.Contains(h.Snippet, "func TestHold(") && test == nil {
				test = &hits[i]
			}
		}
		if def == nil || test == nil {
			t.Fatalf("hits lack the definition (%v) or TestHold (%v): %+v", def != nil, test != nil, hits)
		}
		if def.Ranks["structural"] != 1 {
			t.Errorf("definition ranks %v, want structural 1", def.Ranks)
		}
		if test.Ranks["structural"] == 0 || len(test.Hops) == 0 {
			t.Errorf("TestHold: ranks %v, hops %v; want a structural rank and hops", test.Ranks, test.Hops)
		}
	})

	t.Run("source filter", func(t *testing.T) {
		for _, h := range queryHits(t, append(base, "Hold", "--source", "test,example", "--format", "json")...) {
			if h.Source != "test" && h.Source != "example" {
				t.Errorf("hit %s has source %s, want test or example", h.ID, h.Source)
			}
		}
	})

	t.Run("text format", func(t *testing.T) {
		res := runCLI(t, nil, append([]string{"query"}, append(base, "--symbol", "Store.Hold", "--top-k", "2")...)...)
		if res.code != exitOK {
			t.Fatalf("exit %d: %s", res.code, res.stderr)
		}
		lines := strings.Split(res.stdout, "\n")
		if !strings.HasPrefix(lines[0], "1. store.go:") || !strings.Contains(lines[0], "structural #1") || !strings.Contains(lines[1], "defines Store.Hold") {
			t.Errorf("first block:\n%s", res.stdout)
		}
		if !strings.Contains(res.stdout, "\n2. ") || strings.Contains(res.stdout, "\n3. ") {
			t.Errorf("want exactly 2 blocks:\n%s", res.stdout)
		}
	})

	t.Run("no hits", func(t *testing.T) {
		res := runCLI(t, nil, append([]string{"query"}, append(base, "zzqxnothing")...)...)
		if res.code != exitOK || res.stdout != "no hits for \"zzqxnothing\"\n" {
			t.Errorf("exit %d, stdout %q", res.code, res.stdout)
		}
		if hits := queryHits(t, append(base, "zzqxnothing", "--format", "json")...); len(hits) != 0 {
			t.Errorf("json: %d hits, want an empty array", len(hits))
		}
	})
}

func TestQueryUsage(t *testing.T) {
	repo := buildExample(t)
	tests := []struct {
		name    string
		args    []string
		wantErr string
	}{
		{"no text and no symbol", nil, "no query: give the query text or --symbol"},
		{"blank text", []string{"  "}, "no query"},
		{"unknown flag after text", []string{"Hold", "--nope"}, "flag provided but not defined: -nope"},
		{"unknown source", []string{"Hold", "--source", "code,tests"}, `--source: unknown source "tests"`},
		{"unknown channel", []string{"Hold", "--channels", "lexical,fuzzy"}, `--channels: unknown channel "fuzzy"`},
		{"structural without symbol", []string{"Hold", "--channels", "structural"}, "the structural channel needs --symbol"},
		{"dense without key", []string{"Hold", "--channels", "dense"}, "the dense channel needs OPENAI_API_KEY"},
		{"top-k zero", []string{"Hold", "--top-k", "0"}, "--top-k: 0 is out of range"},
		{"unknown format", []string{"Hold", "--format", "xml"}, `unknown format "xml"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := append([]string{"query", "--repo", repo, "--cache-dir", t.TempDir()}, tt.args...)
			res := runCLI(t, nil, args...)
			if res.code != exitError || !strings.Contains(res.stderr, tt.wantErr) {
				t.Errorf("exit %d, stderr %q; want exit 2 and %q", res.code, res.stderr, tt.wantErr)
			}
			if res.stdout != "" {
				t.Errorf("stdout %q, want nothing", res.stdout)
			}
		})
	}
}
