package rules

import (
	"fmt"
	"testing"

	"github.com/docreview/docreview/review"
)

func TestLiteralLocalConst(t *testing.T) {
	ws := loadWorkspace(t, "localconst")
	ws.Scope = review.ScopeAll
	tests := []funcDocCase{
		{"Exponential", "The doc of Exponential says multi = 1.5, but the func declares const multi = 1.618.", "backoff.go:16",
			"Exponential computes the delay before attempt i.\n\nThe formula is base * multi^(attempt + 1).\n\nWith base = 200ms and multi = 1.618, the first delays are 300ms and 450ms."},
		{"Linear", "The doc of Linear says step = 2s, but the func declares const step = 3 * time.Second.", "backoff.go:23",
			"Linear waits step = 3s longer each time."},
		{"Capped", "", "", ""}, // right, and "limit = 2 * base" is an expression, not a value
		{"Jitter", "", "", ""}, // right; the number in ms is no const's
		{"Window", "", "", ""}, // a variable is no constant
		{"Steps", "", "", ""},  // two constants named n: which one is not certain
	}
	checkFuncDocCases(t, ws, "backoff.go", tests)
}

func TestLiteralRetryCount(t *testing.T) {
	ws := loadWorkspace(t, "localconst")
	ws.Scope = review.ScopeAll
	tests := []funcDocCase{
		{"Listen", "The doc of Listen says 100 times, but its loop runs 50 times (for attempts := 0; attempts < 50; attempts++).", "retry.go:16",
			"Listen opens the port. If it fails, it waits and retries up to 50\ntimes."},
		{"Dial", "", "", ""}, // right, through a named constant and "<="
		{"Send", "", "", ""}, // three retries are four attempts
		{"Fill", "", "", ""}, // another loop: which one retries is not certain
		{"Poll", "", "", ""}, // a loop that never stops early is no retry loop
	}
	checkFuncDocCases(t, ws, "retry.go", tests)
}

func TestLiteralFileMode(t *testing.T) {
	ws := loadWorkspace(t, "localconst")
	ws.Scope = review.ScopeAll
	tests := []funcDocCase{
		{"TempFile", "The doc of TempFile gives mode 0644, but it uses defaultPerm (0600).", "filemode.go:12",
			"TempFile creates the file. The file's permissions will be 0600. You can\nchange these by calling Chmod."},
		{"WriteAll", "", "", ""}, // right, written 0o644
		{"Mkdir", "", "", ""},    // two modes: which one the doc means is not certain
		{"Save", "", "", ""},     // a mode the caller passes
	}
	checkFuncDocCases(t, ws, "filemode.go", tests)
}

// funcDocCase is a func whose doc comment a literal-mismatch check of
// the func's own body reads: the message wanted ("" for no verdict), the
// evidence's path:line and the suggestion.
type funcDocCase struct {
	symbol, message, evidence, suggestion string
}

// checkFuncDocCases judges the doc comment of each case's func in path.
func checkFuncDocCases(t *testing.T, ws *review.Workspace, path string, tests []funcDocCase) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.symbol, func(t *testing.T) {
			c := goClaim(t, ws, path, tt.symbol)
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
