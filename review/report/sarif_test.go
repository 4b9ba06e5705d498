package report

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/docreview/docreview/review"
)

// compileVendored compiles a vendored schema of testdata/schemas.
func compileVendored(t *testing.T, file string) *jsonschema.Schema {
	t.Helper()
	path := "testdata/schemas/" + file
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		t.Fatalf("parse %s: %v", path, err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft4)
	url := "file:///docreview/schemas/" + file
	if err := c.AddResource(url, doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile(url)
	if err != nil {
		t.Fatalf("compile %s: %v", path, err)
	}
	return sch
}

func renderSARIF(t *testing.T, r review.Report, opt Options) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := SARIF(&buf, r, opt); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// decodeAny parses a JSON document into generic maps and slices.
func decodeAny(t *testing.T, doc []byte) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(doc, &m); err != nil {
		t.Fatalf("%v\n%s", err, doc)
	}
	return m
}

// get walks a generic JSON value by object keys and array indexes ("0").
func get(t *testing.T, v any, steps ...string) any {
	t.Helper()
	for _, s := range steps {
		switch x := v.(type) {
		case map[string]any:
			var ok bool
			if v, ok = x[s]; !ok {
				t.Fatalf("no key %q in %v", s, x)
			}
		case []any:
			i := 0
			for _, c := range s {
				i = i*10 + int(c-'0')
			}
			if i >= len(x) {
				t.Fatalf("index %d out of %d", i, len(x))
			}
			v = x[i]
		default:
			t.Fatalf("cannot step %q into %T", s, v)
		}
	}
	return v
}

// oddPaths is a report whose finding and evidence live in files whose names
// need percent-encoding.
func oddPaths() review.Report {
	return review.Report{
		Head: "worktree",
		Verdicts: []review.Verdict{{
			Claim: review.Claim{
				ID: "0dd0000000000001", Path: "docs/My Guide/Überblick #1 100%.md", Line: 3, EndLine: 3,
				Kind: review.KindMarkdown, Text: "Call `Öffne`.",
			},
			Label: review.Contradicted, Rule: "stale-reference", Confidence: 1,
			Message: "`Öffne` was renamed `Open`.",
			Evidence: []review.Evidence{{
				ID: "e1", Path: "pkg/größe/a:b?.go", StartLine: 7, EndLine: 7, Source: review.SourceCode,
				Why: "defines Open", Snippet: "func Open() {}",
			}},
		}},
		Stats: review.Stats{Claims: 1, Contradicted: 1},
	}
}

func consistentOnly() review.Report {
	r := fixture()
	var vs []review.Verdict
	for _, v := range r.Verdicts {
		if v.Label == review.Consistent {
			vs = append(vs, v)
		}
	}
	r.Verdicts = vs
	r.Stats = review.Stats{Claims: len(vs), Consistent: len(vs), Skipped: 1}
	return r
}

func TestSARIFGolden(t *testing.T) {
	tests := []struct {
		file string
		r    review.Report
		opt  Options
	}{
		{"sarif.json", fixture(), Options{}},
		{"sarif_links.json", fixture(), Options{RepoURL: "https://github.com/docreview/example/", ToolVersion: "v1.2.3"}},
		{"sarif_paths.json", oddPaths(), Options{}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			golden(t, tt.file, renderSARIF(t, tt.r, tt.opt))
		})
	}
}

func TestSARIFMatchesSchema(t *testing.T) {
	sch := compileVendored(t, "sarif-schema-2.1.0.json")
	tests := map[string]struct {
		r   review.Report
		opt Options
	}{
		"fixture":         {fixture(), Options{}},
		"links":           {fixture(), Options{RepoURL: "https://github.com/o/r", ToolVersion: "1.0.0"}},
		"with model":      {withModel(fixture()), Options{}},
		"odd paths":       {oddPaths(), Options{}},
		"consistent only": {consistentOnly(), Options{}},
		"zero":            {review.Report{}, Options{}},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			doc := renderSARIF(t, tt.r, tt.opt)
			if err := validate(sch, doc); err != nil {
				t.Errorf("output does not match the SARIF 2.1.0 schema: %v\n%s", err, doc)
			}
		})
	}
}

