package roundtrip

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// copyModule copies the module at root into dst, leaving out .git
// directories, the root's vendor directory, symbolic links and other
// irregular files. It fails when the regular files copied would exceed
// limit bytes.
func copyModule(root, dst string, limit int64) error {
	var total int64
	return filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return fmt.Errorf("roundtrip: copy module: %w", err)
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return fmt.Errorf("roundtrip: copy module: %w", err)
		}
		target := filepath.Join(dst, rel)
		switch {
		case d.IsDir():
			if d.Name() == ".git" || rel == "vendor" {
				return filepath.SkipDir
			}
			if err := os.MkdirAll(target, 0o755); err != nil {
				return fmt.Errorf("roundtrip: copy module: %w", err)
			}
			return nil
		case !d.Type().IsRegular():
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return fmt.Errorf("roundtrip: copy module: %w", err)
		}
		if total += info.Size(); total > limit {
			return fmt.Errorf("roundtrip: module %s is larger than the copy limit of %d bytes", root, limit)
		}
		return copyFile(path, target, info.Mode().Perm()|0o200)
	})
}

// copyFile copies src to dst with mode perm.
func copyFile(src, dst string, perm fs.FileMode) error {
	in, err := os.Open(src)
	if err != nil {
		return fmt.Errorf("roundtrip: copy module: %w", err)
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, perm)
	if err != nil {
		return fmt.Errorf("roundtrip: copy module: %w", err)
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return fmt.Errorf("roundtrip: copy module: %w", err)
	}
	if err := out.Close(); err != nil {
		return fmt.Errorf("roundtrip: copy module: %w", err)
	}
	return nil
}

// offlineEnv returns env with the go command's network and toolchain
// switches set so that nothing is downloaded: GOFLAGS=-mod=readonly,
// GOPROXY=off, GOTOOLCHAIN=local and GOWORK=off replace any values env
// has.
func offlineEnv(env []string) []string {
	set := map[string]string{"GOFLAGS": "-mod=readonly", "GOPROXY": "off", "GOTOOLCHAIN": "local", "GOWORK": "off"}
	out := make([]string, 0, len(env)+len(set))
	for _, kv := range env {
		k, _, _ := strings.Cut(kv, "=")
		if _, ok := set[k]; !ok {
			out = append(out, kv)
		}
	}
	for _, k := range []string{"GOFLAGS", "GOPROXY", "GOTOOLCHAIN", "GOWORK"} {
		out = append(out, k+"="+set[k])
	}
	return out
}

// testRun is the outcome of one `go test -json` of a package.
type testRun struct {
	// passed and failed are the top-level tests (and examples) that passed
	// and failed, in the order they finished; skipped ones are in
	// neither. A test that started but never finished (the binary died:
	// a timeout, a crash) is failed.
	passed, failed []string
	// ran is set when any test started.
	ran bool
	// output holds the failure messages of each failed top-level test
	// and its subtests (at most maxFailLines lines).
	output map[string][]string
	// buildFailed is set when the test binary did not build; buildErrors
	// then holds the compiler's messages.
	buildFailed bool
	buildErrors []string
}

// maxFailLines bounds the output lines kept per failed test;
// maxBuildErrors the build error lines kept.
const (
	maxFailLines   = 12
	maxBuildErrors = 30
)

// testEvent is one line of `go test -json` (test2json) output.
type testEvent struct {
	Action      string
	Package     string
	ImportPath  string
	Test        string
	Output      string
	FailedBuild string
}

