package rules

import (
	"cmp"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"maps"
	"regexp"
	"slices"
	"strings"

	"github.com/docreview/docreview/retrieval"
	"github.com/docreview/docreview/review"
	"github.com/docreview/docreview/review/prose"
)

// Defaults in a configuration reference table: a Markdown table row whose
// first cell is a configuration key ("decision_logs.reporting.
// buffer_size_limit_events", "services[m].healthCheck.interval") and that
// states a default (in a Default column, or a sentence of another cell
// with the word default) speaks of the module's constant named as that
// key's default: DefaultHealthCheckInterval for healthCheck.interval,
// defaultBufferSizeLimitEvents for buffer_size_limit_events. The key's
// last part must be about nothing the constant's name is not
// (unhealthyInterval is not DefaultHealthCheckInterval), and the
// constant's name about nothing the key's last two parts are not. Every
// such constant of the module must hold the same value.

// configKeyRE is a configuration key: dotted parts of letters, digits,
// underscores and dashes, each with an optional index ("servers[0]").
var configKeyRE = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_-]*(?:\[[^\]]*\])?(?:\.[A-Za-z][A-Za-z0-9_-]*(?:\[[^\]]*\])?)*$`)

// keyIndexRE is an index of a key part.
var keyIndexRE = regexp.MustCompile(`\[[^\]]*\]`)

// tableKey returns the configuration key a first cell names: the text of
// its code spans joined ("`services[m].`<br />`healthCheck.interval`"), or
// the cell without emphasis; false when that is no key.
func tableKey(cell string) (string, bool) {
	var key string
	if strings.Count(cell, "`") >= 2 {
		parts := strings.Split(cell, "`")
		for i := 1; i < len(parts); i += 2 {
			key += parts[i]
		}
	} else {
		key = strings.Trim(cell, "* ")
	}
	key = strings.TrimSpace(key)
	return key, key != "" && configKeyRE.MatchString(key)
}

// keyParts returns the dotted parts of a key without their indexes.
func keyParts(key string) []string {
	var out []string
	for _, p := range strings.Split(keyIndexRE.ReplaceAllString(key, ""), ".") {
		if p != "" {
			out = append(out, p)
		}
	}
	return out
}

// namedDefault is a constant of the module whose name says it is a
// default, with the words its name is about.
type namedDefault struct {
	name  string
	topic []string
	site  valueSite
}

// moduleDefaults returns the constants of every package of the workspace
// whose names say they are defaults, computed once per workspace; a
// constant whose value is not known has a nil one.
func (r *LiteralMismatch) moduleDefaults(ws *review.Workspace) []namedDefault {
	out, _ := r.defaults.get(ws, "", func() ([]namedDefault, error) {
		var out []namedDefault
		for _, p := range ws.Symbols.Packages() {
			if p.Types == nil || strings.HasSuffix(p.Types.Name(), "_test") {
				continue
			}
			pv := r.pkgValuesOf(ws, p)
			for _, n := range slices.Sorted(maps.Keys(pv.byName)) {
				s := pv.byName[n]
				if !slices.Contains(prose.Words(n), "default") {
					continue
				}
				if t := prose.TopicWords(n); len(t) > 0 {
					out = append(out, namedDefault{name: n, topic: t, site: s})
				}
			}
			out = append(out, localDefaults(p)...)
		}
		return out, nil
	})
	return out
}

// localDefaults returns the local variables of a package's funcs whose
// names say they are defaults ("defaultReadTimeout :=
// ptypes.Duration(3 * time.Second)" in a SetDefaults method), with their
// values when constant: another default a key may speak of, which makes a
// binding to a package-level one of the same words ambiguous.
func localDefaults(p *retrieval.Package) []namedDefault {
	if p.Info == nil || p.Fset == nil {
		return nil
	}
	var out []namedDefault
	add := func(id *ast.Ident, val ast.Expr, at ast.Node) {
		if id == nil || val == nil || !slices.Contains(prose.Words(id.Name), "default") {
			return
		}
		v, _ := exprValue(p.Info, nil, val)
		obj := p.Info.Defs[id]
		t := prose.TopicWords(id.Name)
		if obj == nil || len(t) == 0 {
			return
		}
		a, b := p.Fset.Position(at.Pos()), p.Fset.Position(at.End())
		expr := types.ExprString(val)
		out = append(out, namedDefault{name: id.Name, topic: t, site: valueSite{
			val: v, typ: obj.Type(), name: id.Name, expr: expr, why: id.Name + " := " + expr,
			path: a.Filename, line: a.Line, end: max(a.Line, b.Line),
		}})
	}
	for _, f := range p.Syntax {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.AssignStmt:
					if n.Tok == token.DEFINE && len(n.Lhs) == 1 && len(n.Rhs) == 1 {
						id, _ := n.Lhs[0].(*ast.Ident)
						add(id, n.Rhs[0], n)
					}
				case *ast.ValueSpec:
					if len(n.Names) == 1 && len(n.Values) == 1 {
						add(n.Names[0], n.Values[0], n)
					}
				}
				return true
			})
		}
	}
	return out
}

