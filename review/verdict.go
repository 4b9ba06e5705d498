package review

// Label is the outcome of judging a claim.
type Label string

// The three labels, in increasing order of severity.
const (
	Consistent   Label = "consistent"
	Incomplete   Label = "incomplete"
	Contradicted Label = "contradicted"
)

// Severity orders labels: consistent 0, incomplete 1, contradicted 2, and
// -1 for anything else.
func (l Label) Severity() int {
	switch l {
	case Consistent:
		return 0
	case Incomplete:
		return 1
	case Contradicted:
		return 2
	}
	return -1
}

// Source classifies where evidence was found.
type Source string

// The evidence sources of the output contract.
const (
	SourceCode     Source = "code"
	SourceTest     Source = "test"
	SourceExample  Source = "example"
	SourceDoc      Source = "doc"
	SourceUpstream Source = "upstream"
	SourceDiff     Source = "diff"
)

// Evidence is one piece of the repository that supports a verdict.
type Evidence struct {
	// ID is unique within a verdict ("e1", "e2", ...); the engine assigns
	// it when empty.
	ID string
	// Path is slash-separated and relative to the repository root.
	Path string
	// StartLine and EndLine are 1-based and inclusive; they exist at head.
	StartLine, EndLine int
	Source             Source
	// Snippet is the text of the lines, trimmed to a readable length.
	Snippet string
	// Why says how the evidence was reached: "defines Cache.Purge",
	// "callee of Purge", "BM25: deferred removal".
	Why string
	// Hops is the chain from the claim's subject to this evidence.
	Hops []string
	// Score is the retrieval score when the evidence came from a search;
	// zero otherwise.
	Score float64
}

// Verdict is the judgement of one claim.
type Verdict struct {
	Claim Claim
	Label Label
	// Rule names what decided the label: a rule name, "llm", or for
	// consistent claims the rules that checked it, comma-separated.
	Rule    string
	Message string
	// Suggestion is replacement documentation text, set only when the fix
	// is certain.
	Suggestion string
	// Confidence is in [0, 1].
	Confidence float64
	// Evidence is non-empty whenever Label is not Consistent.
	Evidence []Evidence
	// Skipped, when non-empty, says why the claim could not be fully judged.
	Skipped string
	// Unverified lists the names the claim mentions that the review could
	// not check: declared in a package it could not load, or words that
	// may be prose (see [Unverifier]). A consistent label does not vouch
	// for them.
	Unverified []string
}

// Stats counts a report's claims.
type Stats struct {
	Claims       int
	Consistent   int
	Contradicted int
	Incomplete   int
	Skipped      int
	// Timings in milliseconds, by stage ("load", "extract", "judge",
	// "model").
	Timings map[string]int64
	// Model holds the model judge's costs and outcomes; nil when no model
	// was configured.
	Model *ModelStats
	// Coverage is the documentation coverage of the symbols the diff
	// touched, before and after; nil without a scorer or a base.
	Coverage *CoverageChange
}

// Report is the result of a review.
type Report struct {
	// Base and Head are the commit SHAs reviewed; Head is "worktree" when
	// uncommitted changes were included.
	Base, Head string
	// Verdicts are sorted by path, then line, then symbol.
	Verdicts []Verdict
	Stats    Stats
	// Notes are file-level remarks that are not claims: files skipped as
	// binary or too large, files that do not parse.
	Notes []Note
}

// Note is a remark about a file that the review could not fully cover.
type Note struct {
	Path    string
	Message string
}
