package retrieval

import (
	"context"
	"fmt"
	"slices"
	"sync"
)

// indexMaxQueryWords caps the words of the text field a query searches. A
// behaviour phrase ("returns an error when the buffer is full") has many
// common words whose postings cover much of a code corpus; BM25 gives them
// little weight anyway, so searching only the rarest ones keeps the ranking
// while sparing most of the work.
const indexMaxQueryWords = 5

// indexDocFreqs caches the document frequency of text-field terms. The
// index is read-only once built, so entries never go stale.
type indexDocFreqs struct {
	mu sync.Mutex
	m  map[string]uint64
}

// rarestWords returns at most indexMaxQueryWords of words: those with the
// lowest document frequency in the text field, in their original order.
// Words absent from the index are dropped when others remain: they cannot
// match.
func (ix *Index) rarestWords(ctx context.Context, words []string) ([]string, error) {
	if len(words) <= indexMaxQueryWords {
		return words, nil
	}
	type wf struct {
		w  string
		i  int
		df uint64
	}
	freqs := make([]wf, 0, len(words))
	for i, w := range words {
		df, err := ix.docFreq(ctx, w)
		if err != nil {
			return nil, err
		}
		if df > 0 {
			freqs = append(freqs, wf{w, i, df})
		}
	}
	if len(freqs) == 0 {
		return words[:indexMaxQueryWords], nil
	}
	slices.SortStableFunc(freqs, func(a, b wf) int {
		switch {
		case a.df < b.df:
			return -1
		case a.df > b.df:
			return 1
		}
		return 0
	})
	freqs = freqs[:min(len(freqs), indexMaxQueryWords)]
	slices.SortFunc(freqs, func(a, b wf) int { return a.i - b.i })
	out := make([]string, len(freqs))
	for i, f := range freqs {
		out[i] = f.w
	}
	return out, nil
}

// docFreq returns how many chunks hold term in the text field.
func (ix *Index) docFreq(ctx context.Context, term string) (uint64, error) {
	ix.dfs.mu.Lock()
	df, ok := ix.dfs.m[term]
	ix.dfs.mu.Unlock()
	if ok {
		return df, nil
	}
	adv, err := ix.bix.Advanced()
	if err != nil {
		return 0, fmt.Errorf("document frequency of %q: %w", term, err)
	}
	r, err := adv.Reader()
	if err != nil {
		return 0, fmt.Errorf("document frequency of %q: %w", term, err)
	}
	defer r.Close()
	tfr, err := r.TermFieldReader(ctx, []byte(term), indexFieldText, false, false, false)
	if err != nil {
		return 0, fmt.Errorf("document frequency of %q: %w", term, err)
	}
	df = tfr.Count()
	tfr.Close()
	ix.dfs.mu.Lock()
	if ix.dfs.m == nil {
		ix.dfs.m = map[string]uint64{}
	}
	ix.dfs.m[term] = df
	ix.dfs.mu.Unlock()
	return df, nil
}
