package prose

import (
	"regexp"
	"strings"
)

// DocLink is a Go doc link of a text: "[Name]", "[pkg.Name]",
// "[Type.Method]", "[*Type]", "[import/path.Name]".
type DocLink struct {
	// Span covers the link with its brackets.
	Span Span
	// Name is what the link names, without brackets or a leading "*".
	Name string
}

// docLinkTargetRE matches what a Go doc link may hold between its
// brackets.
var docLinkTargetRE = regexp.MustCompile(`^\*?((?:[A-Za-z0-9_.-]+(?:/[A-Za-z0-9_.-]+)+\.)?[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*){0,2})$`)

// DocLinks returns the Go doc links of text, left to right. A bracket
// followed by "(", "[", ":" or a word character is Markdown link syntax,
// one preceded by "]", "!", "\" or a word character is no link, and a
// link spans one line. "[x]" and "[X]" are task list boxes, not links.
func DocLinks(text string) []DocLink {
	var out []DocLink
	for i := 0; i < len(text); i++ {
		if text[i] != '[' {
			continue
		}
		if i > 0 && (text[i-1] == ']' || text[i-1] == '!' || isWordByte(text[i-1]) || text[i-1] == '\\') {
			continue
		}
		j := strings.IndexAny(text[i+1:], "[]\n")
		if j < 0 {
			break
		}
		j += i + 1
		if text[j] != ']' {
			continue
		}
		if j+1 < len(text) && (strings.IndexByte("([:", text[j+1]) >= 0 || isWordByte(text[j+1])) {
			continue
		}
		m := docLinkTargetRE.FindStringSubmatch(text[i+1 : j])
		if m == nil || m[1] == "x" || m[1] == "X" {
			continue
		}
		out = append(out, DocLink{Span: Span{i, j + 1}, Name: m[1]})
		i = j
	}
	return out
}
