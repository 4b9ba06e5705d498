package report

import (
	"bytes"
	"encoding/json"
	"errors"
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"

	"github.com/docreview/docreview/review"
)

func renderRDJSON(t *testing.T, r review.Report, opt Options) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := RDJSON(&buf, r, opt); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// fixtureSource holds the files of the fixture's findings at head: the Go
// doc comment of Cache.Purge at lines 41-43 (whose claim text is one line,
// so only a three-line source matches after the suggestion test rewrites
// it) and README.md.
func fixtureSource() fstest.MapFS {
	cache := strings.Repeat("\n", 40) +
		"// Purge removes all entries immediately.\n" +
		"//\n" +
		"// It is safe for concurrent use.\n" +
		"func (c *Cache) Purge() {}\n"
	readme := "# x\n\n" + strings.Repeat("\n", 9) +
		"- Pass `--fail-on error` to fail the job.\n" +
		"  See <b>docs</b> & ask @maintainer | anyone.\n"
	return fstest.MapFS{
		"cache/cache.go": {Data: []byte(cache)},
		"README.md":      {Data: []byte(readme)},
	}
}

// fixtureWithSuggestions is the fixture with claim texts matching
// fixtureSource and a certain suggestion on both the Go and the Markdown
// finding.
func fixtureWithSuggestions() review.Report {
	r := fixture()
	for i := range r.Verdicts {
		v := &r.Verdicts[i]
		switch v.Claim.ID {
		case "a1c0ffee00000001":
			v.Claim.Text = "Purge removes all entries immediately.\n\nIt is safe for concurrent use."
			v.Suggestion = "Purge marks all entries expired; the sweeper removes them on its next run.\n\nIt is safe for concurrent use."
		case "b7e1c0de00000002":
			v.Claim.EndLine = 13
			v.Claim.Text = "Pass `--fail-on error` to fail the job.\nSee <b>docs</b> & ask @maintainer | anyone."
			v.Suggestion = "Pass `--fail-on error` or `--fail-on warning` to fail the job.\nSee <b>docs</b> & ask @maintainer | anyone."
		}
	}
	return r
}

func TestRDJSONGolden(t *testing.T) {
	tests := []struct {
		file string
		r    review.Report
		opt  Options
	}{
		{"rdjson.json", fixture(), Options{}},
		{"rdjson_suggestions.json", fixtureWithSuggestions(), Options{Source: fixtureSource()}},
		{"rdjson_paths.json", oddPaths(), Options{}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			golden(t, tt.file, renderRDJSON(t, tt.r, tt.opt))
		})
	}
}

func TestRDJSONMatchesSchema(t *testing.T) {
	sch := compileVendored(t, "DiagnosticResult.json")
	tests := map[string]struct {
		r   review.Report
		opt Options
	}{
		"fixture":         {fixture(), Options{}},
		"suggestions":     {fixtureWithSuggestions(), Options{Source: fixtureSource()}},
		"odd paths":       {oddPaths(), Options{}},
		"consistent only": {consistentOnly(), Options{}},
		"zero":            {review.Report{}, Options{}},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			doc := renderRDJSON(t, tt.r, tt.opt)
			if err := validate(sch, doc); err != nil {
				t.Errorf("output does not match reviewdog's DiagnosticResult schema: %v\n%s", err, doc)
			}
		})
	}
}

