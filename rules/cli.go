package rules

import (
	"context"
	"fmt"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/docreview/docreview/retrieval"
	"github.com/docreview/docreview/review"
	"github.com/docreview/docreview/review/prose"
	"github.com/docreview/docreview/rules/clitree"
)

// command is what the module's code says about one of its binaries: for a
// program using the standard flag package, the flags every flag set of its
// main package registers and the subcommands its dispatch switch accepts
// (kept only when every registration has a constant name); for one built
// with cobra, urfave/cli or kong, its command tree (see clitree.Tree).
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
	flags map[string]clitree.Pos
	// values says whether each flag reads the next word as its value.
	values map[string]clitree.ValueKind
	// subs is nil when the package has no dispatch switch on its first
	// argument: then subcommands are not checked.
	subs    map[string]bool
	subLine clitree.Pos // where the dispatch switch is
	// tree is set for a program built with a command-line framework;
	// flags and subs are then unused.
	tree *clitree.Tree
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
				name = clitree.ImportName(p.Module) // without a /v2 suffix
			}
			if name == "." || name == "" || name == "/" {
				continue
			}
			cmd, ok := readCommand(ws.Symbols, p)
			names := []string{name}
			if ok && cmd.tree != nil {
				for _, n := range cmd.tree.Names {
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
// imports, is read as that framework's command tree (see clitree.Read);
// one that imports another framework, or several, is not read.
func readCommand(syms *retrieval.Symbols, p *retrieval.Package) (*command, bool) {
	cmd := &command{dir: p.Dir, flags: map[string]clitree.Pos{}}
	fw, known := clitree.Framework(syms, p)
	if !known {
		return nil, false
	}
	if fw != "" {
		cmd.tree = clitree.Read(syms, p, fw)
		return cmd, cmd.tree != nil
	}
	std, ok := clitree.ReadStd(p)
	cmd.flags, cmd.values, cmd.subs, cmd.subLine = std.Flags, std.Values, std.Subs, std.Switch
	return cmd, ok
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
	node  *clitree.Node
	path  string
	flags map[string]clitree.Flag // the flags node accepts
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
	value := false // the word is the previous flag's value
	for i, w := range words {
		if w == "--" {
			break
		}
		if value {
			value = false
			continue
		}
		if !strings.HasPrefix(w, "-") {
			if i == 0 && cmd.subs != nil && clitree.IsCommandName(w) && !cmd.subs[w] {
				return cliUse{cmd: cmd, word: w, sub: true, closest: closestOf(w, keys(cmd.subs))}, true
			}
			if cmd.subs == nil {
				// The flag package stops at the first argument: the
				// words after it are the program's to read ("air server
				// --port 8080" passes --port to the binary air runs).
				break
			}
			continue
		}
		name := strings.TrimLeft(w, "-")
		name, _, hasEq := strings.Cut(name, "=")
		if !isFlagWord(name) || name == "h" || name == "help" || cmd.subs[w] {
			continue
		}
		if _, ok := cmd.flags[name]; !ok {
			return cliUse{cmd: cmd, word: w, closest: closestOf(name, keys(cmd.flags))}, true
		}
		if !hasEq {
			switch cmd.values[name] {
			case clitree.ValueYes:
				value = true
			case clitree.ValueUnknown:
				if cmd.subs == nil {
					// The next word may be its value or the first
					// argument.
					return cliUse{}, false
				}
			}
		}
	}
	return cliUse{}, false
}

// accepted returns the flags the last command of chain accepts: its own,
// those its ancestors pass down, and the built-in help flags; open is set
// when one of them may have flags the rule did not read.
func accepted(chain []*clitree.Node) (flags map[string]clitree.Flag, open bool) {
	flags = map[string]clitree.Flag{
		"help": {Long: "help", Value: clitree.ValueNo}, "h": {Long: "help", Value: clitree.ValueNo},
	}
	last := chain[len(chain)-1]
	for _, n := range chain {
		open = open || n.FlagsOpen
		for k, f := range n.Inherit {
			flags[k] = f
		}
	}
	for k, f := range last.Flags {
		flags[k] = f
	}
	return flags, open
}

// subtreeFlag finds a flag by name in the commands under n (n included),
// for reading the words that follow it before the final subcommand is
// known; found is false when no command has it or they disagree on
// whether it takes a value.
func subtreeFlag(n *clitree.Node, name string) (v clitree.ValueKind, found bool) {
	n.Walk(func(m *clitree.Node, _ int) {
		for _, fs := range []map[string]clitree.Flag{m.Flags, m.Inherit} {
			if f, ok := fs[name]; ok {
				if found && f.Value != v {
					v = clitree.ValueUnknown
				}
				v, found = f.Value, true
			}
		}
	})
	return v, found
}

// checkTree finds the first flag or subcommand of a shell line's words
// (after the program name) that a framework-built command does not define.
// It walks the subcommand words down the tree, then checks the flags
// against the command they reach: cobra reads flags given before the
// subcommand with the subcommand's flag set. A word is reported only when
// nothing the rule could not read might define it: the flags of every
// command on the path must be known, and a word is an unknown subcommand
// only where the command takes no positional arguments. urfave/cli stops
// reading flags at the first positional argument.
func checkTree(cmd *command, words []string) (cliUse, bool) {
	t := cmd.tree
	chain := []*clitree.Node{t.Root}
	path := []string{cmd.name}
	type flagWord struct{ word, name string }
	var flagWords []flagWord
	// uncertain: a word may have been a flag's value or a subcommand.
	seenArg, uncertain := false, false
	for i := 0; i < len(words); i++ {
		w := words[i]
		cur := chain[len(chain)-1]
		if w == "--" {
			break
		}
		if strings.HasPrefix(w, "-") && w != "-" {
			if seenArg && t.Framework == "urfave/cli" {
				break
			}
			body := strings.TrimLeft(w, "-")
			dashes := len(w) - len(body)
			name, _, hasEq := strings.Cut(body, "=")
			if dashes > 2 || !isFlagWord(name) || dashes == 1 && len(name) > 1 && t.Framework != "urfave/cli" {
				// placeholders, shorthand clusters (-abc) and -1
				uncertain = true
				continue
			}
			flagWords = append(flagWords, flagWord{w, name})
			v := clitree.ValueNo
			if fs, _ := accepted(chain); fs[name].Long != "" {
				v = fs[name].Value
			} else if sv, ok := subtreeFlag(cur, name); ok {
				v = sv
			} else if _, open := accepted(chain); !open && !subtreeOpen(cur) {
				// no command from here down defines it
				return unknownFlag(cmd, chain, path, w, name), true
			} else {
				v = clitree.ValueUnknown
			}
			switch {
			case hasEq:
			case v == clitree.ValueYes:
				i++
			case v == clitree.ValueUnknown:
				uncertain = true
			}
			continue
		}
		if seenArg || uncertain {
			seenArg = true
			if t.Framework == "urfave/cli" {
				break
			}
			continue
		}
		if child := cur.Child(w); child != nil {
			chain = append(chain, child)
			path = append(path, w)
			continue
		}
		if len(cur.Subs) == 0 || cur.SubsOpen || cur.TakesArgs || !clitree.IsCommandName(w) {
			seenArg = true
			continue
		}
		var names []string
		for _, s := range cur.Subs {
			if !s.Builtin && s.Name != "h" {
				names = append(names, s.Name)
				names = append(names, s.Aliases...)
			}
		}
		return cliUse{cmd: cmd, word: w, sub: true, closest: closestOf(w, names), node: cur, path: strings.Join(path, " ")}, true
	}
	last := chain[len(chain)-1]
	flags, open := accepted(chain)
	if open || uncertain && len(last.Subs) > 0 {
		return cliUse{}, false
	}
	for _, fw := range flagWords {
		if _, ok := flags[fw.name]; !ok {
			return unknownFlag(cmd, chain, path, fw.word, fw.name), true
		}
	}
	return cliUse{}, false
}

// subtreeOpen reports whether a command under n (n included) may have
// flags the rule did not read.
func subtreeOpen(n *clitree.Node) bool {
	open := false
	n.Walk(func(m *clitree.Node, _ int) {
		open = open || m.FlagsOpen && !m.Builtin
	})
	return open
}

// unknownFlag describes flag word w (named name) given to the last
// command of chain, with the unique close long name it accepts.
func unknownFlag(cmd *command, chain []*clitree.Node, path []string, w, name string) cliUse {
	flags, _ := accepted(chain)
	closest := ""
	if len(name) > 2 {
		var longs []string
		for k := range flags {
			if len(k) > 1 {
				longs = append(longs, k)
			}
		}
		closest = closestOf(name, longs)
	}
	return cliUse{cmd: cmd, word: w, closest: closest, node: chain[len(chain)-1], path: strings.Join(path, " "), flags: flags}
}

// treeEvidence returns the definition a finding on a framework-built
// command cites, and why: the close flag or subcommand when there is one,
// else the command's definition with what it accepts.
func treeEvidence(u cliUse) (clitree.Pos, string) {
	if u.sub {
		var names []string
		for _, s := range u.node.Subs {
			if s.Builtin {
				continue
			}
			if s.Name == u.closest || slices.Contains(s.Aliases, u.closest) {
				return s.Def, fmt.Sprintf("%s defines the subcommand %s", u.path, u.closest)
			}
			names = append(names, s.Name)
		}
		slices.Sort(names)
		return u.node.Def, fmt.Sprintf("%s defines the subcommands %s", u.path, shortList(names, 12))
	}
	if u.closest != "" {
		if f, ok := u.flags[u.closest]; ok && f.Def.Path != "" {
			return f.Def, fmt.Sprintf("%s defines the flag --%s", u.path, u.closest)
		}
	}
	var names []string
	for _, f := range u.flags {
		if f.Def.Path != "" && !slices.Contains(names, "--"+f.Long) {
			names = append(names, "--"+f.Long)
		}
	}
	slices.Sort(names)
	return u.node.Def, fmt.Sprintf("%s defines the flags %s", u.path, shortList(names, 12))
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
			Path: def.Path, StartLine: def.Line, EndLine: def.Line, Source: review.SourceCode, Why: why, Hops: []string{hop, who},
		})
		return v
	}
	def := u.cmd.flags[u.closest]
	if u.sub {
		def = u.cmd.subLine
	}
	if def.Path == "" {
		// No close flag: cite the definitions of the file that registers
		// most of them.
		byFile := map[string][]int{}
		for _, d := range u.cmd.flags {
			byFile[d.Path] = append(byFile[d.Path], d.Line)
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
			if clitree.IsCommandName(s) {
				subs = append(subs, s)
			}
		}
		why = fmt.Sprintf("%s dispatches the subcommands %s", u.cmd.name, joinAnd(subs))
	}
	v.Evidence = append(v.Evidence, review.Evidence{
		Path: def.Path, StartLine: def.Line, EndLine: def.Line, Source: review.SourceCode, Why: why, Hops: []string{hop, u.cmd.name},
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
