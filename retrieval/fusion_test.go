package retrieval

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

func TestFuse(t *testing.T) {
	hit := func(id, why string, hops ...string) channelHit {
		return channelHit{chunk: Chunk{ID: id}, why: why, hops: hops}
	}
	rrf := func(ranks ...int) float64 {
		var s float64
		for _, r := range ranks {
			s += 1 / float64(60+r)
		}
		return s
	}
	type view struct {
		ID    string
		Score float64
		Ranks map[Channel]int
		Why   string
		Hops  []string
	}
	tests := []struct {
		name  string
		lists []rankedList
		topK  int
		want  []view
	}{
		{
			name: "agreement beats a single first place",
			lists: []rankedList{
				{ChannelLexical, []channelHit{hit("a", "BM25: a"), hit("b", "BM25: b")}},
				{ChannelStructural, []channelHit{hit("c", "defines C", "C"), hit("b", "callee of C", "C", "B")}},
			},
			topK: 10,
			want: []view{
				{"b", rrf(2, 2), map[Channel]int{ChannelLexical: 2, ChannelStructural: 2}, "callee of C", []string{"C", "B"}},
				{"a", rrf(1), map[Channel]int{ChannelLexical: 1}, "BM25: a", nil},
				{"c", rrf(1), map[Channel]int{ChannelStructural: 1}, "defines C", []string{"C"}},
			},
		},
		{
			name: "why from the best rank, structural wins ties",
			lists: []rankedList{
				{ChannelDense, []channelHit{hit("x", "embedding similarity 0.90"), hit("y", "embedding similarity 0.80")}},
				{ChannelLexical, []channelHit{hit("y", "BM25: y"), hit("x", "BM25: x")}},
				{ChannelStructural, []channelHit{hit("z", "defines Z", "Z"), hit("x", "test that calls Z", "Z", "TestZ")}},
			},
			topK: 10,
			want: []view{
				{"x", rrf(1, 2, 2), map[Channel]int{ChannelDense: 1, ChannelLexical: 2, ChannelStructural: 2}, "embedding similarity 0.90", nil},
				{"y", rrf(2, 1), map[Channel]int{ChannelDense: 2, ChannelLexical: 1}, "BM25: y", nil},
				{"z", rrf(1), map[Channel]int{ChannelStructural: 1}, "defines Z", []string{"Z"}},
			},
		},
		{
			name: "equal ranks: structural, then lexical, then dense",
			lists: []rankedList{
				{ChannelDense, []channelHit{hit("a", "embedding similarity 0.50")}},
				{ChannelLexical, []channelHit{hit("a", "BM25: a")}},
				{ChannelStructural, []channelHit{hit("a", "defines A", "A")}},
			},
			topK: 10,
			want: []view{{"a", rrf(1, 1, 1), map[Channel]int{ChannelDense: 1, ChannelLexical: 1, ChannelStructural: 1}, "defines A", []string{"A"}}},
		},
		{
			name: "repeats within a list count once and do not take a rank",
			lists: []rankedList{
				{ChannelStructural, []channelHit{hit("a", "defines A", "A"), hit("a", "test of A", "A", "T"), hit("b", "callee of A", "A", "B")}},
			},
			topK: 10,
			want: []view{
				{"a", rrf(1), map[Channel]int{ChannelStructural: 1}, "defines A", []string{"A"}},
				{"b", rrf(2), map[Channel]int{ChannelStructural: 2}, "callee of A", []string{"A", "B"}},
			},
		},
		{
			name: "equal scores by chunk ID; cut at topK",
			lists: []rankedList{
				{ChannelLexical, []channelHit{hit("m", "BM25: m"), hit("q", "BM25: q")}},
				{ChannelStructural, []channelHit{hit("k", "defines K", "K"), hit("p", "callee of K", "K", "P")}},
			},
			topK: 3,
			want: []view{
				{"k", rrf(1), map[Channel]int{ChannelStructural: 1}, "defines K", []string{"K"}},
				{"m", rrf(1), map[Channel]int{ChannelLexical: 1}, "BM25: m", nil},
				{"p", rrf(2), map[Channel]int{ChannelStructural: 2}, "callee of K", []string{"K", "P"}},
			},
		},
		{name: "no lists", lists: nil, topK: 10, want: []view{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := []view{}
			for _, r := range fuse(tt.lists, tt.topK) {
				got = append(got, view{r.Chunk.ID, r.Score, r.Ranks, r.Why, r.Hops})
				if len(r.Reasons) != len(r.Ranks) {
					t.Errorf("%s: %d reasons for %d ranks", r.Chunk.ID, len(r.Reasons), len(r.Ranks))
				}
			}
			if d := cmp.Diff(tt.want, got, cmpopts.EquateApprox(0, 1e-12)); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
		})
	}
}
