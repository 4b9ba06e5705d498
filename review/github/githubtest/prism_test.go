package githubtest

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	gh "github.com/google/go-github/v62/github"
)

const (
	owner, repo = "octo", "docs"
	prNumber    = 7
	headSHA     = "ec26c3e57ca3a959ca5aad62de7213c562f8c821"
)

func annotations(n int) []*gh.CheckRunAnnotation {
	out := make([]*gh.CheckRunAnnotation, n)
	for i := range out {
		out[i] = &gh.CheckRunAnnotation{
			Path:            gh.String("docs/guide.md"),
			StartLine:       gh.Int(i + 1),
			EndLine:         gh.Int(i + 1),
			AnnotationLevel: gh.String("warning"),
			Title:           gh.String("docreview: contradicted"),
			Message:         gh.String(fmt.Sprintf("finding %d", i)),
		}
	}
	return out
}

// listAllFiles is the guarded pagination loop the publisher must use against
// Prism's static Link header (see the Prism type).
func listAllFiles(ctx context.Context, c *gh.Client, maxPages int) (files []*gh.CommitFile, pages int, err error) {
	opts := &gh.ListOptions{PerPage: 100}
	for pages < maxPages {
		page, resp, err := c.PullRequests.ListFiles(ctx, owner, repo, prNumber, opts)
		if err != nil {
			return nil, pages, fmt.Errorf("list files page %d: %w", opts.Page, err)
		}
		pages++
		files = append(files, page...)
		if resp.NextPage == 0 || resp.NextPage <= opts.Page {
			break
		}
		opts.Page = resp.NextPage
	}
	return files, pages, nil
}

