package webhook

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/riverqueue/river/rivertype"
)

func TestNewServerRefusesBadConfig(t *testing.T) {
	t.Parallel()
	runner := newFakeRunner(nil)
	tests := []struct {
		name string
		cfg  Config
		want string
	}{
		{"nil secret", Config{DataDir: t.TempDir(), Runner: runner}, "secret is required"},
		{"empty secret", Config{DataDir: t.TempDir(), Runner: runner, Secret: []byte{}}, "secret is required"},
		{"no runner", Config{DataDir: t.TempDir(), Secret: []byte("s")}, "Runner is required"},
		{"no database", Config{Runner: runner, Secret: []byte("s")}, "data directory or a database URL"},
		{"rescue before timeout", Config{DataDir: t.TempDir(), Runner: runner, Secret: []byte("s"),
			JobTimeout: time.Minute, RescueAfter: time.Second}, "RescueAfter"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s, err := NewServer(t.Context(), tt.cfg)
			if err == nil {
				_ = s.Shutdown(t.Context())
				t.Fatalf("NewServer succeeded; want an error containing %q", tt.want)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("NewServer error %q; want it to contain %q", err, tt.want)
			}
		})
	}
}

func TestVerifySignature(t *testing.T) {
	t.Parallel()
	body := []byte(`{"zen":"Design for failure."}`)
	good := sign([]byte(testSecret), body)
	tests := []struct {
		name   string
		secret string
		header string
		want   bool
	}{
		{"good", testSecret, good, true},
		{"upper-case hex", testSecret, "sha256=" + strings.ToUpper(good[7:]), true},
		{"wrong secret", "other", good, false},
		{"empty secret", "", good, false},
		{"missing", testSecret, "", false},
		{"sha1 prefix", testSecret, "sha1=" + good[7:], false},
		{"no prefix", testSecret, good[7:], false},
		{"truncated", testSecret, good[:len(good)-2], false},
		{"not hex", testSecret, "sha256=" + strings.Repeat("zz", 32), false},
		{"one bit off", testSecret, good[:len(good)-1] + map[bool]string{true: "0", false: "1"}[good[len(good)-1] != '0'], false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := verifySignature([]byte(tt.secret), body, tt.header); got != tt.want {
				t.Errorf("verifySignature = %v, want %v", got, tt.want)
			}
		})
	}
}

