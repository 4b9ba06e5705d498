package diff

import (
	"bufio"
	"bytes"
	"cmp"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/bluekeyes/go-gitdiff/gitdiff"
)

// maxLine bounds the line numbers a hunk header may name; larger numbers
// are reported as malformed input rather than overflowing.
const maxLine = 1 << 31

// Parse reads git's unified diff output (`git diff`, `git show`, `git
// format-patch`; traditional `diff -u` output too) and returns its files in
// order. Input without any file, the empty input included, gives no files
// and no error. Text outside file headers and hunks (a commit message, a
// format-patch signature) is ignored. Paths are those git printed, without
// the a/ and b/ prefixes and unquoted; a traditional diff's paths are kept
// as written.
//
// Malformed input gives an error, never a panic: it names the input line,
// or the file and hunk header, and for git diffs the "diff --git" header of
// the file the line belongs to.
func Parse(r io.Reader) ([]File, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("read diff: %w", err)
	}
	parsed, _, err := gitdiff.Parse(bytes.NewReader(data))
	if err != nil {
		return nil, parseError(data, err)
	}
	files := make([]File, 0, len(parsed))
	for _, pf := range parsed {
		f, err := convert(pf)
		if err != nil {
			return nil, err
		}
		files = append(files, f)
	}
	return files, nil
}

// parseError adds the file header the error's line belongs to, when there
// is one, to an error from gitdiff ("gitdiff: line N: ...").
func parseError(data []byte, err error) error {
	var line int
	if _, serr := fmt.Sscanf(err.Error(), "gitdiff: line %d:", &line); serr != nil || line < 1 {
		return fmt.Errorf("parse diff: %w", err)
	}
	header := ""
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, len(data)+1)
	for n := 1; n <= line && sc.Scan(); n++ {
		if text := sc.Text(); strings.HasPrefix(text, "diff --git ") {
			header = text
		}
	}
	if header == "" {
		return fmt.Errorf("parse diff: %w", err)
	}
	if len(header) > 200 {
		header = header[:200] + "..."
	}
	return fmt.Errorf("parse diff: in %q: %w", header, err)
}

// convert maps a parsed file to a File, checking the hunk ranges that
// gitdiff leaves unchecked.
func convert(pf *gitdiff.File) (File, error) {
	f := File{OldPath: pf.OldName, NewPath: pf.NewName, Binary: pf.IsBinary}
	switch {
	case pf.IsNew:
		f.Status, f.OldPath = Added, ""
	case pf.IsDelete:
		f.Status, f.NewPath = Deleted, ""
	case pf.IsRename:
		f.Status = Renamed
	case pf.IsCopy:
		f.Status = Copied
	default:
		f.Status = Modified
	}
	if f.Binary {
		return f, nil
	}
	for _, frag := range pf.TextFragments {
		if err := checkFragment(frag); err != nil {
			return File{}, fmt.Errorf("parse diff: %s: hunk %q: %w", f.Path(), frag.Header(), err)
		}
		old, cur := int(frag.OldPosition), int(frag.NewPosition)
		for _, l := range frag.Lines {
			switch l.Op {
			case gitdiff.OpContext:
				old++
				cur++
			case gitdiff.OpDelete:
				f.Deleted = appendLine(f.Deleted, old)
				if n := len(f.RemovedBefore); f.Status != Deleted && (n == 0 || f.RemovedBefore[n-1] != cur) {
					f.RemovedBefore = append(f.RemovedBefore, cur)
				}
				old++
			case gitdiff.OpAdd:
				f.Added = appendLine(f.Added, cur)
				cur++
			}
		}
		f.Hunks = append(f.Hunks, Hunk{
			OldStart: int(frag.OldPosition), OldLines: int(frag.OldLines),
			NewStart: int(frag.NewPosition), NewLines: int(frag.NewLines),
			Text: frag.String(),
		})
	}
	f.Added, f.Deleted = normalize(f.Added), normalize(f.Deleted)
	return f, nil
}

// checkFragment rejects hunk headers with negative or out-of-range
// numbers, and a start of 0 for a side that has lines (git writes 0 only
// for an empty side).
func checkFragment(frag *gitdiff.TextFragment) error {
	for _, side := range [...]struct {
		name       string
		pos, lines int64
	}{{"old", frag.OldPosition, frag.OldLines}, {"new", frag.NewPosition, frag.NewLines}} {
		switch {
		case side.pos < 0 || side.lines < 0 || side.pos > maxLine || side.lines > maxLine-side.pos:
			return fmt.Errorf("%s range out of bounds", side.name)
		case side.pos == 0 && side.lines > 0:
			return fmt.Errorf("%s range starts at line 0", side.name)
		}
	}
	return nil
}

// appendLine adds line to ranges, extending the last range when line
// follows it.
func appendLine(ranges []Range, line int) []Range {
	if n := len(ranges); n > 0 && ranges[n-1].End+1 == line {
		ranges[n-1].End = line
		return ranges
	}
	return append(ranges, Range{Start: line, End: line})
}

// normalize sorts ranges and merges those that overlap or touch, so that
// lookups can search them. git's hunks are already in order; hand-made
// diffs may not be.
func normalize(ranges []Range) []Range {
	if slices.IsSortedFunc(ranges, func(a, b Range) int { return cmp.Compare(a.Start, b.Start) }) && merged(ranges) {
		return ranges
	}
	slices.SortFunc(ranges, func(a, b Range) int { return cmp.Compare(a.Start, b.Start) })
	out := ranges[:1]
	for _, r := range ranges[1:] {
		last := &out[len(out)-1]
		if r.Start <= last.End+1 {
			last.End = max(last.End, r.End)
			continue
		}
		out = append(out, r)
	}
	return out
}

// merged reports whether sorted ranges are disjoint and not adjacent.
func merged(ranges []Range) bool {
	for i := 1; i < len(ranges); i++ {
		if ranges[i].Start <= ranges[i-1].End+1 {
			return false
		}
	}
	return true
}
