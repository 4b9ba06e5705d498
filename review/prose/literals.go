package prose

import (
	"strconv"
	"strings"
	"time"
)

// Literal is a number with a unit found in text.
type Literal struct {
	// Start and End are the byte offsets of the literal in the text.
	Start, End int
	// Value is the number as written: 30 for "30s", 1.5 for "1.5 MiB"; a
	// compound duration gives its value in the smallest unit written
	// (90 for "1h30m").
	Value float64
	// Unit is the canonical unit ([CanonUnit]): "s", "mib", "entries",
	// "%".
	Unit string
}

// Literals returns the numbers with units in text, left to right, without
// overlaps: Go durations ("30s", "1h30m"), sizes ("10 MB", "4KB"),
// percentages and counts ("100 entries", "three retries"), the unit after
// the number, a space, a line break or a hyphen. A number preceded by a
// letter, digit, dot, hyphen or "$" is part of a name or version and is
// skipped. The scan is a single pass over text.
func Literals(text string) []Literal {
	var out []Literal
	for i := 0; i < len(text); {
		c := text[i]
		switch {
		case isDigit(c):
			j := scanNumber(text, i)
			if okBefore(text, i) {
				if l, ok := literalAt(text, i, j, parseNum(text[i:j]), true); ok {
					out = append(out, l)
					i = l.End
					continue
				}
			}
			for j < len(text) && (isWordByte(text[j]) || text[j] == '.') {
				j++
			}
			i = j
		case isLetter(c):
			j := i
			for j < len(text) && isLetter(text[j]) {
				j++
			}
			if okBefore(text, i) && (j == len(text) || !isWordByte(text[j])) {
				if v, end, ok := numberPhrase(text, i); ok {
					if l, ok := literalAt(text, i, end, v, false); ok {
						out = append(out, l)
						i = l.End
						continue
					}
				}
				if l, ok := oneOf(text, i, j); ok {
					out = append(out, l)
					i = l.End
					continue
				}
			}
			for j < len(text) && isWordByte(text[j]) {
				j++
			}
			i = j
		default:
			i++
		}
	}
	return out
}

// okBefore reports whether a number may start at i.
func okBefore(text string, i int) bool {
	if i == 0 {
		return true
	}
	c := text[i-1]
	return !isWordByte(c) && c != '.' && c != '-' && c < 0x80 && c != '$'
}

// scanNumber returns the end of the number at i: "10,000", "1.5" or "30".
func scanNumber(text string, i int) int {
	j := i
	for j < len(text) && isDigit(text[j]) {
		j++
	}
	// Thousands separators: 1-3 digits, then groups of exactly three.
	if k := j; j-i <= 3 && k < len(text) && text[k] == ',' {
		for k+4 <= len(text) && text[k] == ',' && isDigit(text[k+1]) && isDigit(text[k+2]) && isDigit(text[k+3]) &&
			(k+4 == len(text) || !isDigit(text[k+4])) {
			k += 4
		}
		if k > j {
			return k
		}
	}
	if j+1 < len(text) && text[j] == '.' && isDigit(text[j+1]) {
		j++
		for j < len(text) && isDigit(text[j]) {
			j++
		}
	}
	// An exponent: 2e6, 1.5e+9.
	if k := j; k+1 < len(text) && (text[k] == 'e' || text[k] == 'E') {
		k++
		if k+1 < len(text) && text[k] == '+' {
			k++
		}
		if isDigit(text[k]) {
			for k < len(text) && isDigit(text[k]) {
				k++
			}
			if k == len(text) || !isLetter(text[k]) {
				return k
			}
		}
	}
	return j
}

