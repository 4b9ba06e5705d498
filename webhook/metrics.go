package webhook

import (
	"errors"
	"sync"

	"github.com/prometheus/client_golang/prometheus"
)

// metrics are the server's collectors; see [Server.Registry] for their
// meaning.
type metrics struct {
	deliveries   *prometheus.CounterVec
	accept       prometheus.Histogram
	jobs         *prometheus.CounterVec
	running      prometheus.Gauge
	queueLatency prometheus.Histogram
	duration     *prometheus.HistogramVec
}

// Job transitions counted in docreview_jobs_total.
const (
	jobEnqueued   = "enqueued"
	jobStarted    = "started"
	jobCompleted  = "completed"
	jobSuperseded = "superseded"
	jobRetried    = "retried"
	jobDiscarded  = "discarded"
	jobSnoozed    = "snoozed"
	jobReleased   = "released"
)

func newMetrics(reg prometheus.Registerer) (*metrics, error) {
	m := &metrics{
		deliveries: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "docreview_webhook_deliveries_total",
			Help: "Webhook deliveries by event and outcome.",
		}, []string{"event", "outcome"}),
		accept: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name:    "docreview_webhook_accept_seconds",
			Help:    "Time to answer a POST /webhook, including storing the job.",
			Buckets: []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5},
		}),
		jobs: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "docreview_jobs_total",
			Help: "Review job transitions by state: enqueued, started, completed, superseded, retried, discarded, snoozed, released.",
		}, []string{"state"}),
		running: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "docreview_jobs_running",
			Help: "Review jobs running in this process.",
		}),
		queueLatency: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name:    "docreview_queue_latency_seconds",
			Help:    "Time from a job becoming runnable (enqueued, retry due, snooze over) to the start of its run.",
			Buckets: prometheus.ExponentialBuckets(0.01, 4, 10), // 10 ms .. ~44 min
		}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "docreview_review_duration_seconds",
			Help:    "Duration of Runner.Run (fetch, review, publish) by outcome (ok, error).",
			Buckets: prometheus.ExponentialBuckets(0.5, 2, 12), // 0.5 s .. ~17 min
		}, []string{"outcome"}),
	}
	var done []prometheus.Collector
	for _, c := range m.collectors() {
		if err := reg.Register(c); err != nil {
			for _, d := range done {
				reg.Unregister(d)
			}
			return nil, err
		}
		done = append(done, c)
	}
	// Pre-create the job states, so dashboards see zeros, not gaps.
	for _, st := range []string{jobEnqueued, jobStarted, jobCompleted, jobSuperseded, jobRetried, jobDiscarded, jobSnoozed, jobReleased} {
		m.jobs.WithLabelValues(st)
	}
	m.duration.WithLabelValues("ok")
	m.duration.WithLabelValues("error")
	return m, nil
}

func (m *metrics) collectors() []prometheus.Collector {
	return []prometheus.Collector{m.deliveries, m.accept, m.jobs, m.running, m.queueLatency, m.duration}
}

func (m *metrics) unregister(reg prometheus.Registerer) {
	for _, c := range m.collectors() {
		reg.Unregister(c)
	}
}

// slots bounds the jobs running at once per installation in this process.
type slots struct {
	limit int
	mu    sync.Mutex
	used  map[int64]int
}

func newSlots(limit int) *slots {
	return &slots{limit: limit, used: make(map[int64]int)}
}

// tryAcquire takes a slot for installation id without blocking; it reports
// whether it got one.
func (s *slots) tryAcquire(id int64) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.used[id] >= s.limit {
		return false
	}
	s.used[id]++
	return true
}

// release gives back a slot taken by tryAcquire.
func (s *slots) release(id int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.used[id] <= 0 {
		panic(errors.New("webhook: installation slot released twice"))
	}
	s.used[id]--
	if s.used[id] == 0 {
		delete(s.used, id)
	}
}
