package rules

import (
	"path/filepath"
	"testing"

	"github.com/docreview/docreview/retrieval"
	"github.com/docreview/docreview/review"
)

// TestLiteralKeyDefault: a configuration reference names keys as the
// configuration file writes them; the struct tag that decodes each key
// binds its stated default to the field's.
func TestLiteralKeyDefault(t *testing.T) {
	ws := loadWorkspace(t, "configkey")
	rule := &LiteralMismatch{}
	at := func(s, why string) []ev {
		l := lineOf(t, ws, "receiver/config.go", s)
		return []ev{{"receiver/config.go", l, l, review.SourceCode, why}}
	}
	tests := []struct {
		name string
		line string // the line of receiver/README.md containing this
		want *want
	}{
		{name: "duration in another unit than the code's", line: "`metrics_flush_interval`", want: &want{
			label:      review.Contradicted,
			message:    "The doc gives `15s` as the default of `metrics_flush_interval` (Config.FlushInterval), but the code sets FlushInterval = 30 * time.Second (30s).",
			suggestion: "`metrics_flush_interval` (default: `30s`): how often metrics are flushed.",
			evidence:   at("FlushInterval: 30", "FlushInterval = 30 * time.Second"),
		}},
		{name: "bool", line: "`parse_string_tags`", want: &want{
			label:      review.Contradicted,
			message:    "The doc gives true as the default of `parse_string_tags` (Config.ParseTags), but the code sets ParseTags = false.",
			suggestion: "`parse_string_tags` (default = false): whether string tags are parsed.",
			evidence:   at("ParseTags:     false", "ParseTags = false"),
		}},
		{name: "item with its default in brackets", line: "`flush_interval`[default: 5s]", want: &want{
			label:      review.Contradicted,
			message:    "The doc gives 5s as the default of `flush_interval` (Config.FlushEvery), but the code sets FlushEvery = time.Second (1s).",
			suggestion: "`flush_interval`[default: 1s]: how often the file is flushed.",
			evidence:   at("FlushEvery:    time.Second", "FlushEvery = time.Second"),
		}},
		{name: "item with a trailing Default: that agrees", line: "`max_staleness`"},
		// Two defaults in one item: which one is the key's is not certain.
		{name: "item with two defaults", line: "`append`"},
		{name: "count through a constant that agrees", line: "`dimensions_cache_size`"},
		{name: "yaml tag, default that agrees", line: "`max_retries` (default is 5)"},
		{name: "nested key that agrees", line: "`max_size`"},
		// Two structs have an enabled key; the parent item names one.
		{name: "nested key of two structs, told apart by its parent", line: "`enabled`", want: &want{
			label:      review.Contradicted,
			message:    "The doc gives `false` as the default of `enabled` (HistogramConfig.Enabled), but the code sets Enabled = true.",
			suggestion: "`enabled` (default: `true`): turns it on.",
			evidence:   at("Histogram:     HistogramConfig{Enabled: true", "Enabled = true"),
		}},
		{name: "dotted key whose parent tells the structs apart", line: "`queue.enabled`", want: &want{
			label:      review.Contradicted,
			message:    "The doc gives `true` as the default of `queue.enabled` (QueueConfig.Enabled), but the code sets Enabled = false.",
			suggestion: "Set `queue.enabled` (default: `false`) to queue spans.",
			evidence:   at("Queue:         QueueConfig{Enabled: false}", "Enabled = false"),
		}},
		{name: "field without a default in the code", line: "`size`"},
		// Code normalises strings: a different spelling is no different default.
		{name: "string", line: "`endpoint`"},
		{name: "no field has the key", line: "`unknown_key`"},
		{name: "configuration reference block: two counts drifted, one finding", line: "[ capacity: <int> | default = 2500 ]", want: &want{
			label: review.Contradicted,
			message: "The doc gives 2500 as the default of `capacity` (RemoteConfig.Capacity), but the code sets DefaultRemoteConfig.Capacity = 10000;" +
				" also 200 as the default of `max_shards` (RemoteConfig.MaxShards), but the code sets DefaultRemoteConfig.MaxShards = 50.",
			suggestion: "# How many samples a shard buffers before reading blocks.\n[ capacity: <int> | default = 10000 ]\n" +
				"# The most shards.\n[ max_shards: <int> | default = 50 ]",
			evidence: append(at("Capacity:  10000", "Capacity: 10000"), at("MaxShards: 50", "MaxShards: 50")...),
		}},
		{name: "configuration reference block that agrees", line: "[ batch_send_deadline: <duration> | default = 5s ]"},
		{name: "default not right after the key", line: "An example value"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := mdClaim(t, ws, "receiver/README.md", tt.line)
			got, err := rule.Judge(t.Context(), ws, c)
			if err != nil {
				t.Fatal(err)
			}
			checkVerdict(t, rule, got, tt.want)
		})
	}
}

