package prose

import (
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// GoRequirement is a minimum Go release a text states: "install Go 1.21 or
// above", "requires Go 1.18+", "you'll need go1.16 and up", "Go >= 1.20",
// a shields.io badge "go version >=1.16", and the same in the languages
// READMEs are commonly translated into ("`1.14` o superiore").
type GoRequirement struct {
	// Start and End are the byte offsets of the version in the text as
	// written, without a "go" prefix: "1.21" of "go1.21", "1.21.3".
	Start, End int
	// Major and Minor are the release's numbers: 1 and 21. A patch number
	// written after them ("1.21.3") is not kept.
	Major, Minor int
}

var (
	// goVersionRE finds release numbers of Go's form, with an optional
	// "go" written before them; the boundaries are checked by hand.
	goVersionRE = regexp.MustCompile(`(?i)(go\s?)?(1\.(\d{1,2})(?:\.\d{1,3})?)(\+)?`)
	// goMinAfterRE is a "this release or a newer one" phrase after the
	// number.
	goMinAfterRE = regexp.MustCompile(`(?i)^\s*(?:(?:or|and)\s+(?:higher|above|later|newer|greater|better|up|more\s+recent)\b|o\s+(?:superiore|superior|posterior|successiva)\b|ou\s+(?:superior|sup[ée]rieure?|plus\s+r[ée]cente?|mais\s+recente)\b|oder\s+(?:h[öo]her|neuer|sp[äa]ter)\b|(?:s[üu]r[üu]m[üu]\s+)?(?:veya|ve)\s+(?:daha\s+)?(?:y[üu]ksek|[üu]zeri|sonras[ıi])|或更高|或以上|及以上|以上|或更新|или\s+(?:выше|новее)|и\s+выше|以降|이상)`)
	// goMaxAfterRE is a "this release or an older one" phrase after the
	// number.
	goMaxAfterRE = regexp.MustCompile(`(?i)^\s*(?:or|and)\s+(?:lower|older|earlier|below|before)\b`)
	// goMinBeforeRE is an "at least" phrase before the release or before
	// the word Go.
	goMinBeforeRE = regexp.MustCompile(`(?i)(?:\bat\s+least|\bminimum(?:\s+(?:go\s+)?version)?(?:\s+of)?|\bmin\.?|>=|≥|\brequires?|\brequired|\bneeds?|\bneeded|\bmindestens|\balmeno|\bal\s+menos|\bpelo\s+menos|\bau\s+moins|\bне\s+ниже)\s*(?:is\s+|of\s+|:\s*)?$`)
	// goFillerWords may stand between the word Go and its release number.
	goFillerWords = map[string]bool{
		"version": true, "versions": true, "versione": true, "versión": true, "versão": true,
		"of": true, "the": true, "la": true, "el": true, "a": true, "an": true, "be": true, "is": true,
		"should": true, "must": true, "at": true, "least": true, "minimum": true, "min": true,
		"release": true, "toolchain": true, "v": true,
	}
	// goCondWords open a sentence or precede the word Go when the release
	// is a condition ("On Go 1.20 and later, …"), not a requirement.
	goCondWords = map[string]bool{
		"if": true, "when": true, "on": true, "with": true, "since": true, "as": true,
		"starting": true, "from": true, "before": true, "after": true, "until": true,
		"prior": true, "for": true, "in": true, "under": true, "using": true, "unless": true,
		"once": true, "tested": true, "built": true, "compiled": true, "running": true,
	}
	// goRunVerbs before "on Go 1.x and above" make it the module's
	// minimum ("works on"), not a condition.
	goRunVerbs = map[string]bool{"work": true, "works": true, "working": true, "run": true, "runs": true, "running": true, "compiles": true, "builds": true}
	// goHistoryRE marks sentences about the past or about support that
	// was dropped.
	goHistoryRE = regexp.MustCompile(`(?i)\b(?:previously|formerly|used\s+to|no\s+longer|dropped|deprecated|removed|older\s+versions?|earlier\s+versions?|was|were|had)\b`)
	// moduleVersionRE is a release of a module ("v1", "v2.3.0"): a
	// sentence or table row that names one states the Go of that release,
	// which need not be this one's.
	moduleVersionRE = regexp.MustCompile(`\bv\d+(?:\.\d+)*\b`)
	// goAPIRE finds a qualified Go name (http.Pusher, errors.Is): a
	// sentence that names one gives that API's release, not the module's
	// ("http.Pusher is supported only go1.8+").
	goAPIRE   = regexp.MustCompile(`\b[a-z][a-z0-9]*\.[A-Z][A-Za-z0-9_]*\b`)
	shieldsRE = regexp.MustCompile(`img\.shields\.io/badge/([^)\s"'<>?]+)`)
)

// GoRequirements returns the minimum Go releases text states, left to
// right. A release counts only when the word Go (or Golang, or a "go"
// prefix: "go1.16") stands before it with at most a few words between,
// none of them another capitalised name ("Go and Docker 1.13+" states no Go
// release), and when a minimum phrase follows it ("or later", "+", "and
// up") or precedes it ("at least", "requires", ">="). Releases in
// sentences that open with a condition ("On Go 1.20 and later"), that
// speak of the past ("previously required Go 1.13"), and every release of
// a text that states two different ones (a compatibility table) are not
// returned: which one is the module's is not certain.
func GoRequirements(text string) []GoRequirement {
	if !strings.Contains(text, "1.") {
		return nil
	}
	low := strings.ToLower(text)
	if !strings.Contains(low, "go") {
		return nil
	}
	masked := maskMarkup(text)
	var out []GoRequirement
	for _, m := range goVersionRE.FindAllStringSubmatchIndex(masked, -1) {
		start, vs, ve := m[0], m[4], m[5]
		prefixed := m[2] >= 0
		if !goBoundary(masked, start, ve) {
			continue
		}
		minor, err := strconv.Atoi(masked[m[6]:m[7]])
		if err != nil {
			continue
		}
		r := GoRequirement{Start: vs, End: ve, Major: 1, Minor: minor}
		plus := m[8] >= 0
		if !goMentioned(masked, start, prefixed) {
			continue
		}
		// "Go 1.13.x or above": the x stands for any patch release.
		after := strings.TrimPrefix(masked[m[1]:], ".x")
		before := masked[:start]
		minAfter := goMinAfterRE.FindStringIndex(after)
		if !plus && minAfter == nil && !goMinBeforeRE.MatchString(before) && !goMinBeforeRE.MatchString(beforeGoWord(before)) {
			continue
		}
		// "Go 1.23+ iterator support" names a feature's release, not the
		// module's: the release must end its phrase.
		rest := after
		if minAfter != nil {
			rest = after[minAfter[1]:]
		}
		if !goPhraseEnd(rest) {
			continue
		}
		if goConditional(masked, start, prefixed) || inTodoLine(masked, start) || goExample(masked, start) {
			continue
		}
		out = append(out, r)
	}
	out = append(out, shieldsRequirements(text)...)
	if len(out) == 0 {
		return nil
	}
	for _, r := range out[1:] {
		if r.Minor != out[0].Minor {
			return nil
		}
	}
	// Any other Go release written in the text, with or without a minimum
	// phrase, makes it a text about several releases; but for the release
	// just below, with "or lower" ("you'll need go1.16 and up; with go1.15
	// or lower, pin v3.0.1"), which states the same boundary.
	for _, m := range goVersionRE.FindAllStringSubmatchIndex(masked, -1) {
		if m[2] < 0 && !goMentioned(masked, m[0], false) {
			continue
		}
		if !goBoundary(masked, m[0], m[5]) || inTodoLine(masked, m[0]) {
			continue
		}
		minor, err := strconv.Atoi(masked[m[6]:m[7]])
		if err != nil || minor == out[0].Minor {
			continue
		}
		if minor == out[0].Minor-1 && goMaxAfterRE.MatchString(masked[m[1]:]) {
			continue
		}
		return nil
	}
	return out
}

// goExampleRE ends with an example's opening ("e.g.", "for example",
// "such as") followed by no end of its sentence or parenthesis.
var goExampleRE = regexp.MustCompile(`(?i)(?:\be\.g\.|\bfor\s+(?:example|instance)\b|\bsuch\s+as\b)[^.;:()]*$`)

// goExample reports whether the release at start is in an example ("the
// language version (e.g. 0o octal literals need go1.13)"): it gives a
// feature's release, not the module's.
func goExample(s string, start int) bool {
	from := max(0, start-120)
	return goExampleRE.MatchString(s[from:start])
}

// goPhraseEndRE is what may follow a minimum release: the end of the
// text, punctuation, or a verb or conjunction of a requirement.
var goPhraseEndRE = regexp.MustCompile(`(?i)^\s*(?:$|[.,;:)!|(\-–—/]|(?:is|are|must|should|required|needed|installed|and|or|to|except|excluding|version|versions|release|toolchain|bir|gerekli|necesario|richiesto|requis|erforderlich|版本)\b|[^\x00-\x7F])`)

// goPhraseEnd reports whether rest, the text after a release and its
// minimum phrase, ends the phrase.
func goPhraseEnd(rest string) bool {
	return goPhraseEndRE.MatchString(rest)
}

// goBoundary reports whether the match from start to end stands alone: not
// part of a longer number, a version with a "v" or a path.
func goBoundary(s string, start, end int) bool {
	if start > 0 {
		c := s[start-1]
		if isWordByte(c) || c == '.' || c == '-' || c == '/' || c == '$' || c == '@' {
			return false
		}
	}
	if end < len(s) {
		c := s[end]
		if isWordByte(c) {
			return false
		}
		if c == '.' && end+1 < len(s) && isDigit(s[end+1]) {
			return false
		}
	}
	return true
}

// goMentioned reports whether the word Go stands before the release at
// start, close enough to be its subject.
func goMentioned(s string, start int, prefixed bool) bool {
	if prefixed {
		return true
	}
	words := wordsBefore(s, start, 8)
	sentences := 0
	for i := len(words) - 1; i >= 0; i-- {
		w := words[i]
		if w.boundary {
			sentences++
			if sentences > 1 {
				return false
			}
			continue
		}
		if isGoWord(w.text) {
			return true
		}
		lw := strings.ToLower(w.text)
		// "Go Lang (minimum version required is 1.14)".
		if lw == "lang" && i > 0 && !words[i-1].boundary && isGoWord(words[i-1].text) {
			continue
		}
		if goFillerWords[lw] {
			continue
		}
		if w.digits {
			return false
		}
		r, _ := utf8.DecodeRuneInString(w.text)
		if unicode.IsUpper(r) && !w.initial {
			return false
		}
	}
	return false
}

// beforeGoWord returns the text before the last word Go of before.
func beforeGoWord(before string) string {
	words := wordsBefore(before, len(before), 8)
	for i := len(words) - 1; i >= 0; i-- {
		if !words[i].boundary && isGoWord(words[i].text) {
			return before[:words[i].start]
		}
	}
	return ""
}

// goConditional reports whether the sentence of the release at start
// opens with a condition, speaks of the past, or has a condition word
// right before its word Go.
func goConditional(s string, start int, prefixed bool) bool {
	from := 0
	for _, sp := range Sentences(s) {
		if sp.Start <= start {
			from = sp.Start
		}
	}
	to := len(s)
	for _, sp := range Sentences(s) {
		if sp.Start <= start && start < sp.End {
			to = sp.End
		}
	}
	sentence := s[from:to]
	if goHistoryRE.MatchString(sentence) || moduleVersionRE.MatchString(sentence) || goAPIRE.MatchString(sentence) {
		return true
	}
	first := firstWord(sentence)
	if goCondWords[strings.ToLower(first)] {
		return true
	}
	words := wordsBefore(s, start, 8)
	if prefixed {
		// The match opens with its word Go.
		words = append(words, priorWord{text: "Go"})
	}
	for i := len(words) - 1; i >= 0; i-- {
		if words[i].boundary {
			return false
		}
		if isGoWord(words[i].text) || prefixed && i == len(words)-1 {
			for j := i - 1; j >= 0 && j >= i-2; j-- {
				if words[j].boundary {
					break
				}
				cond := strings.ToLower(words[j].text)
				// "Support for Go 1.4 and above" states the minimum;
				// "For Go 1.20 and above, use …" is a condition.
				if cond == "for" && j > 0 && !words[j-1].boundary && strings.HasPrefix(strings.ToLower(words[j-1].text), "support") {
					continue
				}
				// "This code is known to work on Go 1.12 and above"
				// states the minimum; "On Go 1.20 and above, …" is a
				// condition.
				if cond == "on" && j > 0 && !words[j-1].boundary && goRunVerbs[strings.ToLower(words[j-1].text)] {
					continue
				}
				if goCondWords[cond] {
					return true
				}
			}
			return false
		}
	}
	return false
}

func isGoWord(w string) bool {
	if w == "Go" || w == "GO" || strings.EqualFold(w, "golang") {
		return true
	}
	// Languages written without spaces glue Go to the words around it:
	// "需要有Go环境".
	if i := strings.Index(w, "Go"); i >= 0 {
		before, _ := utf8.DecodeLastRuneInString(w[:i])
		after, _ := utf8.DecodeRuneInString(w[i+2:])
		ascii := func(r rune) bool { return r < utf8.RuneSelf && unicode.IsLetter(r) }
		if (i == 0 || !ascii(before)) && (i+2 == len(w) || !ascii(after)) && (i > 0 || i+2 < len(w)) &&
			!strings.HasPrefix(w[i+2:], "'") && !strings.HasPrefix(w[i+2:], "’") {
			for _, r := range w {
				if r >= utf8.RuneSelf {
					return true
				}
			}
		}
	}
	// Turkish and other languages glue a suffix after an apostrophe:
	// "Go'nun".
	return strings.HasPrefix(w, "Go'") || strings.HasPrefix(w, "Go’")
}

func firstWord(s string) string {
	s = strings.TrimLeft(s, " \t\n-*#>|")
	end := strings.IndexFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && r != '\'' })
	if end < 0 {
		return s
	}
	return s[:end]
}

