// Package report renders a [review.Report] for people and tools: plain or
// coloured text for a terminal, JSON in the versioned output contract
// (docs/report.schema.json), Markdown for pull-request comments, SARIF
// 2.1.0 for code scanning, and reviewdog's rdjson.
//
// Usage:
//
//	f, err := report.ParseFormat("markdown")
//	if err != nil {
//		return err
//	}
//	err = report.Render(os.Stdout, rep, f, report.Options{RepoURL: "https://github.com/o/r"})
//
// Every renderer orders claims by path, line, symbol and ID itself, so the
// same report always renders to the same bytes. [DecodeJSON] reads the JSON
// output back into a [review.Report].
package report
