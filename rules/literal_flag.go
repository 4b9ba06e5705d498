package rules

import (
	"fmt"
	"go/constant"
	"path"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/docreview/docreview/review"
	"github.com/docreview/docreview/rules/clitree"
)

// Flag defaults in a program's help output copied into the docs. The
// standard flag package prints a flag as
//
//	  -timeout int
//	    	Read timeout in milliseconds (default 6000)
//
// and pflag (cobra) as
//
//	  -t, --timeout duration   Read timeout (default 6s)
//
// A line of that shape binds the default it prints to the flag the module
// registers under that name, with a constant default, on any flag set of
// either package: the one such registration, or the ones whose usage text
// the line's description repeats, all with the same default. The printed
// default is compared as the help output would print the code's: quoted
// for strings, as time.Duration prints it for durations. A flag whose
// default is its zero value is left alone (the help output prints none,
// and the program may set one elsewhere), as are descriptions that share
// too little with the usage text to be this program's.

// stdFlagLineRE is the first line of a flag in the standard flag
// package's help output: "  -name type", a one-letter flag's usage after
// a tab on the same line.
var stdFlagLineRE = regexp.MustCompile(`^\s{1,4}-([A-Za-z0-9][\w.-]*)(?: ([\w.\[\]]+))?(?:\t(.*))?\s*$`)

// pflagLineRE is a flag of pflag's help output: "  -n, --name type   usage";
// urfave/cli v2 writes the short name after: "--name value, -n value  usage".
var pflagLineRE = regexp.MustCompile(`^\s+(?:-([A-Za-z0-9]), )?--([A-Za-z0-9][\w.-]*)(?: ([\w.\[\]<>]+))?(?:, -([A-Za-z0-9])(?: [\w.\[\]<>]+)?)?(?:\s{2,}(.*))?$`)

// helpDefaultRE is the default the help output prints at the end of a
// flag's usage: "(default 6s)", or urfave/cli's "(default: 1m0s)" with
// the environment variables it reads after it ("[$TRIVY_TIMEOUT]").
var helpDefaultRE = regexp.MustCompile(`\(default:? (\S.*?)\)(?:\s*\[\$[\w$, ]+\])?\s*$`)

// helpFlag is one flag of help output in a claim.
type helpFlag struct {
	name, short string
	desc        string // the usage text, without the default
	shown       string // the default as printed: "30000", `"./data"`
	line        int    // the claim line the default is printed on, from 0
}

// helpFlags reads the flags of help output in text whose usage ends with
// a printed default.
func helpFlags(text string) []helpFlag {
	type descLine struct {
		i int
		t string
	}
	type entry struct {
		name, short string
		desc        []descLine
	}
	var entries []*entry
	var cur *entry
	for i, l := range strings.Split(text, "\n") {
		if m := pflagLineRE.FindStringSubmatch(l); m != nil {
			cur = &entry{name: m[2], short: m[1] + m[4]}
			entries = append(entries, cur)
			if t := strings.TrimSpace(m[5]); t != "" {
				cur.desc = append(cur.desc, descLine{i, t}) // pflag prints the usage on the flag's line
			}
			continue
		}
		if m := stdFlagLineRE.FindStringSubmatch(l); m != nil {
			cur = &entry{name: m[1]}
			entries = append(entries, cur)
			if t := strings.TrimSpace(m[3]); t != "" {
				cur.desc = append(cur.desc, descLine{i, t})
			}
			continue
		}
		t := strings.TrimSpace(l)
		if cur != nil && t != "" && (strings.HasPrefix(l, "\t") || strings.HasPrefix(l, "    ")) {
			cur.desc = append(cur.desc, descLine{i, t})
			continue
		}
		cur = nil
	}
	var out []helpFlag
	for _, e := range entries {
		if len(e.desc) == 0 {
			continue
		}
		last := e.desc[len(e.desc)-1]
		m := helpDefaultRE.FindStringSubmatch(last.t)
		if m == nil {
			continue
		}
		var words []string
		for _, d := range e.desc {
			words = append(words, d.t)
		}
		desc := strings.Join(words, " ")
		desc = strings.TrimSpace(desc[:len(desc)-len(last.t)] + helpDefaultRE.ReplaceAllString(last.t, ""))
		out = append(out, helpFlag{name: e.name, short: e.short, desc: desc, shown: m[1], line: last.i})
	}
	return out
}

// failureLineRE is a line of a failed run's output: cobra prints the
// usage after the error.
var failureLineRE = regexp.MustCompile(`^\s*(?:Error|ERRO|FATAL|panic)\b`)

