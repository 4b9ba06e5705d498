package webhook

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/jackc/pgx/v5/pgxpool"
)

// apiRunner stands in for the App's Runner against a pull request whose
// head, per the API, is head: a job for another head returns a
// *SupersededError naming it, a job for head is "published".
type apiRunner struct {
	mu        sync.Mutex
	head      string
	published map[string]int
	runs      []string
}

func (r *apiRunner) Run(_ context.Context, j Job) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.runs = append(r.runs, j.HeadSHA)
	if j.HeadSHA != "" && j.HeadSHA != r.head {
		return &SupersededError{Head: r.head, Base: headC}
	}
	r.published[r.head]++
	return nil
}

func (r *apiRunner) count(head string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.published[head]
}

// TestEqualTimesKeepTheAPIsHead: the API's head is B; B's synchronize and
// then an older head A's, both with the same updated_at, are queued. A's
// job, run first or alone, finds B at the API and makes sure B is
// reviewed: a head is never lost to an ordering the timestamps cannot
// decide.
func TestEqualTimesKeepTheAPIsHead(t *testing.T) {
	t.Parallel()
	for _, b := range backends(t) {
		t.Run(b.name, func(t *testing.T) {
			t.Parallel()
			runner := &apiRunner{head: headB, published: map[string]int{}}
			s := newServer(t, b, Config{Runner: runner})
			h := s.Handler()
			got := []answer{
				deliver(t, h, delivery{event: "pull_request", id: "tie-b", body: prPayload(t, "synchronize", headB, 5)}),
				deliver(t, h, delivery{event: "pull_request", id: "tie-a", body: prPayload(t, "synchronize", headA, 5)}),
			}
			if got[0].status != 202 || got[1].status != 202 {
				t.Fatalf("answers %+v, want both queued", got)
			}
			start(t, s)
			waitFor(t, 30*time.Second, "head B to be published", func() bool { return runner.count(headB) == 1 })
			time.Sleep(300 * time.Millisecond)
			if n := runner.count(headB); n != 1 {
				t.Errorf("head B published %d times, want 1", n)
			}
			if n := runner.count(headA); n != 0 {
				t.Errorf("head A published %d times, want 0", n)
			}
			if latest, err := s.q.latestHead(t.Context(), "codertocat/hello-world", 2); err != nil || latest != headB {
				t.Errorf("recorded head %q, %v; want %s", latest, err, headB)
			}
			// A redelivery of either changes nothing.
			if a := deliver(t, h, delivery{event: "pull_request", id: "tie-a", body: prPayload(t, "synchronize", headA, 5)}); a != (answer{200, "duplicate delivery"}) {
				t.Errorf("redelivery of A: %+v", a)
			}
		})
	}
}

// TestForcePushBackReviewsAgain: A is reviewed, then B, then the branch is
// force-pushed back to A: A is reviewed again so that the summary and the
// check run follow the head, instead of "duplicate job".
func TestForcePushBackReviewsAgain(t *testing.T) {
	t.Parallel()
	for _, b := range backends(t) {
		t.Run(b.name, func(t *testing.T) {
			t.Parallel()
			runner := &apiRunner{head: headA, published: map[string]int{}}
			s := newServer(t, b, Config{Runner: runner})
			h := s.Handler()
			start(t, s)
			push := func(id, head string, offset int, want answer, published int) {
				t.Helper()
				runner.mu.Lock()
				runner.head = head
				runner.mu.Unlock()
				if a := deliver(t, h, delivery{event: "pull_request", id: id, body: prPayload(t, "synchronize", head, offset)}); a != want {
					t.Fatalf("push %s: %+v, want %+v", id, a, want)
				}
				waitFor(t, 30*time.Second, "head "+head[:7]+" to be published", func() bool { return runner.count(head) == published })
			}
			push("fp-1", headA, 0, answer{202, "queued"}, 1)
			push("fp-2", headB, 5, answer{202, "queued"}, 1)
			push("fp-3", headA, 10, answer{202, "queued"}, 2)
			// The same head again, not moved: one review is enough.
			push("fp-4", headA, 11, answer{200, "duplicate job"}, 2)
			time.Sleep(300 * time.Millisecond)
			if diff := cmp.Diff(map[string]int{headA: 2, headB: 1}, runner.published); diff != "" {
				t.Errorf("publications (-want +got):\n%s", diff)
			}
		})
	}
}

