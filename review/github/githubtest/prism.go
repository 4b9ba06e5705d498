// Package githubtest is test support for review/github: a mock of GitHub's
// REST API that validates every request against GitHub's own OpenAPI
// description, served by Prism (npm @stoplight/prism-cli) from the trimmed
// description committed at review/github/testdata/contract/github-trimmed.json.
//
// Prism and the webhook examples are installed with
//
//	npm ci --prefix review/github/testdata/contract
//
// (.ci/run does this and sets DOCREVIEW_REQUIRE_CONTRACT=1). Without them the
// tests that need Prism skip, unless DOCREVIEW_REQUIRE_CONTRACT=1, when they
// fail. See review/github/testdata/contract/README.md.
package githubtest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	gh "github.com/google/go-github/v62/github"
)

// RequireContractEnv is the environment variable that turns a missing Prism
// installation from a skip into a test failure when it is "1".
const RequireContractEnv = "DOCREVIEW_REQUIRE_CONTRACT"

// TestToken is the bearer token Client sends. Prism does not check it.
const TestToken = "docreview-test-token"

const (
	startTimeout = 30 * time.Second // from process start to the first 200
	stopTimeout  = 5 * time.Second  // SIGTERM to exit, then SIGKILL
	portAttempts = 3                // a picked port can be taken before Prism binds it
)

// Prism is a running Prism mock of the GitHub REST API on a loopback port,
// serving github-trimmed.json (16 paths; see regen.sh in the contract
// directory). Requests sent through Client or Transport are recorded, and
// Check fails the test if any of them broke the contract.
//
// Prism answers with the examples of the description (static mode), so
// responses are deterministic but do not reflect requests: a created comment
// is not listed afterwards. Paths outside the trimmed description get 404.
//
// Pagination trap: Prism replays the description's static Link header on
// every list response, `<https://api.github.com/resource?page=2>; rel="next",
// <…page=5>; rel="last"`, so go-github's Response.NextPage is 2 on every
// page and a loop that runs "while NextPage != 0" never ends. Code under
// test must also stop when NextPage <= the page just requested, and should
// cap the number of pages.
//
// Path parameters match one path segment: GET /repos/o/r/contents/a/b.md
// (a file below the root, as go-github sends it) gets 404 from Prism
// although GitHub serves it; contract-test contents calls with a top-level
// file name.
//
// A Prism is safe for concurrent use by multiple goroutines.
type Prism struct {
	url  string
	cmd  *exec.Cmd
	log  *syncBuffer
	done chan struct{} // closed when the process has exited
	werr error         // process exit error, set before done is closed

	mu        sync.Mutex
	exchanges []Exchange
}

// Exchange is one request sent to Prism through Client or Transport, and
// what Prism answered.
type Exchange struct {
	Method string
	Path   string // path and query, e.g. "/repos/o/r/pulls/1/files?page=2"
	// Status is the HTTP status code; 0 when the round trip failed (Err).
	Status int
	Err    string
	// Problem is the title and detail of an application/problem+json answer
	// (Prism's own errors: 404 no such path, 406 not acceptable, 422 invalid
	// request when the operation documents no 422 of its own).
	Problem string
	// Violations are the request violations: the entries of the
	// sl-violations response header whose location starts with "request",
	// plus the "validation" entries of a problem+json answer, each as
	// "location: message" (location dot-joined, e.g. "request.body.event").
	Violations []string
	// ResponseViolations are the sl-violations entries about Prism's own
	// response (location "response…"): an example in GitHub's description
	// that does not match its schema. They are not the caller's fault and
	// Check ignores them.
	ResponseViolations []string
}

// StartPrism starts Prism on a free 127.0.0.1 port, waits until it answers
// (at most 30 s; about 1.5 s with the trimmed description) and registers a
// cleanup that kills its process group. Prism's output is captured (Log) and
// written to the test log if the test failed.
//
// The binary is review/github/testdata/contract/node_modules/.bin/prism and
// needs node on PATH. When either is missing the test is skipped with a
// message saying to run `npm ci --prefix review/github/testdata/contract`,
// or fails if DOCREVIEW_REQUIRE_CONTRACT=1.
func StartPrism(t testing.TB) *Prism {
	t.Helper()
	dir, err := ContractDir()
	if err != nil {
		t.Fatalf("githubtest: %v", err)
	}
	return startPrism(t, dir)
}