// failureTranscript reports whether the lines of text before line
// (the first printed default) hold an error line: the help output is part
// of a failed run quoted for its error (kind's known issues quote a node
// image build that ran out of memory, with the usage of that day), not
// the program's reference.
func failureTranscript(text string, line int) bool {
	lines := strings.Split(text, "\n")
	for _, l := range lines[:min(line, len(lines))] {
		if failureLineRE.MatchString(l) {
			return true
		}
	}
	return false
}

// flagDefaults indexes the module's flag registrations with constant
// defaults by name (see clitree.FlagDefaults).
func (r *LiteralMismatch) flagDefaults(ws *review.Workspace) map[string][]clitree.FlagDefault {
	m, _ := r.flagDefs.get(ws, "", func() (map[string][]clitree.FlagDefault, error) {
		out := map[string][]clitree.FlagDefault{}
		for _, p := range ws.Symbols.Packages() {
			if strings.Contains("/"+p.Dir+"/", "/testdata/") {
				continue
			}
			for _, fd := range clitree.FlagDefaults(p) {
				if strings.HasSuffix(fd.Def.Path, "_test.go") {
					continue
				}
				out[fd.Name] = append(out[fd.Name], fd)
			}
		}
		return out, nil
	})
	return m
}

// judgeFlagHelp compares the defaults of help output in a claim with the
// flags' registrations.
func (r *LiteralMismatch) judgeFlagHelp(ws *review.Workspace, c review.Claim) *review.Verdict {
	if !strings.Contains(c.Text, "(default ") && !strings.Contains(c.Text, "(default: ") {
		return nil
	}
	flags := helpFlags(c.Text)
	if len(flags) == 0 || failureTranscript(c.Text, flags[0].line) {
		return nil
	}
	defs := r.flagDefaults(ws)
	type mismatch struct {
		hf helpFlag
		fd clitree.FlagDefault
	}
	var bad []mismatch
	for _, hf := range flags {
		fd, ok := bindHelpFlag(hf, defs[hf.name])
		if !ok || fd.Shown == "" {
			continue
		}
		if same, ok := sameShownDefault(fd, hf.shown); ok && !same {
			bad = append(bad, mismatch{hf, fd})
		}
	}
	if len(bad) == 0 {
		return nil
	}
	first := bad[0]
	dash := "-"
	if first.fd.Lib != "flag" {
		dash = "--"
	}
	msg := fmt.Sprintf("The help output gives %s%s the default %s, but the flag is registered with %s.", dash, first.hf.name, first.hf.shown, registeredWith(first.fd, "printed as "))
	if len(bad) > 1 {
		var also []string
		for _, b := range bad[1:] {
			also = append(also, fmt.Sprintf("%s (%s, registered with %s)", b.hf.name, b.hf.shown, b.fd.Shown))
		}
		msg += " Also: " + strings.Join(also, "; ") + "."
	}
	ev := make([]review.Evidence, 0, len(bad))
	for _, b := range bad {
		ev = append(ev, flagEvidence(c, c.Line+b.hf.line, b.fd))
	}
	lines := strings.Split(c.Text, "\n")
	for _, b := range bad {
		l := lines[b.hf.line]
		for _, lead := range []string{"(default ", "(default: "} {
			if old := lead + b.hf.shown + ")"; strings.Count(l, old) == 1 {
				lines[b.hf.line] = strings.Replace(l, old, lead+b.fd.Shown+")", 1)
			}
		}
	}
	return r.flagVerdict(msg, strings.Join(lines, "\n"), ev...)
}

// registeredWith is a registration's default as written, with how the
// help output prints it when that differs, after lead ("printed as ").
func registeredWith(fd clitree.FlagDefault, lead string) string {
	if fd.Expr == fd.Shown {
		return fd.Expr
	}
	return fd.Expr + " (" + lead + fd.Shown + ")"
}

// docDefault is a registration's default as a doc writes it outside help
// output: a string without its quotes.
func docDefault(fd clitree.FlagDefault) string {
	if fd.Type == "String" {
		return constant.StringVal(fd.Value)
	}
	return fd.Shown
}

// flagEvidence cites a flag's registration, reached from the claim's
// line.
func flagEvidence(c review.Claim, line int, fd clitree.FlagDefault) review.Evidence {
	return review.Evidence{
		Path: fd.Def.Path, StartLine: fd.Def.Line, EndLine: fd.Def.Line, Source: review.SourceCode,
		Why:  fmt.Sprintf("%s registers %q with the default %s", path.Base(fd.Def.Path), fd.Name, fd.Expr),
		Hops: []string{fmt.Sprintf("%s:%d", c.Path, line), fd.Name},
	}
}

