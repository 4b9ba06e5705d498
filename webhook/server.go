package webhook

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Runner runs a [Job]: fetch the repository, review, publish. The queue
// workers call it; an error is retried with backoff (at most 5 attempts), so
// Run must be safe to repeat (the publisher is idempotent). Run must return
// promptly when ctx is done.
type Runner interface {
	Run(ctx context.Context, job Job) error
}

// Config configures a [Server]. Zero values are documented per field.
type Config struct {
	// DataDir holds the SQLite queue file DataDir/queue.db when DatabaseURL
	// is "". It is created if missing.
	// One server owns a SQLite queue (a lock file beside it): a second one
	// on the same directory is refused, and at start the owner makes the
	// jobs a crashed predecessor left running available again at once.
	DataDir string
	// DatabaseURL, when set (postgres://...), puts the queue in PostgreSQL
	// (River with pgx), so several replicas share it.
	DatabaseURL string
	// Secret is the webhook secret. Required, non-empty: NewServer fails
	// without it (an empty secret would verify nothing).
	Secret []byte
	// MaxBody is the largest delivery accepted, in bytes; larger ones get
	// 413. 0 means 25 MiB (GitHub caps payloads at 25 MB).
	MaxBody int64
	// PreAuthBytes bounds the bytes of deliveries larger than 1 MiB held
	// before their signature is checked, across all requests: with the
	// 8 MiB kept for smaller deliveries (GitHub's ordinary ones, which a
	// flood of large bodies therefore never delays), the memory anyone who
	// can reach the server can make it use. A delivery whose body finds
	// its share spent waits PreAuthWait for it, then gets 503. 0 means
	// twice MaxBody plus 256 KiB; it is raised to that when smaller, so
	// that a largest delivery always fits.
	PreAuthBytes int64
	// PreAuthWait is how long a delivery waits for pre-authentication
	// budget; 0 means 10 seconds.
	PreAuthWait time.Duration
	// BodyTimeout is how long a delivery's body may take to arrive, from
	// the handler's start; 0 means 15 seconds (GitHub itself gives up on
	// a delivery after 10).
	BodyTimeout time.Duration
	// ReviewDrafts queues reviews for draft pull requests too. By default
	// drafts are skipped until ready_for_review.
	ReviewDrafts bool
	// Workers is the number of jobs run at once by this process; 0 means 4.
	Workers int
	// PerInstallation is the number of jobs run at once for one installation
	// by this process; 0 means 2. It is capped at Workers.
	PerInstallation int
	// Runner runs the jobs. Required.
	Runner Runner
	// Logger receives structured logs (delivery_id, repo, pr, ...); nil
	// discards them.
	Logger *slog.Logger
	// Registry receives the docreview_* metrics and is served on /metrics;
	// nil means a new registry with the Go and process collectors.
	Registry *prometheus.Registry

	// JobTimeout bounds one run of a job; 0 means 10 minutes.
	JobTimeout time.Duration
	// RescueAfter is how long a job may stay running before River considers
	// its worker dead (process killed) and runs it again; 0 means JobTimeout
	// plus 2 minutes. It must not be less than JobTimeout.
	RescueAfter time.Duration
}

// Defaults for the zero values of [Config].
const (
	DefaultMaxBody         = 25 << 20
	DefaultWorkers         = 4
	DefaultPerInstallation = 2
	DefaultJobTimeout      = 10 * time.Minute
	DefaultBodyTimeout     = 15 * time.Second
	defaultPreAuthWait     = 10 * time.Second
	defaultRescueMargin    = 2 * time.Minute
)

const (
	maxAttempts        = 5
	retention          = 7 * 24 * time.Hour  // delivery ids and completed jobs
	headRetention      = 90 * 24 * time.Hour // latest head per pull request
	pruneEvery         = time.Hour
	slotSnooze         = 3 * time.Second // waiting for an installation slot
	headSnooze         = 2 * time.Second // waiting for another review of the same head
	readyTimeout       = 2 * time.Second
	enqueueTimeout     = 10 * time.Second
	defaultGrace       = 25 * time.Second // soft stop when Shutdown's ctx has no deadline
	hardStopReserve    = 3 * time.Second  // of Shutdown's deadline, kept for the hard stop
	sqliteFile         = "queue.db"
	sqliteBusyTimeout  = 10000 // ms
	fetchPollInterval  = 250 * time.Millisecond
	stoppedJobsMessage = "shutting down"
)

