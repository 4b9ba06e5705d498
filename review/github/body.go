package github

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/docreview/docreview/review"
	"github.com/docreview/docreview/review/mdtext"
)

// The hidden markers docreview puts in what it writes. A marker is only
// recognised on the first line of a body (the resolved marker on the
// second), so repository text quoted further down cannot forge one.
const (
	fpMarkerPrefix       = "<!-- docreview:fingerprint="
	resolvedMarkerPrefix = "<!-- docreview:resolved="
	movedMarkerPrefix    = "<!-- docreview:moved="
	markerSuffix         = " -->"
	summaryMarker        = "<!-- docreview:summary -->"
	reviewMarker         = "<!-- docreview:review -->"
)

// Fingerprint returns the stable identifier of a finding: the claim's ID, a
// dot, and the rule name lowercased with every run of characters outside
// a-z, 0-9 turned into one "-" ("3f2a9c0d1e4b5a67.stale-reference"). A
// claim without an ID is given [review.Fingerprint] of its path, symbol and
// text. The result never contains "--", so it can sit in an HTML comment.
func Fingerprint(v review.Verdict) string {
	id := v.Claim.ID
	if id == "" {
		id = review.Fingerprint(v.Claim.Path, v.Claim.Symbol, v.Claim.Text)
	}
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(v.Rule) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
			dash = false
		} else if !dash && b.Len() > 0 {
			b.WriteByte('-')
			dash = true
		}
	}
	rule := strings.TrimSuffix(b.String(), "-")
	if rule == "" {
		rule = "unknown"
	}
	return id + "." + rule
}

var fpRE = regexp.MustCompile(`^[0-9A-Za-z][0-9A-Za-z._-]*$`)

// markers are the markers of a review comment.
type markers struct {
	fp string
	// resolved is the head SHA the finding was resolved in, or "".
	resolved string
	// moved is the head SHA in which the outdated comment was found to
	// have its finding on another line, or "".
	moved string
}

// parseMarkers reads the fingerprint marker on the first line of body and
// the resolved or moved marker on the second; ok is false without a
// fingerprint.
func parseMarkers(body string) (markers, bool) {
	lines := strings.SplitN(body, "\n", 3)
	fp, ok := markerValue(lines[0], fpMarkerPrefix)
	if !ok || !fpRE.MatchString(fp) {
		return markers{}, false
	}
	m := markers{fp: fp}
	if len(lines) > 1 {
		if sha, ok := markerValue(lines[1], resolvedMarkerPrefix); ok && sha != "" {
			m.resolved = sha
		} else if sha, ok := markerValue(lines[1], movedMarkerPrefix); ok && sha != "" {
			m.moved = sha
		}
	}
	return m, true
}

func markerValue(line, prefix string) (string, bool) {
	line = strings.TrimSuffix(line, "\r")
	if !strings.HasPrefix(line, prefix) || !strings.HasSuffix(line, markerSuffix) {
		return "", false
	}
	return line[len(prefix) : len(line)-len(markerSuffix)], true
}

// inlineBody is the body of a new inline comment: the fingerprint marker,
// a headline with label, rule and message, a suggestion block when the fix
// replaces exactly the commented lines, and the evidence trail in a
// collapsible section (with the suggested text when it is not offered as a
// suggestion block).
//
// A body over [maxCommentBody] is rebuilt leaner until it fits: first
// without the evidence snippets (the links stay), then with the first
// evidence items only and a count of the rest, which the finding's check
// run annotation lists; the marker, headline,
// suggestion and dismiss line are always kept.
func inlineBody(opt Options, f finding) string {
	var body string
	for _, l := range []trailLimit{{snippets: true}, {}, {items: 3}, {items: 1}} {
		if body = inlineBodyWith(opt, f, l); len(body) <= maxCommentBody {
			return body
		}
	}
	return truncate(body, maxCommentBody)
}

// trailLimit says how much of an evidence trail a body shows: snippets or
// not, and at most items evidence items (0: all).
type trailLimit struct {
	snippets bool
	items    int
}

func inlineBodyWith(opt Options, f finding, lim trailLimit) string {
	v := f.v
	var b strings.Builder
	b.WriteString(fpMarkerPrefix + f.fp + markerSuffix + "\n")
	b.WriteString(headline(v) + "\n")
	var fallback, why string
	if v.Suggestion != "" {
		lines, ok := []string(nil), false
		why = "it could not be matched exactly to the commented lines"
		// A suggestion block is applied as written, so one with a
		// character that Markdown must show escaped (a bidirectional
		// control that reorders the line) is shown as text instead.
		if mdtext.Unsafe(v.Suggestion) || slices.ContainsFunc(f.place.lines, mdtext.Unsafe) {
			why = "the lines hold control or bidirectional characters, shown escaped here"
		} else if f.place.exact {
			lines, ok = suggestionLines(v.Claim, f.place.lines, v.Suggestion)
		}
		if ok {
			b.WriteString("\n" + mdtext.Fence("", "suggestion", lines) + "\n")
		} else {
			fallback = v.Suggestion
		}
	}
	details := evidenceTrail(opt, v.Evidence, lim)
	if fallback != "" {
		details += "**Suggested text** (not offered as a suggestion: " + why + "):\n\n" +
			mdtext.Fence("", "text", strings.Split(strings.TrimRight(fallback, "\n"), "\n")) + "\n\n"
	}
	if details != "" {
		b.WriteString("\n<details>\n<summary>Evidence trail (" + strconv.Itoa(len(v.Evidence)) + ")</summary>\n\n")
		b.WriteString(details)
		b.WriteString("</details>\n")
	}
	b.WriteString("\n<sub>Fingerprint " + mdtext.Code(f.fp) + ". Reply <code>/docreview dismiss &lt;reason&gt;</code> to dismiss this finding.</sub>\n")
	return b.String()
}