// TestRejectedDeliveries: forged, unsigned, oversized, malformed and
// incomplete deliveries get the right status and queue nothing.
func TestRejectedDeliveries(t *testing.T) {
	t.Parallel()
	pr := prPayload(t, "opened", headA, 0)
	big := append([]byte(`{"x":"`), append([]byte(strings.Repeat("a", 70000)), `"}`...)...)
	tests := []struct {
		name   string
		d      delivery
		status int
		body   string
	}{
		{"unsigned", delivery{event: "pull_request", id: "d1", body: pr, sig: "-"}, 401, "unauthorized"},
		{"forged body", delivery{event: "pull_request", id: "d2", body: pr,
			sig: sign([]byte(testSecret), prPayload(t, "opened", headB, 0))}, 401, "unauthorized"},
		{"wrong secret", delivery{event: "pull_request", id: "d3", body: pr, sig: sign([]byte("guess"), pr)}, 401, "unauthorized"},
		{"sha1 only", delivery{event: "pull_request", id: "d4", body: pr, sig: "-",
			override: http.Header{"X-Hub-Signature": {"sha1=0123"}}}, 401, "unauthorized"},
		{"garbage signature", delivery{event: "pull_request", id: "d5", body: pr, sig: "sha256=nothex"}, 401, "unauthorized"},
		{"oversized", delivery{event: "pull_request", id: "d6", body: big}, 413, "too large"},
		{"oversized unsigned", delivery{event: "pull_request", id: "d7", body: big, sig: "-"}, 413, "too large"},
		{"malformed JSON", delivery{event: "pull_request", id: "d8", body: []byte(`{"action":"opened",`)}, 400, "bad request"},
		{"malformed JSON, other event", delivery{event: "push", id: "d9", body: []byte(`{nope`)}, 400, "bad request"},
		{"wrong JSON type", delivery{event: "pull_request", id: "d10", body: []byte(`{"action":["opened"]}`)}, 400, "bad request"},
		{"no event header", delivery{id: "d11", body: pr, noEvent: true}, 400, "bad request"},
		{"no delivery header", delivery{event: "pull_request", body: pr, noID: true}, 400, "bad request"},
		{"no head SHA", delivery{event: "pull_request", id: "d12",
			body: payload(t, "pull_request.opened.installation.json", map[string]any{"pull_request.head.sha": ""})}, 400, "bad request"},
		{"form without payload", delivery{event: "pull_request", id: "d13", body: []byte("a=b"),
			ctype: "application/x-www-form-urlencoded"}, 400, "bad request"},
		{"GET", delivery{method: http.MethodGet, event: "pull_request", id: "d14", body: nil}, 405, "bad request"},
	}
	for _, b := range backends(t) {
		t.Run(b.name, func(t *testing.T) {
			t.Parallel()
			runner := newFakeRunner(nil)
			s := newServer(t, b, Config{MaxBody: 64 << 10, Runner: runner})
			h := s.Handler()
			for _, tt := range tests {
				t.Run(tt.name, func(t *testing.T) {
					got := deliver(t, h, tt.d)
					if diff := cmp.Diff(answer{tt.status, tt.body}, got, cmp.AllowUnexported(answer{})); diff != "" {
						t.Errorf("answer (-want +got):\n%s", diff)
					}
				})
			}
			if rows := jobsOf(t, s); len(rows) != 0 {
				t.Errorf("%d jobs queued by rejected deliveries; want none", len(rows))
			}
			// A legitimate delivery still works, and its delivery id was not
			// burnt by a rejected one with the same id.
			if got := deliver(t, h, delivery{event: "pull_request", id: "d1", body: pr}); got.status != http.StatusAccepted {
				t.Errorf("signed delivery after the rejected ones: %+v, want 202", got)
			}
		})
	}
}

