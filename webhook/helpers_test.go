package webhook

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river/rivertype"
)

const (
	testSecret = "It's a Secret to Everybody"
	// postgresEnv names the PostgreSQL server for the queue tests;
	// requirePostgresEnv=1 makes its absence a failure.
	postgresEnv        = "DOCREVIEW_TEST_DATABASE_URL"
	requirePostgresEnv = "DOCREVIEW_REQUIRE_POSTGRES"
	eventsDir          = "../action/testdata/events"
	headA              = "ec26c3e57ca3a959ca5aad62de7213c562f8c821"
	headB              = "1111111111111111111111111111111111111111"
	headC              = "2222222222222222222222222222222222222222"
)

// backend is a queue database for a test: SQLite always, PostgreSQL when
// DOCREVIEW_TEST_DATABASE_URL is set.
type backend struct {
	name string
	// config fills in DataDir or DatabaseURL; every call of the same
	// backend value points at the same database.
	config func(cfg *Config)
}

// backends returns SQLite and, when configured, PostgreSQL (a fresh schema
// per call, dropped at the end of the test).
func backends(t *testing.T) []backend {
	t.Helper()
	dir := t.TempDir()
	bs := []backend{{name: "sqlite", config: func(cfg *Config) { cfg.DataDir = dir }}}
	if u := postgresURL(t); u != "" {
		bs = append(bs, backend{name: "postgres", config: func(cfg *Config) { cfg.DatabaseURL = u }})
	}
	return bs
}

var schemaSeq atomic.Int64

// postgresURL creates a schema for the test and returns a URL whose
// search_path is that schema; "" (or a failure with
// DOCREVIEW_REQUIRE_POSTGRES=1) when no server is configured.
func postgresURL(t *testing.T) string {
	t.Helper()
	base := os.Getenv(postgresEnv)
	if base == "" {
		if os.Getenv(requirePostgresEnv) == "1" {
			t.Fatalf("%s is not set (%s=1)", postgresEnv, requirePostgresEnv)
		}
		return ""
	}
	ctx := context.Background()
	pool, err := pgxpool.New(ctx, base)
	if err != nil {
		t.Fatalf("connect to %s: %v", postgresEnv, err)
	}
	defer pool.Close()
	schema := fmt.Sprintf("whtest_%d_%d", os.Getpid(), schemaSeq.Add(1))
	if _, err := pool.Exec(ctx, "CREATE SCHEMA "+schema); err != nil {
		t.Fatalf("create schema: %v", err)
	}
	t.Cleanup(func() {
		pool, err := pgxpool.New(context.Background(), base)
		if err != nil {
			t.Errorf("drop schema: %v", err)
			return
		}
		defer pool.Close()
		if _, err := pool.Exec(context.Background(), "DROP SCHEMA "+schema+" CASCADE"); err != nil {
			t.Errorf("drop schema: %v", err)
		}
	})
	u, err := url.Parse(base)
	if err != nil {
		t.Fatalf("parse %s: %v", postgresEnv, err)
	}
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return u.String()
}

// fakeRunner records runs; run, when set, decides each run's result.
type fakeRunner struct {
	mu    sync.Mutex
	jobs  []Job
	calls chan Job
	run   func(ctx context.Context, job Job, call int) error
}

func newFakeRunner(run func(ctx context.Context, job Job, call int) error) *fakeRunner {
	return &fakeRunner{calls: make(chan Job, 1000), run: run}
}

func (f *fakeRunner) Run(ctx context.Context, job Job) error {
	f.mu.Lock()
	f.jobs = append(f.jobs, job)
	n := len(f.jobs)
	f.mu.Unlock()
	f.calls <- job
	if f.run != nil {
		return f.run(ctx, job, n)
	}
	return nil
}

func (f *fakeRunner) ran() []Job {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]Job(nil), f.jobs...)
}

// wait returns the next run, failing the test after timeout.
func (f *fakeRunner) wait(t *testing.T, timeout time.Duration) Job {
	t.Helper()
	select {
	case j := <-f.calls:
		return j
	case <-time.After(timeout):
		t.Fatalf("no Runner.Run within %s (runs so far: %d)", timeout, len(f.ran()))
		return Job{}
	}
}

func testLogger(t testing.TB) *slog.Logger {
	if testing.Verbose() {
		return slog.New(slog.NewJSONHandler(tWriter{t}, &slog.HandlerOptions{Level: slog.LevelWarn}))
	}
	return nil
}

type tWriter struct{ t testing.TB }

func (w tWriter) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimSpace(string(p)))
	return len(p), nil
}

