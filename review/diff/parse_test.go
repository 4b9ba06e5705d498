package diff

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// TestParseGolden parses every testdata/*.diff and compares the result with
// testdata/*.diff.json.
func TestParseGolden(t *testing.T) {
	t.Parallel()
	inputs, err := filepath.Glob(filepath.Join("testdata", "*.diff"))
	if err != nil {
		t.Fatal(err)
	}
	if len(inputs) == 0 {
		t.Fatal("no testdata/*.diff fixtures")
	}
	for _, in := range inputs {
		t.Run(filepath.Base(in), func(t *testing.T) {
			t.Parallel()
			data, err := os.ReadFile(in)
			if err != nil {
				t.Fatal(err)
			}
			files, err := Parse(bytes.NewReader(data))
			if err != nil {
				t.Fatal(err)
			}
			checkInvariants(t, files)
			got, err := json.MarshalIndent(files, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, '\n')
			golden := in + ".json"
			if *update {
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -update to create it)", err)
			}
			if diff := cmp.Diff(string(want), string(got)); diff != "" {
				t.Errorf("Parse(%s) mismatch (-want +got):\n%s", in, diff)
			}
		})
	}
}

// TestParseHunkText checks that each hunk's Text is the hunk as it appears
// in git's output, for fixtures whose headers spell both counts.
func TestParseHunkText(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"modify.diff", "rename_copy.diff", "blank_crlf.diff"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			data, err := os.ReadFile(filepath.Join("testdata", name))
			if err != nil {
				t.Fatal(err)
			}
			files, err := Parse(bytes.NewReader(data))
			if err != nil {
				t.Fatal(err)
			}
			var n int
			for _, f := range files {
				for _, h := range f.Hunks {
					n++
					text := h.Text
					if name == "blank_crlf.diff" {
						// git printed blank context lines without their space.
						text = strings.ReplaceAll(text, "\n \n", "\n\n")
					}
					if !bytes.Contains(data, []byte(text)) {
						t.Errorf("%s: hunk text not in the input:\n%s", f.Path(), h.Text)
					}
				}
			}
			if n == 0 {
				t.Error("no hunks")
			}
		})
	}
}

func TestParseMalformed(t *testing.T) {
	t.Parallel()
	const header = "diff --git a/x.md b/x.md\nindex 1111111..2222222 100644\n--- a/x.md\n+++ b/x.md\n"
	tests := []struct {
		name  string
		input string
		want  []string // substrings of the error
	}{
		{
			name:  "bad line operation",
			input: header + "@@ -1,2 +1,2 @@\n a\n*b\n",
			want:  []string{`in "diff --git a/x.md b/x.md"`, "line 7", "invalid line operation"},
		},
		{
			name:  "miscounted hunk",
			input: header + "@@ -1,3 +1,3 @@\n a\n-b\n+c\n",
			want:  []string{`in "diff --git a/x.md b/x.md"`, "line ", "miscounts lines"},
		},
		{
			name:  "bad hunk header",
			input: header + "@@ -1,x +1 @@\n-a\n+b\n",
			want:  []string{"line 5", "invalid fragment header"},
		},
		{
			name:  "hunk without file header",
			input: "@@ -1 +1 @@\n-a\n+b\n",
			want:  []string{"line 1", "fragment without file header"},
		},
		{
			name: "error in the second file",
			input: "diff --git a/ok.md b/ok.md\n--- a/ok.md\n+++ b/ok.md\n@@ -1 +1 @@\n-a\n+b\n" +
				header + "@@ -1,2 +1,2 @@\n-a\n+b\n",
			want: []string{`in "diff --git a/x.md b/x.md"`, "miscounts lines"},
		},
		{
			name:  "negative start",
			input: header + "@@ --5,1 +1 @@\n-a\n+b\n",
			want:  []string{"x.md", "@@ --5,1 +1,1 @@", "out of bounds"},
		},
		{
			name:  "start zero with lines",
			input: header + "@@ -0,1 +0,1 @@\n-a\n+b\n",
			want:  []string{"x.md", "starts at line 0"},
		},
		{
			name:  "huge start",
			input: header + "@@ -9223372036854775807,1 +1 @@\n-a\n+b\n",
			want:  []string{"x.md", "old range out of bounds"},
		},
		{
			name:  "new file with old content",
			input: "diff --git a/n.md b/n.md\nnew file mode 100644\n--- /dev/null\n+++ b/n.md\n@@ -1 +1 @@\n-a\n+b\n",
			want:  []string{`in "diff --git a/n.md b/n.md"`, "new file depends on old contents"},
		},
		{
			name:  "missing file names",
			input: "diff --git a/x b/y\nold mode 100644\nnew mode 100755\n",
			want:  []string{"missing filename information"},
		},
		{
			name:  "corrupt binary patch",
			input: "diff --git a/b.bin b/b.bin\nindex 1111111..2222222 100644\nGIT binary patch\nliteral 3\n!!!\n\n",
			want:  []string{`in "diff --git a/b.bin b/b.bin"`, "binary"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			files, err := Parse(strings.NewReader(tt.input))
			if err == nil {
				t.Fatalf("Parse = %+v, want an error", files)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not contain %q", err, w)
				}
			}
		})
	}
}

func TestParseNoFiles(t *testing.T) {
	t.Parallel()
	for _, input := range []string{"", "\n", "just some text\nwithout a diff\n", "--- a\n+++ b\n"} {
		files, err := Parse(strings.NewReader(input))
		if err != nil || len(files) != 0 {
			t.Errorf("Parse(%q) = %v, %v; want no files, no error", input, files, err)
		}
	}
}