func startPrism(t testing.TB, dir string) *Prism {
	t.Helper()
	bin := filepath.Join(dir, "node_modules", ".bin", "prism")
	RequireContract(t, bin)
	spec := filepath.Join(dir, "github-trimmed.json")
	if _, err := os.Stat(spec); err != nil {
		t.Fatalf("githubtest: trimmed GitHub description: %v", err)
	}
	var lastErr error
	for range portAttempts {
		port, err := freePort()
		if err != nil {
			t.Fatalf("githubtest: %v", err)
		}
		p, err := launch(bin, dir, spec, port)
		if err == nil {
			t.Cleanup(func() {
				p.stop()
				if t.Failed() {
					t.Logf("Prism log (%s):\n%s", p.url, tail(p.Log(), 16<<10))
				}
			})
			return p
		}
		lastErr = err
		if !errors.Is(err, errPortInUse) {
			break
		}
	}
	t.Fatalf("githubtest: start Prism: %v", lastErr)
	return nil
}

// RequireContract skips the test, or fails it when DOCREVIEW_REQUIRE_CONTRACT
// is "1", unless each of paths exists and node is on PATH. paths are files
// installed by `npm ci --prefix review/github/testdata/contract`.
func RequireContract(t testing.TB, paths ...string) {
	t.Helper()
	var missing []string
	if _, err := exec.LookPath("node"); err != nil {
		missing = append(missing, "node on PATH")
	}
	for _, p := range paths {
		if _, err := os.Stat(p); err != nil {
			missing = append(missing, p)
		}
	}
	if len(missing) == 0 {
		return
	}
	msg := fmt.Sprintf("contract tests need Prism and the webhook examples (missing: %s); "+
		"run `npm ci --prefix review/github/testdata/contract`", strings.Join(missing, ", "))
	if os.Getenv(RequireContractEnv) == "1" {
		t.Fatalf("%s (%s=1)", msg, RequireContractEnv)
	}
	t.Skip(msg)
}

// ContractDir returns the absolute path of review/github/testdata/contract,
// located from this source file (runtime.Caller), or, when the binary was
// built with -trimpath, from `go list -m` of the main module.
func ContractDir() (string, error) {
	if _, file, _, ok := runtime.Caller(0); ok && filepath.IsAbs(file) {
		dir := filepath.Join(filepath.Dir(file), "..", "testdata", "contract")
		if _, err := os.Stat(dir); err == nil {
			return filepath.Clean(dir), nil
		}
	}
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/docreview/docreview").Output()
	if err != nil {
		return "", fmt.Errorf("locate module root with go list: %w", err)
	}
	dir := filepath.Join(strings.TrimSpace(string(out)), "review", "github", "testdata", "contract")
	if _, err := os.Stat(dir); err != nil {
		return "", fmt.Errorf("contract directory: %w", err)
	}
	return dir, nil
}

var errPortInUse = errors.New("port already in use")

func launch(bin, dir, spec string, port int) (*Prism, error) {
	cmd := exec.Command(bin, "mock", "-h", "127.0.0.1", "-p", strconv.Itoa(port), spec)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "NO_COLOR=1", "FORCE_COLOR=0")
	p := &Prism{
		url:  "http://127.0.0.1:" + strconv.Itoa(port),
		cmd:  cmd,
		log:  &syncBuffer{},
		done: make(chan struct{}),
	}
	cmd.Stdout = p.log
	cmd.Stderr = p.log
	setProcessGroup(cmd)
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("run %s: %w", bin, err)
	}
	go func() {
		p.werr = cmd.Wait()
		close(p.done)
	}()
	if err := p.waitReady(); err != nil {
		p.stop()
		if strings.Contains(p.Log(), "EADDRINUSE") {
			return nil, fmt.Errorf("port %d: %w", port, errPortInUse)
		}
		return nil, fmt.Errorf("%w; log:\n%s", err, tail(p.Log(), 4<<10))
	}
	return p, nil
}

