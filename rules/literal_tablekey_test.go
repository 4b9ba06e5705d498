package rules

import (
	"testing"

	"github.com/docreview/docreview/review"
)

// TestLiteralTableKey: a configuration reference table row states the
// default of the constant named as its key's default.
func TestLiteralTableKey(t *testing.T) {
	ws := loadWorkspace(t, "tablekey")
	ws.Scope = review.ScopeAll
	rule := &LiteralMismatch{}
	tests := []struct {
		name string
		row  string // the row of docs/configuration.md containing this
		want *want
	}{
		{name: "Default column against a Duration type of the module's own", row: "healthCheck.interval`", want: &want{
			label:      review.Contradicted,
			message:    "The table gives 100ms as the default of services[m].healthCheck.interval, but DefaultHealthCheckInterval is Duration(30 * time.Second) (30s).",
			suggestion: "| <a id=\"opt-interval\">`services[m].`<br />`healthCheck.interval`</a> | Frequency of the health check calls for healthy targets. | \"30000ms\" | No |",
			evidence:   []ev{{"health/health.go", 11, 11, review.SourceCode, "DefaultHealthCheckInterval = Duration(30 * time.Second)"}},
		}},
		{name: "a sentence of the description against a cell that agrees", row: "buffer_size_limit_events", want: &want{
			label:      review.Contradicted,
			message:    "The table gives 100 events as the default of decision_logs.reporting.buffer_size_limit_events, but defaultBufferSizeLimitEvents is int64(10000) (10000).",
			suggestion: "| `decision_logs.reporting.buffer_size_limit_events` | `int64` | No (default: `10000`) | Decision log buffer size limit by events. By default, 10000 events are held. |",
			evidence:   []ev{{"logs/plugin.go", 5, 5, review.SourceCode, "defaultBufferSizeLimitEvents = int64(10000)"}},
		}},
		// The key's last part is about unhealthy targets, which
		// DefaultHealthCheckInterval's name does not say.
		{name: "key qualified beyond the constant", row: "unhealthyInterval"},
		{name: "default that agrees in another unit", row: "healthCheck.timeout"},
		{name: "string default", row: "healthCheck.path"},
		// 8192 bytes is advice, not a default.
		{name: "number without the word default", row: "upload_size_limit_bytes"},
		// DefaultReadTimeout is the entry point's; SetDefaults' local
		// defaultReadTimeout is another default of the same words.
		{name: "two defaults of the key's words", row: "redis.readTimeout"},
		// paerser's types are not loaded: the conversion keeps the value
		// of its operand.
		{name: "conversion to a type of a package not loaded", row: "retry.backoff", want: &want{
			label:      review.Contradicted,
			message:    "The table gives 100ms as the default of retry.backoff, but DefaultRetryBackoff is ptypes.Duration(250 * time.Millisecond) (250ms).",
			suggestion: "| `retry.backoff` | Pause before the first retry. | 250ms | No |",
			evidence:   []ev{{"retry/retry.go", 14, 14, review.SourceCode, "DefaultRetryBackoff = ptypes.Duration(250 * time.Millisecond)"}},
		}},
		// ptypes.Parse is a func of that package, not a conversion: its
		// result is unknown.
		{name: "call of a func of a package not loaded", row: "retry.deadline"},
		// No constant is named for buffer_size_limit_bytes.
		{name: "key naming no constant", row: "buffer_size_limit_bytes"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := mdClaim(t, ws, "docs/configuration.md", tt.row)
			got, err := rule.Judge(t.Context(), ws, c)
			if err != nil {
				t.Fatal(err)
			}
			checkVerdict(t, rule, got, tt.want)
		})
	}
}
