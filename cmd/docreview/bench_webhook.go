package main

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/docreview/docreview/review"
	"github.com/docreview/docreview/webhook"
)

const benchWebhookUsage = `Usage: docreview bench webhook [flags]

Sends a burst of signed pull_request deliveries to an in-process webhook
server on loopback (SQLite queue in a temporary directory, or --database)
and reports how many were accepted, lost and reviewed twice, and the p50 and
p99 accept latency. A share of the deliveries repeat a head under a new
delivery id, and some replay a delivery id outright: both must not cause a
second review. Reviews are recorded, not run.

With --faults it runs the fault benchmark: real 'docreview serve' processes
(this binary) against a fake GitHub on loopback that serves the API and the
repository over git's smart HTTP; it pushes --heads heads to each of --prs
pull requests, force-pushes every fourth back to its first head, sends
--deliveries deliveries in all with duplicates, replays and older heads
stamped with the newest push's time, kills the server --kills times at
random moments (restarting it on the same data dir or --database), and
answers --fault-rate of GitHub writes with 502 after carrying them out. It
prints the deliveries sent and accepted, the heads published, the pull
requests whose current head was not published (lost) and the duplicates
per artefact (review, summary, check run, inline comment); it fails unless
both are 0.

With --unsigned N it measures a serve process's resident memory while N
concurrent 25 MiB deliveries with a wrong signature arrive.

Flags:
`

// countingRunner records the jobs the queue hands out.
type countingRunner struct {
	mu   sync.Mutex
	runs map[string]int
	done chan struct{}
	want int
}

func (c *countingRunner) Run(_ context.Context, j webhook.Job) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	key := fmt.Sprintf("%s/%s#%d@%s", j.Owner, j.Repo, j.PR, j.HeadSHA)
	c.runs[key]++
	if len(c.runs) == c.want {
		select {
		case <-c.done:
		default:
			close(c.done)
		}
	}
	return nil
}