// newServer creates a Server on b with cfg's other fields; it is shut down
// at the end of the test.
func newServer(t testing.TB, b backend, cfg Config) *Server {
	t.Helper()
	b.config(&cfg)
	if cfg.Secret == nil {
		cfg.Secret = []byte(testSecret)
	}
	if cfg.Runner == nil {
		cfg.Runner = newFakeRunner(nil)
	}
	if cfg.Logger == nil {
		cfg.Logger = testLogger(t)
	}
	s, err := NewServer(t.Context(), cfg)
	if err != nil {
		t.Fatalf("NewServer: %v", err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := s.Shutdown(ctx); err != nil {
			t.Errorf("Shutdown: %v", err)
		}
	})
	return s
}

func start(t *testing.T, s *Server) {
	t.Helper()
	if err := s.Start(t.Context()); err != nil {
		t.Fatalf("Start: %v", err)
	}
}

// payload reads an event file from action/testdata/events and applies
// edits (dot paths into the JSON object, e.g. "pull_request.head.sha").
func payload(t testing.TB, file string, edits map[string]any) []byte {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(eventsDir, file))
	if err != nil {
		t.Fatalf("read payload: %v", err)
	}
	if len(edits) == 0 {
		return raw
	}
	var doc map[string]any
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatalf("parse %s: %v", file, err)
	}
	for path, v := range edits {
		keys := strings.Split(path, ".")
		m := doc
		for _, k := range keys[:len(keys)-1] {
			next, ok := m[k].(map[string]any)
			if !ok {
				next = map[string]any{}
				m[k] = next
			}
			m = next
		}
		m[keys[len(keys)-1]] = v
	}
	out, err := json.Marshal(doc)
	if err != nil {
		t.Fatalf("encode %s: %v", file, err)
	}
	return out
}

// prPayload is a pull_request delivery for PR #2 of Codertocat/Hello-World
// at head, with updated_at offset seconds after the example's.
func prPayload(t testing.TB, action, head string, offset int) []byte {
	t.Helper()
	return payload(t, "pull_request.opened.installation.json", map[string]any{
		"action":                  action,
		"pull_request.head.sha":   head,
		"pull_request.updated_at": time.Date(2019, 5, 15, 15, 20, 33, 0, time.UTC).Add(time.Duration(offset) * time.Second).Format(time.RFC3339),
	})
}

// commentPayload is an issue_comment on pull request #1 with body, by a
// user with association.
func commentPayload(t testing.TB, body, association string) []byte {
	t.Helper()
	return payload(t, "issue_comment.created.json", map[string]any{
		"comment.body":               body,
		"comment.author_association": association,
		"issue.pull_request.url":     "https://api.github.com/repos/Codertocat/Hello-World/pulls/1",
		"installation.id":            float64(7),
	})
}

type delivery struct {
	method   string // "" means POST
	event    string
	id       string
	body     []byte
	sig      string // "" means signed with testSecret; "-" means no header
	ctype    string // "" means application/json
	noEvent  bool
	noID     bool
	override http.Header
}

type answer struct {
	status int
	body   string
}

func deliver(t testing.TB, h http.Handler, d delivery) answer {
	t.Helper()
	method := d.method
	if method == "" {
		method = http.MethodPost
	}
	r := httptest.NewRequest(method, "/webhook", strings.NewReader(string(d.body)))
	ct := d.ctype
	if ct == "" {
		ct = "application/json"
	}
	r.Header.Set("Content-Type", ct)
	r.Header.Set("User-Agent", "GitHub-Hookshot/test")
	if !d.noEvent {
		r.Header.Set(headerEvent, d.event)
	}
	if !d.noID {
		r.Header.Set(headerDelivery, d.id)
	}
	switch d.sig {
	case "":
		r.Header.Set(headerSignature, sign([]byte(testSecret), d.body))
	case "-":
	default:
		r.Header.Set(headerSignature, d.sig)
	}
	for k, v := range d.override {
		r.Header[k] = v
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	b, _ := io.ReadAll(w.Result().Body)
	return answer{status: w.Code, body: strings.TrimSpace(string(b))}
}

func jobsOf(t *testing.T, s *Server) []*rivertype.JobRow {
	t.Helper()
	rows, err := s.q.listJobs(t.Context(), 1000)
	if err != nil {
		t.Fatalf("list jobs: %v", err)
	}
	return rows
}

func statesOf(rows []*rivertype.JobRow) map[rivertype.JobState]int {
	m := map[rivertype.JobState]int{}
	for _, r := range rows {
		m[r.State]++
	}
	return m
}

// waitFor polls cond until it holds or timeout passes.
func waitFor(t *testing.T, timeout time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %s waiting for %s", timeout, what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func argsOf(t *testing.T, r *rivertype.JobRow) reviewArgs {
	t.Helper()
	var a reviewArgs
	if err := json.Unmarshal(r.EncodedArgs, &a); err != nil {
		t.Fatalf("decode job %d args: %v", r.ID, err)
	}
	return a
}
