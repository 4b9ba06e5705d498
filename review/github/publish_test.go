package github

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/docreview/docreview/review"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata")

// golden compares got with testdata/name, rewriting it with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read golden file (run go test -update): %v", err)
	}
	if diff := cmp.Diff(string(want), got); diff != "" {
		t.Errorf("%s differs (-want +got):\n%s", path, diff)
	}
}

const (
	head1 = "1111111aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
	head2 = "2222222bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"
	base  = "0000000cccccccccccccccccccccccccccccccccc"
)

// The pull request of the three-run test. Run 1 adds a doc comment for
// Purge (lines 11-12) and a README paragraph (lines 5-6).
var (
	cachePatch1 = "@@ -8,4 +8,8 @@ type Cache struct {\n" +
		" \tmu sync.Mutex\n" +
		" }\n" +
		" \n" +
		"+// Purge removes the entries older than\n" +
		"+// the TTL given to [New].\n" +
		"+func (c *Cache) Purge() int {\n" +
		"+\tc.mu.Lock()\n" +
		" \tdefer c.mu.Unlock()"
	readmePatch = "@@ -1,3 +1,6 @@\n" +
		" # cache\n" +
		" \n" +
		"-Old intro.\n" +
		"+A small in-memory cache.\n" +
		"+\n" +
		"+Call `Purge` to drop expired entries; it\n" +
		"+returns the number removed."
	// Run 3 fixes the Purge comment and documents Len (line 17).
	cachePatch3 = "@@ -8,4 +8,12 @@ type Cache struct {\n" +
		" \tmu sync.Mutex\n" +
		" }\n" +
		" \n" +
		"+// Purge removes the entries older than\n" +
		"+// the TTL given to [NewCache].\n" +
		"+func (c *Cache) Purge() int {\n" +
		"+\tc.mu.Lock()\n" +
		"+}\n" +
		"+\n" +
		"+// Len returns the number of entries, expired ones excluded.\n" +
		"+func (c *Cache) Len() int {\n" +
		" \tdefer c.mu.Unlock()"
)

func purgeClaim(text string) review.Claim {
	return review.Claim{ID: review.Fingerprint("cache/cache.go", "Cache.Purge", text), Path: "cache/cache.go",
		Line: 11, EndLine: 12, Kind: review.KindDocComment, Symbol: "Cache.Purge", Package: "cache", Text: text, Changed: true}
}

