package quality

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"
	"text/tabwriter"
)

// Report is the result of [Run].
type Report struct {
	// Recall has one row per set, half and kind; a clean kind's row
	// counts flagged cases instead of hits.
	Recall []RecallRow `json:"recall"`
	// ByStyle has one row per set, half and mention style (bare,
	// backtick, doclink, code, prose) over the drift cases.
	ByStyle []RecallRow `json:"recall_by_style"`
	// Precision has one row per half and rule, from the audit ledger.
	Precision []PrecisionRow `json:"precision"`
	// Noise has one row per half: contradicted findings per 1,000 doc
	// lines of the audited modules.
	Noise []NoiseRow `json:"noise"`
	// MissCauses and FalsePositiveCauses are the five largest, with
	// counts: misses by kind, style and why; false positives by the
	// ledger's cause and by the rule that flagged a clean edit.
	MissCauses          []Count `json:"miss_causes"`
	FalsePositiveCauses []Count `json:"false_positive_causes"`
	// Styles counts the mentions of code in the mutation corpus's docs,
	// by style.
	Styles StyleCounts   `json:"mention_styles"`
	Cases  []CaseResult  `json:"cases"`
	Audits []AuditResult `json:"audits"`
	Errors int           `json:"errors"`
}

// RecallRow is one set, half and kind.
type RecallRow struct {
	Set   string `json:"set"`
	Half  string `json:"half"`
	Kind  string `json:"kind"`
	Cases int    `json:"cases"`
	// Hits counts cases with a finding on their lines (for clean edits:
	// cases with any finding); Contradicted those whose finding is
	// contradicted.
	Hits         int     `json:"hits"`
	Contradicted int     `json:"contradicted"`
	Recall       float64 `json:"recall"`
	Errors       int     `json:"errors,omitempty"`
}

// PrecisionRow is one rule's labelled findings in one half.
type PrecisionRow struct {
	Half       string `json:"half"`
	Rule       string `json:"rule"`
	Label      string `json:"label"`
	True       int    `json:"true"`
	False      int    `json:"false"`
	Debatable  int    `json:"debatable"`
	Unlabelled int    `json:"unlabelled"`
	// Precision is True / (True + False); debatable and unlabelled
	// findings are shown, never counted either way. -1 when nothing is
	// labelled.
	Precision float64 `json:"precision"`
}

// NoiseRow is one half's audit noise.
type NoiseRow struct {
	Half         string  `json:"half"`
	Modules      int     `json:"modules"`
	DocLines     int     `json:"doc_lines"`
	Contradicted int     `json:"contradicted"`
	Incomplete   int     `json:"incomplete"`
	PerKLine     float64 `json:"contradicted_per_1000_doc_lines"`
}

// Count is a cause and how often it occurred.
type Count struct {
	Cause string `json:"cause"`
	N     int    `json:"count"`
}

