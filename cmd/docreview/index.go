package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"time"

	"github.com/docreview/docreview/retrieval"
	"github.com/docreview/docreview/review"
)

// runIndex implements 'docreview index': it builds or updates the evidence
// index of the repository at a commit and prints a one-line summary.
func runIndex(ctx context.Context, args []string, stdout, stderr io.Writer, getenv func(string) string) error {
	fs := flag.NewFlagSet("docreview index", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var f evidenceFlags
	f.register(fs, true)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return &review.UsageError{Msg: fmt.Sprintf("unexpected argument %q", fs.Arg(0))}
	}
	if f.head != "" && f.worktree {
		return &review.UsageError{Msg: "--head and --worktree exclude each other"}
	}
	s, err := loadEvidenceSettings(fs, f, getenv, stderr)
	if err != nil {
		return err
	}
	repo, err := openRepo(ctx, s.repo)
	if err != nil {
		return err
	}
	rev := f.head
	switch {
	case f.worktree:
		rev = ""
	case rev == "":
		rev = "HEAD"
	}

	var progress func(done, total int)
	var bar *progressBar
	if isTerminal(stderr) {
		bar = newProgressBar(stderr, nil)
		progress = bar.update
	}
	b, err := buildEvidenceIndex(ctx, s, repo, rev, progress, stderr)
	if bar != nil {
		bar.clear()
	}
	if err != nil {
		return err
	}
	defer b.ix.Close()

	st := b.ix.Stats()
	fmt.Fprintf(stdout, "indexed %d files (%d changed) in %s: %d chunks, %s on disk, commit %s%s\n",
		st.Files, st.Changed, formatSeconds(b.elapsed), st.Docs, formatBytes(st.DiskBytes), shortRev(b.rev), upstreamSummary(s, b, st))
	if s.embedder.APIKey != "" {
		start := time.Now()
		d, err := openDense(ctx, s, b.ix)
		if err != nil {
			if ctx.Err() != nil {
				return err
			}
			fmt.Fprintf(stderr, "docreview: warning: %v\n", err)
			fmt.Fprintln(stderr, "docreview: the lexical index is built; queries run without the dense channel until embeddings succeed")
			return nil
		}
		fmt.Fprintf(stdout, "embedded %d chunks with %s in %s\n", d.Len(), d.Model(), formatSeconds(time.Since(start)))
	}
	return nil
}

// upstreamSummary ends the summary line when the dependencies are indexed:
// ", upstream: 2 modules read (530 chunks), 1 skipped".
func upstreamSummary(s evidenceSettings, b *builtIndex, st retrieval.IndexStats) string {
	if !s.upstream {
		return ""
	}
	read := 0
	for _, m := range b.modules {
		if m.Skipped == "" {
			read++
		}
	}
	modules := "modules"
	if read == 1 {
		modules = "module"
	}
	return fmt.Sprintf(", upstream: %d %s read (%d chunks), %d skipped", read, modules, st.Extra, len(b.modules)-read)
}

// formatBytes writes n in decimal units with one decimal: "12.3 MB".
func formatBytes(n int64) string {
	const unit = 1000
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	div, exp := int64(unit), 0
	for m := n / unit; m >= unit; m /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %cB", float64(n)/float64(div), "kMGTPE"[exp])
}

// formatSeconds writes d in seconds with one decimal: "2.1s".
func formatSeconds(d time.Duration) string {
	return fmt.Sprintf("%.1fs", d.Seconds())
}
