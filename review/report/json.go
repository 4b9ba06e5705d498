package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"github.com/docreview/docreview/review"
)

// Version is the version of the JSON output contract that [JSON] writes and
// [DecodeJSON] reads.
const Version = 1

// The JSON shapes of the output contract, kept apart from the review types
// so that renaming a Go field can never change the contract.
type jsonReport struct {
	Version int         `json:"version"`
	Base    string      `json:"base"`
	Head    string      `json:"head"`
	Claims  []jsonClaim `json:"claims"`
	Stats   jsonStats   `json:"stats"`
	Notes   []jsonNote  `json:"notes,omitempty"`
}

type jsonNote struct {
	Path    string `json:"path"`
	Message string `json:"message"`
}

type jsonClaim struct {
	ID         string         `json:"id"`
	Path       string         `json:"path"`
	Line       int            `json:"line"`
	EndLine    int            `json:"end_line"`
	Symbol     string         `json:"symbol,omitempty"`
	Kind       string         `json:"kind"`
	Changed    bool           `json:"changed"`
	Text       string         `json:"text"`
	Label      string         `json:"label"`
	Rule       string         `json:"rule"`
	Confidence float64        `json:"confidence,omitempty"`
	Message    string         `json:"message"`
	Suggestion string         `json:"suggestion,omitempty"`
	Skipped    string         `json:"skipped,omitempty"`
	Evidence   []jsonEvidence `json:"evidence"`
	Unverified []string       `json:"unverified,omitempty"`
}

type jsonEvidence struct {
	ID        string   `json:"id"`
	Path      string   `json:"path"`
	StartLine int      `json:"start_line"`
	EndLine   int      `json:"end_line"`
	Source    string   `json:"source"`
	Why       string   `json:"why"`
	Hops      []string `json:"hops,omitempty"`
	Score     float64  `json:"score,omitempty"`
	Snippet   string   `json:"snippet"`
}

type jsonStats struct {
	Claims       int             `json:"claims"`
	Consistent   int             `json:"consistent"`
	Contradicted int             `json:"contradicted"`
	Incomplete   int             `json:"incomplete"`
	Skipped      int             `json:"skipped"`
	Model        *jsonModelStats `json:"model,omitempty"`
	Coverage     *jsonCoverage   `json:"coverage,omitempty"`
}

// jsonCoverage is the documentation coverage change of the symbols the
// diff touched, an addition to the contract's open stats object.
type jsonCoverage struct {
	Symbols      int `json:"symbols"`
	FactsBefore  int `json:"facts_before"`
	FactsAfter   int `json:"facts_after"`
	StatedBefore int `json:"stated_before"`
	StatedAfter  int `json:"stated_after"`
	Gained       int `json:"gained"`
	Lost         int `json:"lost"`
}

// jsonModelStats are the model judge's costs, an addition to the stats the
// contract allows (its stats object is open).
type jsonModelStats struct {
	Model            string         `json:"model"`
	Claims           int            `json:"claims"`
	Judged           int            `json:"judged"`
	Skipped          int            `json:"skipped"`
	Calls            int            `json:"calls"`
	Retries          int            `json:"retries"`
	ToolCalls        int            `json:"tool_calls"`
	PromptTokens     int64          `json:"prompt_tokens"`
	CompletionTokens int64          `json:"completion_tokens"`
	CacheHits        int            `json:"cache_hits"`
	Dropped          map[string]int `json:"dropped"`
	ClaimMillis      []int64        `json:"claim_ms"`
}

func modelStatsJSON(s *review.ModelStats) *jsonModelStats {
	if s == nil {
		return nil
	}
	out := &jsonModelStats{
		Model: s.Model, Claims: s.Claims, Judged: s.Judged, Skipped: s.Skipped, Calls: s.Calls, Retries: s.Retries,
		ToolCalls: s.ToolCalls, PromptTokens: s.PromptTokens, CompletionTokens: s.CompletionTokens,
		CacheHits: s.CacheHits, Dropped: s.Dropped, ClaimMillis: s.ClaimMillis,
	}
	if out.Dropped == nil {
		out.Dropped = map[string]int{}
	}
	if out.ClaimMillis == nil {
		out.ClaimMillis = []int64{}
	}
	return out
}

