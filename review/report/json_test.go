package report

import (
	"bytes"
	"encoding/json"
	"maps"
	"math"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/docreview/docreview/review"
)

const schemaPath = "../../docs/report.schema.json"

// compileSchema compiles the project's copy of the output contract.
func compileSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	f, err := os.Open(schemaPath)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		t.Fatalf("parse %s: %v", schemaPath, err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	const url = "file:///docreview/report.schema.json"
	if err := c.AddResource(url, doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile(url)
	if err != nil {
		t.Fatalf("compile %s: %v", schemaPath, err)
	}
	return sch
}

// schemaProps returns the property names and required names of the schema
// object at the given path of "properties"/"items" steps.
func schemaProps(t *testing.T, steps ...string) (props, required []string) {
	t.Helper()
	b, err := os.ReadFile(schemaPath)
	if err != nil {
		t.Fatal(err)
	}
	var node map[string]any
	if err := json.Unmarshal(b, &node); err != nil {
		t.Fatal(err)
	}
	for _, s := range steps {
		switch s {
		case "items":
			node = node["items"].(map[string]any)
		default:
			node = node["properties"].(map[string]any)[s].(map[string]any)
		}
	}
	props = slices.Sorted(maps.Keys(node["properties"].(map[string]any)))
	for _, r := range node["required"].([]any) {
		required = append(required, r.(string))
	}
	slices.Sort(required)
	return props, required
}

func encode(t *testing.T, r review.Report) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := JSON(&buf, r); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func validate(sch *jsonschema.Schema, doc []byte) error {
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(doc))
	if err != nil {
		return err
	}
	return sch.Validate(v)
}

func TestJSONMatchesSchema(t *testing.T) {
	sch := compileSchema(t)
	tests := map[string]review.Report{
		"fixture":    fixture(),
		"with model": withModel(fixture()),
		"no claims":  {Base: fixtureBase, Head: "worktree"},
		"zero":       {},
	}
	for name, r := range tests {
		t.Run(name, func(t *testing.T) {
			doc := encode(t, r)
			if err := validate(sch, doc); err != nil {
				t.Errorf("output does not match %s: %v\n%s", schemaPath, err, doc)
			}
		})
	}
	t.Run("no claims is an empty array", func(t *testing.T) {
		var got map[string]any
		if err := json.Unmarshal(encode(t, review.Report{}), &got); err != nil {
			t.Fatal(err)
		}
		if claims, ok := got["claims"].([]any); !ok || len(claims) != 0 {
			t.Errorf("claims = %#v, want []", got["claims"])
		}
	})
}

// TestSchemaRejects makes sure the contract test can fail: documents that
// break the schema in different ways must not validate.
func TestSchemaRejects(t *testing.T) {
	sch := compileSchema(t)
	// DecodeJSON checks the schema's enums, lines and evidence rule, not the
	// presence of every key, so it accepts these documents.
	decodeLax := map[string]bool{"missing message": true, "missing why": true, "missing stats": true}
	tests := []struct {
		name   string
		mutate func(doc map[string]any)
	}{
		{"contradicted without evidence", func(doc map[string]any) {
			c := findClaim(doc, "contradicted")
			c["evidence"] = []any{}
		}},
		{"incomplete without evidence", func(doc map[string]any) {
			c := findClaim(doc, "incomplete")
			c["evidence"] = []any{}
		}},
		{"bad label", func(doc map[string]any) { findClaim(doc, "consistent")["label"] = "wrong" }},
		{"bad kind", func(doc map[string]any) { findClaim(doc, "consistent")["kind"] = "comment" }},
		{"bad source", func(doc map[string]any) {
			findClaim(doc, "contradicted")["evidence"].([]any)[0].(map[string]any)["source"] = "web"
		}},
		{"line 0", func(doc map[string]any) { findClaim(doc, "consistent")["line"] = 0 }},
		{"confidence above 1", func(doc map[string]any) { findClaim(doc, "contradicted")["confidence"] = 1.5 }},
		{"missing message", func(doc map[string]any) { delete(findClaim(doc, "consistent"), "message") }},
		{"missing why", func(doc map[string]any) {
			delete(findClaim(doc, "contradicted")["evidence"].([]any)[0].(map[string]any), "why")
		}},
		{"version 2", func(doc map[string]any) { doc["version"] = 2 }},
		{"missing stats", func(doc map[string]any) { delete(doc, "stats") }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var doc map[string]any
			if err := json.Unmarshal(encode(t, fixture()), &doc); err != nil {
				t.Fatal(err)
			}
			tt.mutate(doc)
			b, err := json.Marshal(doc)
			if err != nil {
				t.Fatal(err)
			}
			if err := validate(sch, b); err == nil {
				t.Errorf("schema accepted an invalid document:\n%s", b)
			}
			if _, err := DecodeJSON(bytes.NewReader(b)); err == nil && !decodeLax[tt.name] {
				t.Errorf("DecodeJSON accepted an invalid document:\n%s", b)
			}
		})
	}
}