var (
	findingA = review.Verdict{
		Claim: purgeClaim("Purge removes the entries older than\nthe TTL given to [New]."),
		Label: review.Contradicted, Rule: "stale-reference",
		Message:    "[New] no longer exists; the constructor is NewCache.",
		Suggestion: "Purge removes the entries older than\nthe TTL given to [NewCache].",
		Confidence: 0.9,
		Evidence: []review.Evidence{{ID: "e1", Path: "cache/cache.go", StartLine: 20, EndLine: 22, Source: review.SourceCode,
			Snippet: "func NewCache(ttl time.Duration) *Cache {\n\treturn &Cache{ttl: ttl}\n}", Why: "defines NewCache",
			Hops: []string{"New", "renamed to NewCache"}}},
	}
	findingB = review.Verdict{
		Claim: review.Claim{ID: review.Fingerprint("README.md", "", "Call `Purge`..."), Path: "README.md", Line: 5, EndLine: 6,
			Kind: review.KindMarkdown, Context: "cache", Text: "Call `Purge` to drop expired entries; it\nreturns the number removed.", Changed: true},
		Label: review.Incomplete, Rule: "missing-contract",
		Message: "Purge also locks the cache; say it is safe for concurrent use.",
		Evidence: []review.Evidence{{ID: "e1", Path: "cache/cache.go", StartLine: 13, EndLine: 15, Source: review.SourceCode,
			Snippet: "func (c *Cache) Purge() int {\n\tc.mu.Lock()\n\tdefer c.mu.Unlock()", Why: "body of Cache.Purge"}},
	}
	findingC = review.Verdict{
		Claim: review.Claim{ID: review.Fingerprint("docs/guide.md", "", "Call New(ttl)"), Path: "docs/guide.md", Line: 40, EndLine: 41,
			Kind: review.KindMarkdown, Context: "Guide > Setup", Text: "Create a cache with `New(ttl)`."},
		Label: review.Contradicted, Rule: "stale-reference",
		Message:    "`New` was renamed to `NewCache` in this pull request.",
		Suggestion: "Create a cache with `NewCache(ttl)`.",
		Evidence: []review.Evidence{{ID: "e1", Path: "cache/cache.go", StartLine: 20, EndLine: 20, Source: review.SourceDiff,
			Snippet: "func NewCache(ttl time.Duration) *Cache {", Why: "renamed from New"}},
	}
	findingD = review.Verdict{
		Claim: review.Claim{ID: review.Fingerprint("cache/cache.go", "Cache.Len", "Len returns..."), Path: "cache/cache.go", Line: 17, EndLine: 17,
			Kind: review.KindDocComment, Symbol: "Cache.Len", Package: "cache", Text: "Len returns the number of entries, expired ones excluded.", Changed: true},
		Label: review.Contradicted, Rule: "llm",
		Message:    "Len counts every entry; expired ones are only dropped by Purge.",
		Suggestion: "Len returns the number of entries, expired ones included.",
		Evidence: []review.Evidence{{ID: "e1", Path: "cache/cache.go", StartLine: 18, EndLine: 19, Source: review.SourceCode,
			Snippet: "func (c *Cache) Len() int {\n\treturn len(c.m)", Why: "body of Cache.Len", Hops: []string{"Cache.Len"}}},
	}
	consistent = review.Verdict{
		Claim: review.Claim{ID: "c0ffee0000000001", Path: "README.md", Line: 3, EndLine: 3, Kind: review.KindMarkdown, Text: "A small in-memory cache."},
		Label: review.Consistent, Rule: "stale-reference",
	}
)

func report(head string, vs ...review.Verdict) review.Report {
	return review.Report{Base: base, Head: head, Verdicts: vs, Stats: review.Count(vs)}
}

func options(f *fakeGitHub) Options {
	return Options{
		Client: f.client(), Owner: f.owner, Repo: f.repo, PR: f.pr, HeadSHA: f.head,
		ServerURL: "https://github.com",
		Reporters: Reporters{Review: true, Check: true, Summary: true},
		FailOn:    "contradicted",
		retryBase: time.Millisecond,
	}
}

// commentFor returns the top-level review comment carrying fp.
func (f *fakeGitHub) commentFor(t *testing.T, fp string) fakeComment {
	t.Helper()
	for _, c := range f.topLevel() {
		if m, ok := parseMarkers(c.Body); ok && m.fp == fp {
			return c
		}
	}
	t.Fatalf("no comment with fingerprint %s", fp)
	return fakeComment{}
}

func (f *fakeGitHub) summaries() []fakeIssueComment {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []fakeIssueComment
	for _, c := range f.issue {
		if strings.HasPrefix(c.Body, summaryMarker) {
			out = append(out, *c)
		}
	}
	return out
}

func (f *fakeGitHub) lastCheck(t *testing.T) fakeCheck {
	t.Helper()
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.checks) == 0 {
		t.Fatal("no check run")
	}
	return *f.checks[len(f.checks)-1]
}

