package retrieval

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"golang.org/x/mod/modfile"
	"golang.org/x/mod/module"
)

// UpstreamOptions configures [UpstreamChunks]. The zero value reads only
// what the local module cache already holds, finding the cache with
// `go env GOMODCACHE`.
type UpstreamOptions struct {
	// Download runs `go mod download -json MODULE@VERSION` (in a temporary
	// directory, with GOFLAGS=-mod=mod and GOWORK=off) for modules missing
	// from the module cache; that needs the module proxy or the network.
	// When false, the go command is never asked to download and missing
	// modules are skipped with a reason.
	Download bool
	// GoCommand is the go command to run; "" means "go" from PATH.
	GoCommand string
	// ModCache is the module cache directory; "" means the output of
	// `go env GOMODCACHE`. With Download, the go command is pointed at it
	// through GOMODCACHE.
	ModCache string
	// MaxFileBytes bounds the files read; larger ones are skipped. Zero
	// means 1 MiB.
	MaxFileBytes int64
	// MaxChunksPerModule bounds the chunks made from one module; the rest
	// of the module is dropped with a logged note. Zero means 20,000.
	MaxChunksPerModule int
	// Logger receives skipped modules, files and packages; nil discards
	// them.
	Logger *slog.Logger
}

// UpstreamModule is one direct requirement of the go.mod that
// [UpstreamChunks] read, or skipped.
type UpstreamModule struct {
	// Path and Version are the requirement as go.mod states it.
	Path, Version string
	// Replace is the replacement a replace directive of go.mod substitutes
	// for Path@Version: "path@version" for a module, or the directory of a
	// local-path replacement (which is skipped). Empty when none applies.
	Replace string
	// Dir is the directory the module was read from; empty when skipped.
	Dir string
	// Chunks is the number of chunks made from the module.
	Chunks int
	// Truncated reports that the module had more chunks than
	// MaxChunksPerModule and the rest were dropped.
	Truncated bool
	// Skipped says why the module was not read; empty when it was.
	Skipped string
}

// upstreamPathPrefix starts every upstream chunk path, so that no upstream
// path collides with a repository path.
const upstreamPathPrefix = "@upstream/"

// Upstream defaults.
const (
	upstreamDefaultMaxFileBytes = 1 << 20
	upstreamDefaultMaxChunks    = 20000
	// upstreamMaxText bounds the text of one chunk; longer text (a var
	// with a huge literal, a type with hundreds of methods) is cut.
	upstreamMaxText = 16 << 10
)

// Upstream log attribute keys.
const (
	upstreamLogModule   = "module"
	upstreamLogReason   = "reason"
	upstreamLogPath     = "path"
	upstreamLogChunks   = "chunks"
	upstreamLogModules  = "modules"
	upstreamLogDuration = "duration"
)

