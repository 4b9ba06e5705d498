package rules

import (
	"context"
	"fmt"
	"regexp"
	"strings"

	"github.com/docreview/docreview/retrieval"
	"github.com/docreview/docreview/review"
)

var _ review.Judge = (*DeprecatedUse)(nil)

// DeprecatedUse is the deprecated-use rule: a doc comment or Markdown text
// that names (doc link, code span or identifier-shaped word) a symbol of
// the module whose own doc carries a "Deprecated:" paragraph is labelled
// incomplete, with that paragraph as evidence and the replacement it
// names in the message.
//
// It stays quiet where mentioning a deprecated name is the point: the
// deprecated symbol's own doc and those of other deprecated symbols, text
// that itself says "deprecated" or "instead", and change logs. Code blocks
// belong to the snippet rule. The zero value is ready to use and safe for
// concurrent use.
type DeprecatedUse struct{}

// Name returns "deprecated-use".
func (*DeprecatedUse) Name() string { return "deprecated-use" }

// deprecatedRE finds the Deprecated paragraph of a doc comment.
var deprecatedRE = regexp.MustCompile(`(?m)^Deprecated: *(.*(?:\n[^\n]+)*)`)

// useRE finds the replacement a Deprecated paragraph names: "Use X",
// "use [X] instead".
var useRE = regexp.MustCompile(`(?i)\buse\s+\[?\*?([A-Za-z_][\w.]*)\]?`)

// Judge reports a claim that recommends a deprecated symbol, or nil.
func (r *DeprecatedUse) Judge(_ context.Context, ws *review.Workspace, c review.Claim) (*review.Verdict, error) {
	if ws == nil || ws.Symbols == nil || isHistory(c.Path) || isDeprecated(c.Text) {
		return nil, nil
	}
	lower := strings.ToLower(c.Text)
	if strings.Contains(lower, "deprecated") || strings.Contains(lower, "instead") {
		return nil, nil
	}
	sc := newScope(ws.Symbols, c)
	for _, m := range c.Mentions {
		if inBlock(c.Mentions, m) {
			continue
		}
		name, ok := refName(m)
		if !ok || name == c.Symbol {
			continue
		}
		sym, ok := sc.lookup(name)
		if !ok || sym.DocLine < 1 {
			continue
		}
		para := deprecatedRE.FindStringSubmatch(sym.Doc)
		if para == nil {
			continue
		}
		note := strings.Join(strings.Fields(para[1]), " ")
		v := &review.Verdict{
			Label:      review.Incomplete,
			Rule:       r.Name(),
			Confidence: 0.8,
			Message:    fmt.Sprintf("The text recommends %s, which is deprecated: %s", name, note),
			Evidence: []review.Evidence{{
				Path: sym.Path, StartLine: sym.DocLine, EndLine: sym.DocEndLine, Source: review.SourceCode,
				Why:  fmt.Sprintf("%s is marked Deprecated", sym.Name),
				Hops: []string{hopOf(c), sym.Name},
			}},
		}
		if u := useRE.FindStringSubmatch(note); u != nil {
			repl := strings.TrimSuffix(u[1], ".")
			if rs, ok := resolveReplacement(ws.Symbols, sym, repl); ok {
				v.Message = fmt.Sprintf("The text recommends %s, which is deprecated; use %s instead", name, repl)
				ref := ws.Symbols.Definition(rs)
				start, end := lineRange(ref.Line, ref.EndLine)
				v.Evidence = append(v.Evidence, review.Evidence{
					Path: ref.Path, StartLine: start, EndLine: end, Source: review.SourceCode,
					Why:  "defines " + rs.Name + ", the replacement",
					Hops: []string{hopOf(c), sym.Name, rs.Name},
				})
			}
		}
		if !strings.HasSuffix(v.Message, ".") {
			v.Message += "."
		}
		return v, nil
	}
	return nil, nil
}

// resolveReplacement finds the replacement a Deprecated note names, as
// written in the deprecated symbol's package.
func resolveReplacement(syms *retrieval.Symbols, dep retrieval.Symbol, name string) (retrieval.Symbol, bool) {
	if dep.Package == nil {
		return retrieval.Symbol{}, false
	}
	sym, ok := syms.Lookup(dep.Package.Dir, name)
	if !ok || sym.Path == "" {
		return retrieval.Symbol{}, false
	}
	return sym, true
}

// hopOf names the claim as the first hop of an evidence chain.
func hopOf(c review.Claim) string {
	if c.Symbol != "" {
		return c.Symbol + " (doc)"
	}
	return fmt.Sprintf("%s:%d", c.Path, c.Line)
}
