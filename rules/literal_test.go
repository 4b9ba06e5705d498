package rules

import (
	"slices"
	"testing"

	"github.com/docreview/docreview/review"
)

func TestLiteralMismatch(t *testing.T) {
	ws := loadWorkspace(t, "literal")
	rule := &LiteralMismatch{}
	at := func(s, why string) []ev {
		l := lineOf(t, ws, "cache.go", s)
		return []ev{{"cache.go", l, l, review.SourceCode, why}}
	}
	tests := []struct {
		name   string
		symbol string // a doc comment of cache.go
		md     string // else a claim of README.md containing this
		want   *want
	}{{
		name:   "const named before a parenthesised literal",
		symbol: "DefaultTTL",
		want: &want{
			label:      review.Contradicted,
			message:    "The doc gives 15 minutes for DefaultTTL, but DefaultTTL is 10 * time.Minute (10m0s).",
			suggestion: "DefaultTTL is how long an entry lives when [Options.TTL] is zero\n(10 minutes).",
			evidence:   at("const DefaultTTL =", "DefaultTTL = 10 * time.Minute"),
		},
	}, {
		name:   "quoted default string another constant string contradicts",
		symbol: "Cookie.Name",
		want: &want{
			label:      review.Contradicted,
			message:    `The doc gives "session" as the default of Cookie.Name, but the code sets CookieDefault.Name = "sid".`,
			suggestion: "Name of the cookie.\nOptional. Default value \"sid\".",
			evidence:   at("var CookieDefault =", `Name: "sid"`),
		},
	}, {
		name:   "quoted default string the code holds",
		symbol: "Cookie.Path",
	}, {
		name:   "quoted default string written with Go's escapes",
		symbol: "Cookie.Escape",
	}, {
		name:   "number after Default value",
		symbol: "Cookie.MaxAge",
		want: &want{
			label:      review.Contradicted,
			message:    "The doc gives 3600 for Cookie.MaxAge, but the code sets CookieDefault.MaxAge = 86400.",
			suggestion: "MaxAge is the cookie's lifetime in seconds.\nOptional. Default value 86400.",
			evidence:   at("var CookieDefault =", "MaxAge: 86400"),
		},
	}, {
		name:   "count after at most",
		symbol: "MaxEntries",
		want: &want{
			label:      review.Contradicted,
			message:    "The doc gives 100 entries for MaxEntries, but MaxEntries is 50.",
			suggestion: "MaxEntries bounds a cache: it holds at most 50 entries.",
			evidence:   at("const MaxEntries =", "MaxEntries = 50"),
		},
	}, {
		name:   "size in MiB against a shift",
		symbol: "MaxValueSize",
		want: &want{
			label:      review.Contradicted,
			message:    "The doc gives 2 MiB for MaxValueSize, but MaxValueSize is 1 << 20 (1048576 bytes).",
			suggestion: "MaxValueSize is the largest value a cache stores (1 MiB).",
			evidence:   at("const MaxValueSize =", "MaxValueSize = 1 << 20"),
		},
	}, {
		// 15 classes of buffers from 4 KiB lead to 64 MiB; neither is a
		// byte count the constant holds.
		name:   "size beside a constant that counts",
		symbol: "bufClasses",
	}, {
		// dynamic-ssz: 64 KiB is the operand the count of 4-byte
		// entries divides.
		name:   "size of an operand of the constant",
		symbol: "maxPooledOffsets",
	}, {
		name:   "size beside a shift's bits",
		symbol: "minBufBits",
	}, {
		name:   "integer constant whose name gives the unit",
		symbol: "RetryDelayMs",
		want: &want{
			label:      review.Contradicted,
			message:    "The doc gives 250 milliseconds for RetryDelayMs, but RetryDelayMs is 500 (500ms).",
			suggestion: "RetryDelayMs is the default pause between retries: 500 milliseconds.",
			evidence:   at("const RetryDelayMs =", "RetryDelayMs = 500"),
		},
	}, {
		name:   "field default from a zero-value fallback",
		symbol: "Options.Timeout",
		want: &want{
			label:      review.Contradicted,
			message:    "The doc gives 5s for Options.Timeout, but the code sets opts.Timeout = 2 * time.Second (2s).",
			suggestion: "Timeout bounds a load. It defaults to 2s.",
			evidence:   at("opts.Timeout = 2", "opts.Timeout = 2 * time.Second"),
		},
	}, {
		name:   "a percentage against the fraction beside a negative sentinel",
		symbol: "Expiry.Window",
		want: &want{
			label:      review.Contradicted,
			message:    "The doc gives 8% for Expiry.Window, but defaultWindow is 0.8 (80%).",
			suggestion: "Window is how long before the expiration credentials are\nrefreshed, as a share of their lifetime. The default is 80% of the\nlifetime.",
			evidence:   at("const defaultWindow =", "defaultWindow = 0.8"),
		},
	}, {
		name:   "a percentage that agrees with the fraction",
		symbol: "Expiry.Slack",
	}, {
		name:   "field count default",
		symbol: "Options.Workers",
		want: &want{
			label:      review.Contradicted,
			message:    "The doc gives 8 workers for Options.Workers, but the code sets opts.Workers = 4.",
			suggestion: "Workers is how many loads run at once. By default, 4 workers.",
			evidence:   at("opts.Workers = 4", "opts.Workers = 4"),
		},
	}, {
		name:   "field default scaled from another field's default",
		symbol: "Options.Refresh",
		want: &want{
			label:      review.Contradicted,
			message:    "The doc gives 5s for Options.Refresh, but the code sets opts.Refresh = opts.Timeout / 2 (1s).",
			suggestion: "Refresh is how often a loaded entry is refreshed. Default value is 1s.",
			evidence:   at("opts.Refresh = opts.Timeout / 2", "opts.Refresh = opts.Timeout / 2, with Timeout's default 2 * time.Second"),
		},
	}, {
		name:   "true field default scaled from another field's default",
		symbol: "Options.Grace",
	}, {
		// Idle's default is computed at run time, so Linger's is unknown.
		name:   "field default scaled from a computed default",
		symbol: "Options.Linger",
	}, {
		// 0770 is octal, as Go reads it: 0o770.
		name:   "file mode written in octal",
		symbol: "Options.Mode",
	}, {
		name: "Markdown naming the const",
		md:   "`DefaultTTL` is 30 minutes",
		want: &want{
			label:      review.Contradicted,
			message:    "The doc gives 30 minutes for DefaultTTL, but DefaultTTL is 10 * time.Minute (10m0s).",
			suggestion: "`DefaultTTL` is 10 minutes unless you set `Options.TTL`.",
			evidence:   at("const DefaultTTL =", "DefaultTTL = 10 * time.Minute"),
		},
	}, {
		name: "Markdown naming a field with a default",
		md:   "`Options.Timeout` defaults to",
		want: &want{
			label:      review.Contradicted,
			message:    "The doc gives 3 seconds for Options.Timeout, but the code sets opts.Timeout = 2 * time.Second (2s).",
			suggestion: "`Options.Timeout` defaults to 2 seconds.",
			evidence:   at("opts.Timeout = 2", "opts.Timeout = 2 * time.Second"),
		},
	}, {
		name:   "percentage against a fraction",
		symbol: "DefaultSpare",
		want: &want{
			label:      review.Contradicted,
			message:    "The doc gives 10% for DefaultSpare, but DefaultSpare is 0.2 (20%).",
			suggestion: "DefaultSpare is the default share of the pool kept spare (20%).",
			evidence:   at("const DefaultSpare =", "DefaultSpare = 0.2"),
		},
	}, {
		name:   "field default marked after the literal",
		symbol: "Pool.Packet",
		want: &want{
			label:      review.Contradicted,
			message:    "The doc gives 1400 bytes for Pool.Packet, but the code sets p.Packet = 1200 (1200 bytes).",
			suggestion: "Packet is the largest packet sent. A safe value is typically 1200\nbytes (which is the default).",
			evidence:   at("p.Packet = 1200", "p.Packet = 1200"),
		},
	}, {
		name:   "field default in number words",
		symbol: "Pool.Dialers",
		want: &want{
			label:      review.Contradicted,
			message:    "The doc gives two hundred connections for Pool.Dialers, but the code sets p.Dialers = 100.",
			suggestion: "Dialers is how many dial at once. Defaults to 100\nconnections.",
			evidence:   at("p.Dialers = 100", "p.Dialers = 100"),
		},
	}, {
		name:   "field default a constructor assigns",
		symbol: "Pool.Size",
		want: &want{
			label:      review.Contradicted,
			message:    "The doc gives 100 connections for Pool.Size, but the code sets p.Size = 64.",
			suggestion: "Size is the number of connections. The default is 64 connections.",
			evidence:   at("p.Size = 64", "p.Size = 64"),
		},
	}, {
		name:   "option func against the default of the field it sets",
		symbol: "WithLimit",
		want: &want{
			label:      review.Contradicted,
			message:    "The doc gives 10,000,000 for options.limit, but the code sets limit = defaultLimit (1000000).",
			suggestion: "WithLimit caps the entries. If not set, the default is 1,000,000.",
			evidence:   at("func defaultOptions()", "limit = defaultLimit"),
		},
	}, {
		name:   "field default from a switch on zero",
		symbol: "Conn.WriteTimeout",
		want: &want{
			label:      review.Contradicted,
			message:    "The doc gives 3 seconds for Conn.WriteTimeout, but the code sets c.WriteTimeout = 2 * time.Second (2s).",
			suggestion: "WriteTimeout bounds a write. Default: 2 seconds.",
			evidence:   at("c.WriteTimeout = 2", "c.WriteTimeout = 2 * time.Second"),
		},
	},
		{name: "fallbacks that disagree", symbol: "Conn.ReadTimeout"},
		{name: "literal in an aside about another noun", symbol: "captureSize"},
		{
			name:   "named default against another var",
			symbol: "Logger.Out",
			want: &want{
				label:      review.Contradicted,
				message:    "The doc gives os.Stdout as the default of Logger.Out, but the code sets l.Out = os.Stderr.",
				suggestion: "Out is where lines go. Defaults to os.Stderr.",
				evidence:   at("l.Out = os.Stderr", "l.Out = os.Stderr"),
			},
		}, {
			name:   "named default against a value of its own",
			symbol: "Logger.Transport",
			want: &want{
				label:    review.Contradicted,
				message:  "The doc gives DefaultTransport as the default of Logger.Transport, but the code sets l.Transport = &Transport{…}, a value of its own.",
				evidence: at("l.Transport = &Transport", "l.Transport = &Transport{…}"),
			},
		}, {
			name:   "named enum default against another constant",
			symbol: "Logger.Level",
			want: &want{
				label:      review.Contradicted,
				message:    "The doc gives LevelInfo as the default of Logger.Level, but the code sets l.Level = LevelWarn.",
				suggestion: "Level filters lines; defaults to LevelWarn.",
				evidence:   at("l.Level = LevelWarn", "l.Level = LevelWarn"),
			},
		},
		{
			name:   "named default after default which is",
			symbol: "Logger.Audit",
			want: &want{
				label:      review.Contradicted,
				message:    "The doc gives os.Stdout as the default of Logger.Audit, but the code sets l.Audit = os.Stderr.",
				suggestion: "Audit is where audit lines go. It's common to set this to a file,\nor leave it default which is `os.Stderr`.",
				evidence:   at("l.Audit = os.Stderr", "l.Audit = os.Stderr"),
			},
		},
		{name: "named default that agrees", symbol: "Logger.Err"},
		{name: "named default through a package var initialized to it", symbol: "Logger.Sink"},
		{
			name:   "named default against a package var initialized to another",
			symbol: "Logger.Spill",
			want: &want{
				label:      review.Contradicted,
				message:    "The doc gives os.Stdout as the default of Logger.Spill, but the code sets l.Spill = defaultSpill.",
				suggestion: "Spill is where overflow goes. If not set, defaultSpill is used.",
				evidence:   at("l.Spill = defaultSpill", "l.Spill = defaultSpill"),
			},
		},
		{name: "a value another options struct's constructor chooses", symbol: "SubscribeOptions.Level"},
		{name: "bit width of a maximum", symbol: "MaxTag"},
		{name: "bit width a value fits in", symbol: "maxCode"},
		{name: "a number of a quoted specification", symbol: "cryptoBufferSize"},
		{name: "named default the code computes", symbol: "Logger.Trace"},
		{
			name:   "option func whose default the options consumer builds",
			symbol: "ListsMaxRange",
			want: &want{
				label:      review.Contradicted,
				message:    "The doc gives 10,000,000 for listsLib.maxRange, but the code sets maxRange = defaultMaxRange (1000000).",
				suggestion: "ListsMaxRange sets the largest range allocated. If not set, the default\nis 1,000,000.",
				evidence:   at("l := &listsLib{", "maxRange = defaultMaxRange"),
			},
		},
		{
			name:   "field default a setDefaults method assigns",
			symbol: "Server.Port",
			want: &want{
				label:      review.Contradicted,
				message:    "The doc gives 8080 for Server.Port, but the code sets s.Port = 9090.",
				suggestion: "Port is where the server listens. Defaults to 9090.",
				evidence:   at("s.Port = 9090", "s.Port = 9090"),
			},
		},
		{
			// captcha's Options: "The default is 72.0." of a float.
			name:   "decimal field default without a unit",
			symbol: "Server.DPI",
			want: &want{
				label:      review.Contradicted,
				message:    "The doc gives 72.0 for Server.DPI, but the code sets s.DPI = 144.",
				suggestion: "DPI is the font's dots per inch. The default is 144.",
				evidence:   at("s.DPI = 144", "s.DPI = 144"),
			},
		},
		{name: "decimal field default that agrees", symbol: "Server.Scale"},
		{name: "setDefaults fallback that agrees", symbol: "Server.Backlog"},
		{name: "default written as an expression", symbol: "Buffers.Read"},
		{name: "default with a glued scale suffix", symbol: "Buffers.Write"},
		{name: "option func default that agrees", symbol: "WithWait"},
		{name: "negative sentinel default", symbol: "FetchMaxRecords"},
		{name: "option func whose field a guard also sets", symbol: "WithDelay"},
		{name: "option func setting two fields", symbol: "WithBoth"},
		{name: "percentage that agrees", symbol: "DefaultHeadroom"},
		{name: "constructor default that agrees", symbol: "Pool.Idle"},
		{name: "default marked after the literal that agrees", symbol: "Pool.Frame"},
		{name: "default in words that agrees", symbol: "Pool.Linger"},
		{name: "port of an address is no count", symbol: "Pool.Addr"},
		{name: "number given as an example", symbol: "Pool.Retries"},
		{name: "Markdown percentage that agrees, version and URL port", md: "`DefaultSpare` (20%)"},
		{name: "litSame value in another unit", symbol: "DefaultSweep"},
		{name: "no default or limit word", symbol: "FlushEvery"},
		{name: "literal of another kind in an unrelated clause", symbol: "Shards"},
		{name: "var without a constant value", symbol: "maxKeyLen"},
		{name: "named default that agrees", symbol: "Options.TTL"},
		{name: "size default that agrees", symbol: "Options.Buffer"},
		{name: "count default that agrees", symbol: "Options.Retries"},
		{name: "limit on a field is not its default", symbol: "Options.Wait"},
		{name: "computed default", symbol: "Options.Idle"},
		{name: "func docs are skipped", symbol: "Cache.Load"},
		{name: "Markdown count that agrees", md: "`MaxEntries` (50 entries)"},
		{name: "Markdown field default that agrees", md: "`Options.Workers` defaults to"},
		{name: "Markdown literal in an unrelated sentence", md: "benchmarked with 100 entries"},
		{name: "Markdown limit that agrees", md: "`MaxValueSize` is 1 MiB"},
		{name: "Markdown literal not right after the name", md: "`Shards` limits parallelism"},
		{name: "Markdown bare const name that agrees", md: "Bare and right: DefaultTTL"},
		{name: "Markdown bare const name not right before the literal", md: "MaxEntries bounds the cache in the 100"},
		{
			name: "Markdown bare const name before a count",
			md:   "a cache holds at most MaxEntries, which is 80",
			want: &want{
				label:      review.Contradicted,
				message:    "The doc gives 80 entries for MaxEntries, but MaxEntries is 50.",
				suggestion: "Go docs mostly write names bare: a cache holds at most MaxEntries, which is 50 entries.",
				evidence:   at("const MaxEntries =", "MaxEntries = 50"),
			},
		}, {
			name: "Markdown bare field name with a default",
			md:   "Options.Timeout defaults to 5 seconds",
			want: &want{
				label:      review.Contradicted,
				message:    "The doc gives 5 seconds for Options.Timeout, but the code sets opts.Timeout = 2 * time.Second (2s).",
				suggestion: "Options.Timeout defaults to 2 seconds when the caller leaves it zero.",
				evidence:   at("opts.Timeout = 2", "opts.Timeout = 2 * time.Second"),
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var c review.Claim
			if tt.symbol != "" {
				c = goClaim(t, ws, "cache.go", tt.symbol)
			} else {
				// As the review reads it: with the bare names of its
				// prose resolved.
				c = resolvedClaim(t, ws, "README.md", tt.md)
			}
			got, err := rule.Judge(t.Context(), ws, c)
			if err != nil {
				t.Fatal(err)
			}
			checkVerdict(t, rule, got, tt.want)
		})
	}
}

