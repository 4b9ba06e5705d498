package quality

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"slices"
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
	m, err := downloadModule(ctx, path, version)
	return m.Dir, err
}

// downloaded is what 'go mod download -json' reports of a module version:
// its directory and its go.mod file (the one the module proxy serves,
// which for a version from before modules says only "module path").
type downloaded struct{ Dir, GoMod string }

func downloadModule(ctx context.Context, path, version string) (downloaded, error) {
	cmd := exec.CommandContext(ctx, "go", "mod", "download", "-json", path+"@"+version)
	cmd.Dir = os.TempDir()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	var info struct{ Dir, GoMod, Error string }
	if jerr := json.Unmarshal(out, &info); jerr == nil && info.Error != "" {
		return downloaded{}, fmt.Errorf("download %s@%s: %s", path, version, info.Error)
	}
	if err != nil {
		return downloaded{}, fmt.Errorf("download %s@%s: %w: %s", path, version, err, strings.TrimSpace(stderr.String()))
	}
	if info.Dir == "" {
		return downloaded{}, fmt.Errorf("download %s@%s: go mod download gave no directory", path, version)
	}
	return downloaded{Dir: info.Dir, GoMod: info.GoMod}, nil
}

// moduleFiles downloads path@version and reads its text files. A
// version from before modules has no go.mod in its zip; the go command
// reads it with the one the proxy serves ("module github.com/go-kit/kit"),
// and so does the review, which without it resolves no import path of
// the module's own.
func moduleFiles(ctx context.Context, path, version string) (map[string]string, error) {
	m, err := downloadModule(ctx, path, version)
	if err != nil {
		return nil, err
	}
	files, err := readTree(m.Dir)
	if err != nil {
		return nil, err
	}
	if _, ok := files["go.mod"]; !ok && m.GoMod != "" {
		b, err := os.ReadFile(m.GoMod)
		if err != nil {
			return nil, fmt.Errorf("download %s@%s: %w", path, version, err)
		}
		files["go.mod"] = string(b)
	}
	return files, nil
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

// maxNestedTries bounds the module paths addNested asks the proxy for.
const maxNestedTries = 24

// nestedImportRE finds a quoted import path in Go code or a Go code block.
var nestedImportRE = regexp.MustCompile(`"([a-z0-9][-a-zA-Z0-9_.~/]*)"`)

// addNested adds to files, the tree of module@version, the nested
// modules of the same repository at the same version that its files
// import: a module's zip leaves them out, while the repository a review
// runs on has them (go.opentelemetry.io/otel's README imports
// go.opentelemetry.io/otel/sdk/trace, whose module is otel/sdk). A nested
// module the proxy does not serve at that version is left out; download
// tells why, at debug level.
func addNested(ctx context.Context, log *slog.Logger, module, version string, files map[string]string) {
	dirs := map[string]bool{}
	for p := range files {
		if strings.HasSuffix(p, ".go") {
			dirs[path.Dir(p)] = true
		}
	}
	tried := map[string]bool{}
	var paths []string
	for p, text := range files {
		if !strings.HasSuffix(p, ".go") && !strings.HasSuffix(p, ".md") {
			continue
		}
		for _, m := range nestedImportRE.FindAllStringSubmatch(text, -1) {
			ip := m[1]
			if !strings.HasPrefix(ip, module+"/") || dirs[strings.TrimPrefix(ip, module+"/")] {
				continue
			}
			paths = append(paths, ip)
		}
	}
	slices.Sort(paths)
	for _, ip := range slices.Compact(paths) {
		if len(tried) >= maxNestedTries {
			log.Debug("nested modules: too many paths tried", "module", module, "tried", len(tried))
			return
		}
		if dirs[strings.TrimPrefix(ip, module+"/")] {
			continue // a nested module added for an earlier path
		}
		// The longest prefix that is a module at this version.
		for cand := ip; len(cand) > len(module); cand = path.Dir(cand) {
			if tried[cand] {
				continue
			}
			tried[cand] = true
			dir, err := download(ctx, cand, version)
			if err != nil {
				log.Debug("no nested module", "path", cand, "version", version, "err", err)
				continue
			}
			nested, err := readTree(dir)
			if err != nil {
				log.Debug("nested module not read", "path", cand, "err", err)
				break
			}
			rel := strings.TrimPrefix(cand, module+"/")
			for p, text := range nested {
				files[rel+"/"+p] = text
				if strings.HasSuffix(p, ".go") {
					dirs[path.Dir(rel+"/"+p)] = true
				}
			}
			break
		}
	}
}
