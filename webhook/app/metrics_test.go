package app

import (
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/docreview/docreview/review"
)

func TestMetrics(t *testing.T) {
	reg := prometheus.NewRegistry()
	m, err := NewMetrics(reg)
	if err != nil {
		t.Fatal(err)
	}
	m.published(6)
	m.published(4)
	m.rateLimit(7, 4321)
	m.reviewed(review.Report{Stats: review.Stats{Model: &review.ModelStats{PromptTokens: 3000, CompletionTokens: 120}}})
	m.reviewed(review.Report{}) // rules only: nothing
	want := `
# HELP docreview_github_rate_limit_remaining Core API requests left for an installation, as last read before a job.
# TYPE docreview_github_rate_limit_remaining gauge
docreview_github_rate_limit_remaining{installation="7"} 4321
# HELP docreview_github_requests_total GitHub API requests the publisher made, retries included.
# TYPE docreview_github_requests_total counter
docreview_github_requests_total 10
# HELP docreview_model_tokens_total Tokens the LLM judge spent, by kind (prompt, completion).
# TYPE docreview_model_tokens_total counter
docreview_model_tokens_total{kind="completion"} 120
docreview_model_tokens_total{kind="prompt"} 3000
`
	if err := testutil.GatherAndCompare(reg, strings.NewReader(want)); err != nil {
		t.Error(err)
	}
	if _, err := NewMetrics(reg); err == nil {
		t.Error("registering twice: want an error")
	}
	var none *Metrics
	none.published(1) // a nil *Metrics records nothing and does not panic
	none.rateLimit(1, 1)
	none.reviewed(review.Report{})
}
