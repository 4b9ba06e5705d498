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

// TestDeprecatedUseHistory checks the boundary between recommending a
// deprecated symbol and mentioning it as history, modelled on chi's
// middleware after RealIP was deprecated: past or conditional tense
// ("middleware.RealIP would set", "RealIP set", "used to") and comparisons
// ("unlike RealIP") are quiet anywhere, a test's doc is quiet unless it
// tells the reader to use the name, and instructions and present-tense
// descriptions outside tests stay findings.
func TestDeprecatedUseHistory(t *testing.T) {
	ws := loadWorkspace(t, "deprecatedhistory")
	rule := &DeprecatedUse{}
	const realIP = "middleware/realip.go"
	docStart := lineOf(t, ws, realIP, "// RealIP is a middleware")
	doc := ev{realIP, docStart, lineOf(t, ws, realIP, "// These never mutate"), review.SourceCode, "RealIP is marked Deprecated"}
	const note = "which is deprecated: RealIP is vulnerable to IP spoofing: it mutates r.RemoteAddr to the leftmost X-Forwarded-For value."
	finding := func(name string) *want {
		return &want{label: review.Incomplete, message: "The text recommends " + name + ", " + note, evidence: []ev{doc}}
	}
	sym := func(s string) func() review.Claim { return func() review.Claim { return extractedClaim(t, ws, s) } }
	md := func(s string) func() review.Claim {
		return func() review.Claim { return mdClaim(t, ws, "README.md", s) }
	}
	tests := []struct {
		name  string
		claim func() review.Claim
		want  *want
	}{
		// chi's middleware/client_ip_test.go, where the audit found them.
		{name: "conditional tense in a test's doc", claim: sym("TestAdvisory_GHSA_3fxj_6jh8_hvhx")},
		{name: "past tense after a label", claim: sym("TestAdvisory_GHSA_9g5q_2w5x_hmxf")},
		{name: "past tense, regular verb", claim: sym("TestAdvisory_GHSA_rjr7_jggh_pgcp")},
		{name: "comparison in a test's doc", claim: sym("TestRemoteAddrKept")},
		{name: "test describing the deprecated behaviour", claim: sym("TestRealIP")},
		{name: "comparison in a doc", claim: sym("ClientIPFromXFF")},
		{name: "used to, in Markdown", claim: md("used to")},
		{name: "a migration guide", claim: func() review.Claim { return mdClaim(t, ws, "MIGRATING.md", "replace it with") }},
		{name: "a constructor's doc names the type it returns", claim: sym("NewHitCounter")},
		{
			name:  "instruction in a test's doc",
			claim: sym("proxied"),
			want:  finding("RealIP"),
		}, {
			name:  "instruction in a doc",
			claim: sym("Behind"),
			want:  finding("RealIP"),
		}, {
			name:  "present tense outside tests",
			claim: sym("Proxied"),
			want:  finding("middleware.RealIP"),
		}, {
			name:  "a doc that uses the deprecated type without returning it",
			claim: sym("Wrapped"),
			want: &want{label: review.Incomplete, message: "The text recommends HitCounter, which is deprecated: counting moved to the metrics package.",
				evidence: []ev{{"middleware/counter.go", 3, 5, review.SourceCode, "HitCounter is marked Deprecated"}}},
		}, {
			name:  "present tense in Markdown",
			claim: md("handlers can read it"),
			want:  finding("middleware.RealIP"),
		},
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

// TestRecommends pins the sentence reading of [recommends]: history and
// contrast are quiet, instructions and present-tense descriptions are
// not, and a test's doc needs an instruction.
func TestRecommends(t *testing.T) {
	t.Parallel()
	tests := []struct {
		path string
		kind review.Kind
		text string
		name string // the mention's text
		want bool
	}{
		{"m/a.go", review.KindDocComment, "An attacker spoofs X-Forwarded-For. middleware.RealIP\nwould set r.RemoteAddr from it.", "middleware.RealIP", false},
		{"m/a.go", review.KindDocComment, "GHSA-9g5q-2w5x-hmxf (convto): RealIP set r.RemoteAddr from the leftmost IP.", "RealIP", false},
		{"m/a.go", review.KindDocComment, "The legacy [RealIP] trusted X-Real-IP unconditionally.", "RealIP", false},
		{"m/a.go", review.KindDocComment, "RealIP was the default before v5.", "RealIP", false},
		{"README.md", review.KindMarkdown, "`RealIP` used to be the way to read the client IP.", "RealIP", false},
		{"m/a.go", review.KindDocComment, "It never mutates r.RemoteAddr, unlike middleware.RealIP.", "middleware.RealIP", false},
		{"m/a.go", review.KindDocComment, "It is safer than [RealIP].", "RealIP", false},
		{"m/a.go", review.KindDocComment, "If the Type field points to a custom type that implements the\nxattr.TypeWithValidate interface, the validators run too.", "xattr.TypeWithValidate", false},
		{"m/a.go", review.KindDocComment, "When RealIP is in the chain, r.RemoteAddr is the client's.", "RealIP", false},
		{"m/a.go", review.KindDocComment, "If you run behind a proxy, call RealIP first.", "RealIP", true},
		{"m/a.go", review.KindDocComment, "WithNoProxy disables proxies. This is ignored if WithDialer is used.", "WithDialer", false},
		{"m/a.go", review.KindDocComment, "Wrap h in RealIP when you run behind a proxy.", "RealIP", true},
		{"m/a.go", review.KindDocComment, "Call RealIP first.", "RealIP", true},
		{"m/a.go", review.KindDocComment, "Behind a proxy: use the [RealIP] middleware.", "RealIP", true},
		{"m/a.go", review.KindDocComment, "RealIP sets r.RemoteAddr, so handlers can read it.", "RealIP", true},
		{"m/a.go", review.KindDocComment, "Serve it with RealIP enabled.", "RealIP", true},
		{"m/a.go", review.KindDocComment, "Call RealIP; it was the default.", "RealIP", true},
		{"m/a.go", review.KindDocComment, "RealIP would set r.RemoteAddr. Call [RealIP] anyway.", "RealIP", true},
		{"m/a.go", review.KindDocComment, "Names only middleware.RealIPv2.", "RealIP", true}, // no whole-word occurrence: as before
		{"m/a_test.go", review.KindDocComment, "TestRealIP checks that RealIP sets r.RemoteAddr.", "RealIP", false},
		{"m/a_test.go", review.KindDocComment, "serve wraps h: call RealIP first.", "RealIP", true},
		{"m/a_test.go", review.KindDocComment, "Wrap h in RealIP to read the proxy's address.", "RealIP", true},
		{"m/a_test.go", review.KindExample, "This example serves h behind RealIP.", "RealIP", true},
	}
	for _, tt := range tests {
		c := review.Claim{Path: tt.path, Kind: tt.kind, Text: tt.text}
		if got := recommends(c, tt.name); got != tt.want {
			t.Errorf("recommends(%s %q, %s) = %v, want %v", tt.path, tt.text, tt.name, got, tt.want)
		}
	}
}
