package completeness

import (
	"bytes"
	"encoding/json"
	"flag"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/docreview/docreview/retrieval"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// loadFixture type-checks the module under testdata/fixture.
func loadFixture(t *testing.T) *retrieval.Symbols {
	t.Helper()
	fsys := os.DirFS(filepath.Join("testdata", "fixture"))
	var files []string
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		files = append(files, p)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	syms, err := retrieval.LoadSymbols(t.Context(), fsys, files, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range syms.Packages() {
		for _, e := range p.Errors {
			t.Fatalf("fixture does not type-check: %v", e)
		}
	}
	return syms
}

// golden compares got with testdata/name, rewriting it with -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file (run with -update to accept):\n%s", name, got)
	}
}

func TestAnalyzeGolden(t *testing.T) {
	syms := loadFixture(t)
	got, err := Analyze(t.Context(), syms, nil)
	if err != nil {
		t.Fatal(err)
	}
	r := NewReport(got)
	js, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "fixture.json", append(js, '\n'))
	var buf bytes.Buffer
	if err := r.WriteTable(&buf, true); err != nil {
		t.Fatal(err)
	}
	golden(t, "fixture.txt", buf.Bytes())
}

// factSet renders a symbol's facts as "kind name [value] [when cond] [via hops] stated|missing".
func factSet(s Symbol) map[string]bool {
	m := map[string]bool{}
	for i, f := range s.Facts {
		state := "missing"
		if s.Stated[i] {
			state = "stated"
		}
		m[f.Label()+" "+state] = true
	}
	return m
}

func TestAnalyzeFacts(t *testing.T) {
	syms := loadFixture(t)
	got, err := Analyze(t.Context(), syms, []string{".", "store"})
	if err != nil {
		t.Fatal(err)
	}
	bySym := map[string]Symbol{}
	for _, s := range got {
		bySym[s.Key()] = s
	}
	tests := []struct {
		sym       string
		want, not []string
	}{
		{"example.com/fix.New", []string{"param ttl stated", "default DefaultTTL = 5m when ttl <= 0 stated"}, nil},
		{"example.com/fix.NewWithOptions", []string{"default DefaultTTL = 5m when opts.TTL == 0 missing", "default = 16 when opts.Shards == 0 missing"}, nil},
		{"example.com/fix.Cache.Get", []string{"error ErrNotFound when !ok stated", "error *KeyError (via validate) missing", "lock c.mu missing"},
			[]string{"param ctx missing", "error errInternal missing"}},
		{"example.com/fix.Cache.Set", []string{"const maxKeyLen = 250 when len(key) > maxKeyLen stated", "error *KeyError when len(key) > maxKeyLen stated", "lock c.mu stated"}, nil},
		{"example.com/fix.Cache.Load", []string{"error store.ErrCorrupt (via store.Decode) missing", "result n missing"},
			[]string{"error io.EOF (via store.Decode) missing", "error store.ErrDeep (via store.Decode → store.readLine → store.deeper) missing"}},
		{"example.com/fix.Cache.Dump", []string{"param w stated"}, []string{"error store.ErrCorrupt (via store.Encode) missing"}},
		{"example.com/fix.Shard", []string{"panic when n <= 0 missing"}, nil},
		{"example.com/fix.Safe", nil, []string{"panic when f == nil missing"}},
		{"example.com/fix.Cache.Each", []string{"param f stated"}, []string{"panic missing", "panic when k == \"\" missing"}},
		{"example.com/fix.Cache.Expire", []string{"unit ageMs in milliseconds stated"}, nil},
		{"example.com/fix.Cache.Resize", []string{"unit sizeKB in kilobytes missing"}, []string{"unit status in microseconds missing"}},
		{"example.com/fix.Cache.Watch", []string{"goroutine stated"}, []string{"unit interval in seconds missing"}},
		{"example.com/fix.Cache.Close", []string{"blocks (channel send) stated"}, nil},
		{"example.com/fix.Cache.TryClose", nil, []string{"blocks (channel send) missing", "blocks (select) missing"}},
		{"example.com/fix.Drain", []string{"blocks (range over a channel) missing"}, nil},
		{"example.com/fix.Retry", []string{"const maxRetries = 5 when n > maxRetries missing", "blocks (time.Sleep) missing"}, nil},
		{"example.com/fix.Cache.Purge", []string{"deprecated Cache.Purge stated"}, nil},
		{"example.com/fix.Legacy", []string{"lock sync.RWMutex missing", "deprecated Legacy stated"}, nil},
		{"example.com/fix.Cache", []string{"lock mu missing"}, nil},
		{"example.com/fix.Open", []string{"error *fs.PathError (via store.Open) missing"}, nil},
		{"example.com/fix/store.Decode", []string{"error io.EOF (via readLine) stated", "error ErrCorrupt when !ok stated", "error ErrDeep (via readLine → deeper) missing"},
			[]string{"error ErrTooLong (via readLine) missing"}},
	}
	for _, tt := range tests {
		t.Run(tt.sym, func(t *testing.T) {
			s, ok := bySym[tt.sym]
			if !ok {
				t.Fatalf("no symbol %s", tt.sym)
			}
			have := factSet(s)
			for _, w := range tt.want {
				if !have[w] {
					t.Errorf("missing fact %q; have %v", w, have)
				}
			}
			for _, n := range tt.not {
				if have[n] {
					t.Errorf("unexpected fact %q", n)
				}
			}
		})
	}
	if _, err := Analyze(t.Context(), syms, []string{"nowhere"}); err == nil {
		t.Error("Analyze of an unknown directory succeeded")
	}
	for _, k := range []string{"example.com/fix.validate", "example.com/fix.Cache.loop"} {
		if _, ok := bySym[k]; ok {
			t.Errorf("unexported symbol %s analysed", k)
		}
	}
}
