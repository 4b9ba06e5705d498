// Package completeness measures how much of a Go symbol's contract its doc
// comment states, fact by fact.
//
// Documentation is worth what it states that the code does not show: the
// errors a function returns, its panics, the defaults it substitutes, the
// constants that bound it, the units of its numbers, whether it blocks,
// spawns goroutines or takes locks. [Analyze] extracts these facts from the
// type-checked code of a [retrieval.Symbols] (go/ast and go/types only,
// nothing is run), each with the lines that prove it; [Stated] decides
// whether a doc comment states a fact by exact identifier or literal; a
// [Symbol]'s coverage is the fraction of its facts its doc states. A fact
// is only a fact when the code decides it: what depends on run-time values
// the analysis cannot see (blocking I/O, errors passed through interfaces)
// is left out rather than guessed.
//
// [NewReport] sums the symbols per package, [Report.WriteTable] prints the
// table of 'docreview completeness', and [Compare] gives the one-line
// change of coverage of the symbols a pull request touched.
package completeness
