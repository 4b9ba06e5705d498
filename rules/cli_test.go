package rules

import (
	"testing"

	"github.com/docreview/docreview/review"
	"github.com/docreview/docreview/rules/clitree"
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
		// air hands flag.CommandLine to runner.ParseConfigFlag, which
		// registers --build.cmd and the like.
		{name: "flag set handed to another package", text: "plug --build.cmd"},
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
	cmd := &command{name: "tool", dir: "cmd/tool", flags: map[string]clitree.Pos{"repo": {}, "v": {}}, subs: map[string]bool{"run": true, "list": true}}
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

// TestCheckShellLineFlat: a program without subcommands stops reading
// flags at its first argument, as the flag package does, and a flag's
// value is no argument.
func TestCheckShellLineFlat(t *testing.T) {
	cmd := &command{name: "flat", dir: "cmd/flat",
		flags:  map[string]clitree.Pos{"repo": {}, "v": {}, "cfg": {}},
		values: map[string]clitree.ValueKind{"repo": clitree.ValueYes, "v": clitree.ValueNo, "cfg": clitree.ValueUnknown}}
	cmds := map[string]*command{"flat": cmd}
	tests := []struct {
		line, want string
	}{
		// air's "air server --port 8080" passes --port to what it runs.
		{"flat -v server --port 8080", ""},
		{"flat --repo x --bda", "--bda"},
		{"flat --repo=x --bda", "--bda"},
		{"flat -v --bda server", "--bda"},
		// cfg's value may be a bool's: the next word may be the first
		// argument.
		{"flat --cfg x --bda", ""},
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

func TestSnippetCLIFrameworks(t *testing.T) {
	ws := loadWorkspace(t, "cliframeworks")
	rule := &CLIFlag{}
	at := func(path, s string, source review.Source, why string) ev {
		l := lineOf(t, ws, path, s)
		return ev{path, l, l, source, why}
	}
	const (
		send    = "internal/cli/send.go"
		track   = "internal/cli/track.go"
		greeter = "cmd/greeter/main.go"
		counter = "cmd/counter/main.go"
		vault   = "cmd/vault/main.go"
	)
	tests := []struct {
		name string
		text string // a substring of the claim
		want *want
	}{{
		name: "cobra: misspelt flag of a subcommand",
		text: "--priorty",
		want: &want{
			label:      review.Contradicted,
			message:    "The shell block runs shipper send with the flag --priorty, which shipper send does not define (closest: --priority).",
			suggestion: "shipper send parcel-3 --priority 2",
			evidence: []ev{
				at("README.md", "--priorty", review.SourceDoc, "shell block runs shipper send --priorty"),
				at(send, `"priority"`, review.SourceCode, "shipper send defines the flag --priority"),
			},
		},
	}, {
		name: "cobra: a flag of another subcommand",
		text: "track 42 --dry-run",
		want: &want{
			label:   review.Contradicted,
			message: "runs shipper track with the flag --dry-run, which shipper track does not define.",
			evidence: []ev{
				at("README.md", "track 42 --dry-run", review.SourceDoc, "shell block runs shipper track --dry-run"),
				at(track, "&cobra.Command{", review.SourceCode, "shipper track defines the flags --config and --timeout"),
			},
		},
	}, {
		name: "cobra: misspelt subcommand",
		text: "shipper sned",
		want: &want{
			label:      review.Contradicted,
			message:    "runs shipper with the subcommand sned, which shipper does not define (closest: send).",
			suggestion: "$ shipper send parcel-4",
			evidence: []ev{
				at("README.md", "shipper sned", review.SourceDoc, "shell block runs shipper sned"),
				at(send, "&cobra.Command{", review.SourceCode, "shipper defines the subcommand send"),
			},
		},
	}, {
		name: "urfave v2: unknown flag of a subcommand",
		text: "--lod",
		want: &want{
			label:      review.Contradicted,
			message:    "runs greeter hello with the flag --lod, which greeter hello does not define (closest: --loud).",
			suggestion: "greeter hello --loud",
			evidence: []ev{
				at("README.md", "--lod", review.SourceDoc, "shell block runs greeter hello --lod"),
				at(greeter, `"loud"`, review.SourceCode, "greeter hello defines the flag --loud"),
			},
		},
	}, {
		name: "urfave v2: unknown subcommand without a close one",
		text: "greeter wave",
		want: &want{
			label:   review.Contradicted,
			message: "runs greeter with the subcommand wave, which greeter does not define.",
			evidence: []ev{
				at("README.md", "greeter wave", review.SourceDoc, "shell block runs greeter wave"),
				at(greeter, "&cli.App{", review.SourceCode, "greeter defines the subcommands bye and hello"),
			},
		},
	}, {
		name: "urfave v3: the root's own name, flag before the subcommand",
		text: "--stpe",
		want: &want{
			label:      review.Contradicted,
			message:    "runs count with the flag --stpe, which count does not define (closest: --step).",
			suggestion: "count --step 2 up",
			evidence: []ev{
				at("README.md", "--stpe", review.SourceDoc, "shell block runs count --stpe"),
				at(counter, `"step"`, review.SourceCode, "count defines the flag --step"),
			},
		},
	}, {
		name: "kong: kebab-case flag",
		text: "--dryrun",
		want: &want{
			label:      review.Contradicted,
			message:    "runs vault store with the flag --dryrun, which vault store does not define (closest: --dry-run).",
			suggestion: "vault store --dry-run my-key",
			evidence: []ev{
				at("README.md", "--dryrun", review.SourceDoc, "shell block runs vault store --dryrun"),
				at(vault, "DryRun bool", review.SourceCode, "vault store defines the flag --dry-run"),
			},
		},
	}, {
		name: "kong: unknown command",
		text: "vault list",
		want: &want{
			label:   review.Contradicted,
			message: "runs vault with the subcommand list, which vault does not define.",
			evidence: []ev{
				at("README.md", "vault list", review.SourceDoc, "shell block runs vault list"),
				at(vault, "var cli struct", review.SourceCode, "vault defines the subcommands fetch and store"),
			},
		},
	},
		{name: "cobra: known flags and positional arguments", text: "send parcel-1 --priority 2"},
		{name: "cobra: shorthand, alias, persistent flag, built-ins", text: "shipper ship -p 3"},
		{name: "cobra: placeholders, separator, env, pipe, continuation", text: "[flags] -- --anything"},
		{name: "cobra: computed flags and subcommands", text: "dyncobra --gamma"},
		{name: "urfave v2: alias, global flag, help command, version", text: "greeter -l de hi"},
		{name: "urfave v3: known words", text: "counter --step 2 up"},
		{name: "kong: alias, embedded, inherited and short flags, help", text: "vault get my-key"},
		{name: "kong: dynamic commands", text: "dynkong extra"},
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

// tree builds a cobra-like command tree for checkTree tests: tool with a
// persistent --config/-c, a runnable "run" (alias "r") with --port/-p and
// a bool --dry, and a "list" with a computed flag.
func testTree() *command {
	root := clitree.NewNode(clitree.Pos{Path: "root.go", Line: 1})
	root.Name = "tool"
	root.AddFlag(true, "config", "c", clitree.Pos{Path: "root.go", Line: 2}, clitree.ValueYes)
	run := clitree.NewNode(clitree.Pos{Path: "run.go", Line: 1})
	run.Name, run.Aliases, run.TakesArgs = "run", []string{"r"}, true
	run.AddFlag(false, "port", "p", clitree.Pos{Path: "run.go", Line: 2}, clitree.ValueYes)
	run.AddFlag(false, "dry", "", clitree.Pos{Path: "run.go", Line: 3}, clitree.ValueNo)
	list := clitree.NewNode(clitree.Pos{Path: "list.go", Line: 1})
	list.Name, list.FlagsOpen = "list", true
	root.Subs = []*clitree.Node{run, list, clitree.NewBuiltin("help", root.Def)}
	return &command{name: "tool", tree: &clitree.Tree{Root: root, Framework: "cobra"}}
}

func TestCheckTree(t *testing.T) {
	cmds := map[string]*command{"tool": testTree()}
	tests := []struct {
		line, want, closest string
	}{
		{"tool run --port 80 --dry x", "", ""},
		{"tool -c a.yml r -p 80 --config=b", "", ""},
		{"tool --port 80 run", "", ""}, // cobra reads it with run's flags
		{"tool run --prot 80", "--prot", "port"},
		{"tool run --config x --dyr", "--dyr", "dry"},
		{"tool rnu", "rnu", "run"},
		{"tool lst --x", "lst", "list"},
		{"tool list --anything", "", ""},
		{"tool help whatever --x", "", ""},
		{"tool --nope run", "", ""}, // list's flags are not all known
		{"tool run --nope", "--nope", ""},
		{"tool run -- --nope", "", ""},
		{"tool run <name> --<flag>", "", ""},
		{"tool run -xyz", "", ""},
		{"tool ./file", "", ""},
		{"tool run --port=80 --porte=1", "--porte=1", "port"},
	}
	for _, tt := range tests {
		t.Run(tt.line, func(t *testing.T) {
			u, ok := checkShellLine(cmds, tt.line)
			if ok != (tt.want != "") || u.word != tt.want || u.closest != tt.closest {
				t.Errorf("checkShellLine = %q (closest %q), %v; want %q (closest %q)", u.word, u.closest, ok, tt.want, tt.closest)
			}
		})
	}
}

func TestReplaceWord(t *testing.T) {
	tests := []struct{ line, word, repl, want string }{
		{"tool --prot 80", "--prot", "--port", "tool --port 80"},
		{"tool --prot=80 --prot", "--prot", "--port", "tool --port=80 --prot"},
		{"tool --protocol --prot", "--prot", "--port", "tool --protocol --port"},
		{"tool x", "--prot", "--port", ""},
	}
	for _, tt := range tests {
		got, ok := replaceWord(tt.line, tt.word, tt.repl)
		if ok != (tt.want != "") || got != tt.want {
			t.Errorf("replaceWord(%q) = %q, %v; want %q", tt.line, got, ok, tt.want)
		}
	}
}
