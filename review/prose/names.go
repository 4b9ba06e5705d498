package prose

import (
	"slices"
	"strings"
	"unicode"
)

// WordSpans returns the rune ranges of the words of a Go name, split by
// camel case (a run of capitals stays one word: "HTTPServer" is HTTP,
// Server), underscores and other non-letters, and between letters and
// digits.
func WordSpans(runes []rune) [][2]int {
	var spans [][2]int
	start := -1
	flush := func(end int) {
		if start >= 0 && end > start {
			spans = append(spans, [2]int{start, end})
		}
		start = -1
	}
	for i, r := range runes {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			flush(i)
			continue
		}
		if start < 0 {
			start = i
			continue
		}
		prev := runes[i-1]
		switch {
		case unicode.IsUpper(r) && unicode.IsLower(prev):
			flush(i)
			start = i
		case unicode.IsUpper(r) && unicode.IsUpper(prev) && i+1 < len(runes) && unicode.IsLower(runes[i+1]):
			flush(i)
			start = i
		case unicode.IsDigit(r) != unicode.IsDigit(prev):
			flush(i)
			start = i
		}
	}
	flush(len(runes))
	return spans
}

// Words splits a Go name into its lower-case words as [WordSpans] does:
// "NewHTTPClient" gives new, http, client.
func Words(s string) []string {
	runes := []rune(s)
	var words []string
	for _, sp := range WordSpans(runes) {
		words = append(words, strings.ToLower(string(runes[sp[0]:sp[1]])))
	}
	return words
}

// abbreviations maps the abbreviations Go names use to the words they
// stand for.
var abbreviations = map[string]string{
	"ctx": "context", "cfg": "config", "conf": "config", "msg": "message", "err": "error",
	"req": "request", "resp": "response", "opts": "options", "opt": "option", "len": "length",
	"num": "number", "str": "string", "val": "value", "buf": "buffer", "env": "environment",
	"dir": "directory", "conn": "connection", "addr": "address", "srv": "server", "svc": "service",
	"tx": "transaction", "param": "parameter", "params": "parameters", "attr": "attribute",
	"attrs": "attributes", "prev": "previous", "idx": "index", "pkg": "package", "repo": "repository",
	"args": "arguments", "arg": "argument", "init": "initialize", "info": "information",
	"min": "minimum", "max": "maximum", "cnt": "count", "ts": "timestamp", "db": "database",
}

// Expand returns the word a lower-case abbreviation of Go names stands
// for ("ctx" gives "context", "cfg" "config"), or w itself.
func Expand(w string) string {
	if full, ok := abbreviations[w]; ok {
		return full
	}
	return w
}

// Alternatives returns the other spellings of a lower-case word that Go
// names use: its expansion when it is an abbreviation, and the
// abbreviations of it when it is a full word ("context" gives "ctx"),
// sorted.
func Alternatives(w string) []string {
	var out []string
	if full, ok := abbreviations[w]; ok {
		out = append(out, full)
	}
	for short, full := range abbreviations {
		if full == w {
			out = append(out, short)
		}
	}
	slices.Sort(out)
	return out
}

// ExpandedWords splits a name into lower-case words with the
// abbreviations expanded: "ExecuteCtx" gives execute, context.
func ExpandedWords(s string) []string {
	ws := Words(s)
	for i, w := range ws {
		ws[i] = Expand(w)
	}
	return ws
}

// NameSimilarity measures how alike two Go names are, in [0, 1]: the
// larger of one minus their lower-cased edit distance over the longer
// length, and the share of their words (abbreviations expanded) they
// have in common.
func NameSimilarity(a, b string) float64 {
	la, lb := strings.ToLower(a), strings.ToLower(b)
	n := max(len([]rune(la)), len([]rune(lb)))
	if n == 0 {
		return 0
	}
	edit := 1 - float64(EditDistance(la, lb))/float64(n)
	words := 0.0
	if total := max(len(Words(a)), len(Words(b))); total > 0 {
		words = float64(CommonWords(a, b)) / float64(total)
	}
	return max(edit, words)
}

// CommonWords counts the words two names share, abbreviations expanded,
// each word of b used once.
func CommonWords(a, b string) int {
	wa, wb := ExpandedWords(a), ExpandedWords(b)
	common := 0
	used := make([]bool, len(wb))
	for _, w := range wa {
		for j, v := range wb {
			if !used[j] && w == v {
				used[j] = true
				common++
				break
			}
		}
	}
	return common
}

