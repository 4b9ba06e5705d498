// Package mdtext renders text docreview did not write (documentation
// lines, code, model output, user replies, file paths) into Markdown that
// shows it as written: one escaping for every Markdown docreview emits,
// the report's and the pull request comments, summaries and check runs
// on GitHub.
//
// Every function first applies [Clean], so control characters, invalid
// UTF-8 and Unicode bidirectional controls are shown as escapes and cannot
// reorder what a reviewer reads.
package mdtext

import (
	"fmt"
	"net/url"
	"path"
	"strings"
	"unicode/utf8"
)

// Clean makes text safe to show: CRLF becomes LF, and control characters
// other than tab and newline, C1 controls, invalid UTF-8 and the Unicode
// bidirectional controls (U+202A-U+202E, U+2066-U+2069, U+200E, U+200F,
// U+061C) are written as escapes (\x1b, \u202e). Clean is idempotent.
func Clean(s string) string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	if !needsClean(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == '\t' || r == '\n':
			b.WriteRune(r)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		case isHidden(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
		i += size
	}
	return b.String()
}

// Unsafe reports whether Clean would change s (apart from CRLF): a
// suggestion with such a character cannot be shown as it would be applied.
func Unsafe(s string) bool {
	return needsClean(strings.ReplaceAll(s, "\r\n", "\n"))
}

func needsClean(s string) bool {
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			return true
		case r == '\t' || r == '\n':
		case r < 0x20 || r == 0x7f || isHidden(r):
			return true
		}
		i += size
	}
	return false
}

// isHidden reports C1 controls and bidirectional formatting characters.
func isHidden(r rune) bool {
	return r >= 0x80 && r <= 0x9f ||
		r >= 0x202a && r <= 0x202e ||
		r >= 0x2066 && r <= 0x2069 ||
		r == 0x200e || r == 0x200f || r == 0x061c
}

// OneLine collapses every whitespace run of s, newlines included, to one
// space.
func OneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// Code renders s on one line as an inline code span, delimited by more
// backticks than any run inside it; "" for blank s.
func Code(s string) string {
	s = OneLine(Clean(s))
	if s == "" {
		return ""
	}
	delim := strings.Repeat("`", longestRun(s, '`')+1)
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		s = " " + s + " "
	}
	return delim + s + delim
}

// Text renders s as inline Markdown on one line that reads as plain text.
// Balanced code spans of s are kept; outside them, characters that would
// start HTML, emphasis, links, images, strikethrough, table cells or block
// syntax (a heading, a list item, a numbered item) are escaped, and "@" is
// followed by a zero-width space so that names are not turned into
// mentions.
func Text(s string) string {
	s = OneLine(Clean(s))
	var b strings.Builder
	for i := 0; i < len(s); {
		if s[i] == '`' {
			n := runAt(s, i, '`')
			if end := closingRun(s, i+n, n); end >= 0 {
				b.WriteString(s[i : end+n])
				i = end + n
				continue
			}
			b.WriteString(strings.Repeat("\\`", n))
			i += n
			continue
		}
		switch c := s[i]; c {
		case '<':
			b.WriteString("&lt;")
		case '>':
			b.WriteString("&gt;")
		case '&':
			b.WriteString("&amp;")
		case '@':
			b.WriteString("@&#8203;")
		case '\\', '*', '_', '[', ']', '~', '|', '!':
			b.WriteByte('\\')
			b.WriteByte(c)
		case '#', '-', '+', '=':
			if i == 0 {
				b.WriteByte('\\')
			}
			b.WriteByte(c)
		case '.', ')':
			if i > 0 && isDigits(s[:i]) {
				b.WriteByte('\\')
			}
			b.WriteByte(c)
		default:
			b.WriteByte(c)
		}
		i++
	}
	return b.String()
}

// Fence renders lines (each cleaned) as a fenced code block with the info
// string info, every line prefixed by indent, and a fence of backticks
// longer than any backtick run in the lines. The result has no trailing
// newline.
func Fence(indent, info string, lines []string) string {
	n := 2
	clean := make([]string, len(lines))
	for i, l := range lines {
		clean[i] = Clean(l)
		n = max(n, longestRun(clean[i], '`'))
	}
	fence := strings.Repeat("`", n+1)
	var b strings.Builder
	b.WriteString(indent + fence + OneLine(Clean(info)) + "\n")
	for _, l := range clean {
		if l != "" {
			b.WriteString(indent + l)
		}
		b.WriteByte('\n')
	}
	b.WriteString(indent + fence)
	return b.String()
}

// EscapePath percent-escapes each segment of a slash-separated path for a
// link destination.
func EscapePath(p string) string {
	segs := strings.Split(p, "/")
	for i, s := range segs {
		segs[i] = EscapeSegment(s)
	}
	return strings.Join(segs, "/")
}

// EscapeSegment percent-escapes one path segment, parentheses included so
// the URL cannot end a Markdown link early.
func EscapeSegment(s string) string {
	return strings.NewReplacer("(", "%28", ")", "%29").Replace(url.PathEscape(s))
}

// Lang is the code block language for a file's lines, "" when unknown.
func Lang(p string) string {
	switch path.Ext(p) {
	case ".go":
		return "go"
	case ".md", ".markdown":
		return "markdown"
	case ".sh", ".bash":
		return "sh"
	case ".yml", ".yaml":
		return "yaml"
	case ".json":
		return "json"
	case ".toml":
		return "toml"
	case ".py":
		return "python"
	case ".js":
		return "js"
	case ".ts":
		return "ts"
	}
	return ""
}

// runAt is the length of the run of c starting at s[i].
func runAt(s string, i int, c byte) int {
	n := 0
	for i+n < len(s) && s[i+n] == c {
		n++
	}
	return n
}

// closingRun returns the index of the first run of exactly n backticks at
// or after from, or -1.
func closingRun(s string, from, n int) int {
	for i := from; i < len(s); {
		if s[i] != '`' {
			i++
			continue
		}
		k := runAt(s, i, '`')
		if k == n {
			return i
		}
		i += k
	}
	return -1
}

// longestRun is the length of the longest run of c in s.
func longestRun(s string, c byte) int {
	best := 0
	for i := 0; i < len(s); {
		if s[i] != c {
			i++
			continue
		}
		k := runAt(s, i, c)
		best = max(best, k)
		i += k
	}
	return best
}

func isDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}
