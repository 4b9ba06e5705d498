package completeness

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"text/tabwriter"
)

// Report is the outcome of 'docreview completeness': a summary per package
// and every symbol analysed.
type Report struct {
	Packages []PackageSummary `json:"packages"`
	Symbols  []Symbol         `json:"symbols"`
	// Total sums every package.
	Total PackageSummary `json:"total"`
}

// PackageSummary sums the symbols of one package. Facts and Stated leave
// out [KindDeprecated] facts.
type PackageSummary struct {
	// Package is the import path; "total" for [Report.Total].
	Package string `json:"package"`
	Symbols int    `json:"symbols"`
	Facts   int    `json:"facts"`
	Stated  int    `json:"stated"`
	// Coverage is Stated / Facts, 1 when there are no facts.
	Coverage float64 `json:"coverage"`
	// DocTokens and CodeTokens sum the symbols'; Density is DocTokens /
	// CodeTokens, 0 without code.
	DocTokens  int     `json:"doc_tokens"`
	CodeTokens int     `json:"code_tokens"`
	Density    float64 `json:"density"`
}

// NewReport sums syms per package, in the order the packages first appear.
func NewReport(syms []Symbol) Report {
	r := Report{Symbols: syms, Total: PackageSummary{Package: "total"}}
	at := map[string]int{}
	for _, s := range syms {
		i, ok := at[s.Package]
		if !ok {
			i = len(r.Packages)
			at[s.Package] = i
			r.Packages = append(r.Packages, PackageSummary{Package: s.Package})
		}
		r.Packages[i].add(s)
		r.Total.add(s)
	}
	for i := range r.Packages {
		r.Packages[i].finish()
	}
	r.Total.finish()
	return r
}

func (p *PackageSummary) add(s Symbol) {
	facts, stated := s.counted()
	p.Symbols++
	p.Facts += facts
	p.Stated += stated
	p.DocTokens += s.DocTokens
	p.CodeTokens += s.CodeTokens
}

func (p *PackageSummary) finish() {
	p.Coverage = 1
	if p.Facts > 0 {
		p.Coverage = round(float64(p.Stated)/float64(p.Facts), 4)
	}
	if p.CodeTokens > 0 {
		p.Density = round(float64(p.DocTokens)/float64(p.CodeTokens), 4)
	}
}

func round(x float64, digits int) float64 {
	m := math.Pow(10, float64(digits))
	return math.Round(x*m) / m
}

// WriteTable writes the report as an aligned text table: one row per
// package (symbols, facts, stated, coverage in percent, density) and a
// total row; with verbose, each package is followed by its symbols with
// facts, their stated count, coverage and missing facts.
func (r Report) WriteTable(w io.Writer, verbose bool) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "package\tsymbols\tfacts\tstated\tcoverage\tdensity\t")
	bySym := map[string][]Symbol{}
	for _, s := range r.Symbols {
		bySym[s.Package] = append(bySym[s.Package], s)
	}
	row := func(p PackageSummary) {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%.1f%%\t%.2f\t\n", p.Package, p.Symbols, p.Facts, p.Stated, 100*p.Coverage, p.Density)
	}
	for _, p := range r.Packages {
		row(p)
	}
	if len(r.Packages) > 1 {
		row(r.Total)
	}
	if err := tw.Flush(); err != nil {
		return fmt.Errorf("write table: %w", err)
	}
	if !verbose {
		return nil
	}
	for _, p := range r.Packages {
		fmt.Fprintf(w, "\n%s\n", p.Package)
		sw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		for _, s := range bySym[p.Package] {
			facts, stated := s.counted()
			if facts == 0 && !s.Deprecated() {
				continue
			}
			var missing []string
			for _, f := range s.Missing() {
				missing = append(missing, f.Label())
			}
			note := strings.Join(missing, "; ")
			if s.Deprecated() {
				note = strings.TrimPrefix(note+"; deprecated", "; ")
			}
			fmt.Fprintf(sw, "  %s\t%s\t%d/%d\t%.0f%%\t%s\n", s.Name, s.Kind, stated, facts, 100*s.Coverage(), note)
		}
		if err := sw.Flush(); err != nil {
			return fmt.Errorf("write table: %w", err)
		}
	}
	return nil
}

