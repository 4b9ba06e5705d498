package completeness

import (
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/docreview/docreview/review/prose"
)

// Stated reports whether doc states f. The match is exact, on words and
// literals, never on meaning:
//
//   - param, result: the name as a whole word, case-sensitive ("n" in "the
//     first n bytes"; "s" also matches the English letter s, "a" the
//     article).
//   - error: the name as a whole word, with or without its package and
//     "*": "ErrNotFound", "[io.EOF]", "EOF", "`*SyntaxError`",
//     "SyntaxError" all state theirs.
//   - default: the substitute's name as a whole word (with or without its
//     package: "DefaultTTL", "[time.Second]", "Second"), or its value in
//     one of the renderings below.
//   - const: the constant's name as a whole word, or its value in one of
//     the renderings below.
//   - unit: a word of the unit, case-insensitive: "milliseconds",
//     "millisecond", "ms", "msec"; "seconds", "second", "sec", "secs";
//     "bytes", "byte"; "kilobytes", "KB", "kB"; "KiB"; and so on.
//   - panic: a word starting with "panic" in any case ("panics",
//     "panicking"); the condition is not required.
//   - blocks: "block", "blocks", "blocked", "blocking", "wait", "waits",
//     "waited", "waiting".
//   - goroutine: "goroutine", "goroutines", "concurrent", "concurrently",
//     "background".
//   - lock: "lock", "locks", "locked", "locking", "mutex", "mutexes",
//     "concurrent use", "concurrently", "synchronized" (any spelling in
//     -is-/-iz-), "thread-safe", "thread safe".
//   - deprecated: always stated.
//
// A literal value matches as written, not inside a longer number or word
// ("100" is not in "1000" nor in "100.5"). Its renderings: a string's text
// with or without its quotes; a number also with thousands separated by
// commas ("4,096"), a multiple of 1024 also in KiB, KB or K ("4 KiB",
// "4KiB", "4 KB", "4KB", "4K"), of 1<<20 in MiB, MB or M and of 1<<30 in
// GiB, GB or G, a power of two from 1024 also as a shift ("1<<20",
// "1 << 20"); a duration of one unit also in words ("30s": "30 seconds",
// "30 second", "30-second", "30 sec", "30 secs", "30 * time.Second",
// "30*time.Second"; "15m": "15 minutes", "15 min", "15-minute"; "1h":
// "1 hour"; "100ms": "100 milliseconds"), and a duration of several units
// only as written ("1h30m").
func Stated(doc string, f Fact) bool {
	switch f.Kind {
	case KindDeprecated:
		return true
	case KindParam, KindResult:
		return hasWord(doc, f.Name)
	case KindError:
		return namesIdent(doc, f.Name)
	case KindDefault, KindConst:
		if f.Name != "" && namesIdent(doc, f.Name) {
			return true
		}
		return f.Value != "" && hasValue(doc, f.Value)
	case KindUnit:
		unit, _ := prose.CanonUnit(f.Value, false)
		for _, w := range prose.UnitWords(unit) {
			if hasWordFold(doc, w) {
				return true
			}
		}
		return false
	case KindPanic:
		return panicRE.MatchString(doc)
	case KindBlocks:
		return blocksRE.MatchString(doc)
	case KindGoroutine:
		return goroutineRE.MatchString(doc)
	case KindLock:
		return lockRE.MatchString(doc)
	}
	return false
}

var (
	panicRE     = regexp.MustCompile(`(?i)\bpanic`)
	blocksRE    = regexp.MustCompile(`(?i)\b(?:block(?:s|ed|ing)?|wait(?:s|ed|ing)?)\b`)
	goroutineRE = regexp.MustCompile(`(?i)\b(?:goroutines?|concurrent(?:ly)?|background)\b`)
	lockRE      = regexp.MustCompile(`(?i)\b(?:lock(?:s|ed|ing)?|mutex(?:es)?|concurrent use|concurrently|synchroni[sz]ed|thread[- ]safe)\b`)
)

// namesIdent reports whether doc names the identifier name: as written,
// without a leading "*", or without its package qualifier.
func namesIdent(doc, name string) bool {
	name = strings.TrimPrefix(name, "*")
	if hasWord(doc, name) {
		return true
	}
	if i := strings.LastIndex(name, "."); i >= 0 {
		return hasWord(doc, name[i+1:])
	}
	return false
}