// flagVerdict contradicts a flag default a doc states.
func (r *LiteralMismatch) flagVerdict(msg, suggestion string, ev ...review.Evidence) *review.Verdict {
	return &review.Verdict{
		Label:      review.Contradicted,
		Rule:       r.Name(),
		Message:    msg,
		Confidence: 0.85,
		Suggestion: suggestion,
		Evidence:   ev,
	}
}

// bindHelpFlag picks the registration a help line describes: among those
// of its name (and shorthand), the ones whose usage text the description
// repeats, else the only one when its usage is not a constant or shares
// enough words with the description; all of them must print the same
// default.
func bindHelpFlag(hf helpFlag, cands []clitree.FlagDefault) (clitree.FlagDefault, bool) {
	var named []clitree.FlagDefault
	for _, fd := range cands {
		if hf.short != "" && fd.Short != "" && fd.Short != hf.short {
			continue
		}
		named = append(named, fd)
	}
	var similar []clitree.FlagDefault
	for _, fd := range named {
		if fd.Usage != "" && usageOverlap(hf.desc, fd.Usage) >= 0.6 {
			similar = append(similar, fd)
		}
	}
	if len(similar) == 0 {
		if len(named) != 1 || named[0].Usage != "" && usageOverlap(hf.desc, named[0].Usage) < 0.3 {
			return clitree.FlagDefault{}, false
		}
		similar = named
	}
	for _, fd := range similar[1:] {
		if fd.Shown != similar[0].Shown {
			return clitree.FlagDefault{}, false
		}
	}
	return similar[0], true
}

// usageOverlap is the share of the words of the shorter of a and b that
// the other has too, ignoring case and punctuation.
func usageOverlap(a, b string) float64 {
	words := func(s string) map[string]bool {
		m := map[string]bool{}
		for _, w := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
			return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9')
		}) {
			m[w] = true
		}
		return m
	}
	wa, wb := words(a), words(b)
	if len(wa) > len(wb) {
		wa, wb = wb, wa
	}
	if len(wa) == 0 {
		return 0
	}
	n := 0
	for w := range wa {
		if wb[w] {
			n++
		}
	}
	return float64(n) / float64(len(wa))
}

// sameShownDefault compares a printed default with the registration's;
// ok is false when the printed one cannot be read as the flag's type.
func sameShownDefault(fd clitree.FlagDefault, shown string) (same, ok bool) {
	shown = strings.TrimSpace(shown)
	switch {
	case fd.Type == "String":
		s := shown
		if u, err := strconv.Unquote(shown); err == nil {
			s = u
		}
		return s == constant.StringVal(fd.Value), true
	case fd.Type == "Bool":
		b, err := strconv.ParseBool(shown)
		if err != nil {
			return false, false
		}
		return b == constant.BoolVal(fd.Value), true
	case fd.Type == "Duration":
		d, err := time.ParseDuration(shown)
		if err != nil {
			return false, false
		}
		n, _ := constant.Int64Val(constant.ToInt(fd.Value))
		return int64(d) == n, true
	case strings.HasPrefix(fd.Type, "Float"):
		f, err := strconv.ParseFloat(shown, 64)
		if err != nil {
			return false, false
		}
		v, _ := constant.Float64Val(constant.ToFloat(fd.Value))
		return f == v, true
	default:
		n, ok := constant.Int64Val(constant.ToInt(fd.Value))
		if !ok {
			return false, false
		}
		i, err := strconv.ParseInt(shown, 10, 64)
		if err != nil {
			return false, false
		}
		return i == n, true
	}
}

// flagProseRE is a flag named in prose or a list with the default the
// sentence gives it: "`--port`: Port to listen on (default: 443)",
// "`-port` (defaults to `4443`)", "`--bind` defaults to `127.0.0.1:9014`".
// The flag is written with its dashes, in backticks; no other flag, and
// no sentence end, stands between it and the default.
var flagProseRE = regexp.MustCompile("`(--?[A-Za-z][\\w.-]*)(?:[ =][^`]*)?`([^.;|`]{0,60}?)(?:\\(defaults?(?:\\s+to|:)?|\\bdefaults?\\s+(?:to|is)|\\bdefault:)\\s+(`[^`]+`|\"[^\"]*\"|[^\\s,;)]+)")

