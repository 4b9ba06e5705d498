package judge_test

import (
	"os"
	"testing"
	"time"

	"github.com/docreview/docreview/review"
	"github.com/docreview/docreview/review/judge"
)

// TestLiveEndpoint judges two claims of testdata/shop with a real model.
// It runs only when DOCREVIEW_LIVE_OPENAI is set, with OPENAI_API_KEY,
// OPENAI_BASE_URL (default OpenAI) and DOCREVIEW_MODEL (default
// gpt-4.1-mini).
func TestLiveEndpoint(t *testing.T) {
	if os.Getenv("DOCREVIEW_LIVE_OPENAI") == "" {
		t.Skip("DOCREVIEW_LIVE_OPENAI not set")
	}
	model := os.Getenv("DOCREVIEW_MODEL")
	if model == "" {
		model = "gpt-4.1-mini"
	}
	j, err := judge.New(judge.Options{
		Model: model, BaseURL: os.Getenv("OPENAI_BASE_URL"), APIKey: os.Getenv("OPENAI_API_KEY"),
		CallTimeout: 90 * time.Second, ReviewTokenBudget: 60000,
	})
	if err != nil {
		t.Fatal(err)
	}
	ws := shop(t, nil)
	outs, st := j.JudgeClaims(t.Context(), ws, items(claimLimit, claimAdd))
	for i, o := range outs {
		t.Logf("claim %d: %+v", i, summarize(outs)[i])
		if o.Verdict != nil {
			t.Logf("  message: %s\n  suggestion: %s", o.Verdict.Message, o.Verdict.Suggestion)
			for _, e := range o.Verdict.Evidence {
				if e.Snippet == "" {
					t.Errorf("kept evidence without text: %+v", e)
				}
			}
		}
	}
	t.Logf("stats: %+v", st)
	if st.Calls == 0 {
		t.Error("no model call made")
	}
	if o := outs[0]; o.Verdict != nil && o.Verdict.Label != review.Contradicted {
		t.Errorf("README claims a limit of 100 where MaxHold is 50; kept label %s", o.Verdict.Label)
	}
	if o := outs[1]; o.Verdict != nil && o.Verdict.Label == review.Contradicted {
		t.Errorf("Add's doc is right; kept a contradicted finding: %+v", o.Verdict)
	}
}
