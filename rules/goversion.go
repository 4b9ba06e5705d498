package rules

import (
	"fmt"
	"io/fs"
	"path"
	"strconv"
	"strings"

	"golang.org/x/mod/modfile"

	"github.com/docreview/docreview/review"
	"github.com/docreview/docreview/review/prose"
)

// This file holds the go.mod half of the literal-mismatch rule: a doc that
// states a minimum Go release older than the one the module's go.mod
// declares. Go refuses to build a module with a toolchain older than its
// go line, so "install Go 1.14 or higher" is wrong for a module that says
// go 1.19.

// goModLine is the go directive of one go.mod file.
type goModLine struct {
	path         string // the go.mod file, slash-separated from the root
	line         int
	version      string // as written: "1.23.0"
	major, minor int
}

// goModKey keys the workspace's go directive of one directory.
type goModKey struct{ dir string }

// judgeGoVersion reports the first minimum Go release the claim states
// that is older than the go directive of the go.mod nearest to the
// claim's file, or nil.
func (r *LiteralMismatch) judgeGoVersion(ws *review.Workspace, c review.Claim) *review.Verdict {
	if ws == nil || ws.HeadFS == nil {
		return nil
	}
	// A code block's releases are build tags, toolchain lines and
	// comments of code, not statements of the module's minimum.
	if hasCodeBlock(c) {
		return nil
	}
	if c.Kind != review.KindMarkdown && !strings.HasPrefix(c.Symbol, "package ") {
		// A declaration's doc gives the release a behaviour depends on
		// (gofumpt's "octal literals need go1.13" on its -lang flag,
		// delve's "Supported Go versions are 1.18" of the binaries it
		// reads), not the module's minimum, which READMEs and package
		// docs state.
		return nil
	}
	if c.Kind == review.KindMarkdown && historyHeadingRE.MatchString(c.Context) {
		// A README's changelog section: "Minimum version is Go 1.16"
		// under a release of 2022 was true then.
		return nil
	}
	reqs := prose.GoRequirements(c.Text)
	if len(reqs) == 0 {
		return nil
	}
	mod, ok := nearestGoMod(ws, path.Dir(c.Path))
	if !ok || mod.major != 1 {
		return nil
	}
	for _, q := range reqs {
		if q.Major != 1 || q.Minor >= mod.minor {
			continue
		}
		stated := c.Text[q.Start:q.End]
		want := goModShown(mod)
		line := c.Line + strings.Count(c.Text[:q.Start], "\n")
		suggestion := ""
		if strings.Count(c.Text, stated) == 1 {
			suggestion = c.Text[:q.Start] + want + c.Text[q.End:]
		}
		// Since Go 1.21 the go line is the minimum a toolchain accepts;
		// before, it was the language version the module is written for,
		// and an older toolchain tried the build anyway.
		msg := fmt.Sprintf("The doc states Go %s as the oldest release to use, but %s declares go %s, "+
			"which Go toolchains enforce as the minimum since Go 1.21.", stated, mod.path, mod.version)
		confidence := 0.9
		if mod.minor < 21 {
			msg = fmt.Sprintf("The doc states Go %s as the oldest release to use, but %s declares go %s, "+
				"the release the module is written for (older toolchains still try to build it, and fail on newer language features).", stated, mod.path, mod.version)
			confidence = 0.7
		}
		return &review.Verdict{
			Label:      review.Contradicted,
			Rule:       r.Name(),
			Message:    msg,
			Confidence: confidence,
			Suggestion: suggestion,
			Evidence: []review.Evidence{{
				Path: mod.path, StartLine: mod.line, EndLine: mod.line, Source: review.SourceCode,
				Why:  "go " + mod.version,
				Hops: []string{fmt.Sprintf("%s:%d", c.Path, line), mod.path},
			}},
		}
	}
	return nil
}

// goModShown is the go directive's release the way docs write it: without
// a ".0" patch.
func goModShown(m goModLine) string {
	return strings.TrimSuffix(m.version, ".0")
}

// nearestGoMod returns the go directive of the go.mod file in dir or the
// closest directory above it, read once per review; false when there is
// none, it does not parse, or it has no go line.
func nearestGoMod(ws *review.Workspace, dir string) (goModLine, bool) {
	for {
		v, _ := ws.Shared(goModKey{dir}, func() (any, error) { return readGoMod(ws.HeadFS, dir), nil })
		if m, ok := v.(goModLine); ok {
			return m, true
		}
		if v != nil {
			// The directory has a go.mod without a usable go line: the
			// module above is not this one.
			return goModLine{}, false
		}
		if dir == "." || dir == "/" || dir == "" {
			return goModLine{}, false
		}
		dir = path.Dir(dir)
	}
}

// noGoLine marks a go.mod file that exists but gives no release.
type noGoLine struct{}

// readGoMod reads dir/go.mod: its go line, noGoLine{} when it has none or
// does not parse, nil when there is no such file.
func readGoMod(fsys fs.FS, dir string) any {
	p := path.Join(dir, "go.mod")
	data, err := fs.ReadFile(fsys, p)
	if err != nil {
		return nil
	}
	f, err := modfile.ParseLax(p, data, nil)
	if err != nil || f.Go == nil || f.Go.Syntax == nil {
		return noGoLine{}
	}
	major, rest, ok := strings.Cut(f.Go.Version, ".")
	if !ok {
		return noGoLine{}
	}
	minorText, _, _ := strings.Cut(rest, ".")
	ma, err1 := strconv.Atoi(major)
	mi, err2 := strconv.Atoi(minorText)
	if err1 != nil || err2 != nil {
		return noGoLine{}
	}
	return goModLine{path: p, line: f.Go.Syntax.Start.Line, version: f.Go.Version, major: ma, minor: mi}
}
