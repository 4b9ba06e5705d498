package github_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strconv"
	"strings"
	"testing"

	gh "github.com/google/go-github/v62/github"

	"github.com/docreview/docreview/review"
	ghpub "github.com/docreview/docreview/review/github"
	"github.com/docreview/docreview/review/github/githubtest"
)

// TestPublishContract runs Publish against Prism serving GitHub's own
// OpenAPI description: every request the publisher sends (list files, list
// review comments, create the review, list and create issue comments,
// create and update the check run) must satisfy the schema. Prism answers
// with the description's examples, except that the files list's example
// patch, a bare hunk header without lines, is replaced on its way back by
// a real hunk of file1.txt (lines 130-135), where the finding below sits:
// the requests are what the contract checks.
func TestPublishContract(t *testing.T) {
	p := githubtest.StartPrism(t)
	client := patchedFiles(t, p)
	ev := []review.Evidence{{ID: "e1", Path: "file1.txt", StartLine: 140, EndLine: 141, Source: review.SourceCode,
		Snippet: "x := 1", Why: "defines x", Hops: []string{"x (doc)", "x"}}}
	var verdicts []review.Verdict
	verdicts = append(verdicts, review.Verdict{
		Claim: review.Claim{ID: "c1", Path: "file1.txt", Line: 133, EndLine: 134, Kind: review.KindMarkdown, Text: "Use x."},
		Label: review.Contradicted, Rule: "stale-reference", Message: "x was renamed.", Confidence: 0.9, Evidence: ev,
	})
	// Outside the diff, and more than 50 of them: the summary and the
	// check run's annotations in two requests.
	for i := range 55 {
		verdicts = append(verdicts, review.Verdict{
			Claim: review.Claim{ID: "o" + strings.Repeat("x", i+1), Path: "docs/guide.md", Line: 10 + i, EndLine: 10 + i, Kind: review.KindMarkdown, Text: "Old text."},
			Label: review.Incomplete, Rule: "restates-name", Message: "Says nothing.", Confidence: 0.7, Evidence: ev,
		})
	}
	rep := review.Report{Base: strings.Repeat("a", 40), Head: strings.Repeat("b", 40), Verdicts: verdicts}
	rep.Stats = review.Count(rep.Verdicts)
	res, err := ghpub.Publish(t.Context(), ghpub.Options{
		Client: client, Owner: "octocat", Repo: "Hello-World", PR: 1, HeadSHA: rep.Head,
		ServerURL: "https://github.com", Reporters: ghpub.Reporters{Review: true, Check: true, Summary: true},
		FailOn: "contradicted",
	}, rep)
	if err != nil {
		t.Fatalf("Publish: %v\n%s", err, p.Log())
	}
	p.Check(t)
	var calls []string
	for _, e := range p.Exchanges() {
		path, _, _ := strings.Cut(e.Path, "?")
		calls = append(calls, e.Method+" "+path)
	}
	for _, want := range []string{
		"GET /repos/octocat/Hello-World/pulls/1/files",
		"GET /repos/octocat/Hello-World/pulls/1/comments",
		"POST /repos/octocat/Hello-World/pulls/1/reviews",
		"GET /repos/octocat/Hello-World/issues/1/comments",
		"POST /repos/octocat/Hello-World/check-runs",
		"PATCH /repos/octocat/Hello-World/check-runs/4",
	} {
		found := false
		for _, c := range calls {
			found = found || c == want
		}
		if !found {
			t.Errorf("no request %s; requests:\n%s", want, strings.Join(calls, "\n"))
		}
	}
	if res.Posted != 1 || res.Requests != len(calls) || res.Conclusion != "failure" {
		t.Errorf("result %+v; %d requests seen", res, len(calls))
	}
	t.Logf("contract run: %d requests: %s", len(calls), strings.Join(calls, ", "))
}

// patchedFiles returns a client for a proxy in front of p that forwards
// every request through p's recording transport and gives the files list
// a real patch.
func patchedFiles(t *testing.T, p *githubtest.Prism) *gh.Client {
	t.Helper()
	target, err := url.Parse(p.URL())
	if err != nil {
		t.Fatal(err)
	}
	proxy := &httputil.ReverseProxy{
		Rewrite:   func(r *httputil.ProxyRequest) { r.SetURL(target) },
		Transport: p.Transport(nil),
		ModifyResponse: func(res *http.Response) error {
			if res.Request.Method != http.MethodGet || !strings.HasSuffix(res.Request.URL.Path, "/pulls/1/files") {
				return nil
			}
			var files []map[string]any
			data, err := io.ReadAll(res.Body)
			res.Body.Close()
			if err != nil {
				return err
			}
			if err := json.Unmarshal(data, &files); err != nil {
				return err
			}
			for _, f := range files {
				f["patch"] = "@@ -130,4 +130,6 @@ module Test\n a\n+b\n+c\n d\n e\n f"
			}
			if data, err = json.Marshal(files); err != nil {
				return err
			}
			res.Body = io.NopCloser(bytes.NewReader(data))
			res.ContentLength = int64(len(data))
			res.Header.Set("Content-Length", strconv.Itoa(len(data)))
			return nil
		},
	}
	srv := httptest.NewServer(proxy)
	t.Cleanup(srv.Close)
	c := gh.NewClient(nil).WithAuthToken(githubtest.TestToken)
	u, err := url.Parse(srv.URL + "/")
	if err != nil {
		t.Fatal(err)
	}
	c.BaseURL = u
	return c
}