func modelStatsOf(j *jsonModelStats) *review.ModelStats {
	if j == nil {
		return nil
	}
	s := &review.ModelStats{
		Model: j.Model, Claims: j.Claims, Judged: j.Judged, Skipped: j.Skipped, Calls: j.Calls, Retries: j.Retries,
		ToolCalls: j.ToolCalls, PromptTokens: j.PromptTokens, CompletionTokens: j.CompletionTokens,
		CacheHits: j.CacheHits, ClaimMillis: j.ClaimMillis,
	}
	if len(j.Dropped) > 0 {
		s.Dropped = j.Dropped
	}
	return s
}

// JSON writes r to w as an indented JSON document of the output contract
// (docs/report.schema.json), version [Version], ending in a newline. Every
// verdict appears, consistent ones included, ordered by path, line, symbol
// and ID. Stats.Model, when set, is written as stats.model (the contract's
// stats object admits additions). Report.Notes, Stats.Timings and the
// claim fields the contract lacks (Package, Context, Mentions, Note) are
// not written.
//
// JSON returns an error, and writes nothing, when r breaks the contract: an
// unknown label, kind or evidence source, a line below 1, a confidence
// outside [0, 1], a non-finite score, or a contradicted or incomplete
// verdict without evidence. It also returns w's error.
func JSON(w io.Writer, r review.Report) error {
	if err := check(r); err != nil {
		return fmt.Errorf("encode json report: %w", err)
	}
	out := jsonReport{
		Version: Version,
		Base:    r.Base,
		Head:    r.Head,
		Claims:  []jsonClaim{},
		Stats: jsonStats{
			Claims:       r.Stats.Claims,
			Consistent:   r.Stats.Consistent,
			Contradicted: r.Stats.Contradicted,
			Incomplete:   r.Stats.Incomplete,
			Skipped:      r.Stats.Skipped,
			Model:        modelStatsJSON(r.Stats.Model),
			Coverage:     (*jsonCoverage)(r.Stats.Coverage),
		},
	}
	for _, n := range r.Notes {
		out.Notes = append(out.Notes, jsonNote{Path: n.Path, Message: n.Message})
	}
	slices.SortStableFunc(out.Notes, func(a, b jsonNote) int { return strings.Compare(a.Path, b.Path) })
	for _, v := range sortedVerdicts(r.Verdicts) {
		c := jsonClaim{
			ID:         v.Claim.ID,
			Path:       v.Claim.Path,
			Line:       v.Claim.Line,
			EndLine:    v.Claim.EndLine,
			Symbol:     v.Claim.Symbol,
			Kind:       string(v.Claim.Kind),
			Changed:    v.Claim.Changed,
			Text:       v.Claim.Text,
			Label:      string(v.Label),
			Rule:       v.Rule,
			Confidence: v.Confidence,
			Message:    v.Message,
			Suggestion: v.Suggestion,
			Skipped:    v.Skipped,
			Evidence:   make([]jsonEvidence, 0, len(v.Evidence)),
			Unverified: v.Unverified,
		}
		for _, e := range v.Evidence {
			c.Evidence = append(c.Evidence, jsonEvidence{
				ID:        e.ID,
				Path:      e.Path,
				StartLine: e.StartLine,
				EndLine:   e.EndLine,
				Source:    string(e.Source),
				Why:       e.Why,
				Hops:      e.Hops,
				Score:     e.Score,
				Snippet:   e.Snippet,
			})
		}
		out.Claims = append(out.Claims, c)
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(out); err != nil {
		return fmt.Errorf("encode json report: %w", err)
	}
	return write(w, "json", buf.Bytes())
}

// DecodeJSON reads a report written by [JSON]. Fields the contract does not
// carry stay zero: Notes, Stats.Timings, and Claim.Package, Context,
// Mentions and Note. Unknown JSON fields are ignored, so later additions to
// version 1 still decode. It returns an error for malformed JSON, trailing
// data, a version other than [Version], and a document that breaks the
// contract as described at [JSON].
func DecodeJSON(rd io.Reader) (review.Report, error) {
	dec := json.NewDecoder(rd)
	var in struct {
		jsonReport
		Version *int `json:"version"`
	}
	if err := dec.Decode(&in); err != nil {
		return review.Report{}, fmt.Errorf("decode json report: %w", err)
	}
	if dec.More() {
		return review.Report{}, fmt.Errorf("decode json report: unexpected data after the report")
	}
	if in.Version == nil {
		return review.Report{}, fmt.Errorf("decode json report: missing version")
	}
	if *in.Version != Version {
		return review.Report{}, fmt.Errorf("decode json report: unsupported version %d (want %d)", *in.Version, Version)
	}
	r := review.Report{
		Base: in.Base,
		Head: in.Head,
		Stats: review.Stats{
			Claims:       in.Stats.Claims,
			Consistent:   in.Stats.Consistent,
			Contradicted: in.Stats.Contradicted,
			Incomplete:   in.Stats.Incomplete,
			Skipped:      in.Stats.Skipped,
			Model:        modelStatsOf(in.Stats.Model),
			Coverage:     (*review.CoverageChange)(in.Stats.Coverage),
		},
	}
	for _, n := range in.Notes {
		r.Notes = append(r.Notes, review.Note{Path: n.Path, Message: n.Message})
	}
	for _, c := range in.Claims {
		v := review.Verdict{
			Claim: review.Claim{
				ID:      c.ID,
				Path:    c.Path,
				Line:    c.Line,
				EndLine: c.EndLine,
				Kind:    review.Kind(c.Kind),
				Symbol:  c.Symbol,
				Text:    c.Text,
				Changed: c.Changed,
			},
			Label:      review.Label(c.Label),
			Rule:       c.Rule,
			Message:    c.Message,
			Suggestion: c.Suggestion,
			Confidence: c.Confidence,
			Skipped:    c.Skipped,
			Unverified: c.Unverified,
		}
		for _, e := range c.Evidence {
			v.Evidence = append(v.Evidence, review.Evidence{
				ID:        e.ID,
				Path:      e.Path,
				StartLine: e.StartLine,
				EndLine:   e.EndLine,
				Source:    review.Source(e.Source),
				Snippet:   e.Snippet,
				Why:       e.Why,
				Hops:      e.Hops,
				Score:     e.Score,
			})
		}
		r.Verdicts = append(r.Verdicts, v)
	}
	if err := check(r); err != nil {
		return review.Report{}, fmt.Errorf("decode json report: %w", err)
	}
	return r, nil
}

// check reports the first way r breaks the constraints of the output
// contract's schema, naming the claim and evidence item.
func check(r review.Report) error {
	for _, v := range sortedVerdicts(r.Verdicts) {
		c := v.Claim
		at := fmt.Sprintf("claim %s (%s:%d)", c.ID, c.Path, c.Line)
		switch {
		case c.Line < 1 || c.EndLine < 1:
			return fmt.Errorf("%s: lines %d-%d: want 1-based lines", at, c.Line, c.EndLine)
		case c.Kind != review.KindDocComment && c.Kind != review.KindMarkdown && c.Kind != review.KindExample:
			return fmt.Errorf("%s: unknown kind %q", at, c.Kind)
		case v.Label.Severity() < 0:
			return fmt.Errorf("%s: unknown label %q", at, v.Label)
		case v.Label != review.Consistent && len(v.Evidence) == 0:
			return fmt.Errorf("%s: %s verdict without evidence", at, v.Label)
		case math.IsNaN(v.Confidence) || v.Confidence < 0 || v.Confidence > 1:
			return fmt.Errorf("%s: confidence %v outside [0, 1]", at, v.Confidence)
		}
		for i, e := range v.Evidence {
			at := fmt.Sprintf("%s: evidence %d (%s)", at, i+1, e.Path)
			switch e.Source {
			case review.SourceCode, review.SourceTest, review.SourceExample,
				review.SourceDoc, review.SourceUpstream, review.SourceDiff:
			default:
				return fmt.Errorf("%s: unknown source %q", at, e.Source)
			}
			switch {
			case e.StartLine < 1 || e.EndLine < 1:
				return fmt.Errorf("%s: lines %d-%d: want 1-based lines", at, e.StartLine, e.EndLine)
			case math.IsNaN(e.Score) || math.IsInf(e.Score, 0):
				return fmt.Errorf("%s: score %v is not finite", at, e.Score)
			}
		}
	}
	return nil
}