// slowRunner is an apiRunner whose run of head slow publishes only once
// release is closed, and then finds the API's head as it is by then.
type slowRunner struct {
	*apiRunner
	slow    string
	started chan struct{}
	release chan struct{}
}

func (r *slowRunner) Run(ctx context.Context, j Job) error {
	if j.HeadSHA != r.slow {
		return r.apiRunner.Run(ctx, j)
	}
	close(r.started)
	<-r.release
	r.mu.Lock()
	defer r.mu.Unlock()
	r.runs = append(r.runs, j.HeadSHA)
	r.published[j.HeadSHA]++ // published, and only then asks for the head
	if r.head != j.HeadSHA {
		return &SupersededError{Head: r.head, Base: headC}
	}
	return nil
}

// TestLatePublicationReviewsTheHeadAgain: B's review publishes slowly;
// meanwhile the branch goes back to A, whose review publishes first. B's
// summary landed last, so B's job, finding A at the API afterwards, must
// have A reviewed again, although A is the head the queue recorded and A's
// review is complete.
func TestLatePublicationReviewsTheHeadAgain(t *testing.T) {
	t.Parallel()
	for _, b := range backends(t) {
		t.Run(b.name, func(t *testing.T) {
			t.Parallel()
			runner := &slowRunner{apiRunner: &apiRunner{head: headA, published: map[string]int{}}, slow: headB,
				started: make(chan struct{}), release: make(chan struct{})}
			s := newServer(t, b, Config{Runner: runner, Workers: 2, PerInstallation: 2})
			h := s.Handler()
			start(t, s)
			setHead := func(head string) {
				runner.mu.Lock()
				runner.head = head
				runner.mu.Unlock()
			}
			if a := deliver(t, h, delivery{event: "pull_request", id: "late-1", body: prPayload(t, "synchronize", headA, 0)}); a.status != 202 {
				t.Fatalf("push A: %+v", a)
			}
			waitFor(t, 30*time.Second, "head A to be published", func() bool { return runner.count(headA) == 1 })
			setHead(headB)
			if a := deliver(t, h, delivery{event: "pull_request", id: "late-2", body: prPayload(t, "synchronize", headB, 5)}); a.status != 202 {
				t.Fatalf("push B: %+v", a)
			}
			<-runner.started
			setHead(headA) // force-pushed back while B's review runs
			if a := deliver(t, h, delivery{event: "pull_request", id: "late-3", body: prPayload(t, "synchronize", headA, 10)}); a.status != 202 {
				t.Fatalf("push back to A: %+v", a)
			}
			waitFor(t, 30*time.Second, "head A to be published again", func() bool { return runner.count(headA) == 2 })
			close(runner.release) // B publishes last
			waitFor(t, 30*time.Second, "head A to be published after B", func() bool { return runner.count(headA) == 3 })
			time.Sleep(300 * time.Millisecond)
			if diff := cmp.Diff(map[string]int{headA: 3, headB: 1}, runner.published); diff != "" {
				t.Errorf("publications (-want +got):\n%s", diff)
			}
		})
	}
}

