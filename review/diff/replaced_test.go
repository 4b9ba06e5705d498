package diff

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestHunkReplacements(t *testing.T) {
	tests := []struct {
		name string
		hunk Hunk
		want []Replacement
	}{{
		name: "two lines replaced in order between context",
		hunk: Hunk{NewStart: 3, Text: "@@ -3,4 +3,4 @@\n a\n-b\n-c\n+B\n+C\n d\n"},
		want: []Replacement{{Old: "b", New: "B", NewLine: 4}, {Old: "c", New: "C", NewLine: 5}},
	}, {
		name: "a rewrite of unequal length gives nothing",
		hunk: Hunk{NewStart: 1, Text: "@@ -1,2 +1,1 @@\n-a\n-b\n+ab\n"},
	}, {
		name: "a deletion after additions starts a new run",
		hunk: Hunk{NewStart: 10, Text: "@@ -10,2 +10,2 @@\n-x\n+y\n-z\n+w\n\\ No newline at end of file\n"},
		want: []Replacement{{Old: "x", New: "y", NewLine: 10}, {Old: "z", New: "w", NewLine: 11}},
	}, {
		name: "pure additions",
		hunk: Hunk{NewStart: 1, Text: "@@ -0,0 +1,2 @@\n+a\n+b\n"},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, tt.hunk.Replacements()); diff != "" {
				t.Errorf("Replacements (-want +got):\n%s", diff)
			}
		})
	}
}
