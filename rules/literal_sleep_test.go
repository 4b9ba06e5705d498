package rules

import (
	"testing"

	"github.com/docreview/docreview/review"
)

func TestLiteralSleep(t *testing.T) {
	ws := loadWorkspace(t, "sleep")
	ws.Scope = review.ScopeAll
	tests := []funcDocCase{
		{"NewSession", "The doc says NewSession sleeps 200ms, but it sleeps 500ms (time.Sleep(500 * time.Millisecond)).", "txn.go:15",
			"NewSession returns a session. After a successful commit the session\nwill sleep for 500ms before it returns."},
		{"Drain", "The doc says Drain sleeps 5 seconds, but it sleeps 4s (time.Sleep(4 * time.Second)).", "txn.go:49",
			"Drain waits for the queue, sleeping for 4 seconds at the end."},
		{"Retry", "", "", ""},        // the same duration in another unit
		{"Session.Poll", "", "", ""}, // a duration the code computes
		{"Backoff", "", "", ""},      // two durations: which one the doc means is not certain
		{"Flush", "", "", ""},        // right, through a callee
	}
	checkFuncDocCases(t, ws, "txn.go", tests)
}
