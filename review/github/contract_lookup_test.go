package github

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
	"sync"
	"testing"
	"time"

	gh "github.com/google/go-github/v62/github"

	"github.com/docreview/docreview/review"
	"github.com/docreview/docreview/review/github/githubtest"
)

// TestLookupsContract checks the requests Publish makes only after a
// failure against Prism serving GitHub's OpenAPI description: the lookups
// before retrying a create (re-listing review comments, listing reviews,
// re-listing issue comments, listing the head's check runs, getting the
// check run) and the review posted
// again without inline comments after a 422. A proxy in front of Prism
// forwards every request and replaces some answers: the first review with
// 502, the second with 422, the third (without comments) with 502, the
// first summary comment with 502, the first check run create with 502 and
// the first annotations update with 502.
// Prism's examples carry no marker of ours, so every lookup finds nothing
// and every create is retried.
func TestLookupsContract(t *testing.T) {
	p := githubtest.StartPrism(t)
	faults := map[string][]int{
		"POST /repos/octocat/Hello-World/pulls/1/reviews":   {502, 422, 502},
		"POST /repos/octocat/Hello-World/issues/1/comments": {502},
		"PATCH /repos/octocat/Hello-World/check-runs/4":     {502},
		"POST /repos/octocat/Hello-World/check-runs":        {502},
	}
	client := faultyProxy(t, p, faults)
	var verdicts []review.Verdict
	verdicts = append(verdicts, review.Verdict{
		Claim: review.Claim{ID: "c1", Path: "file1.txt", Line: 133, EndLine: 134, Kind: review.KindMarkdown, Text: "Use x."},
		Label: review.Contradicted, Rule: "stale-reference", Message: "x was renamed.",
	})
	for i := range 55 {
		verdicts = append(verdicts, review.Verdict{
			Claim: review.Claim{ID: "o" + strings.Repeat("x", i+1), Path: "docs/guide.md", Line: 10 + i, EndLine: 10 + i, Kind: review.KindMarkdown},
			Label: review.Incomplete, Rule: "restates-name", Message: "Says nothing.",
		})
	}
	rep := review.Report{Base: strings.Repeat("a", 40), Head: strings.Repeat("b", 40), Verdicts: verdicts}
	rep.Stats = review.Count(rep.Verdicts)
	res, err := Publish(t.Context(), Options{
		Client: client, Owner: "octocat", Repo: "Hello-World", PR: 1, HeadSHA: rep.Head,
		Reporters: Reporters{Review: true, Check: true, Summary: true}, retryBase: time.Millisecond,
	}, rep)
	if err != nil {
		t.Fatalf("Publish: %v\n%s", err, p.Log())
	}
	p.Check(t)
	count := map[string]int{}
	var calls []string
	for _, e := range p.Exchanges() {
		path, _, _ := strings.Cut(e.Path, "?")
		calls = append(calls, e.Method+" "+path)
		count[e.Method+" "+path]++
	}
	for call, want := range map[string]int{
		"POST /repos/octocat/Hello-World/pulls/1/reviews": 4, // 502, 422, 502 without comments, retried
		// Listings are two pages each: Prism's static Link header.
		"GET /repos/octocat/Hello-World/pulls/1/comments":   4, // listing, lookup after the first 502
		"GET /repos/octocat/Hello-World/pulls/1/reviews":    2, // lookup after the third
		"GET /repos/octocat/Hello-World/issues/1/comments":  4, // listing, lookup
		"POST /repos/octocat/Hello-World/issues/1/comments": 2,
		// The head's check runs: before the create and after its 502;
		// Prism's example is another app's, so the create is retried.
		"GET /repos/octocat/Hello-World/commits/" + rep.Head + "/check-runs": 4,
		"POST /repos/octocat/Hello-World/check-runs":                         2,
		"GET /repos/octocat/Hello-World/check-runs/4":                        1, // lookup
		"PATCH /repos/octocat/Hello-World/check-runs/4":                      2,
	} {
		if count[call] != want {
			t.Errorf("%d × %s, want %d; requests:\n%s", count[call], call, want, strings.Join(calls, "\n"))
		}
	}
	if res.Rejected != 1 || res.Posted != 0 || res.ReviewID == 0 || res.Requests != len(calls) {
		t.Errorf("result %+v; %d requests seen", res, len(calls))
	}
}

// faultyProxy returns a client for a proxy in front of p that forwards
// every request through p's recording transport, gives the files list a
// real patch (file1.txt lines 130-135), and replaces the answers of the
// first requests of each "METHOD /path" in faults with those statuses.
func faultyProxy(t *testing.T, p *githubtest.Prism, faults map[string][]int) *gh.Client {
	t.Helper()
	target, err := url.Parse(p.URL())
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	proxy := &httputil.ReverseProxy{
		Rewrite:   func(r *httputil.ProxyRequest) { r.SetURL(target) },
		Transport: p.Transport(nil),
		ModifyResponse: func(res *http.Response) error {
			key := res.Request.Method + " " + res.Request.URL.Path
			mu.Lock()
			var status int
			if fs := faults[key]; len(fs) > 0 {
				status, faults[key] = fs[0], fs[1:]
			}
			mu.Unlock()
			var body []byte
			switch {
			case status == http.StatusUnprocessableEntity:
				body = []byte(`{"message":"Unprocessable Entity","errors":["Pull request review thread line must be part of the diff"]}`)
			case status != 0:
				body = []byte(`{"message":"Bad Gateway"}`)
			case key == "GET /repos/octocat/Hello-World/pulls/1/files":
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
				if body, err = json.Marshal(files); err != nil {
					return err
				}
			default:
				return nil
			}
			if status != 0 {
				res.Body.Close()
				res.StatusCode, res.Status = status, strconv.Itoa(status)+" "+http.StatusText(status)
				res.Header.Set("Content-Type", "application/json")
			}
			res.Body = io.NopCloser(bytes.NewReader(body))
			res.ContentLength = int64(len(body))
			res.Header.Set("Content-Length", strconv.Itoa(len(body)))
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