// TestHeadsPrunedByWriteTime: a pull request last updated long ago keeps
// its recorded head after the hourly prune (the record is new), so a late
// redelivery of an older push is still stale; a record written before the
// cut-off goes.
func TestHeadsPrunedByWriteTime(t *testing.T) {
	t.Parallel()
	for _, b := range backends(t) {
		t.Run(b.name, func(t *testing.T) {
			t.Parallel()
			s := newServer(t, b, Config{})
			h := s.Handler()
			// The example payload's updated_at is in 2019.
			if a := deliver(t, h, delivery{event: "pull_request", id: "old-1", body: prPayload(t, "synchronize", headB, 5)}); a.status != 202 {
				t.Fatalf("push: %+v", a)
			}
			now := time.Now()
			if err := s.q.prune(t.Context(), now.Add(-retention), now.Add(-headRetention)); err != nil {
				t.Fatal(err)
			}
			if a := deliver(t, h, delivery{event: "pull_request", id: "old-2", body: prPayload(t, "synchronize", headA, 0)}); a != (answer{200, "stale"}) {
				t.Errorf("older push after the prune: %+v, want 200 stale", a)
			}
			if err := s.q.prune(t.Context(), now.Add(-retention), now.Add(time.Minute)); err != nil {
				t.Fatal(err)
			}
			if latest, err := s.q.latestHead(t.Context(), "codertocat/hello-world", 2); err != nil || latest != "" {
				t.Errorf("after pruning records written before now: head %q, %v; want none", latest, err)
			}
		})
	}
}

// TestHeadTableMigration: a queue database written before
// docreview_pr_head had recorded_at opens, keeps its heads, and dates them
// at the migration.
func TestHeadTableMigration(t *testing.T) {
	t.Parallel()
	for _, b := range backends(t) {
		t.Run(b.name, func(t *testing.T) {
			t.Parallel()
			var cfg Config
			b.config(&cfg)
			open := func() *Server {
				c := cfg
				c.Secret, c.Runner = []byte(testSecret), newFakeRunner(nil)
				s, err := NewServer(t.Context(), c)
				if err != nil {
					t.Fatalf("NewServer: %v", err)
				}
				return s
			}
			s := open()
			if a := deliver(t, s.Handler(), delivery{event: "pull_request", id: "mig-1", body: prPayload(t, "synchronize", headB, 5)}); a.status != 202 {
				t.Fatalf("push: %+v", a)
			}
			if err := s.Shutdown(t.Context()); err != nil {
				t.Fatal(err)
			}
			exec := rawExec(t, cfg)
			exec("DROP INDEX docreview_pr_head_recorded_at")
			exec("ALTER TABLE docreview_pr_head DROP COLUMN recorded_at")
			before := time.Now()
			s = open()
			defer func() { _ = s.Shutdown(context.Background()) }()
			if latest, err := s.q.latestHead(t.Context(), "codertocat/hello-world", 2); err != nil || latest != headB {
				t.Fatalf("head after migration %q, %v; want %s", latest, err, headB)
			}
			recorded := rawInt(t, cfg, "SELECT recorded_at FROM docreview_pr_head")
			if recorded < before.UnixMilli() {
				t.Errorf("recorded_at %d, want the migration's time (≥ %d)", recorded, before.UnixMilli())
			}
			if a := deliver(t, s.Handler(), delivery{event: "pull_request", id: "mig-2", body: prPayload(t, "synchronize", headA, 0)}); a != (answer{200, "stale"}) {
				t.Errorf("older push after the migration: %+v, want stale", a)
			}
		})
	}
}

