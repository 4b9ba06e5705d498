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
