package quality

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"unicode/utf8"
)

//go:embed modules.json
var modulesJSON []byte

// Module is a Go module pinned for the benchmark.
type Module struct {
	// Path is the module path ("go.uber.org/multierr").
	Path string `json:"path"`
	// Version is the exact version mutated ("v1.11.0").
	Version string `json:"version"`
	// Previous, when non-empty, is the version before Version; the diff
	// from Previous to Version is a real-version case.
	Previous string `json:"previous,omitempty"`
	// History lists older versions, oldest first, before Previous: each
	// consecutive pair (and the last one to Previous) is one more
	// real-version case.
	History []string `json:"history,omitempty"`
}

// versionPairs returns the consecutive (older, newer) version pairs of the
// module's real-version cases, newest first.
func (m Module) versionPairs() [][2]string {
	if m.Previous == "" {
		return nil
	}
	chain := append(append([]string(nil), m.History...), m.Previous, m.Version)
	var out [][2]string
	for i := len(chain) - 1; i > 0; i-- {
		out = append(out, [2]string{chain[i-1], chain[i]})
	}
	return out
}

// DefaultModules returns the modules of modules.json, in file order. An
// error means the embedded file does not parse.
func DefaultModules() ([]Module, error) {
	var mods []Module
	if err := json.Unmarshal(modulesJSON, &mods); err != nil {
		return nil, fmt.Errorf("parse modules.json: %w", err)
	}
	return mods, nil
}

// maxFile is the size above which a module file is left out.
const maxFile = 1 << 20

// download fetches path@version with 'go mod download' (the module cache
// keeps it, so later runs are offline) and returns its directory.
func download(ctx context.Context, path, version string) (string, error) {
	cmd := exec.CommandContext(ctx, "go", "mod", "download", "-json", path+"@"+version)
	cmd.Dir = os.TempDir()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	var info struct{ Dir, Error string }
	if jerr := json.Unmarshal(out, &info); jerr == nil && info.Error != "" {
		return "", fmt.Errorf("download %s@%s: %s", path, version, info.Error)
	}
	if err != nil {
		return "", fmt.Errorf("download %s@%s: %w: %s", path, version, err, strings.TrimSpace(stderr.String()))
	}
	if info.Dir == "" {
		return "", fmt.Errorf("download %s@%s: go mod download gave no directory", path, version)
	}
	return info.Dir, nil
}

// readTree reads the text files under dir, keyed by slash-separated
// relative path; binary, non-UTF-8 and large files are left out.
func readTree(dir string) (map[string]string, error) {
	files := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if d.Name() == ".git" {
				return filepath.SkipDir
			}
			return nil
		}
		info, err := d.Info()
		if err != nil || !info.Mode().IsRegular() || info.Size() > maxFile {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if bytes.IndexByte(b, 0) >= 0 || !utf8.Valid(b) {
			return nil
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		files[filepath.ToSlash(rel)] = string(b)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", dir, err)
	}
	return files, nil
}