// headline is "**Contradicted** · `rule`: message".
func headline(v review.Verdict) string {
	h := "**" + labelTitle(v.Label) + "**"
	if v.Rule != "" {
		h += " · " + mdtext.Code(v.Rule)
	}
	if m := mdtext.Text(v.Message); m != "" {
		h += ": " + m
	}
	return h
}

// evidenceTrail renders each evidence item: a blob link to its lines at
// the head, why and hops, and its snippet, as far as lim allows; what lim
// leaves out is counted.
func evidenceTrail(opt Options, evs []review.Evidence, lim trailLimit) string {
	var b strings.Builder
	for i, e := range evs {
		if lim.items > 0 && i == lim.items {
			n := len(evs) - i
			fmt.Fprintf(&b, "%d more evidence %s left out to fit GitHub's comment limit: this finding's annotation on the check run lists %s.\n\n",
				n, plural(n, "item", "items"), plural(n, "it", "them all"))
			break
		}
		b.WriteString("**" + strconv.Itoa(i+1) + ".** " + blobLink(opt, e.Path, e.StartLine, e.EndLine))
		if w := mdtext.Text(e.Why); w != "" {
			b.WriteString(": " + w)
		}
		if len(e.Hops) > 0 {
			hops := make([]string, len(e.Hops))
			for j, h := range e.Hops {
				hops[j] = mdtext.Text(h)
			}
			b.WriteString("<br>\nVia: " + strings.Join(hops, " → "))
		}
		b.WriteString("\n\n")
		if s := strings.TrimRight(e.Snippet, "\n"); lim.snippets && strings.TrimSpace(s) != "" {
			b.WriteString(mdtext.Fence("", mdtext.Lang(e.Path), strings.Split(s, "\n")) + "\n" + "\n")
		}
	}
	return b.String()
}

// blobLink links `path#La-Lb` to ServerURL/Owner/Repo/blob/HeadSHA/path#La-Lb.
func blobLink(opt Options, p string, start, end int) string {
	start = max(start, 1)
	end = max(end, start)
	frag := "L" + strconv.Itoa(start) + "-L" + strconv.Itoa(end)
	u := opt.ServerURL + "/" + mdtext.EscapeSegment(opt.Owner) + "/" + mdtext.EscapeSegment(opt.Repo) + "/blob/" +
		mdtext.EscapeSegment(opt.HeadSHA) + "/" + mdtext.EscapePath(p) + "#" + frag
	return "[" + mdtext.Code(p+"#"+frag) + "](" + u + ")"
}

// resolvedBody rewrites one of docreview's comments to say its finding was
// resolved in head: both markers, "✅ Resolved in <short sha>", the old
// headline struck through and the old evidence trail. The suggestion block
// is dropped so a stale fix cannot be applied.
func resolvedBody(old, fp, head string) string {
	lines := strings.Split(old, "\n")
	var head1 string
	if len(lines) > 1 {
		head1 = strings.TrimSpace(lines[1])
	}
	var b strings.Builder
	b.WriteString(fpMarkerPrefix + fp + markerSuffix + "\n")
	b.WriteString(resolvedMarkerPrefix + head + markerSuffix + "\n")
	b.WriteString("✅ Resolved in " + mdtext.Code(shortSHA(head)) + "\n")
	if head1 != "" {
		b.WriteString("\n~~" + head1 + "~~\n")
	}
	b.WriteString(oldDetails(old))
	return b.String()
}

// oldDetails is the evidence trail of an inline comment body, from its
// "<details>" line to before the fingerprint footer, or "".
func oldDetails(old string) string {
	i := strings.Index(old, "\n<details>")
	if i < 0 {
		return ""
	}
	rest := old[i:]
	if j := strings.Index(rest, "\n<sub>Fingerprint"); j >= 0 {
		rest = strings.TrimRight(rest[:j], "\n") + "\n"
	}
	return rest
}

