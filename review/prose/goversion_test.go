package prose

import (
	"strings"
	"testing"
)

func TestGoRequirements(t *testing.T) {
	tests := []struct {
		text string
		want []int // the minor releases found; nil for none
	}{
		// Stated minimums, in the forms READMEs write them.
		{"To start using Badger, install Go 1.21 or above. Badger v3 and above needs go modules.", []int{21}},
		{"version of Go should be **1.12** or above.", []int{12}},
		{"you'll need go1.16 and up", []int{16}},
		{"This package requires Go 1.18+.", []int{18}},
		{"Requires Go 1.13.", []int{13}},
		{"Requires Go 1.13.\nTODO(go1.18 or later): box the value with a generic func.", []int{13}},
		// A note to the maintainers says when to do something.
		{"TODO(≥go1.18): Define a generic function that boxes a value on the heap.", nil},
		{"FIXME: needs Go 1.21 or newer once slices lands.", nil},
		{"It supports go 1.4 and above.", []int{4}},
		{"Building needs Go 1.17 or newer.", []int{17}},
		{"Go >= 1.20 is required.", []int{20}},
		{"A Go version of at least 1.19 is needed.", []int{19}},
		{"Assicurati di avere Go ([per scaricalro](https://go.dev/dl/)) installato. Devi avere la versione `1.14` o superiore.", []int{14}},
		{"Go'nun `1.14` sürümü ([indir](https://go.dev/dl/)) veya daha yüksek bir sürüm gerekli.", []int{14}},
		{"Asegúrese de tener instalado Go ([descargar](https://go.dev/dl/)). Versión `1.14` o superior.", []int{14}},
		{"[![Go Version](https://img.shields.io/badge/go%20version-%3E=1.16-61CFDD.svg?style=flat-square)](https://go.dev/)", []int{16}},
		{"Minimum Go version: 1.22.3", []int{22}},
		{"本项目需要 Go 1.17及以上版本。", []int{17}},
		{"从源码开始构建的话，需要有Go环境（1.17及以上版本）。", []int{17}},
		{"Goose supports embedding, which means you'll need go1.16 and up. If using go1.15 or lower, then pin the old tag.", []int{16}},
		{"Go 1.21 or later is required to build the CLI.", []int{21}},
		{"* [Go Lang](https://golang.org/) (minimum version required is 1.14):", []int{14}},
		{"- Support for go 1.4 and above, while selectively using newer APIs for later releases", []int{4}},
		{"* Go 1.13.x or above except 1.14.x", []int{13}},
		// An example's release is a feature's (gofumpt's AGENTS.md).
		{"Behavior can depend on `Options.LangVersion` (e.g. `0o` octal literals need go1.13) and the module path.", nil},
		{"Some features, such as iterators, need Go 1.23 or later.", nil},
		{"Tools (e.g. the CLI). The module needs Go 1.21 or later.", []int{21}},
		{"This code is known to work on Go 1.12 and above.", []int{12}},
		{"The server runs on Go 1.21 or later.", []int{21}},
		// Not a minimum of this module's Go.
		{"nats_iter.go            # Go 1.23+ iterator support (go:build go1.23)", nil},
		{"Go 1.18+ generics make the API shorter.", nil},
		{"http.Pusher is supported only **go1.8+**. See the blog.", nil},
		{"On Go 1.20 and later, Join wraps the errors.", nil},
		{"For Go 1.20 and above, use the new API.", nil},
		{"Use the iterator for Go 1.23 and above.", nil},
		{"Go 1.13.x is the last release that builds it.", nil},
		{"If you use Go 1.18 or later, generics are available.", nil},
		{"Go 1.13 added error wrapping.", nil},
		{"Tested with Go 1.21 and 1.22.", nil},
		{"You need Go 1.18 or later; Go 1.12 or lower cannot build it.", nil},
		{"You need Go and Docker 1.13 or higher.", nil},
		{"v1 supports Go 1.11 and above; v2 requires Go 1.18+.", nil},
		{"Previously this package required Go 1.13 or later.", nil},
		{"Install version v1.2.3 or later of the CLI.", nil},
		{"The go command from Go 1.11 onward reads go.mod.", nil},
		{"Set GODEBUG=x509sha1=1 on Go 1.18 or later.", nil},
		{"Everything works. On Go 1.20 and later, Join wraps the errors.", nil},
		{"Protocol buffers 1.20 or later are required.", nil},
		{"Uses 1.5 GB or more of memory with go test.", nil},
		{"[![Go](https://img.shields.io/badge/go-1.21-blue)](https://go.dev/)", nil},
	}
	for _, tt := range tests {
		got := GoRequirements(tt.text)
		var minors []int
		for _, r := range got {
			minors = append(minors, r.Minor)
			if r.Major != 1 {
				t.Errorf("GoRequirements(%q): major %d", tt.text, r.Major)
			}
			if v := tt.text[r.Start:r.End]; !strings.HasPrefix(v+".", "1."+itoa(r.Minor)+".") {
				t.Errorf("GoRequirements(%q): offsets give %q, want 1.%d", tt.text, v, r.Minor)
			}
		}
		if !equalInts(minors, tt.want) {
			t.Errorf("GoRequirements(%q) = %v, want %v", tt.text, minors, tt.want)
		}
	}
}

func itoa(n int) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