// TestSARIFSchemaRejects makes sure the schema test can fail: valid output
// broken in one place each must not validate.
func TestSARIFSchemaRejects(t *testing.T) {
	sch := compileVendored(t, "sarif-schema-2.1.0.json")
	tests := map[string]func(m map[string]any){
		"level fatal": func(m map[string]any) {
			get(t, m, "runs", "0", "results", "0").(map[string]any)["level"] = "fatal"
		},
		"version 2.0.0": func(m map[string]any) { m["version"] = "2.0.0" },
		"no runs":       func(m map[string]any) { delete(m, "runs") },
		"result without message": func(m map[string]any) {
			delete(get(t, m, "runs", "0", "results", "0").(map[string]any), "message")
		},
		"unknown result property": func(m map[string]any) {
			get(t, m, "runs", "0", "results", "0").(map[string]any)["severity"] = "high"
		},
		"string location id": func(m map[string]any) {
			get(t, m, "runs", "0", "results", "0", "relatedLocations", "0").(map[string]any)["id"] = "e1"
		},
		"line 0": func(m map[string]any) {
			get(t, m, "runs", "0", "results", "0", "locations", "0", "physicalLocation", "region").(map[string]any)["startLine"] = 0
		},
		"uri with backslash": func(m map[string]any) {
			get(t, m, "runs", "0", "results", "0", "locations", "0", "physicalLocation", "artifactLocation").(map[string]any)["uri"] = "a\\b.md"
		},
		"relative informationUri": func(m map[string]any) {
			get(t, m, "runs", "0", "tool", "driver").(map[string]any)["informationUri"] = "docs/rules.md"
		},
		"rule without id": func(m map[string]any) {
			delete(get(t, m, "runs", "0", "tool", "driver", "rules", "0").(map[string]any), "id")
		},
	}
	valid := renderSARIF(t, fixture(), Options{})
	if err := validate(sch, valid); err != nil {
		t.Fatalf("the unbroken document does not validate: %v", err)
	}
	for name, breakIt := range tests {
		t.Run(name, func(t *testing.T) {
			m := decodeAny(t, valid)
			breakIt(m)
			doc, err := json.Marshal(m)
			if err != nil {
				t.Fatal(err)
			}
			if err := validate(sch, doc); err == nil {
				t.Errorf("schema accepted a broken document:\n%s", doc)
			}
		})
	}
}

