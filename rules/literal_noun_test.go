package rules

import (
	"fmt"
	"testing"

	"github.com/docreview/docreview/review"
)

func TestLiteralNounValue(t *testing.T) {
	ws := loadWorkspace(t, "nounvalue")
	ws.Scope = review.ScopeAll
	tests := []struct {
		symbol   string
		message  string // "" for no verdict
		evidence string // path:line of the assignment
	}{
		{"NewErrFetch", "The doc says NewErrFetch gives partition 0, but it sets Partition to -1.", "fetch.go:24"},
		// The read timeout is wrong; the timeout, the size (1 MiB) and the
		// buffer (no such field) are not.
		{"NewClient", "The doc says NewClient gives read timeout 5 seconds, but it sets ReadTimeout to 10 * time.Second.", "fetch.go:31"},
		{"Sized", "The doc says Sized gives size 4096, but it sets Size to 2048.", "fetch.go:50"}, // through a callee
		{"Dial", "", ""},    // two ports: which one the doc means is not certain
		{"Legacy", "", ""},  // a string field is not compared with a number
		{"Fine", "", ""},    // right in other units; no field is called buffer
		{"Accept", "", ""},  // a callee sets the status code only when rate limited
		{"Resized", "", ""}, // a number of the doc's code block is an example
	}
	for _, tt := range tests {
		t.Run(tt.symbol, func(t *testing.T) {
			c := goClaim(t, ws, "fetch.go", tt.symbol)
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
		})
	}
}
