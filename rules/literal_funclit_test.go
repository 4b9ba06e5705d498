package rules

import (
	"fmt"
	"testing"

	"github.com/docreview/docreview/review"
)

// TestLiteralFuncLitDefault checks numbers stated beside the names of the
// constants of a func-literal default: franz-go's RetryBackoffFn says the
// default backoff tops out at 2.5s while defaultCfg's func declares max
// = 5 * time.Second.
func TestLiteralFuncLitDefault(t *testing.T) {
	ws := loadWorkspace(t, "funclit")
	ws.Scope = review.ScopeAll
	tests := []struct {
		symbol     string
		message    string // "" for no verdict
		evidence   string // path:line of the constant
		suggestion string
	}{
		{"RetryBackoffFn", "The doc gives 2.5s for cfg.retryBackoff's default max, but the code sets max = 5 * time.Second (5s).", "config.go:21",
			"RetryBackoffFn sets the backoff, overriding the default jittery\nexponential backoff that ranges from 250ms min to 5s max."},
		// The same value in another unit.
		{"DialBackoffFn", "", "", ""},
		// 10s is beside no constant's name: "at most" names none.
		{"PollBackoffFn", "", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.symbol, func(t *testing.T) {
			c := goClaim(t, ws, "config.go", tt.symbol)
			got, err := (&LiteralMismatch{}).Judge(t.Context(), ws, c)
			if err != nil {
				t.Fatal(err)
			}
			if !checkContradicted(t, got, tt.message, equal) {
				return
			}
			if len(got.Evidence) == 0 || fmt.Sprintf("%s:%d", got.Evidence[0].Path, got.Evidence[0].StartLine) != tt.evidence {
				t.Errorf("evidence %+v, want %s", got.Evidence, tt.evidence)
			}
			if got.Suggestion != tt.suggestion {
				t.Errorf("suggestion %q, want %q", got.Suggestion, tt.suggestion)
			}
		})
	}
}
