package rules

import (
	"regexp"
	"strconv"
	"strings"
)

// This file finds the code of a Go block that shows what no longer
// compiles on purpose: the "before" half of a migration example
// ("// Before", "**Before**:", "#### Before (v2 usage)") or code marked
// wrong ("// Bad", "// Don't"). go-snippet reports nothing there.

var (
	// oldMarkRE matches a comment or a short label that starts code the
	// doc shows as old or wrong; its group is a version ("v2").
	oldMarkRE = regexp.MustCompile(`(?i)^(?:before|old(?:\s+(?:way|api|code|style|usage))?|previously|legacy|deprecated|wrong|bad|incorrect|don'?t|do\s+not|avoid|v(\d+)(?:\.x)?(?:\s+usage)?)\b|^[❌✗✘]`)
	// newMarkRE matches a comment or label that starts code the doc shows
	// as current; its group is a version ("v3").
	newMarkRE = regexp.MustCompile(`(?i)^(?:after|now|new(?:\s+(?:way|api|code|style|usage))?|instead|correct|good|do\b|recommended|becomes|should\s+become|should\s+(?:now\s+)?look\s+like|change\s+(?:it|this)\s+to|should\s+be\s+(?:changed|replaced)\s+(?:to|with|by)|v(\d+)(?:\.x)?(?:\s+usage)?)\b|^[✅✓✔]`)
	// labelTrimRE strips what dresses a label: heading marks, emphasis,
	// list bullets, HTML tags and a trailing colon.
	labelTrimRE = regexp.MustCompile(`(?i)^(?:#+\s*|[-*+]\s+|<summary>\s*|\*\*|__)+|(?:\*\*|__|</summary>|:)+\s*$`)
)

// markOf reads a label or a comment's text as a mark: old (1), new (-1)
// or neither (0). A version mark is old below major and new from it; with
// no major known, it is neither.
func markOf(text string, major int) int {
	t := strings.TrimSpace(labelTrimRE.ReplaceAllString(strings.TrimSpace(text), ""))
	t = strings.TrimSpace(labelTrimRE.ReplaceAllString(t, ""))
	version := func(m []string) int {
		if len(m) < 2 || m[1] == "" {
			return 0
		}
		n, err := strconv.Atoi(m[1])
		if err != nil || major == 0 {
			return 0
		}
		if n < major {
			return 1
		}
		return -1
	}
	if m := oldMarkRE.FindStringSubmatch(t); m != nil {
		if m[1] != "" {
			return version(m)
		}
		return 1
	}
	if m := newMarkRE.FindStringSubmatch(t); m != nil {
		if m[1] != "" {
			return version(m)
		}
		return -1
	}
	return 0
}

// oldCode returns the lines of the file (1-based) of a block that show
// old or wrong code: all of them when the prose line right before the
// block labels it so ("**Before**:"), else the lines from a comment line
// that marks old code ("// Before") to the next that marks new code ("//
// After"). lines are the file's, block the block's first and last code
// lines; major is the module's major version (0 when unknown).
func oldCode(lines []string, first, last, major int) map[int]bool {
	old := map[int]bool{}
	// The label before the fence: the nearest non-empty line above it.
	for k := first - 2; k >= 0 && k >= first-6; k-- {
		t := strings.TrimSpace(lines[k])
		if t == "" || strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") || t == "<details>" {
			continue
		}
		if len(t) <= 48 && markOf(t, major) == 1 {
			for l := first; l <= last; l++ {
				old[l] = true
			}
			return old
		}
		break
	}
	// The label between this block and the next, when it marks the next
	// as new ("Should be changed to:"), makes this one, unless marked new
	// itself, the old half of the pair (leaves' NOTES.md, a load call
	// before its new argument).
	for k := last + 1; k < len(lines) && k <= last+6; k++ {
		t := strings.TrimSpace(lines[k])
		if t == "" {
			continue
		}
		if len(t) <= 48 && markOf(t, major) == -1 && fenceFollows(lines, k+1) && !newCode(lines, first, last, major) {
			for l := first; l <= last; l++ {
				old[l] = true
			}
			return old
		}
		break
	}
	in := false
	for l := first; l <= last && l-1 < len(lines); l++ {
		t := strings.TrimSpace(lines[l-1])
		if c, ok := strings.CutPrefix(t, "//"); ok && len(strings.Fields(c)) <= 8 {
			switch markOf(c, major) {
			case 1:
				in = true
			case -1:
				in = false
			}
		}
		if in {
			old[l] = true
		}
	}
	return old
}

// newCode reports whether a block is marked as the current code: the
// prose line right before it labels it so ("**After**:", "v2 usage"), or
// one of its first comment lines does ("// v2" in a /v2 module, "// New
// way"). lines, first, last and major are as for [oldCode].
func newCode(lines []string, first, last, major int) bool {
	for k := first - 2; k >= 0 && k >= first-6; k-- {
		t := strings.TrimSpace(lines[k])
		if t == "" || strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") || t == "<details>" {
			continue
		}
		if len(t) <= 48 && markOf(t, major) == -1 {
			return true
		}
		break
	}
	seen := 0
	for l := first; l <= last && l-1 < len(lines) && seen < 3; l++ {
		t := strings.TrimSpace(lines[l-1])
		if t == "" {
			continue
		}
		seen++
		if c, ok := strings.CutPrefix(t, "//"); ok && len(strings.Fields(c)) <= 8 && markOf(c, major) == -1 {
			return true
		}
	}
	return false
}

// moduleMajor returns the major version a module path ends in ("/v3"
// is 3), 1 for a path without one, 0 for none.
func moduleMajor(modulePath string) int {
	if modulePath == "" {
		return 0
	}
	i := strings.LastIndexByte(modulePath, '/')
	if i >= 0 && len(modulePath) > i+2 && modulePath[i+1] == 'v' {
		if n, err := strconv.Atoi(modulePath[i+2:]); err == nil && n >= 2 {
			return n
		}
	}
	return 1
}

// fenceFollows reports whether the first non-empty line from index k on
// opens a code fence.
func fenceFollows(lines []string, k int) bool {
	for ; k < len(lines); k++ {
		if t := strings.TrimSpace(lines[k]); t != "" {
			return strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~")
		}
	}
	return false
}
