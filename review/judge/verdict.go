package judge

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path"
	"regexp"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/docreview/docreview/review"
)

// Drop reasons: why a model answer did not become a finding (or a
// refutation). They are the keys of [review.ModelStats.Dropped].
const (
	DropBadJSON           = "bad json"
	DropSchema            = "schema violation"
	DropUnknownLabel      = "unknown label"
	DropNoCitation        = "no citation"
	DropCitationPath      = "citation path not at head"
	DropCitationLines     = "citation lines not at head"
	DropCitationNotSeen   = "citation not returned by a tool"
	DropQuoteMismatch     = "quote does not match"
	DropNoCorrection      = "no concrete correction"
	DropRefutationUnknown = "refutation not verified"
	DropMissingVerdict    = "no verdict for claim"
)

// verdictProps is the JSON schema of one verdict's properties (strict:
// every property required, no others).
const verdictProps = `
"label": {"type": "string", "enum": ["consistent", "contradicted", "incomplete"]},
"message": {"type": "string", "description": "one or two sentences"},
"suggestion": {"type": "string", "description": "complete replacement text for the documentation, or empty"},
"confidence": {"type": "number", "description": "0 to 1"},
"citations": {"type": "array", "items": {
  "type": "object",
  "properties": {
    "path": {"type": "string"},
    "start_line": {"type": "integer"},
    "end_line": {"type": "integer"},
    "quote": {"type": "string", "description": "verbatim text of the cited lines, without line numbers"}
  },
  "required": ["path", "start_line", "end_line", "quote"],
  "additionalProperties": false
}}`

const (
	singleSchema = `{"type": "object", "properties": {` + verdictProps + `},
"required": ["label", "message", "suggestion", "confidence", "citations"], "additionalProperties": false}`
	entrySchema = `{"type": "object", "properties": {"claim_id": {"type": "string"},` + verdictProps + `},
"required": ["claim_id", "label", "message", "suggestion", "confidence", "citations"], "additionalProperties": false}`
	groupSchema = `{"type": "object", "properties": {"verdicts": {"type": "array", "items": ` + entrySchema + `}},
"required": ["verdicts"], "additionalProperties": false}`
)

// compileSchemas compiles the verdict and grouped-entry schemas for
// validating answers.
func compileSchemas() (single, entry *jsonschema.Schema, err error) {
	compile := func(name, text string) (*jsonschema.Schema, error) {
		doc, err := jsonschema.UnmarshalJSON(strings.NewReader(text))
		if err != nil {
			return nil, fmt.Errorf("llm judge: schema %s: %w", name, err)
		}
		c := jsonschema.NewCompiler()
		if err := c.AddResource(name, doc); err != nil {
			return nil, fmt.Errorf("llm judge: schema %s: %w", name, err)
		}
		s, err := c.Compile(name)
		if err != nil {
			return nil, fmt.Errorf("llm judge: schema %s: %w", name, err)
		}
		return s, nil
	}
	if single, err = compile("verdict.json", singleSchema); err != nil {
		return nil, nil, err
	}
	if entry, err = compile("entry.json", entrySchema); err != nil {
		return nil, nil, err
	}
	return single, entry, nil
}

// schemaParam returns a schema's text as a value for the request.
func schemaParam(text string) map[string]any {
	var m map[string]any
	if err := json.Unmarshal([]byte(text), &m); err != nil {
		panic("llm judge: invalid built-in schema: " + err.Error()) // a broken constant, caught by every test
	}
	return m
}

// answer is a verdict as the model gave it.
type answer struct {
	ClaimID    string     `json:"claim_id"`
	Label      string     `json:"label"`
	Message    string     `json:"message"`
	Suggestion string     `json:"suggestion"`
	Confidence float64    `json:"confidence"`
	Citations  []citation `json:"citations"`
}

type citation struct {
	Path      string `json:"path"`
	StartLine int    `json:"start_line"`
	EndLine   int    `json:"end_line"`
	Quote     string `json:"quote"`
}