// Server is the GitHub App webhook server and its queue workers. Create it
// with [NewServer]; it is safe for concurrent use.
type Server struct {
	cfg     Config
	log     *slog.Logger
	q       queue
	metrics *metrics
	reg     *prometheus.Registry
	mux     *http.ServeMux

	closing  atomic.Bool // Shutdown began: refuse deliveries, not ready
	stopping atomic.Bool // hard stop: interrupted jobs are snoozed, not failed

	// preAuth is the budget of body bytes held before authentication.
	preAuth *preAuthBudget
	// chunks are the reused *[bigChunk]byte buffers of large bodies.
	chunks sync.Pool

	mu         sync.Mutex
	started    bool
	shutdown   bool
	stopPrune  context.CancelFunc
	pruneDone  chan struct{}
	slots      *slots
	closeQueue sync.Once
}

// NewServer validates cfg, opens the queue database (SQLite at
// DataDir/queue.db, or PostgreSQL at DatabaseURL), runs River's and
// docreview's migrations and registers the metrics. Zero fields of cfg
// take DefaultMaxBody, DefaultWorkers, DefaultPerInstallation and
// DefaultJobTimeout. It fails without a secret or a Runner. Call [Server.Start] to run jobs and [Server.Shutdown]
// to release everything.
func NewServer(ctx context.Context, cfg Config) (*Server, error) {
	if len(cfg.Secret) == 0 {
		return nil, errors.New("webhook: a webhook secret is required (an empty secret verifies nothing)")
	}
	if cfg.Runner == nil {
		return nil, errors.New("webhook: a Runner is required")
	}
	if cfg.DatabaseURL == "" && cfg.DataDir == "" {
		return nil, errors.New("webhook: a data directory or a database URL is required")
	}
	if cfg.MaxBody <= 0 {
		cfg.MaxBody = DefaultMaxBody
	}
	cfg.PreAuthBytes = max(cfg.PreAuthBytes, 2*cfg.MaxBody+readChunk)
	if cfg.PreAuthWait <= 0 {
		cfg.PreAuthWait = defaultPreAuthWait
	}
	if cfg.BodyTimeout <= 0 {
		cfg.BodyTimeout = DefaultBodyTimeout
	}
	if cfg.Workers <= 0 {
		cfg.Workers = DefaultWorkers
	}
	if cfg.PerInstallation <= 0 {
		cfg.PerInstallation = DefaultPerInstallation
	}
	cfg.PerInstallation = min(cfg.PerInstallation, cfg.Workers)
	if cfg.JobTimeout <= 0 {
		cfg.JobTimeout = DefaultJobTimeout
	}
	if cfg.RescueAfter <= 0 {
		cfg.RescueAfter = cfg.JobTimeout + defaultRescueMargin
	}
	if cfg.RescueAfter < cfg.JobTimeout {
		return nil, fmt.Errorf("webhook: RescueAfter (%s) is less than JobTimeout (%s)", cfg.RescueAfter, cfg.JobTimeout)
	}
	cfg.Secret = append([]byte(nil), cfg.Secret...)
	log := cfg.Logger
	if log == nil {
		log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	reg := cfg.Registry
	if reg == nil {
		reg = prometheus.NewRegistry()
		if err := reg.Register(collectors.NewGoCollector()); err != nil {
			return nil, fmt.Errorf("webhook: register Go collector: %w", err)
		}
		if err := reg.Register(collectors.NewProcessCollector(collectors.ProcessCollectorOpts{})); err != nil {
			return nil, fmt.Errorf("webhook: register process collector: %w", err)
		}
	}
	m, err := newMetrics(reg)
	if err != nil {
		return nil, fmt.Errorf("webhook: register metrics: %w", err)
	}
	s := &Server{
		cfg:     cfg,
		log:     log,
		metrics: m,
		reg:     reg,
		slots:   newSlots(cfg.PerInstallation),
		preAuth: newPreAuthBudget(cfg.PreAuthBytes),
	}
	w := &reviewWorker{s: s}
	var q queue
	if cfg.DatabaseURL != "" {
		q, err = openPostgres(ctx, cfg, log, w)
	} else {
		q, err = openSQLite(ctx, cfg, log, w)
	}
	if err != nil {
		m.unregister(reg)
		return nil, fmt.Errorf("webhook: open queue: %w", err)
	}
	s.q = q
	s.mux = http.NewServeMux()
	s.mux.HandleFunc("/webhook", s.serveWebhook)
	s.mux.HandleFunc("GET /healthz", s.serveHealth)
	s.mux.HandleFunc("GET /readyz", s.serveReady)
	s.mux.Handle("GET /metrics", promhttp.HandlerFor(reg, promhttp.HandlerOpts{Registry: reg}))
	return s, nil
}

// Handler returns the HTTP handler: POST /webhook, GET /healthz, GET
// /readyz and GET /metrics. Deliveries are accepted (stored in the queue)
// before [Server.Start] too.
func (s *Server) Handler() http.Handler { return s.mux }

// Registry returns the Prometheus registry served on /metrics: the
// [Config.Registry], or the one NewServer created. The server registers
//
//   - docreview_webhook_deliveries_total{event,outcome}: deliveries by event
//     (pull_request, issue_comment, installation, installation_repositories,
//     ping, other) and outcome (queued, duplicate_delivery, duplicate_job,
//     stale, ignored, draft, forbidden, recorded, pong, unauthorized,
//     too_large, bad_request, unavailable, error);
//   - docreview_webhook_accept_seconds: handler latency of POST /webhook;
//   - docreview_jobs_total{state}: job transitions (enqueued, started,
//     completed, superseded, retried, discarded, snoozed, released);
//   - docreview_jobs_running: jobs running in this process;
//   - docreview_queue_latency_seconds: from the time a job became runnable
//     (enqueued, retry due, snooze over) to the start of its run;
//   - docreview_review_duration_seconds{outcome}: Runner.Run durations
//     (outcome ok or error).
//
// The Runner registers its metrics (docreview_github_requests_total,
// docreview_github_rate_limit_remaining, docreview_model_tokens_total, ...)
// on the same registry: cmd creates it, passes it to the Runner and as
// [Config.Registry].
func (s *Server) Registry() *prometheus.Registry { return s.reg }

// Start starts the queue workers and the hourly pruning of old delivery
// ids. The workers run until [Server.Shutdown]; ctx is used for starting
// only (its cancellation does not stop the workers, so that Shutdown decides
// how in-flight jobs end). Start fails if called twice or after Shutdown.
func (s *Server) Start(ctx context.Context) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.shutdown {
		return errors.New("webhook: start after shutdown")
	}
	if s.started {
		return errors.New("webhook: already started")
	}
	if err := s.q.start(context.WithoutCancel(ctx)); err != nil {
		return fmt.Errorf("webhook: start queue workers: %w", err)
	}
	s.started = true
	pctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	s.stopPrune = cancel
	s.pruneDone = make(chan struct{})
	go s.pruneLoop(pctx, s.pruneDone)
	s.log.InfoContext(ctx, "webhook queue started", "workers", s.cfg.Workers,
		"per_installation", s.cfg.PerInstallation, "queue", s.q.name())
	return nil
}