// TestDeliveryRouting: which events and actions queue which jobs.
func TestDeliveryRouting(t *testing.T) {
	t.Parallel()
	prJob := func(head string) *Job {
		return &Job{InstallationID: 1, Owner: "Codertocat", Repo: "Hello-World", PR: 2, HeadSHA: head,
			BaseSHA: "f95f852bd8fca8fcc58a9a2d6c842781e32a215e"}
	}
	rerun := &Job{InstallationID: 7, Owner: "Codertocat", Repo: "Hello-World", PR: 1, Rerun: true}
	tests := []struct {
		name   string
		drafts bool
		event  string
		body   []byte
		status int
		out    string
		job    *Job // the job queued, nil for none
	}{
		{"opened", false, "pull_request", payload(t, "pull_request.opened.installation.json", nil), 202, "queued", prJob(headA)},
		{"synchronize", false, "pull_request", payload(t, "pull_request.synchronize.json", nil), 202, "queued", prJob(headA)},
		{"reopened", false, "pull_request", payload(t, "pull_request.reopened.json", nil), 202, "queued", prJob(headA)},
		{"ready_for_review", false, "pull_request", prPayload(t, "ready_for_review", headA, 0), 202, "queued", prJob(headA)},
		{"closed", false, "pull_request", prPayload(t, "closed", headA, 0), 200, "ignored", nil},
		{"edited", false, "pull_request", prPayload(t, "edited", headA, 0), 200, "ignored", nil},
		{"draft skipped", false, "pull_request", payload(t, "pull_request.opened.installation.json",
			map[string]any{"pull_request.draft": true}), 200, "draft", nil},
		{"draft reviewed", true, "pull_request", payload(t, "pull_request.opened.installation.json",
			map[string]any{"pull_request.draft": true}), 202, "queued", prJob(headA)},
		{"no installation", false, "pull_request", payload(t, "pull_request.opened.json", nil), 200, "ignored", nil},
		{"/docreview by owner", false, "issue_comment", commentPayload(t, "/docreview", "OWNER"), 202, "queued", rerun},
		{"/docreview by member", false, "issue_comment", commentPayload(t, "  /docreview\nplease", "MEMBER"), 202, "queued", rerun},
		{"/docreview dismiss by collaborator", false, "issue_comment",
			commentPayload(t, "/docreview dismiss the docs are right", "COLLABORATOR"), 202, "queued", rerun},
		{"/docreview by contributor", false, "issue_comment", commentPayload(t, "/docreview", "CONTRIBUTOR"), 200, "forbidden", nil},
		{"/docreview by none", false, "issue_comment", commentPayload(t, "/docreview", "NONE"), 200, "forbidden", nil},
		{"/docreview unknown subcommand", false, "issue_comment", commentPayload(t, "/docreview frobnicate", "OWNER"), 200, "ignored", nil},
		{"/docreviewer", false, "issue_comment", commentPayload(t, "/docreviewer", "OWNER"), 200, "ignored", nil},
		{"ordinary comment", false, "issue_comment", commentPayload(t, "LGTM", "OWNER"), 200, "ignored", nil},
		{"comment on an issue", false, "issue_comment", payload(t, "issue_comment.created.json",
			map[string]any{"comment.body": "/docreview", "installation.id": float64(7)}), 200, "ignored", nil},
		{"comment edited", false, "issue_comment", payload(t, "issue_comment.created.json", map[string]any{
			"action": "edited", "comment.body": "/docreview", "issue.pull_request.url": "u", "installation.id": float64(7)}), 200, "ignored", nil},
		{"dismiss reply by owner", false, "pull_request_review_comment", reviewReply(t, "/docreview dismiss the guide is versioned", "OWNER", 41),
			202, "queued", &Job{InstallationID: 7, Owner: "Codertocat", Repo: "Hello-World", PR: 2, Rerun: true}},
		{"dismiss reply by none", false, "pull_request_review_comment", reviewReply(t, "/docreview dismiss trust me", "NONE", 41), 200, "forbidden", nil},
		{"dismiss not as a reply", false, "pull_request_review_comment", reviewReply(t, "/docreview dismiss x", "OWNER", 0), 200, "ignored", nil},
		{"ordinary review comment", false, "pull_request_review_comment", reviewReply(t, "nit", "OWNER", 41), 200, "ignored", nil},
		{"installation", false, "installation", payload(t, "installation.created.json", nil), 200, "recorded", nil},
		{"installation_repositories", false, "installation_repositories", payload(t, "installation_repositories.added.json", nil), 200, "recorded", nil},
		{"ping", false, "ping", []byte(`{"zen":"Keep it logically awesome.","hook_id":1}`), 200, "pong", nil},
		{"unknown event", false, "workflow_run", payload(t, "workflow_run.completed.json", nil), 200, "ignored", nil},
		{"form-encoded", false, "pull_request", []byte("payload=" + urlQueryEscape(string(payload(t, "pull_request.opened.installation.json", nil)))),
			202, "queued", prJob(headA)},
	}
	for _, b := range backends(t) {
		t.Run(b.name, func(t *testing.T) {
			t.Parallel()
			for i, tt := range tests {
				t.Run(tt.name, func(t *testing.T) {
					// A fresh database per case.
					var bb backend
					if b.name == "sqlite" {
						dir := t.TempDir()
						bb = backend{name: "sqlite", config: func(cfg *Config) { cfg.DataDir = dir }}
					} else {
						u := postgresURL(t)
						bb = backend{name: "postgres", config: func(cfg *Config) { cfg.DatabaseURL = u }}
					}
					s := newServer(t, bb, Config{ReviewDrafts: tt.drafts})
					d := delivery{event: tt.event, id: fmt.Sprintf("routing-%d", i), body: tt.body}
					if strings.HasPrefix(string(tt.body), "payload=") {
						d.ctype = "application/x-www-form-urlencoded"
					}
					got := deliver(t, s.Handler(), d)
					if diff := cmp.Diff(answer{tt.status, strings.ReplaceAll(tt.out, "_", " ")}, got, cmp.AllowUnexported(answer{})); diff != "" {
						t.Errorf("answer (-want +got):\n%s", diff)
					}
					rows := jobsOf(t, s)
					var jobs []Job
					for _, r := range rows {
						jobs = append(jobs, argsOf(t, r).Job)
					}
					var want []Job
					if tt.job != nil {
						j := *tt.job
						j.DeliveryID = d.id
						want = []Job{j}
					}
					if diff := cmp.Diff(want, jobs); diff != "" {
						t.Errorf("queued jobs (-want +got):\n%s", diff)
					}
				})
			}
		})
	}
}