// TestPublisherCallsPassContract makes, against Prism, each go-github call the
// publisher makes, and requires every one to pass GitHub's request schema.
func TestPublisherCallsPassContract(t *testing.T) {
	t.Parallel()
	p := StartPrism(t)
	c := p.Client()
	ctx := context.Background()

	tests := []struct {
		name string
		call func(t *testing.T) error
	}{
		{"ListFiles with pagination guard", func(t *testing.T) error {
			files, pages, err := listAllFiles(ctx, c, 10)
			if err != nil {
				return err
			}
			// Static Link: page 1 says next=2, page 2 says next=2 again.
			if pages != 2 {
				t.Errorf("pages = %d, want 2 (the guard stops when NextPage repeats)", pages)
			}
			if len(files) == 0 || files[0].GetFilename() != "file1.txt" || files[0].GetPatch() == "" {
				t.Errorf("files[0] = %+v, want the description's example file1.txt with a patch", files)
			}
			return nil
		}},
		{"PullRequests.Get", func(t *testing.T) error {
			pr, _, err := c.PullRequests.Get(ctx, owner, repo, prNumber)
			if err == nil && pr.GetHead().GetSHA() == "" {
				t.Errorf("pull request has no head SHA: %+v", pr)
			}
			return err
		}},
		{"CreateReview single-line and multi-line (Line/Side)", func(t *testing.T) error {
			rv, _, err := c.PullRequests.CreateReview(ctx, owner, repo, prNumber, &gh.PullRequestReviewRequest{
				CommitID: gh.String(headSHA),
				Body:     gh.String("docreview: 2 findings"),
				Event:    gh.String("COMMENT"),
				Comments: []*gh.DraftReviewComment{
					{Path: gh.String("docs/install.md"), Line: gh.Int(12), Side: gh.String("RIGHT"),
						Body: gh.String("**contradicted**: `Open` was renamed to `Dial`.")},
					{Path: gh.String("docs/install.md"), StartLine: gh.Int(20), StartSide: gh.String("RIGHT"),
						Line: gh.Int(24), Side: gh.String("RIGHT"),
						Body: gh.String("**contradicted**\n\n```suggestion\nconn, err := client.Dial(ctx)\n```")},
				},
			})
			if err == nil && rv.GetID() == 0 {
				t.Errorf("review has no ID: %+v", rv)
			}
			return err
		}},
		{"ListReviews", func(t *testing.T) error {
			_, _, err := c.PullRequests.ListReviews(ctx, owner, repo, prNumber, &gh.ListOptions{PerPage: 100})
			return err
		}},
		{"UpdateReview", func(t *testing.T) error {
			_, _, err := c.PullRequests.UpdateReview(ctx, owner, repo, prNumber, 80, "docreview: updated")
			return err
		}},
		{"PullRequests.ListComments", func(t *testing.T) error {
			cs, _, err := c.PullRequests.ListComments(ctx, owner, repo, prNumber,
				&gh.PullRequestListCommentsOptions{ListOptions: gh.ListOptions{PerPage: 100}})
			if err == nil && (len(cs) == 0 || cs[0].GetID() == 0) {
				t.Errorf("comments = %+v, want the description's example", cs)
			}
			return err
		}},
		{"PullRequests.EditComment", func(t *testing.T) error {
			_, _, err := c.PullRequests.EditComment(ctx, owner, repo, 10, &gh.PullRequestComment{
				Body: gh.String("~~contradicted~~ resolved in " + headSHA[:7] + "\n<!-- docreview:fp=abc -->")})
			return err
		}},
		{"Issues.CreateComment", func(t *testing.T) error {
			ic, _, err := c.Issues.CreateComment(ctx, owner, repo, prNumber, &gh.IssueComment{
				Body: gh.String("<!-- docreview:summary -->\n## docreview\n1 contradicted")})
			if err == nil && ic.GetID() == 0 {
				t.Errorf("comment has no ID: %+v", ic)
			}
			return err
		}},
		{"Issues.ListComments", func(t *testing.T) error {
			_, _, err := c.Issues.ListComments(ctx, owner, repo, prNumber,
				&gh.IssueListCommentsOptions{ListOptions: gh.ListOptions{PerPage: 100}})
			return err
		}},
		{"Issues.EditComment", func(t *testing.T) error {
			_, _, err := c.Issues.EditComment(ctx, owner, repo, 1, &gh.IssueComment{Body: gh.String("edited")})
			return err
		}},
		{"Issues.DeleteComment", func(t *testing.T) error {
			_, err := c.Issues.DeleteComment(ctx, owner, repo, 1)
			return err
		}},
		{"CreateCheckRun with 50 annotations", func(t *testing.T) error {
			cr, _, err := c.Checks.CreateCheckRun(ctx, owner, repo, gh.CreateCheckRunOptions{
				Name: "docreview", HeadSHA: headSHA,
				Status: gh.String("completed"), Conclusion: gh.String("failure"),
				CompletedAt: &gh.Timestamp{Time: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)},
				Output: &gh.CheckRunOutput{Title: gh.String("docreview: 60 findings"),
					Summary: gh.String("60 contradicted"), Annotations: annotations(50)},
			})
			if err == nil && cr.GetID() == 0 {
				t.Errorf("check run has no ID: %+v", cr)
			}
			return err
		}},
		{"UpdateCheckRun with Name and the next 10 annotations", func(t *testing.T) error {
			_, _, err := c.Checks.UpdateCheckRun(ctx, owner, repo, 4, gh.UpdateCheckRunOptions{
				Name: "docreview",
				Output: &gh.CheckRunOutput{Title: gh.String("docreview: 60 findings"),
					Summary: gh.String("60 contradicted"), Annotations: annotations(10)},
			})
			return err
		}},
		{"ListCheckRunAnnotations", func(t *testing.T) error {
			_, _, err := c.Checks.ListCheckRunAnnotations(ctx, owner, repo, 4, &gh.ListOptions{PerPage: 100})
			return err
		}},
		{"GetContents (one path segment: see the Prism type)", func(t *testing.T) error {
			_, _, _, err := c.Repositories.GetContents(ctx, owner, repo, "README.md",
				&gh.RepositoryContentGetOptions{Ref: headSHA})
			return err
		}},
		{"GetPermissionLevel", func(t *testing.T) error {
			_, _, err := c.Repositories.GetPermissionLevel(ctx, owner, repo, "octocat")
			return err
		}},
		{"FindRepositoryInstallation", func(t *testing.T) error {
			_, _, err := c.Apps.FindRepositoryInstallation(ctx, owner, repo)
			return err
		}},
		{"CreateInstallationToken", func(t *testing.T) error {
			_, _, err := c.Apps.CreateInstallationToken(ctx, 1, &gh.InstallationTokenOptions{
				Repositories: []string{repo}})
			return err
		}},
		{"RateLimit.Get", func(t *testing.T) error {
			_, _, err := c.RateLimit.Get(ctx)
			return err
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			before := len(p.Exchanges())
			if err := tc.call(t); err != nil {
				t.Errorf("call failed: %v", err)
			}
			if len(p.Exchanges()) == before {
				t.Errorf("no request reached Prism")
			}
		})
	}
	p.Check(t)
	if v := p.Violations(); len(v) != 0 {
		t.Errorf("Violations() = %q, want none", v)
	}
}

// fakeTB records what Check reports instead of failing the real test.
type fakeTB struct {
	testing.TB
	mu     sync.Mutex
	errors []string
}

func (f *fakeTB) Helper() {}
func (f *fakeTB) Errorf(format string, args ...any) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.errors = append(f.errors, fmt.Sprintf(format, args...))
}

func (f *fakeTB) reported() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return strings.Join(f.errors, "\n")
}