type priorWord struct {
	text     string
	start    int
	boundary bool // a sentence end between this word and the next
	digits   bool // the word holds a digit
	initial  bool // the word opens a sentence
}

// wordsBefore returns up to n words before offset end of s, in text order,
// with sentence ends between them as boundary entries.
func wordsBefore(s string, end, n int) []priorWord {
	var rev []priorWord
	i := end
	count := 0
	for i > 0 && count < n {
		r, size := utf8.DecodeLastRuneInString(s[:i])
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '\'' || r == '’':
			j := i
			for j > 0 {
				r2, s2 := utf8.DecodeLastRuneInString(s[:j])
				if !(unicode.IsLetter(r2) || unicode.IsDigit(r2) || r2 == '\'' || r2 == '’' || (r2 == '.' && j < i && j > 1 && isDigit(s[j]) && isDigit(s[j-2]))) {
					break
				}
				j -= s2
			}
			w := s[j:i]
			rev = append(rev, priorWord{text: w, start: j, digits: strings.ContainsAny(w, "0123456789")})
			count++
			i = j
		case (r == '.' || r == '!' || r == '?' || r == ':') && i < len(s) && (s[i] == ' ' || s[i] == '\n'):
			rev = append(rev, priorWord{boundary: true, start: i - size})
			i -= size
		default:
			i -= size
		}
	}
	out := make([]priorWord, len(rev))
	for k, w := range rev {
		out[len(rev)-1-k] = w
	}
	for k := range out {
		if out[k].boundary {
			continue
		}
		out[k].initial = k == 0 && startsText(s, out[k].start) || k > 0 && out[k-1].boundary
	}
	return out
}