func urlQueryEscape(s string) string {
	r := strings.NewReplacer("%", "%25", "&", "%26", "+", "%2B", "=", "%3D", " ", "+", "#", "%23")
	return r.Replace(s)
}

// TestReplayedDelivery: the same X-GitHub-Delivery id twice is a no-op the
// second time, on every backend.
func TestReplayedDelivery(t *testing.T) {
	t.Parallel()
	for _, b := range backends(t) {
		t.Run(b.name, func(t *testing.T) {
			t.Parallel()
			s := newServer(t, b, Config{})
			d := delivery{event: "pull_request", id: "72d3162e-cc78-11e3-81ab-4c9367dc0958", body: prPayload(t, "opened", headA, 0)}
			first, second := deliver(t, s.Handler(), d), deliver(t, s.Handler(), d)
			want := []answer{{202, "queued"}, {200, "duplicate delivery"}}
			if diff := cmp.Diff(want, []answer{first, second}, cmp.AllowUnexported(answer{})); diff != "" {
				t.Errorf("answers (-want +got):\n%s", diff)
			}
			// A redelivery of a re-run is a no-op too.
			c := delivery{event: "issue_comment", id: "rerun-1", body: commentPayload(t, "/docreview", "OWNER")}
			if got := deliver(t, s.Handler(), c); got.status != 202 {
				t.Errorf("first /docreview: %+v, want 202", got)
			}
			if got := deliver(t, s.Handler(), c); got != (answer{200, "duplicate delivery"}) {
				t.Errorf("replayed /docreview: %+v, want 200 duplicate delivery", got)
			}
			if n := len(jobsOf(t, s)); n != 2 {
				t.Errorf("%d jobs, want 2", n)
			}
		})
	}
}

// TestDuplicateHeadOneReview: opened, synchronize and reopened deliveries
// (different ids) for one head give one job and one run; a /docreview
// re-run then runs again for the same head.
func TestDuplicateHeadOneReview(t *testing.T) {
	t.Parallel()
	for _, b := range backends(t) {
		t.Run(b.name, func(t *testing.T) {
			t.Parallel()
			runner := newFakeRunner(nil)
			s := newServer(t, b, Config{Runner: runner})
			var got []answer
			for i, action := range []string{"opened", "synchronize", "reopened"} {
				got = append(got, deliver(t, s.Handler(), delivery{event: "pull_request", id: fmt.Sprintf("dup-%d", i),
					body: prPayload(t, action, headA, i)}))
			}
			want := []answer{{202, "queued"}, {200, "duplicate job"}, {200, "duplicate job"}}
			if diff := cmp.Diff(want, got, cmp.AllowUnexported(answer{})); diff != "" {
				t.Errorf("answers (-want +got):\n%s", diff)
			}
			start(t, s)
			runner.wait(t, 10*time.Second)
			waitFor(t, 10*time.Second, "the job to complete", func() bool {
				return statesOf(jobsOf(t, s))[rivertype.JobStateCompleted] == 1
			})
			// The head was reviewed: a later delivery for it queues nothing.
			if a := deliver(t, s.Handler(), delivery{event: "pull_request", id: "dup-late", body: prPayload(t, "reopened", headA, 10)}); a != (answer{200, "duplicate job"}) {
				t.Errorf("delivery after the review: %+v, want 200 duplicate job", a)
			}
			// A /docreview re-run bypasses the completed job.
			if a := deliver(t, s.Handler(), delivery{event: "issue_comment", id: "dup-rerun",
				body: payload(t, "issue_comment.created.json", map[string]any{
					"comment.body": "/docreview", "issue.pull_request.url": "u", "installation.id": float64(1),
					"issue.number": float64(2)})}); a.status != 202 {
				t.Errorf("/docreview after the review: %+v, want 202", a)
			}
			rerun := runner.wait(t, 10*time.Second)
			if !rerun.Rerun || rerun.HeadSHA != "" || rerun.PR != 2 {
				t.Errorf("re-run job = %+v, want Rerun with HeadSHA \"\" for PR 2", rerun)
			}
			time.Sleep(300 * time.Millisecond)
			if n := len(runner.ran()); n != 2 {
				t.Errorf("Runner.Run called %d times, want 2 (one review, one re-run)", n)
			}
		})
	}
}