func findClaim(doc map[string]any, label string) map[string]any {
	for _, c := range doc["claims"].([]any) {
		if c := c.(map[string]any); c["label"] == label {
			return c
		}
	}
	panic("fixture has no " + label + " claim")
}

// TestJSONKeys checks the exact key sets written against the schema: a
// verdict with every field set writes every property the schema defines and
// nothing else; a minimal one writes the required keys plus the evidence
// keys JSON always writes.
func TestJSONKeys(t *testing.T) {
	claimProps, claimRequired := schemaProps(t, "claims", "items")
	evProps, evRequired := schemaProps(t, "claims", "items", "evidence", "items")
	topProps, _ := schemaProps(t)
	statsProps, _ := schemaProps(t, "stats")

	full := review.Verdict{
		Claim: review.Claim{ID: "c", Path: "a.go", Line: 1, EndLine: 2, Kind: review.KindDocComment,
			Symbol: "F", Text: "F does.", Changed: true, Package: ".", Note: "x"},
		Label: review.Contradicted, Rule: "r", Message: "m", Suggestion: "s", Confidence: 0.5, Skipped: "budget",
		Unverified: []string{"yaml.Marshal"},
		Evidence: []review.Evidence{{ID: "e1", Path: "b.go", StartLine: 3, EndLine: 4, Source: review.SourceCode,
			Why: "w", Hops: []string{"F", "g"}, Score: 1.5, Snippet: "func g() {}"}},
	}
	minimal := review.Verdict{
		Claim:    review.Claim{Path: "a.md", Line: 1, EndLine: 1, Kind: review.KindMarkdown},
		Label:    review.Incomplete,
		Evidence: []review.Evidence{{Path: "b.go", StartLine: 1, EndLine: 1, Source: review.SourceTest}},
	}
	if len(claimRequired) == 0 || len(evRequired) == 0 {
		t.Fatalf("no required properties found in %s", schemaPath)
	}
	topRequired := slices.DeleteFunc(slices.Clone(topProps), func(k string) bool { return k == "notes" })
	tests := []struct {
		name         string
		v            review.Verdict
		notes        []review.Note
		topKeys      []string
		claimKeys    []string
		evidenceKeys []string
	}{
		{"full", full, []review.Note{{Path: "big.bin", Message: "skipped: binary file"}}, topProps, claimProps, evProps},
		{"minimal", minimal, nil, topRequired, claimRequired, sortedUnion(evRequired, "id", "snippet")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var doc map[string]any
			if err := json.Unmarshal(encode(t, review.Report{Verdicts: []review.Verdict{tt.v}, Notes: tt.notes}), &doc); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.topKeys, keys(doc)); diff != "" {
				t.Errorf("report keys (-schema +got):\n%s", diff)
			}
			if diff := cmp.Diff(statsProps, keys(doc["stats"].(map[string]any))); diff != "" {
				t.Errorf("stats keys (-schema +got):\n%s", diff)
			}
			claim := doc["claims"].([]any)[0].(map[string]any)
			if diff := cmp.Diff(tt.claimKeys, keys(claim)); diff != "" {
				t.Errorf("claim keys (-want +got):\n%s", diff)
			}
			ev := claim["evidence"].([]any)[0].(map[string]any)
			if diff := cmp.Diff(tt.evidenceKeys, keys(ev)); diff != "" {
				t.Errorf("evidence keys (-want +got):\n%s", diff)
			}
		})
	}
}

func keys(m map[string]any) []string { return slices.Sorted(maps.Keys(m)) }

func sortedUnion(a []string, b ...string) []string {
	out := slices.Concat(a, b)
	slices.Sort(out)
	return slices.Compact(out)
}

