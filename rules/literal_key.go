package rules

import (
	"fmt"
	"go/constant"
	"go/types"
	"iter"
	"math"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/docreview/docreview/retrieval"
	"github.com/docreview/docreview/review"
	"github.com/docreview/docreview/review/prose"
)

// Defaults of configuration keys. Configuration references name a key as
// the configuration file writes it, not as Go does: "- `metrics_flush_interval`
// (default: `15s`)" documents the field whose mapstructure, yaml, json,
// toml, koanf or hcl tag is metrics_flush_interval. A Markdown line
// naming a key in backticks right before its default in parentheses
// ("(default = 100)", "(default: `false`)", "(default is 5s)"), or a list
// item that opens with a key and states one default ("- `flush_interval`
// [default: 1s]: …", "- `max_staleness`: … Default: 0") is checked
// against that field's default (fieldDefault: its Default<Field>
// constant, a zero-value fallback or the composite literal of a New… or
// …Default… func such as createDefaultConfig). The field is found as for
// a table row (tableField): by tag or name among the structs of the
// packages in the file's scope, the nearest package that has one; several
// fields are no binding unless the section names one's struct. Strings are
// not compared, and a default the code computes is no default to compare.

// configTags are the struct tag keys whose names are configuration keys.
var configTags = []string{"mapstructure", "yaml", "json", "toml", "koanf", "hcl"}

// structField is a field of a struct type a package declares at its top
// level.
type structField struct {
	typeName string // the struct's type name
	st       *types.Struct
	i        int
}

func (f structField) field() *types.Var { return f.st.Field(f.i) }

// keys reports whether the field's name or one of its configuration tag
// names is key.
func (f structField) keys(key string) bool {
	return f.field().Name() == key || slices.Contains(tagNames(f.st.Tag(f.i)), key)
}

// structFields yields the fields of the struct types p declares at its
// top level.
func structFields(p *retrieval.Package) iter.Seq[structField] {
	return func(yield func(structField) bool) {
		if p.Types == nil {
			return
		}
		scope := p.Types.Scope()
		for _, tn := range scope.Names() {
			obj, ok := scope.Lookup(tn).(*types.TypeName)
			if !ok {
				continue
			}
			st, ok := obj.Type().Underlying().(*types.Struct)
			if !ok {
				continue
			}
			for i := range st.NumFields() {
				if !yield(structField{typeName: tn, st: st, i: i}) {
					return
				}
			}
		}
	}
}

// keyParent returns a dotted key's part before the last ("retry_on_failure"
// for "retry_on_failure.max_elapsed_time"); for a key of one part, the key
// of the list item the claim is nested in (parentKey). Callers ask only
// when several structs have the key's last part.
func (r *LiteralMismatch) keyParent(ws *review.Workspace, c review.Claim, key string) string {
	if i := strings.LastIndex(key, "."); i >= 0 {
		return lastKeyPart(key[:i])
	}
	return r.parentKey(ws, c)
}

func lastKeyPart(key string) string {
	return key[strings.LastIndex(key, ".")+1:]
}

// tagNames returns the configuration key names a struct tag gives a field.
func tagNames(tag string) []string {
	var out []string
	for _, k := range configTags {
		v, ok := reflect.StructTag(tag).Lookup(k)
		if !ok {
			continue
		}
		name, _, _ := strings.Cut(v, ",")
		if name != "" && name != "-" {
			out = append(out, name)
		}
	}
	return out
}

// keyDefaultRE is a backticked configuration key followed by its default
// in parentheses.
var keyDefaultRE = regexp.MustCompile("`([A-Za-z][A-Za-z0-9_-]*(?:\\.[A-Za-z][A-Za-z0-9_-]*)*)`\\s*\\(\\s*[Dd]efault(?:\\s+is|\\s*[:=])?\\s*([^()]*?)\\s*\\)")