// TestNewerPushSupersedes: two pushes in quick succession run one review,
// for the newest head; a late redelivery of the older push is stale.
func TestNewerPushSupersedes(t *testing.T) {
	t.Parallel()
	for _, b := range backends(t) {
		t.Run(b.name, func(t *testing.T) {
			t.Parallel()
			runner := newFakeRunner(nil)
			s := newServer(t, b, Config{Runner: runner})
			h := s.Handler()
			got := []answer{
				deliver(t, h, delivery{event: "pull_request", id: "push-1", body: prPayload(t, "opened", headA, 0)}),
				deliver(t, h, delivery{event: "pull_request", id: "push-2", body: prPayload(t, "synchronize", headB, 5)}),
				// GitHub redelivers the first push (new id) after the second.
				deliver(t, h, delivery{event: "pull_request", id: "push-1-again", body: prPayload(t, "opened", headA, 0)}),
			}
			want := []answer{{202, "queued"}, {202, "queued"}, {200, "stale"}}
			if diff := cmp.Diff(want, got, cmp.AllowUnexported(answer{})); diff != "" {
				t.Errorf("answers (-want +got):\n%s", diff)
			}
			wantStates := map[rivertype.JobState]int{rivertype.JobStateCancelled: 1, rivertype.JobStateAvailable: 1}
			if diff := cmp.Diff(wantStates, statesOf(jobsOf(t, s))); diff != "" {
				t.Errorf("job states before start (-want +got):\n%s", diff)
			}
			start(t, s)
			if j := runner.wait(t, 10*time.Second); j.HeadSHA != headB {
				t.Errorf("ran head %s, want the newest %s", j.HeadSHA, headB)
			}
			time.Sleep(300 * time.Millisecond)
			if n := len(runner.ran()); n != 1 {
				t.Errorf("Runner.Run called %d times, want 1", n)
			}
		})
	}
}