// TestThreeRuns publishes a first push, the same head again, and a new push
// that fixes one finding and adds another, against one stateful fake.
func TestThreeRuns(t *testing.T) {
	f := newFakeGitHub(t, head1, fakeFile{"cache/cache.go", cachePatch1}, fakeFile{"README.md", readmePatch})
	fpA, fpB, fpD := Fingerprint(findingA), Fingerprint(findingB), Fingerprint(findingD)

	runs := []struct {
		name     string
		head     string
		files    []fakeFile
		rep      review.Report
		want     Result // IDs are not compared
		reviews  int
		comments int // top-level review comments
		checks   int
		check    func(t *testing.T)
	}{
		{
			name: "run 1, first push", head: head1,
			rep:     report(head1, findingB, consistent, findingA, findingC),
			want:    Result{Requests: 7, Posted: 2, Conclusion: "failure"},
			reviews: 1, comments: 2, checks: 1,
			check: func(t *testing.T) {
				a, b := f.commentFor(t, fpA), f.commentFor(t, fpB)
				if *a.StartLine != 11 || *a.Line != 12 || *b.StartLine != 5 || *b.Line != 6 {
					t.Errorf("comment lines: A %d-%d, B %d-%d; want 11-12 and 5-6", *a.StartLine, *a.Line, *b.StartLine, *b.Line)
				}
				golden(t, "threerun/run1-comment-A.md", a.Body)
				golden(t, "threerun/run1-comment-B.md", b.Body)
				golden(t, "threerun/run1-summary.md", f.summaries()[0].Body)
				c := f.lastCheck(t)
				if len(c.Annotations) != 3 || c.Title != "2 contradicted, 1 incomplete" {
					t.Errorf("check run: %d annotations, title %q", len(c.Annotations), c.Title)
				}
			},
		},
		{
			name: "run 2, same head", head: head1,
			rep: report(head1, findingB, consistent, findingA, findingC),
			// The check run says the same: not written again.
			want:    Result{Requests: 4, Kept: 2, CheckReused: true, Conclusion: "failure"},
			reviews: 1, comments: 2, checks: 1,
			check: func(t *testing.T) {
				golden(t, "threerun/run1-summary.md", f.summaries()[0].Body) // unchanged
			},
		},
		{
			name: "run 3, new push fixes A and adds D", head: head2,
			files:   []fakeFile{{"cache/cache.go", cachePatch3}, {"README.md", readmePatch}},
			rep:     report(head2, findingB, consistent, findingC, findingD),
			want:    Result{Requests: 8, Posted: 1, Kept: 1, Resolved: 1, Conclusion: "failure"},
			reviews: 2, comments: 3, checks: 2,
			check: func(t *testing.T) {
				a := f.commentFor(t, fpA)
				if m, _ := parseMarkers(a.Body); m.resolved != head2 {
					t.Errorf("comment A not marked resolved in %s:\n%s", head2, a.Body)
				}
				golden(t, "threerun/run3-comment-A-resolved.md", a.Body)
				golden(t, "threerun/run3-comment-D.md", f.commentFor(t, fpD).Body)
				golden(t, "threerun/run3-summary.md", f.summaries()[0].Body)
			},
		},
	}
	var summaryID int64
	for _, run := range runs {
		f.mu.Lock()
		f.head = run.head
		if run.files != nil {
			f.files = run.files
		}
		f.mu.Unlock()
		opt := options(f)
		got, err := Publish(t.Context(), opt, run.rep)
		reqs := f.takeRequests()
		t.Logf("%s: %d requests: %s", run.name, len(reqs), strings.Join(reqs, ", "))
		if err != nil {
			t.Fatalf("%s: %v", run.name, err)
		}
		if got.Requests != len(reqs) {
			t.Errorf("%s: Result.Requests = %d, the fake saw %d", run.name, got.Requests, len(reqs))
		}
		if got.SummaryCommentID == 0 || summaryID != 0 && got.SummaryCommentID != summaryID {
			t.Errorf("%s: summary comment %d, want the same one as before (%d)", run.name, got.SummaryCommentID, summaryID)
		}
		summaryID = got.SummaryCommentID
		if (got.ReviewID != 0) != (run.want.Posted > 0) || got.CheckRunID == 0 {
			t.Errorf("%s: review %d, check run %d", run.name, got.ReviewID, got.CheckRunID)
		}
		got.ReviewID, got.SummaryCommentID, got.CheckRunID = 0, 0, 0
		if diff := cmp.Diff(run.want, got); diff != "" {
			t.Errorf("%s: result (-want +got):\n%s", run.name, diff)
		}
		f.mu.Lock()
		reviews, checks := len(f.reviews), len(f.checks)
		f.mu.Unlock()
		if reviews != run.reviews || len(f.topLevel()) != run.comments || checks != run.checks || len(f.summaries()) != 1 {
			t.Errorf("%s: %d reviews, %d comments, %d check runs, %d summaries; want %d, %d, %d, 1",
				run.name, reviews, len(f.topLevel()), checks, len(f.summaries()), run.reviews, run.comments, run.checks)
		}
		run.check(t)
	}
}

