package webhook

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/riverqueue/river/rivertype"
)

// TestTwoServersShareOnePostgres: two servers (two River clients) on one
// PostgreSQL queue take deliveries alternately, duplicates included, and
// every head is reviewed exactly once. Skips without
// DOCREVIEW_TEST_DATABASE_URL unless DOCREVIEW_REQUIRE_POSTGRES=1.
func TestTwoServersShareOnePostgres(t *testing.T) {
	t.Parallel()
	u := postgresURL(t)
	if u == "" {
		t.Skipf("%s not set", postgresEnv)
	}
	b := backend{name: "postgres", config: func(cfg *Config) { cfg.DatabaseURL = u }}
	var mu sync.Mutex
	runs := map[string]int{} // "pr@head" -> runs
	byServer := [2]int{}
	mk := func(i int) *fakeRunner {
		return newFakeRunner(func(ctx context.Context, job Job, _ int) error {
			time.Sleep(20 * time.Millisecond)
			mu.Lock()
			defer mu.Unlock()
			runs[fmt.Sprintf("%d@%s", job.PR, job.HeadSHA)]++
			byServer[i]++
			return nil
		})
	}
	s1 := newServer(t, b, Config{Runner: mk(0), Workers: 2})
	s2 := newServer(t, b, Config{Runner: mk(1), Workers: 2})
	servers := []*Server{s1, s2}
	start(t, s1)
	start(t, s2)

	const prs = 20
	want := map[string]int{}
	queued := 0
	for pr := 1; pr <= prs; pr++ {
		body := payload(t, "pull_request.opened.installation.json", map[string]any{
			"number": float64(pr), "pull_request.number": float64(pr), "installation.id": float64(pr%3 + 1),
		})
		want[fmt.Sprintf("%d@%s", pr, headA)] = 1
		// Each head delivered three times with different ids, to both
		// servers, and one id replayed.
		for k := range 3 {
			a := deliver(t, servers[(pr+k)%2].Handler(), delivery{event: "pull_request", id: fmt.Sprintf("pg-%d-%d", pr, k), body: body})
			if a.status == 202 {
				queued++
			}
		}
		if a := deliver(t, servers[pr%2].Handler(), delivery{event: "pull_request", id: fmt.Sprintf("pg-%d-0", pr), body: body}); a != (answer{200, "duplicate delivery"}) {
			t.Errorf("replay on the other server: %+v", a)
		}
	}
	if queued != prs {
		t.Errorf("%d deliveries queued, want %d (one per head)", queued, prs)
	}
	waitFor(t, 60*time.Second, "every job to complete", func() bool {
		return statesOf(jobsOf(t, s1))[rivertype.JobStateCompleted] == prs
	})
	time.Sleep(200 * time.Millisecond)
	mu.Lock()
	defer mu.Unlock()
	if diff := cmp.Diff(want, runs); diff != "" {
		t.Errorf("runs per head (-want +got):\n%s", diff)
	}
	t.Logf("runs by server: %v", byServer)
}