// UpstreamChunks returns chunks of the Go API of the direct dependencies
// that the go.mod at the root of fsys requires, read at the exact versions
// it requires, and one [UpstreamModule] per direct requirement in go.mod
// order, saying what was read or why it was skipped.
//
// Requirements marked "// indirect" are ignored. A replace directive that
// applies to a requirement (all versions, or the required one) substitutes
// its module version; a replacement by a local directory is skipped. Each
// module is looked up in the module cache (opt.ModCache, escaped as the go
// command does) and, when missing, downloaded if opt.Download is set, else
// skipped. A module that cannot be found or downloaded is skipped, not an
// error, and so is a requirement replaced by a module version already read
// for an earlier one, so that no two chunks have the same ID.
//
// Within a module, every package except main packages and those under
// internal, testdata, vendor or a directory starting with "_" or "." is
// parsed from its non-test files that build on this machine's GOOS and
// GOARCH (cgo enabled). Each package gives a chunk for its package doc (if
// any) and one per exported declaration: func, method of an exported type,
// type, and const or var block. A chunk's Text is the doc comment and the
// declaration's signature only: no function bodies, no unexported struct
// fields or interface methods, func literal values reduced to their type;
// a type's Text ends with the signatures of its exported methods. Path is
// "@upstream/MODULE@VERSION/DIR/FILE.go" for the module version read,
// StartLine..EndLine the lines of that file the doc comment and signature
// span, ID "Path#StartLine", Source [SourceUpstream], Lang "go", Heading
// "MODULE@VERSION", and Symbol "pkg.Name", "pkg.Type.Method", or
// "package IMPORT/PATH" for the package doc.
//
// A go.mod missing from fsys gives no chunks and no error. UpstreamChunks
// returns an error for a go.mod that does not parse, when the module cache
// cannot be found, or when ctx is done.
func UpstreamChunks(ctx context.Context, fsys fs.FS, opt UpstreamOptions) ([]Chunk, []UpstreamModule, error) {
	log := opt.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if opt.GoCommand == "" {
		opt.GoCommand = "go"
	}
	if opt.MaxFileBytes <= 0 {
		opt.MaxFileBytes = upstreamDefaultMaxFileBytes
	}
	if opt.MaxChunksPerModule <= 0 {
		opt.MaxChunksPerModule = upstreamDefaultMaxChunks
	}
	start := time.Now()

	data, err := fs.ReadFile(fsys, "go.mod")
	if errors.Is(err, fs.ErrNotExist) {
		log.Info("upstream: no go.mod, no dependencies read")
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, fmt.Errorf("read go.mod: %w", err)
	}
	mods, targets, err := upstreamRequirements(data)
	if err != nil {
		return nil, nil, err
	}
	if len(mods) == 0 {
		return nil, mods, nil
	}

	modcache := opt.ModCache
	if modcache == "" {
		modcache, err = upstreamGoEnv(ctx, opt.GoCommand, "GOMODCACHE")
		if err != nil {
			return nil, nil, fmt.Errorf("locate module cache: %w", err)
		}
		if modcache == "" {
			return nil, nil, fmt.Errorf("locate module cache: %s env GOMODCACHE printed nothing", opt.GoCommand)
		}
	}

	var chunks []Chunk
	// readFor maps each module version read to the requirement it was
	// read for: two requirements replaced by one module version give its
	// chunks once.
	readFor := make(map[module.Version]string, len(mods))
	for i := range mods {
		if err := ctx.Err(); err != nil {
			return nil, nil, fmt.Errorf("read upstream modules: %w", err)
		}
		m, t := &mods[i], targets[i]
		if prev, ok := readFor[t]; ok && m.Skipped == "" {
			m.Skipped = fmt.Sprintf("%s is already read for %s", t, prev)
		}
		if m.Skipped == "" {
			m.Dir, m.Skipped = upstreamLocate(ctx, opt, modcache, t)
		}
		if err := ctx.Err(); err != nil {
			return nil, nil, fmt.Errorf("read upstream modules: %w", err)
		}
		if m.Skipped != "" {
			log.Info("upstream module skipped", upstreamLogModule, m.Path+"@"+m.Version, upstreamLogReason, m.Skipped)
			continue
		}
		u := upstreamModule{
			importPath: m.Path, target: t, dir: m.Dir,
			maxFile: opt.MaxFileBytes, maxChunks: opt.MaxChunksPerModule, log: log,
		}
		cs, truncated, err := u.chunks(ctx)
		if err != nil {
			return nil, nil, err
		}
		readFor[t] = m.Path
		m.Chunks, m.Truncated = len(cs), truncated
		if truncated {
			log.Warn("upstream module truncated", upstreamLogModule, t.String(), upstreamLogChunks, len(cs))
		}
		log.Debug("upstream module read", upstreamLogModule, t.String(), upstreamLogChunks, len(cs))
		chunks = append(chunks, cs...)
	}
	log.Info("upstream read", upstreamLogModules, len(mods), upstreamLogChunks, len(chunks),
		upstreamLogDuration, time.Since(start).Round(time.Millisecond))
	return chunks, mods, nil
}

