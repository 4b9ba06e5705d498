// Package rules holds docreview's deterministic checks. Each rule is a small
// type implementing [review.Judge]: it looks at one claim, consults the Go
// symbol table, the diff, the changed declarations
// ([review.Workspace.Changes]), the claims of other files and of the base
// ([review.Workspace.Docs]) and the retriever (structural and lexical
// channels fused) of the [review.Workspace], and returns a verdict only
// when the evidence supports a concrete correction. Prose is read with
// package prose, so sentences, units and name words mean what they mean to
// the extractor. Rules never import the extractor: what they need of the
// doc model comes through review.
//
// The rules are cheap, offline and safe to run concurrently on many claims:
//
//   - [StaleReference] (stale-reference) flags identifiers that no longer
//     exist, with the name they were renamed to or the closest existing one.
//   - [Snippet] (snippet) type-checks Go code blocks of Markdown files and
//     Example functions against the module's API (see [gocheck.Check]),
//     checks the flags and
//     subcommands of shell blocks running the module's own commands and
//     the relative links of Markdown, and, opt-in ([Options]), runs
//     Example functions to compare their output.
//   - [RestatesName] (restates-name) flags doc comments that only repeat
//     their symbol's name.
//   - [LiteralMismatch] (literal-mismatch) flags stated defaults, limits and
//     units that the code's constants or fallbacks contradict, and numbers
//     a diff made disagree with the literal of their declaration.
//   - [WrongParameter] (wrong-parameter) flags docs naming a parameter the
//     signature no longer has.
//   - [MissingContract] (missing-contract) flags docs silent on every error,
//     panic and default their function has, and docs a diff stripped of the
//     error or panic sentence their function still warrants.
//   - [DeprecatedUse] (deprecated-use) flags text recommending a deprecated
//     symbol.
//
// Wire them into an engine with [All]:
//
//	engine := &review.Engine{Extractor: x, Rules: rules.All()}
//
// or, to let the snippet rule run Example functions, with
// rules.AllWith(rules.Options{RunExamples: true}).
//
// docs/rules.md describes each rule's trigger, evidence and boundaries.
package rules
