package rules

import (
	"fmt"
	"testing"

	"github.com/docreview/docreview/review"
)

func TestLiteralSleep(t *testing.T) {
	ws := loadWorkspace(t, "sleep")
	ws.Scope = review.ScopeAll
	tests := []struct {
		symbol     string
		message    string // "" for no verdict
		evidence   string // path:line of the time.Sleep call
		suggestion string
	}{
		{"NewSession", "The doc says NewSession sleeps 200ms, but it sleeps 500ms (time.Sleep(500 * time.Millisecond)).", "txn.go:15",
			"NewSession returns a session. After a successful commit the session\nwill sleep for 500ms before it returns."},
		{"Drain", "The doc says Drain sleeps 5 seconds, but it sleeps 4s (time.Sleep(4 * time.Second)).", "txn.go:49",
			"Drain waits for the queue, sleeping for 4 seconds at the end."},
		{"Retry", "", "", ""},        // the same duration in another unit
		{"Session.Poll", "", "", ""}, // a duration the code computes
		{"Backoff", "", "", ""},      // two durations: which one the doc means is not certain
		{"Flush", "", "", ""},        // right, through a callee
	}
	for _, tt := range tests {
		t.Run(tt.symbol, func(t *testing.T) {
			c := goClaim(t, ws, "txn.go", tt.symbol)
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
