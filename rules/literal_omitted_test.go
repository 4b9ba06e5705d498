package rules

import (
	"testing"

	"github.com/docreview/docreview/review"
)

// TestLiteralOmittedDefault: a field its constructor leaves out and no
// code replaces when zero defaults to zero, whatever its doc or its
// option's doc says; a comparison, a struct tag or a parameter with a
// fallback of its own leaves the default unknown.
func TestLiteralOmittedDefault(t *testing.T) {
	ws := loadWorkspace(t, "omitted")
	ws.Scope = review.ScopeAll
	tests := []funcDocCase{
		{"WithCacheExpiry", "The doc gives 24 hours for WithCacheExpiry, but NewExecutor leaves Executor.CacheExpiry out, and no code replaces its zero (0s).", "executor.go:38", ""},
		{"Executor.Retention", "The doc gives 24h for Executor.Retention, but NewExecutor leaves Executor.Retention out, and no code replaces its zero (0s).", "executor.go:38", ""},
		{"WithTimeout", "", "", ""},       // right: NewExecutor sets 10 * time.Second
		{"Executor.Window", "", "", ""},   // compared with zero: what zero means is the code's
		{"Executor.Grace", "", "", ""},    // handed to a parameter with a fallback of its own
		{"Executor.Interval", "", "", ""}, // a struct tag can hand it to a decoder
	}
	checkFuncDocCases(t, ws, "executor.go", tests)
}

// TestLiteralPassedCopy: a field copied into a literal handed to a func
// whose parameter's method gives the copy a default when zero has that
// default.
func TestLiteralPassedCopy(t *testing.T) {
	ws := loadWorkspace(t, "omitted")
	ws.Scope = review.ScopeAll
	tests := []funcDocCase{
		{"ClientConfig.Retries", "The doc gives 3 for ClientConfig.Retries, but the code sets cfg.retries = 5.", "client.go:46", "Retries is how many times a request is tried. Defaults to 5."},
		{"ClientConfig.Backoff", "", "", ""}, // right
	}
	checkFuncDocCases(t, ws, "client.go", tests)
}

// TestLiteralDefaultPhrasings: defaults stated as people write them, each
// bound to the field's one default: a field of the type the doc is
// about written bare after "If no", a sentence that opens with
// "Default", a number followed by its noun and "by default", and an
// integer field whose doc says what unit it counts.
func TestLiteralDefaultPhrasings(t *testing.T) {
	ws := loadWorkspace(t, "omitted")
	ws.Scope = review.ScopeAll
	tests := []struct {
		text, message string
	}{
		{"If no HeaderTimeout is set", "The doc gives 200ms for Listener.HeaderTimeout, but DefaultHeaderTimeout is 10 * time.Second (10s)."},
		{"Retry interval in ms", "The doc gives 30s for Options.retryInterval, but the code sets retryInterval = 1000 (1s)."},
		{"Interval, in ms, after which", ""}, // right: 1000 in ms
		{"Number of points sent", ""},        // right
		{"caches at most 1000 messages", "The doc gives 1000 messages for Queue.Threshold, but the code sets q.Threshold = 1024."},
		{"waits 5 seconds between polls", ""}, // right
		{"the server uses the default 4MB", "The doc gives 4MB for serverOptions.maxSend, but the code sets maxSend = defaultMaxSend (1073741824 bytes)."},
		{"overrides default 120ms", "The doc gives 120ms for serverOptions.rate, but the code sets rate = 150 * time.Millisecond (150ms)."},
		{"It is \"2m\" by default", "The doc gives \"2m\" as the default of serverOptions.keepAlive, but the code sets keepAlive = \"5m\"."},
		{"The default delimiter", ""}, // right; the flag is an example of what the default gives
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			c := resolvedClaim(t, ws, "conn.go", tt.text)
			got, err := (&LiteralMismatch{}).Judge(t.Context(), ws, c)
			if err != nil {
				t.Fatal(err)
			}
			checkContradicted(t, got, tt.message, equal)
		})
	}
}