// TestDismissals suppresses findings by a reply in a thread and by an entry
// of dismissed.yml, across two later runs.
func TestDismissals(t *testing.T) {
	f := newFakeGitHub(t, head1, fakeFile{"cache/cache.go", cachePatch1}, fakeFile{"README.md", readmePatch})
	rep := report(head1, findingB, findingA, findingC)
	if _, err := Publish(t.Context(), options(f), rep); err != nil {
		t.Fatal(err)
	}
	f.reply(f.commentFor(t, Fingerprint(findingB)).ID, "alice", "MEMBER", "/docreview dismiss   it is documented\nin the package doc")
	f.reply(f.commentFor(t, Fingerprint(findingA)).ID, "bob", "MEMBER", "/docreview dismissal is not a command")
	// Anyone may reply on a public repository; only writers dismiss.
	f.reply(f.commentFor(t, Fingerprint(findingA)).ID, "eve", "NONE", "/docreview dismiss it is fine, trust me")
	fileDismissals := []Dismissal{{Fingerprint: Fingerprint(findingC), Reason: "the guide is versioned separately", By: "carol"}}

	for _, head := range []string{head1, head2} { // dismissals hold on later pushes
		f.mu.Lock()
		f.head = head
		f.mu.Unlock()
		opt := options(f)
		opt.Dismissed = fileDismissals
		opt.FailOn = "incomplete"
		got, err := Publish(t.Context(), opt, report(head, findingB, findingA, findingC))
		if err != nil {
			t.Fatal(err)
		}
		if got.Dismissed != 2 || got.Kept != 1 || got.Posted != 0 || got.Resolved != 0 || got.Conclusion != "failure" {
			t.Errorf("%s: %+v; want 2 dismissed, 1 kept (A), failure from A", head[:7], got)
		}
		c := f.lastCheck(t)
		if len(c.Annotations) != 1 || c.Annotations[0]["path"] != "cache/cache.go" {
			t.Errorf("%s: annotations %v; want only A's", head[:7], c.Annotations)
		}
		sum := f.summaries()[0].Body
		for _, want := range []string{
			"dismissed by `alice`: it is documented in the package doc",
			"dismissed by `carol`: the guide is versioned separately",
		} {
			if !strings.Contains(sum, want) {
				t.Errorf("%s: summary lacks %q:\n%s", head[:7], want, sum)
			}
		}
	}
	// Only dismissed findings left: the check passes.
	opt := options(f)
	opt.Dismissed = fileDismissals
	got, err := Publish(t.Context(), opt, report(head2, findingB, findingC, consistent))
	if err != nil {
		t.Fatal(err)
	}
	if got.Conclusion != "success" || got.Dismissed != 2 || got.Resolved != 1 {
		t.Errorf("after A is fixed: %+v; want success, 2 dismissed, A resolved", got)
	}
}

// TestMaxComments posts the contradicted findings first and lists the rest
// in the summary.
func TestMaxComments(t *testing.T) {
	var patch strings.Builder
	patch.WriteString("@@ -0,0 +1,10 @@\n")
	var vs []review.Verdict
	for i := 1; i <= 10; i++ {
		fmt.Fprintf(&patch, "+line %d\n", i)
		label := review.Incomplete
		if i%3 == 0 {
			label = review.Contradicted
		}
		vs = append(vs, review.Verdict{
			Claim: review.Claim{ID: fmt.Sprintf("%016x", i), Path: "doc.md", Line: i, EndLine: i, Kind: review.KindMarkdown, Text: fmt.Sprintf("line %d", i)},
			Label: label, Rule: "go-snippet", Message: fmt.Sprintf("finding %d", i),
		})
	}
	f := newFakeGitHub(t, head1, fakeFile{"doc.md", patch.String()})
	opt := options(f)
	opt.MaxComments = 4
	got, err := Publish(t.Context(), opt, report(head1, vs...))
	if err != nil {
		t.Fatal(err)
	}
	if got.Posted != 4 || got.Overflow != 6 {
		t.Errorf("posted %d, overflow %d; want 4 and 6", got.Posted, got.Overflow)
	}
	var lines []int
	for _, c := range f.topLevel() {
		lines = append(lines, *c.Line)
	}
	slices.Sort(lines)
	if diff := cmp.Diff([]int{1, 3, 6, 9}, lines); diff != "" { // contradicted 3, 6, 9 first
		t.Errorf("commented lines (-want +got):\n%s", diff)
	}
	if n := strings.Count(f.summaries()[0].Body, "over the limit of 4 inline comments per run"); n != 6 {
		t.Errorf("summary lists %d overflowing findings, want 6", n)
	}
	// The next run posts the next four.
	got, err = Publish(t.Context(), opt, report(head1, vs...))
	if err != nil {
		t.Fatal(err)
	}
	if got.Posted != 4 || got.Kept != 4 || got.Overflow != 2 {
		t.Errorf("second run: %+v", got)
	}
}

