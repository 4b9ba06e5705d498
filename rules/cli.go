package rules

import (
	"context"
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/docreview/docreview/retrieval"
	"github.com/docreview/docreview/review"
	"github.com/docreview/docreview/review/prose"
)

// command is what the module's code says about one of its binaries: for a
// program using the standard flag package, the flags every flag set of its
// main package registers and the subcommands its dispatch switch accepts
// (kept only when every registration has a constant name); for one built
// with cobra, urfave/cli or kong, its command tree (see cliTree).
var _ review.Judge = (*CLIFlag)(nil)

// CLIFlag is the cli-flag rule: a shell block of a Markdown claim that runs
// one of the module's own commands with a flag or subcommand the command
// does not define (read from the flag package, cobra, urfave/cli or kong
// definitions) is contradicted. The zero value is ready to use and safe
// for concurrent use.
type CLIFlag struct {
	cmds  memo[map[string]*command]
	lines memo[[]string]
}

// Name returns "cli-flag".
func (*CLIFlag) Name() string { return "cli-flag" }

// Judge checks the claim's shell blocks; see [CLIFlag].
func (r *CLIFlag) Judge(_ context.Context, ws *review.Workspace, c review.Claim) (*review.Verdict, error) {
	return r.cliVerdict(ws, c)
}

type command struct {
	name  string
	dir   string
	flags map[string]flagDef
	// subs is nil when the package has no dispatch switch on its first
	// argument: then subcommands are not checked.
	subs    map[string]bool
	subLine flagDef // where the dispatch switch is
	// tree is set for a program built with a command-line framework;
	// flags and subs are then unused.
	tree *cliTree
}

// flagDef is where a flag (or the dispatch switch) is defined.
type flagDef struct {
	path string
	line int
}

// flagFuncs maps the flag package's registration functions (and
// *flag.FlagSet methods) to the index of their name argument.
var flagFuncs = map[string]int{
	"Bool": 0, "Int": 0, "Int64": 0, "Uint": 0, "Uint64": 0, "String": 0, "Float64": 0, "Duration": 0,
	"Func": 0, "BoolFunc": 0,
	"BoolVar": 1, "IntVar": 1, "Int64Var": 1, "UintVar": 1, "Uint64Var": 1, "StringVar": 1,
	"Float64Var": 1, "DurationVar": 1, "Var": 1, "TextVar": 1,
}

// cliFrameworks are the import paths of command-line libraries: a main
// package importing one is read as that framework's command tree when it
// is cobra, urfave/cli v2 or v3 or kong (see frameworkOf), and is not
// checked otherwise.
var cliFrameworks = []string{
	"github.com/spf13/cobra", "github.com/spf13/pflag", "github.com/urfave/cli", "github.com/alecthomas/kong",
	"github.com/jessevdk/go-flags", "github.com/peterbourgon/ff",
}

// commands returns the module's binaries by name: a main package is named
// after its directory (the module's last path element for the root) and,
// when it builds its commands with cobra, urfave/cli or kong, also by the
// name its root command gives itself. A name two main packages share is
// dropped.
func (r *CLIFlag) commands(ws *review.Workspace) map[string]*command {
	cmds, _ := r.cmds.get(ws, "", func() (map[string]*command, error) {
		out := map[string]*command{}
		dup := map[string]bool{}
		for _, p := range ws.Symbols.Packages() {
			if p.Name != "main" || p.Info == nil || strings.Contains("/"+p.Dir+"/", "/testdata/") {
				continue
			}
			name := path.Base(p.Dir)
			if p.Dir == "." {
				name = path2name(p.Module) // without a /v2 suffix
			}
			if name == "." || name == "" || name == "/" {
				continue
			}
			cmd, ok := readCommand(ws.Symbols, p)
			names := []string{name}
			if ok && cmd.tree != nil {
				for _, n := range cmd.tree.names {
					if !slices.Contains(names, n) {
						names = append(names, n)
					}
				}
			}
			for _, n := range names {
				if dup[n] {
					continue
				}
				if _, seen := out[n]; seen {
					delete(out, n)
					dup[n] = true
					continue
				}
				if ok {
					c := *cmd
					c.name = n
					out[n] = &c
				} else {
					dup[n] = true
				}
			}
		}
		return out, nil
	})
	return cmds
}