func TestRewriteLiteral(t *testing.T) {
	tests := []struct {
		text string
		lit  litPlaced
		v    float64
		want string
	}{
		{"Holds at most 1,000 entries.", litPlaced{Mention: review.Mention{Text: "1,000 entries", Value: 1000}}, 20000, "Holds at most 20,000 entries."},
		{"Defaults to 30s.", litPlaced{Mention: review.Mention{Text: "30s", Value: 30}}, 1, "Defaults to 1s."},
		{"Defaults to 2 minutes.", litPlaced{Mention: review.Mention{Text: "2 minutes", Value: 2}}, 1, ""},
		{"Defaults to 2 minutes.", litPlaced{Mention: review.Mention{Text: "2 minutes", Value: 2}}, 1.5, ""},
		{"Defaults to five minutes.", litPlaced{Mention: review.Mention{Text: "five minutes", Value: 5}}, 10, "Defaults to 10 minutes."},
		{"Waits a minute.", litPlaced{Mention: review.Mention{Text: "a minute", Value: 1}}, 2, ""},
		{"2s or 2s.", litPlaced{Mention: review.Mention{Text: "2s", Value: 2}}, 3, ""},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			if got := rewriteLiteral(tt.text, tt.lit, tt.v); got != tt.want {
				t.Errorf("rewriteLiteral(%q, %q, %v) = %q, want %q", tt.text, tt.lit.Text, tt.v, got, tt.want)
			}
		})
	}
}