// runBenchWebhook implements 'docreview bench webhook'.
func runBenchWebhook(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("docreview bench webhook", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var (
		n, clients int
		database   string
		wait       time.Duration
	)
	fs.IntVar(&n, "deliveries", 500, "deliveries in the burst")
	fs.IntVar(&clients, "clients", 50, "concurrent senders")
	fs.StringVar(&database, "database", "", "PostgreSQL `URL` of the queue (default: SQLite in a temporary directory)")
	fs.DurationVar(&wait, "wait", 2*time.Minute, "how long to wait for the queue to drain")
	var (
		faults   bool
		fb       = faultBench{seed: 1}
		unsigned int
	)
	fs.BoolVar(&faults, "faults", false, "run the fault benchmark instead: 'docreview serve' processes against a fake GitHub, killed and restarted, with duplicates, replays, out-of-order heads and 502s after carried-out writes")
	fs.IntVar(&fb.prs, "prs", 16, "with --faults: pull requests")
	fs.IntVar(&fb.heads, "heads", 3, "with --faults: heads pushed per pull request")
	fs.IntVar(&fb.kills, "kills", 5, "with --faults: kill -9 and restarts of the server at random moments")
	fs.Float64Var(&fb.faultRate, "fault-rate", 0.1, "with --faults: share of GitHub writes answered 502 after they were carried out")
	fs.Uint64Var(&fb.seed, "seed", 1, "with --faults: random seed of the schedule, the kills and the faults")
	fs.BoolVar(&fb.keep, "keep", false, "with --faults: keep the temporary directory (repository, data dir) when something was lost or duplicated")
	fs.StringVar(&fb.bin, "serve-binary", "", "with --faults or --unsigned: the docreview `binary` whose serve to run (default: this one), to compare releases")
	fs.IntVar(&unsigned, "unsigned", 0, "measure instead the resident memory of a 'docreview serve' process under `N` concurrent 25 MiB deliveries with a wrong signature")
	fs.Usage = func() { fmt.Fprint(stderr, benchWebhookUsage); fs.PrintDefaults() }
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	switch {
	case faults && unsigned > 0:
		return &review.UsageError{Msg: "--faults and --unsigned are two benchmarks: give one"}
	case faults:
		if n < 1 || fb.prs < 1 || fb.heads < 1 || fb.kills < 0 || fb.faultRate < 0 || fb.faultRate >= 1 {
			return &review.UsageError{Msg: "--deliveries, --prs and --heads must be at least 1, --kills at least 0, --fault-rate in [0, 1)"}
		}
		fb.deliveries, fb.database, fb.wait = n, database, max(wait, 5*time.Minute)
		return runFaultBench(ctx, fb, stdout)
	case unsigned > 0:
		return runUnsignedBench(ctx, fb.bin, unsigned, stdout)
	}
	if n < 1 || clients < 1 {
		return &review.UsageError{Msg: "--deliveries and --clients must be at least 1"}
	}
	dir, err := os.MkdirTemp("", "docreview-bench-webhook-")
	if err != nil {
		return fmt.Errorf("bench webhook: %w", err)
	}
	defer os.RemoveAll(dir)

	// Every fifth delivery repeats an earlier head under a new delivery
	// id; every tenth replays an earlier delivery id.
	type delivery struct {
		id, head string
		pr       int
		body     []byte
	}
	var ds []delivery
	heads := map[string]bool{}
	for i := range n {
		d := delivery{id: randHex(16), head: randHex(20), pr: i + 1}
		switch {
		case i > 0 && i%10 == 0:
			d = ds[i-1] // same delivery id again
		case i > 0 && i%5 == 0:
			prev := ds[i-1]
			d.head, d.pr = prev.head, prev.pr
		}
		if d.body == nil {
			d.body = prPayload(d.pr, d.head)
		}
		heads[fmt.Sprintf("octo/bench#%d@%s", d.pr, d.head)] = true
		ds = append(ds, d)
	}
	secret := []byte(randHex(16))
	runner := &countingRunner{runs: map[string]int{}, done: make(chan struct{}), want: len(heads)}
	srv, err := webhook.NewServer(ctx, webhook.Config{
		DataDir: dir, DatabaseURL: database, Secret: secret, Runner: runner, Workers: 8, PerInstallation: 8,
		Logger: slog.New(slog.DiscardHandler), Registry: prometheus.NewRegistry(),
	})
	if err != nil {
		return fmt.Errorf("bench webhook: %w", err)
	}
	hs := httptest.NewServer(srv.Handler())
	defer hs.Close()
	if err := srv.Start(ctx); err != nil {
		return fmt.Errorf("bench webhook: %w", err)
	}
	defer func() { _ = srv.Shutdown(context.WithoutCancel(ctx)) }()

	var (
		mu        sync.Mutex
		latencies []time.Duration
		status    = map[int]int{}
		next      = make(chan delivery)
		wg        sync.WaitGroup
	)
	start := time.Now()
	for range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for d := range next {
				mac := hmac.New(sha256.New, secret)
				mac.Write(d.body)
				req, _ := http.NewRequestWithContext(ctx, http.MethodPost, hs.URL+"/webhook", bytes.NewReader(d.body))
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set("X-GitHub-Event", "pull_request")
				req.Header.Set("X-GitHub-Delivery", d.id)
				req.Header.Set("X-Hub-Signature-256", "sha256="+hex.EncodeToString(mac.Sum(nil)))
				t0 := time.Now()
				res, err := http.DefaultClient.Do(req)
				took := time.Since(t0)
				code := 0
				if err == nil {
					code = res.StatusCode
					_, _ = io.Copy(io.Discard, res.Body)
					res.Body.Close()
				}
				mu.Lock()
				latencies = append(latencies, took)
				status[code]++
				mu.Unlock()
			}
		}()
	}
	for _, d := range ds {
		next <- d
	}
	close(next)
	wg.Wait()
	burst := time.Since(start)
	drained := true
	select {
	case <-runner.done:
	case <-time.After(wait):
		drained = false
	case <-ctx.Done():
		return ctx.Err()
	}
	time.Sleep(500 * time.Millisecond) // let a late duplicate show itself
	runner.mu.Lock()
	ran, twice := len(runner.runs), 0
	for _, c := range runner.runs {
		if c > 1 {
			twice++
		}
	}
	runner.mu.Unlock()
	slices.Sort(latencies)
	pct := func(p float64) time.Duration { return latencies[min(len(latencies)-1, int(p*float64(len(latencies))))] }
	fmt.Fprintf(stdout, "deliveries %d in %s (%d clients): %d accepted (202), %d acknowledged without a new job (200), %d other\n",
		n, burst.Round(time.Millisecond), clients, status[http.StatusAccepted], status[http.StatusOK], n-status[http.StatusAccepted]-status[http.StatusOK])
	fmt.Fprintf(stdout, "distinct heads %d: reviewed %d, lost %d, reviewed twice %d (queue drained: %v)\n",
		len(heads), ran, len(heads)-ran, twice, drained)
	fmt.Fprintf(stdout, "accept latency p50 %s, p99 %s, max %s\n", pct(0.50).Round(time.Microsecond), pct(0.99).Round(time.Microsecond), latencies[len(latencies)-1].Round(time.Microsecond))
	if len(heads) != ran || twice > 0 {
		return fmt.Errorf("bench webhook: %d lost, %d reviewed twice", len(heads)-ran, twice)
	}
	return nil
}

func randHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// prPayload is a pull_request synchronize delivery for PR pr at head.
func prPayload(pr int, head string) []byte {
	p := map[string]any{
		"action": "synchronize", "number": pr,
		"pull_request": map[string]any{
			"number": pr, "state": "open", "draft": false,
			"head": map[string]any{"sha": head, "ref": "topic", "repo": map[string]any{"full_name": "octo/bench"}},
			"base": map[string]any{"sha": randHex(20), "ref": "main", "repo": map[string]any{"full_name": "octo/bench"}},
		},
		"repository":   map[string]any{"name": "bench", "full_name": "octo/bench", "owner": map[string]any{"login": "octo"}},
		"installation": map[string]any{"id": 1 + pr%7},
		"sender":       map[string]any{"login": "octocat", "type": "User"},
	}
	b, _ := json.Marshal(p)
	return b
}
