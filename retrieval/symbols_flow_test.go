package retrieval

import (
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
)

func TestValueFlow(t *testing.T) {
	t.Parallel()
	const src = `package cfg

import "time"

const (
	defaultRetries = 3
	DefaultTimeout = 30 * time.Second
	unused         = 7
)

var fallback = defaultRetries + 1

type Options struct {
	Retries int
	Timeout time.Duration
	Limit   int
}

type Client struct{ opts *Options }

// New sets two fields from constants.
func New() *Options {
	return &Options{Retries: defaultRetries, Timeout: DefaultTimeout, Limit: 10}
}

// fill sets a zero field.
func (c *Client) fill() {
	if c.opts.Timeout == 0 {
		c.opts.Timeout = 2 * DefaultTimeout
	}
}

// Loop only reads the constant.
func Loop(f func()) {
	for i := 0; i < defaultRetries; i++ {
		f()
	}
}
`
	fsys := fstest.MapFS{
		"go.mod":      {Data: []byte("module example.com/cfg\n\ngo 1.22\n")},
		"cfg.go":      {Data: []byte(src)},
		"cfg_test.go": {Data: []byte("package cfg\n\nfunc useInTest() Options { return Options{Limit: defaultRetries} }\n")},
	}
	syms, err := LoadSymbols(t.Context(), fsys, []string{"go.mod", "cfg.go", "cfg_test.go"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		want ValueFlow
	}{
		{"defaultRetries", ValueFlow{Fields: map[string]string{"Options.Retries": "New"}, Funcs: []string{"New", "Loop"}}},
		{"DefaultTimeout", ValueFlow{Fields: map[string]string{"Options.Timeout": "New"}, Funcs: []string{"New", "Client.fill"}}},
		{"unused", ValueFlow{Fields: map[string]string{}}},
		{"Options", ValueFlow{}}, // a type has no value
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sym, ok := syms.Lookup(".", tt.name)
			if !ok {
				t.Fatalf("no symbol %s", tt.name)
			}
			if d := cmp.Diff(tt.want, syms.ValueFlow(sym)); d != "" {
				t.Errorf("ValueFlow(%s) (-want +got):\n%s", tt.name, d)
			}
		})
	}
}
