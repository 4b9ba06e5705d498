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

	"github.com/docreview/docreview/retrieval"
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
// into the module cache, within two minutes.
func downloadRequirements(ctx context.Context, gomod string) error {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	return retrieval.DownloadRequirements(ctx, "", []byte(gomod), nil)
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
