package review_test

import (
	"testing"

	"github.com/docreview/docreview/review"
)

func TestFailOn(t *testing.T) {
	tests := []struct {
		level     string
		label     review.Label
		dismissed bool
		want      bool
	}{
		{"contradicted", review.Contradicted, false, true},
		{"", review.Contradicted, false, true},
		{"contradicted", review.Incomplete, false, false},
		{"incomplete", review.Incomplete, false, true},
		{"incomplete", review.Contradicted, false, true},
		{"never", review.Contradicted, false, false},
		{"incomplete", review.Consistent, false, false},
		{"contradicted", review.Contradicted, true, false},
		{"incomplete", review.Incomplete, true, false},
	}
	for _, tt := range tests {
		f, err := review.ParseFailOn(tt.level)
		if err != nil {
			t.Fatalf("ParseFailOn(%q): %v", tt.level, err)
		}
		vs := []review.Verdict{{Label: tt.label, Claim: review.Claim{ID: "c1"}}}
		got := f.Failed(vs, func(v review.Verdict) bool { return tt.dismissed && v.Claim.ID == "c1" })
		if got != tt.want {
			t.Errorf("fail-on %q, %s finding (dismissed %v): failed %v, want %v", tt.level, tt.label, tt.dismissed, got, tt.want)
		}
	}
	for _, bad := range []string{"Contradicted", "warning", "consistent"} {
		if _, err := review.ParseFailOn(bad); err == nil {
			t.Errorf("ParseFailOn(%q): no error", bad)
		}
	}
}