func TestSARIFResults(t *testing.T) {
	m := decodeAny(t, renderSARIF(t, fixture(), Options{}))
	run := get(t, m, "runs", "0").(map[string]any)
	results := run["results"].([]any)
	if len(results) != 3 {
		t.Fatalf("%d results, want the 3 findings", len(results))
	}
	type want struct{ rule, level, uri, fingerprint string }
	var got []want
	for _, r := range results {
		got = append(got, want{
			rule:        get(t, r, "ruleId").(string),
			level:       get(t, r, "level").(string),
			uri:         get(t, r, "locations", "0", "physicalLocation", "artifactLocation", "uri").(string),
			fingerprint: get(t, r, "partialFingerprints", SARIFFingerprint).(string),
		})
		if base := get(t, r, "locations", "0", "physicalLocation", "artifactLocation", "uriBaseId"); base != "%SRCROOT%" {
			t.Errorf("uriBaseId = %v", base)
		}
	}
	wantResults := []want{
		{"missing-flag", "warning", "README.md", "b7e1c0de00000002:missing-flag"},
		{"llm", "error", "cache/cache.go", "a1c0ffee00000001:llm"},
		{"go-snippet", "warning", "docs/tutorial.md", "c0debl0c00000005:go-snippet"},
	}
	if diff := cmp.Diff(wantResults, got, cmp.AllowUnexported(want{})); diff != "" {
		t.Errorf("results (-want +got):\n%s", diff)
	}
	// The contradicted finding: message with suggestion, evidence in order.
	purge := results[1]
	if msg := get(t, purge, "message", "text").(string); !strings.HasPrefix(msg, "Purge only marks entries") ||
		!strings.HasSuffix(msg, "Suggested replacement:\nPurge marks all entries expired; the sweeper removes them on its next run.") {
		t.Errorf("message = %q, want message then suggestion", msg)
	}
	if reg := get(t, purge, "locations", "0", "physicalLocation", "region"); !cmp.Equal(reg, map[string]any{"startLine": 41.0, "endLine": 43.0}) {
		t.Errorf("region = %v, want lines 41-43", reg)
	}
	rel := get(t, purge, "relatedLocations").([]any)
	if len(rel) != 2 || get(t, rel[1], "id") != 2.0 || get(t, rel[1], "message", "text") != "test that calls Cache.Purge" ||
		get(t, rel[1], "physicalLocation", "artifactLocation", "uri") != "cache/cache_test.go" {
		t.Errorf("relatedLocations = %v", rel)
	}
	props := get(t, purge, "properties")
	if get(t, props, "confidence") != 0.9 || !cmp.Equal(get(t, props, "hops"), []any{"Cache.Purge → sweeper.mark", "Cache.Purge → TestPurge"}) {
		t.Errorf("properties = %v", props)
	}
	// Rules: those of the results only, sorted, with help only where documented.
	rules := get(t, run, "tool", "driver", "rules").([]any)
	if len(rules) != 3 || get(t, rules[0], "id") != "go-snippet" || get(t, rules[1], "id") != "llm" || get(t, rules[2], "id") != "missing-flag" {
		t.Fatalf("rules = %v", rules)
	}
	if get(t, results[0], "ruleIndex") != 2.0 || get(t, results[1], "ruleIndex") != 1.0 || get(t, results[2], "ruleIndex") != 0.0 {
		t.Errorf("ruleIndex does not point at the result's rule")
	}
	for i, want := range []string{HomeURL + "/blob/main/docs/rules.md#go-snippet", "", ""} {
		if got, _ := rules[i].(map[string]any)["helpUri"].(string); got != want {
			t.Errorf("rule %v helpUri = %q, want %q", get(t, rules[i], "id"), got, want)
		}
	}
	// Counts of what is not a result.
	wantProps := map[string]any{"base": fixtureBase, "head": fixtureHead, "claims": 6.0, "contradicted": 1.0,
		"incomplete": 1.0, "consistent": 4.0, "skipped": 1.0}
	if diff := cmp.Diff(wantProps, run["properties"]); diff != "" {
		t.Errorf("run.properties (-want +got):\n%s", diff)
	}
	if _, ok := run["versionControlProvenance"]; ok {
		t.Errorf("versionControlProvenance without RepoURL")
	}
}

func TestSARIFHelpAndVersion(t *testing.T) {
	r := fixture()
	m := decodeAny(t, renderSARIF(t, r, Options{ToolVersion: "v2.3.4", RepoURL: "https://github.com/o/r"}))
	driver := get(t, m, "runs", "0", "tool", "driver")
	if v := get(t, driver, "semanticVersion"); v != "2.3.4" {
		t.Errorf("semanticVersion = %v, want 2.3.4", v)
	}
	if v := get(t, driver, "informationUri"); v != HomeURL {
		t.Errorf("informationUri = %v", v)
	}
	var help string
	for _, rule := range get(t, driver, "rules").([]any) {
		if get(t, rule, "id") == "go-snippet" {
			help, _ = rule.(map[string]any)["helpUri"].(string)
		}
	}
	if want := HomeURL + "/blob/main/docs/rules.md#go-snippet"; help != want {
		t.Errorf("snippet helpUri = %q, want %q", help, want)
	}
	vcs := get(t, m, "runs", "0", "versionControlProvenance", "0")
	if !cmp.Equal(vcs, map[string]any{"repositoryUri": "https://github.com/o/r", "revisionId": fixtureHead}) {
		t.Errorf("versionControlProvenance = %v", vcs)
	}
	if v := get(t, decodeAny(t, renderSARIF(t, r, Options{})), "runs", "0", "tool", "driver", "semanticVersion"); v != DevVersion {
		t.Errorf("default semanticVersion = %v, want %s", v, DevVersion)
	}
	var buf bytes.Buffer
	if err := SARIF(&buf, r, Options{RepoURL: "ftp://x"}); err == nil || buf.Len() != 0 {
		t.Errorf("invalid RepoURL: err = %v, wrote %d bytes", err, buf.Len())
	}
}

