package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/docreview/docreview/review"
	"github.com/docreview/docreview/review/mdtext"
)

// SARIF constants.
const (
	// SARIFSchema is the URI of the SARIF 2.1.0 JSON schema that [SARIF]
	// names in its output's $schema.
	SARIFSchema = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
	// SARIFFingerprint is the key of the partial fingerprint [SARIF] gives
	// every result: the claim ID and the rule, joined by ":".
	SARIFFingerprint = "docreview/v1"
	// HomeURL is docreview's home page: SARIF's tool.driver.informationUri
	// and rdjson's source.url. Rule help links point into its
	// docs/rules.md.
	HomeURL = "https://github.com/docreview/docreview"
	// DevVersion is the semantic version SARIF output states when
	// Options.ToolVersion is empty.
	DevVersion = "0.0.0-dev"
)

// ruleDoc returns the one-line description of a rule, and whether
// docs/rules.md documents it in a section whose anchor is its name. The
// model judge ("llm") and unknown rules get a fixed or generic description.
func ruleDoc(rule string) (desc string, documented bool) {
	switch rule {
	case "stale-reference":
		return "The documentation names an identifier that no longer exists.", true
	case "go-snippet":
		return "A Go code block or doc comment example does not compile against the repository's API.", true
	case "cli-flag":
		return "A shell block runs the module's command with a flag or subcommand it does not define.", true
	case "link":
		return "A relative link points to a file, heading or line that does not exist.", true
	case "example-output":
		return "An Example's Output comment no longer matches what it prints.", true
	case "restates-name":
		return "The doc comment only repeats its symbol's name.", true
	case "literal-mismatch":
		return "A stated default, limit, size, duration or count disagrees with the code.", true
	case "wrong-parameter":
		return "The doc comment names a parameter the signature no longer has.", true
	case "missing-contract":
		return "The doc comment is silent on the errors, panics or zero-value defaults of its function.", true
	case "deprecated-use":
		return "The documentation recommends a deprecated symbol.", true
	case "llm":
		return "The model judge found documentation that contradicts or omits what the code does.", false
	}
	return "docreview rule " + rule + ".", false
}

// ruleHelpURL is the link to a rule's section of docs/rules.md, or "" for a
// rule without one.
func ruleHelpURL(rule string) string {
	if _, ok := ruleDoc(rule); !ok {
		return ""
	}
	return HomeURL + "/blob/main/docs/rules.md#" + rule
}