// Summary is the change of coverage of the symbols a pull request touched,
// from [Compare].
type Summary struct {
	// Symbols counts the touched symbols found before or after.
	Symbols int `json:"symbols"`
	// BeforeFacts, BeforeStated, AfterFacts and AfterStated count the
	// touched symbols' facts (deprecation left out) and those stated.
	BeforeFacts  int `json:"before_facts"`
	BeforeStated int `json:"before_stated"`
	AfterFacts   int `json:"after_facts"`
	AfterStated  int `json:"after_stated"`
	// Gained counts facts stated after that were not stated before (new
	// facts included); Lost counts facts stated before that exist after
	// but are no longer stated. A fact is the same when its symbol, kind,
	// name and value are.
	Gained int `json:"gained"`
	Lost   int `json:"lost"`
}

// Before returns the coverage before, 1 without facts.
func (s Summary) Before() float64 { return ratio(s.BeforeStated, s.BeforeFacts) }

// After returns the coverage after, 1 without facts.
func (s Summary) After() float64 { return ratio(s.AfterStated, s.AfterFacts) }

func ratio(a, b int) float64 {
	if b == 0 {
		return 1
	}
	return float64(a) / float64(b)
}

// String is the one-line summary for a pull request's summary comment:
// "coverage of the symbols this PR touched: 62% → 75% (+3 facts stated, 1
// lost)"; "no documented facts among the symbols this PR touched" when they
// have none.
func (s Summary) String() string {
	if s.BeforeFacts == 0 && s.AfterFacts == 0 {
		return "no documented facts among the symbols this PR touched"
	}
	pct := func(f float64) string { return fmt.Sprintf("%.0f%%", math.Floor(100*f+0.5)) }
	before := pct(s.Before())
	if s.BeforeFacts == 0 {
		before = "none"
	}
	facts := "facts"
	if s.Gained == 1 {
		facts = "fact"
	}
	return fmt.Sprintf("coverage of the symbols this PR touched: %s → %s (+%d %s stated, %d lost)", before, pct(s.After()), s.Gained, facts, s.Lost)
}

// Compare sums the coverage of the touched symbols (by [Symbol.Key]) in
// before (the base) and after (the head); nil touched means every symbol
// of either. Touched keys found in neither are ignored (an unexported or
// removed symbol has nothing to count). It fails when before or after
// lists a key twice.
func Compare(before, after []Symbol, touched []string) (Summary, error) {
	b, err := byKey(before)
	if err != nil {
		return Summary{}, fmt.Errorf("compare: before: %w", err)
	}
	a, err := byKey(after)
	if err != nil {
		return Summary{}, fmt.Errorf("compare: after: %w", err)
	}
	keys := touched
	if keys == nil {
		for k := range b {
			keys = append(keys, k)
		}
		for k := range a {
			if _, ok := b[k]; !ok {
				keys = append(keys, k)
			}
		}
	}
	slices.Sort(keys)
	keys = slices.Compact(keys)
	var s Summary
	for _, k := range keys {
		old, inBefore := b[k]
		cur, inAfter := a[k]
		if !inBefore && !inAfter {
			continue
		}
		s.Symbols++
		oldStated := map[factID]bool{}
		if inBefore {
			facts, stated := old.counted()
			s.BeforeFacts += facts
			s.BeforeStated += stated
			for i, f := range old.Facts {
				if f.counts() && old.Stated[i] {
					oldStated[idOf(f)] = true
				}
			}
		}
		if !inAfter {
			continue
		}
		facts, stated := cur.counted()
		s.AfterFacts += facts
		s.AfterStated += stated
		for i, f := range cur.Facts {
			if !f.counts() {
				continue
			}
			switch id := idOf(f); {
			case cur.Stated[i] && !oldStated[id]:
				s.Gained++
			case !cur.Stated[i] && oldStated[id]:
				s.Lost++
			}
		}
	}
	return s, nil
}

// factID identifies a fact across revisions: its evidence lines may move.
type factID struct {
	kind        FactKind
	name, value string
}

func idOf(f Fact) factID { return factID{f.Kind, f.Name, f.Value} }

func byKey(syms []Symbol) (map[string]Symbol, error) {
	m := make(map[string]Symbol, len(syms))
	for _, s := range syms {
		k := s.Key()
		if _, dup := m[k]; dup {
			return nil, fmt.Errorf("symbol %s listed twice", k)
		}
		if len(s.Stated) != len(s.Facts) {
			return nil, fmt.Errorf("symbol %s has %d facts and %d stated flags", k, len(s.Facts), len(s.Stated))
		}
		m[k] = s
	}
	return m, nil
}