// readCommand collects the flags and subcommands of a main package; ok is
// false when they cannot all be known. A package that imports cobra,
// urfave/cli (v2 or v3) or kong, itself or through the module packages it
// imports, is read as that framework's command tree (see readFramework);
// one that imports another framework, or several, is not read.
func readCommand(syms *retrieval.Symbols, p *retrieval.Package) (*command, bool) {
	cmd := &command{dir: p.Dir, flags: map[string]flagDef{}}
	fw, known := frameworkOf(localImports(syms, p))
	if !known {
		return nil, false
	}
	if fw != "" {
		cmd.tree = readFramework(syms, p, fw)
		return cmd, cmd.tree != nil
	}
	ok := true
	for _, f := range p.Syntax {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.CallExpr:
				idx, isFlag := flagCall(p.Info, n)
				if !isFlag {
					return true
				}
				if idx >= len(n.Args) {
					ok = false
					return true
				}
				tv, found := p.Info.Types[n.Args[idx]]
				if !found || tv.Value == nil || tv.Value.Kind() != constant.String {
					ok = false
					return true
				}
				pos := p.Fset.Position(n.Pos())
				cmd.flags[constant.StringVal(tv.Value)] = flagDef{path: pos.Filename, line: pos.Line}
			case *ast.SwitchStmt:
				if !isArgSwitch(n.Tag) {
					return true
				}
				subs := map[string]bool{}
				for _, s := range n.Body.List {
					cc := s.(*ast.CaseClause)
					for _, e := range cc.List {
						tv, found := p.Info.Types[e]
						if !found || tv.Value == nil || tv.Value.Kind() != constant.String {
							return true
						}
						subs[constant.StringVal(tv.Value)] = true
					}
				}
				if len(subs) < 2 {
					return true
				}
				if cmd.subs == nil {
					cmd.subs = map[string]bool{}
					pos := p.Fset.Position(n.Pos())
					cmd.subLine = flagDef{path: pos.Filename, line: pos.Line}
				}
				for s := range subs {
					cmd.subs[s] = true
				}
			}
			return true
		})
	}
	return cmd, ok && len(cmd.flags) > 0
}

// flagCall reports whether call registers a flag with the standard flag
// package, and the index of its name argument.
func flagCall(info *types.Info, call *ast.CallExpr) (int, bool) {
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok {
		return 0, false
	}
	idx, known := flagFuncs[sel.Sel.Name]
	if !known {
		return 0, false
	}
	fn, ok := info.Uses[sel.Sel].(*types.Func)
	if !ok || fn.Pkg() == nil || fn.Pkg().Path() != "flag" {
		return 0, false
	}
	return idx, true
}

// isArgSwitch reports whether a switch's tag is args[0], args[1] or
// os.Args[1]: a subcommand dispatch.
func isArgSwitch(tag ast.Expr) bool {
	ix, ok := tag.(*ast.IndexExpr)
	if !ok {
		return false
	}
	lit, ok := ix.Index.(*ast.BasicLit)
	if !ok || lit.Kind != token.INT || (lit.Value != "0" && lit.Value != "1") {
		return false
	}
	switch x := ix.X.(type) {
	case *ast.Ident:
		return x.Name == "args" && lit.Value == "0"
	case *ast.SelectorExpr:
		id, ok := x.X.(*ast.Ident)
		return ok && id.Name == "os" && x.Sel.Name == "Args" && lit.Value == "1"
	}
	return false
}

// shellLangs are the code block languages read as shell sessions.
var shellLangs = []string{"sh", "bash", "shell", "console", "zsh", "shell-session", "terminal"}

// cliUse is one flag or subcommand of a shell line the command does not
// define.
type cliUse struct {
	cmd     *command
	line    int
	word    string // "--frobnicate" or "frob"
	sub     bool
	closest string // the unique close name, without dashes, or ""
	// node is set for framework-built commands: the (sub)command the
	// word was given to, named path ("mytool serve").
	node  *cliNode
	path  string
	flags map[string]cliFlag // the flags node accepts
}

// shown is the closest name as it would be written on the command line.
func (u cliUse) shown() string {
	if u.closest == "" || u.sub {
		return u.closest
	}
	if u.node != nil {
		return "--" + u.closest
	}
	return strings.Repeat("-", len(u.word)-len(strings.TrimLeft(u.word, "-"))) + u.closest
}

