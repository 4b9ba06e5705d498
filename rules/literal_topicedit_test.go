package rules

import (
	"testing"

	"github.com/docreview/docreview/review"
)

// TestLiteralTopicEdit covers a diff that edits a number of a doc whose
// words name a constant that still holds the old number.
func TestLiteralTopicEdit(t *testing.T) {
	ws := loadWorkspace(t, "topicedit")
	header := []ev{
		{"frames.go", 5, 5, review.SourceCode, "frameHeaderLen = 8"},
	}
	tests := []struct {
		name   string
		symbol string // a doc comment of frames.go, else
		md     string // a claim of README.md containing this
		want   *want
	}{{
		name:   "a doc comment of the package",
		symbol: "Frame",
		want: &want{
			label:      review.Contradicted,
			message:    "The doc states 16 bytes, but frameHeaderLen is 8 (this diff changed the doc's 8 bytes to 16 bytes).",
			suggestion: "Frame is one message on the wire, after the frame header (8 bytes).",
			evidence:   append(header, ev{"frames.go", 10, 10, review.SourceDiff, "this diff changed the doc's 8 bytes to 16 bytes"}),
		},
	}, {
		name: "Markdown above the package",
		md:   "Each frame starts",
		want: &want{
			label:      review.Contradicted,
			message:    "but frameHeaderLen is 8",
			suggestion: "Each frame starts with its header, 8 bytes long.",
			evidence:   append(header, ev{"README.md", 3, 3, review.SourceDiff, "this diff changed the doc's 8 bytes to 16 bytes"}),
		},
	},
		// The diff changed the constant and the doc together.
		{name: "doc and code changed together", symbol: "Trailer"},
		// No words name a constant.
		{name: "no constant named", symbol: "Send"},
		{
			// The doc of a constant is about that constant.
			name: "a constant's own doc", symbol: "codeReserved",
			want: &want{
				label:      review.Contradicted,
				message:    "The doc states 1005, but codeReserved is 1004 (this diff changed the doc's 1004 to 1005).",
				suggestion: "codeReserved is never sent: 1004 is reserved by the protocol.",
				evidence: []ev{
					{"frames.go", 20, 20, review.SourceCode, "codeReserved = 1004"},
					{"frames.go", 19, 19, review.SourceDiff, "this diff changed the doc's 1004 to 1005"},
				},
			},
		}, {
			// The doc of a func is about the constants its body uses.
			name: "a constant the func uses", symbol: "Reject",
			want: &want{
				label:      review.Contradicted,
				message:    "The doc states 1003, but closeProtocolError is 1002 (this diff changed the doc's 1002 to 1003).",
				suggestion: "Reject replies with a close frame carrying status 1002.",
				evidence: []ev{
					{"frames.go", 22, 22, review.SourceCode, "closeProtocolError = 1002"},
					{"frames.go", 24, 24, review.SourceDiff, "this diff changed the doc's 1002 to 1003"},
				},
			},
		},
		// The body writes the new number itself: the doc may follow it.
		{name: "the func writes the new number", symbol: "Walk"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var c review.Claim
			if tt.symbol != "" {
				c = goClaim(t, ws, "frames.go", tt.symbol)
			} else {
				c = mdClaim(t, ws, "README.md", tt.md)
			}
			got, err := (&LiteralMismatch{}).Judge(t.Context(), ws, c)
			if err != nil {
				t.Fatal(err)
			}
			checkVerdict(t, &LiteralMismatch{}, got, tt.want)
		})
	}
}