// Shutdown stops accepting deliveries (POST /webhook answers 503 and
// /readyz fails; the caller also stops its http.Server), lets running jobs
// finish until shortly before ctx's deadline (25 s when ctx has none), then
// cancels the jobs still running: they are snoozed back into the queue for
// another worker or the next start. Finally it closes the queue database.
// Shutdown is safe to call more than once.
func (s *Server) Shutdown(ctx context.Context) error {
	s.closing.Store(true)
	s.mu.Lock()
	started := s.started && !s.shutdown
	s.shutdown = true
	stopPrune, pruneDone := s.stopPrune, s.pruneDone
	s.mu.Unlock()
	var errs []error
	if started {
		stopPrune()
		<-pruneDone
		grace := defaultGrace
		if dl, ok := ctx.Deadline(); ok {
			grace = max(time.Until(dl)-hardStopReserve, 0)
		}
		softCtx, cancel := context.WithTimeout(ctx, grace)
		err := s.q.stop(softCtx)
		cancel()
		if err != nil {
			s.log.WarnContext(ctx, "jobs still running after the grace period; cancelling them", "grace", grace)
			s.stopping.Store(true)
			hardCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), hardStopReserve)
			if err := s.q.stopAndCancel(hardCtx); err != nil {
				errs = append(errs, fmt.Errorf("webhook: stop queue workers: %w", err))
			}
			cancel()
		}
	}
	s.closeQueue.Do(func() {
		if err := s.q.close(); err != nil {
			errs = append(errs, fmt.Errorf("webhook: close queue: %w", err))
		}
	})
	return errors.Join(errs...)
}

func (s *Server) pruneLoop(ctx context.Context, done chan<- struct{}) {
	defer close(done)
	t := time.NewTicker(pruneEvery)
	defer t.Stop()
	for {
		now := time.Now()
		if err := s.q.prune(ctx, now.Add(-retention), now.Add(-headRetention)); err != nil && ctx.Err() == nil {
			s.log.WarnContext(ctx, "prune delivery ids", "err", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

func (s *Server) serveHealth(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	_, _ = io.WriteString(w, "ok\n")
}

func (s *Server) serveReady(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	if s.closing.Load() {
		w.WriteHeader(http.StatusServiceUnavailable)
		_, _ = io.WriteString(w, "shutting down\n")
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), readyTimeout)
	defer cancel()
	if err := s.q.ping(ctx); err != nil {
		s.log.WarnContext(ctx, "readiness: queue database unreachable", "err", err)
		w.WriteHeader(http.StatusServiceUnavailable)
		_, _ = io.WriteString(w, "queue unreachable\n")
		return
	}
	_, _ = io.WriteString(w, "ready\n")
}
