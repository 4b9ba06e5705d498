package rules

import (
	"context"
	"fmt"

	"github.com/docreview/docreview/retrieval"
	"github.com/docreview/docreview/review"
	"github.com/docreview/docreview/review/diff"
	"github.com/docreview/docreview/review/extract"
)

// hunkEvidence points at the new-side lines of the hunk in which ref
// changed: for a removed symbol (ref at base) the hunk that deleted it, for
// a renamed one (ref at head) the added lines that declare the new name. It
// fails when the file no longer exists at head or no hunk covers the line.
func hunkEvidence(files []diff.File, ref extract.SymbolRef, atBase bool) (review.Evidence, bool) {
	for _, f := range files {
		if f.Status == diff.Deleted || f.NewPath == "" {
			continue
		}
		if atBase && f.OldPath != ref.Path || !atBase && f.NewPath != ref.Path {
			continue
		}
		if !atBase {
			for _, a := range f.Added {
				if ref.Line >= a.Start && ref.Line <= a.End {
					return review.Evidence{Path: f.NewPath, StartLine: a.Start, EndLine: a.End, Source: review.SourceDiff}, true
				}
			}
		}
		for _, h := range f.Hunks {
			start, lines := h.NewStart, h.NewLines
			if atBase {
				start, lines = h.OldStart, h.OldLines
			}
			if ref.Line < start || ref.Line >= start+max(lines, 1) {
				continue
			}
			from, to := h.NewStart, h.NewStart+h.NewLines-1
			if h.NewLines == 0 {
				from, to = max(h.NewStart, 1), max(h.NewStart, 1)
			}
			return review.Evidence{Path: f.NewPath, StartLine: from, EndLine: to, Source: review.SourceDiff}, true
		}
	}
	return review.Evidence{}, false
}

// usageEvidence finds a test or example that uses sym: from the symbol
// graph first, else the best lexical hit among tests and examples that
// contains the name.
func usageEvidence(ctx context.Context, ws *review.Workspace, sym retrieval.Symbol, name string) (review.Evidence, bool) {
	for _, u := range []struct {
		refs   []retrieval.Ref
		source review.Source
		what   string
	}{
		{ws.Symbols.Tests(sym), review.SourceTest, "test"},
		{ws.Symbols.Examples(sym), review.SourceExample, "example"},
	} {
		for _, ref := range u.refs {
			start, end := lineRange(ref.Line, ref.EndLine)
			if ref.Path == "" || start < 1 {
				continue
			}
			why := ref.Why
			if why == "" {
				why = fmt.Sprintf("%s that uses %s", u.what, name)
			}
			return review.Evidence{
				Path: ref.Path, StartLine: start, EndLine: end, Source: u.source, Why: why,
				Hops: []string{name, ref.Symbol.Name},
			}, true
		}
	}
	if ws.Index == nil {
		return review.Evidence{}, false
	}
	word := lastPart(name)
	hits, err := ws.Index.Search(ctx, retrieval.Query{
		Text: word, TopK: 5,
		Sources: []retrieval.Source{retrieval.Source(review.SourceTest), retrieval.Source(review.SourceExample)},
	})
	if err != nil {
		return review.Evidence{}, false
	}
	for _, h := range hits {
		if countWord(h.Chunk.Text, word) == 0 || h.Chunk.StartLine < 1 {
			continue
		}
		what := "test"
		if h.Chunk.Source == retrieval.Source(review.SourceExample) {
			what = "example"
		}
		start, end := lineRange(h.Chunk.StartLine, h.Chunk.EndLine)
		return review.Evidence{
			Path: h.Chunk.Path, StartLine: start, EndLine: end, Source: review.Source(h.Chunk.Source),
			Why: fmt.Sprintf("BM25: %s that uses %s", what, name), Score: h.Score,
			Hops: []string{name, h.Chunk.Path},
		}, true
	}
	return review.Evidence{}, false
}
