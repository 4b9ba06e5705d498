package roundtrip_test

import (
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/docreview/docreview/review/completeness/roundtrip"
	"github.com/docreview/docreview/review/judge/judgetest/scripted"
)

func TestCoverage(t *testing.T) {
	srv := scripted.New(t, filepath.Join("testdata", "coverage.json"))
	ep := roundtrip.Endpoint{Model: "test-model", BaseURL: srv.URL, APIKey: "sk-test"}
	facts := []string{"error ErrEmpty when s is empty", "error ErrRange when n < 1 || n > 65535", "error *strconv.NumError when s is not a decimal number"}
	const doc = "ParsePort parses a decimal TCP port. It returns ErrEmpty when s is empty."

	// A 503 is retried (after the server's Retry-After-Ms); the answer's
	// indices come back sorted and deduplicated.
	res, err := roundtrip.Coverage(t.Context(), ep, "cfg.ParsePort", doc, facts)
	if err != nil {
		t.Fatalf("Coverage: %v", err)
	}
	if !slices.Equal(res.Stated, []int{0, 2}) || res.PromptTokens == 0 || res.CompletionTokens == 0 {
		t.Errorf("Coverage = %+v, want stated [0 2] and tokens", res)
	}
	if n := srv.RequestsFor("stated"); n != 2 {
		t.Errorf("%d requests, want 2 (one retry)", n)
	}

	if _, err := roundtrip.Coverage(t.Context(), ep, "cfg.Timeout", "Timeout returns d.", facts[:1]); !errors.Is(err, roundtrip.ErrBadCoverage) || !strings.Contains(err.Error(), "index 1 is not one of the 1 facts") {
		t.Errorf("out of range: error = %v", err)
	}
	if _, err := roundtrip.Coverage(t.Context(), ep, "cfg.Join", "Join joins.", facts); !errors.Is(err, roundtrip.ErrBadCoverage) {
		t.Errorf("prose: error = %v, want ErrBadCoverage", err)
	}

	// No facts: no call.
	before := srv.Requests()
	res, err = roundtrip.Coverage(t.Context(), ep, "cfg.X", "X.", nil)
	if err != nil || res.Stated == nil || len(res.Stated) != 0 || srv.Requests() != before {
		t.Errorf("no facts: %+v, %v, %d requests", res, err, srv.Requests()-before)
	}
}
