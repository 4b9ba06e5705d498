package review

import (
	"fmt"
	"strings"
)

// Sentence is one sentence on the model judge's work and costs, shared by
// the report renderers and the pull request summary: "Model gpt-4.1-mini
// judged 12 of 13 claims (3 from the cache; 1 skipped) in 25 calls (2
// retries) and 31 tool calls, 41200 prompt and 2100 completion tokens
// (3433 prompt tokens per judged claim on average); 2 findings dropped
// (quote does not match 1, ...)."
func (s ModelStats) Sentence() string {
	var b strings.Builder
	fmt.Fprintf(&b, "Model %s judged %d of %d %s", s.Model, s.Judged, s.Claims, plural(s.Claims, "claim", "claims"))
	var extra []string
	if s.CacheHits > 0 {
		extra = append(extra, fmt.Sprintf("%d from the cache", s.CacheHits))
	}
	if s.Skipped > 0 {
		extra = append(extra, fmt.Sprintf("%d skipped", s.Skipped))
	}
	if len(extra) > 0 {
		b.WriteString(" (" + strings.Join(extra, "; ") + ")")
	}
	fmt.Fprintf(&b, " in %d %s", s.Calls, plural(s.Calls, "call", "calls"))
	if s.Retries > 0 {
		fmt.Fprintf(&b, " (%d %s)", s.Retries, plural(s.Retries, "retry", "retries"))
	}
	fmt.Fprintf(&b, " and %d tool %s, %d prompt and %d completion tokens", s.ToolCalls, plural(s.ToolCalls, "call", "calls"), s.PromptTokens, s.CompletionTokens)
	if fresh := s.Judged - s.CacheHits; fresh > 0 {
		fmt.Fprintf(&b, " (%d prompt tokens per judged claim on average)", s.PromptTokens/int64(fresh))
	}
	if n := s.DroppedTotal(); n > 0 {
		var parts []string
		for _, r := range s.DroppedReasons() {
			parts = append(parts, fmt.Sprintf("%s %d", r, s.Dropped[r]))
		}
		fmt.Fprintf(&b, "; %d %s dropped (%s)", n, plural(n, "finding", "findings"), strings.Join(parts, ", "))
	}
	b.WriteString(".")
	return b.String()
}

// Sentence is one sentence on the documentation coverage of the symbols
// the change touched, "" when it touched none with facts; scope names the
// change ("this diff", "this pull request"): "Documentation coverage of
// the 4 symbols this diff touched: 62% → 75% (3 facts newly stated, 1
// lost)."
func (c CoverageChange) Sentence(scope string) string {
	if c.Symbols == 0 {
		return ""
	}
	head := fmt.Sprintf("Documentation coverage of the %d %s %s touched", c.Symbols, plural(c.Symbols, "symbol", "symbols"), scope)
	if c.FactsBefore == 0 {
		// Nothing to compare with: the symbols are new, or had no facts.
		return fmt.Sprintf("%s: %.0f%% (%d of %d facts stated; none at base).", head, 100*c.After(), c.StatedAfter, c.FactsAfter)
	}
	s := fmt.Sprintf("%s: %.0f%% → %.0f%%", head, 100*c.Before(), 100*c.After())
	var parts []string
	if c.Gained > 0 {
		parts = append(parts, fmt.Sprintf("%d %s newly stated", c.Gained, plural(c.Gained, "fact", "facts")))
	}
	if c.Lost > 0 {
		parts = append(parts, fmt.Sprintf("%d lost", c.Lost))
	}
	if len(parts) > 0 {
		s += " (" + strings.Join(parts, ", ") + ")"
	}
	return s + "."
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