// TestAnnotationBatches writes 120 annotations as 50 + 50 + 20.
func TestAnnotationBatches(t *testing.T) {
	var vs []review.Verdict
	for i := 1; i <= 120; i++ {
		vs = append(vs, review.Verdict{
			Claim: review.Claim{ID: fmt.Sprintf("%016x", i), Path: "docs/big.md", Line: i, EndLine: i, Kind: review.KindMarkdown},
			Label: review.Incomplete, Rule: "go-snippet", Message: fmt.Sprintf("finding %d", i),
		})
	}
	f := newFakeGitHub(t, head1)
	opt := options(f)
	opt.Reporters = Reporters{Check: true}
	got, err := Publish(t.Context(), opt, report(head1, vs...))
	if err != nil {
		t.Fatal(err)
	}
	c := f.lastCheck(t)
	if len(c.Annotations) != 120 || c.Updates != 2 || c.Name != CheckName {
		t.Errorf("%d annotations in %d updates", len(c.Annotations), c.Updates)
	}
	if got.Requests != 5 || got.Conclusion != "success" || c.Conclusion != "success" {
		t.Errorf("result %+v; want 5 requests (comments + check runs + create + 2 updates), success under fail-on contradicted", got)
	}
	if c.Annotations[119]["message"] != "finding 120" || c.Annotations[0]["annotation_level"] != "warning" {
		t.Errorf("annotations out of order or wrong level: %v %v", c.Annotations[0], c.Annotations[119])
	}
}

