package retrieval

import (
	"slices"
	"strings"
)

// rankedList is one channel's hits, best first.
type rankedList struct {
	channel Channel
	hits    []channelHit
}

// channelOrder breaks ties between channels that rank a chunk equally when
// choosing its Why: the structural account names the relation to the
// subject, the lexical one the terms matched. Unknown channels come last.
func channelOrder(c Channel) int {
	switch c {
	case ChannelStructural:
		return 0
	case ChannelLexical:
		return 1
	case ChannelDense:
		return 2
	}
	return 3
}

// fuse merges the lists by chunk ID with reciprocal rank fusion: a chunk's
// score is the sum over the lists holding it of 1/(60+rank), its rank in a
// list being 1-based and counting only the first occurrence of each chunk.
// It returns the topK best results by score descending, then chunk ID.
// Why and Hops come from the list that ranks the chunk best (ties go by
// channelOrder, then name).
func fuse(lists []rankedList, topK int) []Result {
	byID := map[string]*Result{}
	var order []*Result
	best := map[string]Channel{}
	for _, l := range lists {
		rank := 0
		for _, h := range l.hits {
			id := h.chunk.ID
			res := byID[id]
			if res == nil {
				res = &Result{Chunk: h.chunk, Ranks: map[Channel]int{}, Reasons: map[Channel]Reason{}}
				byID[id] = res
				order = append(order, res)
			}
			if _, dup := res.Ranks[l.channel]; dup {
				continue
			}
			rank++
			res.Ranks[l.channel] = rank
			res.Reasons[l.channel] = Reason{Why: h.why, Hops: h.hops}
			if b, ok := best[id]; !ok || fuseBetter(l.channel, rank, b, res.Ranks[b]) {
				best[id] = l.channel
			}
		}
	}
	out := make([]Result, 0, len(order))
	for _, res := range order {
		// Sum in a fixed channel order so that equal rank sets give
		// bit-identical scores.
		chans := make([]Channel, 0, len(res.Ranks))
		for c := range res.Ranks {
			chans = append(chans, c)
		}
		slices.SortFunc(chans, func(a, b Channel) int {
			if d := channelOrder(a) - channelOrder(b); d != 0 {
				return d
			}
			return strings.Compare(string(a), string(b))
		})
		for _, c := range chans {
			res.Score += 1 / float64(retrieverRRFK+res.Ranks[c])
		}
		why := res.Reasons[best[res.Chunk.ID]]
		res.Why, res.Hops = why.Why, why.Hops
		out = append(out, *res)
	}
	slices.SortFunc(out, func(a, b Result) int {
		if a.Score != b.Score {
			if a.Score > b.Score {
				return -1
			}
			return 1
		}
		return strings.Compare(a.Chunk.ID, b.Chunk.ID)
	})
	if len(out) > topK {
		out = out[:topK]
	}
	return out
}

// fuseBetter reports whether rank r in channel c beats rank br in channel
// b for choosing a chunk's Why.
func fuseBetter(c Channel, r int, b Channel, br int) bool {
	if r != br {
		return r < br
	}
	if oc, ob := channelOrder(c), channelOrder(b); oc != ob {
		return oc < ob
	}
	return c < b
}
