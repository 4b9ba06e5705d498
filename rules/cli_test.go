package rules

import (
	"testing"

	"github.com/docreview/docreview/review"
)

func TestSnippetCLI(t *testing.T) {
	ws := loadWorkspace(t, "cli")
	rule := &CLIFlag{}
	const main = "cmd/shop/main.go"
	at := func(path, s string, source review.Source, why string) ev {
		l := lineOf(t, ws, path, s)
		return ev{path, l, l, source, why}
	}
	tests := []struct {
		name string
		text string // a substring of the claim
		want *want
	}{{
		name: "misspelt flag with a unique close one",
		text: "--quantiy",
		want: &want{
			label:      review.Contradicted,
			message:    "The shell block runs shop with the flag --quantiy, which shop does not define (closest: --quantity).",
			suggestion: "$ shop order --quantity 3",
			evidence: []ev{
				at("README.md", "--quantiy", review.SourceDoc, "shell block runs shop --quantiy"),
				at(main, `"quantity"`, review.SourceCode, "shop defines the flag quantity"),
			},
		},
	}, {
		name: "unknown flag through go run",
		text: "--frobnicate",
		want: &want{
			label:   review.Contradicted,
			message: "runs shop with the flag --frobnicate, which shop does not define.",
			evidence: []ev{
				at("README.md", "--frobnicate", review.SourceDoc, "shell block runs shop --frobnicate"),
				{main, lineOf(t, ws, main, `"verbose"`), lineOf(t, ws, main, `"quantity"`), review.SourceCode, "shop defines the flags format, quantity and verbose"},
			},
		},
	}, {
		name: "unknown subcommand",
		text: "shop stok",
		want: &want{
			label:      review.Contradicted,
			message:    "runs shop with the subcommand stok, which shop does not define (closest: stock).",
			suggestion: "$ shop stock --verbose\ntext output that mentions shop --nothing",
			evidence: []ev{
				at("README.md", "$ shop stok", review.SourceDoc, "shell block runs shop stok"),
				at(main, "switch args[0]", review.SourceCode, "shop dispatches the subcommands help, order and stock"),
			},
		},
	},
		{name: "known flags and subcommand", text: "--format=json"},
		{name: "computed flag names", text: "dyn --gamma"},
		{name: "framework whose root command is never executed", text: "cob --anything"},
		{name: "other programs, quoted words, help", text: "git log"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := rule.Judge(t.Context(), ws, mdClaim(t, ws, "README.md", tt.text))
			if err != nil {
				t.Fatal(err)
			}
			checkVerdict(t, rule, got, tt.want)
		})
	}
}

func TestCheckShellLine(t *testing.T) {
	cmd := &command{name: "tool", dir: "cmd/tool", flags: map[string]flagDef{"repo": {}, "v": {}}, subs: map[string]bool{"run": true, "list": true}}
	cmds := map[string]*command{"tool": cmd}
	tests := []struct {
		line, want string
	}{
		{"tool run --repo=. -v", ""},
		{"./tool run --rpeo x", "--rpeo"},
		{"bin/tool lsit", "lsit"},
		{"FOO=1 tool run --bad", "--bad"},
		{"go run ./cmd/tool/ run --bad", "--bad"},
		{"go run example.com/tool@latest --bad", ""},
		{"tool run -- --bad", ""},
		{"tool run <flags>", ""},
		{"tool run --repo $DIR # --bad", ""},
		{"other/tool --bad", ""},
		{"tool ./file.txt", ""},
	}
	for _, tt := range tests {
		t.Run(tt.line, func(t *testing.T) {
			u, ok := checkShellLine(cmds, tt.line)
			if got := u.word; ok != (tt.want != "") || got != tt.want {
				t.Errorf("checkShellLine = %q, %v; want %q", got, ok, tt.want)
			}
		})
	}
}

func TestShortList(t *testing.T) {
	tests := []struct {
		names []string
		want  string
	}{
		{[]string{"a", "b", "c"}, "a, b and c"},
		{[]string{"a", "b", "c", "d"}, "a, b, c and 1 more"},
	}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			if got := shortList(tt.names, 3); got != tt.want {
				t.Errorf("shortList = %q, want %q", got, tt.want)
			}
		})
	}
}
