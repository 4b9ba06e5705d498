package quality

import (
	"encoding/json"
	"fmt"
	"io"
	"text/tabwriter"
)

// Row is one category's line of the table.
type Row struct {
	Category Category `json:"category"`
	Cases    int      `json:"cases"`
	// Recall and RecallOwnFile are the shares of drift cases detected with
	// full evidence and with own-file evidence; zero for clean categories.
	Recall        float64 `json:"recall"`
	RecallOwnFile float64 `json:"recall_own_file"`
	// FalsePositiveRate is, for clean edits, the share of cases with any
	// finding; for drift cases, the share with a finding on a claim that
	// was not mutated.
	FalsePositiveRate        float64 `json:"false_positive_rate"`
	FalsePositiveRateOwnFile float64 `json:"false_positive_rate_own_file"`
	// DocLines and PerKLine are set for version diffs: changed doc lines,
	// and findings per 1,000 of them.
	DocLines        int     `json:"doc_lines,omitempty"`
	PerKLine        float64 `json:"findings_per_1000_doc_lines,omitempty"`
	PerKLineOwnFile float64 `json:"findings_per_1000_doc_lines_own_file,omitempty"`
	// Errors counts cases that could not be reviewed.
	Errors int `json:"errors,omitempty"`
}

// Report is the result of [Run].
type Report struct {
	Modules []Module `json:"modules"`
	Rows    []Row    `json:"categories"`
	// Precision is the share of all findings (drift, clean and version
	// cases) that flag a mutated claim with the expected label.
	Precision        float64   `json:"precision"`
	PrecisionOwnFile float64   `json:"precision_own_file"`
	Findings         int       `json:"findings"`
	FindingsOwnFile  int       `json:"findings_own_file"`
	Outcomes         []Outcome `json:"cases"`
}

func ratio(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

func (r *Report) summarise(cats []Category) {
	r.Rows = nil
	all := append(append([]Category(nil), cats...), VersionDiff)
	var tp, tpOwn int
	r.Findings, r.FindingsOwnFile = 0, 0
	for _, cat := range all {
		row := Row{Category: cat}
		var det, detOwn, fp, fpOwn, nf, nfOwn int
		for _, o := range r.Outcomes {
			if o.Category != cat {
				continue
			}
			row.Cases++
			if o.Error != "" {
				row.Errors++
			}
			if o.Detected {
				det++
			}
			if o.DetectedOwnFile {
				detOwn++
			}
			row.DocLines += o.DocLines
			caseFP, caseFPOwn := false, false
			for _, f := range o.Findings {
				nf++
				if f.Expected {
					tp++
				} else {
					caseFP = true
				}
			}
			for _, f := range o.OwnFile {
				nfOwn++
				if f.Expected {
					tpOwn++
				} else {
					caseFPOwn = true
				}
			}
			if caseFP {
				fp++
			}
			if caseFPOwn {
				fpOwn++
			}
		}
		r.Findings += nf
		r.FindingsOwnFile += nfOwn
		if row.Cases == 0 {
			continue
		}
		if !cat.Clean() {
			row.Recall, row.RecallOwnFile = ratio(det, row.Cases), ratio(detOwn, row.Cases)
		}
		row.FalsePositiveRate, row.FalsePositiveRateOwnFile = ratio(fp, row.Cases), ratio(fpOwn, row.Cases)
		if cat == VersionDiff {
			row.PerKLine, row.PerKLineOwnFile = 1000*ratio(nf, row.DocLines), 1000*ratio(nfOwn, row.DocLines)
		}
		r.Rows = append(r.Rows, row)
	}
	r.Precision, r.PrecisionOwnFile = ratio(tp, r.Findings), ratio(tpOwn, r.FindingsOwnFile)
}

// WriteTable writes the report as a table: per category the cases, recall
// with full and own-file evidence, and false-positive rates, then the
// version diffs' findings per 1,000 changed doc lines and the overall
// precision. Errors are those of w.
func (r *Report) WriteTable(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "category\tcases\trecall\trecall own-file\tFP rate\tFP rate own-file\t")
	for _, row := range r.Rows {
		if row.Category == VersionDiff {
			continue
		}
		rec, recOwn := fmt.Sprintf("%.2f", row.Recall), fmt.Sprintf("%.2f", row.RecallOwnFile)
		if row.Category.Clean() {
			rec, recOwn = "-", "-"
		}
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%.1f%%\t%.1f%%\t\n", row.Category, row.Cases, rec, recOwn,
			100*row.FalsePositiveRate, 100*row.FalsePositiveRateOwnFile)
	}
	for _, row := range r.Rows {
		if row.Category == VersionDiff {
			fmt.Fprintf(tw, "%s\t%d\tdoc lines %d\t\tper 1k lines %.2f\tper 1k lines %.2f\t\n", row.Category, row.Cases, row.DocLines,
				row.PerKLine, row.PerKLineOwnFile)
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	_, err := fmt.Fprintf(w, "\nprecision %.2f (%d findings), own-file evidence %.2f (%d findings)\n",
		r.Precision, r.Findings, r.PrecisionOwnFile, r.FindingsOwnFile)
	return err
}

// WriteMisses writes, for each drift case not detected and each case with
// an unexpected finding, one line naming the case and the findings.
func (r *Report) WriteMisses(w io.Writer) error {
	for _, o := range r.Outcomes {
		miss := !o.Category.Clean() && !o.Detected
		var fps []Finding
		for _, f := range o.Findings {
			if !f.Expected {
				fps = append(fps, f)
			}
		}
		if !miss && len(fps) == 0 && o.Error == "" {
			continue
		}
		tag := "FP"
		if miss {
			tag = "MISS"
		}
		if o.Error != "" {
			tag = "ERROR " + o.Error
		}
		if _, err := fmt.Fprintf(w, "%s %s %s: %s\n", tag, o.Category, o.Module, o.Site); err != nil {
			return err
		}
		for _, f := range o.Findings {
			if _, err := fmt.Fprintf(w, "    %s:%s %s %s (expected %v): %s\n", f.Path, f.Lines, f.Label, f.Rule, f.Expected, f.Message); err != nil {
				return err
			}
		}
	}
	return nil
}

// WriteJSON writes the report, cases included, as indented JSON. Errors
// are those of w.
func (r *Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}
