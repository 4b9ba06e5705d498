package quality

import (
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

// fixture is a small module written the way Go docs are: names as bare
// words, a backticked one, a doc link, numbers in prose.
func fixture() map[string]string {
	return map[string]string{
		"go.mod": "module example.com/cache\n\ngo 1.22\n",
		"cache.go": `// Package cache keeps values for a while.
package cache

import "time"

// DefaultTTL is how long an entry lives unless the Options say otherwise.
const DefaultTTL = 30 * time.Second

// MaxEntries is the most entries a Cache holds: 128.
const MaxEntries = 128

// MinEntries is the fewest entries a Cache evicts down to: 16.
const MinEntries = 16

// Ratio is the share of entries evicted at once: 25% of them.
const Ratio = 0.25

// Options configures a Cache.
type Options struct {
	// TTL is how long an entry lives; zero means DefaultTTL.
	TTL time.Duration
}

// Cache holds values in memory.
type Cache struct {
	opts  Options
	items map[string]string
}

// NewCache returns a Cache configured by opts, which keeps at most
// MaxEntries items. Use NewCache rather than a zero Cache, e.g. in tests.
func NewCache(opts Options) *Cache {
	return &Cache{opts: opts, items: map[string]string{}}
}

// Store saves value under key, replacing what key held; see [Cache.Fetch].
func (c *Cache) Store(key, value string) { c.items[key] = value }

// Fetch returns the value stored under key and whether it was there. It
// does not refresh the entry, and a missing entry is not an error: the
// second result tells the caller. Fetch never blocks and never allocates.
func (c *Cache) Fetch(key string) (string, bool) {
	v, ok := c.items[key]
	return v, ok
}

// Evict removes the entry stored under name and reports whether it existed.
func (c *Cache) Evict(name string) bool {
	_, ok := c.items[name]
	delete(c.items, name)
	return ok
}
`,
		"cache_test.go": "package cache\n\nimport \"testing\"\n\nfunc TestNewCache(t *testing.T) {\n\tif NewCache(Options{}) == nil {\n\t\tt.Fatal(\"nil\")\n\t}\n}\n",
		"README.md":     "# cache\n\nCall `NewCache` with Options, then Store and Fetch values.\nEntries live for DefaultTTL unless Options.TTL is set.\n",
	}
}

func TestGenerateMutations(t *testing.T) {
	files := fixture()
	muts, styles := GenerateMutations("example.com/cache", "v1.0.0", files, rand.New(rand.NewPCG(1, 2)))
	for _, s := range []string{StyleBare, StyleBacktick, StyleDocLink} {
		if styles[s] == 0 {
			t.Errorf("no %s mentions counted: %v", s, styles)
		}
	}
	kinds := map[string]int{}
	for _, m := range muts {
		kinds[m.Kind]++
		t.Run(m.ID, func(t *testing.T) {
			if m.Module != "example.com/cache" || m.Version != "v1.0.0" || !strings.HasPrefix(m.ID, "example.com/cache@v1.0.0#"+m.Kind) {
				t.Errorf("identity: %+v", m)
			}
			edited, err := m.Apply(files)
			if err != nil {
				t.Fatal(err)
			}
			if len(edited) == 0 {
				t.Fatal("no file changed")
			}
			for p, src := range edited {
				if src == files[p] {
					t.Errorf("%s unchanged", p)
				}
			}
			if m.Kind == MutClean {
				if len(m.Expect) != 0 {
					t.Errorf("clean edit expects findings: %v", m.Expect)
				}
				for p, src := range edited {
					if strings.Join(strings.Fields(strings.ReplaceAll(files[p], "//", "")), " ") == strings.Join(strings.Fields(strings.ReplaceAll(src, "//", "")), " ") && !strings.Contains(m.Detail, "rewrapped") {
						t.Errorf("%s: only whitespace changed, yet not a rewrap", p)
					}
				}
				return
			}
			if len(m.Expect) == 0 {
				t.Fatal("drift case expects nothing")
			}
			for _, sp := range m.Expect {
				if _, ok := files[sp.Path]; !ok || sp.Line < 1 || sp.EndLine < sp.Line {
					t.Errorf("bad expected span %+v", sp)
				}
			}
		})
	}
	for _, k := range []string{MutName, MutParameter, MutLiteral, MutPercent, MutRename, MutDefault, MutClean} {
		if kinds[k] == 0 {
			t.Errorf("no %s mutation generated (got %v)", k, kinds)
		}
	}
	again, _ := GenerateMutations("example.com/cache", "v1.0.0", fixture(), rand.New(rand.NewPCG(1, 2)))
	if !reflect.DeepEqual(muts, again) {
		t.Error("the same seed generated different mutations")
	}
}

// TestMutationShapes checks what each kind writes on the fixture.
func TestMutationShapes(t *testing.T) {
	files := fixture()
	muts, _ := GenerateMutations("example.com/cache", "v1.0.0", files, rand.New(rand.NewPCG(1, 2)))
	all := strings.Join([]string{files["cache.go"], files["cache_test.go"], files["README.md"]}, "\n")
	for _, m := range muts {
		e := m.Edits[0]
		switch m.Kind {
		case MutName:
			from, to, _ := strings.Cut(m.Detail, " -> ")
			if strings.Contains(all, to[strings.LastIndexByte(to, '.')+1:]) {
				t.Errorf("%s: new name %s appears in the module", m.ID, to)
			}
			if !strings.Contains(e.Old, from[strings.LastIndexByte(from, '.')+1:]) || !strings.Contains(e.New, to[strings.LastIndexByte(to, '.')+1:]) {
				t.Errorf("%s: edit %q -> %q does not swap %s", m.ID, e.Old, e.New, m.Detail)
			}
		case MutParameter:
			_, swap, _ := strings.Cut(m.Detail, ": ")
			from, to, _ := strings.Cut(swap, " -> ")
			if !(map[string]bool{"key": true, "value": true, "name": true, "opts": true})[to] || from == to {
				t.Errorf("%s: %s is not a sibling's parameter", m.ID, m.Detail)
			}
		case MutPercent:
			if !strings.Contains(e.New, "0.25%") {
				t.Errorf("%s: percent mutation wrote %q", m.ID, e.New)
			}
		case MutRename:
			if !strings.Contains(m.Detail, "NewCache -> ") {
				t.Errorf("%s: renamed %s", m.ID, m.Detail)
			}
			readme := false
			for _, sp := range m.Expect {
				readme = readme || sp.Path == "README.md"
			}
			if !readme {
				t.Errorf("%s: README mention not expected: %v", m.ID, m.Expect)
			}
			for _, ed := range m.Edits {
				if strings.HasPrefix(strings.TrimSpace(ed.Old), "//") {
					t.Errorf("%s: rename edits a comment: %q", m.ID, ed.Old)
				}
			}
		case MutDefault:
			if strings.Contains(e.Path, "_test") || !strings.HasPrefix(strings.TrimSpace(e.Old), "const") {
				t.Errorf("%s: default change edits %s %q", m.ID, e.Path, e.Old)
			}
		}
	}
}

func TestApplyMismatch(t *testing.T) {
	m := Mutation{ID: "x", Edits: []Edit{{Path: "a.go", Line: 2, EndLine: 2, Old: "b", New: "c"}}}
	_, err := m.Apply(map[string]string{"a.go": "a\nz\n"})
	if err == nil || !strings.Contains(err.Error(), "a.go:2") || !strings.Contains(err.Error(), `want "b"`) {
		t.Errorf("Apply with a stale edit: %v", err)
	}
	_, err = m.Apply(map[string]string{})
	if err == nil || !strings.Contains(err.Error(), "a.go: no such file") {
		t.Errorf("Apply on a missing file: %v", err)
	}
	m.Edits[0].Line, m.Edits[0].EndLine = 9, 9
	if _, err = m.Apply(map[string]string{"a.go": "a\n"}); err == nil || !strings.Contains(err.Error(), "outside") {
		t.Errorf("Apply past the end: %v", err)
	}
}
