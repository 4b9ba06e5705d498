package review

import (
	"context"
	"maps"
	"slices"
)

// ModelJudge judges claims with a language model, many at a time, so that
// it can share conversations, caches and budgets across them. The engine
// runs the rules first and hands it the claims no rule settled and, when
// [Engine.Confirm] is set, the rules' findings to confirm.
type ModelJudge interface {
	// Name is the rule name of its verdicts ("llm").
	Name() string
	// JudgeClaims returns one outcome per item, in the items' order, and
	// the statistics of the run. It never fails as a whole: a claim it
	// could not settle carries the reason in its outcome's Skipped.
	JudgeClaims(ctx context.Context, ws *Workspace, items []ModelItem) ([]ModelOutcome, ModelStats)
}

// ModelItem is one claim for the model.
type ModelItem struct {
	Claim Claim
	// Finding is the rules' finding to confirm; nil when no rule found
	// anything.
	Finding *Verdict
}

// ModelOutcome is the model's judgement of one item.
type ModelOutcome struct {
	// Verdict is a contradicted or incomplete finding whose citations the
	// judge verified, with Rule set to the judge's name; nil when the
	// model found the claim consistent, or when its finding was dropped
	// (see Dropped) or the claim skipped.
	Verdict *Verdict
	// Refuted is set for an item with a Finding when the model judged the
	// claim consistent with verified citations: the rules' finding is
	// dropped.
	Refuted bool
	// Why explains Refuted in a sentence.
	Why string
	// Skipped says why the model could not settle the claim: "budget",
	// "timeout", "no evidence", "model error: ...". A skipped claim keeps
	// the rules' finding, if any, and is never reported as consistent
	// without saying so.
	Skipped string
	// Dropped names the retention check a model finding failed ("citation
	// not returned by a tool", "quote does not match", ...); the finding
	// is not reported.
	Dropped string
}

// ModelStats are the costs and outcomes of one review's model judging.
type ModelStats struct {
	// Model is the model's name as configured.
	Model string
	// Claims is how many items the judge was given; Judged how many it
	// settled (from the model or the cache), Skipped how many it did not.
	Claims, Judged, Skipped int
	// Calls counts chat completion requests (retries included), Retries
	// the retried ones, ToolCalls the tool calls answered.
	Calls, Retries, ToolCalls int
	// PromptTokens and CompletionTokens sum the API's usage fields.
	PromptTokens, CompletionTokens int64
	// CacheHits counts items answered from the verdict cache.
	CacheHits int
	// Dropped counts findings dropped by retention checks, by reason.
	Dropped map[string]int
	// ClaimMillis is the wall time per judged claim, in milliseconds, in
	// the items' order (0 for cache hits and skipped items).
	ClaimMillis []int64
}

// DroppedTotal is the number of findings dropped for any reason.
func (s ModelStats) DroppedTotal() int {
	n := 0
	for _, v := range s.Dropped {
		n += v
	}
	return n
}

// DroppedReasons lists the drop reasons, sorted.
func (s ModelStats) DroppedReasons() []string {
	return slices.Sorted(maps.Keys(s.Dropped))
}

// CoverageChange says how completely the documentation of the symbols a
// diff touched states their facts (see review/completeness), at base and
// at head.
type CoverageChange struct {
	// Symbols counts the touched exported symbols that have facts.
	Symbols int
	// FactsBefore and FactsAfter count their facts at base and head;
	// StatedBefore and StatedAfter how many of them the docs state.
	FactsBefore, FactsAfter, StatedBefore, StatedAfter int
	// Gained counts facts stated at head but not at base, Lost the
	// reverse, for facts present on both sides.
	Gained, Lost int
}

// Before is the coverage at base: stated facts / facts, 1 with none.
func (c CoverageChange) Before() float64 { return ratio(c.StatedBefore, c.FactsBefore) }

// After is the coverage at head.
func (c CoverageChange) After() float64 { return ratio(c.StatedAfter, c.FactsAfter) }

func ratio(a, b int) float64 {
	if b == 0 {
		return 1
	}
	return float64(a) / float64(b)
}

// CoverageScorer scores the documentation of the symbols a diff touched;
// review/completeness implements it. The engine calls it once per review,
// after judging.
type CoverageScorer interface {
	Score(ctx context.Context, ws *Workspace) (*CoverageChange, error)
}