// contractOnly ignores the fields the JSON contract does not carry.
var contractOnly = cmp.Options{
	cmpopts.IgnoreFields(review.Report{}, "Notes"),
	cmpopts.IgnoreFields(review.Stats{}, "Timings"),
	cmpopts.IgnoreFields(review.Claim{}, "Package", "Context", "Mentions", "Note"),
	cmpopts.SortSlices(func(a, b review.Verdict) bool { return a.Claim.ID < b.Claim.ID }),
}

func TestJSONRoundTrip(t *testing.T) {
	tests := map[string]review.Report{
		"fixture":    fixture(),
		"with model": withModel(fixture()),
		"no claims":  {Base: "a", Head: "worktree", Stats: review.Stats{}},
	}
	for name, want := range tests {
		t.Run(name, func(t *testing.T) {
			got, err := DecodeJSON(bytes.NewReader(encode(t, want)))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want, got, contractOnly); diff != "" {
				t.Errorf("round trip (-want +got):\n%s", diff)
			}
		})
	}
	t.Run("golden decodes", func(t *testing.T) {
		f, err := os.Open("testdata/report.json")
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		got, err := DecodeJSON(f)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(fixture(), got, contractOnly); diff != "" {
			t.Errorf("decoded golden file (-want +got):\n%s", diff)
		}
	})
}

func TestJSONRejectsInvalidReport(t *testing.T) {
	base := func() review.Report {
		return review.Report{Verdicts: []review.Verdict{{
			Claim: review.Claim{ID: "c1", Path: "a.go", Line: 4, EndLine: 5, Kind: review.KindDocComment},
			Label: review.Contradicted,
			Evidence: []review.Evidence{{Path: "b.go", StartLine: 1, EndLine: 2,
				Source: review.SourceCode, Why: "defines F"}},
		}}}
	}
	tests := []struct {
		name    string
		mutate  func(v *review.Verdict)
		wantErr string
	}{
		{"no evidence", func(v *review.Verdict) { v.Evidence = nil },
			"claim c1 (a.go:4): contradicted verdict without evidence"},
		{"bad label", func(v *review.Verdict) { v.Label = "fine" }, `claim c1 (a.go:4): unknown label "fine"`},
		{"empty label", func(v *review.Verdict) { v.Label = "" }, `claim c1 (a.go:4): unknown label ""`},
		{"bad kind", func(v *review.Verdict) { v.Claim.Kind = "" }, `claim c1 (a.go:4): unknown kind ""`},
		{"line 0", func(v *review.Verdict) { v.Claim.Line = 0 }, "claim c1 (a.go:0): lines 0-5: want 1-based lines"},
		{"confidence", func(v *review.Verdict) { v.Confidence = 1.2 }, "claim c1 (a.go:4): confidence 1.2 outside [0, 1]"},
		{"confidence NaN", func(v *review.Verdict) { v.Confidence = math.NaN() }, "claim c1 (a.go:4): confidence NaN outside [0, 1]"},
		{"bad source", func(v *review.Verdict) { v.Evidence[0].Source = "web" },
			`claim c1 (a.go:4): evidence 1 (b.go): unknown source "web"`},
		{"evidence line 0", func(v *review.Verdict) { v.Evidence[0].EndLine = 0 },
			"claim c1 (a.go:4): evidence 1 (b.go): lines 1-0: want 1-based lines"},
		{"score Inf", func(v *review.Verdict) { v.Evidence[0].Score = math.Inf(1) },
			"claim c1 (a.go:4): evidence 1 (b.go): score +Inf is not finite"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := base()
			tt.mutate(&r.Verdicts[0])
			var buf bytes.Buffer
			err := JSON(&buf, r)
			if err == nil {
				t.Fatalf("JSON accepted an invalid report:\n%s", buf.String())
			}
			if want := "encode json report: " + tt.wantErr; err.Error() != want {
				t.Errorf("JSON error = %q, want %q", err, want)
			}
			if buf.Len() != 0 {
				t.Errorf("JSON wrote output with an error:\n%s", buf.String())
			}
		})
	}
	t.Run("base is valid", func(t *testing.T) {
		if err := JSON(&bytes.Buffer{}, base()); err != nil {
			t.Fatal(err)
		}
	})
}

