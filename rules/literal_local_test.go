package rules

import (
	"fmt"
	"testing"

	"github.com/docreview/docreview/review"
)

func TestLiteralLocalConst(t *testing.T) {
	ws := loadWorkspace(t, "localconst")
	ws.Scope = review.ScopeAll
	tests := []struct {
		symbol     string
		message    string // "" for no verdict
		evidence   string // path:line of the constant
		suggestion string
	}{
		{"Exponential", "The doc of Exponential says multi = 1.5, but the func declares const multi = 1.618.", "backoff.go:16",
			"Exponential computes the delay before attempt i.\n\nThe formula is base * multi^(attempt + 1).\n\nWith base = 200ms and multi = 1.618, the first delays are 300ms and 450ms."},
		{"Linear", "The doc of Linear says step = 2s, but the func declares const step = 3 * time.Second.", "backoff.go:23",
			"Linear waits step = 3s longer each time."},
		{"Capped", "", "", ""}, // right, and "limit = 2 * base" is an expression, not a value
		{"Jitter", "", "", ""}, // right; the number in ms is no const's
		{"Window", "", "", ""}, // a variable is no constant
		{"Steps", "", "", ""},  // two constants named n: which one is not certain
	}
	for _, tt := range tests {
		t.Run(tt.symbol, func(t *testing.T) {
			c := goClaim(t, ws, "backoff.go", tt.symbol)
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

func TestLiteralRetryCount(t *testing.T) {
	ws := loadWorkspace(t, "localconst")
	ws.Scope = review.ScopeAll
	tests := []struct {
		symbol     string
		message    string // "" for no verdict
		evidence   string // path:line of the loop
		suggestion string
	}{
		{"Listen", "The doc of Listen says 100 times, but its loop runs 50 times (for attempts := 0; attempts < 50; attempts++).", "retry.go:16",
			"Listen opens the port. If it fails, it waits and retries up to 50\ntimes."},
		{"Dial", "", "", ""}, // right, through a named constant and "<="
		{"Send", "", "", ""}, // three retries are four attempts
		{"Fill", "", "", ""}, // another loop: which one retries is not certain
		{"Poll", "", "", ""}, // a loop that never stops early is no retry loop
	}
	for _, tt := range tests {
		t.Run(tt.symbol, func(t *testing.T) {
			c := goClaim(t, ws, "retry.go", tt.symbol)
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

func TestLiteralFileMode(t *testing.T) {
	ws := loadWorkspace(t, "localconst")
	ws.Scope = review.ScopeAll
	tests := []struct {
		symbol     string
		message    string // "" for no verdict
		evidence   string // path:line of the mode
		suggestion string
	}{
		{"TempFile", "The doc of TempFile gives mode 0644, but it uses defaultPerm (0600).", "filemode.go:12",
			"TempFile creates the file. The file's permissions will be 0600. You can\nchange these by calling Chmod."},
		{"WriteAll", "", "", ""}, // right, written 0o644
		{"Mkdir", "", "", ""},    // two modes: which one the doc means is not certain
		{"Save", "", "", ""},     // a mode the caller passes
	}
	for _, tt := range tests {
		t.Run(tt.symbol, func(t *testing.T) {
			c := goClaim(t, ws, "filemode.go", tt.symbol)
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
