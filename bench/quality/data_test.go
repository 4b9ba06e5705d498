package quality

import (
	"crypto/sha256"
	"strings"
	"testing"
	"testing/fstest"
)

// excluded are modules other measurements of docreview use; the benchmark
// must not (prefixes: every major version and subpackage is out too).
var excluded = []string{
	"github.com/dustin/go-humanize", "go.uber.org/multierr", "github.com/google/uuid", "github.com/spf13/pflag",
	"github.com/gorilla/mux", "github.com/Masterminds/semver",
	"github.com/hashicorp/golang-lru", "github.com/cenkalti/backoff", "golang.org/x/time", "go.uber.org/ratelimit",
	"github.com/sony/gobreaker", "github.com/patrickmn/go-cache", "github.com/hashicorp/go-retryablehttp",
	"github.com/jonboulle/clockwork", "golang.org/x/mod", "golang.org/x/oauth2", "github.com/jackc/pgx",
	"github.com/nats-io/nats.go", "github.com/prometheus/client_golang", "github.com/redis/go-redis",
	"github.com/stretchr/testify", "github.com/spf13/cobra", "golang.org/x/text", "google.golang.org/protobuf",
	"go.uber.org/zap", "github.com/sirupsen/logrus", "github.com/segmentio/kafka-go", "github.com/IBM/sarama",
	"github.com/urfave/cli", "github.com/rs/zerolog", "github.com/valyala/fasthttp", "google.golang.org/grpc",
	"go.etcd.io/bbolt", "github.com/go-chi/chi", "github.com/spf13/viper", "github.com/gin-gonic/gin",
	"github.com/hashicorp/go-multierror", "github.com/google/go-cmp", "github.com/samber/lo",
}

// TestDataSpec checks the stored benchmark against what it promises: at
// least 120 real fixes over at least 30 modules with at least 15 of each
// kind, every case with a reason, at least 20 audited modules each with a
// ledger whose every entry has a reason (and a cause when not true),
// halves fixed by the SHA-256 rule, no excluded module, every snippet
// fix labelled with what a compiler says of it.
func TestDataSpec(t *testing.T) {
	d, err := LoadData()
	if err != nil {
		t.Fatal(err)
	}
	realMods, kinds := map[string]bool{}, map[string]int{}
	for _, c := range d.Real {
		realMods[c.Module] = true
		kinds[c.Kind]++
		if c.Reason == "" || c.Version == "" || c.Fixed == "" || c.Path == "" {
			t.Errorf("real case %s@%s %s:%d lacks a reason, version, fix or path", c.Module, c.Version, c.Path, c.Line)
		}
		if c.Kind == KindSnippet && c.Compiler == "" {
			t.Errorf("real snippet case %s@%s %s:%d has no compiler label", c.Module, c.Version, c.Path, c.Line)
		}
	}
	if len(d.Real) < 120 || len(realMods) < 30 {
		t.Errorf("%d real cases over %d modules, want at least 120 over 30", len(d.Real), len(realMods))
	}
	for _, k := range RealKinds() {
		if kinds[k] < 15 {
			t.Errorf("%d real %s cases, want at least 15", kinds[k], k)
		}
	}
	audits := 0
	for _, m := range d.Modules {
		sum := sha256.Sum256([]byte(m.Path))
		want := HalfDev
		if sum[0]%2 == 1 {
			want = HalfTest
		}
		if m.Half != want {
			t.Errorf("%s is in the %s half; the SHA-256 rule puts it in %s", m.Path, m.Half, want)
		}
		for _, x := range excluded {
			if m.Path == x || strings.HasPrefix(m.Path, x+"/") {
				t.Errorf("%s is excluded from the benchmark", m.Path)
			}
		}
		if (Selection{}).wants(SetAudit, m) {
			audits++
			if d.Ledgers[m.Path] == nil {
				t.Errorf("audited module %s has no ledger", m.Path)
			}
		}
	}
	if audits < 20 {
		t.Errorf("%d audited modules, want at least 20", audits)
	}
	for mod, l := range d.Ledgers {
		for _, e := range l.Findings {
			if e.Reason == "" || e.Verdict != VerdictTrue && e.Cause == "" || !strings.Contains(e.Fingerprint, ".") {
				t.Errorf("ledger of %s: %s lacks a reason, a cause or a fingerprint's rule", mod, e.Fingerprint)
			}
		}
	}
	if len(d.Mutations.Cases) == 0 || d.Mutations.Styles[StyleBare] == 0 {
		t.Errorf("mutation set: %d cases, styles %v", len(d.Mutations.Cases), d.Mutations.Styles)
	}
}

func TestLoadDataErrors(t *testing.T) {
	mods := `[{"path":"a.example/x","half":"dev","sets":["real"]},{"path":"a.example/y","half":"test","sets":["audit"],"version":"v1.0.0"}]`
	base := func() fstest.MapFS {
		return fstest.MapFS{
			"data/modules.json":   {Data: []byte(mods)},
			"data/mutations.json": {Data: []byte(`{"cases":[]}`)},
			"data/real/a.json":    {Data: []byte(`[{"module":"a.example/x","version":"v1.0.0","kind":"name","path":"a.go","line":3,"end_line":3}]`)},
			"data/audit/y.json":   {Data: []byte(`{"module":"a.example/y","version":"v1.0.0","findings":[{"fingerprint":"f.rule","verdict":"true"}]}`)},
		}
	}
	if _, err := loadData(base()); err != nil {
		t.Fatalf("valid data: %v", err)
	}
	tests := []struct {
		name, file, content, want string
	}{
		{"bad json", "data/real/a.json", `[{`, "data/real/a.json"},
		{"unlisted module", "data/real/a.json", `[{"module":"b.example/z","kind":"name","line":1,"end_line":1}]`, "b.example/z is not in modules.json"},
		{"wrong set", "data/real/a.json", `[{"module":"a.example/y","kind":"name","line":1,"end_line":1}]`, "not in set real"},
		{"unknown kind", "data/real/a.json", `[{"module":"a.example/x","kind":"typo","line":1,"end_line":1}]`, `unknown kind "typo"`},
		{"bad lines", "data/real/a.json", `[{"module":"a.example/x","kind":"name","line":5,"end_line":4}]`, "bad lines 5-4"},
		{"unknown compiler label", "data/real/a.json", `[{"module":"a.example/x","kind":"snippet","compiler":"maybe","line":1,"end_line":1}]`, `unknown compiler label "maybe"`},
		{"compiler label off a snippet", "data/real/a.json", `[{"module":"a.example/x","kind":"name","compiler":"rejects","line":1,"end_line":1}]`, "a compiler label on a name case"},
		{"bad half", "data/modules.json", `[{"path":"a.example/x","half":"train","sets":["real"]}]`, `half "train"`},
		{"audit and real", "data/modules.json", `[{"path":"a.example/x","half":"dev","sets":["real","audit"]}]`, "belongs to no other set"},
		{"bad verdict", "data/audit/y.json", `{"module":"a.example/y","version":"v1.0.0","findings":[{"fingerprint":"f.rule","verdict":"maybe"}]}`, `verdict "maybe"`},
		{"ledger version", "data/audit/y.json", `{"module":"a.example/y","version":"v2.0.0","findings":[]}`, "modules.json pins v1.0.0"},
		{"mutation kind", "data/mutations.json", `{"cases":[{"id":"m","module":"a.example/x","kind":"swap"}]}`, "not in set mutation"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fsys := base()
			fsys[tt.file] = &fstest.MapFile{Data: []byte(tt.content)}
			_, err := loadData(fsys)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want it to contain %q", err, tt.want)
			}
		})
	}
}