func TestDecodeJSONErrors(t *testing.T) {
	tests := []struct {
		name, in, wantErr string
	}{
		{"empty", "", "decode json report: EOF"},
		{"malformed", `{"version": 1,`, "decode json report: unexpected EOF"},
		{"not an object", `[]`, "decode json report: json: cannot unmarshal array"},
		{"missing version", `{"claims": []}`, "decode json report: missing version"},
		{"version 2", `{"version": 2, "claims": []}`, "decode json report: unsupported version 2 (want 1)"},
		{"trailing data", `{"version": 1} {}`, "decode json report: unexpected data after the report"},
		{"bad label", `{"version": 1, "claims": [{"id": "x", "path": "a.md", "line": 1, "end_line": 1,
			"kind": "markdown", "label": "maybe", "evidence": []}]}`,
			`decode json report: claim x (a.md:1): unknown label "maybe"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := DecodeJSON(strings.NewReader(tt.in))
			if err == nil || !strings.HasPrefix(err.Error(), tt.wantErr) {
				t.Errorf("DecodeJSON error = %v, want prefix %q", err, tt.wantErr)
			}
		})
	}
	t.Run("unknown fields are ignored", func(t *testing.T) {
		got, err := DecodeJSON(strings.NewReader(`{"version": 1, "base": "b", "head": "h", "future": true, "claims": [], "stats": {"claims": 0, "extra": 3}}`))
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(review.Report{Base: "b", Head: "h"}, got); diff != "" {
			t.Errorf("(-want +got):\n%s", diff)
		}
	})
}

// withModel adds model judge statistics to r.
func withModel(r review.Report) review.Report {
	r.Stats.Model = &review.ModelStats{
		Model: "gpt-4.1-mini", Claims: 4, Judged: 3, Skipped: 1, Calls: 7, Retries: 1, ToolCalls: 9,
		PromptTokens: 9000, CompletionTokens: 600, CacheHits: 1,
		Dropped:     map[string]int{"quote does not match": 1},
		ClaimMillis: []int64{1200, 0, 800, 0},
	}
	r.Stats.Coverage = &review.CoverageChange{Symbols: 4, FactsBefore: 8, FactsAfter: 8, StatedBefore: 5, StatedAfter: 6, Gained: 2, Lost: 1}
	return r
}

func TestCoverageSummary(t *testing.T) {
	tests := []struct {
		in   *review.CoverageChange
		want string
	}{
		{nil, ""},
		{&review.CoverageChange{}, ""},
		{&review.CoverageChange{Symbols: 4, FactsBefore: 8, FactsAfter: 8, StatedBefore: 5, StatedAfter: 6, Gained: 2, Lost: 1},
			"Documentation coverage of the 4 symbols this diff touched: 62% → 75% (2 facts newly stated, 1 lost)."},
		{&review.CoverageChange{Symbols: 1, FactsBefore: 0, FactsAfter: 2, StatedAfter: 1},
			"Documentation coverage of the 1 symbol this diff touched: 50% (1 of 2 facts stated; none at base)."},
	}
	for _, tt := range tests {
		if got := coverageSummary(tt.in); got != tt.want {
			t.Errorf("coverageSummary(%+v) = %q, want %q", tt.in, got, tt.want)
		}
	}
	var buf bytes.Buffer
	if err := Text(&buf, withModel(fixture()), Options{}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "Documentation coverage of the 4 symbols") {
		t.Errorf("text output lacks the coverage line:\n%s", buf.String())
	}
}

func TestModelSummary(t *testing.T) {
	tests := []struct {
		name string
		in   *review.ModelStats
		want string
	}{
		{"none", nil, ""},
		{"full", withModel(review.Report{}).Stats.Model,
			"Model gpt-4.1-mini judged 3 of 4 claims (1 from the cache; 1 skipped) in 7 calls (1 retry) and 9 tool calls, 9000 prompt and 600 completion tokens (4500 prompt tokens per judged claim on average); 1 finding dropped (quote does not match 1)."},
		{"all cached", &review.ModelStats{Model: "m", Claims: 1, Judged: 1, CacheHits: 1},
			"Model m judged 1 of 1 claim (1 from the cache) in 0 calls and 0 tool calls, 0 prompt and 0 completion tokens."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := modelSummary(tt.in); got != tt.want {
				t.Errorf("modelSummary:\n got %q\nwant %q", got, tt.want)
			}
		})
	}
	var buf bytes.Buffer
	if err := Text(&buf, withModel(fixture()), Options{}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "Model gpt-4.1-mini judged 3 of 4 claims") {
		t.Errorf("text output lacks the model summary:\n%s", buf.String())
	}
	buf.Reset()
	if err := Markdown(&buf, withModel(fixture()), Options{}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "Model gpt-4.1-mini judged 3 of 4 claims") {
		t.Errorf("markdown output lacks the model summary:\n%s", buf.String())
	}
}
