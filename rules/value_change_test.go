package rules

import (
	"testing"

	"github.com/docreview/docreview/review"
)

func TestLiteralMismatchValueChange(t *testing.T) {
	ws := loadWorkspace(t, "valuechange")
	rule := &LiteralMismatch{}
	retries := []ev{
		{"client.go", 7, 7, review.SourceCode, "defaultRetries = 5"},
		{"client.go", 7, 7, review.SourceDiff, "this diff changed defaultRetries from 3 to 5"},
	}
	timeout := []ev{
		{"client.go", 10, 10, review.SourceCode, "DefaultTimeout = 10 * time.Second"},
		{"client.go", 10, 10, review.SourceDiff, "this diff changed DefaultTimeout from 30 * time.Second to 10 * time.Second"},
	}
	tests := []struct {
		name   string
		symbol string // a doc comment of client.go, else
		md     string // a claim of README.md containing this
		want   *want
	}{{
		name:   "the constant's own doc",
		symbol: "DefaultTimeout",
		want: &want{
			label:      review.Contradicted,
			message:    "The doc states 30 seconds, but this diff changed DefaultTimeout from 30 * time.Second to 10 * time.Second (10s).",
			suggestion: "DefaultTimeout bounds a request (10 seconds).",
			evidence:   timeout,
		},
	}, {
		name:   "a field set from the constant, bare number",
		symbol: "Client.Retries",
		want: &want{
			label:      review.Contradicted,
			message:    "The doc states 3, but this diff changed defaultRetries from 3 to 5, which New assigns to Client.Retries.",
			suggestion: "Retries is how many times a request is retried. Default is 5.",
			evidence:   retries,
		},
	}, {
		name:   "a field set from the constant, with a unit",
		symbol: "Client.Timeout",
		want: &want{
			label:      review.Contradicted,
			message:    "which New assigns to Client.Timeout",
			suggestion: "Timeout bounds a request. It defaults to 10 seconds.",
			evidence:   timeout,
		},
	}, {
		name: "Markdown naming the constant",
		md:   "`DefaultTimeout` is 30 seconds.",
		want: &want{
			label:      review.Contradicted,
			message:    "The doc states 30 seconds, but this diff changed DefaultTimeout",
			suggestion: "`DefaultTimeout` is 10 seconds.",
			evidence:   timeout,
		},
	}, {
		name: "Markdown naming a field set from the constant",
		md:   "`Client.Retries` defaults to 3.",
		want: &want{
			label:      review.Contradicted,
			message:    "The doc states 3, but this diff changed defaultRetries from 3 to 5.",
			suggestion: "`Client.Retries` defaults to 5.",
			evidence:   retries,
		},
	},
		{name: "a func using the constant, in a sentence with no default word", symbol: "Loop"},
		{name: "a doc already stating the new value", symbol: "Client.Retry"},
		{name: "a field whose default did not change", symbol: "Client.Workers"},
		{name: "Markdown that names nothing", md: "The client retries a request up to 3 times."},
		{name: "Markdown about the past", md: "Before v2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var c review.Claim
			if tt.symbol != "" {
				c = goClaim(t, ws, "client.go", tt.symbol)
			} else {
				c = mdClaim(t, ws, "README.md", tt.md)
			}
			got, err := rule.Judge(t.Context(), ws, c)
			if err != nil {
				t.Fatal(err)
			}
			checkVerdict(t, rule, got, tt.want)
		})
	}
	t.Run("whole-repository audit", func(t *testing.T) {
		// An audit has no diff to tell of: the doc is compared with the
		// default at head, as any field doc is.
		all := *ws
		all.Scope = review.ScopeAll
		got, err := rule.Judge(t.Context(), &all, goClaim(t, ws, "client.go", "Client.Retries"))
		if err != nil {
			t.Fatal(err)
		}
		checkVerdict(t, rule, got, &want{
			label:      review.Contradicted,
			message:    "The doc gives 3 for Client.Retries, but defaultRetries is 5.",
			suggestion: "Retries is how many times a request is retried. Default is 5.",
			evidence:   []ev{retries[0]},
		})
	})
}
