package roundtrip

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
)

// CoverageResult is the model's reading of one doc comment.
type CoverageResult struct {
	// Stated holds the indices into the facts given to [Coverage] that the
	// comment states, ascending, without duplicates.
	Stated []int `json:"stated"`
	// PromptTokens and CompletionTokens are the model's usage.
	PromptTokens     int64 `json:"prompt_tokens"`
	CompletionTokens int64 `json:"completion_tokens"`
}

// ErrBadCoverage is returned (wrapped) when the model's coverage answer is
// not a JSON object {"stated": [indices]} with every index in range.
var ErrBadCoverage = errors.New("model coverage answer is malformed")

// Coverage asks the model which of facts the doc comment of symbol
// ("cfg.ParsePort") states, by the rules of prompts/coverage.md: named
// exactly, with exact literal values and conditions. Each fact is one line
// of text ("error ErrEmpty when s is empty"); they are shown numbered from
// 0. With no facts it returns an empty result without a call. The answer
// is read in json_object mode and must be exactly {"stated": [...]} with
// integer indices into facts; anything else is an error wrapping
// [ErrBadCoverage].
func Coverage(ctx context.Context, ep Endpoint, symbol, doc string, facts []string) (CoverageResult, error) {
	res := CoverageResult{Stated: []int{}}
	if len(facts) == 0 {
		return res, nil
	}
	c, err := newClient(ep)
	if err != nil {
		return res, err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Symbol: %s\n\n<repository-data>\n<doc-comment>\n%s\n</doc-comment>\n<facts>\n", symbol, strings.TrimSpace(doc))
	for i, f := range facts {
		fmt.Fprintf(&b, "%d. %s\n", i, strings.Join(strings.Fields(f), " "))
	}
	b.WriteString("</facts>\n</repository-data>\n\nWhich facts does the doc comment state? Answer with the JSON object.\n")
	var u usage
	answer, err := c.complete(ctx, c.prompts.coverage, b.String(), true, &u)
	res.PromptTokens, res.CompletionTokens = u.prompt, u.completion
	if err != nil {
		return res, err
	}
	stated, err := parseCoverage(answer, len(facts))
	if err != nil {
		return res, err
	}
	res.Stated = stated
	return res, nil
}

// parseCoverage reads {"stated": [indices]}: unknown fields, trailing
// data, a non-integer or an index outside 0..n-1 are errors; the indices
// are returned sorted and deduplicated.
func parseCoverage(answer string, n int) ([]int, error) {
	var v struct {
		Stated *[]int `json:"stated"`
	}
	dec := json.NewDecoder(bytes.NewReader([]byte(strings.TrimSpace(answer))))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("roundtrip: %w: %v (answer begins %q)", ErrBadCoverage, err, clipRunes(answer, 80))
	}
	if dec.More() {
		return nil, fmt.Errorf("roundtrip: %w: data after the object", ErrBadCoverage)
	}
	if v.Stated == nil {
		return nil, fmt.Errorf("roundtrip: %w: no \"stated\" field", ErrBadCoverage)
	}
	out := slices.Clone(*v.Stated)
	for _, i := range out {
		if i < 0 || i >= n {
			return nil, fmt.Errorf("roundtrip: %w: index %d is not one of the %d facts", ErrBadCoverage, i, n)
		}
	}
	slices.Sort(out)
	return slices.Compact(out), nil
}