// waitReady polls GET /rate_limit (not recorded) until it answers 200.
func (p *Prism) waitReady() error {
	ctx, cancel := context.WithTimeout(context.Background(), startTimeout)
	defer cancel()
	client := &http.Client{Timeout: 2 * time.Second}
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, p.url+"/rate_limit", nil)
		if err != nil {
			return fmt.Errorf("readiness request: %w", err)
		}
		req.Header.Set("Accept", "application/json")
		if resp, err := client.Do(req); err == nil {
			_, _ = io.Copy(io.Discard, resp.Body)
			_ = resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
		}
		select {
		case <-p.done:
			return fmt.Errorf("prism exited before answering: %v", p.werr)
		case <-ctx.Done():
			return fmt.Errorf("prism did not answer on %s within %s", p.url, startTimeout)
		case <-tick.C:
		}
	}
}

// stop kills Prism's process group: SIGTERM, then SIGKILL after 5 s.
func (p *Prism) stop() {
	select {
	case <-p.done:
		return
	default:
	}
	signalGroup(p.cmd, false)
	select {
	case <-p.done:
		return
	case <-time.After(stopTimeout):
	}
	signalGroup(p.cmd, true)
	<-p.done
}

// URL returns the mock's root, "http://127.0.0.1:PORT", without a trailing
// slash.
func (p *Prism) URL() string { return p.url }

// Log returns everything Prism has written to stdout and stderr so far.
func (p *Prism) Log() string { return p.log.String() }

// Client returns a go-github client for the mock: BaseURL and UploadURL are
// URL()+"/", every request carries "Authorization: Bearer "+TestToken and
// goes through Transport (Accept rewritten to application/json, exchange
// recorded). Each call returns a new client sharing the recording.
func (p *Prism) Client() *gh.Client {
	c := gh.NewClient(&http.Client{Transport: p.Transport(nil), Timeout: 30 * time.Second}).WithAuthToken(TestToken)
	u, err := url.Parse(p.url + "/")
	if err != nil {
		// Can't happen: p.url is built from a port number.
		panic(fmt.Sprintf("githubtest: parse %q: %v", p.url, err))
	}
	c.BaseURL = u
	c.UploadURL = u
	return c
}

// Transport returns a RoundTripper for other clients pointed at the mock
// (for example ghinstallation): it sets "Accept: application/json" on a copy
// of each request (Prism answers 406 to GitHub's vendor media types such as
// application/vnd.github.v3+json), sends it with base (http.DefaultTransport
// when nil) and records the exchange for Violations, Exchanges and Check.
// It does not change the URL: point the client at URL() yourself.
func (p *Prism) Transport(base http.RoundTripper) http.RoundTripper {
	if base == nil {
		base = http.DefaultTransport
	}
	return &recorder{p: p, base: base}
}

// Exchanges returns a copy of the exchanges recorded so far, in the order
// their answers arrived.
func (p *Prism) Exchanges() []Exchange {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := make([]Exchange, len(p.exchanges))
	copy(out, p.exchanges)
	return out
}

// Violations returns the request violations Prism found in the recorded
// exchanges, each as "METHOD PATH: location: message". They are what Prism
// logs as "Violation: request.…" lines, read from the answer (the
// sl-violations header, or a problem+json body) so that each is tied to its
// request and none is lost to log buffering. This matters because for an
// operation that documents its own 422 (create a review, for example) Prism
// answers with that response's example and reports the details nowhere
// else. Requests that did not go through Client or Transport are not seen.
func (p *Prism) Violations() []string {
	var out []string
	for _, e := range p.Exchanges() {
		for _, v := range e.Violations {
			out = append(out, e.Method+" "+e.Path+": "+v)
		}
	}
	return out
}