// fence matches an answer wrapped in a Markdown code fence.
var fence = regexp.MustCompile("(?s)^```[a-zA-Z]*\\s*\n(.*)\n```$")

// decode parses content as one JSON value; false when it is not JSON.
func decode(content string) (any, bool) {
	s := strings.TrimSpace(content)
	if m := fence.FindStringSubmatch(s); m != nil {
		s = strings.TrimSpace(m[1])
	}
	if !json.Valid([]byte(s)) {
		return nil, false
	}
	v, err := jsonschema.UnmarshalJSON(strings.NewReader(s))
	return v, err == nil
}

// check validates one decoded verdict against sch and returns it, or the
// drop reason.
func check(v any, sch *jsonschema.Schema) (answer, string) {
	m, ok := v.(map[string]any)
	if !ok {
		return answer{}, DropSchema
	}
	if l, ok := m["label"].(string); ok && review.Label(l).Severity() < 0 {
		return answer{}, DropUnknownLabel
	}
	if err := sch.Validate(v); err != nil {
		return answer{}, DropSchema
	}
	raw, err := json.Marshal(v)
	if err != nil {
		return answer{}, DropSchema
	}
	var a answer
	dec := json.NewDecoder(bytes.NewReader(raw))
	if err := dec.Decode(&a); err != nil || a.Confidence < 0 || a.Confidence > 1 {
		return answer{}, DropSchema
	}
	return a, ""
}

// parseSingle parses a one-claim answer; the string is a drop reason.
func (j *Judge) parseSingle(content string) (answer, string) {
	v, ok := decode(content)
	if !ok {
		return answer{}, DropBadJSON
	}
	return check(v, j.single)
}

// parseGroup parses a grouped answer into verdicts by claim id; reasons
// holds the drop reason of entries that failed validation, by claim id
// (when it could be read), and all is set when the whole answer failed.
func (j *Judge) parseGroup(content string) (byID map[string]answer, reasons map[string]string, all string) {
	v, ok := decode(content)
	if !ok {
		return nil, nil, DropBadJSON
	}
	m, ok := v.(map[string]any)
	list, ok2 := m["verdicts"].([]any)
	if !ok || !ok2 || len(m) != 1 {
		return nil, nil, DropSchema
	}
	byID, reasons = map[string]answer{}, map[string]string{}
	for _, e := range list {
		em, _ := e.(map[string]any)
		id, _ := em["claim_id"].(string)
		if id == "" {
			continue
		}
		if _, dup := byID[id]; dup {
			continue
		}
		a, reason := check(e, j.entry)
		if reason != "" {
			if _, ok := reasons[id]; !ok {
				reasons[id] = reason
			}
			continue
		}
		byID[id] = a
	}
	return byID, reasons, ""
}

// normalize collapses whitespace.
func normalize(s string) string { return strings.Join(strings.Fields(s), " ") }

// lineNumber matches the number prefix the tools put before each line.
var lineNumber = regexp.MustCompile(`(?m)^\s*\d+\t`)

// verify checks a citation against head and what the conversation showed
// and returns how it was reached, or the drop reason.
func (r *run) verify(sn *seen, c citation) (string, string) {
	lines, ok := r.heads.get(c.Path)
	if !ok {
		return "", DropCitationPath
	}
	if c.StartLine < 1 || c.EndLine < c.StartLine || c.EndLine > len(lines) {
		return "", DropCitationLines
	}
	via, ok := sn.covering(c.Path, c.StartLine, c.EndLine)
	if !ok {
		return "", DropCitationNotSeen
	}
	q := normalize(lineNumber.ReplaceAllString(c.Quote, ""))
	cited := normalize(strings.Join(lines[c.StartLine-1:c.EndLine], "\n"))
	// A quote must say something: "}" occurs in every Go file.
	if len(q) < min(minQuote, len(cited)) || !strings.Contains(cited, q) {
		return "", DropQuoteMismatch
	}
	return via, ""
}

// minQuote is the shortest quote accepted, in bytes after whitespace is
// collapsed, unless the cited lines themselves are shorter.
const minQuote = 8

