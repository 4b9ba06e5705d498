package diff

import "strings"

// Replacement is one line a hunk replaced by one other line.
type Replacement struct {
	// Old and New are the line's text on each side, without the diff's
	// "-" and "+".
	Old, New string
	// NewLine is the 1-based line of New at head.
	NewLine int
}

// Replacements returns the lines h replaced one for one: a run of deleted
// lines followed by as many added lines pairs them in order. Runs of
// unequal length are rewrites, not line edits, and give nothing.
func (h Hunk) Replacements() []Replacement {
	var out []Replacement
	var dels, adds []string
	next := h.NewStart // the head line of the next added or context line
	flush := func() {
		if len(dels) == len(adds) {
			first := next - len(adds)
			for i := range adds {
				out = append(out, Replacement{Old: dels[i], New: adds[i], NewLine: first + i})
			}
		}
		dels, adds = nil, nil
	}
	lines := strings.Split(h.Text, "\n")
	if len(lines) > 0 && strings.HasPrefix(lines[0], "@@") {
		lines = lines[1:]
	}
	for _, line := range lines {
		switch {
		case strings.HasPrefix(line, "-"):
			if len(adds) > 0 {
				flush()
			}
			dels = append(dels, line[1:])
		case strings.HasPrefix(line, "+"):
			adds = append(adds, line[1:])
			next++
		case strings.HasPrefix(line, `\`): // "\ No newline at end of file"
		case line == "":
			// The text's final newline; blank context lines keep their space.
		default:
			flush()
			next++
		}
	}
	flush()
	return out
}