// keyItemRE is a list item of a configuration reference: it opens with
// a backticked key.
var keyItemRE = regexp.MustCompile("^`([A-Za-z][A-Za-z0-9_-]*(?:\\.[A-Za-z][A-Za-z0-9_-]*)*)`")

// itemDefaultRE is a default an item states anywhere after its key:
// "[default: json]", "(default = 5)", "Default: 0", "Defaults to 10s",
// "default is `false`". The value is one word.
var itemDefaultRE = regexp.MustCompile("(?i)(?:[\\[(]\\s*default\\s*[:=]?\\s*([^\\])\\s]+)\\s*[\\])]|\\bdefault(?:s\\s+to|\\s+is|\\s+value\\s+is|\\s*:)\\s*(`[^`\\s]+`|[^\\s.,;:()]+(?:\\.\\d+)?[A-Za-z]*)(?:[.,;)]|\\s|$))")

// refKeyRE is a line of a configuration reference written as Prometheus
// writes its own, in a code block: "[ capacity: <int> | default = 2500 ]".
var refKeyRE = regexp.MustCompile(`(?m)^\s*\[\s*([A-Za-z][A-Za-z0-9_-]*)\s*:\s*<[^<>]+>\s*\|\s*default\s*=\s*([^\s\]|]+)\s*\]\s*$`)

// keyDefaults returns the (key, default) pairs a Markdown line states:
// each line of a configuration reference block (refKeyRE), each
// backticked key right before a parenthesised default, or, in an item
// that opens with a key, the one default the item states.
func keyDefaults(text string) [][2]string {
	var out [][2]string
	for _, m := range refKeyRE.FindAllStringSubmatch(text, -1) {
		out = append(out, [2]string{m[1], m[2]})
	}
	if len(out) > 0 {
		return out
	}
	for _, m := range keyDefaultRE.FindAllStringSubmatch(text, -1) {
		out = append(out, [2]string{m[1], m[2]})
	}
	if len(out) > 0 {
		return out
	}
	k := keyItemRE.FindStringSubmatch(text)
	if k == nil {
		return nil
	}
	rest := text[len(k[0]):]
	ds := itemDefaultRE.FindAllStringSubmatchIndex(rest, -1)
	if len(ds) != 1 {
		return nil // several defaults: which one is the key's is not certain
	}
	d := ds[0]
	if conditionalRE.MatchString(rest[d[1]-1:]) {
		return nil // "default: true, or false when rotating"
	}
	val := ""
	for _, g := range [][2]int{{d[2], d[3]}, {d[4], d[5]}} {
		if g[0] >= 0 {
			val = rest[g[0]:g[1]]
		}
	}
	return [][2]string{{k[1], val}}
}

// conditionalRE is what makes a default conditional when it follows it.
var conditionalRE = regexp.MustCompile(`(?i)^[,;]?\s*(?:or|unless|when|if|except|otherwise|for|on|in)\b`)

