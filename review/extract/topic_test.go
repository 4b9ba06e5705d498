package extract

import (
	"testing"

	"github.com/docreview/docreview/review"
)

func TestStatesTopicValue(t *testing.T) {
	topics := valueTopicsOf(review.Changes{Changed: []review.SymbolRef{
		{Dir: "frames", Name: "HeaderSize", Kind: review.SymbolConst},
		{Dir: "frames", Name: "DefaultSize", Kind: review.SymbolConst}, // no topic words
		{Dir: "frames", Name: "Parse", Kind: review.SymbolFunc},
	}})
	if len(topics) != 1 {
		t.Fatalf("valueTopicsOf = %v, want the one constant with topic words", topics)
	}
	tests := []struct {
		name string
		c    review.Claim
		want bool
	}{
		{"doc comment of the package", review.Claim{Kind: review.KindDocComment, Package: "frames", Text: "Size is the frame size; the frame header (8 bytes) is included."}, true},
		{"doc comment of another package", review.Claim{Kind: review.KindDocComment, Package: "conn", Text: "the frame header (8 bytes)"}, false},
		{"no number", review.Claim{Kind: review.KindDocComment, Package: "frames", Text: "Size counts the header too."}, false},
		{"no topic word", review.Claim{Kind: review.KindDocComment, Package: "frames", Text: "Size is at most 8."}, false},
		{"README at the root", review.Claim{Kind: review.KindMarkdown, Path: "README.md", Text: "Each header is 8 bytes."}, true},
		{"Markdown in the package's directory", review.Claim{Kind: review.KindMarkdown, Path: "frames/doc.md", Text: "Each header is 8 bytes."}, true},
		{"Markdown in another directory", review.Claim{Kind: review.KindMarkdown, Path: "docs/x.md", Text: "Each header is 8 bytes."}, false},
	}
	for _, tt := range tests {
		if got := statesTopicValue(tt.c, topics); got != tt.want {
			t.Errorf("%s: statesTopicValue = %v, want %v", tt.name, got, tt.want)
		}
	}
}
