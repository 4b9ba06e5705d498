package quality

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestSentences(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"One. Two three. Four", []string{"One.", "Two three.", "Four"}},
		{"No stop", []string{"No stop"}},
		{"Ends here.", []string{"Ends here."}},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, sentences(tt.in)); diff != "" {
				t.Errorf("sentences(%q) (-want +got):\n%s", tt.in, diff)
			}
		})
	}
}

func TestSplitCamel(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"ParseDuration", []string{"Parse", "Duration"}},
		{"NewHTTPClient", []string{"New", "HTTP", "Client"}},
		{"Get", []string{"Get"}},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, splitCamel(tt.in)); diff != "" {
				t.Errorf("splitCamel(%q) (-want +got):\n%s", tt.in, diff)
			}
		})
	}
}

func TestBumped(t *testing.T) {
	tests := map[string]string{"3": "4", "30": "60", "1.5": "3", "x": ""}
	for in, want := range tests {
		t.Run(in, func(t *testing.T) {
			if got := bumped(in); got != want {
				t.Errorf("bumped(%q) = %q, want %q", in, got, want)
			}
		})
	}
}

func TestRenderDoc(t *testing.T) {
	got := renderDoc([]string{"alpha beta gamma delta", "second"}, 14, "\t")
	want := "// alpha beta\n\t// gamma delta\n\t//\n\t// second"
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("renderDoc (-want +got):\n%s", diff)
	}
}

func TestGenerators(t *testing.T) {
	files := map[string]string{
		"go.mod": "module example.com/m\n",
		"m.go": `package m

import "errors"

// Timeout is how long Fetch waits: 30 seconds. See [Fetch].
const Timeout = 30

// Fetch fetches the page at path and returns its body, following
// redirects. It returns an error when the page does not exist or
// the server does not answer.
func (c *Client) Fetch(path string) (string, error) {
	if path == "" {
		return "", errors.New("no path")
	}
	return path, nil
}

// Client fetches pages.
type Client struct{}
`,
		"README.md": "# m\n\nUse `Client.Fetch`:\n\n```go\nimport \"example.com/m\"\n\nc.Fetch(\"x\")\nm.Timeout\n```\n",
	}
	s := newSource("example.com/m", files)
	for _, cat := range Categories() {
		t.Run(string(cat), func(t *testing.T) {
			cases := generate(s, cat)
			if len(cases) == 0 {
				t.Fatalf("no %s cases for a module that has sites for every category", cat)
			}
			for _, c := range cases {
				for p, content := range c.Edit {
					if content == files[p] && c.Pre == nil {
						t.Errorf("%s: edit of %s changes nothing", c.Site, p)
					}
				}
				if cat.Clean() != (len(c.Expect) == 0) {
					t.Errorf("%s: clean %v but %d expected spans", c.Site, cat.Clean(), len(c.Expect))
				}
			}
		})
	}
}

func TestNamesParam(t *testing.T) {
	tests := []struct {
		doc, p string
		want   bool
	}{
		{"Get returns the value for key.", "key", true},
		{"Int32VarP accepts a shorthand letter.", "shorthand", false},
		{"Match returns the match for a given request.", "match", false},
		{"PathPrefix adds a matcher for the tpl argument.", "tpl", true},
		{"Set sets the name parameter.", "name", true},
		{"Set names nothing.", "key", false},
		{"AppendInvoke appends its result into the error.", "into", false},
		{"Copy copies `from` to the writer.", "from", true},
	}
	for _, tt := range tests {
		if got := namesParam(tt.doc, tt.p); got != tt.want {
			t.Errorf("namesParam(%q, %q) = %v, want %v", tt.doc, tt.p, got, tt.want)
		}
	}
}

func TestVersionPairs(t *testing.T) {
	tests := []struct {
		m    Module
		want [][2]string
	}{
		{Module{Version: "v2"}, nil},
		{Module{Version: "v2", Previous: "v1"}, [][2]string{{"v1", "v2"}}},
		{Module{Version: "v4", Previous: "v3", History: []string{"v1", "v2"}}, [][2]string{{"v3", "v4"}, {"v2", "v3"}, {"v1", "v2"}}},
	}
	for _, tt := range tests {
		if d := cmp.Diff(tt.want, tt.m.versionPairs()); d != "" {
			t.Errorf("%+v: versionPairs (-want +got):\n%s", tt.m, d)
		}
	}
}
