package main

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"encoding/hex"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	mrand "math/rand/v2"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/docreview/docreview/retrieval/gitrepo"
	"github.com/docreview/docreview/webhook/ghfake"
)

// faultBench are the settings of 'docreview bench webhook --faults'.
type faultBench struct {
	deliveries, prs, heads, kills int
	faultRate                     float64
	database                      string
	wait                          time.Duration
	seed                          uint64
	keep                          bool
	// bin is the docreview binary to run serve with; "" means this one.
	bin string
}

const (
	benchOwner  = "octo"
	benchRepo   = "inventory"
	benchSecret = "bench-secret"
)

// benchEnv is a 'docreview serve' process's world: the fake GitHub, the
// repository it serves, the App's key and the server's data directory.
type benchEnv struct {
	dir, data, bin string
	fake           *ghfake.Server
	api            *httptest.Server
	env            []string
	base           string
	// heads[p][h] is head h of pull request p+1; files the diff of each.
	heads [][]string
	files map[string][]ghfake.File
}

// newBenchEnv builds the repository (a base commit and, per pull request,
// heads commits that each add a README line naming a method that does not
// exist: one contradicted finding on the diff per head), starts the fake
// GitHub serving it, and prepares serve's environment.
func newBenchEnv(ctx context.Context, bin string, prs, heads int, faultRate float64, seed uint64) (*benchEnv, error) {
	dir, err := os.MkdirTemp("", "docreview-bench-faults-")
	if err != nil {
		return nil, err
	}
	e := &benchEnv{dir: dir, data: filepath.Join(dir, "data"), files: map[string][]ghfake.File{}, bin: bin}
	if e.bin == "" {
		if e.bin, err = os.Executable(); err != nil {
			return nil, fmt.Errorf("find the docreview binary: %w", err)
		}
	}
	work := filepath.Join(dir, "work")
	bare := filepath.Join(dir, "git", benchOwner, benchRepo+".git")
	git := func(args ...string) (string, error) {
		cmd := exec.CommandContext(ctx, "git", append([]string{"-c", "user.name=Bench", "-c", "user.email=bench@example.com",
			"-c", "commit.gpgsign=false", "-c", "core.hooksPath=/dev/null"}, args...)...)
		cmd.Dir = work
		cmd.Env = gitrepo.Env(os.Environ())
		out, err := cmd.CombinedOutput()
		if err != nil {
			return "", fmt.Errorf("git %s: %w: %s", strings.Join(args, " "), err, out)
		}
		return strings.TrimSpace(string(out)), nil
	}
	write := func(name, content string) error {
		return os.WriteFile(filepath.Join(work, name), []byte(content), 0o644)
	}
	if err := os.MkdirAll(work, 0o755); err != nil {
		return nil, err
	}
	readme := "# inventory\n\nCall `Store.Reserve` to take items.\n"
	for _, step := range []func() error{
		func() error { _, err := git("init", "-q", "-b", "main"); return err },
		func() error { return write("go.mod", "module example.com/inventory\n\ngo 1.22\n") },
		func() error {
			return write("store.go", "// Package inventory keeps stock.\npackage inventory\n\n// Store holds stock levels.\ntype Store struct{ n int }\n\n"+
				"// Reserve takes n items from the store.\nfunc (s *Store) Reserve(n int) { s.n -= n }\n")
		},
		func() error { return write("README.md", readme) },
		func() error { _, err := git("add", "-A"); return err },
		func() error { _, err := git("commit", "-q", "-m", "base"); return err },
	} {
		if err := step(); err != nil {
			return nil, fmt.Errorf("bench repository: %w", err)
		}
	}
	if e.base, err = git("rev-parse", "HEAD"); err != nil {
		return nil, err
	}
	for p := range prs {
		var hs []string
		for h := range heads {
			if _, err := git("checkout", "-q", "-B", fmt.Sprintf("pr%d-%d", p+1, h+1), e.base); err != nil {
				return nil, err
			}
			if err := write("README.md", readme+fmt.Sprintf("\nCall `Store.Hold%dx%d` to hold items for a while.\n", p+1, h+1)); err != nil {
				return nil, err
			}
			if _, err := git("commit", "-q", "-am", fmt.Sprintf("pull request %d, head %d", p+1, h+1)); err != nil {
				return nil, err
			}
			sha, err := git("rev-parse", "HEAD")
			if err != nil {
				return nil, err
			}
			diff, err := git("diff", "--no-color", e.base, sha, "--", "README.md")
			if err != nil {
				return nil, err
			}
			patch := diff[strings.Index(diff, "@@"):]
			e.files[sha] = []ghfake.File{{Filename: "README.md", Status: "modified", Patch: patch}}
			hs = append(hs, sha)
		}
		e.heads = append(e.heads, hs)
	}
	if err := os.MkdirAll(filepath.Dir(bare), 0o755); err != nil {
		return nil, err
	}
	if _, err := git("clone", "-q", "--bare", "--no-local", work, bare); err != nil {
		return nil, err
	}
	// clone --bare copies the branches as they are: every head is a tip.
	if e.fake, err = ghfake.New(benchOwner, benchRepo, filepath.Join(dir, "git"), faultRate, seed); err != nil {
		return nil, err
	}
	e.api = httptest.NewServer(e.fake)
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		return nil, err
	}
	pemKey := pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(key)})
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "DOCREVIEW_") && !strings.HasPrefix(kv, "OPENAI_") {
			env = append(env, kv)
		}
	}
	e.env = append(env, "DOCREVIEW_WEBHOOK_SECRET="+benchSecret, "DOCREVIEW_APP_ID=1", "DOCREVIEW_PRIVATE_KEY="+string(pemKey),
		"DOCREVIEW_GITHUB_URL="+e.api.URL+"/", "DOCREVIEW_GIT_URL="+e.api.URL+"/git/", "HOME="+dir)
	return e, nil
}