// judgeTableKey checks the defaults a configuration reference table row
// states against the constant named as its key's default.
func (r *LiteralMismatch) judgeTableKey(ws *review.Workspace, c review.Claim) *review.Verdict {
	if c.Kind != review.KindMarkdown || !strings.HasPrefix(c.Text, "|") || hasCodeBlock(c) {
		return nil
	}
	header, ok := tableHeader(ws, c)
	if !ok {
		return nil
	}
	cells := splitRow(c.Text)
	if len(cells) < 2 || len(cells) != len(header) {
		return nil
	}
	key, ok := tableKey(cells[0])
	if !ok {
		return nil
	}
	parts := keyParts(key)
	if len(parts) == 0 {
		return nil
	}
	last := prose.TopicWords(parts[len(parts)-1])
	if len(last) == 0 {
		return nil
	}
	var near []string
	for _, p := range parts[max(0, len(parts)-2):] {
		near = append(near, prose.Words(p)...)
	}
	var tied []namedDefault
	for _, d := range r.moduleDefaults(ws) {
		if prose.TopicCovers(near, d.topic) && prose.TopicCovers(d.topic, last) {
			tied = append(tied, d)
		}
	}
	if len(tied) == 0 {
		return nil
	}
	// A default whose value is not known (computed, or of a type that
	// did not load) may be the one the key speaks of.
	for _, d := range tied {
		if d.site.val == nil || !sameConstant(d.site.val, tied[0].site.val) {
			return nil
		}
	}
	site := tied[0].site
	// The numbers the row states as defaults: those of a Default column,
	// and those near the word default in the other cells.
	// A sentence that states the default is one number of it: a Default
	// cell's, or that of a sentence with the word default and no other
	// number. A sentence that also states the constant's value agrees.
	var wrong *litPlaced
	var wrongCell int
	var m litMatch
	for i, cell := range cells[1:] {
		col := i + 1
		inDefault := defaultHeaderRE.MatchString(header[col])
		for _, span := range prose.Sentences(cell) {
			sent := cell[span.Start:span.End]
			if driftHistoryRE.MatchString(sent) || topicExampleRE.MatchString(sent) {
				continue
			}
			var nums []sentNum
			for _, n := range sentenceNumbers(sent) {
				if !noValue(sent, n) && !litInExpr(sent, n.start, n.end) && !litApproxRE.MatchString(sent[:n.start]) {
					nums = append(nums, n)
				}
			}
			if len(nums) != 1 || !inDefault && !topicDefaultCueRE.MatchString(sent) {
				continue
			}
			lit := numberLit(sent, nums[0])
			got, ok := matchLiteral(lit, site)
			if !ok || got.equal || wrong != nil {
				continue
			}
			lit.start += span.Start
			lit.end += span.Start
			wrong, wrongCell, m = &lit, col, got
		}
	}
	if wrong == nil {
		return nil
	}
	names := make([]string, len(tied))
	for i, d := range tied {
		names[i] = d.name
	}
	value := site.expr
	if m.shown != "" && m.shown != site.expr {
		value += " (" + m.shown + ")"
	}
	suggestion := ""
	if cell := cells[wrongCell]; strings.Count(c.Text, cell) == 1 && strings.Count(cell, wrong.Text) == 1 {
		if fixed := rewriteLiteral(cell, *wrong, m.inUnit); fixed != "" && fixed != cell {
			suggestion = strings.Replace(c.Text, cell, fixed, 1)
		}
	}
	return &review.Verdict{
		Label: review.Contradicted, Rule: r.Name(), Confidence: 0.7,
		Message: fmt.Sprintf("The table gives %s as the default of %s, but %s is %s.",
			wrong.Text, key, strings.Join(names, ", "), value),
		Suggestion: suggestion,
		Evidence: []review.Evidence{{
			Path: site.path, StartLine: site.line, EndLine: site.end, Source: review.SourceCode,
			Why: site.why, Hops: []string{fmt.Sprintf("%s:%d", c.Path, c.Line), cmp.Or(site.fn, names[0])},
		}},
	}
}
