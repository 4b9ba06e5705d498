package prose

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestSentences(t *testing.T) {
	tests := []struct {
		text string
		want []string
	}{
		{"Zero means the default, e.g. 5s. It is\nsafe! Really?\n\nNext paragraph",
			[]string{"Zero means the default, e.g. 5s.", "It is\nsafe!", "Really?", "Next paragraph"}},
		{"  One sentence without a stop  ", []string{"One sentence without a stop"}},
		{"Version 1.5 is out. Use it, i.e. now.", []string{"Version 1.5 is out.", "Use it, i.e. now."}},
		{"Compare a vs. b. Then stop.", []string{"Compare a vs. b.", "Then stop."}},
		{"Ends with a path like x.go. next", []string{"Ends with a path like x.go.", "next"}},
		{"", nil},
	}
	for _, tt := range tests {
		got := SplitSentences(tt.text)
		if len(got) == 0 {
			got = nil
		}
		if d := cmp.Diff(tt.want, got); d != "" {
			t.Errorf("SplitSentences(%q) (-want +got):\n%s", tt.text, d)
		}
		for i, sp := range Sentences(tt.text) {
			if tt.text[sp.Start:sp.End] != tt.want[i] {
				t.Errorf("Sentences(%q)[%d] = %q, want %q", tt.text, i, tt.text[sp.Start:sp.End], tt.want[i])
			}
		}
	}
}

func TestStartsSentence(t *testing.T) {
	text := "Open the file. Close it when done: Flush first.\n\nReset clears.\n- Item one"
	tests := []struct {
		word string
		want bool
	}{
		{"Open", true},
		{"Close", true},
		{"Flush", true}, // after a colon
		{"Reset", true}, // after a blank line
		{"Item", true},  // a list item
		{"file", false},
		{"done", false},
	}
	for _, tt := range tests {
		i := indexWord(text, tt.word)
		if got := StartsSentence(text, i); got != tt.want {
			t.Errorf("StartsSentence(%q) = %v, want %v", tt.word, got, tt.want)
		}
	}
}

func indexWord(text, w string) int {
	for i := 0; i+len(w) <= len(text); i++ {
		if text[i:i+len(w)] == w {
			return i
		}
	}
	return -1
}

func TestLiterals(t *testing.T) {
	tests := []struct {
		text string
		want []Literal
	}{
		{"waits 30s, then 1h30m", []Literal{{6, 9, 30, "s"}, {16, 21, 90, "m"}}},
		{"up to 10 MB or 4KiB", []Literal{{6, 11, 10, "mb"}, {15, 19, 4, "kib"}}},
		{"keeps 100 entries and three retries", []Literal{{6, 17, 100, "entries"}, {22, 35, 3, "retries"}}},
		{"about 50% of 1,000 items", []Literal{{6, 9, 50, "%"}, {13, 24, 1000, "items"}}},
		{"a 30-second timeout", []Literal{{2, 11, 30, "s"}}},
		{"in the 1990s; v1.2.3s; file 5s.go", nil}, // a decade, a version, a name
		{"5b is no size, 5 B is", []Literal{{15, 18, 5, "b"}}},
		{"keeps two hundred entries, twenty-five workers", []Literal{{6, 25, 200, "entries"}, {27, 46, 25, "workers"}}},
		{"retries for a minute, then waits half an hour", []Literal{{12, 20, 1, "m"}, {33, 45, 0.5, "h"}}},
		{"waits a second before a second call", []Literal{{6, 14, 1, "s"}}},
		{"a fraction of a second.", []Literal{{14, 22, 1, "s"}}},
		{"holds 2e6 entries", []Literal{{6, 17, 2e6, "entries"}}},
		{"a day in 1e3 ways", []Literal{{0, 5, 1, "d"}}},
		{"it's set to 16k by default, 32K at most", []Literal{{12, 15, 16, "kb"}, {28, 31, 32, "kb"}}},
	}
	for _, tt := range tests {
		got := Literals(tt.text)
		if d := cmp.Diff(tt.want, got); d != "" {
			t.Errorf("Literals(%q) (-want +got):\n%s", tt.text, d)
		}
	}
	if v, u, ok := WholeLiteral("250ms"); !ok || v != 250 || u != "ms" {
		t.Errorf(`WholeLiteral("250ms") = %v, %q, %v; want 250, "ms", true`, v, u, ok)
	}
	if _, _, ok := WholeLiteral("wait 250ms"); ok {
		t.Errorf(`WholeLiteral("wait 250ms") is a whole literal, want not`)
	}
}

func TestUnits(t *testing.T) {
	tests := []struct {
		written string
		canon   string
		dim     Dimension
		name    string
	}{
		{"milliseconds", "ms", Duration, "milliseconds"},
		{"µs", "us", Duration, "microseconds"},
		{"Minutes", "m", Duration, "minutes"},
		{"KiB", "kib", Size, "kibibytes"},
		{"megabytes", "mb", Size, "megabytes"},
		{"entry", "entries", Count, "entries"},
	}
	for _, tt := range tests {
		canon, ok := CanonUnit(tt.written, false)
		if !ok || canon != tt.canon {
			t.Errorf("CanonUnit(%q) = %q, %v; want %q", tt.written, canon, ok, tt.canon)
			continue
		}
		if d := DimensionOf(canon); d != tt.dim {
			t.Errorf("DimensionOf(%q) = %v, want %v", canon, d, tt.dim)
		}
		if n := UnitName(canon); n != tt.name {
			t.Errorf("UnitName(%q) = %q, want %q", canon, n, tt.name)
		}
	}
	if got := Nanoseconds("ms"); got != 1e6 {
		t.Errorf(`Nanoseconds("ms") = %v, want 1e6`, got)
	}
	if d := cmp.Diff([]float64{1e3, 1 << 10}, Bytes("kb")); d != "" {
		t.Errorf(`Bytes("kb") (-want +got):\n%s`, d)
	}
	if _, ok := CanonUnit("b", false); ok {
		t.Errorf(`CanonUnit("b") is a unit, want not: "5 b" is no size`)
	}
	if _, ok := CanonUnit("M", true); ok {
		t.Errorf(`CanonUnit("M", attached) is a unit, want not`)
	}
}