// upstreamRequirements parses go.mod and returns its direct requirements,
// in order, each with the module version to read (the requirement or its
// replacement). A requirement replaced by a local directory, or with an
// invalid path or version, comes back already Skipped.
func upstreamRequirements(data []byte) ([]UpstreamModule, []module.Version, error) {
	mf, err := modfile.Parse("go.mod", data, nil)
	if err != nil {
		return nil, nil, fmt.Errorf("parse go.mod: %w", err)
	}
	var (
		mods    []UpstreamModule
		targets []module.Version
	)
	for _, r := range mf.Require {
		if r.Indirect {
			continue
		}
		m := UpstreamModule{Path: r.Mod.Path, Version: r.Mod.Version}
		t := r.Mod
		// As the go command does, a replacement of this exact version wins
		// over one of all versions.
		var rep *modfile.Replace
		for _, x := range mf.Replace {
			if x.Old.Path != r.Mod.Path {
				continue
			}
			if x.Old.Version == r.Mod.Version {
				rep = x
				break
			}
			if x.Old.Version == "" {
				rep = x
			}
		}
		if rep != nil {
			if rep.New.Version == "" {
				m.Replace = rep.New.Path
				m.Skipped = "replaced by local directory " + rep.New.Path
			} else {
				t = rep.New
				m.Replace = t.String()
			}
		}
		if m.Skipped == "" {
			if err := module.Check(t.Path, t.Version); err != nil {
				m.Skipped = "invalid module version: " + err.Error()
			}
		}
		mods = append(mods, m)
		targets = append(targets, t)
	}
	return mods, targets, nil
}

// upstreamLocate returns the directory of module version t in the module
// cache, downloading it first if it is missing and opt.Download is set, or
// the reason it is skipped.
func upstreamLocate(ctx context.Context, opt UpstreamOptions, modcache string, t module.Version) (dir, skipped string) {
	ep, err := module.EscapePath(t.Path)
	if err != nil {
		return "", "invalid module path: " + err.Error()
	}
	ev, err := module.EscapeVersion(t.Version)
	if err != nil {
		return "", "invalid module version: " + err.Error()
	}
	dir = filepath.Join(modcache, filepath.FromSlash(ep)+"@"+ev)
	if fi, err := os.Stat(dir); err == nil && fi.IsDir() {
		return dir, ""
	}
	if !opt.Download {
		return "", fmt.Sprintf("not in module cache (%s) and downloads are disabled", dir)
	}
	dir, err = upstreamDownload(ctx, opt.GoCommand, modcache, t)
	if err != nil {
		return "", err.Error()
	}
	return dir, ""
}

// upstreamDownload runs `go mod download -json` for t in a temporary
// directory, so that no go.mod, go.work or -mod=vendor of the caller gets
// in the way, and returns the module's directory.
func upstreamDownload(ctx context.Context, goCmd, modcache string, t module.Version) (string, error) {
	tmp, err := os.MkdirTemp("", "docreview-upstream-")
	if err != nil {
		return "", fmt.Errorf("download %s: %w", t, err)
	}
	defer os.RemoveAll(tmp)

	cmd := exec.CommandContext(ctx, goCmd, "mod", "download", "-json", t.String())
	cmd.Dir = tmp
	cmd.Env = append(cmd.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off", "GOMODCACHE="+modcache)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	runErr := cmd.Run()
	if err := ctx.Err(); err != nil {
		return "", fmt.Errorf("download %s: %w", t, err)
	}
	var out struct{ Dir, Error string }
	if jerr := json.Unmarshal(stdout.Bytes(), &out); jerr == nil {
		if out.Error != "" {
			return "", fmt.Errorf("download %s: %s", t, out.Error)
		}
		if runErr == nil && out.Dir != "" {
			if fi, err := os.Stat(out.Dir); err != nil || !fi.IsDir() {
				return "", fmt.Errorf("download %s: %s reported directory %s, which is missing", t, goCmd, out.Dir)
			}
			return out.Dir, nil
		}
	}
	msg := strings.TrimSpace(stderr.String())
	if runErr != nil {
		if msg != "" {
			return "", fmt.Errorf("download %s: %w: %s", t, runErr, msg)
		}
		return "", fmt.Errorf("download %s: %w", t, runErr)
	}
	return "", fmt.Errorf("download %s: unexpected output from %s mod download: %q", t, goCmd, upstreamClip(stdout.String(), 200))
}

// upstreamGoEnv returns the value of one go env variable.
func upstreamGoEnv(ctx context.Context, goCmd, name string) (string, error) {
	cmd := exec.CommandContext(ctx, goCmd, "env", name)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		if msg := strings.TrimSpace(stderr.String()); msg != "" {
			return "", fmt.Errorf("%s env %s: %w: %s", goCmd, name, err, msg)
		}
		return "", fmt.Errorf("%s env %s: %w", goCmd, name, err)
	}
	return strings.TrimSpace(string(out)), nil
}

// upstreamClip returns s cut to at most n bytes.
func upstreamClip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return strings.ToValidUTF8(s[:n], "") + "..."
}