func TestLiteralMismatchUnverified(t *testing.T) {
	ws := loadWorkspace(t, "literal")
	rule := &LiteralMismatch{}
	tests := []struct {
		name   string
		symbol string // a doc comment of cache.go, else
		md     string // a claim of README.md containing this
		want   []string
	}{
		{name: "a limit bound to nothing", md: "Uploads are capped at 8 MiB.", want: []string{"8 MiB"}},
		{name: "a default the code computes", symbol: "Options.Idle", want: []string{"30s"}},
		{name: "a bound default", symbol: "Options.Timeout"},
		{name: "a number after no default or limit phrase", md: "benchmarked with 100 entries"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var c review.Claim
			if tt.symbol != "" {
				c = goClaim(t, ws, "cache.go", tt.symbol)
			} else {
				c = mdClaim(t, ws, "README.md", tt.md)
			}
			if got := rule.Unverified(t.Context(), ws, c); !slices.Equal(got, tt.want) {
				t.Errorf("Unverified = %q, want %q", got, tt.want)
			}
		})
	}
}

// TestLiteralMismatchFallbackReturn covers a field whose default is the
// value a func returns when the field is unset.
func TestLiteralMismatchFallbackReturn(t *testing.T) {
	ws := loadWorkspace(t, "literal")
	rule := &LiteralMismatch{}
	tests := []struct {
		symbol string
		want   *want
	}{
		{"Writer.BatchSize", &want{
			label:      review.Contradicted,
			message:    "The doc gives 100 for Writer.BatchSize, but the code sets BatchSize = 128.",
			suggestion: "BatchSize is how many writes a batch holds (default 128).",
			evidence:   []ev{{"writer.go", 19, 19, review.SourceCode, "Writer.batchSize returns 128 when BatchSize is unset"}},
		}},
		{"Writer.FlushEvery", &want{
			label:      review.Contradicted,
			message:    "The doc gives 2s for Writer.FlushEvery, but the code sets FlushEvery = time.Second (1s).",
			suggestion: "FlushEvery bounds how long a write waits. Default: 1s.",
			evidence:   []ev{{"writer.go", 24, 24, review.SourceCode, "Writer.flushEvery returns time.Second when FlushEvery is unset"}},
		}},
		// A cap the func applies is not the field's default.
		{"Writer.Limit", nil},
	}
	for _, tt := range tests {
		t.Run(tt.symbol, func(t *testing.T) {
			all := *ws
			all.Scope = review.ScopeAll
			got, err := rule.Judge(t.Context(), &all, goClaim(t, ws, "writer.go", tt.symbol))
			if err != nil {
				t.Fatal(err)
			}
			checkVerdict(t, rule, got, tt.want)
		})
	}
}

