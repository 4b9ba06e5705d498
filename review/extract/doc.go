// Package extract finds the documentation claims a review judges: Go doc
// comments (package, funcs, methods, types, fields, consts, vars, Example
// functions) and Markdown blocks (paragraphs, list items, table rows, code
// blocks), each with the identifiers, literals, paths, flags and code it
// mentions, and selects those a diff changes or affects.
//
// Usage:
//
//	x := &extract.Extractor{Logger: logger}
//	claims, notes, err := x.Extract(ctx, ws, review.ScopeAffected)
//
// [GoClaims], [MarkdownClaims] and [Mentions] work on single files and
// texts; the Extractor is also the review's [review.DocReader], through
// which rules read the claims of other files and versions. The Go
// declarations a diff changes come from [review.Workspace.Changes], and
// prose (sentences, literals, units, name words) is read with package
// prose.
package extract