func (r *Report) summarise() {
	type rk struct{ set, half, kind string }
	rows := map[rk]*RecallRow{}
	styles := map[rk]*RecallRow{}
	misses, fps := map[string]int{}, map[string]int{}
	for _, c := range r.Cases {
		// tally counts c on the row of key in m.
		tally := func(m map[rk]*RecallRow, key string) *RecallRow {
			k := rk{c.Set, c.Half, key}
			row := m[k]
			if row == nil {
				row = &RecallRow{Set: c.Set, Half: c.Half, Kind: key}
				m[k] = row
			}
			row.Cases++
			if c.Hit {
				row.Hits++
				if c.HitLabel == "contradicted" {
					row.Contradicted++
				}
			}
			return row
		}
		if row := tally(rows, c.Kind); c.Error != "" {
			row.Errors++
			r.Errors++
		}
		if c.Kind == KindSnippet && c.Compiler == CompilerRejects {
			tally(rows, KindSnippetRejected)
		}
		if !c.Clean() && c.Style != "" {
			tally(styles, c.Style)
		}
		switch {
		case c.Clean() && c.Hit:
			fps[c.Cause]++
		case !c.Clean() && !c.Hit:
			misses[c.Cause]++
		}
	}
	for _, row := range rows {
		if row.Cases > 0 {
			row.Recall = float64(row.Hits) / float64(row.Cases)
		}
		r.Recall = append(r.Recall, *row)
	}
	for _, row := range styles {
		row.Recall = float64(row.Hits) / float64(row.Cases)
		r.ByStyle = append(r.ByStyle, *row)
	}
	sort.Slice(r.ByStyle, func(i, j int) bool {
		a, b := r.ByStyle[i], r.ByStyle[j]
		if a.Set != b.Set {
			return a.Set > b.Set
		}
		if a.Kind != b.Kind {
			return a.Kind < b.Kind
		}
		return a.Half < b.Half
	})
	order := map[string]int{}
	kinds := append(RealKinds(), MutationKinds()...)
	for i, k := range kinds {
		if k == KindSnippet {
			kinds = slices.Insert(kinds, i+1, KindSnippetRejected)
			break
		}
	}
	for i, k := range kinds {
		if _, ok := order[k]; !ok {
			order[k] = i
		}
	}
	sort.Slice(r.Recall, func(i, j int) bool {
		a, b := r.Recall[i], r.Recall[j]
		if a.Set != b.Set {
			return a.Set > b.Set // real before mutation
		}
		if a.Kind != b.Kind {
			return order[a.Kind] < order[b.Kind]
		}
		return a.Half < b.Half
	})

	type pk struct{ half, rule, label string }
	prec := map[pk]*PrecisionRow{}
	noise := map[string]*NoiseRow{}
	for _, a := range r.Audits {
		n := noise[a.Half]
		if n == nil {
			n = &NoiseRow{Half: a.Half}
			noise[a.Half] = n
		}
		n.Modules++
		n.DocLines += a.DocLines
		if a.Error != "" {
			r.Errors++
		}
		for _, f := range a.Findings {
			switch f.Label {
			case "contradicted":
				n.Contradicted++
			case "incomplete":
				n.Incomplete++
			}
			k := pk{a.Half, f.Rule, f.Label}
			p := prec[k]
			if p == nil {
				p = &PrecisionRow{Half: a.Half, Rule: f.Rule, Label: f.Label}
				prec[k] = p
			}
			switch f.Verdict {
			case VerdictTrue:
				p.True++
			case VerdictFalse:
				p.False++
				fps[f.Cause]++
			case VerdictDebatable:
				p.Debatable++
			default:
				p.Unlabelled++
			}
		}
	}
	for _, p := range prec {
		p.Precision = -1
		if p.True+p.False > 0 {
			p.Precision = float64(p.True) / float64(p.True+p.False)
		}
		r.Precision = append(r.Precision, *p)
	}
	sort.Slice(r.Precision, func(i, j int) bool {
		a, b := r.Precision[i], r.Precision[j]
		if a.Rule != b.Rule {
			return a.Rule < b.Rule
		}
		if a.Label != b.Label {
			return a.Label < b.Label
		}
		return a.Half < b.Half
	})
	for _, h := range []string{HalfDev, HalfTest} {
		if n := noise[h]; n != nil {
			if n.DocLines > 0 {
				n.PerKLine = float64(n.Contradicted) * 1000 / float64(n.DocLines)
			}
			r.Noise = append(r.Noise, *n)
		}
	}
	r.MissCauses = top(misses, 5)
	r.FalsePositiveCauses = top(fps, 5)
}

func top(m map[string]int, n int) []Count {
	out := []Count{}
	for k, v := range m {
		out = append(out, Count{k, v})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].N > out[j].N || out[i].N == out[j].N && out[i].Cause < out[j].Cause })
	if len(out) > n {
		out = out[:n]
	}
	return out
}

// Totals sums the recall rows of one set and half (kind "" for every
// drift kind).
func (r *Report) Totals(set, half string) (cases, hits int) {
	for _, row := range r.Recall {
		if row.Set == set && row.Half == half && row.Kind != MutClean {
			cases += row.Cases
			hits += row.Hits
		}
	}
	return cases, hits
}

// WriteJSON writes the report as indented JSON.
func (r *Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(r); err != nil {
		return fmt.Errorf("write quality report: %w", err)
	}
	return nil
}