// rawExec returns a function running statements on cfg's queue database
// directly.
func rawExec(t *testing.T, cfg Config) func(q string) {
	t.Helper()
	return func(q string) {
		t.Helper()
		if cfg.DatabaseURL != "" {
			pool, err := pgxpool.New(t.Context(), cfg.DatabaseURL)
			if err != nil {
				t.Fatal(err)
			}
			defer pool.Close()
			if _, err := pool.Exec(t.Context(), q); err != nil {
				t.Fatalf("%s: %v", q, err)
			}
			return
		}
		db, err := sql.Open("sqlite", "file:"+filepath.Join(cfg.DataDir, sqliteFile))
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		if _, err := db.ExecContext(t.Context(), q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
}

func rawInt(t *testing.T, cfg Config, q string) int64 {
	t.Helper()
	var n int64
	if cfg.DatabaseURL != "" {
		pool, err := pgxpool.New(t.Context(), cfg.DatabaseURL)
		if err != nil {
			t.Fatal(err)
		}
		defer pool.Close()
		if err := pool.QueryRow(t.Context(), q).Scan(&n); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		return n
	}
	db, err := sql.Open("sqlite", "file:"+filepath.Join(cfg.DataDir, sqliteFile))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.QueryRowContext(t.Context(), q).Scan(&n); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return n
}

// TestHeadLock: a head commit is taken for one review at a time, in one
// process and, on PostgreSQL, across replicas sharing the queue; other
// heads and other repositories are free, and an unlocked head is free
// again.
func TestHeadLock(t *testing.T) {
	t.Parallel()
	for _, b := range backends(t) {
		t.Run(b.name, func(t *testing.T) {
			t.Parallel()
			ctx := t.Context()
			s := newServer(t, b, Config{})
			take := func(q queue, repo, head string) (func(), bool) {
				t.Helper()
				unlock, ok, err := q.lockHead(ctx, repo, head)
				if err != nil {
					t.Fatal(err)
				}
				return unlock, ok
			}
			unlock, ok := take(s.q, "o/r", headA)
			if !ok {
				t.Fatal("a free head: not taken")
			}
			if _, ok := take(s.q, "o/r", strings.ToUpper(headA)); ok {
				t.Error("a head taken in this process: taken again")
			}
			other, ok := take(s.q, "o/r", headB)
			if !ok {
				t.Error("another head: not taken")
			} else {
				other()
			}
			elsewhere, ok := take(s.q, "o/other", headA)
			if !ok {
				t.Error("the same commit in another repository: not taken")
			} else {
				elsewhere()
			}
			var replica *Server
			if b.name == "postgres" {
				replica = newServer(t, b, Config{})
				if _, ok := take(replica.q, "o/r", headA); ok {
					t.Error("a head another replica holds: taken")
				}
			}
			unlock()
			again, ok := take(s.q, "o/r", headA)
			if !ok {
				t.Fatal("an unlocked head: not taken")
			}
			again()
			if replica != nil {
				if u, ok := take(replica.q, "o/r", headA); !ok {
					t.Error("an unlocked head, from another replica: not taken")
				} else {
					u()
				}
			}
		})
	}
}

// headRunner records how many reviews of one head run at once.
type headRunner struct {
	mu         sync.Mutex
	running    int
	most, runs int
}

func (r *headRunner) Run(ctx context.Context, _ Job) error {
	r.mu.Lock()
	r.running++
	r.most = max(r.most, r.running)
	r.mu.Unlock()
	select {
	case <-time.After(150 * time.Millisecond):
	case <-ctx.Done():
	}
	r.mu.Lock()
	r.running--
	r.runs++
	r.mu.Unlock()
	return nil
}

// TestSharedHeadReviewedOneAtATime: pull requests that share a head are
// each reviewed, one at a time, with workers to spare: each publishes the
// head's check run, which must see the one before it.
func TestSharedHeadReviewedOneAtATime(t *testing.T) {
	t.Parallel()
	for _, b := range backends(t) {
		t.Run(b.name, func(t *testing.T) {
			t.Parallel()
			runner := &headRunner{}
			s := newServer(t, b, Config{Runner: runner, Workers: 4, PerInstallation: 4})
			h := s.Handler()
			start(t, s)
			const prs = 3
			for pr := 1; pr <= prs; pr++ {
				body := payload(t, "pull_request.opened.installation.json", map[string]any{
					"action": "opened", "number": pr, "pull_request.number": pr, "pull_request.head.sha": headA,
				})
				if a := deliver(t, h, delivery{event: "pull_request", id: fmt.Sprintf("shared-%d", pr), body: body}); a.status != 202 {
					t.Fatalf("pull request %d: %+v", pr, a)
				}
			}
			waitFor(t, 60*time.Second, "every pull request to be reviewed", func() bool {
				runner.mu.Lock()
				defer runner.mu.Unlock()
				return runner.runs == prs
			})
			runner.mu.Lock()
			defer runner.mu.Unlock()
			if runner.most != 1 {
				t.Errorf("%d reviews of the shared head ran at once, want 1", runner.most)
			}
		})
	}
}