func (e *benchEnv) close(keep bool) {
	e.api.Close()
	if !keep {
		_ = os.RemoveAll(e.dir)
	}
}

// serveProc is one 'docreview serve' process.
type serveProc struct {
	cmd  *exec.Cmd
	done chan struct{}
	logs *bytes.Buffer
	// publishing receives a value each time a review is done and its
	// publishing starts (the log's "reviewed" record), when nobody waits
	// it is dropped.
	publishing chan struct{}
}

// start starts serve on addr and waits until it is ready.
func (e *benchEnv) start(ctx context.Context, addr string, extra ...string) (*serveProc, error) {
	args := append([]string{"serve", "--addr", addr, "--data-dir", e.data, "--workers", "4", "--per-installation", "4"}, extra...)
	cmd := exec.Command(e.bin, args...)
	logs := &bytes.Buffer{}
	p := &serveProc{cmd: cmd, done: make(chan struct{}), logs: logs, publishing: make(chan struct{})}
	w := &lockedWriter{w: logs, line: func(l []byte) {
		if bytes.Contains(l, []byte(`"msg":"reviewed"`)) {
			select {
			case p.publishing <- struct{}{}:
			default:
			}
		}
	}}
	cmd.Env, cmd.Stdout, cmd.Stderr = e.env, w, w
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start serve: %w", err)
	}
	go func() { _ = cmd.Wait(); close(p.done) }()
	deadline := time.Now().Add(60 * time.Second)
	for {
		res, err := http.Get("http://" + addr + "/readyz")
		if err == nil {
			res.Body.Close()
			if res.StatusCode == http.StatusOK {
				return p, nil
			}
		}
		select {
		case <-p.done:
			return nil, fmt.Errorf("serve exited before it was ready")
		case <-ctx.Done():
			p.kill()
			return nil, ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			p.kill()
			return nil, fmt.Errorf("serve not ready after 60 s")
		}
	}
}

// kill sends SIGKILL and waits for the process to go.
func (p *serveProc) kill() {
	_ = p.cmd.Process.Kill()
	<-p.done
}

// stop interrupts the process and waits for it.
func (p *serveProc) stop() {
	_ = p.cmd.Process.Signal(os.Interrupt)
	select {
	case <-p.done:
	case <-time.After(40 * time.Second):
		p.kill()
	}
}