// backticked matches a `code span` of a message.
var backticked = regexp.MustCompile("`([^`\n]+)`")

// correction reports whether a finding carries a concrete correction: a
// suggestion that differs from the claim's text, or a message with a
// backticked replacement that the claim does not contain and the cited
// lines do.
func correction(c review.Claim, a answer, cited []string) bool {
	if s := normalize(a.Suggestion); s != "" && s != normalize(c.Text) {
		return true
	}
	text := normalize(c.Text)
	for _, m := range backticked.FindAllStringSubmatch(a.Message, -1) {
		span := normalize(m[1])
		if span == "" || strings.Contains(text, span) {
			continue
		}
		for _, t := range cited {
			if strings.Contains(normalize(t), span) {
				return true
			}
		}
	}
	return false
}

// outcome turns a parsed answer for item into its outcome, applying the
// retention checks; cacheable says whether it may be cached.
func (r *run) outcome(item review.ModelItem, a answer, sn *seen) (review.ModelOutcome, bool) {
	label := review.Label(a.Label)
	var (
		evidence []review.Evidence
		cited    []string
		reason   string
	)
	for _, c := range a.Citations {
		via, why := r.verify(sn, c)
		if why != "" {
			reason = why
			break
		}
		text, _ := r.heads.text(c.Path, c.StartLine, c.EndLine)
		cited = append(cited, text)
		evidence = append(evidence, review.Evidence{
			Path: c.Path, StartLine: c.StartLine, EndLine: c.EndLine, Source: sourceOf(c.Path, text),
			Snippet: text, Why: "cited by llm: " + quoteHead(c.Quote), Hops: []string{"claim", via},
		})
	}
	if label == review.Consistent {
		if item.Finding == nil {
			return review.ModelOutcome{}, true
		}
		if reason != "" || len(evidence) == 0 {
			return review.ModelOutcome{Dropped: DropRefutationUnknown}, false
		}
		why := strings.TrimSpace(a.Message)
		if why == "" {
			why = "the cited lines show the text is right"
		}
		e := evidence[0]
		return review.ModelOutcome{Refuted: true, Why: fmt.Sprintf("%s (%s:%d-%d)", why, e.Path, e.StartLine, e.EndLine)}, true
	}
	switch {
	case len(a.Citations) == 0:
		return review.ModelOutcome{Dropped: DropNoCitation}, false
	case reason != "":
		return review.ModelOutcome{Dropped: reason}, false
	case !correction(item.Claim, a, cited):
		return review.ModelOutcome{Dropped: DropNoCorrection}, false
	}
	suggestion := strings.TrimSpace(a.Suggestion)
	if normalize(suggestion) == normalize(item.Claim.Text) {
		suggestion = ""
	}
	return review.ModelOutcome{Verdict: &review.Verdict{
		Claim: item.Claim, Label: label, Rule: r.j.Name(), Message: strings.TrimSpace(a.Message),
		Suggestion: suggestion, Confidence: a.Confidence, Evidence: evidence,
	}}, true
}

// quoteHead is the start of a quote for an evidence's Why.
func quoteHead(q string) string {
	q = normalize(lineNumber.ReplaceAllString(q, ""))
	if r := []rune(q); len(r) > 60 {
		return string(r[:60]) + "…"
	}
	return q
}

// sourceOf classifies a cited file: Example functions and example_test
// files are examples, other _test.go files tests, Markdown and text docs,
// the rest code.
func sourceOf(p, text string) review.Source {
	base := path.Base(p)
	switch {
	case strings.HasSuffix(base, "_test.go") && (strings.HasPrefix(base, "example_test") || strings.HasPrefix(base, "example") || strings.Contains(text, "func Example")):
		return review.SourceExample
	case strings.HasSuffix(base, "_test.go"):
		return review.SourceTest
	case strings.HasSuffix(base, ".md") || strings.HasSuffix(base, ".markdown") || strings.HasSuffix(base, ".txt") || strings.HasSuffix(base, ".rst"):
		return review.SourceDoc
	}
	return review.SourceCode
}