// judgeFlagProse compares the defaults sentences give flags with the
// flags' registrations (see flagProseRE): the flag's one registration
// with a constant default, or several that agree.
func (r *LiteralMismatch) judgeFlagProse(ws *review.Workspace, c review.Claim) *review.Verdict {
	if !strings.Contains(c.Text, "default") || !strings.Contains(c.Text, "`-") || len(helpFlags(c.Text)) > 0 {
		return nil
	}
	defs := r.flagDefaults(ws)
	for _, m := range flagProseRE.FindAllStringSubmatchIndex(c.Text, -1) {
		flag := c.Text[m[2]:m[3]]
		name := strings.TrimLeft(flag, "-")
		if len(name) < 2 || strings.Contains(c.Text[m[4]:m[5]], "--") {
			continue
		}
		cands := defs[name]
		if len(cands) == 0 || cands[0].Shown == "" {
			continue
		}
		agree := true
		for _, fd := range cands[1:] {
			if fd.Shown != cands[0].Shown {
				agree = false
			}
		}
		if !agree {
			continue
		}
		fd := cands[0]
		written := c.Text[m[6]:m[7]]
		val := strings.TrimSuffix(strings.Trim(written, "`"), ".")
		if same, ok := sameShownDefault(fd, val); !ok || same {
			continue
		}
		suggestion := ""
		if strings.Count(c.Text, c.Text[m[0]:m[1]]) == 1 {
			suggestion = c.Text[:m[6]] + strings.Replace(written, val, docDefault(fd), 1) + c.Text[m[7]:]
		}
		msg := fmt.Sprintf("The doc gives %s the default %s, but the flag is registered with %s.", flag, written, registeredWith(fd, ""))
		return r.flagVerdict(msg, suggestion, flagEvidence(c, c.Line, fd))
	}
	return nil
}

// flagCellRE is a flag in a table cell: "`--tail`", "[`-n`](…), [`--tail`](…)".
var flagCellRE = regexp.MustCompile("`(--?[A-Za-z][\\w.-]*)`")

// descHeaderRE is a table header cell naming the description column.
var descHeaderRE = regexp.MustCompile(`(?i)^\s*\**\s*(?:description|usage|meaning)\s*\**\s*$`)

// judgeFlagTable checks the Default cell of a Markdown table row whose
// first cell names a flag (docker's generated CLI references: "| `--tail`
// | `string` | `all` | Number of lines … |"), bound as a help line is,
// the Description cell standing for the usage text.
func (r *LiteralMismatch) judgeFlagTable(ws *review.Workspace, c review.Claim) *review.Verdict {
	if c.Kind != review.KindMarkdown || !strings.HasPrefix(c.Text, "|") || !strings.Contains(c.Text, "`-") {
		return nil
	}
	header, ok := tableHeader(ws, c)
	if !ok {
		return nil
	}
	col, desc := -1, -1
	for i, h := range header {
		switch {
		case defaultHeaderRE.MatchString(h):
			if col >= 0 {
				return nil
			}
			col = i
		case descHeaderRE.MatchString(h):
			desc = i
		}
	}
	cells := splitRow(c.Text)
	if col <= 0 || len(cells) != len(header) {
		return nil
	}
	hf := helpFlag{}
	for _, m := range flagCellRE.FindAllStringSubmatch(cells[0], -1) {
		switch n := m[1]; {
		case strings.HasPrefix(n, "--"):
			hf.name = n[2:]
		case len(n) == 2:
			hf.short = n[1:]
		case hf.name == "":
			hf.name = n[1:]
		}
	}
	if hf.name == "" {
		return nil
	}
	if desc >= 0 {
		hf.desc = cells[desc]
	}
	fd, ok := bindHelpFlag(hf, r.flagDefaults(ws)[hf.name])
	if !ok || fd.Shown == "" {
		return nil
	}
	cell := strings.TrimSpace(cells[col])
	val := strings.Trim(cell, "`")
	if val == "" || val == "-" || val == "—" {
		return nil
	}
	if same, ok := sameShownDefault(fd, val); !ok || same {
		return nil
	}
	suggestion := ""
	if strings.Count(c.Text, cell) == 1 {
		suggestion = strings.Replace(c.Text, cell, strings.Replace(cell, val, docDefault(fd), 1), 1)
	}
	msg := fmt.Sprintf("The table gives --%s the default %s, but the flag is registered with %s.", hf.name, cell, registeredWith(fd, ""))
	return r.flagVerdict(msg, suggestion, flagEvidence(c, c.Line, fd))
}
