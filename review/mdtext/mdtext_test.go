package mdtext_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/docreview/docreview/review/mdtext"
)

func TestText(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain words", "plain words"},
		{"a | b", `a \| b`},
		{"<script>x</script>", "&lt;script&gt;x&lt;/script&gt;"},
		{"a & b", "a &amp; b"},
		{"ask @octocat", "ask @&#8203;octocat"},
		{"*em* _u_ [l](x) ![i](y) ~s~", `\*em\* \_u\_ \[l\](x) \!\[i\](y) \~s\~`},
		{`back\slash`, `back\\slash`},
		{"# h", `\# h`},
		{"- item", `\- item`},
		{"+ item", `\+ item`},
		{"= under", `\= under`},
		{"12. item", `12\. item`},
		{"3) item", `3\) item`},
		{"a - b # c 1. d", "a - b # c 1. d"},
		{"keep `a|<b>` code", "keep `a|<b>` code"},
		{"keep ``a ` b`` code", "keep ``a ` b`` code"},
		{"``` fence", "\\`\\`\\` fence"},
		{"unmatched ` tick | x", "unmatched \\` tick \\| x"},
		{"multi\nline\n\n text", "multi line text"},
		{"esc \x1b[1m", `esc \\x1b\[1m`},
		{"<!-- x --> @alice *b* [l](u)", "&lt;\\!-- x --&gt; @&#8203;alice \\*b\\* \\[l\\](u)"},
		{"ok \u202egnp.exe", `ok \\u202egnp.exe`},
		{"iso \u2066x\u2069 mark \u200f", `iso \\u2066x\\u2069 mark \\u200f`},
		{"c1 \u0085 bad \xff", `c1 \\u0085 bad \\xff`},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			if got := mdtext.Text(tt.in); got != tt.want {
				t.Errorf("Text(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestCode(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", ""},
		{"Cache.Purge", "`Cache.Purge`"},
		{"a`b", "``a`b``"},
		{"`x`", "`` `x` ``"},
		{"a ``` b\nc", "````a ``` b c````"},
		{"x\u202ey", "`x\\u202ey`"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			if got := mdtext.Code(tt.in); got != tt.want {
				t.Errorf("Code(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestFence(t *testing.T) {
	tests := []struct {
		name   string
		indent string
		lang   string
		lines  []string
		want   string
	}{
		{"plain", "", "go", []string{"x := 1", "", "y"}, "```go\nx := 1\n\ny\n```"},
		{"backticks", "  ", "", []string{"a ``` b", "`````"}, "  ``````\n  a ``` b\n  `````\n  ``````"},
		{"empty", "", "text", nil, "```text\n```"},
		{"hidden characters", "", "go", []string{"s := \"\u202e\" // \x1b"}, "```go\ns := \"\\u202e\" // \\x1b\n```"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, mdtext.Fence(tt.indent, tt.lang, tt.lines)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestCleanIsIdempotent(t *testing.T) {
	for _, s := range []string{"plain", "a\u202eb", "\x1b[31m", "bad \xff\xfe", "crlf\r\nline", "tab\tand\nnewline"} {
		once := mdtext.Clean(s)
		if twice := mdtext.Clean(once); twice != once {
			t.Errorf("Clean(Clean(%q)) = %q, want %q", s, twice, once)
		}
		if mdtext.Unsafe(once) {
			t.Errorf("Unsafe(Clean(%q)) = true", s)
		}
	}
	if !mdtext.Unsafe("a\u202eb") || mdtext.Unsafe("a\r\nb") {
		t.Error("Unsafe: want true for a bidi control, false for CRLF")
	}
}