// movedBody rewrites one of docreview's outdated comments whose finding is
// still reported in head, now commented on lines start..end of path: both
// markers (so it is
// never edited again), "↪️ Moved" with where the finding is now, the old
// headline and the old evidence trail. The suggestion block is dropped:
// the lines it would replace are gone.
func movedBody(old, fp, head, path string, start, end int) string {
	lines := strings.Split(old, "\n")
	var head1 string
	if len(lines) > 1 {
		head1 = strings.TrimSpace(lines[1])
	}
	var b strings.Builder
	b.WriteString(fpMarkerPrefix + fp + markerSuffix + "\n")
	b.WriteString(movedMarkerPrefix + head + markerSuffix + "\n")
	b.WriteString("↪️ Moved: the lines of this comment changed, and the finding is still there in " + mdtext.Code(shortSHA(head)) +
		", now commented on " + mdtext.Code(path+":"+lineRange(start, end)) + ". Reply there.\n")
	if head1 != "" {
		b.WriteString("\n" + head1 + "\n")
	}
	b.WriteString(oldDetails(old))
	return b.String()
}

// lineRange is "12" or "11-12".
func lineRange(start, end int) string {
	if start <= 0 || start >= end {
		return strconv.Itoa(end)
	}
	return strconv.Itoa(start) + "-" + strconv.Itoa(end)
}

// shortSHA is the first 7 characters of a commit SHA.
func shortSHA(s string) string {
	if len(s) > 7 {
		return s[:7]
	}
	return s
}

// goCommentRE splits a // line comment into indentation and body.
var goCommentRE = regexp.MustCompile(`^([ \t]*)//(.*)$`)

// suggestionLines returns the lines that replace orig, the head lines of
// claim c, with suggestion (replacement text for c.Text, without comment
// or block markers). ok is false unless the result is certain, which is
// checked by formatting c.Text the same way and getting orig back exactly:
//
//   - a Go doc comment made of // lines with one indentation: each line is
//     indent + "//" + " " + text ("//" alone for a blank line, no space
//     before a tab-indented code line);
//   - a Markdown block: each line keeps the prefix (indentation, quote and
//     list markers) of the original line; lines beyond the original's get
//     the prefix of its second line, or for a one-line block the first
//     line's prefix with list markers turned into spaces.
//
// Block comments, fenced code blocks whose lines include their fences,
// lines with carriage returns and anything else are not certain.
func suggestionLines(c review.Claim, orig []string, suggestion string) ([]string, bool) {
	text := strings.TrimRight(c.Text, "\n")
	sugg := strings.TrimRight(suggestion, "\n")
	if len(orig) == 0 || text == "" || sugg == "" || sugg == text ||
		strings.ContainsRune(sugg, '\r') || strings.ContainsRune(text, '\r') {
		return nil, false
	}
	for _, l := range orig {
		if strings.ContainsRune(l, '\r') {
			return nil, false
		}
	}
	var format func(lines []string) []string
	switch {
	case c.Kind == review.KindDocComment && strings.HasSuffix(c.Path, ".go"):
		indent := ""
		for i, l := range orig {
			m := goCommentRE.FindStringSubmatch(l)
			if m == nil || (i > 0 && m[1] != indent) {
				return nil, false
			}
			indent = m[1]
		}
		format = func(lines []string) []string {
			out := make([]string, len(lines))
			for i, t := range lines {
				switch {
				case t == "":
					out[i] = indent + "//"
				case strings.HasPrefix(t, "\t"):
					out[i] = indent + "//" + t
				default:
					out[i] = indent + "// " + t
				}
			}
			return out
		}
	case c.Kind == review.KindMarkdown:
		tl := strings.Split(text, "\n")
		if len(tl) != len(orig) {
			return nil, false
		}
		prefixes := make([]string, len(orig))
		for i, o := range orig {
			if !strings.HasSuffix(o, tl[i]) {
				return nil, false
			}
			prefixes[i] = o[:len(o)-len(tl[i])]
			if strings.Trim(prefixes[i], " \t>-*+.)0123456789") != "" {
				return nil, false
			}
		}
		first, cont := prefixes[0], ""
		if len(orig) > 1 {
			cont = prefixes[1]
			for i := 2; i < len(orig); i++ {
				if tl[i] != "" && prefixes[i] != cont {
					return nil, false
				}
			}
		} else {
			cont = strings.Map(func(r rune) rune {
				if r == '>' || r == ' ' || r == '\t' {
					return r
				}
				return ' '
			}, first)
		}
		format = func(lines []string) []string {
			out := make([]string, len(lines))
			for i, t := range lines {
				p := cont
				if i == 0 {
					p = first
				}
				if t == "" {
					out[i] = strings.TrimRight(p, " \t")
				} else {
					out[i] = p + t
				}
			}
			return out
		}
	default:
		return nil, false
	}
	if !slicesEqual(format(strings.Split(text, "\n")), orig) {
		return nil, false
	}
	return format(strings.Split(sugg, "\n")), true
}

func slicesEqual(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// oneLine collapses whitespace, newlines included, to single spaces.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// labelTitle is "Contradicted" for contradicted.
func labelTitle(l review.Label) string {
	s := oneLine(string(l))
	if s == "" {
		return "Unlabelled"
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