func TestParseUnorderedHunks(t *testing.T) {
	t.Parallel()
	// Hand-made: hunks out of order and overlapping; Added must still be
	// sorted and merged.
	input := "diff --git a/x.md b/x.md\n--- a/x.md\n+++ b/x.md\n" +
		"@@ -10,1 +10,2 @@\n x\n+y\n" +
		"@@ -1,1 +1,3 @@\n-a\n+b\n+c\n+d\n" +
		"@@ -2,1 +3,2 @@\n e\n+f\n"
	files, err := Parse(strings.NewReader(input))
	if err != nil {
		t.Fatal(err)
	}
	want := []Range{{1, 4}, {11, 11}}
	if diff := cmp.Diff(want, files[0].Added); diff != "" {
		t.Errorf("Added (-want +got):\n%s", diff)
	}
	checkInvariants(t, files)
}

func TestFileLookups(t *testing.T) {
	t.Parallel()
	f := File{
		NewPath: "a.md", Status: Modified,
		Added:   []Range{{2, 2}, {5, 7}, {20, 20}},
		Deleted: []Range{{3, 4}},
	}
	tests := []struct {
		line             int
		added, deleted   bool
		touchesToLineTen bool // Touches(line, 10)
	}{
		{line: 0, touchesToLineTen: true},
		{line: 1, touchesToLineTen: true},
		{line: 2, added: true, touchesToLineTen: true},
		{line: 3, deleted: true, touchesToLineTen: true},
		{line: 4, deleted: true, touchesToLineTen: true},
		{line: 5, added: true, touchesToLineTen: true},
		{line: 7, added: true, touchesToLineTen: true},
		{line: 8},
		{line: 10},
		{line: 11}, // end < start
		{line: 20, added: true},
		{line: 21},
	}
	for _, tt := range tests {
		if got := f.AddedAt(tt.line); got != tt.added {
			t.Errorf("AddedAt(%d) = %v, want %v", tt.line, got, tt.added)
		}
		if got := f.DeletedAt(tt.line); got != tt.deleted {
			t.Errorf("DeletedAt(%d) = %v, want %v", tt.line, got, tt.deleted)
		}
		if got := f.Touches(tt.line, 10); got != tt.touchesToLineTen {
			t.Errorf("Touches(%d, 10) = %v, want %v", tt.line, got, tt.touchesToLineTen)
		}
	}
	if !f.Touches(8, 20) || f.Touches(8, 19) || !f.Touches(20, 99) || f.Touches(21, 99) {
		t.Error("Touches with ranges reaching line 20 is wrong")
	}
	if (File{}).Touches(1, 100) || (File{}).AddedAt(1) {
		t.Error("the zero File touches a line")
	}
	// A pure deletion between new lines 11 and 12 edits a range holding
	// both, and not a range that ends at 11 or starts at 12.
	del := File{RemovedBefore: []int{12}}
	for _, tt := range []struct {
		start, end int
		want       bool
	}{{5, 20, true}, {11, 12, true}, {5, 11, false}, {12, 20, false}, {13, 20, false}} {
		if got := del.Touches(tt.start, tt.end); got != tt.want {
			t.Errorf("pure deletion: Touches(%d, %d) = %v, want %v", tt.start, tt.end, got, tt.want)
		}
	}
}

func TestPath(t *testing.T) {
	t.Parallel()
	tests := []struct {
		f    File
		want string
	}{
		{File{NewPath: "a.md", Status: Added}, "a.md"},
		{File{OldPath: "a.md", NewPath: "a.md", Status: Modified}, "a.md"},
		{File{OldPath: "old.md", NewPath: "new.md", Status: Renamed}, "new.md"},
		{File{OldPath: "gone.md", Status: Deleted}, "gone.md"},
	}
	for _, tt := range tests {
		if got := tt.f.Path(); got != tt.want {
			t.Errorf("%+v.Path() = %q, want %q", tt.f, got, tt.want)
		}
	}
}

// checkInvariants checks what Parse promises of every file: ranges sorted,
// merged and within the hunks, paths set by status, no hunks for binaries.
func checkInvariants(t *testing.T, files []File) {
	t.Helper()
	for _, f := range files {
		if f.Path() == "" {
			t.Errorf("file with no path: %+v", f)
		}
		if (f.Status == Added) != (f.OldPath == "") || (f.Status == Deleted) != (f.NewPath == "") {
			t.Errorf("%s: status %s with OldPath %q, NewPath %q", f.Path(), f.Status, f.OldPath, f.NewPath)
		}
		if f.Binary && (len(f.Hunks) > 0 || len(f.Added) > 0 || len(f.Deleted) > 0) {
			t.Errorf("%s: binary file with hunks or lines", f.Path())
		}
		for _, side := range []struct {
			name   string
			ranges []Range
			at     func(int) bool
		}{{"Added", f.Added, f.AddedAt}, {"Deleted", f.Deleted, f.DeletedAt}} {
			for i, r := range side.ranges {
				if r.Start < 1 || r.End < r.Start || (i > 0 && r.Start <= side.ranges[i-1].End+1) {
					t.Errorf("%s: %s ranges not sorted and merged: %v", f.Path(), side.name, side.ranges)
					break
				}
				if !side.at(r.Start) || !side.at(r.End) || side.at(r.Start-1) || side.at(r.End+1) {
					t.Errorf("%s: %s lookups disagree with range %v", f.Path(), side.name, r)
				}
			}
		}
	}
}