func TestNameUnit(t *testing.T) {
	tests := []struct {
		name  string
		unit  string
		whole bool
	}{
		{"timeoutMs", "ms", false},
		{"TimeoutMillis", "ms", false},
		{"size_kb", "kb", false},
		{"bufferMiB", "mib", false},
		{"seconds", "s", true},
		{"retryMins", "m", false},
		{"status", "", false},
		{"timeoutms", "", false}, // no word boundary
		{"Bonus", "", false},
	}
	for _, tt := range tests {
		unit, whole := NameUnit(tt.name)
		if unit != tt.unit || whole != tt.whole {
			t.Errorf("NameUnit(%q) = %q, %v; want %q, %v", tt.name, unit, whole, tt.unit, tt.whole)
		}
	}
}

func TestWords(t *testing.T) {
	tests := map[string][]string{
		"NewHTTPClient":  {"new", "http", "client"},
		"Store.Close":    {"store", "close"},
		"max_size":       {"max", "size"},
		"UTF8Decoder":    {"utf", "8", "decoder"},
		"ExampleStore_X": {"example", "store", "x"},
	}
	for in, want := range tests {
		if d := cmp.Diff(want, Words(in)); d != "" {
			t.Errorf("Words(%q) (-want +got):\n%s", in, d)
		}
	}
	if d := cmp.Diff([]string{"execute", "context"}, ExpandedWords("ExecuteCtx")); d != "" {
		t.Errorf("ExpandedWords(ExecuteCtx) (-want +got):\n%s", d)
	}
	if d := cmp.Diff([]string{"ctx"}, Alternatives("context")); d != "" {
		t.Errorf("Alternatives(context) (-want +got):\n%s", d)
	}
	if d := cmp.Diff([]string{"config"}, Alternatives("cfg")); d != "" {
		t.Errorf("Alternatives(cfg) (-want +got):\n%s", d)
	}
}

func TestNameSimilarity(t *testing.T) {
	tests := []struct {
		a, b string
		want float64
	}{
		{"ExecuteCtx", "ExecuteContext", 1},           // the same words once Ctx is expanded
		{"Relase", "Release", 1 - 1.0/7},              // one letter
		{"EncodeOptions", "IndexOptions", 1 - 4.0/13}, // closer by letters than by words (1 of 2)
		{"Open", "Close", 0.2},
		{"", "", 0},
	}
	for _, tt := range tests {
		if got := NameSimilarity(tt.a, tt.b); got < tt.want-1e-9 || got > tt.want+1e-9 {
			t.Errorf("NameSimilarity(%q, %q) = %.3f, want %.3f", tt.a, tt.b, got, tt.want)
		}
	}
	if d := EditDistance("abcd", "abdc"); d != 1 {
		t.Errorf("EditDistance(abcd, abdc) = %d, want 1 (a transposition)", d)
	}
}

func TestCodeShaped(t *testing.T) {
	tests := []struct {
		word string
		call bool
		want bool
	}{
		{"setupEdgeField", false, true},
		{"typeCheckImpl", false, true},
		{"MaxTableSize", false, true},
		{"RunSlackEventLoop", false, true},
		{"ErrorWithLocation", false, true},
		{"Close", true, true},
		{"NewError", false, true},    // a constructor's shape
		{"WithBuilder", false, true}, // a functional option's
		{"Newton", false, false},
		{"IsEmpty", false, true},
		{"Issue", false, false},
		{"MoreHelp", false, false}, // two words: as likely a product name
		{"GitHub", false, false},
		{"PostgreSQL", false, false},
		{"iPhone", false, false},
		{"gRPC", false, false},
		{"macOS", false, false},
		{"userID", false, false},
		{"HTTPServer", false, false},
		{"pkg.Name", false, false},
	}
	for _, tt := range tests {
		if got := CodeShaped(tt.word, tt.call); got != tt.want {
			t.Errorf("CodeShaped(%q, %v) = %v, want %v", tt.word, tt.call, got, tt.want)
		}
	}
}

func TestDocLinks(t *testing.T) {
	text := "See [Store.Get], [*Cache], [io.Reader] and [golang.org/x/mod/module.Version].\n" +
		"Not [a link](url), not x[0], not [x], not [two words], not ![img]."
	var got []string
	for _, l := range DocLinks(text) {
		got = append(got, l.Name)
		if text[l.Span.Start] != '[' || text[l.Span.End-1] != ']' {
			t.Errorf("span of %s is %q, want the bracketed link", l.Name, text[l.Span.Start:l.Span.End])
		}
	}
	want := []string{"Store.Get", "Cache", "io.Reader", "golang.org/x/mod/module.Version"}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("DocLinks (-want +got):\n%s", d)
	}
}
