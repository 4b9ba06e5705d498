package diff

import (
	"slices"
	"sort"
)

// Status is what a diff does to a file.
type Status string

// The file statuses git reports.
const (
	Added    Status = "added"
	Modified Status = "modified"
	Deleted  Status = "deleted"
	Renamed  Status = "renamed"
	Copied   Status = "copied"
)

// Range is an inclusive, 1-based line range; Start <= End.
type Range struct{ Start, End int }

// Hunk is one hunk of a file's diff.
type Hunk struct {
	// OldStart and NewStart are the 1-based first lines of the hunk on
	// each side and OldLines and NewLines their counts, as in the header
	// "@@ -OldStart,OldLines +NewStart,NewLines @@". A side with no lines
	// starts at the line before the hunk, 0 at the top of the file.
	OldStart, OldLines int
	NewStart, NewLines int
	// Text is the hunk as git printed it, header line included, with
	// "\ No newline at end of file" markers. It is rebuilt from the
	// parsed hunk, so the header always spells both counts
	// ("@@ -1,1 +1,2 @@") and blank context lines keep their space.
	Text string
}

// File is one file of a diff.
type File struct {
	// OldPath and NewPath are slash-separated and relative to the
	// repository root; OldPath is empty for added files and NewPath for
	// deleted ones.
	OldPath, NewPath string
	Status           Status
	// Binary is true for files git reports as binary; they have no hunks.
	Binary bool
	// Added lists the new-side lines the diff adds or replaces, sorted,
	// with adjacent lines merged into one range.
	Added []Range
	// Deleted lists the old-side lines the diff removes or replaces,
	// sorted and merged like Added.
	Deleted []Range
	// RemovedBefore lists, sorted, the new-side lines before which the diff
	// removes old lines: p means "lines were removed between new lines p-1
	// and p". It places pure deletions, which Added cannot show.
	RemovedBefore []int
	Hunks         []Hunk
}

// Path returns the file's path after the change: NewPath, or OldPath for a
// deleted file.
func (f File) Path() string {
	if f.Status == Deleted || f.NewPath == "" {
		return f.OldPath
	}
	return f.NewPath
}

// AddedAt reports whether the diff adds or replaces new-side line line.
func (f File) AddedAt(line int) bool { return inRanges(f.Added, line) }

// DeletedAt reports whether the diff removes or replaces old-side line
// line.
func (f File) DeletedAt(line int) bool { return inRanges(f.Deleted, line) }

// Touches reports whether the diff edits the inclusive new-side range
// [start, end]: an added line lies in it, or old lines were removed between
// two of its lines. It is false when end < start.
func (f File) Touches(start, end int) bool {
	if end < start {
		return false
	}
	i := firstEndingAtOrAfter(f.Added, start)
	if i < len(f.Added) && f.Added[i].Start <= end {
		return true
	}
	// A removal between two lines of the range edits it too.
	j, _ := slices.BinarySearch(f.RemovedBefore, start+1)
	return j < len(f.RemovedBefore) && f.RemovedBefore[j] <= end
}

// inRanges reports whether line lies in one of the sorted, disjoint ranges.
func inRanges(ranges []Range, line int) bool {
	i := firstEndingAtOrAfter(ranges, line)
	return i < len(ranges) && ranges[i].Start <= line
}

// firstEndingAtOrAfter returns the index of the first of the sorted,
// disjoint ranges whose End is at least line, or len(ranges).
func firstEndingAtOrAfter(ranges []Range, line int) int {
	return sort.Search(len(ranges), func(i int) bool { return ranges[i].End >= line })
}
