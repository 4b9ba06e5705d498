package rules

import (
	"path/filepath"
	"testing"

	"github.com/docreview/docreview/retrieval"
	"github.com/docreview/docreview/review"
)

// TestHelpFlags: the flags of help output as the standard flag package
// and pflag print them, with the default their usage ends with.
func TestHelpFlags(t *testing.T) {
	tests := []struct {
		name string
		text string
		want []helpFlag
	}{
		{
			name: "flag package, usage on the next line",
			text: "Usage of x:\n  -timeout int\n    \tRead timeout in\n    \tmilliseconds (default 30000)\n  -dir string\n    \tWhere (default \"./data\")",
			want: []helpFlag{
				{name: "timeout", desc: "Read timeout in milliseconds", shown: "30000", line: 3},
				{name: "dir", desc: "Where", shown: `"./data"`, line: 5},
			},
		},
		{
			name: "flag package, a one-letter flag's usage after a tab",
			text: "  -v\tVerbose output (default true)",
			want: []helpFlag{{name: "v", desc: "Verbose output", shown: "true", line: 0}},
		},
		{
			name: "pflag, with and without a shorthand",
			text: "Flags:\n  -r, --retries int     How many times (default 5)\n      --listen string   Address (default \"x\")\n  -h, --help            help for shipctl",
			want: []helpFlag{
				{name: "retries", short: "r", desc: "How many times", shown: "5", line: 1},
				{name: "listen", desc: "Address", shown: `"x"`, line: 2},
			},
		},
		{
			name: "a default in prose is no help output",
			text: "The server listens on port 8080 (default 8080).\n- timeout: 30 (default 30)",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := helpFlags(tt.text)
			if len(got) != len(tt.want) {
				t.Fatalf("helpFlags = %+v, want %+v", got, tt.want)
			}
			for i := range got {
				if got[i] != tt.want[i] {
					t.Errorf("flag %d = %+v, want %+v", i, got[i], tt.want[i])
				}
			}
		})
	}
}

// TestLiteralFlagHelp: a default of help output copied into the docs
// against the default the flag is registered with.
func TestLiteralFlagHelp(t *testing.T) {
	cache, err := filepath.Abs("testdata/flaghelp/modcache")
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("GOMODCACHE", cache)
	ws := loadWorkspaceWith(t, "flaghelp", &retrieval.TypeCache{})
	rule := &LiteralMismatch{}
	tests := []struct {
		name  string
		block string // a line of the README.md block
		want  *want
	}{
		{name: "flag package: one default drifted, bound by its usage among two timeout flags", block: "Usage of uploadd:", want: &want{
			label:   review.Contradicted,
			message: "The help output gives -timeout the default 30000, but the flag is registered with 6 * 1000 (printed as 6000).",
			suggestion: "Usage of uploadd:\n  -grace duration\n    \tHow long to wait for uploads to finish on shutdown (default 30s)\n" +
				"  -ratio float\n    \tShare of memory to use (default 0.9)\n  -timeout int\n    \tRead timeout for connections in milliseconds (default 6000)\n" +
				"  -upload-dir string\n    \tDirectory to store uploads in (default \"./data\")",
			evidence: []ev{{"cmd/uploadd/main.go", 10, 10, review.SourceCode, `main.go registers "timeout" with the default 6 * 1000`}},
		}},
		{name: "defaults that agree; a zero-valued flag's printed default is left alone", block: "-v\tVerbose output"},
		{name: "pflag", block: "  -r, --retries int", want: &want{
			label:      review.Contradicted,
			message:    "The help output gives --retries the default 5, but the flag is registered with 3.",
			suggestion: "Flags:\n      --listen string   Address to listen on (default \"127.0.0.1:8080\")\n  -r, --retries int     How many times to retry a failed upload (default 3)",
			evidence:   []ev{{"cmd/shipctl/main.go", 14, 14, review.SourceCode, `main.go registers "retries" with the default 3`}},
		}},
		{name: "a flag of that name whose usage is another's", block: "Timeout of the whole run"},
		{name: "a flag the module does not register", block: "--verbose"},
		{name: "help output after a failed run's error", block: "Error: uploads failed"},
		{name: "prose: a string default", block: "where uploads go", want: &want{
			label:      review.Contradicted,
			message:    "The doc gives -upload-dir the default `./uploads`, but the flag is registered with \"./data\".",
			suggestion: "`-upload-dir`: where uploads go (default: `./data`).",
			evidence:   []ev{{"cmd/uploadd/main.go", 11, 11, review.SourceCode, `main.go registers "upload-dir" with the default "./data"`}},
		}},
		{name: "prose: a default that agrees", block: "--listen` defaults to"},
		{name: "prose: a duration", block: "bounds the shutdown", want: &want{
			label:      review.Contradicted,
			message:    "The doc gives -grace the default `45s`, but the flag is registered with 30 * time.Second (30s).",
			suggestion: "`-grace` (defaults to `30s`) bounds the shutdown.",
			evidence:   []ev{{"cmd/uploadd/main.go", 12, 12, review.SourceCode, `main.go registers "grace" with the default 30 * time.Second`}},
		}},
		{name: "prose: two programs register the flag with different defaults", block: "gives up after a while"},
		{name: "prose: default as a word, no value", block: "default behaviour"},
		{name: "table: the Default cell of a flag's row", block: "| [`-r`](#retries)", want: &want{
			label:      review.Contradicted,
			message:    "The table gives --retries the default `5`, but the flag is registered with 3.",
			suggestion: "| [`-r`](#retries), [`--retries`]  | `int`      | `3`      | How many times to retry a failed upload |",
			evidence:   []ev{{"cmd/shipctl/main.go", 14, 14, review.SourceCode, `main.go registers "retries" with the default 3`}},
		}},
		{name: "urfave/cli: a duration drifted, the others agree", block: "GLOBAL OPTIONS:", want: &want{
			label:   review.Contradicted,
			message: "The help output gives --timeout the default 1m0s, but the flag is registered with 2 * time.Minute (printed as 2m0s).",
			suggestion: "GLOBAL OPTIONS:\n   --timeout value, -t value  how long a trace may run (default: 2m0s) [$TRACER_TIMEOUT]\n" +
				"   --output value             where traces go (default: \"traces.json\")\n   --depth value              how deep to follow calls (default: 8)",
			evidence: []ev{{"cmd/tracer/main.go", 14, 14, review.SourceCode, `main.go registers "timeout" with the default 2 * time.Minute`}},
		}},
		{name: "table: a string default that agrees", block: "| `--listen`"},
		{name: "table: a description that is another flag's", block: "| `--timeout`"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := mdClaim(t, ws, "README.md", tt.block)
			got, err := rule.Judge(t.Context(), ws, c)
			if err != nil {
				t.Fatal(err)
			}
			checkVerdict(t, rule, got, tt.want)
		})
	}
}