// TestErrors covers read-only tokens, retries and rate limits.
func TestErrors(t *testing.T) {
	secondary := `{"message":"You have exceeded a secondary rate limit","documentation_url":"https://docs.github.com/rest/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits"}`
	tests := []struct {
		name     string
		inject   []injected
		readOnly bool
		wantErr  string
		requests int // of the whole run; 7 without failures
		minWait  time.Duration
	}{
		{name: "403 on the review is read-only",
			inject:   []injected{{method: "POST", path: "/reviews", status: 403, body: `{"message":"Resource not accessible by integration"}`}},
			readOnly: true, wantErr: "create review", requests: 3},
		{name: "403 on the check run is read-only",
			inject:   []injected{{method: "POST", path: "/check-runs", status: 403, body: `{"message":"Resource not accessible by integration"}`}},
			readOnly: true, wantErr: "create check run", requests: 7},
		{name: "403 on a read is not read-only",
			inject:  []injected{{method: "GET", path: "/files", status: 403, body: `{"message":"Forbidden"}`}},
			wantErr: "list pull request files", requests: 1},
		{name: "502 then success is retried after looking for the review",
			inject:   []injected{{method: "POST", path: "/reviews", status: 502, body: `{"message":"Bad Gateway"}`}},
			requests: 9}, // + GET comments: the review is not there
		{name: "5xx four times gives up",
			inject: []injected{
				{method: "GET", path: "/files", status: 500}, {method: "GET", path: "/files", status: 502},
				{method: "GET", path: "/files", status: 503}, {method: "GET", path: "/files", status: 504}},
			wantErr: "504", requests: 4},
		{name: "secondary rate limit honours Retry-After",
			inject:   []injected{{method: "POST", path: "/comments", status: 403, header: map[string]string{"Retry-After": "1"}, body: secondary}},
			requests: 8, minWait: time.Second},
		{name: "429 honours Retry-After",
			inject:   []injected{{method: "POST", path: "/check-runs", status: 429, header: map[string]string{"Retry-After": "0"}, body: `{"message":"Too Many Requests"}`}},
			requests: 8},
		{name: "primary rate limit far away is not waited for, and is not read-only",
			inject: []injected{{method: "POST", path: "/reviews", status: 403,
				header: map[string]string{"X-RateLimit-Remaining": "0", "X-RateLimit-Limit": "5000", "X-RateLimit-Reset": fmt.Sprint(time.Now().Add(time.Hour).Unix())},
				body:   `{"message":"API rate limit exceeded"}`}},
			wantErr: "more than 1m0s", requests: 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			f := newFakeGitHub(t, head1, fakeFile{"cache/cache.go", cachePatch1}, fakeFile{"README.md", readmePatch})
			f.inject = tt.inject
			start := time.Now()
			got, err := Publish(t.Context(), options(f), report(head1, findingA, findingB, findingC))
			reqs := f.takeRequests()
			if got.Requests != tt.requests || len(reqs) != tt.requests {
				t.Errorf("Result.Requests %d, fake saw %d, want %d: %v", got.Requests, len(reqs), tt.requests, reqs)
			}
			if errors.Is(err, ErrReadOnly) != tt.readOnly {
				t.Errorf("errors.Is(err, ErrReadOnly) = %v, want %v (err %v)", !tt.readOnly, tt.readOnly, err)
			}
			if tt.wantErr == "" && err != nil || tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)) {
				t.Errorf("err = %v, want one containing %q", err, tt.wantErr)
			}
			if d := time.Since(start); d < tt.minWait {
				t.Errorf("took %s, want at least %s", d, tt.minWait)
			}
		})
	}
}

