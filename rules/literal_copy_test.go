package rules

import (
	"testing"

	"github.com/docreview/docreview/review"
)

// TestLiteralDeclCopy: a Markdown copy of a package's config struct or
// default var, against the package's own declarations.
func TestLiteralDeclCopy(t *testing.T) {
	ws := loadWorkspace(t, "declcopy")
	ws.Scope = review.ScopeAll
	rule := &LiteralMismatch{}
	at := func(s, why string) []ev {
		l := lineOf(t, ws, "cache/cache.go", s)
		return []ev{{"cache/cache.go", l, l, review.SourceCode, why}}
	}
	tests := []struct {
		name string
		path string
		line string // a line of the claim's code block
		want *want
	}{
		{name: "field doc of a copied struct", path: "cache/README.md", line: "Optional. Default: 5 * time.Minute", want: &want{
			label:      review.Contradicted,
			message:    "This copy of Config gives 5 * time.Minute as the default of Config.Expiration, but the code sets ConfigDefault.Expiration = 1 * time.Minute (1m0s).",
			suggestion: "// Config defines the config for the middleware.\ntype Config struct {\n\t// Expiration is how long a cached response lives.\n\t//\n\t// Optional. Default: 1 * time.Minute\n\tExpiration time.Duration\n\n\t// CacheControl enables client side caching.\n\t//\n\t// Optional. Default: false\n\tCacheControl bool\n}",
			evidence:   at("Expiration:   1 * time.Minute", "Expiration: 1 * time.Minute"),
		}},
		{name: "field of a copied default var", path: "cache/README.md", line: "CacheControl: true,\n\tMaxBytes", want: &want{
			label:      review.Contradicted,
			message:    "This copy of ConfigDefault gives true as the default of ConfigDefault.CacheControl, but the code sets ConfigDefault.CacheControl = false.",
			suggestion: "// ConfigDefault is the default config.\nvar ConfigDefault = Config{\n\tExpiration:   1 * time.Minute,\n\tCacheControl: false,\n\tMaxBytes:     1 << 20,\n}",
			evidence:   at("CacheControl: false,", "CacheControl: false"),
		}},
		{name: "a copied field doc against the field's own doc", path: "cache/README.md", line: "CookieSameSite string", want: &want{
			label:      review.Contradicted,
			message:    `This copy of Config gives false as the default of Config.CookieSameSite, but the field's own doc gives "Lax".`,
			suggestion: "type Config struct {\n\t// CookieSecure marks the cookie secure.\n\t//\n\t// Optional. Default value false.\n\tCookieSecure bool\n\n\t// CookieSameSite is the cookie's SameSite attribute.\n\t//\n\t// Optional. Default value \"Lax\".\n\tCookieSameSite string\n}",
			evidence:   []ev{{"cache/cache.go", lineOf(t, ws, "cache/cache.go", "CookieSameSite is the"), lineOf(t, ws, "cache/cache.go", `Default value "Lax"`), review.SourceDoc, `Config.CookieSameSite's doc: Default "Lax"`}},
		}},
		{name: "a copied number against the field's own doc", path: "cache/README.md", line: "Optional. Default: 5\n", want: &want{
			label:      review.Contradicted,
			message:    "This copy of Config gives 5 as the default of Config.Retries, but the field's own doc gives 3.",
			suggestion: "type Config struct {\n\t// Retries is how often a write is retried.\n\t//\n\t// Optional. Default: 3\n\tRetries int\n\n\t// Prefix is the key prefix.\n\t//\n\t// Optional. Default: \"c_\"\n\tPrefix string\n}",
			evidence:   []ev{{"cache/cache.go", lineOf(t, ws, "cache/cache.go", "Retries is how"), lineOf(t, ws, "cache/cache.go", "Optional. Default: 3"), review.SourceDoc, "Config.Retries's doc: Default 3"}},
		}},
		{name: "two strings are not compared", path: "cache/README.md", line: "Prefix is put before every key."},
		{name: "a size in another unit that agrees, and a string", path: "cache/README.md", line: "Optional. Default: 1 MiB"},
		{name: "a usage example is no copy", path: "cache/README.md", line: "Expiration:   30 * time.Minute,"},
		{name: "a var the package gives no composite literal", path: "cache/README.md", line: "var ConfigDefault = myDefaults()"},
		{name: "a var the package does not declare", path: "cache/README.md", line: "var myDefaults = Config{"},
		{name: "a struct the package declares as an interface", path: "cache/README.md", line: "Size is the store's size."},
		{name: "a copy in a file no package is named after", path: "docs/README.md", line: "Expiration: 2 * time.Minute,"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := mdClaim(t, ws, tt.path, tt.line)
			got, err := rule.Judge(t.Context(), ws, c)
			if err != nil {
				t.Fatal(err)
			}
			checkVerdict(t, rule, got, tt.want)
		})
	}
}

// TestNamedDocPackage: a Markdown file outside every package, named after
// one (docs/cache.md), is read from inside that package.
func TestNamedDocPackage(t *testing.T) {
	ws := loadWorkspace(t, "declcopy")
	ws.Scope = review.ScopeAll
	c := mdClaim(t, ws, "docs/cache.md", "MaxBytes:   2 << 20,")
	if p := namedDocPackage(ws, c); p == nil || p.Dir != "cache" {
		t.Fatalf("namedDocPackage = %v, want the package in cache", p)
	}
	lit := &LiteralMismatch{}
	got, err := lit.Judge(t.Context(), ws, c)
	if err != nil {
		t.Fatal(err)
	}
	l := lineOf(t, ws, "cache/cache.go", "MaxBytes:     1 << 20,")
	checkVerdict(t, lit, got, &want{
		label:      review.Contradicted,
		message:    "This copy of ConfigDefault gives 2 << 20 as the default of ConfigDefault.MaxBytes, but the code sets ConfigDefault.MaxBytes = 1 << 20 (1048576).",
		suggestion: "var ConfigDefault = Config{\n\tExpiration: 1 * time.Minute,\n\tMaxBytes:   1 << 20,\n}",
		evidence:   []ev{{"cache/cache.go", l, l, review.SourceCode, "MaxBytes: 1 << 20"}},
	})
	// The block lists the package's own declaration: checked from the
	// module root, Config would be unknown.
	snip := &GoSnippet{}
	if got, err := snip.Judge(t.Context(), ws, c); err != nil || got != nil {
		t.Errorf("go-snippet: %v, %v; want no verdict", got, err)
	}
	other := mdClaim(t, ws, "docs/README.md", "Expiration: 2 * time.Minute,")
	if p := namedDocPackage(ws, other); p != nil {
		t.Errorf("namedDocPackage(docs/README.md) = %s, want none", p.Dir)
	}
}