// EditDistance is the optimal string alignment distance of a and b, in
// runes: insertions, deletions, substitutions and transpositions of
// adjacent runes each cost one.
func EditDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	d := make([][]int, len(ra)+1)
	for i := range d {
		d[i] = make([]int, len(rb)+1)
		d[i][0] = i
	}
	for j := range rb {
		d[0][j+1] = j + 1
	}
	for i := 1; i <= len(ra); i++ {
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(ra)][len(rb)]
}

// CodeShaped reports whether a bare word of prose has the shape only code
// gives a word: a call ("name()"), lowerCamel with a head of two letters
// or more and a capitalised word ("checkLostCancel", "typeCheckImpl", but
// not "iOS" or "macOS"), or UpperCamel of three or more words
// ("MaxTableSize", but not "GitHub" or "PostgreSQL"). call says the word
// was followed by "()". Go convention makes such a word a name of the
// doc's package.
func CodeShaped(name string, call bool) bool {
	if name == "" || strings.ContainsAny(name, "._") || IsBrand(name) {
		return false
	}
	if call {
		return len(name) >= 2
	}
	words := camelWords(name)
	if isLower(name[0]) {
		if len(words) < 2 || len(words[0]) < 2 {
			return false
		}
		for _, w := range words[1:] {
			if len(w) >= 2 && isUpper(w[0]) && isLower(w[1]) {
				return true
			}
		}
		return false
	}
	if len(words) == 2 && IsCodePrefixed(name) {
		return true
	}
	if len(words) < 3 {
		return false
	}
	capitalised := 0
	for _, w := range words {
		if len(w) >= 2 && isUpper(w[0]) && isLower(w[1]) {
			capitalised++
		}
	}
	return capitalised >= 2
}

// codePrefixes are the first words of Go names that English does not glue
// to a capitalised word: constructors, functional options, accessors,
// predicates and sentinels.
var codePrefixes = []string{"New", "With", "Get", "Set", "Is", "Has", "Err", "Must"}

// IsCodePrefixed reports whether an UpperCamel word starts with one of the
// prefixes of Go names followed by a capitalised word ("NewError",
// "WithBuilder", "ErrClosed"; not "Newton" or "Issue").
func IsCodePrefixed(name string) bool {
	for _, p := range codePrefixes {
		if rest, ok := strings.CutPrefix(name, p); ok && len(rest) >= 2 && isUpper(rest[0]) && isLower(rest[1]) {
			return true
		}
	}
	return false
}

// camelWords splits an ASCII mixedCaps word at case changes, keeping runs
// of capitals together ("HTTPServerConfig" -> HTTP, Server, Config) and
// digits with the word before them.
func camelWords(s string) []string {
	var out []string
	start := 0
	for i := 1; i < len(s); i++ {
		c, p := s[i], s[i-1]
		switch {
		case isUpper(c) && isLower(p):
			out = append(out, s[start:i])
			start = i
		case isUpper(c) && isUpper(p) && i+1 < len(s) && isLower(s[i+1]):
			out = append(out, s[start:i])
			start = i
		}
	}
	return append(out, s[start:])
}

// IsBrand reports the mixedCaps words of ordinary prose that name no
// code: products and formats ("GitHub", "PostgreSQL", "macOS"), the names
// of naming styles ("mixedCaps", "lowerCamel") and plural acronyms
// ("APIs", "URLs").
func IsBrand(w string) bool {
	switch w {
	case "GitHub", "GitLab", "BitBucket", "JavaScript", "TypeScript", "PostgreSQL", "MySQL",
		"SQLite", "MongoDB", "YouTube", "LinkedIn", "macOS", "iOS", "iPhone", "iPad", "OAuth",
		"OpenAI", "OpenAPI", "WebSocket", "WebSockets", "PowerShell", "VSCode", "IntelliJ",
		"DevOps", "CamelCase", "PascalCase", "camelCase", "GoLand", "NixOS", "FreeBSD", "OpenBSD",
		"NetBSD", "DragonFly", "HashiCorp", "CloudFlare", "Cloudflare", "DockerHub", "README",
		"mixedCaps", "MixedCaps", "lowerCamel", "lowerCamelCase", "UpperCamel", "UpperCamelCase", "snakeCase",
		"reStructuredText", "AsciiDoc", "JetBrains", "WordPress", "DynamoDB", "BigQuery", "GraphQL",
		"PRs", "APIs", "URLs", "IDs", "CLIs", "SDKs", "JSONs", "UUIDs", "CPUs", "GPUs", "OSes":
		return true
	}
	return false
}

func isLower(c byte) bool { return 'a' <= c && c <= 'z' }
func isUpper(c byte) bool { return 'A' <= c && c <= 'Z' }
