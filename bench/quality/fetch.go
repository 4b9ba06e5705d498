package quality

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
	"unicode/utf8"

	"golang.org/x/mod/modfile"
	"golang.org/x/mod/module"
)

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

// downloadRequirements downloads the direct requirements of a go.mod
// (after its replace directives; local replacements are left out) into
// the module cache with one 'go mod download', within two minutes.
func downloadRequirements(ctx context.Context, gomod string) error {
	args, err := requirementArgs(gomod)
	if err != nil || len(args) == 0 {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "go", append([]string{"mod", "download"}, args...)...)
	cmd.Dir = os.TempDir()
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("go mod download (%d modules): %w: %s", len(args), err, strings.TrimSpace(stderr.String()))
	}
	return nil
}

// requirementArgs returns the module versions go mod download takes for
// the direct requirements of a go.mod: "path@version", a replacement's
// when one applies, none for a local replacement.
func requirementArgs(gomod string) ([]string, error) {
	if gomod == "" {
		return nil, nil
	}
	mf, err := modfile.Parse("go.mod", []byte(gomod), nil)
	if err != nil {
		return nil, fmt.Errorf("parse go.mod: %w", err)
	}
	var args []string
	for _, r := range mf.Require {
		if r.Indirect {
			continue
		}
		t := r.Mod
		for _, x := range mf.Replace {
			if x.Old.Path == r.Mod.Path && (x.Old.Version == "" || x.Old.Version == r.Mod.Version) {
				t = x.New
			}
		}
		if t.Version == "" || module.Check(t.Path, t.Version) != nil {
			continue
		}
		args = append(args, t.Path+"@"+t.Version)
	}
	return args, nil
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