// startsText reports whether only space and markup stand before offset i.
func startsText(s string, i int) bool {
	return strings.TrimLeft(s[:i], " \t\n-*#>|") == ""
}

// maskMarkup returns text with Markdown markup blanked out, byte for byte,
// so that offsets stay those of text: emphasis and code marks, the
// brackets and targets of links, and parenthesised asides that hold no
// release number ("Go ([download](https://go.dev/dl/)) 1.14").
func maskMarkup(text string) string {
	b := []byte(text)
	blank := func(from, to int) {
		for k := from; k < to; k++ {
			if b[k] != '\n' {
				b[k] = ' '
			}
		}
	}
	for i := 0; i < len(b); i++ {
		switch b[i] {
		case '`', '*', '~':
			b[i] = ' '
		case '_':
			if (i == 0 || !isWordByte(b[i-1])) || (i+1 == len(b) || !isWordByte(b[i+1])) {
				b[i] = ' '
			}
		case ']':
			if i+1 < len(b) && b[i+1] == '(' {
				if j := strings.IndexByte(string(b[i+1:]), ')'); j >= 0 {
					blank(i, i+1+j+1)
				}
			}
		case '[':
			b[i] = ' '
		}
	}
	// Parenthesised asides without a release number.
	s := string(b)
	for i := 0; i < len(b); i++ {
		if b[i] != '(' {
			continue
		}
		j := strings.IndexByte(s[i:], ')')
		if j < 0 {
			break
		}
		inner := s[i+1 : i+j]
		if !strings.Contains(inner, "1.") {
			blank(i, i+j+1)
		}
		i += j
	}
	return string(b)
}