// lockedWriter writes to w under a lock and calls line, when set, for
// every complete line.
type lockedWriter struct {
	mu      sync.Mutex
	w       io.Writer
	line    func([]byte)
	partial []byte
}

func (l *lockedWriter) Write(b []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.line != nil {
		l.partial = append(l.partial, b...)
		for {
			i := bytes.IndexByte(l.partial, '\n')
			if i < 0 {
				break
			}
			l.line(l.partial[:i])
			l.partial = l.partial[i+1:]
		}
	}
	return l.w.Write(b)
}

// benchDelivery is one delivery the benchmark sends.
type benchDelivery struct {
	id   string
	pr   int
	body []byte
	// push, when set, moves the pull request's head (GitHub's state)
	// before the delivery is sent.
	push string
	kind string // push, duplicate, replay, stale, back
}

// schedule is every pull request's deliveries in sending order: the pushes
// of its heads, a force-push back to its first head for every fourth pull
// request, and, up to n deliveries in all, duplicates (the same head under
// a new delivery id), replays (a delivery id again) and out-of-order
// deliveries of an older head with the same updated_at as the newest.
func (e *benchEnv) schedule(n int, rng *mrand.Rand) [][]benchDelivery {
	t0 := time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC)
	out := make([][]benchDelivery, len(e.heads))
	seq := 0
	newID := func() string { seq++; return fmt.Sprintf("bench-%06d-%s", seq, randHex(4)) }
	total := 0
	pushes := make([][]benchDelivery, len(e.heads))
	for p, hs := range e.heads {
		for h, head := range hs {
			action := "synchronize"
			if h == 0 {
				action = "opened"
			}
			pushes[p] = append(pushes[p], benchDelivery{id: newID(), pr: p + 1, push: head, kind: "push",
				body: faultPayload(p+1, action, head, e.base, t0.Add(time.Duration(h)*time.Minute))})
		}
		if p%4 == 0 && len(hs) > 1 {
			pushes[p] = append(pushes[p], benchDelivery{id: newID(), pr: p + 1, push: hs[0], kind: "back",
				body: faultPayload(p+1, "synchronize", hs[0], e.base, t0.Add(time.Duration(len(hs))*time.Minute))})
		}
		total += len(pushes[p])
	}
	extra := max(n-total, 0)
	extras := make([][]benchDelivery, len(e.heads))
	for i := range extra {
		p := i % len(e.heads)
		extras[p] = append(extras[p], benchDelivery{pr: p + 1})
	}
	for p := range e.heads {
		// Interleave: after each push, some of the extras, which refer to
		// what was sent before them.
		var sent []benchDelivery
		ex := extras[p]
		per := (len(ex) + len(pushes[p]) - 1) / max(len(pushes[p]), 1)
		for _, d := range pushes[p] {
			sent = append(sent, d)
			out[p] = append(out[p], d)
			for k := 0; k < per && len(ex) > 0; k++ {
				ex = ex[1:]
				prev := sent[rng.IntN(len(sent))]
				latest := sent[len(sent)-1]
				switch r := rng.Float64(); {
				case r < 0.4:
					out[p] = append(out[p], benchDelivery{id: newID(), pr: p + 1, body: prev.body, kind: "duplicate"})
				case r < 0.7:
					out[p] = append(out[p], benchDelivery{id: prev.id, pr: p + 1, body: prev.body, kind: "replay"})
				default:
					// An older head, stamped with the newest push's time.
					older := e.heads[p][rng.IntN(len(e.heads[p]))]
					var doc map[string]any
					_ = json.Unmarshal(latest.body, &doc)
					stamp := doc["pull_request"].(map[string]any)["updated_at"].(string)
					ts, _ := time.Parse(time.RFC3339, stamp)
					out[p] = append(out[p], benchDelivery{id: newID(), pr: p + 1, kind: "stale",
						body: faultPayload(p+1, "synchronize", older, e.base, ts)})
				}
			}
		}
	}
	return out
}