// goTest runs `go test -json -count=1 -vet=off` on the package at rel in
// the module copy at dir with env, bounded by timeout (the test binary's
// own -timeout, and the whole command a minute later: then the process
// group is killed).
func goTest(ctx context.Context, goCmd, dir, rel string, env []string, timeout time.Duration) (testRun, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout+time.Minute)
	defer cancel()
	pkg := "./" + rel
	if rel == "." {
		pkg = "."
	}
	cmd := exec.CommandContext(ctx, goCmd, "test", "-json", "-count=1", "-vet=off", "-timeout="+timeout.String(), pkg)
	cmd.Dir = dir
	cmd.Env = env
	cmd.WaitDelay = 5 * time.Second
	setProcessGroup(cmd)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if ctx.Err() != nil {
		return testRun{}, fmt.Errorf("roundtrip: go test %s: %w after %s", pkg, ctx.Err(), timeout+time.Minute)
	}
	var exitErr *exec.ExitError
	if err != nil && !errors.As(err, &exitErr) {
		return testRun{}, fmt.Errorf("roundtrip: go test %s: %w", pkg, err)
	}
	r := parseTestJSON(stdout.Bytes())
	if err != nil && !r.buildFailed && !r.ran {
		// The go command failed before any test ran (a missing module
		// with downloads off, a bad go.mod): a build failure whose
		// errors are on stderr.
		r.buildFailed = true
	}
	if r.buildFailed {
		for _, l := range strings.Split(stderr.String(), "\n") {
			r.buildErrors = addBuildError(r.buildErrors, l)
		}
		if len(r.buildErrors) == 0 {
			r.buildErrors = []string{"go test failed without a message: " + clip(strings.TrimSpace(stdout.String()))}
		}
	}
	return r, nil
}

// addBuildError appends one line of build output unless it is empty, a
// "# package" header, a "FAIL" summary, or the list is full; an indented
// line continues the previous message ("have (int)") and is joined to it
// with "; ".
func addBuildError(list []string, raw string) []string {
	line := strings.TrimSpace(raw)
	if line != "" && len(list) > 0 && (raw[0] == '\t' || raw[0] == ' ') {
		list[len(list)-1] += "; " + line
		return list
	}
	if line == "" || strings.HasPrefix(line, "#") || strings.HasPrefix(line, "FAIL") || len(list) >= maxBuildErrors || slices.Contains(list, line) {
		return list
	}
	return append(list, line)
}

// parseTestJSON reads test2json events; lines that are not JSON events
// are ignored.
func parseTestJSON(data []byte) testRun {
	r := testRun{output: map[string][]string{}}
	var running, skipped []string
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 64*1024), 16*1024*1024)
	for sc.Scan() {
		var e testEvent
		if json.Unmarshal(sc.Bytes(), &e) != nil {
			continue
		}
		top, _, _ := strings.Cut(e.Test, "/")
		switch {
		case e.Action == "build-output":
			r.buildErrors = addBuildError(r.buildErrors, e.Output)
		case e.Action == "build-fail":
			r.buildFailed = true
		case e.Test == "" && e.Action == "fail" && e.FailedBuild != "":
			r.buildFailed = true
		case e.Test == "":
		case e.Action == "output":
			l := strings.TrimSpace(e.Output)
			if l == "" || strings.HasPrefix(l, "=== ") || strings.HasPrefix(l, "--- ") {
				continue
			}
			if len(r.output[top]) < maxFailLines {
				r.output[top] = append(r.output[top], l)
			}
		case e.Action == "skip" && e.Test == top:
			skipped = append(skipped, top)
		case e.Action == "run" && e.Test == top:
			r.ran = true
			running = append(running, top)
		case e.Action == "pass" && e.Test == top:
			r.passed = append(r.passed, top)
		case e.Action == "fail" && e.Test == top:
			r.failed = append(r.failed, top)
		}
	}
	for _, name := range running {
		if !slices.Contains(r.passed, name) && !slices.Contains(r.failed, name) && !slices.Contains(skipped, name) {
			r.failed = append(r.failed, name)
		}
	}
	for name := range r.output {
		if !slices.Contains(r.failed, name) {
			delete(r.output, name)
		}
	}
	if !r.buildFailed {
		r.buildErrors = nil
	}
	return r
}