// TestContractViolationsBite proves invalid requests are caught: each case
// makes one bad call on a fresh Prism, and requires an error from go-github,
// the expected violation in Violations, and Check to fail naming it.
func TestContractViolationsBite(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	tests := []struct {
		name       string
		call       func(c *gh.Client) error
		status     int
		violation  string // substring of one Violations() entry
		specAnswer bool   // Prism answered with the description's own 422 example, not problem+json
	}{
		{
			name: "51 annotations on create",
			call: func(c *gh.Client) error {
				_, _, err := c.Checks.CreateCheckRun(ctx, owner, repo, gh.CreateCheckRunOptions{
					Name: "docreview", HeadSHA: headSHA,
					Output: &gh.CheckRunOutput{Title: gh.String("t"), Summary: gh.String("s"), Annotations: annotations(51)},
				})
				return err
			},
			status:    http.StatusUnprocessableEntity,
			violation: "POST /repos/octo/docs/check-runs: request.body.output.annotations: Request body property output.annotations must NOT have more than 50 items",
		},
		{
			name: "review comment without body",
			call: func(c *gh.Client) error {
				_, _, err := c.PullRequests.CreateReview(ctx, owner, repo, prNumber, &gh.PullRequestReviewRequest{
					CommitID: gh.String(headSHA), Event: gh.String("COMMENT"),
					Comments: []*gh.DraftReviewComment{{Path: gh.String("README.md"), Line: gh.Int(3), Side: gh.String("RIGHT")}},
				})
				return err
			},
			status:     http.StatusUnprocessableEntity,
			violation:  "POST /repos/octo/docs/pulls/7/reviews: request.body.comments.0: Request body property comments.0 must have required property 'body'",
			specAnswer: true,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			p := StartPrism(t)
			err := tc.call(p.Client())
			var er *gh.ErrorResponse
			if !errors.As(err, &er) || er.Response.StatusCode != tc.status {
				t.Fatalf("err = %v, want *github.ErrorResponse with status %d", err, tc.status)
			}
			if got := p.Violations(); !containsSubstring(got, tc.violation) {
				t.Errorf("Violations() = %q, want one containing %q", got, tc.violation)
			}
			ex := p.Exchanges()
			if len(ex) != 1 {
				t.Fatalf("Exchanges() = %+v, want 1", ex)
			}
			if gotSpec := ex[0].Problem == ""; gotSpec != tc.specAnswer {
				t.Errorf("answered with the description's 422 example = %v, want %v (Problem %q)", gotSpec, tc.specAnswer, ex[0].Problem)
			}
			f := &fakeTB{TB: t}
			p.Check(f)
			rep := f.reported()
			if !strings.Contains(rep, tc.violation[strings.Index(tc.violation, ": ")+2:]) ||
				!strings.Contains(rep, fmt.Sprintf("status %d", tc.status)) {
				t.Errorf("Check reported %q, want the violation and the status", rep)
			}
		})
	}
}

// TestCheckAndCleanup: Check is silent when every exchange is valid and 2xx,
// reports a non-2xx answer that has no violation (a path not in the trimmed
// description), and the test's cleanup leaves no Prism process behind.
func TestCheckAndCleanup(t *testing.T) {
	t.Parallel()
	var p *Prism
	t.Run("check", func(t *testing.T) {
		p = StartPrism(t)
		c := p.Client()
		ctx := context.Background()
		if _, _, err := c.RateLimit.Get(ctx); err != nil {
			t.Fatalf("rate limit: %v", err)
		}
		clean := &fakeTB{TB: t}
		p.Check(clean)
		if r := clean.reported(); r != "" {
			t.Errorf("Check on valid calls reported %q", r)
		}
		_, _, err := c.Repositories.Get(ctx, owner, repo) // GET /repos/{owner}/{repo} is not in the trimmed description
		if err == nil {
			t.Fatal("GET /repos/octo/docs succeeded, want 404")
		}
		bad := &fakeTB{TB: t}
		p.Check(bad)
		if r := bad.reported(); !strings.Contains(r, "GET /repos/octo/docs: status 404") {
			t.Errorf("Check reported %q, want the 404", r)
		}
	})
	if p == nil {
		t.Skip("Prism did not start")
	}
	select {
	case <-p.done:
	case <-time.After(10 * time.Second):
		t.Fatal("Prism still running after its test's cleanup")
	}
}

// TestRequireContract: with the binary missing the test is skipped, or fails
// when DOCREVIEW_REQUIRE_CONTRACT=1; the message says how to install it.
func TestRequireContract(t *testing.T) {
	for _, tc := range []struct {
		env      string
		wantSkip bool
	}{{"", true}, {"1", false}} {
		t.Run("env="+tc.env, func(t *testing.T) {
			t.Setenv(RequireContractEnv, tc.env)
			f := &stopTB{TB: t}
			done := make(chan struct{})
			go func() {
				defer close(done)
				startPrism(f, t.TempDir())
			}()
			<-done
			if f.skipped != tc.wantSkip || f.fatal == tc.wantSkip {
				t.Errorf("skipped=%v fatal=%v, want skipped=%v", f.skipped, f.fatal, tc.wantSkip)
			}
			if !strings.Contains(f.msg, "npm ci --prefix review/github/testdata/contract") {
				t.Errorf("message %q does not say how to install", f.msg)
			}
		})
	}
}

// stopTB records Skip and Fatal and stops the calling goroutine, as testing does.
type stopTB struct {
	testing.TB
	skipped, fatal bool
	msg            string
}

func (s *stopTB) Helper() {}
func (s *stopTB) Skip(args ...any) {
	s.skipped, s.msg = true, fmt.Sprint(args...)
	runtime.Goexit()
}
func (s *stopTB) Fatalf(format string, args ...any) {
	s.fatal, s.msg = true, fmt.Sprintf(format, args...)
	runtime.Goexit()
}

func containsSubstring(list []string, sub string) bool {
	for _, s := range list {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}
