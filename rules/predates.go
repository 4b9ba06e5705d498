package rules

import (
	"github.com/docreview/docreview/review"
	"github.com/docreview/docreview/review/diff"
)

// headChange returns the diff's entry for the file at head path, or false
// when the diff leaves the file unchanged.
func headChange(ws *review.Workspace, path string) (diff.File, bool) {
	for _, f := range ws.Diff {
		if f.Status != diff.Deleted && f.NewPath == path {
			return f, true
		}
	}
	return diff.File{}, false
}

// baseDoc returns the doc comment text that the claim's symbol had at
// base, following the diff's renames. It reports false when the review
// has no base or audits the whole repository ([review.ScopeAll]), when the
// file is new or copied, or is unreadable or does not parse at base, and when the symbol had no doc
// comment there: a gap in the doc can only pre-date the diff when the doc
// did.
func baseDoc(ws *review.Workspace, c review.Claim) (string, bool) {
	if ws.BaseFS == nil || ws.Scope == review.ScopeAll || c.Kind != review.KindDocComment || c.Symbol == "" {
		return "", false
	}
	old := c.Path
	if f, ok := headChange(ws, c.Path); ok {
		if f.Status == diff.Added || f.Status == diff.Copied || f.OldPath == "" {
			return "", false
		}
		old = f.OldPath
	}
	claims, err := baseClaims(ws, old)
	if err != nil {
		return "", false
	}
	for _, bc := range claims {
		if bc.Kind == review.KindDocComment && bc.Symbol == c.Symbol {
			return bc.Text, true
		}
	}
	return "", false
}
