package rules

import (
	"testing"

	"github.com/docreview/docreview/review"
)

func TestDeprecatedUse(t *testing.T) {
	ws := loadWorkspace(t, "deprecated")
	rule := &DeprecatedUse{}
	docOf := func(s string) ev {
		start := lineOf(t, ws, "kv.go", "// "+s+" returns an empty store.")
		return ev{"kv.go", start, start + 2, review.SourceCode, s + " is marked Deprecated"}
	}
	openDef := ev{"kv.go", lineOf(t, ws, "kv.go", "func Open()"), lineOf(t, ws, "kv.go", "func Open()"), review.SourceCode, "defines Open, the replacement"}
	tests := []struct {
		name  string
		claim func() review.Claim
		want  *want
	}{{
		name:  "doc link to a deprecated func with a named replacement",
		claim: func() review.Claim { return goClaim(t, ws, "kv.go", "Store.Put") },
		want: &want{
			label:    review.Incomplete,
			message:  "The text recommends NewStore, which is deprecated; use Open instead.",
			evidence: []ev{docOf("NewStore"), openDef},
		},
	}, {
		name:  "Markdown code span, qualified",
		claim: func() review.Claim { return mdClaim(t, ws, "README.md", "kv.NewStore()") },
		want: &want{
			label:    review.Incomplete,
			message:  "The text recommends kv.NewStore, which is deprecated; use Open instead.",
			evidence: []ev{docOf("NewStore"), openDef},
		},
	}, {
		name:  "deprecated without a replacement",
		claim: func() review.Claim { return mdClaim(t, ws, "README.md", "kv.Legacy") },
		want: &want{
			label:    review.Incomplete,
			message:  "The text recommends kv.Legacy, which is deprecated: it was never safe for concurrent use.",
			evidence: []ev{docOf("Legacy")},
		},
	},
		{name: "names only current API", claim: func() review.Claim { return goClaim(t, ws, "kv.go", "Store.Get") }},
		{name: "says instead", claim: func() review.Claim { return goClaim(t, ws, "kv.go", "Store.Reset") }},
		{name: "the deprecated symbol's own doc", claim: func() review.Claim { return goClaim(t, ws, "kv.go", "NewStore") }},
		{name: "change log", claim: func() review.Claim { return mdClaim(t, ws, "CHANGELOG.md", "NewStore") }},
		{name: "Markdown link to current API", claim: func() review.Claim { return mdClaim(t, ws, "README.md", "[Open]") }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := rule.Judge(t.Context(), ws, tt.claim())
			if err != nil {
				t.Fatal(err)
			}
			checkVerdict(t, rule, got, tt.want)
		})
	}
}
