package benchmark

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/docreview/docreview/retrieval"
)

// Status words of the table's last column.
const (
	statusOK     = "ok"
	statusMissed = "MISSED"
)

// row is one line of the table.
type row struct {
	area, measure, value, target, status string
}

// WriteTable writes the report as one aligned table, preceded by a line
// naming the machine and the corpus. It returns the first write error.
func (r Report) WriteTable(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	load := ""
	if r.Load != "" {
		load = ", load " + r.Load
	}
	fmt.Fprintf(tw, "docreview bench retrieval: %s %s, %d CPUs%s\n", r.GoVersion, r.Platform, r.CPUs, load)
	c := r.Corpus
	fmt.Fprintf(tw, "corpus %s: %d files, %s; indexed %d files (%s), %d skipped, %d chunks\n\n",
		c.Root, c.Files, megabytes(c.Bytes), c.Indexed, megabytes(c.IndexedBytes), c.Skipped, c.Chunks)
	fmt.Fprintln(tw, "AREA\tMEASURE\tVALUE\tTARGET\tSTATUS")
	for _, x := range r.rows() {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", x.area, x.measure, x.value, x.target, x.status)
	}
	return tw.Flush()
}

// WriteJSON writes the report as indented JSON.
func (r Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

// rows lays the report out as table rows.
func (r Report) rows() []row {
	var rows []row
	add := func(area, measure, value, target, status string) {
		rows = append(rows, row{area, measure, value, target, status})
	}
	add("index", "full build", seconds(time.Duration(r.Build.Duration)),
		"<= "+seconds(TargetBuild), check(time.Duration(r.Build.Duration) <= TargetBuild))
	add("index", "build throughput", fmt.Sprintf("%.0f files/s, %.1f MiB/s", r.Build.FilesPerSec, r.Build.MiBPerSec), "", "")
	inc := r.Incremental
	incStatus := check(time.Duration(inc.Duration) <= TargetIncremental && inc.Found == inc.Files)
	add("index", fmt.Sprintf("incremental update (%d files)", inc.Files),
		fmt.Sprintf("%s (%d/%d edits found)", seconds(time.Duration(inc.Duration)), inc.Found, inc.Files),
		"<= "+seconds(TargetIncremental), incStatus)
	add("index", "size on disk", megabytes(r.IndexBytes), "", "")
	add("memory", "peak RSS after full build", megabytes(r.Build.PeakRSS), "<= "+megabytes(TargetPeakRSS), check(r.Build.PeakRSS <= TargetPeakRSS))
	add("memory", "peak RSS, whole run", megabytes(r.PeakRSS), "", "")

	q := r.Queries
	warmOK := time.Duration(q.Warm.P50) <= TargetQueryP50 && time.Duration(q.Warm.P99) <= TargetQueryP99
	add("query", fmt.Sprintf("warm p50 / p99 (%d queries)", q.Warm.N), pair(q.Warm),
		fmt.Sprintf("<= %s / %s", millis(TargetQueryP50), millis(TargetQueryP99)), check(warmOK))
	add("query", fmt.Sprintf("cold p50 / p99 (%d queries)", q.Cold.N), pair(q.Cold), "", "")
	add("query", fmt.Sprintf("warm identifiers p50 / p99 (%d)", q.WarmIdentifiers.N), pair(q.WarmIdentifiers), "", "")
	add("query", fmt.Sprintf("warm phrases p50 / p99 (%d)", q.WarmPhrases.N), pair(q.WarmPhrases), "", "")
	if r.Ripgrep.Ran {
		add("ripgrep", fmt.Sprintf("identifiers p50 / p99 (%d)", r.Ripgrep.Latency.N), pair(r.Ripgrep.Latency), "", "")
	} else {
		add("ripgrep", "identifiers", "not run: "+r.Ripgrep.Note, "", "")
	}
	add("zoekt", "index and search", "not run: "+r.Zoekt.Note, "", "")
	if r.Quality != nil {
		rows = append(rows, r.Quality.rows()...)
	}
	return rows
}

// rows lays the quality report out as table rows.
func (q QualityReport) rows() []row {
	var rows []row
	add := func(measure, value, target, status string) {
		rows = append(rows, row{"quality", measure, value, target, status})
	}
	add("labelled items", fmt.Sprintf("%d (%d cross-file chains, %d skipped)", q.Items, q.CrossFile, len(q.Skipped)), "", "")
	for _, c := range q.Channels {
		value := fmt.Sprintf("%.2f / %.2f / %.2f", c.Recall, c.MRR, c.CrossFileRecall)
		target, status := "", ""
		if c.Channel == Fused {
			target, status = "> every channel", check(q.fusedBeatsAll())
		}
		add(fmt.Sprintf("%s recall@%d / MRR / cross-file recall@%d", c.Channel, q.K, q.K), value, target, status)
	}
	if _, ok := q.Channel(string(retrieval.ChannelDense)); !ok {
		add("dense channel", "not configured", "", "")
	}
	add(fmt.Sprintf("cross-file chains lexical misses@%d", q.K),
		fmt.Sprintf("%d; structural finds %d, fused %d", len(q.LexicalMisses), len(q.StructuralFinds), len(q.FusedFinds)),
		"structural finds some", check(len(q.LexicalMisses) == 0 || len(q.StructuralFinds) > 0))
	add(fmt.Sprintf("fused query p50 / p99 (%d, small corpora)", q.FusedLatency.N), pair(q.FusedLatency), "", "")
	return rows
}

// fusedBeatsAll reports whether the fused ranking has a higher recall and
// MRR than every single channel.
func (q QualityReport) fusedBeatsAll() bool {
	fused, ok := q.Channel(Fused)
	if !ok {
		return false
	}
	for _, c := range q.Channels {
		if c.Channel != Fused && (fused.Recall <= c.Recall || fused.MRR <= c.MRR) {
			return false
		}
	}
	return true
}

func check(ok bool) string {
	if ok {
		return statusOK
	}
	return statusMissed
}

func seconds(d time.Duration) string { return fmt.Sprintf("%.2f s", d.Seconds()) }

func millis(d time.Duration) string {
	return strings.TrimSuffix(strings.TrimRight(fmt.Sprintf("%.3f", float64(d)/float64(time.Millisecond)), "0"), ".") + " ms"
}

func pair(l Latency) string {
	return fmt.Sprintf("%.2f / %.2f ms", float64(l.P50)/float64(time.Millisecond), float64(l.P99)/float64(time.Millisecond))
}

func megabytes(n int64) string { return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20)) }
