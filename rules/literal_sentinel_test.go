package rules

import (
	"testing"

	"github.com/docreview/docreview/review"
)

func TestLiteralSentinel(t *testing.T) {
	ws := loadWorkspace(t, "sentinel")
	ws.Scope = review.ScopeAll
	tests := []struct {
		symbol   string
		message  string // "" for no verdict
		evidence string // the fallback's assignment, a line of pool.go
	}{
		{"Options.IdleTimeout", `The doc of Options.IdleTimeout says "A negative value disables it", but New replaces a negative IdleTimeout with 5m0s (if o.IdleTimeout <= 0 { o.IdleTimeout = 5 * time.Minute }).`, "o.IdleTimeout = 5 * time.Minute"},
		{"Options.MaxConns", `The doc of Options.MaxConns says "Zero means no limit", but New replaces a zero MaxConns with 100 (if o.MaxConns == 0 { o.MaxConns = 100 }).`, "o.MaxConns = 100"},
		{"Options.Lifetime", `The doc of Options.Lifetime says "Zero means it lives forever", but New replaces a zero Lifetime with 1h0m0s (if o.Lifetime == 0 { o.Lifetime = time.Hour }).`, "o.Lifetime = time.Hour"},
		{"WithMaxConns", `The doc of WithMaxConns says "zero means no limit", but New replaces a zero MaxConns with 100 (if o.MaxConns == 0 { o.MaxConns = 100 }).`, "o.MaxConns = 100"},
		{"WithReadTimeout", `The doc of WithReadTimeout says "a negative value disables the timeout", but New replaces a negative ReadTimeout with 30s (if o.ReadTimeout < 0 { o.ReadTimeout = 30 * time.Second }).`, "o.ReadTimeout = 30 * time.Second"},
		{"Options.Redials", `The doc of Options.Redials says "Zero disables redials", but New replaces a zero Redials with 2 (if o.Redials == 0 { o.Redials = 2 }).`, "o.Redials = 2"},
		{"Options.Deadline", "The doc gives no deadline as the default of Options.Deadline, but the code sets o.Deadline = 10 * time.Second (10s).", "o.Deadline = 10 * time.Second"},
		{"Options.MaxBody", "The doc gives unlimited as the default of Options.MaxBody, but the code sets o.MaxBody = 1 << 20 (1048576).", "o.MaxBody = 1 << 20"},
		{"Options.MaxHeader", "", ""},   // the default stands for no limit
		{"Options.Spare", "", ""},       // the sentence names another field
		{"Options.Idle", "", ""},        // no default in the code
		{"Options.Retries", "", ""},     // -1 disables, and the switch makes it 0; zero is set aside
		{"Options.MaxRetries", "", ""},  // the fallback is for zero; the doc's negative value keeps its meaning
		{"Options.Backlog", "", ""},     // negative becomes 0, which is the doc's unbounded
		{"Options.ReadTimeout", "", ""}, // only a negative value is replaced
		{"Options.Burst", "", ""},       // the clause names another field
		{"Options.Window", "", ""},      // the doc says zero does not disable it
		{"Options.MaxIdle", "", ""},     // the fallback's value stands for no limit
		{"Options.Attempts", "", ""},    // one attempt is no retry
		{"Options.Queue", "", ""},       // zero uses DefaultQueue, as the doc says
		{"WithBacklog", "", ""},         // the option gives zero a meaning itself
	}
	for _, tt := range tests {
		t.Run(tt.symbol, func(t *testing.T) {
			c := goClaim(t, ws, "pool.go", tt.symbol)
			got, err := (&LiteralMismatch{}).Judge(t.Context(), ws, c)
			if err != nil {
				t.Fatal(err)
			}
			if !checkContradicted(t, got, tt.message, equal) {
				return
			}
			line := lineOf(t, ws, "pool.go", tt.evidence)
			if len(got.Evidence) == 0 || got.Evidence[0].Path != "pool.go" || got.Evidence[0].StartLine != line {
				t.Errorf("evidence %+v, want pool.go:%d", got.Evidence, line)
			}
		})
	}
}
