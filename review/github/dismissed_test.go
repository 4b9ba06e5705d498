package github

import (
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	gh "github.com/google/go-github/v62/github"
)

func TestLoadDismissed(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		want    []Dismissal
		wantErr string
	}{
		{name: "empty", in: ""},
		{name: "comment only", in: "# nothing dismissed yet\n"},
		{name: "entries", in: "- fingerprint: 3f2a9c0d1e4b5a67.stale-reference\n  reason: alias kept\n  by: alice\n" +
			"- fingerprint: 0000000000000001.llm\n  reason: |\n    the model misread the test\n",
			want: []Dismissal{
				{Fingerprint: "3f2a9c0d1e4b5a67.stale-reference", Reason: "alias kept", By: "alice"},
				{Fingerprint: "0000000000000001.llm", Reason: "the model misread the test"},
			}},
		{name: "unknown key", in: "- fingerprint: a.b\n  reason: r\n  who: alice\n", wantErr: `line 3`},
		{name: "missing reason", in: "- fingerprint: a.b\n  reason: r\n- fingerprint: c.d\n  by: bob\n", wantErr: "line 3: key reason: required"},
		{name: "missing fingerprint", in: "- reason: r\n", wantErr: "line 1: key fingerprint: required"},
		{name: "bad fingerprint", in: "- fingerprint: \"a b\"\n  reason: r\n", wantErr: "key fingerprint: \"a b\" is not a docreview fingerprint"},
		{name: "duplicate", in: "- fingerprint: a.b\n  reason: r\n- fingerprint: a.b\n  reason: s\n", wantErr: "line 3: key fingerprint: a.b is already dismissed at line 1"},
		{name: "not a list", in: "fingerprint: a.b\n", wantErr: "dismissed.yml: line 1"},
		{name: "wrong type", in: "- fingerprint: [a]\n  reason: r\n", wantErr: "line 1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := LoadDismissed([]byte(tt.in))
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want one containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got, cmp.Comparer(func(a, b []Dismissal) bool { return len(a) == 0 && len(b) == 0 || cmp.Equal(a, b) })); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestRetryWait(t *testing.T) {
	now := time.Unix(1_700_000_000, 0)
	resp := func(code int, h map[string]string) *http.Response {
		r := &http.Response{StatusCode: code, Header: http.Header{}, Request: &http.Request{Method: "GET"}}
		for k, v := range h {
			r.Header.Set(k, v)
		}
		return r
	}
	ra := 7 * time.Second
	tests := []struct {
		name  string
		err   error
		wait  time.Duration
		retry bool
	}{
		{"502 backs off", &gh.ErrorResponse{Response: resp(502, nil)}, 4 * time.Second, true},
		{"503 with Retry-After", &gh.ErrorResponse{Response: resp(503, map[string]string{"Retry-After": "3"})}, 3 * time.Second, true},
		{"429 with Retry-After date", &gh.ErrorResponse{Response: resp(429, map[string]string{"Retry-After": now.Add(9 * time.Second).UTC().Format(http.TimeFormat)})}, 9 * time.Second, true},
		{"429 with reset", &gh.ErrorResponse{Response: resp(429, map[string]string{"X-RateLimit-Remaining": "0", "X-RateLimit-Reset": "1700000030"})}, 30 * time.Second, true},
		{"429 bare waits a minute", &gh.ErrorResponse{Response: resp(429, nil)}, time.Minute, true},
		{"secondary with Retry-After", &gh.AbuseRateLimitError{Response: resp(403, nil), RetryAfter: &ra}, ra, true},
		{"secondary bare waits a minute", &gh.AbuseRateLimitError{Response: resp(403, nil)}, time.Minute, true},
		{"primary", &gh.RateLimitError{Response: resp(403, nil), Rate: gh.Rate{Reset: gh.Timestamp{Time: now.Add(20 * time.Second)}}}, 20 * time.Second, true},
		{"403", &gh.ErrorResponse{Response: resp(403, nil)}, 0, false},
		{"422", &gh.ErrorResponse{Response: resp(422, nil)}, 0, false},
		{"not an HTTP error", http.ErrHandlerTimeout, 0, false},
		{"connection error backs off", &url.Error{Op: "Post", URL: "https://api.github.com/x", Err: io.ErrUnexpectedEOF}, 4 * time.Second, true},
	}
	for _, tt := range tests {
		wait, retry := retryWait(tt.err, 2, time.Second, now)
		if wait != tt.wait || retry != tt.retry {
			t.Errorf("%s: retryWait = %s, %v; want %s, %v", tt.name, wait, retry, tt.wait, tt.retry)
		}
	}
}