// TestRunningJobSupersededOnRetry: a push arriving while the older head's
// review runs leaves that run alone; when the older run fails, its retry
// sees the newer head and cancels itself without running.
func TestRunningJobSupersededOnRetry(t *testing.T) {
	t.Parallel()
	for _, b := range backends(t) {
		t.Run(b.name, func(t *testing.T) {
			t.Parallel()
			release := make(chan struct{})
			runner := newFakeRunner(func(ctx context.Context, job Job, _ int) error {
				if job.HeadSHA == headA {
					<-release
					return errors.New("GitHub said 502")
				}
				return nil
			})
			s := newServer(t, b, Config{Runner: runner})
			h := s.Handler()
			deliver(t, h, delivery{event: "pull_request", id: "r-1", body: prPayload(t, "opened", headA, 0)})
			start(t, s)
			if j := runner.wait(t, 10*time.Second); j.HeadSHA != headA {
				t.Fatalf("first run head %s, want %s", j.HeadSHA, headA)
			}
			if a := deliver(t, h, delivery{event: "pull_request", id: "r-2", body: prPayload(t, "synchronize", headB, 5)}); a.status != 202 {
				t.Fatalf("second push: %+v", a)
			}
			close(release)
			if j := runner.wait(t, 10*time.Second); j.HeadSHA != headB {
				t.Fatalf("second run head %s, want %s", j.HeadSHA, headB)
			}
			// The retry waits for River's scheduler, which runs every 5 s
			// and only on the elected leader; on a loaded machine with
			// many test clients electing leaders on PostgreSQL, that has
			// taken over 30 s.
			waitFor(t, 240*time.Second, "the old job to be cancelled as superseded on its retry", func() bool {
				st := statesOf(jobsOf(t, s))
				ok := st[rivertype.JobStateCancelled] == 1 && st[rivertype.JobStateCompleted] == 1
				if !ok && testing.Verbose() {
					for _, r := range jobsOf(t, s) {
						t.Logf("job %d %s attempt %d scheduled %s errors %d", r.ID, r.State, r.Attempt, time.Until(r.ScheduledAt).Round(time.Millisecond), len(r.Errors))
					}
				}
				return ok
			})
			for _, r := range jobsOf(t, s) {
				if r.State == rivertype.JobStateCancelled && !slices.ContainsFunc(r.Errors, func(e rivertype.AttemptError) bool {
					return strings.Contains(e.Error, "superseded")
				}) {
					t.Errorf("cancelled job errors %+v, want a superseded one", r.Errors)
				}
			}
			if n := len(runner.ran()); n != 2 {
				t.Errorf("Runner.Run called %d times, want 2 (old head once, new head once)", n)
			}
		})
	}
}

// TestRunnerErrorRetried: a failing run is retried with backoff and then
// completes.
func TestRunnerErrorRetried(t *testing.T) {
	t.Parallel()
	for _, b := range backends(t) {
		t.Run(b.name, func(t *testing.T) {
			t.Parallel()
			runner := newFakeRunner(func(_ context.Context, _ Job, call int) error {
				if call == 1 {
					return errors.New("rate limited")
				}
				return nil
			})
			s := newServer(t, b, Config{Runner: runner})
			deliver(t, s.Handler(), delivery{event: "pull_request", id: "retry-1", body: prPayload(t, "opened", headA, 0)})
			start(t, s)
			runner.wait(t, 10*time.Second)
			runner.wait(t, 90*time.Second) // the retry waits for the leader's scheduler (see above)
			waitFor(t, 10*time.Second, "completion", func() bool {
				rows := jobsOf(t, s)
				return len(rows) == 1 && rows[0].State == rivertype.JobStateCompleted
			})
			row := jobsOf(t, s)[0]
			if row.Attempt != 2 || len(row.Errors) != 1 || !strings.Contains(row.Errors[0].Error, "rate limited") {
				t.Errorf("job attempt %d errors %+v, want attempt 2 with the first error recorded", row.Attempt, row.Errors)
			}
			if row.MaxAttempts != maxAttempts {
				t.Errorf("max attempts %d, want %d", row.MaxAttempts, maxAttempts)
			}
		})
	}
}

// TestPerInstallationLimit: one installation runs at most PerInstallation
// jobs at once while another installation's job runs beside them.
func TestPerInstallationLimit(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	running := map[int64]int{}
	peak := map[int64]int{}
	runner := newFakeRunner(func(ctx context.Context, job Job, _ int) error {
		mu.Lock()
		running[job.InstallationID]++
		peak[job.InstallationID] = max(peak[job.InstallationID], running[job.InstallationID])
		mu.Unlock()
		time.Sleep(300 * time.Millisecond)
		mu.Lock()
		running[job.InstallationID]--
		mu.Unlock()
		return nil
	})
	b := backends(t)[0]
	s := newServer(t, b, Config{Runner: runner, Workers: 4, PerInstallation: 1})
	for i := range 3 {
		body := payload(t, "pull_request.opened.installation.json", map[string]any{"number": float64(10 + i), "pull_request.number": float64(10 + i)})
		deliver(t, s.Handler(), delivery{event: "pull_request", id: fmt.Sprintf("inst1-%d", i), body: body})
	}
	other := payload(t, "pull_request.opened.installation.json", map[string]any{"installation.id": float64(99)})
	deliver(t, s.Handler(), delivery{event: "pull_request", id: "inst99", body: other})
	start(t, s)
	waitFor(t, 60*time.Second, "all four runs", func() bool { return len(runner.ran()) == 4 })
	mu.Lock()
	defer mu.Unlock()
	if diff := cmp.Diff(map[int64]int{1: 1, 99: 1}, peak); diff != "" {
		t.Errorf("peak concurrent runs per installation (-want +got):\n%s", diff)
	}
}