// faultPayload is a pull_request delivery for the benchmark's repository.
func faultPayload(pr int, action, head, base string, updated time.Time) []byte {
	repo := map[string]any{"full_name": benchOwner + "/" + benchRepo}
	b, _ := json.Marshal(map[string]any{
		"action": action, "number": pr,
		"pull_request": map[string]any{
			"number": pr, "state": "open", "draft": false, "updated_at": updated.Format(time.RFC3339),
			"head": map[string]any{"sha": head, "ref": fmt.Sprintf("pr%d", pr), "repo": repo},
			"base": map[string]any{"sha": base, "ref": "main", "repo": repo},
		},
		"repository":   map[string]any{"name": benchRepo, "full_name": benchOwner + "/" + benchRepo, "owner": map[string]any{"login": benchOwner}},
		"installation": map[string]any{"id": 1},
		"sender":       map[string]any{"login": "octocat", "type": "User"},
	})
	return b
}

// sendSigned posts a signed pull_request delivery; it returns the status,
// 0 when the server could not be reached.
func sendSigned(ctx context.Context, addr, id string, body []byte) int {
	mac := hmac.New(sha256.New, []byte(benchSecret))
	mac.Write(body)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, "http://"+addr+"/webhook", bytes.NewReader(body))
	if err != nil {
		return 0
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-GitHub-Event", "pull_request")
	req.Header.Set("X-GitHub-Delivery", id)
	req.Header.Set("X-Hub-Signature-256", "sha256="+hex.EncodeToString(mac.Sum(nil)))
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0
	}
	_, _ = io.Copy(io.Discard, res.Body)
	res.Body.Close()
	return res.StatusCode
}

