package rules

// gap is a stretch of two aligned sequences that the alignment leaves
// unmatched, between two matches or a match and an end: a[i0:i1] against
// b[j0:j1]. One side may be empty.
type gap struct{ i0, i1, j0, j1 int }

// unmatched aligns sequences a and b of lengths n and m by a longest
// common subsequence, same(i, j) telling whether a[i] and b[j] match, and
// returns the gaps between the matches, in order. The caller bounds n*m.
func unmatched(n, m int, same func(i, j int) bool) []gap {
	// lcs[i][j] is the LCS length of a[i:] and b[j:].
	lcs := make([][]int32, n+1)
	for i := range lcs {
		lcs[i] = make([]int32, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			switch {
			case same(i, j):
				lcs[i][j] = lcs[i+1][j+1] + 1
			case lcs[i+1][j] >= lcs[i][j+1]:
				lcs[i][j] = lcs[i+1][j]
			default:
				lcs[i][j] = lcs[i][j+1]
			}
		}
	}
	var out []gap
	i, j := 0, 0
	gi, gj := 0, 0 // where the current gap starts
	for i < n && j < m {
		switch {
		case same(i, j):
			if gi < i || gj < j {
				out = append(out, gap{gi, i, gj, j})
			}
			i, j = i+1, j+1
			gi, gj = i, j
		case lcs[i+1][j] >= lcs[i][j+1]:
			i++
		default:
			j++
		}
	}
	if gi < n || gj < m {
		out = append(out, gap{gi, n, gj, m})
	}
	return out
}
