package github

import (
	"strconv"
	"strings"
)

// hunk is the head side of one hunk of a file's patch: lines numbered
// start, start+1, ... are the hunk's context and added lines, which are
// the lines a review comment can sit on with side RIGHT.
type hunk struct {
	start int
	lines []string
}

// end is the last head line of h, start-1 when it has none.
func (h hunk) end() int { return h.start + len(h.lines) - 1 }

// parsePatch reads the head side of the hunks of a patch as the pull
// request files API returns it (hunks only, no file header). It never
// fails: text before the first hunk header and malformed headers are
// skipped, and a hunk cut short keeps the lines it has. An empty patch
// (binary file, or a diff too large for the API) has no hunks.
func parsePatch(patch string) []hunk {
	var out []hunk
	var cur *hunk
	oldLeft, newLeft := 0, 0
	for _, l := range strings.Split(patch, "\n") {
		if strings.HasPrefix(l, "@@ ") {
			start, oldN, newN, ok := parseHunkHeader(l)
			if !ok {
				cur = nil
				continue
			}
			out = append(out, hunk{start: start})
			cur = &out[len(out)-1]
			oldLeft, newLeft = oldN, newN
			continue
		}
		if cur == nil || (oldLeft <= 0 && newLeft <= 0) {
			continue
		}
		switch {
		case strings.HasPrefix(l, "+"):
			cur.lines = append(cur.lines, l[1:])
			newLeft--
		case strings.HasPrefix(l, "-"):
			oldLeft--
		case strings.HasPrefix(l, `\`): // "\ No newline at end of file"
		case strings.HasPrefix(l, " ") || l == "":
			cur.lines = append(cur.lines, strings.TrimPrefix(l, " "))
			oldLeft--
			newLeft--
		}
	}
	return out
}

// parseHunkHeader reads "@@ -a[,b] +c[,d] @@ ..." into c, b and d.
func parseHunkHeader(l string) (newStart, oldN, newN int, ok bool) {
	f := strings.Fields(l)
	if len(f) < 4 || f[0] != "@@" || f[3] != "@@" || !strings.HasPrefix(f[1], "-") || !strings.HasPrefix(f[2], "+") {
		return 0, 0, 0, false
	}
	_, oldN, ok1 := parseRange(f[1][1:])
	newStart, newN, ok2 := parseRange(f[2][1:])
	return newStart, oldN, newN, ok1 && ok2
}

// parseRange reads "a,b" or "a" (b = 1).
func parseRange(s string) (int, int, bool) {
	a, b, found := strings.Cut(s, ",")
	start, err := strconv.Atoi(a)
	if err != nil || start < 0 {
		return 0, 0, false
	}
	n := 1
	if found {
		if n, err = strconv.Atoi(b); err != nil || n < 0 {
			return 0, 0, false
		}
	}
	return start, n, true
}

// placement is where an inline comment goes: head lines start..end of one
// hunk, and the text of those lines.
type placement struct {
	start, end int
	lines      []string
	// exact is true when start..end are exactly the claim's lines.
	exact bool
}

// place clamps the claim lines from..to to the hunk they overlap most
// (the first on a tie); ok is false when no hunk overlaps them.
func place(hunks []hunk, from, to int) (placement, bool) {
	to = max(to, from)
	var best placement
	found := false
	for _, h := range hunks {
		s, e := max(from, h.start), min(to, h.end())
		if s > e {
			continue
		}
		if !found || e-s > best.end-best.start {
			best = placement{start: s, end: e, lines: h.lines[s-h.start : e-h.start+1], exact: s == from && e == to}
			found = true
		}
	}
	return best, found
}
