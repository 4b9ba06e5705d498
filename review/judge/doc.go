// Package judge is docreview's language-model judge: for each claim the
// rules left unsettled (and, to confirm, each rule finding) it runs a
// conversation with an OpenAI-compatible chat completions endpoint in
// which the model queries the evidence layer through three read-only
// tools (search, read, symbol) and ends with a structured verdict.
//
// What the model says is a candidate, never a result: a contradicted or
// incomplete verdict is kept only when every citation names lines that
// exist at head, that a tool returned (or that were shown to the model) in
// that claim's conversation, and whose quoted text matches them, and when
// it carries a concrete correction. Everything else is dropped with a
// counted reason. Repository text is data in the prompts, delimited by
// <repository-data> tags; the tools cannot write, run code or reach the
// network.
//
// Usage:
//
//	j, err := judge.New(judge.Options{Model: "gpt-4.1-mini", APIKey: key})
//	if err != nil { ... }
//	engine := review.Engine{Extractor: &extract.Extractor{}, Rules: rules, Model: j}
//
// Costs are bounded per claim (tool calls, input tokens), per review (a
// token budget) and per call (a timeout, retries with backoff), and
// verdicts are cached on disk, keyed by the claim and checked against the
// hashes of every range the model saw, so a new push re-judges only what
// changed.
package judge