func TestSARIFConsistentOnly(t *testing.T) {
	for name, r := range map[string]review.Report{"consistent only": consistentOnly(), "zero": {}} {
		t.Run(name, func(t *testing.T) {
			run := get(t, decodeAny(t, renderSARIF(t, r, Options{})), "runs", "0")
			if res := get(t, run, "results").([]any); len(res) != 0 {
				t.Errorf("results = %v, want []", res)
			}
			if rules := get(t, run, "tool", "driver", "rules").([]any); len(rules) != 0 {
				t.Errorf("rules = %v, want []", rules)
			}
			if got, want := get(t, run, "properties", "consistent"), float64(r.Stats.Consistent); got != want {
				t.Errorf("properties.consistent = %v, want %v", got, want)
			}
		})
	}
}

func TestSARIFURI(t *testing.T) {
	tests := []struct {
		path, want, wantErr string
	}{
		{"README.md", "README.md", ""},
		{"docs/My Guide/a b.md", "docs/My%20Guide/a%20b.md", ""},
		{"docs/Überblick.md", "docs/%C3%9Cberblick.md", ""},
		{"docs/日本.md", "docs/%E6%97%A5%E6%9C%AC.md", ""},
		{"a:b.md", "a%3Ab.md", ""},
		{"x/100%#?.md", "x/100%25%23%3F.md", ""},
		{"a\\b.md", "a%5Cb.md", ""},
		{"-_.~/ok", "-_.~/ok", ""},
		{"", "", "not relative"},
		{"/etc/passwd", "", "not relative"},
		{"../up.md", "", "not a clean path"},
		{"a//b.md", "", "not a clean path"},
		{"a/./b.md", "", "not a clean path"},
	}
	for _, tt := range tests {
		got, err := sarifURI(tt.path)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("sarifURI(%q) error = %v, want %q", tt.path, err, tt.wantErr)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("sarifURI(%q) = %q, %v; want %q", tt.path, got, err, tt.want)
		}
	}
}

func TestSARIFEncodesPaths(t *testing.T) {
	res := get(t, decodeAny(t, renderSARIF(t, oddPaths(), Options{})), "runs", "0", "results", "0")
	if got, want := get(t, res, "locations", "0", "physicalLocation", "artifactLocation", "uri"),
		"docs/My%20Guide/%C3%9Cberblick%20%231%20100%25.md"; got != want {
		t.Errorf("claim uri = %v, want %v", got, want)
	}
	if got, want := get(t, res, "relatedLocations", "0", "physicalLocation", "artifactLocation", "uri"),
		"pkg/gr%C3%B6%C3%9Fe/a%3Ab%3F.go"; got != want {
		t.Errorf("evidence uri = %v, want %v", got, want)
	}
}

func TestSARIFRejects(t *testing.T) {
	tests := map[string]func(r *review.Report){
		"absolute claim path":  func(r *review.Report) { r.Verdicts[2].Claim.Path = "/abs/cache.go" },
		"escaping evidence":    func(r *review.Report) { r.Verdicts[2].Evidence[0].Path = "../outside.go" },
		"line 0":               func(r *review.Report) { r.Verdicts[2].Claim.Line = 0 },
		"finding w/o evidence": func(r *review.Report) { r.Verdicts[2].Evidence = nil },
	}
	for name, breakIt := range tests {
		t.Run(name, func(t *testing.T) {
			r := fixture()
			breakIt(&r)
			var buf bytes.Buffer
			if err := SARIF(&buf, r, Options{}); err == nil || !strings.HasPrefix(err.Error(), "encode sarif report: ") {
				t.Errorf("err = %v, want an encode sarif report error", err)
			}
			if buf.Len() != 0 {
				t.Errorf("wrote %d bytes", buf.Len())
			}
		})
	}
}
