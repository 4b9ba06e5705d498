package main

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestRenderProgress(t *testing.T) {
	tests := []struct {
		name        string
		done, total int
		elapsed     time.Duration
		want        string
	}{
		{"start", 0, 1234, 0, "indexing [........................]    0/1234 files   0%"},
		{"too early for a rate", 100, 1234, 100 * time.Millisecond, "indexing [#.......................]  100/1234 files   8%"},
		{"rate and ETA", 500, 1000, 2 * time.Second, "indexing [############............]  500/1000 files  50%  250 files/s  ETA 2s"},
		{"done has no ETA", 1000, 1000, 4 * time.Second, "indexing [########################] 1000/1000 files 100%  250 files/s"},
		{"long ETA rounds to minutes", 1, 10000, time.Second, "indexing [........................]     1/10000 files   0%  1 files/s  ETA 2h47m0s"},
		{"done past total is clamped", 12, 10, time.Second, "indexing [########################] 10/10 files 100%  10 files/s"},
		{"empty repository", 0, 0, time.Second, "indexing [########################] 0/0 files 100%"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if d := cmp.Diff(tt.want, renderProgress(tt.done, tt.total, tt.elapsed)); d != "" {
				t.Errorf("renderProgress(%d, %d, %v) (-want +got):\n%s", tt.done, tt.total, tt.elapsed, d)
			}
		})
	}
}

// TestProgressBarThrottles checks that the bar redraws at most every
// 100ms, in place, always draws the final state, and clears its line.
func TestProgressBarThrottles(t *testing.T) {
	var out bytes.Buffer
	now := time.Unix(0, 0)
	bar := newProgressBar(&out, func() time.Time { return now })
	steps := []struct {
		after time.Duration
		done  int
	}{
		{0, 1},                      // drawn: first
		{50 * time.Millisecond, 2},  // skipped: 50ms after the last draw
		{60 * time.Millisecond, 3},  // drawn: 110ms
		{10 * time.Millisecond, 10}, // drawn: the last update
	}
	for _, s := range steps {
		now = now.Add(s.after)
		bar.update(s.done, 10)
	}
	draws := strings.Split(out.String(), "\r")[1:]
	var got []string
	for _, d := range draws {
		got = append(got, strings.Fields(strings.TrimSuffix(d, "\x1b[K"))[2])
	}
	if d := cmp.Diff([]string{"1/10", "3/10", "10/10"}, got); d != "" {
		t.Errorf("drawn states (-want +got):\n%s", d)
	}
	out.Reset()
	bar.clear()
	if out.String() != "\r\x1b[K" {
		t.Errorf("clear wrote %q, want a carriage return and erase-line", out.String())
	}
	out.Reset()
	bar.clear()
	if out.Len() != 0 {
		t.Errorf("second clear wrote %q, want nothing", out.String())
	}
}

func TestFormatBytes(t *testing.T) {
	tests := []struct {
		n    int64
		want string
	}{
		{0, "0 B"}, {999, "999 B"}, {1000, "1.0 kB"}, {12_345_678, "12.3 MB"}, {3 << 30, "3.2 GB"},
	}
	for _, tt := range tests {
		if got := formatBytes(tt.n); got != tt.want {
			t.Errorf("formatBytes(%d) = %q, want %q", tt.n, got, tt.want)
		}
	}
}
