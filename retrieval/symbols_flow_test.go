package retrieval

import (
	"go/ast"
	"go/types"
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

const defaultFrame = 512

type ConnOptions struct {
	MaxFrame uint32
	Name     string
}

type conn struct {
	maxFrame uint32
	name     string
}

// newConn copies an option over a default when it is set.
func newConn(opts ConnOptions) *conn {
	c := &conn{maxFrame: defaultFrame}
	if opts.MaxFrame > 0 {
		c.maxFrame = uint32(opts.MaxFrame)
	}
	c.name = opts.Name
	return c
}

const defaultFastFlow = 100

type FlowControl struct {
	Flow  uint16
	Burst uint16
}

type pubOpts struct {
	flow, burst uint16
}

// NewPublisher fills the options' defaults and hands them to each option.
func NewPublisher(opts ...func(*pubOpts)) *pubOpts {
	o := pubOpts{flow: defaultFastFlow}
	for _, opt := range opts {
		opt(&o)
	}
	return &o
}

// configure is handed the options: an unset Flow keeps the default.
func (fc FlowControl) configure(o *pubOpts) {
	if fc.Flow > 0 {
		o.flow = fc.Flow
	}
	local := pubOpts{}
	if fc.Burst > 0 {
		local.burst = fc.Burst
	}
	_ = local
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
		// The option copied over the field set from the constant takes
		// the constant when unset.
		{"defaultFrame", ValueFlow{Fields: map[string]string{"conn.maxFrame": "newConn", "ConnOptions.MaxFrame": "newConn"}, Funcs: []string{"newConn"}}},
		// So does an option copied over it by a func handed the struct
		// another func filled.
		{"defaultFastFlow", ValueFlow{Fields: map[string]string{"pubOpts.flow": "NewPublisher", "FlowControl.Flow": "NewPublisher"}, Funcs: []string{"NewPublisher"}}},
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

func TestFieldsSet(t *testing.T) {
	t.Parallel()
	const src = `package cfg

const size = 64

type Options struct {
	Size, Limit int
	Name        string
	Next        *Options
}

func New(name string) *Options {
	o := &Options{
		Size: size,
		Name: name,
	}
	o.Limit = 2 * size
	o.Next = nil
	return o
}

func (o *Options) Reset() { o.Size = 0 }

var v = 3

var defaults = Options{Size: 32, Name: "x"}
`
	fsys := fstest.MapFS{
		"go.mod": {Data: []byte("module example.com/cfg\n\ngo 1.22\n")},
		"cfg.go": {Data: []byte(src)},
	}
	syms, err := LoadSymbols(t.Context(), fsys, []string{"go.mod", "cfg.go"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		want map[string]int
	}{
		// A field set to a parameter or to nil is not set to a constant.
		{"New", map[string]int{"Options.Size": 13, "Options.Limit": 16}},
		{"Options.Reset", map[string]int{"Options.Size": 21}},
		{"v", map[string]int{}},
		// A var's composite literal sets its fields.
		{"defaults", map[string]int{"Options.Size": 25, "Options.Name": 25}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sym, ok := syms.Lookup(".", tt.name)
			if !ok {
				t.Fatalf("no symbol %s", tt.name)
			}
			if d := cmp.Diff(tt.want, syms.FieldsSet(sym)); d != "" {
				t.Errorf("FieldsSet(%s) (-want +got):\n%s", tt.name, d)
			}
		})
	}
}

func TestFallbackReturns(t *testing.T) {
	t.Parallel()
	const src = `package w

const defaultBatch = 100

type Writer struct {
	BatchSize int
	Name      string
	Max       int
	Timeout   int64
	Size      int // in megabytes
}

func (w *Writer) batchSize() int {
	if w.BatchSize > 0 {
		return w.BatchSize
	}
	return defaultBatch
}

func (w *Writer) name() string {
	if w.Name == "" {
		return "writer"
	}
	return w.Name
}

func (w *Writer) capped() int {
	if w.Max > 10 {
		return 10
	}
	return w.Max
}

func (w *Writer) timeout(d int64) int64 {
	if w.Timeout > 0 {
		return w.Timeout
	}
	return d
}

var megabyte = 1024 * 1024

const defaultMaxSize = 100

func (w *Writer) maxBytes() int64 {
	if w.Size == 0 {
		return int64(defaultMaxSize * megabyte)
	}
	return int64(w.Size) * int64(megabyte)
}

func (w *Writer) maxOther() int64 {
	if w.Size == 0 {
		return int64(defaultMaxSize * 1000)
	}
	return int64(w.Size) * int64(megabyte)
}
`
	fsys := fstest.MapFS{
		"go.mod": {Data: []byte("module example.com/w\n\ngo 1.22\n")},
		"w.go":   {Data: []byte(src)},
	}
	syms, err := LoadSymbols(t.Context(), fsys, []string{"go.mod", "w.go"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		fn   string
		want string // "Type.Field = value", or "" for none
	}{
		{"Writer.batchSize", "Writer.BatchSize = defaultBatch"},
		{"Writer.name", `Writer.Name = "writer"`},
		{"Writer.capped", ""},                               // a cap, not a default
		{"Writer.timeout", ""},                              // the fallback is not a constant
		{"Writer.maxBytes", "Writer.Size = defaultMaxSize"}, // the field counts megabytes
		{"Writer.maxOther", ""},                             // another unit in each branch
	}
	for _, tt := range tests {
		t.Run(tt.fn, func(t *testing.T) {
			sym, ok := syms.Lookup(".", tt.fn)
			if !ok {
				t.Fatalf("no symbol %s", tt.fn)
			}
			var fd *ast.FuncDecl
			for _, d := range sym.Package.Syntax[0].Decls {
				if f, ok := d.(*ast.FuncDecl); ok && f.Name.Pos() == sym.Object.Pos() {
					fd = f
				}
			}
			got := ""
			for _, fb := range FallbackReturns(sym.Package.Info, fd.Body) {
				got = fb.FieldType + "." + fb.Field.Name() + " = " + types.ExprString(fb.Value)
			}
			if got != tt.want {
				t.Errorf("FallbackReturns(%s) = %q, want %q", tt.fn, got, tt.want)
			}
		})
	}
	sym, _ := syms.Lookup(".", "defaultBatch")
	if got := syms.ValueFlow(sym).Fields; got["Writer.BatchSize"] != "Writer.batchSize" {
		t.Errorf("ValueFlow(defaultBatch).Fields = %v, want Writer.BatchSize set by Writer.batchSize", got)
	}
}
