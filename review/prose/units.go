package prose

import "strings"

// Dimension is what a canonical unit measures.
type Dimension int

// The dimensions of units.
const (
	// Dimensionless is no unit at all, or a percentage.
	Dimensionless Dimension = iota
	// Duration is a unit of time: "ns" to "w".
	Duration
	// Size is a unit of bytes: "b", "kb", "kib" and up.
	Size
	// Count is a plural noun counted: "entries", "retries".
	Count
)

// nanoseconds gives the nanoseconds of each canonical duration unit.
var nanoseconds = map[string]float64{
	"ns": 1, "us": 1e3, "ms": 1e6, "s": 1e9, "m": 60e9, "h": 3600e9, "d": 86400e9, "w": 7 * 86400e9,
}

// bytesPer gives the bytes of each canonical size unit; the decimal
// prefixes also stand for the binary ones, as people write them.
var bytesPer = map[string][]float64{
	"b": {1}, "kb": {1e3, 1 << 10}, "mb": {1e6, 1 << 20}, "gb": {1e9, 1 << 30}, "tb": {1e12, 1 << 40},
	"kib": {1 << 10}, "mib": {1 << 20}, "gib": {1 << 30}, "tib": {1 << 40},
}

// DimensionOf returns what the canonical unit ([CanonUnit]) measures.
func DimensionOf(unit string) Dimension {
	if _, ok := nanoseconds[unit]; ok {
		return Duration
	}
	if _, ok := bytesPer[unit]; ok {
		return Size
	}
	if unit == "" || unit == "%" {
		return Dimensionless
	}
	return Count
}

// Nanoseconds returns the nanoseconds of a canonical duration unit: 1e9
// for "s"; 0 for a unit of another dimension.
func Nanoseconds(unit string) float64 { return nanoseconds[unit] }

// Bytes returns the bytes a canonical size unit may stand for: {1000,
// 1024} for "kb", {1024} for "kib"; nil for a unit of another dimension.
func Bytes(unit string) []float64 { return bytesPer[unit] }

// unitNames gives, per canonical unit, its name in words and the words
// that state it in prose.
var unitNames = map[string]struct {
	name  string
	words []string
}{
	"ns":  {"nanoseconds", []string{"nanoseconds", "nanosecond", "ns", "nsec"}},
	"us":  {"microseconds", []string{"microseconds", "microsecond", "µs", "us", "usec"}},
	"ms":  {"milliseconds", []string{"milliseconds", "millisecond", "ms", "msec"}},
	"s":   {"seconds", []string{"seconds", "second", "sec", "secs"}},
	"m":   {"minutes", []string{"minutes", "minute", "min", "mins"}},
	"h":   {"hours", []string{"hours", "hour"}},
	"b":   {"bytes", []string{"bytes", "byte"}},
	"kb":  {"kilobytes", []string{"kilobytes", "kilobyte", "kb"}},
	"kib": {"kibibytes", []string{"kibibytes", "kibibyte", "kib"}},
	"mb":  {"megabytes", []string{"megabytes", "megabyte", "mb"}},
	"mib": {"mebibytes", []string{"mebibytes", "mebibyte", "mib"}},
	"gb":  {"gigabytes", []string{"gigabytes", "gigabyte", "gb"}},
	"gib": {"gibibytes", []string{"gibibytes", "gibibyte", "gib"}},
}

// UnitName returns a canonical unit in words: "milliseconds" for "ms";
// the unit itself when it has no name.
func UnitName(unit string) string {
	if n, ok := unitNames[unit]; ok {
		return n.name
	}
	return unit
}

// UnitWords returns the words that state a canonical unit in prose,
// lower-case ("ms": milliseconds, millisecond, ms, msec).
func UnitWords(unit string) []string { return unitNames[unit].words }

// nameUnitSuffixes lists the unit words a Go name may end with, longest
// first within each unit.
var nameUnitSuffixes = []struct{ suffix, unit string }{
	{"milliseconds", "ms"}, {"millis", "ms"}, {"msec", "ms"}, {"ms", "ms"},
	{"microseconds", "us"}, {"micros", "us"}, {"usec", "us"}, {"us", "us"},
	{"nanoseconds", "ns"}, {"nanos", "ns"}, {"nsec", "ns"}, {"ns", "ns"},
	{"seconds", "s"}, {"secs", "s"}, {"sec", "s"},
	{"minutes", "m"}, {"mins", "m"},
	{"hours", "h"},
	{"bytes", "b"},
	{"kib", "kib"}, {"kb", "kb"},
	{"mib", "mib"}, {"mb", "mb"},
	{"gib", "gib"}, {"gb", "gb"},
}

// NameUnit returns the canonical unit a Go name carries ("timeoutMs" gives
// "ms", "size_kb" "kb", "bufferMiB" "mib", "seconds" "s") and whether
// the unit word is the whole name; "" when it carries none. The unit word
// must be the whole name, follow an underscore, or start with a capital
// letter after a lower-case one or a digit: "status" carries no unit.
func NameUnit(name string) (unit string, whole bool) {
	lower := strings.ToLower(name)
	for _, u := range nameUnitSuffixes {
		if !strings.HasSuffix(lower, u.suffix) {
			continue
		}
		i := len(name) - len(u.suffix)
		switch {
		case i == 0:
			return u.unit, true
		case name[i-1] == '_':
			return u.unit, false
		case name[i] >= 'A' && name[i] <= 'Z' && (name[i-1] >= 'a' && name[i-1] <= 'z' || name[i-1] >= '0' && name[i-1] <= '9'):
			return u.unit, false
		}
	}
	return "", false
}