// judgeKeyDefault checks the defaults a Markdown line gives configuration
// keys.
func (r *LiteralMismatch) judgeKeyDefault(ws *review.Workspace, c review.Claim) *review.Verdict {
	if c.Kind != review.KindMarkdown || strings.HasPrefix(strings.TrimSpace(c.Text), "|") || ws.Symbols == nil {
		return nil
	}
	type mismatch struct {
		v         *review.Verdict
		doc, repl string
	}
	var bad []mismatch
	for _, m := range keyDefaults(strings.TrimSpace(c.Text)) {
		key, doc := m[0], m[1]
		if doc == "" {
			continue
		}
		var (
			site  valueSite
			fname string
		)
		field, ok := r.tableField(ws, c, key)
		if !ok && refKeyRE.MatchString(c.Text) {
			// A configuration reference in the Prometheus notation is
			// the module's whatever directory it sits in
			// (docs/configuration/configuration.md documents config):
			// the one field of the module with the key binds.
			field, ok = moduleKeyField(ws, key)
		}
		if ok {
			if site, ok = r.fieldDefault(ws, field); !ok {
				continue
			}
			fname = field.Name
		} else if site, fname, ok = r.depKeyDefault(ws, c, key); !ok {
			continue
		}
		if site.val == nil {
			continue
		}
		hops := []string{fmt.Sprintf("%s:%d", c.Path, c.Line), fname}
		subject := "`" + key + "`"
		if !strings.HasSuffix(fname, "."+lastKeyPart(key)) {
			subject += " (" + fname + ")"
		}
		repl := keyDefaultRepl(doc, site)
		if v := r.compareDefaultText(c, "The doc gives", doc, repl, subject, hops, site); v != nil {
			bad = append(bad, mismatch{v, doc, repl})
		}
	}
	if len(bad) == 0 {
		return nil
	}
	// A reference block states many keys: one finding lists every drifted
	// default, and its suggestion rewrites each that stands once.
	v := bad[0].v
	if len(bad) > 1 {
		var also []string
		text := c.Text
		for _, b := range bad {
			if b.repl != "" && strings.Count(c.Text, b.doc) == 1 {
				text = strings.Replace(text, b.doc, b.repl, 1)
			}
		}
		for _, b := range bad[1:] {
			also = append(also, strings.TrimPrefix(strings.TrimSuffix(b.v.Message, "."), "The doc gives "))
			v.Evidence = append(v.Evidence, b.v.Evidence...)
		}
		v.Message = strings.TrimSuffix(v.Message, ".") + "; also " + strings.Join(also, "; ") + "."
		if text != c.Text {
			v.Suggestion = text
		}
	}
	return v
}

// keyDefaultRepl writes the code's default the way doc writes one: in
// doc's unit when doc is a number with a unit and the default a whole
// number of it ("15s" for 30 * time.Second as "30s"), as the code's
// expression in backticks otherwise; "" when neither is certain.
func keyDefaultRepl(doc string, site valueSite) string {
	ticked := strings.HasPrefix(doc, "`") && strings.HasSuffix(doc, "`") && len(doc) >= 2
	src := strings.Trim(doc, "`")
	_, unit, ok := prose.WholeLiteral(src)
	if !ok || unit == "" {
		if _, err := strconv.ParseFloat(src, 64); err == nil || src == "true" || src == "false" {
			shown := site.val.ExactString()
			if ticked {
				shown = "`" + shown + "`"
			}
			return shown
		}
		return "`" + site.expr + "`"
	}
	code, _ := constant.Float64Val(constant.ToFloat(site.val))
	var n float64
	switch prose.DimensionOf(unit) {
	case prose.Duration:
		if !litIsDuration(site.typ) {
			return ""
		}
		n = code / prose.Nanoseconds(unit)
	default:
		return ""
	}
	if n <= 0 || n != math.Trunc(n) {
		return ""
	}
	i := strings.IndexFunc(src, func(r rune) bool { return (r < '0' || r > '9') && r != '.' })
	if i <= 0 {
		return ""
	}
	out := strconv.FormatFloat(n, 'f', -1, 64) + src[i:]
	if ticked {
		out = "`" + out + "`"
	}
	return out
}

// moduleKeyField returns the one struct field of the repository's
// packages, tests and testdata aside, whose configuration tag or name is
// key's last part; false for none or several.
func moduleKeyField(ws *review.Workspace, key string) (retrieval.Symbol, bool) {
	name := lastKeyPart(key)
	var found []retrieval.Symbol
	for _, p := range ws.Symbols.Packages() {
		if p.Types == nil || strings.Contains("/"+p.Dir+"/", "/testdata/") {
			continue
		}
		for sf := range structFields(p) {
			if f := sf.field(); !f.Embedded() && sf.keys(name) {
				if sym, ok := ws.Symbols.Lookup(p.Dir, sf.typeName+"."+f.Name()); ok && sym.Kind == retrieval.SymbolField {
					found = append(found, sym)
				}
			}
		}
	}
	if len(found) != 1 {
		return retrieval.Symbol{}, false
	}
	return found[0], true
}