// TestLiteralMismatchBoolDefault covers a boolean default stated in the doc
// of a field that holds a string or a number, copied from a boolean
// field's doc.
func TestLiteralMismatchBoolDefault(t *testing.T) {
	ws := loadWorkspace(t, "literal")
	rule := &LiteralMismatch{}
	tests := []struct {
		symbol string
		want   *want
	}{
		{"CookieConfig.HTTPOnly", nil},
		{"CookieConfig.SameSite", &want{
			label:      review.Contradicted,
			message:    "The doc gives false as the default of CookieConfig.SameSite, a boolean, but CookieConfig.SameSite is a string (string); the code sets DefaultCookieConfig.SameSite = \"Lax\".",
			suggestion: "SameSite is the cookie's SameSite mode.\nOptional. Default value \"Lax\".",
			evidence: []ev{
				{"cookie.go", 10, 10, review.SourceCode, "declares CookieConfig.SameSite as string"},
				{"cookie.go", 25, 25, review.SourceCode, "SameSite: \"Lax\""},
			},
		}},
		{"CookieConfig.MaxAge", &want{
			label:    review.Contradicted,
			message:  "The doc gives false as the default of CookieConfig.MaxAge, a boolean, but CookieConfig.MaxAge is a number (int).",
			evidence: []ev{{"cookie.go", 13, 13, review.SourceCode, "declares CookieConfig.MaxAge as int"}},
		}},
		// A pointer to a bool holds a boolean's meaning.
		{"CookieConfig.Secure", nil},
		// A string type of its own that encodes a boolean (tailscale's
		// opt.Bool: "true", "false" or unset).
		{"CookieConfig.Partitioned", nil},
		{"CookieConfig.Shared", nil}, // a method of it returns a bool
		{"CookieConfig.Signed", nil}, // a constant of it is "true"
	}
	for _, tt := range tests {
		t.Run(tt.symbol, func(t *testing.T) {
			all := *ws
			all.Scope = review.ScopeAll
			got, err := rule.Judge(t.Context(), &all, goClaim(t, ws, "cookie.go", tt.symbol))
			if err != nil {
				t.Fatal(err)
			}
			checkVerdict(t, rule, got, tt.want)
		})
	}
}