// shieldsRequirements reads shields.io badges whose label names Go and
// whose message states a minimum release: "go version->=1.16".
func shieldsRequirements(text string) []GoRequirement {
	var out []GoRequirement
	for _, m := range shieldsRE.FindAllStringSubmatchIndex(text, -1) {
		raw := text[m[2]:m[3]]
		raw = strings.TrimSuffix(raw, ".svg")
		parts := splitShields(raw)
		if len(parts) < 2 {
			continue
		}
		label, err := url.PathUnescape(parts[0])
		if err != nil {
			continue
		}
		msg, err := url.PathUnescape(parts[1])
		if err != nil {
			continue
		}
		label = strings.ToLower(strings.NewReplacer("_", " ", "%20", " ").Replace(label))
		if !strings.Contains(" "+label+" ", " go ") && !strings.Contains(label, "golang") && !strings.HasPrefix(label, "go ") {
			continue
		}
		msg = strings.TrimSpace(strings.ReplaceAll(msg, "_", " "))
		minimum := strings.HasPrefix(msg, ">=") || strings.HasPrefix(msg, "≥") || strings.HasSuffix(msg, "+") || strings.Contains(label, "min")
		if !minimum {
			continue
		}
		v := strings.TrimLeft(msg, ">=≥ v")
		v = strings.TrimPrefix(strings.TrimPrefix(v, "go"), " ")
		v = strings.TrimSuffix(v, "+")
		major, minor, ok := strings.Cut(v, ".")
		if !ok || major != "1" {
			continue
		}
		if k := strings.IndexByte(minor, '.'); k >= 0 {
			minor = minor[:k]
		}
		n, err := strconv.Atoi(minor)
		if err != nil {
			continue
		}
		// The version's offsets in the badge's URL as written: the first
		// "1." + minor after the label.
		at := strings.Index(text[m[2]:m[3]], "1."+minor)
		if at < 0 {
			continue
		}
		out = append(out, GoRequirement{Start: m[2] + at, End: m[2] + at + 2 + len(minor), Major: 1, Minor: n})
	}
	return out
}

// splitShields splits a shields.io badge path at its single dashes; "--"
// is a literal dash.
func splitShields(p string) []string {
	var parts []string
	var cur strings.Builder
	for i := 0; i < len(p); i++ {
		if p[i] == '-' {
			if i+1 < len(p) && p[i+1] == '-' {
				cur.WriteByte('-')
				i++
				continue
			}
			parts = append(parts, cur.String())
			cur.Reset()
			continue
		}
		cur.WriteByte(p[i])
	}
	return append(parts, cur.String())
}

// todoLineRE matches a line that opens a note to the maintainers: "TODO",
// "TODO(≥go1.18):", "FIXME", "XXX", "BUG(rsc):".
var todoLineRE = regexp.MustCompile(`^\s*(?:TODO|FIXME|XXX|BUG)\b`)

// inTodoLine reports whether offset i of text lies on a line that opens a
// note to the maintainers: go-cmp's "TODO(≥go1.18): Define a generic
// function" says when to do something, not which release the module
// needs.
func inTodoLine(text string, i int) bool {
	return todoLineRE.MatchString(text[strings.LastIndexByte(text[:i], '\n')+1:])
}
