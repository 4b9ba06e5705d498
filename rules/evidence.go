package rules

import (
	"context"
	"fmt"

	"github.com/docreview/docreview/retrieval"
	"github.com/docreview/docreview/review"
	"github.com/docreview/docreview/review/diff"
)

// hunkEvidence points at the new-side lines of the hunk in which ref
// changed: for a removed symbol (ref at base) the hunk that deleted it, for
// a renamed one (ref at head) the added lines that declare the new name. It
// fails when the file no longer exists at head or no hunk covers the line.
func hunkEvidence(files []diff.File, ref review.SymbolRef, atBase bool) (review.Evidence, bool) {
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

// usageEvidence finds a test or example that uses sym, written name in
// the claim. With a retriever, it is the best fused hit among tests and
// examples for the subject sym: the structural channel contributes the
// tests and examples the symbol graph links to sym, the lexical one those
// that mention its last name part, and a hit both agree on ranks first. A
// hit only the lexical channel found must contain the name as a word.
// Without a retriever, or when it finds nothing, it is the first test, then
// example, of the symbol graph.
func usageEvidence(ctx context.Context, ws *review.Workspace, sym retrieval.Symbol, name string) (review.Evidence, bool) {
	if ws.Retriever != nil {
		if ev, ok := fusedUsage(ctx, ws.Retriever, sym, name); ok {
			return ev, true
		}
	}
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
	return review.Evidence{}, false
}

// fusedUsage asks the retriever for the tests and examples of sym. The
// evidence keeps the structural channel's account when it reached the hit
// ("test that calls Store.Hold"), which says more than the terms matched.
func fusedUsage(ctx context.Context, r *retrieval.Retriever, sym retrieval.Symbol, name string) (review.Evidence, bool) {
	word := lastPart(name)
	q := retrieval.Request{
		Text: word, TopK: 5,
		Sources: []retrieval.Source{retrieval.Source(review.SourceTest), retrieval.Source(review.SourceExample)},
	}
	// Only a repository symbol (standard library packages have no Dir) is
	// a subject: resolved anywhere, its bare name could mean another one.
	if sym.Package != nil && sym.Package.Dir != "" {
		q.Symbol, q.FromDir = sym.Name, sym.Package.Dir
	}
	results, err := r.Search(ctx, q)
	if err != nil {
		return review.Evidence{}, false
	}
	best := -1
	for i, res := range results {
		_, isStructural := res.Reasons[retrieval.ChannelStructural]
		if res.Chunk.StartLine < 1 || !isStructural && countWord(res.Chunk.Text, word) == 0 {
			continue
		}
		// Of equally scored hits, the symbol graph's order decides (tests
		// before examples), not the chunk IDs.
		if best < 0 || res.Score == results[best].Score && structuralBefore(res, results[best]) {
			best = i
		}
	}
	if best < 0 {
		return review.Evidence{}, false
	}
	res := results[best]
	c := res.Chunk
	start, end := lineRange(c.StartLine, c.EndLine)
	ev := review.Evidence{
		Path: c.Path, StartLine: start, EndLine: end, Source: review.Source(c.Source), Score: res.Score,
	}
	if structural, ok := res.Reasons[retrieval.ChannelStructural]; ok {
		ev.Why = structural.Why
		ev.Hops = []string{name, c.Symbol}
		if n := len(structural.Hops); n > 0 {
			ev.Hops[1] = structural.Hops[n-1]
		}
		return ev, true
	}
	what := "test"
	if c.Source == retrieval.SourceExample {
		what = "example"
	}
	ev.Why = fmt.Sprintf("BM25: %s that uses %s", what, name)
	ev.Hops = []string{name, c.Path}
	return ev, true
}

// structuralBefore reports whether the structural channel ranks a above b;
// a hit it did not return comes after one it did.
func structuralBefore(a, b retrieval.Result) bool {
	ra, rb := a.Ranks[retrieval.ChannelStructural], b.Ranks[retrieval.ChannelStructural]
	return ra > 0 && (rb == 0 || ra < rb)
}

// docHunk points at the first block of lines the diff added inside claim
// c, for a finding about what the diff wrote there.
func docHunk(ws *review.Workspace, c review.Claim) (review.Evidence, bool) {
	for l := c.Line; l <= c.EndLine; l++ {
		if ev, ok := hunkEvidence(ws.Diff, review.SymbolRef{Path: c.Path, Line: l}, false); ok {
			return ev, true
		}
	}
	return review.Evidence{}, false
}
