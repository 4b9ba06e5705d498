package rules

import (
	"testing"

	"github.com/docreview/docreview/review"
)

// TestLiteralTable: a Markdown table with a Default column gives the
// default of the field its first column names.
func TestLiteralTable(t *testing.T) {
	ws := loadWorkspace(t, "literaltable")
	rule := &LiteralMismatch{}
	at := func(s, why string) []ev {
		l := lineOf(t, ws, "config.go", s)
		return []ev{{"config.go", l, l, review.SourceCode, why}}
	}
	tests := []struct {
		name string
		row  string // the row of README.md containing this
		want *want
	}{
		{name: "default that agrees, through a constant", row: "| BodyLimit | `int`"},
		{name: "count expression", row: "| Concurrency |", want: &want{
			label:      review.Contradicted,
			message:    "The table gives `256 * 1000` as the default of Config.Concurrency, but the code sets c.Concurrency = 256 * 1024 (262144).",
			suggestion: "| Concurrency | `int` | Connections at once. | `256 * 1024` |",
			evidence:   at("c.Concurrency = 256", "c.Concurrency = 256 * 1024"),
		}},
		{name: "duration expression", row: "| Idle | `time.Duration` | Idle timeout. |", want: &want{
			label:      review.Contradicted,
			message:    "The table gives `10 * time.Minute` as the default of Config.Idle, but the code sets c.Idle = 5 * time.Minute (5m0s).",
			suggestion: "| Idle | `time.Duration` | Idle timeout. | `5 * time.Minute` |",
			evidence:   at("c.Idle = 5", "c.Idle = 5 * time.Minute"),
		}},
		// Code normalises strings and compares some without case: a
		// different spelling is not reported.
		{name: "string", row: "| SameSite |"},
		{name: "no default in the code", row: "| Strict |"},
		{name: "no default in the code, the field's doc gives another", row: "| Secure |", want: &want{
			label:      review.Contradicted,
			message:    "The table gives `false` as the default of Config.Secure, but the field's own doc gives true.",
			suggestion: "| Secure | `bool` | Secure cookies. | `true` |",
			evidence:   []ev{{"config.go", lineOf(t, ws, "config.go", "Secure marks"), lineOf(t, ws, "config.go", "Default: true"), review.SourceDoc, "Config.Secure's doc: Default true"}},
		}},
		{name: "a number against the field's doc", row: "| Retries |", want: &want{
			label:      review.Contradicted,
			message:    "The table gives 4 as the default of Config.Retries, but the field's own doc gives 3.",
			suggestion: "| Retries | `int` | Retries of a request. | 3 |",
			evidence:   []ev{{"config.go", lineOf(t, ws, "config.go", "Retries is how"), lineOf(t, ws, "config.go", "Default: 3"), review.SourceDoc, "Config.Retries's doc: Default 3"}},
		}},
		{name: "a string against the field's doc", row: "| Mode |"},
		{name: "not a field", row: "| Missing |"},
		{name: "size with a unit that agrees", row: "| Buffer |"},
		{name: "duration with a unit that agrees", row: "| `Idle` |"},
		{name: "table without a default column", row: "| BodyLimit | `5` |"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := mdClaim(t, ws, "README.md", tt.row)
			got, err := rule.Judge(t.Context(), ws, c)
			if err != nil {
				t.Fatal(err)
			}
			checkVerdict(t, rule, got, tt.want)
		})
	}
}

// TestLiteralFieldExpr: a field doc giving its default as a Go constant
// expression, a quoted string or a bool ("Optional. Default: 5 *
// time.Minute"), against a default var's composite literal and the
// fallback that copies from it.
func TestLiteralFieldExpr(t *testing.T) {
	ws := loadWorkspace(t, "literaltable")
	rule := &LiteralMismatch{}
	at := func(s, why string) []ev {
		l := lineOf(t, ws, "cache.go", s)
		return []ev{{"cache.go", l, l, review.SourceCode, why}}
	}
	tests := []struct {
		symbol string
		want   *want
	}{
		{symbol: "CacheConfig.Expiration", want: &want{
			label:      review.Contradicted,
			message:    "The doc gives 5 * time.Minute as the default of CacheConfig.Expiration, but the code sets CacheDefault.Expiration = 1 * time.Minute (1m0s).",
			suggestion: "Expiration is how long a response lives.\n\nOptional. Default: 1 * time.Minute",
			evidence:   at("Expiration: 1 * time.Minute", "Expiration: 1 * time.Minute"),
		}},
		{symbol: "CacheConfig.Control"},
		{symbol: "CacheConfig.Key", want: &want{
			label:      review.Contradicted,
			message:    `The doc gives "cache" as the default of CacheConfig.Key, but the code sets CacheDefault.Key = "store".`,
			suggestion: "Key names the cache.\n\nOptional. Default: \"store\"",
			evidence:   at(`Key:        "store",`, `Key: "store"`),
		}},
		{symbol: "CacheConfig.Size"},
		{symbol: "CacheConfig.Hook"},
	}
	for _, tt := range tests {
		t.Run(tt.symbol, func(t *testing.T) {
			c := goClaim(t, ws, "cache.go", tt.symbol)
			got, err := rule.Judge(t.Context(), ws, c)
			if err != nil {
				t.Fatal(err)
			}
			checkVerdict(t, rule, got, tt.want)
		})
	}
}