// numberPhrase reads the number words at i as one number: "two hundred"
// is 200, "twenty-five" 25, "one thousand" 1000, "three" 3. It returns
// the value and the end of the last word.
func numberPhrase(text string, i int) (float64, int, bool) {
	word := func(at int) (float64, int, bool) {
		k := at
		for k < len(text) && isLetter(text[k]) {
			k++
		}
		if k == at || k < len(text) && isWordByte(text[k]) {
			return 0, 0, false
		}
		v, ok := NumberWord(strings.ToLower(text[at:k]))
		return v, k, ok
	}
	v, end, ok := word(i)
	if !ok {
		return 0, 0, false
	}
	for range 3 {
		if end >= len(text) || text[end] != ' ' && text[end] != '-' {
			break
		}
		next, nend, ok := word(end + 1)
		if !ok {
			break
		}
		switch {
		case (next == 100 || next == 1000) && v < next:
			v *= next // "two hundred"
		case next < 10 && v >= 20 && v < 100 && int(v)%10 == 0:
			v += next // "twenty-five"
		case next < 100 && v >= 100 && int(v)%100 == 0:
			v += next // "one hundred twenty"
		default:
			return v, end, true
		}
		end = nend
	}
	return v, end, true
}

// oneOf reads the article or "half" at text[i:j] before a duration unit:
// "a minute" is 1m, "an hour" 1h, "half a second" 0.5s, "half an hour"
// 0.5h. "a second" counts only before punctuation, the end or a word
// that no noun follows ("a second before retrying"), as "a second call"
// is an ordinal.
func oneOf(text string, i, j int) (Literal, bool) {
	w := strings.ToLower(text[i:j])
	v := 1.0
	k := j
	switch w {
	case "a", "an":
	case "half":
		v = 0.5
		if k+1 >= len(text) || text[k] != ' ' {
			return Literal{}, false
		}
		a := k + 1
		b := a
		for b < len(text) && isLetter(text[b]) {
			b++
		}
		if aw := strings.ToLower(text[a:b]); aw != "a" && aw != "an" {
			return Literal{}, false
		}
		k = b
	default:
		return Literal{}, false
	}
	if k+1 >= len(text) || text[k] != ' ' {
		return Literal{}, false
	}
	u, end := unitWord(text, k+1)
	if end < len(text) && isWordByte(text[end]) {
		return Literal{}, false
	}
	switch strings.ToLower(u) {
	case "nanosecond", "microsecond", "millisecond", "minute", "hour", "day", "week":
	case "second":
		rest := strings.TrimLeft(text[end:], " ")
		next := rest
		if n := strings.IndexFunc(rest, func(r rune) bool { return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') }); n >= 0 {
			next = rest[:n]
		}
		switch strings.ToLower(next) {
		case "", "before", "after", "and", "or", "to", "for", "per", "then", "later", "ago", "between", "each", "every", "until", "while", "when", "if":
		default:
			return Literal{}, false
		}
	default:
		return Literal{}, false
	}
	unit, ok := CanonUnit(u, false)
	if !ok {
		return Literal{}, false
	}
	return Literal{i, end, v, unit}, true
}

// literalAt reads the unit after the number text[i:j] of value v; digits
// is false for number words, which take only spaced units.
func literalAt(text string, i, j int, v float64, digits bool) (Literal, bool) {
	if digits {
		// A compound Go duration: 1h30m, 2m30.5s.
		if end := scanCompound(text, i); end > 0 {
			if v, unit, ok := compoundDuration(text[i:end]); ok {
				return Literal{i, end, v, unit}, true
			}
		}
		// An attached unit: 30s, 4KB, 1MiB.
		if w, end := unitWord(text, j); w != "" && (end == len(text) || !isWordByte(text[end]) && !followedByName(text, end)) {
			if unit, ok := CanonUnit(w, true); ok && isAttachedUnit(w) && !(unit == "s" && isDecade(text[i:j])) {
				return Literal{i, end, v, unit}, true
			}
		}
		// A percentage: 50%, 50 %, 50 percent.
		k := j
		if k < len(text) && text[k] == ' ' {
			k++
		}
		if k < len(text) && text[k] == '%' {
			return Literal{i, k + 1, v, "%"}, true
		}
	}
	// A spaced unit: 5 minutes, 10 MB, 100 entries, 30-second.
	k := j
	switch {
	case k < len(text) && text[k] == '-':
		k++
	default:
		newlines := 0
		for k < len(text) && (text[k] == ' ' || text[k] == '\t' || text[k] == '\n' || text[k] == '\r') {
			if text[k] == '\n' {
				newlines++
			}
			k++
		}
		if k == j || newlines > 1 {
			return Literal{}, false
		}
	}
	w, end := unitWord(text, k)
	if w == "" || end < len(text) && isWordByte(text[end]) {
		return Literal{}, false
	}
	lw := strings.ToLower(w)
	if digits && (lw == "percent") {
		return Literal{i, end, v, "%"}, true
	}
	if !isSpacedUnit(w) {
		return Literal{}, false
	}
	unit, ok := CanonUnit(w, false)
	if !ok {
		return Literal{}, false
	}
	return Literal{i, end, v, unit}, true
}

// followedByName reports a dot and a word character at i, as in "1.2.3s"
// or "5s.go", where the literal is part of a name.
func followedByName(text string, i int) bool {
	return i+1 < len(text) && text[i] == '.' && isWordByte(text[i+1])
}

// unitWord returns the letters at i ("ms", "MiB", "µs") and their end.
func unitWord(text string, i int) (string, int) {
	for _, micro := range []string{"µs", "μs"} {
		if strings.HasPrefix(text[i:], micro) {
			return micro, i + len(micro)
		}
	}
	j := i
	for j < len(text) && isLetter(text[j]) {
		j++
	}
	return text[i:j], j
}

// scanCompound returns the end of a compound Go duration at i with at
// least two components ("1h30m", "2m30.5s"), or 0.
func scanCompound(text string, i int) int {
	n, k := 0, i
	for k < len(text) && isDigit(text[k]) {
		j := k
		for j < len(text) && isDigit(text[j]) {
			j++
		}
		if j+1 < len(text) && text[j] == '.' && isDigit(text[j+1]) {
			j++
			for j < len(text) && isDigit(text[j]) {
				j++
			}
		}
		w, end := unitWord(text, j)
		switch w {
		case "ns", "us", "µs", "μs", "ms", "s", "m", "h":
		default:
			return 0
		}
		n++
		k = end
	}
	if n >= 2 && (k == len(text) || !isWordByte(text[k]) && !followedByName(text, k)) {
		return k
	}
	return 0
}

func isDigit(c byte) bool  { return '0' <= c && c <= '9' }
func isLetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

// isAttachedUnit reports units written right after a number: Go duration
// units and byte sizes ("B", "KB", "kB", "MiB", ...).
func isAttachedUnit(w string) bool {
	switch w {
	case "ns", "us", "µs", "μs", "ms", "s", "m", "h", "B", "k", "K":
		return true
	}
	if len(w) == 2 || len(w) == 3 && (w[1] == 'i' || w[1] == 'I') {
		return strings.IndexByte("KkMmGgTt", w[0]) >= 0 && (w[len(w)-1] == 'B' || w[len(w)-1] == 'b')
	}
	return false
}

// isSpacedUnit reports units written after a space or hyphen: spelled
// durations, sizes and count nouns, in any case; "ms", "ns" and "µs"
// abbreviations; "B" only as a capital.
func isSpacedUnit(w string) bool {
	if w == "b" {
		return false
	}
	l := strings.ToLower(w)
	switch l {
	case "nanosecond", "nanoseconds", "nanosec", "nanosecs", "ns", "microsecond", "microseconds", "µs", "μs",
		"millisecond", "milliseconds", "millis", "msec", "msecs", "ms", "second", "seconds", "sec", "secs",
		"minute", "minutes", "min", "mins", "hour", "hours", "hr", "hrs", "day", "days", "week", "weeks",
		"byte", "bytes", "b", "kb", "kib", "mb", "mib", "gb", "gib", "tb", "tib", "kilobyte", "kilobytes",
		"megabyte", "megabytes", "gigabyte", "gigabytes", "terabyte", "terabytes", "kibibyte", "kibibytes",
		"mebibyte", "mebibytes", "gibibyte", "gibibytes":
		return true
	}
	return isCountNoun(l)
}

// isCountNoun reports the nouns a count literal may use ("100 entries").
func isCountNoun(w string) bool {
	switch w {
	case "entry", "entries", "item", "items", "retry", "retries", "attempt", "attempts", "times",
		"worker", "workers", "goroutine", "goroutines", "connection", "connections", "conns",
		"request", "requests", "element", "elements", "key", "keys", "value", "values", "line", "lines",
		"character", "characters", "chars", "rune", "runes", "file", "files", "record", "records",
		"row", "rows", "column", "columns", "result", "results", "token", "tokens", "message", "messages",
		"event", "events", "job", "jobs", "task", "tasks", "level", "levels", "digit", "digits",
		"object", "objects", "node", "nodes", "page", "pages", "hit", "hits", "thread", "threads",
		"slot", "slots", "bucket", "buckets", "shard", "shards", "replica", "replicas", "segment",
		"segments", "chunk", "chunks", "batch", "batches", "call", "calls", "iteration", "iterations",
		"step", "steps", "argument", "arguments", "args", "parameter", "parameters", "field", "fields",
		"claim", "claims", "verdict", "verdicts", "finding", "findings", "hop", "hops", "candidate",
		"candidates", "query", "queries", "document", "documents", "docs", "comment", "comments",
		"commit", "commits", "spaces", "tabs", "bits", "word", "words", "sentence", "sentences",
		"paragraph", "paragraphs", "section", "sections", "heading", "headings", "hunk", "hunks",
		"link", "links", "snippet", "snippets", "rule", "rules", "error", "errors", "warning", "warnings",
		"package", "packages", "module", "modules", "symbol", "symbols", "function", "functions",
		"method", "methods", "type", "types", "test", "tests", "example", "examples", "core", "cores",
		"cpu", "cpus", "processes", "user", "users", "client", "clients", "server", "servers", "host",
		"hosts", "port", "ports", "socket", "sockets", "peer", "peers", "subscriber", "subscribers",
		"listener", "listeners", "handler", "handlers", "callback", "callbacks", "channel", "channels",
		"lock", "locks", "copies", "version", "versions", "revision", "revisions":
		return true
	}
	return false
}

// WholeLiteral reports whether s as a whole is a number with a unit, and
// gives its value and canonical unit.
func WholeLiteral(s string) (float64, string, bool) {
	ls := Literals(s)
	if len(ls) == 1 && ls[0].Start == 0 && ls[0].End == len(s) {
		return ls[0].Value, ls[0].Unit, true
	}
	return 0, "", false
}

// compoundDuration parses Go durations with several units ("1h30m"),
// giving the value in the smallest unit written.
func compoundDuration(s string) (float64, string, bool) {
	d, err := time.ParseDuration(strings.NewReplacer("μs", "us", "µs", "us").Replace(s))
	if err != nil {
		return 0, "", false
	}
	smallest := "h"
	per := time.Hour
	for _, u := range []struct {
		suffix string
		unit   string
		d      time.Duration
	}{{"ns", "ns", time.Nanosecond}, {"us", "us", time.Microsecond}, {"µs", "us", time.Microsecond}, {"μs", "us", time.Microsecond}, {"ms", "ms", time.Millisecond}, {"s", "s", time.Second}, {"m", "m", time.Minute}} {
		if hasUnit(s, u.suffix) && u.d < per {
			smallest, per = u.unit, u.d
		}
	}
	return float64(d) / float64(per), smallest, true
}

// hasUnit reports whether the compound duration s uses unit u, a unit being
// the letters after a digit.
func hasUnit(s, u string) bool {
	for i := 0; i < len(s); {
		if s[i] >= '0' && s[i] <= '9' || s[i] == '.' {
			i++
			continue
		}
		j := i
		for j < len(s) && !(s[j] >= '0' && s[j] <= '9') {
			j++
		}
		if s[i:j] == u {
			return true
		}
		i = j
	}
	return false
}

// isDecade reports numbers such as 1990 that, followed by "s", name a
// decade rather than a duration.
func isDecade(num string) bool {
	return len(num) == 4 && (strings.HasPrefix(num, "19") || strings.HasPrefix(num, "20")) && num[3] == '0'
}

func parseNum(s string) float64 {
	v, err := strconv.ParseFloat(strings.ReplaceAll(s, ",", ""), 64)
	if err != nil {
		return 0
	}
	return v
}

// NumberWord returns the value of a lower-case number word: "one" is 1,
// "twenty" 20, "hundred" 100.
func NumberWord(w string) (float64, bool) {
	switch w {
	case "one":
		return 1, true
	case "two":
		return 2, true
	case "three":
		return 3, true
	case "four":
		return 4, true
	case "five":
		return 5, true
	case "six":
		return 6, true
	case "seven":
		return 7, true
	case "eight":
		return 8, true
	case "nine":
		return 9, true
	case "ten":
		return 10, true
	case "eleven":
		return 11, true
	case "twelve":
		return 12, true
	case "fifteen":
		return 15, true
	case "twenty":
		return 20, true
	case "thirty":
		return 30, true
	case "forty":
		return 40, true
	case "fifty":
		return 50, true
	case "sixty":
		return 60, true
	case "ninety":
		return 90, true
	case "hundred":
		return 100, true
	case "thousand":
		return 1000, true
	}
	return 0, false
}

// CanonUnit maps a unit as written to its canonical form: "s", "ms", "m",
// "h", "ns", "us", "d", "w" for durations, "b", "kb", "mb", "gb", "tb",
// "kib", "mib", "gib", "tib" for sizes, and the plural noun for counts.
// attached is true when the unit follows the number without a space.
func CanonUnit(u string, attached bool) (string, bool) {
	if u == "b" {
		return "", false // "5b" and "5 b" are not sizes; "B" is
	}
	if attached {
		switch u {
		case "M", "H", "S":
			return "", false
		case "k", "K":
			// "16k" of a buffer: a thousand or 1024 bytes, as "kb".
			return "kb", true
		}
	}
	l := strings.ToLower(u)
	switch l {
	case "ns", "nanosecond", "nanoseconds", "nanosec", "nanosecs":
		return "ns", true
	case "us", "µs", "μs", "microsecond", "microseconds":
		return "us", true
	case "ms", "millisecond", "milliseconds", "millis", "msec", "msecs":
		return "ms", true
	case "s", "second", "seconds", "sec", "secs":
		return "s", true
	case "m", "minute", "minutes", "min", "mins":
		return "m", true
	case "h", "hour", "hours", "hr", "hrs":
		return "h", true
	case "day", "days":
		return "d", true
	case "week", "weeks":
		return "w", true
	case "b", "byte", "bytes":
		return "b", true
	case "kb", "kilobyte", "kilobytes":
		return "kb", true
	case "mb", "megabyte", "megabytes":
		return "mb", true
	case "gb", "gigabyte", "gigabytes":
		return "gb", true
	case "tb", "terabyte", "terabytes":
		return "tb", true
	case "kib", "kibibyte", "kibibytes":
		return "kib", true
	case "mib", "mebibyte", "mebibytes":
		return "mib", true
	case "gib", "gibibyte", "gibibytes":
		return "gib", true
	case "tib":
		return "tib", true
	}
	return plural(l), true
}

// plural returns the plural of a count noun: "entry" -> "entries",
// "item" -> "items"; plurals are returned unchanged.
func plural(w string) string {
	switch w {
	case "times", "args", "chars", "conns", "docs", "spaces", "tabs", "bits", "processes", "batches", "copies", "queries", "entries", "retries":
		return w
	case "batch":
		return "batches"
	case "process":
		return "processes"
	}
	if strings.HasSuffix(w, "y") && len(w) > 1 && strings.IndexByte("aeiou", w[len(w)-2]) < 0 {
		return w[:len(w)-1] + "ies"
	}
	if strings.HasSuffix(w, "s") {
		return w
	}
	return w + "s"
}
