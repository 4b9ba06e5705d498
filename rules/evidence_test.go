package rules

import (
	"testing"

	"github.com/docreview/docreview/review"
	"github.com/docreview/docreview/review/diff"
	"github.com/google/go-cmp/cmp"
)

func TestHunkEvidence(t *testing.T) {
	files := []diff.File{{
		OldPath: "store.go", NewPath: "store.go", Status: diff.Modified,
		Added: []diff.Range{{Start: 33, End: 35}},
		Hunks: []diff.Hunk{
			{OldStart: 30, OldLines: 9, NewStart: 30, NewLines: 9},
			{OldStart: 85, OldLines: 11, NewStart: 85, NewLines: 6},
			{OldStart: 120, OldLines: 4, NewStart: 114, NewLines: 0},
		},
	}, {
		OldPath: "gone.go", Status: diff.Deleted,
		Hunks: []diff.Hunk{{OldStart: 1, OldLines: 10, NewStart: 0, NewLines: 0}},
	}}
	tests := []struct {
		name   string
		ref    review.SymbolRef
		atBase bool
		want   review.Evidence
		ok     bool
	}{
		{"renamed: the added lines declaring it", review.SymbolRef{Path: "store.go", Line: 35}, false,
			review.Evidence{Path: "store.go", StartLine: 33, EndLine: 35, Source: review.SourceDiff}, true},
		{"removed: the new side of its hunk", review.SymbolRef{Path: "store.go", Line: 89}, true,
			review.Evidence{Path: "store.go", StartLine: 85, EndLine: 90, Source: review.SourceDiff}, true},
		{"removed by a pure deletion: the line it was cut after", review.SymbolRef{Path: "store.go", Line: 121}, true,
			review.Evidence{Path: "store.go", StartLine: 114, EndLine: 114, Source: review.SourceDiff}, true},
		{"file deleted: nothing at head", review.SymbolRef{Path: "gone.go", Line: 3}, true, review.Evidence{}, false},
		{"outside every hunk", review.SymbolRef{Path: "store.go", Line: 60}, true, review.Evidence{}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := hunkEvidence(files, tt.ref, tt.atBase)
			if ok != tt.ok {
				t.Fatalf("ok = %v, want %v", ok, tt.ok)
			}
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("evidence (-want +got):\n%s", d)
			}
		})
	}
}