// WriteText writes the report's tables: recall per set, kind and half;
// precision per rule; noise; clean edits; the largest causes.
func (r *Report) WriteText(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "set\tkind\thalf\tcases\thits\tcontradicted\trecall\t")
	for _, row := range r.Recall {
		if row.Kind == MutClean {
			continue
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%d\t%d\t%.2f\t\n", row.Set, row.Kind, row.Half, row.Cases, row.Hits, row.Contradicted, row.Recall)
	}
	for _, set := range []string{SetReal, SetMutation} {
		for _, h := range []string{HalfDev, HalfTest} {
			if c, hit := r.Totals(set, h); c > 0 {
				fmt.Fprintf(tw, "%s\tall\t%s\t%d\t%d\t\t%.2f\t\n", set, h, c, hit, float64(hit)/float64(c))
			}
		}
	}
	if err := tw.Flush(); err != nil {
		return fmt.Errorf("write quality report: %w", err)
	}
	for _, row := range r.Recall {
		if row.Kind == MutClean {
			fmt.Fprintf(w, "clean edits (%s): %d of %d flagged\n", row.Half, row.Hits, row.Cases)
		}
	}
	if len(r.ByStyle) > 0 {
		fmt.Fprintln(w)
		tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintln(tw, "set\twritten as\thalf\tcases\thits\trecall\t")
		for _, row := range r.ByStyle {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%d\t%.2f\t\n", row.Set, row.Kind, row.Half, row.Cases, row.Hits, row.Recall)
		}
		if err := tw.Flush(); err != nil {
			return fmt.Errorf("write quality report: %w", err)
		}
	}
	if len(r.Precision) > 0 {
		fmt.Fprintln(w)
		tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintln(tw, "rule\tlabel\thalf\ttrue\tfalse\tdebatable\tunlabelled\tprecision\t")
		for _, p := range r.Precision {
			prec := "-"
			if p.Precision >= 0 {
				prec = fmt.Sprintf("%.2f", p.Precision)
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%d\t%d\t%d\t%s\t\n", p.Rule, p.Label, p.Half, p.True, p.False, p.Debatable, p.Unlabelled, prec)
		}
		for _, h := range []string{HalfDev, HalfTest} {
			for _, label := range []string{"contradicted", "incomplete"} {
				t, f, d, u := 0, 0, 0, 0
				for _, p := range r.Precision {
					if p.Half == h && p.Label == label {
						t, f, d, u = t+p.True, f+p.False, d+p.Debatable, u+p.Unlabelled
					}
				}
				if t+f+d+u == 0 {
					continue
				}
				prec := "-"
				if t+f > 0 {
					prec = fmt.Sprintf("%.2f", float64(t)/float64(t+f))
				}
				fmt.Fprintf(tw, "all\t%s\t%s\t%d\t%d\t%d\t%d\t%s\t\n", label, h, t, f, d, u, prec)
			}
		}
		if err := tw.Flush(); err != nil {
			return fmt.Errorf("write quality report: %w", err)
		}
	}
	for _, n := range r.Noise {
		fmt.Fprintf(w, "noise (%s): %d contradicted and %d incomplete findings over %d doc lines of %d audited modules: %.2f contradicted per 1,000 lines\n",
			n.Half, n.Contradicted, n.Incomplete, n.DocLines, n.Modules, n.PerKLine)
	}
	writeCounts := func(title string, cs []Count) {
		if len(cs) == 0 {
			return
		}
		fmt.Fprintf(w, "\n%s:\n", title)
		for _, c := range cs {
			fmt.Fprintf(w, "  %4d  %s\n", c.N, c.Cause)
		}
	}
	writeCounts("largest miss causes", r.MissCauses)
	writeCounts("largest false-positive causes", r.FalsePositiveCauses)
	if len(r.Styles) > 0 {
		total := 0
		for _, n := range r.Styles {
			total += n
		}
		var parts []string
		for _, s := range []string{StyleBare, StyleBacktick, StyleDocLink} {
			parts = append(parts, fmt.Sprintf("%s %d (%.0f%%)", s, r.Styles[s], 100*float64(r.Styles[s])/float64(max(total, 1))))
		}
		fmt.Fprintf(w, "\nmentions of code in the mutation corpus's docs: %s\n", strings.Join(parts, ", "))
	}
	if r.Errors > 0 {
		fmt.Fprintf(w, "\n%d cases or audits could not be reviewed (see --format json)\n", r.Errors)
	}
	return nil
}

// WriteMisses lists the missed cases, the flagged clean edits and the
// false audit findings, one line each.
func (r *Report) WriteMisses(w io.Writer) error {
	for _, c := range r.Cases {
		switch {
		case c.Error != "":
			fmt.Fprintf(w, "error  %s %s@%s %s:%d: %s\n", c.Set, c.Module, c.Version, c.Path, c.Line, c.Error)
		case !c.Clean() && !c.Hit:
			fmt.Fprintf(w, "miss   %s %s %s@%s %s:%d (%s)\n", c.Set, c.Kind, c.Module, c.Version, c.Path, c.Line, c.Cause)
		case c.Clean() && c.Hit:
			f := c.Findings[0]
			fmt.Fprintf(w, "fp     %s %s@%s %s:%d %s: %s\n", c.Kind, c.Module, c.Version, f.Path, f.Line, f.Rule, f.Message)
		}
	}
	for _, a := range r.Audits {
		for _, f := range a.Findings {
			if f.Verdict == VerdictFalse {
				fmt.Fprintf(w, "false  audit %s@%s %s:%d %s (%s): %s\n", a.Module, a.Version, f.Path, f.Line, f.Rule, f.Cause, f.Message)
			}
		}
	}
	return nil
}

// WriteUnlabelled lists the audit findings the ledger has no label for,
// as ledger entries to fill in.
func (r *Report) WriteUnlabelled(w io.Writer) error {
	var out []struct {
		Module  string `json:"module"`
		Version string `json:"version"`
		LedgerEntry
	}
	for _, a := range r.Audits {
		for _, f := range a.Findings {
			if f.Verdict == "" {
				out = append(out, struct {
					Module  string `json:"module"`
					Version string `json:"version"`
					LedgerEntry
				}{a.Module, a.Version, LedgerEntry{Fingerprint: f.Fingerprint, Rule: f.Rule, Label: f.Label, Path: f.Path, Line: f.Line, Message: f.Message}})
			}
		}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(out); err != nil {
		return fmt.Errorf("write unlabelled findings: %w", err)
	}
	return nil
}