// TestRDJSONSchemaRejects makes sure the schema test can fail.
func TestRDJSONSchemaRejects(t *testing.T) {
	sch := compileVendored(t, "DiagnosticResult.json")
	tests := map[string]func(m map[string]any){
		"severity FATAL": func(m map[string]any) {
			get(t, m, "diagnostics", "0").(map[string]any)["severity"] = "FATAL"
		},
		"top-level severity error": func(m map[string]any) { m["severity"] = "error" },
		"line as string": func(m map[string]any) {
			get(t, m, "diagnostics", "0", "location", "range", "start").(map[string]any)["line"] = "12"
		},
		"diagnostics object": func(m map[string]any) { m["diagnostics"] = map[string]any{} },
		"code value number": func(m map[string]any) {
			get(t, m, "diagnostics", "0", "code").(map[string]any)["value"] = 1
		},
		"source name number": func(m map[string]any) { get(t, m, "source").(map[string]any)["name"] = 7 },
	}
	valid := renderRDJSON(t, fixture(), Options{})
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

// TestRDJSONShape checks field names and shapes directly, since reviewdog's
// schema admits any additional property.
func TestRDJSONShape(t *testing.T) {
	m := decodeAny(t, renderRDJSON(t, fixture(), Options{}))
	if diff := cmp.Diff([]string{"diagnostics", "severity", "source"}, keys(m)); diff != "" {
		t.Errorf("top-level keys (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(map[string]any{"name": "docreview", "url": HomeURL}, m["source"]); diff != "" {
		t.Errorf("source (-want +got):\n%s", diff)
	}
	if m["severity"] != "ERROR" {
		t.Errorf("severity = %v, want ERROR (a contradicted finding)", m["severity"])
	}
	diags := m["diagnostics"].([]any)
	if len(diags) != 3 {
		t.Fatalf("%d diagnostics, want the 3 findings", len(diags))
	}
	type row struct{ Path, Severity, Code string }
	var got []row
	for _, d := range diags {
		if diff := cmp.Diff([]string{"code", "location", "message", "severity"}, keys(d.(map[string]any))); diff != "" {
			t.Errorf("diagnostic keys (-want +got):\n%s", diff)
		}
		got = append(got, row{get(t, d, "location", "path").(string), get(t, d, "severity").(string), get(t, d, "code", "value").(string)})
	}
	want := []row{
		{"README.md", "WARNING", "missing-flag"},
		{"cache/cache.go", "ERROR", "llm"},
		{"docs/tutorial.md", "WARNING", "go-snippet"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("diagnostics (-want +got):\n%s", diff)
	}
	purge := diags[1]
	if r := get(t, purge, "location", "range"); !cmp.Equal(r, map[string]any{"start": map[string]any{"line": 41.0}, "end": map[string]any{"line": 43.0}}) {
		t.Errorf("range = %v, want lines 41-43", r)
	}
	wantMsg := "Purge only marks entries; removal happens in the next sweep (sweeper.go:88).\n\n" +
		"Suggested replacement:\nPurge marks all entries expired; the sweeper removes them on its next run.\n\n" +
		"Evidence:\n" +
		"- cache/sweeper.go:80-87 (code) callee of Cache.Purge [Cache.Purge → sweeper.mark]\n" +
		"- cache/cache_test.go:10-13 (test) test that calls Cache.Purge [Cache.Purge → TestPurge]"
	if diff := cmp.Diff(wantMsg, get(t, purge, "message")); diff != "" {
		t.Errorf("message (-want +got):\n%s", diff)
	}
	if u := get(t, diags[2], "code").(map[string]any)["url"]; u != HomeURL+"/blob/main/docs/rules.md#go-snippet" {
		t.Errorf("snippet code url = %v", u)
	}
	if _, ok := get(t, purge, "code").(map[string]any)["url"]; ok {
		t.Errorf("llm code has a url")
	}
}

func TestRDJSONSuggestions(t *testing.T) {
	m := decodeAny(t, renderRDJSON(t, fixtureWithSuggestions(), Options{Source: fixtureSource()}))
	diags := m["diagnostics"].([]any)
	wantReadme := []any{map[string]any{
		"range": map[string]any{"start": map[string]any{"line": 12.0}, "end": map[string]any{"line": 13.0}},
		"text": "- Pass `--fail-on error` or `--fail-on warning` to fail the job.\n" +
			"  See <b>docs</b> & ask @maintainer | anyone.\n",
	}}
	if diff := cmp.Diff(wantReadme, get(t, diags[0], "suggestions")); diff != "" {
		t.Errorf("README suggestions (-want +got):\n%s", diff)
	}
	wantGo := []any{map[string]any{
		"range": map[string]any{"start": map[string]any{"line": 41.0}, "end": map[string]any{"line": 43.0}},
		"text": "// Purge marks all entries expired; the sweeper removes them on its next run.\n" +
			"//\n" +
			"// It is safe for concurrent use.\n",
	}}
	if diff := cmp.Diff(wantGo, get(t, diags[1], "suggestions")); diff != "" {
		t.Errorf("Go suggestions (-want +got):\n%s", diff)
	}
	if msg := get(t, diags[1], "message").(string); strings.Contains(msg, "Suggested replacement") {
		t.Errorf("a suggestion given as such is repeated in the message:\n%s", msg)
	}
}

func TestRDJSONReplacement(t *testing.T) {
	goClaim := review.Claim{Path: "f.go", Line: 2, EndLine: 3, Kind: review.KindDocComment, Text: "Old text.\nMore."}
	mdClaim := review.Claim{Path: "f.md", Line: 1, EndLine: 2, Kind: review.KindMarkdown, Text: "Old text.\nMore."}
	tests := []struct {
		name  string
		files fstest.MapFS
		c     review.Claim
		sugg  string
		want  string // "" means no certain suggestion
	}{
		{"go indented", fstest.MapFS{"f.go": {Data: []byte("type T struct {\n\t// Old text.\n\t// More.\n\tF int\n}\n")}},
			goClaim, "New text.\nMore.", "\t// New text.\n\t// More.\n"},
		{"go more lines", fstest.MapFS{"f.go": {Data: []byte("\n// Old text.\n// More.\nfunc F() {}\n")}},
			goClaim, "New text.\n\n\tcode\nMore.", "// New text.\n//\n//\tcode\n// More.\n"},
		{"go last line without newline", fstest.MapFS{"f.go": {Data: []byte("\n// Old text.\n// More.")}},
			goClaim, "New.\nMore.", "// New.\n// More."},
		{"go text differs", fstest.MapFS{"f.go": {Data: []byte("\n// Other text.\n// More.\n")}},
			goClaim, "New.\nMore.", ""},
		{"go mixed indentation", fstest.MapFS{"f.go": {Data: []byte("\n// Old text.\n\t// More.\n")}},
			goClaim, "New.\nMore.", ""},
		{"go block comment", fstest.MapFS{"f.go": {Data: []byte("\n/* Old text.\nMore. */\n")}},
			goClaim, "New.\nMore.", ""},
		{"crlf", fstest.MapFS{"f.go": {Data: []byte("\r\n// Old text.\r\n// More.\r\n")}},
			goClaim, "New.\nMore.", ""},
		{"lines past the end", fstest.MapFS{"f.go": {Data: []byte("\n// Old text.\n")}},
			goClaim, "New.\nMore.", ""},
		{"missing file", fstest.MapFS{}, goClaim, "New.\nMore.", ""},
		{"unchanged", fstest.MapFS{"f.go": {Data: []byte("\n// Old text.\n// More.\n")}},
			goClaim, "Old text.\nMore.", ""},
		{"markdown quote", fstest.MapFS{"f.md": {Data: []byte("> Old text.\n> More.\n")}},
			mdClaim, "New text.\nMore.", "> New text.\n> More.\n"},
		{"markdown numbered", fstest.MapFS{"f.md": {Data: []byte("1. Old text.\n   More.\n")}},
			mdClaim, "New text.\nMore.", "1. New text.\n   More.\n"},
		{"markdown line count changes", fstest.MapFS{"f.md": {Data: []byte("Old text.\nMore.\n")}},
			mdClaim, "New text.", ""},
		{"markdown inline prefix", fstest.MapFS{"f.md": {Data: []byte("| Old text.\nMore.\n")}},
			mdClaim, "New.\nMore.", ""},
		{"markdown reflowed", fstest.MapFS{"f.md": {Data: []byte("Old\ntext. More.\n")}},
			mdClaim, "New.\nMore.", ""},
		{"example", fstest.MapFS{"f.go": {Data: []byte("\n// Old text.\n// More.\n")}},
			review.Claim{Path: "f.go", Line: 2, EndLine: 3, Kind: review.KindExample, Text: "Old text.\nMore."}, "New.\nMore.", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok, err := rdReplacement(tt.files, tt.c, tt.sugg)
			if err != nil {
				t.Fatal(err)
			}
			if ok != (tt.want != "") || got != tt.want {
				t.Errorf("rdReplacement = %q, %v; want %q", got, ok, tt.want)
			}
		})
	}
	if _, ok, err := rdReplacement(nil, goClaim, "New."); ok || err != nil {
		t.Errorf("without Source: ok = %v, err = %v", ok, err)
	}
}

// brokenFS fails every open with an error other than "does not exist".
type brokenFS struct{}

var errUnreadable = errors.New("unreadable")

func (brokenFS) Open(string) (fs.File, error) { return nil, errUnreadable }

func TestRDJSONSourceError(t *testing.T) {
	var buf bytes.Buffer
	err := RDJSON(&buf, fixture(), Options{Source: brokenFS{}})
	if !errors.Is(err, errUnreadable) || !strings.HasPrefix(err.Error(), "encode rdjson report: claim ") {
		t.Errorf("err = %v, want the source's error with context", err)
	}
	if buf.Len() != 0 {
		t.Errorf("wrote %d bytes", buf.Len())
	}
}

func TestRDJSONConsistentOnly(t *testing.T) {
	for name, r := range map[string]review.Report{"consistent only": consistentOnly(), "zero": {}} {
		t.Run(name, func(t *testing.T) {
			m := decodeAny(t, renderRDJSON(t, r, Options{}))
			if d := m["diagnostics"].([]any); len(d) != 0 {
				t.Errorf("diagnostics = %v, want []", d)
			}
			if _, ok := m["severity"]; ok {
				t.Errorf("severity without diagnostics: %v", m["severity"])
			}
		})
	}
}

func TestRDJSONPathsAsIs(t *testing.T) {
	d := get(t, decodeAny(t, renderRDJSON(t, oddPaths(), Options{})), "diagnostics", "0")
	if got, want := get(t, d, "location", "path"), "docs/My Guide/Überblick #1 100%.md"; got != want {
		t.Errorf("path = %v, want %v (a file path, not a URI)", got, want)
	}
	if msg := get(t, d, "message").(string); !strings.Contains(msg, "- pkg/größe/a:b?.go:7 (code) defines Open") {
		t.Errorf("message = %q, want the evidence path as it is", msg)
	}
}

func TestRDJSONRejectsInvalidReport(t *testing.T) {
	r := fixture()
	r.Verdicts[2].Confidence = 2
	var buf bytes.Buffer
	if err := RDJSON(&buf, r, Options{}); err == nil || !strings.Contains(err.Error(), "confidence 2 outside [0, 1]") || buf.Len() != 0 {
		t.Errorf("err = %v, wrote %d bytes; want the contract error and no output", err, buf.Len())
	}
}
