package main

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"golang.org/x/term"
)

// Progress bar tuning.
const (
	// progressInterval is the least time between two redraws: at most 10
	// a second.
	progressInterval = 100 * time.Millisecond
	// progressBarWidth is the number of cells of the bar.
	progressBarWidth = 24
	// progressMinElapsed is how long indexing runs before a rate and an
	// ETA are shown; earlier ones are noise.
	progressMinElapsed = 500 * time.Millisecond
)

// progressBar draws the files indexed so far on one terminal line,
// redrawn in place with a carriage return. Its methods are safe for
// concurrent use.
type progressBar struct {
	mu    sync.Mutex
	w     io.Writer
	now   func() time.Time
	start time.Time
	last  time.Time
	drawn bool
}

// newProgressBar returns a bar that writes to w, reading the time from now
// (nil means time.Now).
func newProgressBar(w io.Writer, now func() time.Time) *progressBar {
	if now == nil {
		now = time.Now
	}
	return &progressBar{w: w, now: now, start: now()}
}

// update redraws the bar with done of total files indexed, unless it was
// drawn less than progressInterval ago; the last update (done == total)
// is always drawn.
func (p *progressBar) update(done, total int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	t := p.now()
	if p.drawn && done < total && t.Sub(p.last) < progressInterval {
		return
	}
	p.last, p.drawn = t, true
	fmt.Fprintf(p.w, "\r%s\x1b[K", renderProgress(done, total, t.Sub(p.start)))
}

// clear erases the bar, so that the summary takes its line.
func (p *progressBar) clear() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.drawn {
		fmt.Fprint(p.w, "\r\x1b[K")
		p.drawn = false
	}
}

// renderProgress draws "indexing [#####.....]  345/1234 files  28%
// 512 files/s  ETA 2s" for done of total files after elapsed.
func renderProgress(done, total int, elapsed time.Duration) string {
	done = max(0, min(done, total))
	frac := 1.0
	if total > 0 {
		frac = float64(done) / float64(total)
	}
	filled := int(frac * progressBarWidth)
	bar := strings.Repeat("#", filled) + strings.Repeat(".", progressBarWidth-filled)
	s := fmt.Sprintf("indexing [%s] %*d/%d files %3d%%", bar, len(fmt.Sprint(total)), done, total, int(frac*100))
	if elapsed < progressMinElapsed || done == 0 {
		return s
	}
	rate := float64(done) / elapsed.Seconds()
	s += fmt.Sprintf("  %.0f files/s", rate)
	if done < total {
		eta := time.Duration(float64(total-done) / rate * float64(time.Second))
		s += "  ETA " + formatETA(eta)
	}
	return s
}

// formatETA rounds d to whole seconds, and to whole minutes past an hour.
func formatETA(d time.Duration) string {
	switch {
	case d < time.Second:
		return "<1s"
	case d < time.Hour:
		return d.Round(time.Second).String()
	default:
		return d.Round(time.Minute).String()
	}
}

// isTerminal reports whether w is a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}
