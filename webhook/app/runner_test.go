package app

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/docreview/docreview/review"
	"github.com/docreview/docreview/review/extract"
	ghpub "github.com/docreview/docreview/review/github"
	"github.com/docreview/docreview/rules"
	"github.com/docreview/docreview/webhook"
)

// fakeGitHub is the REST API edge of a run: installation tokens (the real
// ghinstallation flow, JWT verified), GET a pull request and GET
// /rate_limit. Requests other than the token's must carry the token.
type fakeGitHub struct {
	*fakeTokenAPI

	mu        sync.Mutex
	pr        map[string]any // the pull request JSON
	prStatus  int            // 0 means 200
	remaining int
	reset     time.Time
	paths     []string
	badAuth   []string
}

func newFakeGitHub(t *testing.T) *fakeGitHub {
	f := &fakeGitHub{fakeTokenAPI: &fakeTokenAPI{appID: 77, ttl: time.Hour, issued: map[int64]int{}}, remaining: 5000}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /app/installations/{id}/access_tokens", f.fakeTokenAPI.serve)
	mux.HandleFunc("GET /repos/{owner}/{repo}/pulls/{n}", func(w http.ResponseWriter, r *http.Request) {
		f.mu.Lock()
		defer f.mu.Unlock()
		if f.prStatus != 0 {
			http.Error(w, `{"message":"boom"}`, f.prStatus)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(f.pr)
	})
	mux.HandleFunc("GET /rate_limit", func(w http.ResponseWriter, r *http.Request) {
		f.mu.Lock()
		defer f.mu.Unlock()
		core := map[string]any{"limit": 5000, "remaining": f.remaining, "used": 5000 - f.remaining, "reset": f.reset.Unix()}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{"resources": map[string]any{"core": core}, "rate": core})
	})
	f.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f.mu.Lock()
		f.paths = append(f.paths, r.Method+" "+r.URL.Path)
		if !strings.HasPrefix(r.URL.Path, "/app/") && !strings.HasPrefix(r.Header.Get("Authorization"), "Bearer ghs_inst") {
			f.badAuth = append(f.badAuth, r.URL.Path+": "+r.Header.Get("Authorization"))
		}
		f.mu.Unlock()
		mux.ServeHTTP(w, r)
	}))
	t.Cleanup(f.Close)
	return f
}

func (f *fakeGitHub) setPR(state string, merged bool, head, base string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.pr = map[string]any{
		"number": 1, "state": state, "merged": merged,
		"head": map[string]any{"sha": head, "ref": "feature"},
		"base": map[string]any{"sha": base, "ref": "main"},
	}
}

// engineReview is the review cmd builds: the engine with the extractor and
// every rule, no model.
func engineReview(ctx context.Context, repoDir, base, head, indexDir string) (review.Report, error) {
	e := &review.Engine{Extractor: &extract.Extractor{}, Rules: rules.All()}
	return e.Review(ctx, review.Request{Repo: repoDir, Base: base, Head: head, IndexDir: indexDir})
}

// published records the calls of Runner.Publish.
type published struct {
	mu    sync.Mutex
	calls []publishCall
}

type publishCall struct {
	opt ghpub.Options
	rep review.Report
}

func (p *published) publish(_ context.Context, opt ghpub.Options, rep review.Report) (ghpub.Result, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.calls = append(p.calls, publishCall{opt, rep})
	return ghpub.Result{Conclusion: "failure"}, nil
}

