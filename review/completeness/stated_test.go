package completeness

import (
	"testing"
	"time"
)

func TestStated(t *testing.T) {
	tests := []struct {
		name string
		doc  string
		fact Fact
		want bool
	}{
		{"param as a word", "Index returns the index of substr in s.", Fact{Kind: KindParam, Name: "substr"}, true},
		{"param inside a longer word", "Index returns the substring.", Fact{Kind: KindParam, Name: "substr"}, false},
		{"param in backticks", "Reads `n` bytes.", Fact{Kind: KindParam, Name: "n"}, true},
		{"param is case-sensitive", "N bytes are read.", Fact{Kind: KindParam, Name: "n"}, false},
		{"result named", "It returns the count n.", Fact{Kind: KindResult, Name: "n"}, true},
		{"result absent", "It returns the count.", Fact{Kind: KindResult, Name: "n"}, false},
		{"sentinel", "It returns ErrNotFound when absent.", Fact{Kind: KindError, Name: "ErrNotFound"}, true},
		{"sentinel doc link", "It returns [ErrNotFound].", Fact{Kind: KindError, Name: "ErrNotFound"}, true},
		{"sentinel prefix only", "It returns ErrNotFoundYet.", Fact{Kind: KindError, Name: "ErrNotFound"}, false},
		{"qualified sentinel by its name", "At the end it returns EOF.", Fact{Kind: KindError, Name: "io.EOF"}, true},
		{"qualified sentinel link", "It returns [io.EOF].", Fact{Kind: KindError, Name: "io.EOF"}, true},
		{"error words are not the name", "It returns an error at the end of input.", Fact{Kind: KindError, Name: "io.EOF"}, false},
		{"typed error with star", "Errors are of type *SyntaxError.", Fact{Kind: KindError, Name: "*SyntaxError"}, true},
		{"typed error qualified", "It returns a *PathError.", Fact{Kind: KindError, Name: "*fs.PathError"}, true},
		{"typed error in words only", "It returns a syntax error.", Fact{Kind: KindError, Name: "*SyntaxError"}, false},
		{"panic word", "It panics if n is negative.", Fact{Kind: KindPanic, Name: "panic", Cond: "n < 0"}, true},
		{"panic capitalised", "Panic: when n < 0.", Fact{Kind: KindPanic, Name: "panic"}, true},
		{"no panic word", "n must not be negative.", Fact{Kind: KindPanic, Name: "panic"}, false},
		{"default by name", "A zero ttl means DefaultTTL.", Fact{Kind: KindDefault, Name: "DefaultTTL", Value: "5m"}, true},
		{"default by value", "A zero ttl means five minutes, 5m.", Fact{Kind: KindDefault, Name: "DefaultTTL", Value: "5m"}, true},
		{"default duration in words", "Entries live 5 minutes by default.", Fact{Kind: KindDefault, Name: "DefaultTTL", Value: "5m"}, true},
		{"default duration hyphenated", "A 30-second timeout applies.", Fact{Kind: KindDefault, Value: "30s"}, true},
		{"default duration expression", "It waits 30 * time.Second.", Fact{Kind: KindDefault, Value: "30s"}, true},
		{"default word only", "A zero ttl picks a default.", Fact{Kind: KindDefault, Name: "DefaultTTL", Value: "5m"}, false},
		{"default literal", "A zero size means 4096 bytes.", Fact{Kind: KindDefault, Value: "4096"}, true},
		{"default literal grouped", "A zero size means 4,096 bytes.", Fact{Kind: KindDefault, Value: "4096"}, true},
		{"default literal in KiB", "A zero size means 4 KiB.", Fact{Kind: KindDefault, Value: "4096"}, true},
		{"default literal inside a longer number", "A zero size means 40960 bytes.", Fact{Kind: KindDefault, Value: "4096"}, false},
		{"default string literal", `An empty charset means utf-8.`, Fact{Kind: KindDefault, Value: `"utf-8"`}, true},
		{"default string absent", `An empty charset means latin-1.`, Fact{Kind: KindDefault, Value: `"utf-8"`}, false},
		{"const by name", "At most maxRetries attempts.", Fact{Kind: KindConst, Name: "maxRetries", Value: "5"}, true},
		{"const by value", "At most 5 attempts.", Fact{Kind: KindConst, Name: "maxRetries", Value: "5"}, true},
		{"const value not in a decimal", "At most 2.5 attempts.", Fact{Kind: KindConst, Name: "maxRetries", Value: "5"}, false},
		{"const by shift", "Lines up to 1<<20 bytes.", Fact{Kind: KindConst, Name: "maxLine", Value: "1048576"}, true},
		{"const in MiB", "Lines up to 1 MiB.", Fact{Kind: KindConst, Name: "maxLine", Value: "1048576"}, true},
		{"const missing", "Lines may be long.", Fact{Kind: KindConst, Name: "maxLine", Value: "1048576"}, false},
		{"unit word", "It waits timeoutMs milliseconds.", Fact{Kind: KindUnit, Name: "timeoutMs", Value: "milliseconds"}, true},
		{"unit abbreviation", "The timeout, in ms.", Fact{Kind: KindUnit, Name: "timeoutMs", Value: "milliseconds"}, true},
		{"unit name only", "It waits timeoutMs.", Fact{Kind: KindUnit, Name: "timeoutMs", Value: "milliseconds"}, false},
		{"unit KB", "Grows to sizeKB KB.", Fact{Kind: KindUnit, Name: "sizeKB", Value: "kilobytes"}, true},
		{"blocks", "Close blocks until the worker stops.", Fact{Kind: KindBlocks, Name: "channel send"}, true},
		{"waits", "Close waits for the worker.", Fact{Kind: KindBlocks, Name: "channel send"}, true},
		{"blocks unsaid", "Close stops the worker.", Fact{Kind: KindBlocks, Name: "channel send"}, false},
		{"goroutine", "Watch starts a goroutine.", Fact{Kind: KindGoroutine}, true},
		{"background", "Watch refreshes in the background.", Fact{Kind: KindGoroutine}, true},
		{"goroutine unsaid", "Watch refreshes the entries.", Fact{Kind: KindGoroutine}, false},
		{"lock safe for concurrent use", "Set is safe for concurrent use.", Fact{Kind: KindLock, Name: "c.mu"}, true},
		{"lock word", "Set locks the cache.", Fact{Kind: KindLock, Name: "c.mu"}, true},
		{"unlock is not lock", "Set stores the value; callers unlock it.", Fact{Kind: KindLock, Name: "c.mu"}, false},
		{"deprecated", "", Fact{Kind: KindDeprecated, Name: "Purge"}, true},
		{"unknown kind", "anything", Fact{Kind: "other", Name: "x"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Stated(tt.doc, tt.fact); got != tt.want {
				t.Errorf("Stated(%q, %+v) = %v, want %v", tt.doc, tt.fact, got, tt.want)
			}
		})
	}
}

func TestUnitOf(t *testing.T) {
	tests := map[string]string{
		"timeoutMs": "milliseconds", "seconds": "seconds", "size_kb": "kilobytes", "bufferMB": "megabytes",
		"maxBytes": "bytes", "delayNs": "nanoseconds", "status": "", "items": "", "ms": "milliseconds",
		"size": "", "timeout": "", "bonus": "", "limitMiB": "mebibytes",
	}
	for name, want := range tests {
		if got := unitOf(name); got != want {
			t.Errorf("unitOf(%q) = %q, want %q", name, got, want)
		}
	}
}

func TestDurationString(t *testing.T) {
	for in, want := range map[string]string{"30s": "30s", "15m0s": "15m", "1h0m0s": "1h", "1h30m0s": "1h30m", "100ms": "100ms"} {
		d, err := time.ParseDuration(in)
		if err != nil {
			t.Fatal(err)
		}
		if got := durationString(d); got != want {
			t.Errorf("durationString(%s) = %q, want %q", in, got, want)
		}
	}
}
