package app

import (
	"fmt"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/docreview/docreview/review"
)

// Metrics are the Runner's Prometheus metrics: GitHub API requests made by
// the publisher, the installation's remaining core rate limit as last
// read, and the model's tokens. A nil *Metrics records nothing.
type Metrics struct {
	githubRequests prometheus.Counter
	rateRemaining  *prometheus.GaugeVec
	modelTokens    *prometheus.CounterVec
}

// NewMetrics registers the Runner's metrics on reg:
// docreview_github_requests_total, docreview_github_rate_limit_remaining
// {installation} and docreview_model_tokens_total{kind} (prompt,
// completion). It fails when one is already registered.
func NewMetrics(reg prometheus.Registerer) (*Metrics, error) {
	m := &Metrics{
		githubRequests: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "docreview_github_requests_total", Help: "GitHub API requests the publisher made, retries included.",
		}),
		rateRemaining: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "docreview_github_rate_limit_remaining", Help: "Core API requests left for an installation, as last read before a job.",
		}, []string{"installation"}),
		modelTokens: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "docreview_model_tokens_total", Help: "Tokens the LLM judge spent, by kind (prompt, completion).",
		}, []string{"kind"}),
	}
	for _, c := range []prometheus.Collector{m.githubRequests, m.rateRemaining, m.modelTokens} {
		if err := reg.Register(c); err != nil {
			return nil, fmt.Errorf("register runner metrics: %w", err)
		}
	}
	return m, nil
}

func (m *Metrics) published(requests int) {
	if m != nil && requests > 0 {
		m.githubRequests.Add(float64(requests))
	}
}

func (m *Metrics) rateLimit(installation int64, remaining int) {
	if m != nil {
		m.rateRemaining.WithLabelValues(fmt.Sprint(installation)).Set(float64(remaining))
	}
}

func (m *Metrics) reviewed(rep review.Report) {
	if m == nil || rep.Stats.Model == nil {
		return
	}
	m.modelTokens.WithLabelValues("prompt").Add(float64(rep.Stats.Model.PromptTokens))
	m.modelTokens.WithLabelValues("completion").Add(float64(rep.Stats.Model.CompletionTokens))
}