// TestLiteralKeyDefaultReference: a configuration reference in the
// Prometheus notation binds a key to the module's one field with that tag,
// wherever the reference sits.
func TestLiteralKeyDefaultReference(t *testing.T) {
	ws := loadWorkspace(t, "configkey")
	c := mdClaim(t, ws, "docs/configuration.md", "[ max_shards: <int> | default = 200 ]")
	got, err := (&LiteralMismatch{}).Judge(t.Context(), ws, c)
	if err != nil {
		t.Fatal(err)
	}
	l := lineOf(t, ws, "receiver/config.go", "MaxShards: 50")
	checkVerdict(t, &LiteralMismatch{}, got, &want{
		label:      review.Contradicted,
		message:    "The doc gives 200 as the default of `max_shards` (RemoteConfig.MaxShards), but the code sets DefaultRemoteConfig.MaxShards = 50.",
		suggestion: "remote_write:\n  # The most shards, i.e. how many sends run at once.\n  [ max_shards: <int> | default = 50 ]",
		evidence:   []ev{{"receiver/config.go", l, l, review.SourceCode, "MaxShards: 50"}},
	})
}

// TestLiteralKeyDefaultFromDependency: a key of a dependency's struct
// that the module's configuration holds takes its default from the
// dependency's constructor the module calls, read from the module cache.
func TestLiteralKeyDefaultFromDependency(t *testing.T) {
	cache, err := filepath.Abs("testdata/keydep/modcache")
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("GOMODCACHE", cache)
	ws := loadWorkspaceWith(t, "keydep", &retrieval.TypeCache{})
	if _, ok := ws.Symbols.DepPackage("example.com/retry"); !ok {
		t.Fatal("example.com/retry was not loaded from the fixture's module cache")
	}
	rule := &LiteralMismatch{}
	call := lineOf(t, ws, "config.go", "BackOffConfig: retry.NewDefaultBackOffConfig()")
	tests := []struct {
		name string
		line string
		want *want
	}{
		{name: "dependency default in another unit", line: "`max_elapsed_time`", want: &want{
			label:      review.Contradicted,
			message:    "The doc gives 120s as the default of `max_elapsed_time` (BackOffConfig.MaxElapsedTime), but the code sets MaxElapsedTime = 5 * time.Minute (5m0s).",
			suggestion: "`max_elapsed_time` (default = 300s): the most time spent on a batch.",
			evidence: []ev{{"config.go", call, call, review.SourceCode,
				"createDefaultConfig sets BackOffConfig = retry.NewDefaultBackOffConfig(), which returns MaxElapsedTime: 5 * time.Minute (@upstream/example.com/retry@v1.2.0/retry.go:22)"}},
		}},
		{name: "dependency default that agrees", line: "`initial_interval` (default"},
		{name: "table row of a dependency's key", line: "| `initial_interval` |", want: &want{
			label:      review.Contradicted,
			message:    "The table gives `10s` as the default of `initial_interval` (BackOffConfig.InitialInterval), but the code sets InitialInterval = 5 * time.Second (5s).",
			suggestion: "| `initial_interval` | Time to wait after the first failure. | `5s` |",
			evidence: []ev{{"config.go", call, call, review.SourceCode,
				"createDefaultConfig sets BackOffConfig = retry.NewDefaultBackOffConfig(), which returns InitialInterval: 5 * time.Second (@upstream/example.com/retry@v1.2.0/retry.go:21)"}},
		}},
		{name: "table row of a dependency's key that agrees", line: "| `max_attempts` |"},
		{name: "through the dependency's constant", line: "`max_attempts`"},
		// A value the dependency computes is no default to compare.
		{name: "computed", line: "`jitter`"},
		// Both dependency structs have an enabled key; the parent item
		// names the retry one, whose default agrees.
		{name: "nested key told apart by its parent", line: "`enabled` (default = true)"},
		// The same key under the queue, which the module does not set.
		{name: "nested key of a holder the module does not set", line: "`enabled` (default = false)"},
		// The module never sets the queue: its default is not the
		// dependency constructor's.
		{name: "holder the module does not set", line: "`queue_size`"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := mdClaim(t, ws, "README.md", tt.line)
			got, err := rule.Judge(t.Context(), ws, c)
			if err != nil {
				t.Fatal(err)
			}
			checkVerdict(t, rule, got, tt.want)
		})
	}
}