// cliVerdict checks the shell blocks of a Markdown claim that run one of
// the module's own commands, whether built with the standard flag package
// or with cobra, urfave/cli (v2, v3) or kong: a flag or subcommand the
// command does not define contradicts the claim, with the word replaced by
// its unique close name as the suggestion.
func (r *CLIFlag) cliVerdict(ws *review.Workspace, c review.Claim) (*review.Verdict, error) {
	if ws == nil || ws.Symbols == nil || c.Kind != review.KindMarkdown || isHistory(c.Path) || isOtherVersionDoc(ws, c.Path) {
		return nil, nil
	}
	var blocks []review.Mention
	for _, m := range c.Mentions {
		if m.Kind == review.MentionBlock && (m.Lang == "" || slices.Contains(shellLangs, strings.ToLower(m.Lang))) {
			blocks = append(blocks, m)
		}
	}
	if len(blocks) == 0 {
		return nil, nil
	}
	cmds := r.commands(ws)
	if len(cmds) == 0 {
		return nil, nil
	}
	lines, err := r.fileLines(ws, c.Path)
	if err != nil {
		return nil, err
	}
	for _, b := range blocks {
		promptOnly := b.Lang == "" || strings.EqualFold(b.Lang, "console") || strings.EqualFold(b.Lang, "shell-session") || strings.EqualFold(b.Lang, "terminal")
		start := codeStart(lines, b)
		text := strings.Split(b.Text, "\n")
		for i := 0; i < len(text); i++ {
			line, n, first := text[i], start+i, i
			for strings.HasSuffix(line, "\\") && i+1 < len(text) {
				i++
				line = strings.TrimSuffix(line, "\\") + " " + text[i]
			}
			t := strings.TrimSpace(line)
			if p, ok := strings.CutPrefix(t, "$ "); ok {
				t = p
			} else if promptOnly {
				continue
			}
			if u, ok := checkShellLine(cmds, t); ok {
				u.line = n
				v := cliFinding(r, c, u)
				v.Suggestion = cliFix(c.Text, text[first:i+1], u)
				return v, nil
			}
		}
	}
	return nil, nil
}

// checkShellLine finds the first flag or subcommand of a shell command
// line that its command does not define; framework-built commands are
// checked by checkTree.
func checkShellLine(cmds map[string]*command, line string) (cliUse, bool) {
	words := strings.Fields(line)
	for i, w := range words {
		if strings.ContainsAny(w, "|;&><#`()") {
			words = words[:i]
			break
		}
	}
	for len(words) > 0 && strings.Contains(words[0], "=") && !strings.HasPrefix(words[0], "-") {
		words = words[1:] // environment assignments
	}
	var cmd *command
	switch {
	case len(words) >= 3 && words[0] == "go" && words[1] == "run":
		target := strings.TrimSuffix(words[2], "/")
		if !strings.HasPrefix(target, ".") || strings.Contains(target, "@") {
			return cliUse{}, false
		}
		dir := path.Clean(target)
		for _, c := range cmds {
			if c.dir == dir {
				cmd = c
			}
		}
		words = words[3:]
	case len(words) >= 1:
		name := path.Base(words[0])
		if name != words[0] && !strings.HasPrefix(words[0], "./") && !strings.HasPrefix(words[0], "bin/") {
			return cliUse{}, false
		}
		cmd = cmds[name]
		words = words[1:]
	}
	if cmd == nil {
		return cliUse{}, false
	}
	if cmd.tree != nil {
		return checkTree(cmd, words)
	}
	for i, w := range words {
		if w == "--" {
			break
		}
		if !strings.HasPrefix(w, "-") {
			if i == 0 && cmd.subs != nil && isSubWord(w) && !cmd.subs[w] {
				return cliUse{cmd: cmd, word: w, sub: true, closest: closestOf(w, keys(cmd.subs))}, true
			}
			continue
		}
		name := strings.TrimLeft(w, "-")
		name, _, _ = strings.Cut(name, "=")
		if !isFlagWord(name) || name == "h" || name == "help" || cmd.subs[w] {
			continue
		}
		if _, ok := cmd.flags[name]; !ok {
			return cliUse{cmd: cmd, word: w, closest: closestOf(name, keys(cmd.flags))}, true
		}
	}
	return cliUse{}, false
}

// isSubWord reports whether w looks like a subcommand name.
func isSubWord(w string) bool {
	for i, r := range w {
		if !(r >= 'a' && r <= 'z' || i > 0 && (r == '-' || r >= '0' && r <= '9')) {
			return false
		}
	}
	return w != ""
}

// isFlagWord reports whether w looks like a flag name, not a placeholder.
func isFlagWord(w string) bool {
	for i, r := range w {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && (r == '-' || r == '_' || r == '.' || r >= '0' && r <= '9')) {
			return false
		}
	}
	return w != ""
}

// closestOf returns the unique name of names within a third of w's length
// of it, or "".
func closestOf(w string, names []string) string {
	var near []string
	for _, n := range names {
		if strings.HasPrefix(n, "-") {
			continue
		}
		if prose.EditDistance(w, n) <= max(1, len(w)/3) {
			near = append(near, n)
		}
	}
	if len(near) != 1 {
		return ""
	}
	return near[0]
}