// TestContextCancelStopsBackoff returns promptly when ctx ends during a
// wait.
func TestContextCancelStopsBackoff(t *testing.T) {
	f := newFakeGitHub(t, head1)
	f.inject = []injected{{method: "GET", path: "/comments", status: 429, header: map[string]string{"Retry-After": "30"}}}
	ctx, cancel := context.WithTimeout(t.Context(), 50*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := Publish(ctx, options(f), report(head1, findingC))
	if !errors.Is(err, context.DeadlineExceeded) || time.Since(start) > 5*time.Second {
		t.Errorf("err %v after %s; want the deadline, promptly", err, time.Since(start))
	}
}

// TestPagination lists comments over real pages, stops on a static Link
// header that does not advance, and stops at the page cap.
func TestPagination(t *testing.T) {
	tests := []struct {
		mode     string
		files    int
		requests int // listing files only
		complete bool
	}{
		{"", 250, 3, true},
		{"prism", 1, 2, true},
		{"endless", 1, maxPages, false},
	}
	for _, tt := range tests {
		t.Run(tt.mode, func(t *testing.T) {
			t.Parallel()
			var files []fakeFile
			for i := range tt.files {
				files = append(files, fakeFile{fmt.Sprintf("f%03d.md", i), "@@ -1,1 +1,1 @@\n-a\n+b"})
			}
			f := newFakeGitHub(t, head1, files...)
			f.linkMode = tt.mode
			opt := options(f)
			opt.Reporters = Reporters{Review: true}
			p := newPublisher(opt)
			diff, err := p.listFiles(t.Context())
			if err != nil {
				t.Fatal(err)
			}
			if int(p.requests.Load()) != tt.requests || p.filesComplete != tt.complete {
				t.Errorf("%d requests, complete %v; want %d, %v", p.requests.Load(), p.filesComplete, tt.requests, tt.complete)
			}
			if tt.mode == "" && len(diff) != tt.files {
				t.Errorf("%d files, want %d", len(diff), tt.files)
			}
		})
	}
}

// TestSummaryDuplicates keeps the first summary comment and deletes the
// others.
func TestSummaryDuplicates(t *testing.T) {
	f := newFakeGitHub(t, head1)
	f.addIssueComment("someone", "LGTM")
	f.addIssueComment("mallory", summaryMarker+"\nspoofed, edited by no one")
	first := f.addIssueComment(botLogin, summaryMarker+"\nold")
	f.addIssueComment(botLogin, summaryMarker+"\nolder duplicate")
	f.addIssueComment("mallory", "quoting it: "+summaryMarker)
	opt := options(f)
	opt.Reporters = Reporters{Summary: true}
	got, err := Publish(t.Context(), opt, report(head1, consistent))
	if err != nil {
		t.Fatal(err)
	}
	s := f.summaries()
	if got.SummaryCommentID != first || len(s) != 2 || s[1].ID != first || !strings.Contains(s[1].Body, "nothing skipped") ||
		!strings.Contains(s[0].Body, "spoofed") {
		t.Errorf("summaries %+v, result %+v", s, got)
	}
	if len(f.issue) != 4 {
		t.Errorf("%d issue comments left, want 4", len(f.issue))
	}

	// Without the Review reporter, findings are listed as not inline.
	opt.Reporters = Reporters{Summary: true}
	if _, err := Publish(t.Context(), opt, report(head1, findingA)); err != nil {
		t.Fatal(err)
	}
	if body := f.summaries()[1].Body; !strings.Contains(body, "(inline review comments are off)") {
		t.Errorf("summary without the review reporter:\n%s", body)
	}
}

// TestSummaryCountsAsTheReport: the summary's table and coverage line are
// the report's counts; a skipped claim is counted once, as skipped, and a
// dismissed finding only as dismissed.
func TestSummaryCountsAsTheReport(t *testing.T) {
	skipped := findingD
	skipped.Label, skipped.Skipped, skipped.Evidence = review.Consistent, "budget", nil
	tests := []struct {
		name      string
		rep       review.Report
		dismissed []Dismissal
		row       string
		coverage  string
	}{
		{"consistent and skipped", report(head1, consistent, skipped), nil,
			"| 0 | 0 | 1 | 1 | 0 |", "**Coverage:** 1 of 2 claims checked."},
		{"finding and skipped", report(head1, findingC, skipped), nil,
			"| 1 | 0 | 0 | 1 | 0 |", "**Coverage:** 1 of 2 claims checked."},
		{"dismissed finding", report(head1, findingC, consistent), []Dismissal{{Fingerprint: Fingerprint(findingC), Reason: "kept on purpose"}},
			"| 0 | 0 | 1 | 0 | 1 |", "**Coverage:** 2 of 2 claims checked; nothing skipped."},
		{"report without stats", review.Report{Base: base, Head: head1, Verdicts: []review.Verdict{consistent, skipped}}, nil,
			"| 0 | 0 | 1 | 1 | 0 |", "**Coverage:** 1 of 2 claims checked."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			f := newFakeGitHub(t, head1)
			opt := options(f)
			opt.Reporters = Reporters{Summary: true}
			opt.Dismissed = tt.dismissed
			if _, err := Publish(t.Context(), opt, tt.rep); err != nil {
				t.Fatal(err)
			}
			body := f.summaries()[0].Body
			if !strings.Contains(body, tt.row+"\n") || !strings.Contains(body, tt.coverage+"\n") {
				t.Errorf("summary lacks %q or %q:\n%s", tt.row, tt.coverage, body)
			}
		})
	}
}

// TestNeutralWhenNotFullyReviewed keeps a report with skipped claims or
// notes off green.
func TestNeutralWhenNotFullyReviewed(t *testing.T) {
	skipped := findingD
	skipped.Label, skipped.Skipped, skipped.Evidence = review.Consistent, "budget", nil
	tests := []struct {
		name string
		rep  review.Report
		fail string
		want string
	}{
		{"clean", report(head1, consistent), "contradicted", "success"},
		{"skipped claim", report(head1, consistent, skipped), "contradicted", "neutral"},
		{"note", func() review.Report {
			r := report(head1, consistent)
			r.Notes = []review.Note{{Path: "docs/huge.md", Message: "skipped: 90000 lines"}}
			return r
		}(), "contradicted", "neutral"},
		{"failure wins", report(head1, skipped, findingC), "contradicted", "failure"},
		{"incomplete under contradicted", report(head1, findingB), "contradicted", "success"},
		{"incomplete under incomplete", report(head1, findingB), "incomplete", "failure"},
		{"never", report(head1, findingC), "never", "success"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			f := newFakeGitHub(t, head1)
			opt := options(f)
			opt.Reporters = Reporters{Check: true}
			opt.FailOn = review.FailOn(tt.fail)
			got, err := Publish(t.Context(), opt, tt.rep)
			if err != nil {
				t.Fatal(err)
			}
			if got.Conclusion != tt.want || f.lastCheck(t).Conclusion != tt.want {
				t.Errorf("conclusion %q (check run %q), want %q", got.Conclusion, f.lastCheck(t).Conclusion, tt.want)
			}
		})
	}
}