// TestShutdownReleasesRunningJob: a run still going when Shutdown's grace
// ends is cancelled and goes back to the queue; the next server on the same
// database runs it.
func TestShutdownReleasesRunningJob(t *testing.T) {
	t.Parallel()
	for _, b := range backends(t) {
		t.Run(b.name, func(t *testing.T) {
			t.Parallel()
			blocking := newFakeRunner(func(ctx context.Context, _ Job, _ int) error {
				<-ctx.Done()
				return ctx.Err()
			})
			cfg := Config{Runner: blocking, Secret: []byte(testSecret)}
			b.config(&cfg)
			s1, err := NewServer(t.Context(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			deliver(t, s1.Handler(), delivery{event: "pull_request", id: "sd-1", body: prPayload(t, "opened", headA, 0)})
			start(t, s1)
			blocking.wait(t, 10*time.Second)
			ctx, cancel := context.WithTimeout(t.Context(), hardStopReserve+500*time.Millisecond)
			defer cancel()
			if err := s1.Shutdown(ctx); err != nil {
				t.Fatalf("Shutdown: %v", err)
			}
			if a := deliver(t, s1.Handler(), delivery{event: "pull_request", id: "sd-2", body: prPayload(t, "opened", headB, 1)}); a.status != http.StatusServiceUnavailable {
				t.Errorf("delivery after Shutdown: %+v, want 503", a)
			}

			done := newFakeRunner(nil)
			s2 := newServer(t, b, Config{Runner: done})
			rows := jobsOf(t, s2)
			if len(rows) != 1 || rows[0].State != rivertype.JobStateAvailable {
				t.Fatalf("after shutdown: %d jobs, %+v; want one available job", len(rows), rows)
			}
			start(t, s2)
			if j := done.wait(t, 10*time.Second); j.HeadSHA != headA {
				t.Errorf("released job head %s, want %s", j.HeadSHA, headA)
			}
		})
	}
}

// TestOperationsEndpoints: /healthz, /readyz and /metrics.
func TestOperationsEndpoints(t *testing.T) {
	t.Parallel()
	b := backends(t)[0]
	s := newServer(t, b, Config{})
	deliver(t, s.Handler(), delivery{event: "pull_request", id: "ops-1", body: prPayload(t, "opened", headA, 0)})
	deliver(t, s.Handler(), delivery{event: "pull_request", id: "ops-2", body: []byte("{}"), sig: "-"})
	get := func(path string) (int, string) {
		w := httptest.NewRecorder()
		s.Handler().ServeHTTP(w, httptest.NewRequest(http.MethodGet, path, nil))
		body, _ := io.ReadAll(w.Result().Body)
		return w.Code, string(body)
	}
	if code, _ := get("/healthz"); code != 200 {
		t.Errorf("/healthz %d, want 200", code)
	}
	if code, body := get("/readyz"); code != 200 {
		t.Errorf("/readyz %d %q, want 200", code, body)
	}
	code, metrics := get("/metrics")
	if code != 200 {
		t.Fatalf("/metrics %d", code)
	}
	for _, want := range []string{
		`docreview_webhook_deliveries_total{event="pull_request",outcome="queued"} 1`,
		`docreview_webhook_deliveries_total{event="pull_request",outcome="unauthorized"} 1`,
		`docreview_jobs_total{state="enqueued"} 1`,
		`docreview_jobs_running 0`,
		`docreview_webhook_accept_seconds_count 2`,
		`# TYPE docreview_queue_latency_seconds histogram`,
		`# TYPE docreview_review_duration_seconds histogram`,
		`go_goroutines`,
	} {
		if !strings.Contains(metrics, want) {
			t.Errorf("/metrics lacks %q", want)
		}
	}
	if err := s.Shutdown(t.Context()); err != nil {
		t.Fatal(err)
	}
	if code, _ := get("/readyz"); code != http.StatusServiceUnavailable {
		t.Errorf("/readyz after Shutdown %d, want 503", code)
	}
	if code, _ := get("/healthz"); code != 200 {
		t.Errorf("/healthz after Shutdown %d, want 200", code)
	}
}

// TestAcceptLatency posts signed deliveries over loopback HTTP and reports
// the accept latency; the median must stay under the 100 ms target.
func TestAcceptLatency(t *testing.T) {
	t.Parallel()
	for _, b := range backends(t) {
		t.Run(b.name, func(t *testing.T) {
			t.Parallel()
			s := newServer(t, b, Config{})
			start(t, s)
			srv := httptest.NewServer(s.Handler())
			defer srv.Close()
			const n = 60
			var lat []time.Duration
			for i := range n {
				body := payload(t, "pull_request.opened.installation.json", map[string]any{"number": float64(100 + i), "pull_request.number": float64(100 + i)})
				req, _ := http.NewRequestWithContext(t.Context(), http.MethodPost, srv.URL+"/webhook", strings.NewReader(string(body)))
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set(headerEvent, "pull_request")
				req.Header.Set(headerDelivery, fmt.Sprintf("lat-%d", i))
				req.Header.Set(headerSignature, sign([]byte(testSecret), body))
				t0 := time.Now()
				resp, err := srv.Client().Do(req)
				if err != nil {
					t.Fatal(err)
				}
				_, _ = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				lat = append(lat, time.Since(t0))
				if resp.StatusCode != http.StatusAccepted {
					t.Fatalf("delivery %d: status %d", i, resp.StatusCode)
				}
			}
			slices.Sort(lat)
			p50, p99 := lat[n/2], lat[n*99/100]
			t.Logf("%s accept latency over %d deliveries: p50 %s, p99 %s, max %s", b.name, n, p50, p99, lat[n-1])
			if p50 > 100*time.Millisecond {
				t.Errorf("median accept latency %s, want < 100ms", p50)
			}
		})
	}
}

// reviewReply is the real pull_request_review_comment payload with the
// comment's body, author association and parent (0: not a reply) set, and
// an installation.
func reviewReply(t testing.TB, body, association string, parent int) []byte {
	t.Helper()
	edits := map[string]any{"comment.body": body, "comment.author_association": association, "installation.id": float64(7)}
	if parent > 0 {
		edits["comment.in_reply_to_id"] = float64(parent)
	}
	return payload(t, "pull_request_review_comment.created.json", edits)
}

// TestSQLiteQueueHasOneOwner: a second server on the same data directory
// is refused while the first runs, and may start once it has shut down.
func TestSQLiteQueueHasOneOwner(t *testing.T) {
	dir := t.TempDir()
	b := backend{name: "sqlite", config: func(cfg *Config) { cfg.DataDir = dir }}
	first, err := NewServer(t.Context(), Config{DataDir: dir, Secret: []byte(testSecret), Runner: newFakeRunner(nil), Logger: testLogger(t)})
	if err != nil {
		t.Fatal(err)
	}
	_, err = NewServer(t.Context(), Config{DataDir: dir, Secret: []byte(testSecret), Runner: newFakeRunner(nil), Logger: testLogger(t)})
	if err == nil || !strings.Contains(err.Error(), "another docreview serve uses its queue") {
		t.Fatalf("second server on one data dir: error %v, want a refusal naming the cause", err)
	}
	if err := first.Shutdown(t.Context()); err != nil {
		t.Fatal(err)
	}
	newServer(t, b, Config{}) // the lock is free again
}