// keys returns the sorted keys of m.
func keys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// cliFinding reports an unknown flag or subcommand.
func cliFinding(r *CLIFlag, c review.Claim, u cliUse) *review.Verdict {
	hop := fmt.Sprintf("%s:%d (shell block)", c.Path, u.line)
	v := &review.Verdict{Label: review.Contradicted, Rule: r.Name(), Confidence: 0.9}
	what := "flag"
	if u.sub {
		what = "subcommand"
	}
	who := u.cmd.name
	if u.node != nil {
		who = u.path
	}
	v.Message = fmt.Sprintf("The shell block runs %s with the %s %s, which %s does not define", who, what, u.word, who)
	if u.closest != "" {
		v.Message += fmt.Sprintf(" (closest: %s)", u.shown())
	}
	v.Message += "."
	v.Evidence = append(v.Evidence, review.Evidence{
		Path: c.Path, StartLine: u.line, EndLine: u.line, Source: review.SourceDoc,
		Why: fmt.Sprintf("shell block runs %s %s", who, u.word), Hops: []string{hop},
	})
	if u.node != nil {
		def, why := treeEvidence(u)
		v.Evidence = append(v.Evidence, review.Evidence{
			Path: def.path, StartLine: def.line, EndLine: def.line, Source: review.SourceCode, Why: why, Hops: []string{hop, who},
		})
		return v
	}
	def := u.cmd.flags[u.closest]
	if u.sub {
		def = u.cmd.subLine
	}
	if def.path == "" {
		// No close flag: cite the definitions of the file that registers
		// most of them.
		byFile := map[string][]int{}
		for _, d := range u.cmd.flags {
			byFile[d.path] = append(byFile[d.path], d.line)
		}
		best := ""
		for p, ls := range byFile {
			if best == "" || len(ls) > len(byFile[best]) || len(ls) == len(byFile[best]) && p < best {
				best = p
			}
		}
		ls := byFile[best]
		v.Evidence = append(v.Evidence, review.Evidence{
			Path: best, StartLine: slices.Min(ls), EndLine: slices.Max(ls), Source: review.SourceCode,
			Why: fmt.Sprintf("%s defines the flags %s", u.cmd.name, shortList(keys(u.cmd.flags), 12)), Hops: []string{hop, u.cmd.name},
		})
		return v
	}
	why := fmt.Sprintf("%s defines the flag %s", u.cmd.name, u.closest)
	if u.sub {
		var subs []string
		for _, s := range keys(u.cmd.subs) {
			if isSubWord(s) {
				subs = append(subs, s)
			}
		}
		why = fmt.Sprintf("%s dispatches the subcommands %s", u.cmd.name, joinAnd(subs))
	}
	v.Evidence = append(v.Evidence, review.Evidence{
		Path: def.path, StartLine: def.line, EndLine: def.line, Source: review.SourceCode, Why: why, Hops: []string{hop, u.cmd.name},
	})
	return v
}

// cliFix returns the claim's text with the unknown word of a shell line
// replaced by its unique close name, or "" when there is none or the
// line (one of lines, the physical lines of the shell line) cannot be
// found exactly once in the text.
func cliFix(text string, lines []string, u cliUse) string {
	if u.closest == "" {
		return ""
	}
	for _, l := range lines {
		fixed, ok := replaceWord(l, u.word, u.shown())
		if !ok {
			continue
		}
		if strings.Count(text, l) != 1 {
			return ""
		}
		return strings.Replace(text, l, fixed, 1)
	}
	return ""
}

// replaceWord replaces the first whitespace-separated word of line equal
// to word (or starting with word followed by "=") with repl.
func replaceWord(line, word, repl string) (string, bool) {
	for i := 0; i+len(word) <= len(line); {
		j := strings.Index(line[i:], word)
		if j < 0 {
			return "", false
		}
		j += i
		end := j + len(word)
		before := j == 0 || line[j-1] == ' ' || line[j-1] == '\t'
		after := end == len(line) || line[end] == ' ' || line[end] == '\t' || line[end] == '=' && strings.HasPrefix(word, "-")
		if before && after {
			return line[:j] + repl + line[end:], true
		}
		i = j + 1
	}
	return "", false
}

// shortList joins at most n names as prose, counting the rest.
func shortList(names []string, n int) string {
	if len(names) <= n {
		return joinAnd(names)
	}
	return fmt.Sprintf("%s and %d more", strings.Join(names[:n], ", "), len(names)-n)
}

// fileLines returns the lines of a file at head.
func (r *CLIFlag) fileLines(ws *review.Workspace, path string) ([]string, error) {
	return headLines(&r.lines, ws, path)
}