func TestRunnerRun(t *testing.T) {
	src := buildExample(t)
	base, head := gitT(t, src, "rev-parse", "HEAD~1"), gitT(t, src, "rev-parse", "HEAD")
	first := gitT(t, src, "rev-list", "--max-parents=0", "HEAD")
	// The review of the pull request, run on the ordinary checkout.
	want, err := engineReview(context.Background(), src, base, head, "")
	if err != nil {
		t.Fatal(err)
	}
	if want.Stats.Contradicted == 0 {
		t.Fatalf("the example's review finds nothing: %+v", want.Stats)
	}
	_, pemKey := testKey()

	type env struct {
		api     *fakeGitHub
		git     *gitServer
		pub     *published
		runner  *Runner
		dir     string
		slept   []time.Duration
		reviews int
	}
	setup := func(t *testing.T, maxBytes int64) *env {
		e := &env{api: newFakeGitHub(t), pub: &published{}, dir: t.TempDir()}
		e.git = newGitServer(t, "ghs_inst5_n1") // the first token the fake issues for installation 5
		e.git.publish(t, src, "acme", "inventory")
		tokens, err := NewAppTokens(77, pemKey, e.api.URL+"/", nil)
		if err != nil {
			t.Fatal(err)
		}
		now := time.Unix(1_800_000_000, 0)
		e.runner = &Runner{
			Tokens: tokens, GitHubURL: e.api.URL, GitURL: e.git.URL + "/", Mirrors: NewMirrors(e.dir, maxBytes),
			Review: func(ctx context.Context, repoDir, base, head, indexDir string) (review.Report, error) {
				e.reviews++
				return engineReview(ctx, repoDir, base, head, indexDir)
			},
			Publish: e.pub.publish,
			now:     func() time.Time { return now },
			sleep: func(_ context.Context, d time.Duration) error {
				e.slept = append(e.slept, d)
				return nil
			},
		}
		e.api.setPR("open", false, head, base)
		e.api.mu.Lock()
		e.api.reset = now.Add(time.Hour)
		e.api.mu.Unlock()
		return e
	}
	job := webhook.Job{InstallationID: 5, Owner: "acme", Repo: "inventory", PR: 1, HeadSHA: head, BaseSHA: first, DeliveryID: "d-1"}
	ctx := context.Background()
	cmpReport := cmp.Options{cmpopts.IgnoreFields(review.Stats{}, "Timings"), cmpopts.EquateEmpty()}

	t.Run("reviews and publishes", func(t *testing.T) {
		e := setup(t, 0)
		if err := e.runner.Run(ctx, job); err != nil {
			t.Fatal(err)
		}
		if len(e.pub.calls) != 1 {
			t.Fatalf("%d publish calls, want 1", len(e.pub.calls))
		}
		c := e.pub.calls[0]
		if diff := cmp.Diff(want, c.rep, cmpReport); diff != "" {
			t.Errorf("report from the mirror differs from the checkout's (-checkout +mirror):\n%s", diff)
		}
		o := c.opt
		if o.Client == nil || o.Client.BaseURL.String() != e.api.URL+"/" {
			t.Errorf("publisher client: %v", o.Client)
		}
		o.Client, o.Logger = nil, nil
		wantOpt := ghpub.Options{Owner: "acme", Repo: "inventory", PR: 1, HeadSHA: head, ServerURL: e.git.URL,
			Reporters: ghpub.Reporters{Review: true, Check: true, Summary: true}, FailOn: "contradicted"}
		if diff := cmp.Diff(wantOpt, o, cmpopts.IgnoreUnexported(ghpub.Options{})); diff != "" {
			t.Errorf("publish options (-want +got):\n%s", diff)
		}
		// The index is the repository's, kept for the next pull request;
		// the worktree is gone.
		if _, err := os.Stat(filepath.Join(e.dir, "index", "acme", "inventory")); err != nil {
			t.Errorf("index directory: %v", err)
		}
		if left, _ := filepath.Glob(filepath.Join(e.dir, "work", "acme", "*")); len(left) > 0 {
			t.Errorf("worktrees left: %v", left)
		}
		assertTokenNotOnDisk(t, e.dir, "ghs_inst5_n1")
		if _, denied := e.git.stats(); denied != 0 {
			t.Errorf("%d git requests without the installation token", denied)
		}
		e.api.mu.Lock()
		if len(e.api.badAuth) > 0 || len(e.api.errs) > 0 {
			t.Errorf("API requests without the token %v, JWT problems %v", e.api.badAuth, e.api.errs)
		}
		if len(e.slept) > 0 {
			t.Errorf("waited %v with the rate limit at %d", e.slept, e.api.remaining)
		}
		e.api.mu.Unlock()

		// Another run of the repository reuses the mirror: no git request.
		before, _ := e.git.stats()
		if err := e.runner.Run(ctx, webhook.Job{InstallationID: 5, Owner: "Acme", Repo: "Inventory", PR: 1, DeliveryID: "d-2", Rerun: true}); err != nil {
			t.Fatal(err)
		}
		if after, _ := e.git.stats(); len(after) != len(before) {
			t.Errorf("second run fetched again: %v", after[len(before):])
		}
		if len(e.pub.calls) != 2 || e.pub.calls[1].opt.HeadSHA != head {
			t.Errorf("re-run with no head: %d publish calls", len(e.pub.calls))
		}
	})

	skips := []struct {
		name   string
		state  string
		merged bool
		head   string
	}{
		{"closed", "closed", false, head},
		{"merged", "closed", true, head},
		{"superseded by a newer push", "open", false, first},
	}
	for _, tc := range skips {
		t.Run("skips "+tc.name, func(t *testing.T) {
			e := setup(t, 0)
			e.api.setPR(tc.state, tc.merged, tc.head, base)
			err := e.runner.Run(ctx, job)
			var sup *webhook.SupersededError
			switch {
			case tc.head == head && err != nil:
				t.Fatal(err)
			case tc.head != head && (!errors.As(err, &sup) || sup.Head != tc.head || sup.Base != base):
				// The queue reviews the API's head instead: it must
				// learn which one.
				t.Fatalf("Run = %v, want a *webhook.SupersededError naming head %s and base %s", err, tc.head, base)
			}
			reqs, _ := e.git.stats()
			if len(e.pub.calls) != 0 || e.reviews != 0 || len(reqs) != 0 {
				t.Errorf("published %d, reviewed %d, git requests %d; want nothing", len(e.pub.calls), e.reviews, len(reqs))
			}
		})
	}

	t.Run("does not publish when the head moved during the review", func(t *testing.T) {
		e := setup(t, 0)
		inner := e.runner.Review
		e.runner.Review = func(ctx context.Context, repoDir, b, h, indexDir string) (review.Report, error) {
			rep, err := inner(ctx, repoDir, b, h, indexDir)
			e.api.setPR("open", false, first, base) // a push while reviewing
			return rep, err
		}
		err := e.runner.Run(ctx, job)
		var sup *webhook.SupersededError
		if !errors.As(err, &sup) || sup.Head != first || sup.Base != base {
			t.Fatalf("Run = %v, want a *webhook.SupersededError naming head %s and base %s", err, first, base)
		}
		if e.reviews != 1 || len(e.pub.calls) != 0 {
			t.Errorf("reviewed %d, published %d; want the review and no publication", e.reviews, len(e.pub.calls))
		}
	})

	t.Run("hands the head over to the queue when it moved while publishing", func(t *testing.T) {
		// A publication slowed by retries: the new head's review may
		// publish first, and this summary then lands after its.
		e := setup(t, 0)
		e.runner.Publish = func(ctx context.Context, opt ghpub.Options, rep review.Report) (ghpub.Result, error) {
			res, err := e.pub.publish(ctx, opt, rep)
			e.api.setPR("open", false, first, base) // a push while publishing
			return res, err
		}
		err := e.runner.Run(ctx, job)
		var sup *webhook.SupersededError
		if !errors.As(err, &sup) || sup.Head != first || sup.Base != base {
			t.Fatalf("Run = %v, want a *webhook.SupersededError naming head %s and base %s", err, first, base)
		}
		if e.reviews != 1 || len(e.pub.calls) != 1 {
			t.Errorf("reviewed %d, published %d; want 1 and 1", e.reviews, len(e.pub.calls))
		}
	})

	t.Run("downloads the head's dependencies before the review, and reviews when that fails", func(t *testing.T) {
		headMod := gitT(t, src, "show", head+":go.mod")
		for _, fail := range []bool{false, true} {
			e := setup(t, 0)
			var got []string
			e.runner.Dependencies = func(_ context.Context, gomod []byte) error {
				got = append(got, fmt.Sprintf("%s after %d reviews", strings.TrimSpace(string(gomod)), e.reviews))
				if fail {
					return errors.New("go mod download: example.com/private: 404 Not Found")
				}
				return nil
			}
			if err := e.runner.Run(ctx, job); err != nil {
				t.Fatalf("fail=%v: %v", fail, err)
			}
			want := []string{strings.TrimSpace(headMod) + " after 0 reviews"}
			if !slices.Equal(got, want) {
				t.Errorf("fail=%v: Dependencies got %q, want %q", fail, got, want)
			}
			if e.reviews != 1 || len(e.pub.calls) != 1 {
				t.Errorf("fail=%v: reviewed %d, published %d; want 1 and 1", fail, e.reviews, len(e.pub.calls))
			}
		}
	})

	t.Run("waits for the rate limit", func(t *testing.T) {
		for _, tc := range []struct {
			remaining int
			reset     time.Duration
			want      []time.Duration
		}{
			{5000, time.Hour, nil},
			{99, 90 * time.Second, []time.Duration{90 * time.Second}},
			{0, 2 * time.Hour, []time.Duration{10 * time.Minute}},
			{0, -time.Second, nil}, // already reset
		} {
			e := setup(t, 0)
			e.api.mu.Lock()
			e.api.remaining, e.api.reset = tc.remaining, e.runner.now().Add(tc.reset)
			e.api.mu.Unlock()
			if err := e.runner.Run(ctx, job); err != nil {
				t.Fatal(err)
			}
			if fmt.Sprint(e.slept) != fmt.Sprint(tc.want) {
				t.Errorf("remaining %d, reset in %s: slept %v, want %v", tc.remaining, tc.reset, e.slept, tc.want)
			}
		}
		// The real sleep ends with the context.
		e := setup(t, 0)
		e.runner.sleep = nil
		e.runner.now = time.Now
		e.api.mu.Lock()
		e.api.remaining, e.api.reset = 0, time.Now().Add(time.Hour)
		e.api.mu.Unlock()
		cctx, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
		defer cancel()
		if err := e.runner.Run(cctx, job); !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("Run waiting for the rate limit with an ending context: %v", err)
		}
	})

	t.Run("repository too large", func(t *testing.T) {
		e := setup(t, 4096)
		if err := e.runner.Run(ctx, job); err != nil {
			t.Fatalf("Run = %v, want nil: the skip is published", err)
		}
		if e.reviews != 0 || len(e.pub.calls) != 1 {
			t.Fatalf("reviewed %d, published %d; want 0 and 1", e.reviews, len(e.pub.calls))
		}
		c := e.pub.calls[0]
		if c.opt.Reporters != (ghpub.Reporters{Check: true, Summary: true}) || c.opt.HeadSHA != head {
			t.Errorf("publish options %+v", c.opt)
		}
		if len(c.rep.Notes) != 1 || !strings.HasPrefix(c.rep.Notes[0].Message, "skipped: repository larger than 4 KiB") {
			t.Errorf("notes %+v", c.rep.Notes)
		}
	})

	t.Run("errors name the pull request", func(t *testing.T) {
		for _, tc := range []struct {
			name   string
			mutate func(e *env)
			want   string
		}{
			{"API error", func(e *env) {
				e.api.mu.Lock()
				defer e.api.mu.Unlock()
				e.api.prStatus = http.StatusBadGateway
			}, "get the pull request"},
			{"review error", func(e *env) {
				e.runner.Review = func(context.Context, string, string, string, string) (review.Report, error) {
					return review.Report{}, errors.New("engine broke")
				}
			}, "engine broke"},
			{"git server refuses the token", func(e *env) { e.git.setToken("other") }, "fetch acme/inventory"},
			{"bad job", func(e *env) {}, "invalid job"},
		} {
			t.Run(tc.name, func(t *testing.T) {
				e := setup(t, 0)
				tc.mutate(e)
				j := job
				if tc.name == "bad job" {
					j.HeadSHA = "--upload-pack=x"
				}
				err := e.runner.Run(ctx, j)
				if err == nil || !strings.Contains(err.Error(), "acme/inventory#1: ") || !strings.Contains(err.Error(), tc.want) {
					t.Errorf("Run = %v, want an error naming acme/inventory#1 and %q", err, tc.want)
				}
				if err != nil && strings.Contains(err.Error(), "ghs_inst5") {
					t.Errorf("token in the error: %v", err)
				}
				if len(e.pub.calls) != 0 {
					t.Errorf("published %d times", len(e.pub.calls))
				}
			})
		}
	})
}