// runFaultBench implements 'docreview bench webhook --faults'.
func runFaultBench(ctx context.Context, fb faultBench, stdout io.Writer) error {
	start := time.Now()
	rng := mrand.New(mrand.NewPCG(fb.seed, fb.seed+1))
	e, err := newBenchEnv(ctx, fb.bin, fb.prs, fb.heads, fb.faultRate, fb.seed)
	if err != nil {
		return fmt.Errorf("bench webhook: %w", err)
	}
	defer e.close(fb.keep)
	queue := "sqlite"
	// A killed process's jobs: at once at restart with SQLite (one owner),
	// after --rescue-after with PostgreSQL.
	extra := []string{"--job-timeout", "20s", "--rescue-after", "20s"}
	if fb.database != "" {
		queue = "postgresql"
		db, drop, err := benchSchema(ctx, fb.database)
		if err != nil {
			return fmt.Errorf("bench webhook: %w", err)
		}
		defer drop()
		extra = append(extra, "--database", db)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	addr := ln.Addr().String()
	ln.Close()

	var (
		mu     sync.Mutex
		proc   *serveProc
		procs  []*serveProc // every process started, for the logs of a failure
		status = map[int]int{}
		sent   int
		tries  int
		killed int
	)
	if proc, err = e.start(ctx, addr, extra...); err != nil {
		return fmt.Errorf("bench webhook: %w", err)
	}
	procs = append(procs, proc)
	defer func() {
		mu.Lock()
		p := proc
		mu.Unlock()
		if p != nil {
			p.stop()
		}
	}()

	plan := e.schedule(fb.deliveries, rng)
	for _, ds := range plan {
		sent += len(ds)
	}
	// Senders: one per pull request, in its order, retrying a delivery
	// (same id, as a redelivery) while the server is down.
	var wg sync.WaitGroup
	for p, ds := range plan {
		wg.Add(1)
		seed := fb.seed + uint64(p)*7919
		go func() {
			defer wg.Done()
			r := mrand.New(mrand.NewPCG(seed, 3))
			for _, d := range ds {
				if d.push != "" {
					e.fake.SetPull(d.pr, d.push, e.base, e.files[d.push])
				}
				for {
					mu.Lock()
					tries++
					mu.Unlock()
					code := sendSigned(ctx, addr, d.id, d.body)
					if code != 0 && code != http.StatusServiceUnavailable {
						mu.Lock()
						status[code]++
						mu.Unlock()
						break
					}
					if ctx.Err() != nil {
						return
					}
					time.Sleep(200 * time.Millisecond)
				}
				time.Sleep(time.Duration(r.IntN(400)) * time.Millisecond)
			}
		}()
	}
	// Kills while the deliveries are sent and reviewed: every other one at
	// a random moment, the others just after a review is done, while its
	// results are being published (0-80 ms after the "reviewed" record),
	// where an artefact is most likely to be posted twice.
	killErr := make(chan error, 1)
	go func() {
		for i := range fb.kills {
			mu.Lock()
			p := proc
			mu.Unlock()
			if i%2 == 1 {
				select {
				case <-p.publishing:
					time.Sleep(time.Duration(rng.IntN(80)) * time.Millisecond)
				case <-time.After(5 * time.Second):
				}
			} else {
				time.Sleep(time.Duration(500+rng.IntN(2500)) * time.Millisecond)
			}
			mu.Lock()
			proc = nil
			mu.Unlock()
			p.kill()
			np, err := e.start(ctx, addr, extra...)
			if err != nil {
				killErr <- fmt.Errorf("restart after kill %d: %w", killed+1, err)
				return
			}
			mu.Lock()
			proc = np
			procs = append(procs, np)
			killed++
			mu.Unlock()
		}
		killErr <- nil
	}()
	wg.Wait()
	if err := <-killErr; err != nil {
		return fmt.Errorf("bench webhook: %w", err)
	}

	// Converged: every pull request's current head has a check run, and
	// its summary names that head.
	published := func(rep ghfake.Report, pr int) bool {
		head := strings.ToLower(e.fake.Head(pr))
		a := rep.Pulls[pr]
		return rep.ChecksByHead[head] > 0 && len(a.Summaries) > 0 && strings.Contains(a.Summaries[len(a.Summaries)-1], "`"+head[:7]+"`")
	}
	wctx, cancel := context.WithTimeout(ctx, fb.wait)
	converged := ghfake.Wait(wctx, func() bool {
		rep := e.fake.Snapshot()
		for pr := 1; pr <= fb.prs; pr++ {
			if !published(rep, pr) {
				return false
			}
		}
		return true
	})
	cancel()
	time.Sleep(3 * time.Second) // a late duplicate would show itself now
	rep := e.fake.Snapshot()
	lost := 0
	var lostPRs []string
	for pr := 1; pr <= fb.prs; pr++ {
		if !published(rep, pr) {
			lost++
			lostPRs = append(lostPRs, strconv.Itoa(pr))
		}
	}
	headsPublished := 0
	for _, hs := range e.heads {
		for _, h := range hs {
			if rep.ChecksByHead[strings.ToLower(h)] > 0 {
				headsPublished++
			}
		}
	}
	accepted := status[http.StatusAccepted] + status[http.StatusOK]
	fmt.Fprintf(stdout, "fault benchmark (%s queue): %d pull requests, %d heads, %d kills, %.0f%% of GitHub writes answered 502 after they were carried out (%d)\n",
		queue, fb.prs, fb.prs*fb.heads, killed, 100*fb.faultRate, rep.Injected)
	fmt.Fprintf(stdout, "deliveries: %d sent (%d attempts while the server was down or restarting), %d accepted (%d queued with 202, %d acknowledged with 200), %d other\n",
		sent, tries-sent, accepted, status[http.StatusAccepted], status[http.StatusOK], sent-accepted)
	fmt.Fprintf(stdout, "published heads %d of %d; pull requests whose current head was not published: %d%s (converged: %v, %s)\n",
		headsPublished, fb.prs*fb.heads, lost, listSuffix(lostPRs), converged, time.Since(start).Round(time.Second))
	kinds := []string{"review", "summary", "check run", "inline comment"}
	var parts []string
	dups := 0
	for _, k := range kinds {
		parts = append(parts, fmt.Sprintf("%s %d (of %d created)", k, rep.Duplicates[k], rep.Created[k]))
		dups += rep.Duplicates[k]
	}
	fmt.Fprintf(stdout, "duplicates: %s\n", strings.Join(parts, ", "))
	// The cache: one index for the repository, no worktree left by the
	// killed processes once the reviews are over.
	// A review of a superseded head may still be running (its
	// worktree in use) when the current heads are published: a leak is a
	// worktree still there once the server is idle, so wait for it.
	workDir := filepath.Join(e.data, "mirrors", "work", benchOwner)
	wctx, cancel = context.WithTimeout(ctx, fb.wait)
	ghfake.Wait(wctx, func() bool { return countDirs(workDir) == 0 })
	cancel()
	worktrees := countDirs(workDir)
	indexes := countDirs(filepath.Join(e.data, "mirrors", "index", benchOwner))
	fmt.Fprintf(stdout, "cache: %d index directories for the repository, %d review worktrees left behind\n", indexes, worktrees)
	if worktrees > 0 || indexes != 1 {
		return fmt.Errorf("bench webhook: %d index directories (want 1), %d worktrees left (want 0)", indexes, worktrees)
	}
	if lost > 0 || dups > 0 || !converged {
		// Stop the last process, so that every log is complete.
		mu.Lock()
		p, all := proc, procs
		proc = nil
		mu.Unlock()
		if p != nil {
			p.stop()
		}
		writeLostLogs(stdout, all, lostPRs)
		if fb.keep {
			fmt.Fprintf(stdout, "kept %s\n", e.dir)
		}
		return fmt.Errorf("bench webhook: %d lost, %d duplicates", lost, dups)
	}
	return nil
}

// writeLostLogs writes, for a failed run, what every serve process logged
// about the pull requests whose head was not published and every warning
// or error, in process order, at most maxLostLines lines per process.
func writeLostLogs(w io.Writer, procs []*serveProc, prs []string) {
	const maxLostLines = 300
	var keys [][]byte
	for _, pr := range prs {
		keys = append(keys, []byte(`"pr":`+pr+`,`), []byte(`"pr":`+pr+`}`))
	}
	for i, p := range procs {
		<-p.done // killed or stopped by now; its log is complete
		var lines [][]byte
		for l := range bytes.SplitSeq(p.logs.Bytes(), []byte("\n")) {
			keep := bytes.Contains(l, []byte(`"level":"WARN"`)) || bytes.Contains(l, []byte(`"level":"ERROR"`))
			for _, k := range keys {
				keep = keep || bytes.Contains(l, k)
			}
			if keep {
				lines = append(lines, l)
			}
		}
		if len(lines) > maxLostLines {
			lines = lines[len(lines)-maxLostLines:]
		}
		fmt.Fprintf(w, "serve process %d of %d, log lines on #%s and warnings:\n", i+1, len(procs), strings.Join(prs, ", #"))
		for _, l := range lines {
			fmt.Fprintf(w, "  %s\n", l)
		}
	}
}

// benchSchema creates a schema of its own on the PostgreSQL server of
// base, so that a run starts from an empty queue and leaves the others
// alone, and returns a URL whose search_path is that schema and the
// function that drops it.
func benchSchema(ctx context.Context, base string) (string, func(), error) {
	u, err := url.Parse(base)
	if err != nil {
		return "", nil, fmt.Errorf("--database: %w", err)
	}
	conn, err := pgx.Connect(ctx, base)
	if err != nil {
		return "", nil, fmt.Errorf("connect to PostgreSQL: %w", err)
	}
	defer conn.Close(ctx)
	schema := "docreview_bench_" + randHex(6)
	if _, err := conn.Exec(ctx, "CREATE SCHEMA "+schema); err != nil {
		return "", nil, fmt.Errorf("create schema %s: %w", schema, err)
	}
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	drop := func() {
		c, err := pgx.Connect(context.WithoutCancel(ctx), base)
		if err != nil {
			return
		}
		defer c.Close(context.WithoutCancel(ctx))
		_, _ = c.Exec(context.WithoutCancel(ctx), "DROP SCHEMA "+schema+" CASCADE")
	}
	return u.String(), drop, nil
}

// countDirs counts the directories in dir, 0 if it does not exist.
func countDirs(dir string) int {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return 0
	}
	n := 0
	for _, e := range ents {
		if e.IsDir() {
			n++
		}
	}
	return n
}