// TestPublishValidates rejects bad options before any request.
func TestPublishValidates(t *testing.T) {
	f := newFakeGitHub(t, head1)
	for _, mut := range []func(*Options){
		func(o *Options) { o.Client = nil },
		func(o *Options) { o.PR = 0 },
		func(o *Options) { o.HeadSHA = "" },
		func(o *Options) { o.FailOn = "sometimes" },
		func(o *Options) { o.MaxComments = -1 },
	} {
		opt := options(f)
		mut(&opt)
		if _, err := Publish(t.Context(), opt, report(head1)); err == nil {
			t.Errorf("options %+v accepted", opt)
		}
	}
	if n := len(f.takeRequests()); n != 0 {
		t.Errorf("%d requests made", n)
	}
}

// TestBodiesFitGitHubsLimit: a review too large for one comment still
// posts bodies GitHub accepts (at most maxCommentBody), keeps each inline
// comment's marker, suggestion and dismiss line, and says how much was
// left out and where it is.
func TestBodiesFitGitHubsLimit(t *testing.T) {
	long := strings.Repeat("x := compute(a, b, c) // a line of a long evidence snippet\n", 60)
	big := findingA
	big.Evidence = nil
	for i := range 40 {
		big.Evidence = append(big.Evidence, review.Evidence{Path: fmt.Sprintf("cache/f%02d.go", i), StartLine: 1, EndLine: 60,
			Source: review.SourceCode, Snippet: long, Why: "a long piece of evidence"})
	}
	vs := []review.Verdict{big}
	for i := range 1500 {
		v := findingC
		v.Claim.Line, v.Claim.EndLine = 100+2*i, 101+2*i
		v.Claim.ID = review.Fingerprint("docs/guide.md", "", fmt.Sprintf("claim %d", i))
		v.Message = fmt.Sprintf("finding %d outside the diff, with a message long enough to add up over many findings", i)
		vs = append(vs, v)
	}
	f := newFakeGitHub(t, head1, fakeFile{"cache/cache.go", cachePatch1}, fakeFile{"README.md", readmePatch})
	opt := options(f)
	if _, err := Publish(t.Context(), opt, report(head1, vs...)); err != nil {
		t.Fatal(err)
	}
	sum := f.summaries()[0].Body
	if len(sum) > maxCommentBody {
		t.Errorf("summary is %d bytes, over %d", len(sum), maxCommentBody)
	}
	if !strings.Contains(sum, "more, left out to fit GitHub's comment limit; the check run's annotations list every finding") || strings.Contains(sum, "truncated") {
		t.Errorf("summary does not count what it left out, or was cut blindly:\n%s", sum[len(sum)-min(len(sum), 600):])
	}
	var inline string
	for _, c := range f.comments {
		if strings.Contains(c.Body, Fingerprint(big)) {
			inline = c.Body
		}
	}
	if inline == "" {
		t.Fatalf("no inline comment for the finding on the diff (%d comments); summary starts:\n%s", len(f.comments), sum[:min(len(sum), 1500)])
	}
	if len(inline) > maxCommentBody {
		t.Errorf("inline body is %d bytes, over %d", len(inline), maxCommentBody)
	}
	for _, want := range []string{fpMarkerPrefix + Fingerprint(big), "```suggestion", "/docreview dismiss", "cache/f39.go"} {
		if !strings.Contains(inline, want) {
			t.Errorf("inline body lacks %q", want)
		}
	}
}