// Check fails the test (one t.Errorf listing them all) if any exchange
// recorded since StartPrism:
//   - failed at the transport level (no answer),
//   - got a status outside 200–299 (Prism answers 404 to a path not in the
//     trimmed description, 406 to a vendor Accept sent around Transport, 422
//     to an invalid request), or
//   - has a request violation (see Violations), whatever its status;
//
// or if Prism has exited. Response violations are not failures. Check does
// not reset the recording; call it once, after the calls under test.
func (p *Prism) Check(t testing.TB) {
	t.Helper()
	if problems := p.problems(); len(problems) > 0 {
		t.Errorf("GitHub API contract (Prism at %s): %d problem(s):\n  %s",
			p.url, len(problems), strings.Join(problems, "\n  "))
	}
}

func (p *Prism) problems() []string {
	var out []string
	for _, e := range p.Exchanges() {
		where := e.Method + " " + e.Path
		switch {
		case e.Err != "":
			out = append(out, where+": no answer: "+e.Err)
		case e.Status < 200 || e.Status > 299:
			s := fmt.Sprintf("%s: status %d", where, e.Status)
			if e.Problem != "" {
				s += " (" + e.Problem + ")"
			}
			out = append(out, s)
		}
		for _, v := range e.Violations {
			out = append(out, where+": violation: "+v)
		}
	}
	select {
	case <-p.done:
		out = append(out, fmt.Sprintf("prism exited: %v", p.werr))
	default:
	}
	return out
}

func (p *Prism) record(e Exchange) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.exchanges = append(p.exchanges, e)
}

type recorder struct {
	p    *Prism
	base http.RoundTripper
}

// violation is one entry of Prism's sl-violations header or of a
// problem+json "validation" array.
type violation struct {
	Location []string `json:"location"`
	Severity string   `json:"severity"`
	Code     string   `json:"code"`
	Message  string   `json:"message"`
}

func (v violation) String() string { return strings.Join(v.Location, ".") + ": " + v.Message }

func (r *recorder) RoundTrip(req *http.Request) (*http.Response, error) {
	req = req.Clone(req.Context())
	req.Header.Set("Accept", "application/json")
	e := Exchange{Method: req.Method, Path: req.URL.RequestURI()}
	resp, err := r.base.RoundTrip(req)
	if err != nil {
		e.Err = err.Error()
		r.p.record(e)
		return nil, err
	}
	e.Status = resp.StatusCode
	if h := resp.Header.Get("sl-violations"); h != "" {
		var vs []violation
		if err := json.Unmarshal([]byte(h), &vs); err != nil {
			// "Too many violations! …": Prism truncated the header at about 8 KiB.
			e.Violations = append(e.Violations, "unparsed sl-violations header: "+tail(h, 200))
		}
		for _, v := range vs {
			if len(v.Location) > 0 && v.Location[0] == "response" {
				e.ResponseViolations = append(e.ResponseViolations, v.String())
			} else {
				e.Violations = append(e.Violations, v.String())
			}
		}
	}
	if mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type")); mt == "application/problem+json" {
		body, rerr := io.ReadAll(resp.Body)
		_ = resp.Body.Close()
		resp.Body = io.NopCloser(bytes.NewReader(body))
		if rerr != nil {
			e.Problem = "read body: " + rerr.Error()
		} else {
			var pj struct {
				Title      string      `json:"title"`
				Detail     string      `json:"detail"`
				Validation []violation `json:"validation"`
			}
			if err := json.Unmarshal(body, &pj); err != nil {
				e.Problem = "unparsed problem+json: " + tail(string(body), 200)
			} else {
				e.Problem = strings.TrimSpace(pj.Title + ": " + pj.Detail)
				for _, v := range pj.Validation {
					v.Location = append([]string{"request"}, v.Location...)
					e.Violations = append(e.Violations, v.String())
				}
			}
		}
	}
	r.p.record(e)
	return resp, nil
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("pick a free port: %w", err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// syncBuffer is a bytes.Buffer safe for the concurrent writes of a process's
// stdout and stderr.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(b []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(b)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// tail returns the last n bytes of s.
func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "…" + s[len(s)-n:]
}
