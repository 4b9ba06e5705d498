package retrieval

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"

	"golang.org/x/mod/modfile"
	"golang.org/x/mod/module"
)

// Requirement is a module a go.mod requires.
type Requirement struct {
	// Path is the required module's path: the import paths of its
	// packages start with it.
	Path string
	// Fetch is the module the go command downloads for it: the required
	// version, or a replace directive's path and version.
	Fetch module.Version
	// Indirect marks a requirement go.mod comments "// indirect".
	Indirect bool
}

// Requirements returns the requirements of a go.mod (name is its path, for
// errors) after its replace directives. A requirement replaced by a local
// directory, or without a valid version, is left out: nothing can be
// downloaded for it.
func Requirements(name string, data []byte) ([]Requirement, error) {
	mf, err := modfile.Parse(name, data, nil)
	if err != nil {
		return nil, fmt.Errorf("parse %s: %w", name, err)
	}
	var out []Requirement
	for _, r := range mf.Require {
		t := r.Mod
		for _, x := range mf.Replace {
			if x.Old.Path == r.Mod.Path && (x.Old.Version == "" || x.Old.Version == r.Mod.Version) {
				t = x.New
			}
		}
		if t.Version == "" || module.Check(t.Path, t.Version) != nil {
			continue
		}
		out = append(out, Requirement{Path: r.Mod.Path, Fetch: t, Indirect: r.Indirect})
	}
	return out, nil
}

// DownloadRequirements downloads the direct requirements of a go.mod into
// the module cache with one 'go mod download' of goCmd ("" means "go"),
// run outside any module with GOFLAGS=-mod=mod and GOWORK=off, so that the
// symbol table can load them (see LoadSymbols). It runs no code of the
// modules. env is added to the command's environment (GOPROXY,
// GOMODCACHE). A private or missing module fails the whole download; the
// error quotes the go command.
func DownloadRequirements(ctx context.Context, goCmd string, gomod []byte, env []string) error {
	reqs, err := Requirements("go.mod", gomod)
	if err != nil {
		return err
	}
	var args []string
	for _, r := range reqs {
		if !r.Indirect {
			args = append(args, r.Fetch.Path+"@"+r.Fetch.Version)
		}
	}
	if len(args) == 0 {
		return nil
	}
	if goCmd == "" {
		goCmd = "go"
	}
	cmd := exec.CommandContext(ctx, goCmd, append([]string{"mod", "download"}, args...)...)
	cmd.Dir = os.TempDir()
	cmd.Env = append(append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off"), env...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("go mod download (%d modules): %w: %s", len(args), err, strings.TrimSpace(stderr.String()))
	}
	return nil
}
