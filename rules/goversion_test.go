package rules

import (
	"testing"

	"github.com/docreview/docreview/review"
)

func TestLiteralMismatchGoVersion(t *testing.T) {
	ws := loadWorkspace(t, "goversion")
	rule := &LiteralMismatch{}
	goLine := []ev{{"go.mod", 3, 3, review.SourceCode, "go 1.22.0"}}
	tests := []struct {
		name   string
		path   string
		symbol string // a doc comment of path, else
		md     string // a Markdown claim of path containing this
		want   *want
	}{{
		name: "README minimum older than go.mod",
		path: "README.md", md: "install Go 1.21 or above",
		want: &want{
			label:      review.Contradicted,
			message:    "The doc states Go 1.21 as the oldest release to use, but go.mod declares go 1.22.0, which Go toolchains enforce as the minimum since Go 1.21.",
			suggestion: "To start using kv, install Go 1.22 or above.",
			evidence:   goLine,
		},
	}, {
		name: "badge",
		path: "README.md", md: "img.shields.io",
		want: &want{
			label:      review.Contradicted,
			message:    "Go 1.18 as the oldest release",
			suggestion: "[![Go Version](https://img.shields.io/badge/go%20version-%3E=1.22-61CFDD.svg?style=flat-square)](https://go.dev/)",
			evidence:   goLine,
		},
	}, {
		name: "translated README in a subdirectory reads the root go.mod",
		path: "docs/install.md", md: "Asegúrese",
		want: &want{
			label:      review.Contradicted,
			message:    "Go 1.14 as the oldest release",
			suggestion: "Asegúrese de tener instalado Go ([descargar](https://go.dev/dl/)). Versión `1.22` o superior.",
			evidence:   goLine,
		},
	}, {
		name: "package doc",
		path: "kv.go", symbol: "package kv",
		want: &want{
			label:      review.Contradicted,
			message:    "Go 1.20 as the oldest release",
			suggestion: "Package kv is a small key-value store. It needs Go 1.22 or later.",
			evidence:   goLine,
		},
	}, {
		name: "nested module with a go line from before Go 1.21",
		path: "tool/README.md", md: "Install Go 1.13",
		want: &want{
			label:      review.Contradicted,
			message:    "tool/go.mod declares go 1.16, the release the module is written for (older toolchains still try to build it",
			suggestion: "Install Go 1.16 or later to build the tool.",
			evidence:   []ev{{"tool/go.mod", 3, 3, review.SourceCode, "go 1.16"}},
		},
	},
		{name: "same release as go.mod", path: "README.md", md: "Go 1.22 or later works too"},
		{name: "compatibility table of several releases", path: "README.md", md: "| v1 | Go 1.11+ |"},
		{name: "history of Go itself", path: "README.md", md: "Go 1.13 added error wrapping"},
		{name: "a release note in the README's changelog", path: "README.md", md: "Minimum version is Go 1.16"},
		{name: "a condition on the release", path: "kv.go", symbol: "Join"},
		{name: "another product's release", path: "docs/install.md", md: "Docker 1.13"},
		{name: "nested module has its own go.mod", path: "tool/README.md", md: "Go 1.16 or later"},
		{name: "changelog", path: "CHANGELOG.md", md: "requires Go 1.18"},
		{name: "code block", path: "README.md", md: "kv_iter.go"},
		// A declaration's doc gives the release a behaviour depends on
		// (gofumpt's octal literals, delve's binaries), not the module's.
		{name: "a var's doc", path: "kv.go", symbol: "Lang"},
		{name: "a func's doc", path: "kv.go", symbol: "SymName"},
		{name: "an example's release", path: "docs/install.md", md: "octal literals need go1.13"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var c review.Claim
			if tt.symbol != "" {
				c = goClaim(t, ws, tt.path, tt.symbol)
			} else {
				c = mdClaim(t, ws, tt.path, tt.md)
			}
			got, err := rule.Judge(t.Context(), ws, c)
			if err != nil {
				t.Fatal(err)
			}
			checkVerdict(t, rule, got, tt.want)
		})
	}
}