func listSuffix(xs []string) string {
	if len(xs) == 0 {
		return ""
	}
	slices.Sort(xs)
	return " (#" + strings.Join(xs, ", #") + ")"
}

// runUnsignedBench implements 'docreview bench webhook --unsigned N': N
// concurrent bodies of the largest accepted size with a well-formed but
// wrong signature against a serve process, reporting its resident memory
// before, at the peak and after.
func runUnsignedBench(ctx context.Context, bin string, n int, stdout io.Writer) error {
	e, err := newBenchEnv(ctx, bin, 1, 1, 0, 1)
	if err != nil {
		return fmt.Errorf("bench webhook: %w", err)
	}
	defer e.close(false)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	addr := ln.Addr().String()
	ln.Close()
	proc, err := e.start(ctx, addr)
	if err != nil {
		return fmt.Errorf("bench webhook: %w", err)
	}
	defer proc.stop()
	pid := proc.cmd.Process.Pid
	time.Sleep(time.Second)
	idle, err := rssOf(pid)
	if err != nil {
		return fmt.Errorf("bench webhook: %w", err)
	}
	const size = 25 << 20
	var (
		wg    sync.WaitGroup
		mu    sync.Mutex
		codes = map[int]int{}
		peak  = idle
		stop  = make(chan struct{})
	)
	go func() {
		t := time.NewTicker(20 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-stop:
				return
			case <-t.C:
				if r, err := rssOf(pid); err == nil {
					mu.Lock()
					peak = max(peak, r)
					mu.Unlock()
				}
			}
		}
	}()
	began := time.Now()
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			req, _ := http.NewRequestWithContext(ctx, http.MethodPost, "http://"+addr+"/webhook", io.LimitReader(zeros{}, size))
			req.ContentLength = size
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("X-GitHub-Event", "pull_request")
			req.Header.Set("X-GitHub-Delivery", randHex(8))
			req.Header.Set("X-Hub-Signature-256", "sha256="+strings.Repeat("00", 32))
			code := 0
			if res, err := http.DefaultClient.Do(req); err == nil {
				code = res.StatusCode
				_, _ = io.Copy(io.Discard, res.Body)
				res.Body.Close()
			}
			mu.Lock()
			codes[code]++
			mu.Unlock()
		}()
	}
	wg.Wait()
	took := time.Since(began)
	time.Sleep(time.Second)
	after1, _ := rssOf(pid)
	time.Sleep(9 * time.Second)
	after10, _ := rssOf(pid)
	close(stop)
	mu.Lock()
	defer mu.Unlock()
	mib := func(b int64) string { return fmt.Sprintf("%.1f MiB", float64(b)/(1<<20)) }
	fmt.Fprintf(stdout, "%d concurrent 25 MiB deliveries with a wrong signature in %s: answers %v\n", n, took.Round(time.Millisecond), codes)
	delta := func(b int64) string { return fmt.Sprintf("%+.1f MiB", float64(b)/(1<<20)) }
	fmt.Fprintf(stdout, "serve RSS: idle %s, peak %s (%s), 1 s after %s, 10 s after %s (%s)\n",
		mib(idle), mib(peak), delta(peak-idle), mib(after1), mib(after10), delta(after10-idle))
	if peak-idle > 100<<20 {
		return fmt.Errorf("bench webhook: RSS rose %s above idle, more than 100 MiB", mib(peak-idle))
	}
	return nil
}

type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

// rssOf is a process's resident set size, from /proc.
func rssOf(pid int) (int64, error) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, fmt.Errorf("read the resident memory of %d (Linux /proc only): %w", pid, err)
	}
	for _, l := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(l, "VmRSS:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			if err != nil {
				return 0, err
			}
			return kb << 10, nil
		}
	}
	return 0, errors.New("no VmRSS in /proc status")
}