// isIdentByte reports whether c can continue an identifier or number.
func isIdentByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

// hasWord reports whether w occurs in s, case-sensitive, with no
// identifier character on either side where w itself starts or ends with
// one.
func hasWord(s, w string) bool {
	if w == "" {
		return false
	}
	for i := 0; ; {
		j := strings.Index(s[i:], w)
		if j < 0 {
			return false
		}
		start, end := i+j, i+j+len(w)
		if bounded(s, w, start, end) {
			return true
		}
		i = start + 1
	}
}

// bounded reports whether s[start:end] (holding w) stands alone: where w
// starts with an identifier character, none precedes it, and no '.' or
// digit-bearing decimal either; likewise at its end.
func bounded(s, w string, start, end int) bool {
	if isIdentByte(w[0]) && start > 0 {
		c := s[start-1]
		if isIdentByte(c) || isDigit(w[0]) && c == '.' && start > 1 && isDigit(s[start-2]) {
			return false
		}
	}
	if isIdentByte(w[len(w)-1]) && end < len(s) {
		c := s[end]
		if isIdentByte(c) || isDigit(w[len(w)-1]) && c == '.' && end+1 < len(s) && isDigit(s[end+1]) {
			return false
		}
	}
	return true
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// hasWordFold is hasWord ignoring case.
func hasWordFold(s, w string) bool {
	return hasWord(strings.ToLower(s), strings.ToLower(w))
}

// hasValue reports whether doc holds one of the renderings of a literal
// value.
func hasValue(doc, value string) bool {
	for _, r := range renderings(value) {
		if hasWord(doc, r) {
			return true
		}
	}
	return false
}

// durationUnits maps the unit suffixes of time.Duration's format to their
// words and time constants.
var durationUnits = []struct{ suffix, singular, short, constant string }{
	{"ms", "millisecond", "ms", "Millisecond"},
	{"µs", "microsecond", "µs", "Microsecond"},
	{"ns", "nanosecond", "ns", "Nanosecond"},
	{"s", "second", "sec", "Second"},
	{"m", "minute", "min", "Minute"},
	{"h", "hour", "hr", "Hour"},
}

// renderings lists the ways a doc may write a literal value; see [Stated].
func renderings(value string) []string {
	out := []string{value}
	if s, err := strconv.Unquote(value); err == nil {
		if s != "" {
			out = append(out, s)
		}
		return out
	}
	if n, err := strconv.ParseInt(value, 10, 64); err == nil {
		return append(out, intRenderings(n)...)
	}
	if _, err := time.ParseDuration(value); err == nil {
		for _, u := range durationUnits {
			num, ok := strings.CutSuffix(value, u.suffix)
			if !ok || num == "" || strings.IndexFunc(num, func(r rune) bool { return (r < '0' || r > '9') && r != '.' }) >= 0 {
				continue
			}
			plural := u.singular + "s"
			out = append(out, num+" "+plural, num+" "+u.singular, num+"-"+u.singular, num+" "+u.short,
				num+" * time."+u.constant, num+"*time."+u.constant)
			if u.short == "sec" || u.short == "min" {
				out = append(out, num+" "+u.short+"s")
			}
			break
		}
	}
	return out
}

// intRenderings lists the other ways to write the integer n.
func intRenderings(n int64) []string {
	var out []string
	if n >= 1000 || n <= -1000 {
		out = append(out, groupThousands(n))
	}
	for _, u := range []struct {
		size  int64
		units []string
	}{{1 << 30, []string{"GiB", "GB", "G"}}, {1 << 20, []string{"MiB", "MB", "M"}}, {1 << 10, []string{"KiB", "KB", "K", "kB"}}} {
		if n >= u.size && n%u.size == 0 {
			k := strconv.FormatInt(n/u.size, 10)
			for _, unit := range u.units {
				out = append(out, k+" "+unit, k+unit)
			}
			break
		}
	}
	if n >= 1024 && n&(n-1) == 0 {
		shift := 0
		for m := n; m > 1; m >>= 1 {
			shift++
		}
		out = append(out, "1<<"+strconv.Itoa(shift), "1 << "+strconv.Itoa(shift))
	}
	return out
}

// groupThousands writes n with commas between groups of three digits.
func groupThousands(n int64) string {
	s := strconv.FormatInt(n, 10)
	sign := ""
	if s[0] == '-' {
		sign, s = "-", s[1:]
	}
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return sign + b.String()
}
