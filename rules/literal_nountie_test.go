package rules

import (
	"fmt"
	"strings"
	"testing"

	"github.com/docreview/docreview/review"
)

// TestLiteralTopicDefault covers a default a doc states for something its
// words name ("the default session timeout is 10s"), compared with the
// package's constants and field defaults whose names those words make up.
func TestLiteralTopicDefault(t *testing.T) {
	ws := loadWorkspace(t, "topicdefault")
	ws.Scope = review.ScopeAll
	tests := []struct {
		symbol   string // a doc comment of config.go, else
		md       string // a claim of README.md containing this
		message  string // "" for no verdict
		evidence string // path:line of the value
	}{
		{symbol: "InstanceID", message: "The doc gives 10s as the default of cfg.sessionTimeout, but defaultCfg sets sessionTimeout = 45000 * time.Millisecond (45s).", evidence: "config.go:27"},
		{symbol: "MaxRange", message: "The doc gives 10,000,000 as the default of defaultMaxRangeSize, but defaultMaxRangeSize is 1_000_000 (1000000).", evidence: "config.go:7"},
		{md: "session timeout", message: "The doc gives 30 seconds as the default of cfg.sessionTimeout", evidence: "config.go:27"},
		{symbol: "Heartbeat"},    // right, in another unit
		{symbol: "Frames"},       // right: 1 MiB is 1 << 20
		{symbol: "Retries"},      // two fields called retries, 5 and 7: which one is not certain
		{symbol: "Port"},         // an example, not the default
		{symbol: "Session"},      // about the past
		{symbol: "Backoff"},      // no words name a constant or field
		{symbol: "Fetch"},        // "fetch timeout" is not cfg.timeout: another word qualifies it
		{symbol: "Join"},         // an approximate number
		{symbol: "maxMessage"},   // arithmetic the doc writes out: 1 GB - 1 KB is the value
		{symbol: "priority"},     // RFC 9218 names a document, not a number of streams
		{symbol: "encode"},       // DefaultCompression is an enum member, not a level
		{md: "acquiring 3 keys"}, // the sentence states the default key majority itself, right; 3 counts the keys
		{symbol: "Rejoin"},       // the func's own 10 * time.Second, not cfg.sessionTimeout
		{symbol: "SendAsync"},    // names producerOptions.MaxPendingMessages, not the chunked messages of readerOptions
	}
	for _, tt := range tests {
		name := tt.symbol
		if name == "" {
			name = "README " + tt.md
		}
		t.Run(name, func(t *testing.T) {
			var c review.Claim
			if tt.symbol != "" {
				c = goClaim(t, ws, "config.go", tt.symbol)
			} else {
				c = mdClaim(t, ws, "README.md", tt.md)
			}
			got, err := (&LiteralMismatch{}).Judge(t.Context(), ws, c)
			if err != nil {
				t.Fatal(err)
			}
			if !checkContradicted(t, got, tt.message, strings.Contains) {
				return
			}
			if len(got.Evidence) == 0 || fmt.Sprintf("%s:%d", got.Evidence[0].Path, got.Evidence[0].StartLine) != tt.evidence {
				t.Errorf("evidence %+v, want %s", got.Evidence, tt.evidence)
			}
		})
	}
}