// The SARIF 2.1.0 shapes [SARIF] writes: the subset of the schema docreview
// uses, in the schema's property names.
type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool                     sarifTool          `json:"tool"`
	Invocations              []sarifInvocation  `json:"invocations"`
	VersionControlProvenance []sarifVCS         `json:"versionControlProvenance,omitempty"`
	Results                  []sarifResult      `json:"results"`
	ColumnKind               string             `json:"columnKind"`
	Properties               sarifRunProperties `json:"properties"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name            string      `json:"name"`
	InformationURI  string      `json:"informationUri"`
	SemanticVersion string      `json:"semanticVersion"`
	Rules           []sarifRule `json:"rules"`
}

type sarifRule struct {
	ID               string         `json:"id"`
	Name             string         `json:"name"`
	ShortDescription sarifMessage   `json:"shortDescription"`
	HelpURI          string         `json:"helpUri,omitempty"`
	Properties       map[string]any `json:"properties"`
}

type sarifInvocation struct {
	ExecutionSuccessful        bool                `json:"executionSuccessful"`
	ToolExecutionNotifications []sarifNotification `json:"toolExecutionNotifications,omitempty"`
}

type sarifNotification struct {
	Level     string          `json:"level"`
	Message   sarifMessage    `json:"message"`
	Locations []sarifLocation `json:"locations,omitempty"`
}

type sarifVCS struct {
	RepositoryURI string `json:"repositoryUri"`
	RevisionID    string `json:"revisionId"`
}

type sarifMessage struct {
	Text string `json:"text"`
}

type sarifResult struct {
	RuleID              string               `json:"ruleId"`
	RuleIndex           int                  `json:"ruleIndex"`
	Level               string               `json:"level"`
	Message             sarifMessage         `json:"message"`
	Locations           []sarifLocation      `json:"locations"`
	RelatedLocations    []sarifLocation      `json:"relatedLocations,omitempty"`
	PartialFingerprints map[string]string    `json:"partialFingerprints"`
	Properties          sarifResultProperies `json:"properties"`
}

type sarifResultProperies struct {
	Label      string   `json:"label"`
	Confidence float64  `json:"confidence"`
	Hops       []string `json:"hops"`
	ClaimID    string   `json:"claimId"`
	Changed    bool     `json:"changed"`
	Skipped    string   `json:"skipped,omitempty"`
}

type sarifLocation struct {
	ID               *int                   `json:"id,omitempty"`
	PhysicalLocation sarifPhysicalLocation  `json:"physicalLocation"`
	Message          *sarifMessage          `json:"message,omitempty"`
	Properties       *sarifLocationProperty `json:"properties,omitempty"`
}

type sarifLocationProperty struct {
	Evidence string `json:"evidence"`
	Source   string `json:"source"`
}

type sarifPhysicalLocation struct {
	ArtifactLocation sarifArtifactLocation `json:"artifactLocation"`
	Region           *sarifRegion          `json:"region,omitempty"`
}

type sarifArtifactLocation struct {
	URI       string `json:"uri"`
	URIBaseID string `json:"uriBaseId"`
}

type sarifRegion struct {
	StartLine int `json:"startLine"`
	EndLine   int `json:"endLine"`
}

type sarifRunProperties struct {
	Base         string `json:"base"`
	Head         string `json:"head"`
	Claims       int    `json:"claims"`
	Contradicted int    `json:"contradicted"`
	Incomplete   int    `json:"incomplete"`
	Consistent   int    `json:"consistent"`
	Skipped      int    `json:"skipped"`
}

// SARIF writes r to w as an indented SARIF 2.1.0 log for GitHub code
// scanning, ending in a newline: one run whose tool.driver is "docreview"
// (informationUri [HomeURL], semanticVersion Options.ToolVersion or
// [DevVersion]) and whose rules are the rules of its results, sorted by
// name, each with a short description and, for the rules documented in
// docs/rules.md, a helpUri to the rule's section there.
//
// Only contradicted (level "error") and incomplete (level "warning")
// verdicts become results, whether or not they were also skipped; they are
// ordered by path, line, symbol and ID. A result's message is the verdict's
// message followed by its suggestion, its one location the claim's lines,
// its related locations the evidence items in order (id 1, 2, ...; message
// the evidence's why), its partial fingerprint [SARIFFingerprint] the claim
// ID and rule joined by ":", and its properties the label, confidence, claim
// ID, whether the diff changed the claim, why it was skipped, and the
// evidence's hop chains ("A → B"). Consistent verdicts are only counted, in
// run.properties with the report's base, head and stats. Report notes
// become tool execution notifications of level "note".
//
// Locations are relative URIs under uriBaseId "%SRCROOT%": the path with
// every byte outside RFC 3986's unreserved set and "/" percent-encoded.
// With Options.RepoURL set and a Head other than "" or "worktree", the run
// names the repository and Head in versionControlProvenance.
//
// SARIF returns an error, and writes nothing, for a report [JSON] rejects,
// for a claim or evidence path that is empty, absolute or has a "." or ".."
// segment, for an invalid Options.RepoURL (as [Markdown]), and w's error.
func SARIF(w io.Writer, r review.Report, opt Options) error {
	if err := check(r); err != nil {
		return fmt.Errorf("encode sarif report: %w", err)
	}
	version := strings.TrimPrefix(opt.ToolVersion, "v")
	if version == "" {
		version = DevVersion
	}
	run := sarifRun{
		Tool: sarifTool{Driver: sarifDriver{
			Name: "docreview", InformationURI: HomeURL, SemanticVersion: version, Rules: []sarifRule{},
		}},
		Invocations: []sarifInvocation{{ExecutionSuccessful: true}},
		Results:     []sarifResult{},
		ColumnKind:  "unicodeCodePoints",
		Properties: sarifRunProperties{
			Base: r.Base, Head: r.Head,
			Claims: r.Stats.Claims, Contradicted: r.Stats.Contradicted, Incomplete: r.Stats.Incomplete,
			Consistent: r.Stats.Consistent, Skipped: r.Stats.Skipped,
		},
	}
	if opt.RepoURL != "" {
		base, err := blobBase(opt.RepoURL, r.Head)
		if err != nil {
			return fmt.Errorf("encode sarif report: %w", err)
		}
		if r.Head != "" && r.Head != "worktree" {
			repo := strings.TrimSuffix(base, "/blob/"+mdtext.EscapeSegment(r.Head))
			run.VersionControlProvenance = []sarifVCS{{RepositoryURI: repo, RevisionID: r.Head}}
		}
	}

	findings := findings(r.Verdicts)
	var rules []string
	for _, v := range findings {
		if !slices.Contains(rules, v.Rule) {
			rules = append(rules, v.Rule)
		}
	}
	slices.Sort(rules)
	for _, name := range rules {
		desc, _ := ruleDoc(name)
		run.Tool.Driver.Rules = append(run.Tool.Driver.Rules, sarifRule{
			ID: name, Name: name,
			ShortDescription: sarifMessage{Text: desc},
			HelpURI:          ruleHelpURL(name),
			Properties:       map[string]any{"tags": []string{"documentation"}},
		})
	}

	for _, v := range findings {
		res, err := sarifResultOf(v, slices.Index(rules, v.Rule))
		if err != nil {
			return fmt.Errorf("encode sarif report: %w", err)
		}
		run.Results = append(run.Results, res)
	}

	for _, n := range sortedNotes(r.Notes) {
		note := sarifNotification{Level: "note", Message: sarifMessage{Text: n.Message}}
		if uri, err := sarifURI(n.Path); err == nil {
			note.Locations = []sarifLocation{{PhysicalLocation: sarifPhysicalLocation{
				ArtifactLocation: sarifArtifactLocation{URI: uri, URIBaseID: "%SRCROOT%"},
			}}}
		} else {
			note.Message.Text = n.Path + ": " + n.Message
		}
		run.Invocations[0].ToolExecutionNotifications = append(run.Invocations[0].ToolExecutionNotifications, note)
	}

	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(sarifLog{Schema: SARIFSchema, Version: "2.1.0", Runs: []sarifRun{run}}); err != nil {
		return fmt.Errorf("encode sarif report: %w", err)
	}
	return write(w, "sarif", buf.Bytes())
}

// findings returns the contradicted and incomplete verdicts of vs in the
// renderers' order.
func findings(vs []review.Verdict) []review.Verdict {
	var out []review.Verdict
	for _, v := range sortedVerdicts(vs) {
		if v.Label == review.Contradicted || v.Label == review.Incomplete {
			out = append(out, v)
		}
	}
	return out
}

// sarifResultOf converts one finding; ruleIndex is its rule's index in the
// driver's rules.
func sarifResultOf(v review.Verdict, ruleIndex int) (sarifResult, error) {
	c := v.Claim
	uri, err := sarifURI(c.Path)
	if err != nil {
		return sarifResult{}, fmt.Errorf("claim %s: %w", c.ID, err)
	}
	level := "warning"
	if v.Label == review.Contradicted {
		level = "error"
	}
	text := v.Message
	if v.Suggestion != "" {
		text = strings.TrimSpace(text + "\n\nSuggested replacement:\n" + v.Suggestion)
	}
	if text == "" {
		text = string(v.Label) + " documentation (" + v.Rule + ")"
	}
	res := sarifResult{
		RuleID:    v.Rule,
		RuleIndex: ruleIndex,
		Level:     level,
		Message:   sarifMessage{Text: text},
		Locations: []sarifLocation{{PhysicalLocation: sarifPhysicalLocation{
			ArtifactLocation: sarifArtifactLocation{URI: uri, URIBaseID: "%SRCROOT%"},
			Region:           &sarifRegion{StartLine: c.Line, EndLine: max(c.Line, c.EndLine)},
		}}},
		PartialFingerprints: map[string]string{SARIFFingerprint: c.ID + ":" + v.Rule},
		Properties: sarifResultProperies{
			Label: string(v.Label), Confidence: v.Confidence, Hops: []string{},
			ClaimID: c.ID, Changed: c.Changed, Skipped: v.Skipped,
		},
	}
	for i, e := range v.Evidence {
		uri, err := sarifURI(e.Path)
		if err != nil {
			return sarifResult{}, fmt.Errorf("claim %s: evidence %d: %w", c.ID, i+1, err)
		}
		id := i + 1
		loc := sarifLocation{
			ID: &id,
			PhysicalLocation: sarifPhysicalLocation{
				ArtifactLocation: sarifArtifactLocation{URI: uri, URIBaseID: "%SRCROOT%"},
				Region:           &sarifRegion{StartLine: e.StartLine, EndLine: max(e.StartLine, e.EndLine)},
			},
			Properties: &sarifLocationProperty{Evidence: e.ID, Source: string(e.Source)},
		}
		if e.Why != "" {
			loc.Message = &sarifMessage{Text: e.Why}
		}
		res.RelatedLocations = append(res.RelatedLocations, loc)
		if len(e.Hops) > 0 {
			res.Properties.Hops = append(res.Properties.Hops, strings.Join(e.Hops, " → "))
		}
	}
	return res, nil
}

// sarifURI turns a slash-separated path relative to the repository root
// into a relative URI reference: every byte other than RFC 3986 unreserved
// characters and "/" is percent-encoded, so spaces, non-ASCII letters, "%",
// "#", "?" and a ":" that would read as a scheme cannot change its meaning.
// It rejects a path that is empty, absolute, or has an empty, "." or ".."
// segment.
func sarifURI(path string) (string, error) {
	if path == "" || strings.HasPrefix(path, "/") {
		return "", fmt.Errorf("path %q is not relative to the repository root", path)
	}
	for _, seg := range strings.Split(path, "/") {
		if seg == "" || seg == "." || seg == ".." {
			return "", fmt.Errorf("path %q is not a clean path relative to the repository root", path)
		}
	}
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(path); i++ {
		switch c := path[i]; {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9',
			c == '-', c == '.', c == '_', c == '~', c == '/':
			b.WriteByte(c)
		default:
			b.WriteByte('%')
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&15])
		}
	}
	return b.String(), nil
}
