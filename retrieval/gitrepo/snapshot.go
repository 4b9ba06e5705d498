package gitrepo

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// DefaultMaxFileSize is the size limit of [SnapshotOptions.MaxFileSize]
// when it is zero: 1 MiB.
const DefaultMaxFileSize = 1 << 20

// sniffLen is how much of a file git inspects for a NUL byte to call it
// binary; docreview uses the same heuristic.
const sniffLen = 8000

// The reasons a [Skip] gives; a file over the size limit gives
// "larger than LIMIT bytes (SIZE)".
const (
	// ReasonBinary is a file with a NUL byte in its first 8000 bytes.
	ReasonBinary = "binary file"
	// ReasonSymlink is a symbolic link (mode 120000); links are not
	// followed.
	ReasonSymlink = "symlink"
	// ReasonSubmodule is a submodule (a gitlink, mode 160000).
	ReasonSubmodule = "submodule"
	// ReasonNested is an untracked directory of the working tree that is
	// a git repository of its own.
	ReasonNested = "nested git repository"
	// ReasonNotRegular is a device, socket or pipe in the working tree.
	ReasonNotRegular = "not a regular file"
	// ReasonMissing is a blob the commit's tree lists but the repository
	// does not have: a partial clone, or a damaged or trimmed object store.
	ReasonMissing = "object missing from the repository"
	// ReasonInvalidUTF8 is the [Snapshot.Notes] entry of a file that was
	// kept after its invalid bytes were decoded as Latin-1.
	ReasonInvalidUTF8 = "not valid UTF-8; invalid bytes decoded as Latin-1"
)

// SnapshotOptions selects the files of a [Snapshot]. The zero value keeps
// every text file up to [DefaultMaxFileSize].
type SnapshotOptions struct {
	// MaxFileSize is the largest file, in bytes, that is read; larger
	// files are skipped. Zero means [DefaultMaxFileSize]; negative is an
	// error.
	MaxFileSize int64
	// Include lists [Match] patterns; when non-empty, only files that
	// match one of them are considered. Empty means every file.
	Include []string
	// Exclude lists [Match] patterns of files left out; it wins over
	// Include. Files under .git are always left out.
	Exclude []string
}

// Skip is a file a [Snapshot] left out, or kept with a remark, and why.
type Skip struct {
	// Path is slash-separated and relative to the repository root.
	Path string
	// Reason is one of the Reason constants or "larger than LIMIT bytes
	// (SIZE)".
	Reason string
}

// Snapshot holds the text files of a repository at one commit, or of its
// working tree, in memory. It implements [fs.FS], [fs.ReadFileFS],
// [fs.ReadDirFS] and [fs.StatFS] with slash-separated paths relative to the
// repository root; only the files [Snapshot.Files] lists exist in it, with
// the directories that contain them. Files that are not valid UTF-8 hold
// their content with invalid bytes decoded as Latin-1, so every line keeps
// its number. A Snapshot is immutable and safe for concurrent use.
type Snapshot struct {
	rev     string
	files   map[string][]byte
	names   []string
	dirs    map[string][]fs.DirEntry
	skipped map[string]string
	skips   []Skip
	notes   []Skip
}

// Rev returns the commit SHA the snapshot was read at, or "worktree".
func (s *Snapshot) Rev() string { return s.rev }

// Files returns the sorted paths of the text files the snapshot holds. The
// caller may modify the slice.
func (s *Snapshot) Files() []string { return slices.Clone(s.names) }

// Skipped returns the files selected by the options' globs that the
// snapshot left out (binary, too large, symlinks, submodules), sorted by
// path. Files the globs exclude are not listed.
func (s *Snapshot) Skipped() []Skip { return slices.Clone(s.skips) }

// Notes returns the files the snapshot kept with a remark (not valid UTF-8),
// sorted by path.
func (s *Snapshot) Notes() []Skip { return slices.Clone(s.notes) }

// Snapshot reads the text files of the repository at rev, or of the working
// tree when rev is "".
//
// At a commit, files come from `git ls-tree -r -z --long` and one
// `git cat-file --batch` process that streams the wanted blobs; blobs over
// the size limit are never requested. In the working tree, the files are
// the tracked and the untracked, non-ignored ones (`git ls-files --cached
// --others --exclude-standard`) as they are on disk; a tracked file deleted
// from disk is absent, and sizes are checked before reading.
//
// Files with a NUL byte in their first 8000 bytes (git's heuristic) are
// skipped as binary; symlinks, submodules and files over the size limit
// (opt.MaxFileSize, or [DefaultMaxFileSize] when it is 0) are skipped; see
// [Snapshot.Skipped]. The error wraps [ErrUnknownRevision]
// when rev names no commit, and [path.ErrBadPattern] for a malformed glob.
func (r *Repo) Snapshot(ctx context.Context, rev string, opt SnapshotOptions) (*Snapshot, error) {
	if opt.MaxFileSize < 0 {
		return nil, fmt.Errorf("snapshot: negative MaxFileSize %d", opt.MaxFileSize)
	}
	if opt.MaxFileSize == 0 {
		opt.MaxFileSize = DefaultMaxFileSize
	}
	f, err := newFilter(opt.Include, opt.Exclude)
	if err != nil {
		return nil, fmt.Errorf("snapshot: %w", err)
	}
	b := &builder{max: opt.MaxFileSize, files: map[string][]byte{}, skipped: map[string]string{}}
	if rev == "" {
		if err := r.readWorktree(ctx, f, b); err != nil {
			return nil, fmt.Errorf("snapshot of the working tree: %w", err)
		}
		return b.snapshot("worktree"), nil
	}
	sha, err := r.Resolve(ctx, rev)
	if err != nil {
		return nil, err
	}
	if err := r.readCommit(ctx, sha, f, b); err != nil {
		return nil, fmt.Errorf("snapshot of %s: %w", rev, err)
	}
	return b.snapshot(sha), nil
}

// builder collects the files of a snapshot being read.
type builder struct {
	max     int64
	files   map[string][]byte
	skipped map[string]string
	notes   []Skip
}

func (b *builder) skip(name, reason string) { b.skipped[name] = reason }

func (b *builder) tooLarge(name string, size int64) {
	b.skip(name, fmt.Sprintf("larger than %d bytes (%d)", b.max, size))
}

// add classifies a file's content: binary files are skipped, invalid UTF-8
// is decoded as Latin-1 with a note, and the rest is kept as is.
func (b *builder) add(name string, data []byte) {
	if bytes.IndexByte(data[:min(len(data), sniffLen)], 0) >= 0 {
		b.skip(name, ReasonBinary)
		return
	}
	if !utf8.Valid(data) {
		data = latin1Fallback(data)
		b.notes = append(b.notes, Skip{Path: name, Reason: ReasonInvalidUTF8})
	}
	b.files[name] = data
}

// latin1Fallback returns data with each byte that is not part of a valid
// UTF-8 sequence decoded as the Latin-1 character of the same value. Valid
// sequences and newlines are unchanged, so line numbers are preserved.
func latin1Fallback(data []byte) []byte {
	out := make([]byte, 0, len(data)+len(data)/8)
	for len(data) > 0 {
		r, n := utf8.DecodeRune(data)
		if r == utf8.RuneError && n == 1 {
			out = utf8.AppendRune(out, rune(data[0]))
		} else {
			out = append(out, data[:n]...)
		}
		data = data[n:]
	}
	return out
}

// snapshot freezes the builder into a Snapshot with its directory tree.
func (b *builder) snapshot(rev string) *Snapshot {
	s := &Snapshot{rev: rev, files: b.files, skipped: b.skipped, dirs: map[string][]fs.DirEntry{".": nil}}
	for name := range b.files {
		s.names = append(s.names, name)
	}
	slices.Sort(s.names)
	for _, name := range s.names {
		child := &entry{name: path.Base(name), size: int64(len(b.files[name]))}
		for {
			dir := path.Dir(name)
			_, seen := s.dirs[dir]
			s.dirs[dir] = append(s.dirs[dir], child)
			if seen || dir == "." {
				break
			}
			name, child = dir, &entry{name: path.Base(dir), dir: true}
		}
	}
	for _, entries := range s.dirs {
		slices.SortFunc(entries, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	}
	for name, reason := range b.skipped {
		s.skips = append(s.skips, Skip{Path: name, Reason: reason})
	}
	bySkip := func(a, b Skip) int {
		return cmp.Or(strings.Compare(a.Path, b.Path), strings.Compare(a.Reason, b.Reason))
	}
	slices.SortFunc(s.skips, bySkip)
	s.notes = slices.Clone(b.notes)
	slices.SortFunc(s.notes, bySkip)
	return s
}

// readWorktree reads the tracked and untracked, non-ignored files of the
// working tree.
func (r *Repo) readWorktree(ctx context.Context, f *filter, b *builder) error {
	out, err := r.git(ctx, nil, nil, "ls-files", "-z", "--cached", "--others", "--exclude-standard")
	if err != nil {
		return err
	}
	seen := map[string]bool{}
	for name := range strings.SplitSeq(string(out), "\x00") {
		if name == "" || seen[name] {
			continue
		}
		seen[name] = true
		if err := ctx.Err(); err != nil {
			return err
		}
		if dir, ok := strings.CutSuffix(name, "/"); ok {
			// ls-files --others lists an untracked repository as "dir/".
			if f.keep(dir) {
				b.skip(dir, ReasonNested)
			}
			continue
		}
		if !f.keep(name) {
			continue
		}
		if err := r.readWorktreeFile(name, b); err != nil {
			return err
		}
	}
	return nil
}

// readWorktreeFile classifies and reads one file of the working tree,
// checking its type and size before reading it.
func (r *Repo) readWorktreeFile(name string, b *builder) error {
	full := filepath.Join(r.Dir, filepath.FromSlash(name))
	fi, err := os.Lstat(full)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil // tracked but deleted from the working tree
	case err != nil:
		return err
	case fi.Mode()&fs.ModeSymlink != 0:
		b.skip(name, ReasonSymlink)
		return nil
	case fi.IsDir():
		b.skip(name, ReasonSubmodule)
		return nil
	case !fi.Mode().IsRegular():
		b.skip(name, ReasonNotRegular)
		return nil
	case fi.Size() > b.max:
		b.tooLarge(name, fi.Size())
		return nil
	}
	fh, err := os.Open(full)
	if err != nil {
		return err
	}
	defer fh.Close()
	data, err := io.ReadAll(io.LimitReader(fh, b.max+1))
	if err != nil {
		return fmt.Errorf("read %s: %w", name, err)
	}
	if int64(len(data)) > b.max {
		// It grew since Lstat.
		b.tooLarge(name, int64(len(data)))
		return nil
	}
	b.add(name, data)
	return nil
}

// readCommit reads the files of commit sha: the tree listing first, then
// the wanted blobs, each distinct blob once, through one cat-file process.
func (r *Repo) readCommit(ctx context.Context, sha string, f *filter, b *builder) error {
	out, err := r.git(ctx, nil, nil, "ls-tree", "-r", "-z", "--long", "--full-tree", sha)
	if err != nil {
		return err
	}
	want := map[string][]string{} // blob SHA -> paths
	for rec := range strings.SplitSeq(string(out), "\x00") {
		if rec == "" {
			continue
		}
		// "<mode> SP <type> SP <object> SP+ <size> TAB <path>"
		meta, name, ok := strings.Cut(rec, "\t")
		fields := strings.Fields(meta)
		if !ok || len(fields) != 4 {
			return fmt.Errorf("unexpected ls-tree record %q", rec)
		}
		if !f.keep(name) {
			continue
		}
		mode, typ, obj := fields[0], fields[1], fields[2]
		switch {
		case mode == "160000" || typ == "commit":
			b.skip(name, ReasonSubmodule)
			continue
		case mode == "120000":
			b.skip(name, ReasonSymlink)
			continue
		case typ != "blob":
			continue
		}
		if fields[3] == "BAD" {
			// git prints BAD for the size of an object it does not
			// have; the rest of the commit is still readable.
			b.skip(name, ReasonMissing)
			continue
		}
		size, err := strconv.ParseInt(fields[3], 10, 64)
		if err != nil {
			return fmt.Errorf("unexpected size in ls-tree record %q", rec)
		}
		if size > b.max {
			b.tooLarge(name, size)
			continue
		}
		want[obj] = append(want[obj], name)
	}
	if len(want) == 0 {
		return nil
	}
	objs := make([]string, 0, len(want))
	for obj := range want {
		objs = append(objs, obj)
	}
	slices.Sort(objs)
	return r.catBlobs(ctx, objs, func(obj string, data []byte) {
		for _, name := range want[obj] {
			b.add(name, data)
		}
	}, func(obj string) {
		for _, name := range want[obj] {
			b.skip(name, ReasonMissing)
		}
	})
}

// catBlobs streams the blobs objs through one `git cat-file --batch`
// process, calling fn with each blob's content in order, and missing with
// each object the repository does not have.
func (r *Repo) catBlobs(ctx context.Context, objs []string, fn func(obj string, data []byte), missing func(obj string)) error {
	cctx, cancel := context.WithCancel(ctx)
	defer cancel()
	cmd := r.command(cctx, nil, "cat-file", "--batch", "--buffer")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("git cat-file: %w", err)
	}
	written := make(chan error, 1)
	go func() {
		w := bufio.NewWriter(stdin)
		for _, obj := range objs {
			if _, err := w.WriteString(obj + "\n"); err != nil {
				stdin.Close()
				written <- err
				return
			}
		}
		err := w.Flush()
		if cerr := stdin.Close(); err == nil {
			err = cerr
		}
		written <- err
	}()

	readErr := readBatch(bufio.NewReaderSize(stdout, 64<<10), objs, fn, missing)
	if readErr != nil {
		cancel() // stop git, which unblocks the writer
	}
	writeErr := <-written
	waitErr := cmd.Wait()
	switch {
	case ctx.Err() != nil:
		return fmt.Errorf("git cat-file: %w", ctx.Err())
	case readErr != nil && stderr.Len() > 0:
		return fmt.Errorf("git cat-file: %w (%s)", readErr, strings.TrimSpace(stderr.String()))
	case readErr != nil:
		return fmt.Errorf("git cat-file: %w", readErr)
	case writeErr != nil:
		return fmt.Errorf("git cat-file: write request: %w", writeErr)
	case waitErr != nil:
		return fmt.Errorf("git cat-file: %w: %s", waitErr, strings.TrimSpace(stderr.String()))
	}
	return nil
}

// readBatch reads cat-file --batch responses for objs, in order:
// "<sha> <type> <size>\n<content>\n", or "<obj> missing\n", which calls
// missing.
func readBatch(br *bufio.Reader, objs []string, fn func(obj string, data []byte), missing func(obj string)) error {
	for _, obj := range objs {
		hdr, err := br.ReadString('\n')
		if err != nil {
			return fmt.Errorf("read header of %s: %w", obj, err)
		}
		fields := strings.Fields(hdr)
		if len(fields) == 2 && fields[0] == obj && fields[1] == "missing" {
			missing(obj)
			continue
		}
		if len(fields) != 3 || fields[0] != obj || fields[1] != "blob" {
			return fmt.Errorf("unexpected response %q for blob %s", strings.TrimSpace(hdr), obj)
		}
		size, err := strconv.ParseInt(fields[2], 10, 64)
		if err != nil || size < 0 {
			return fmt.Errorf("unexpected response %q for blob %s", strings.TrimSpace(hdr), obj)
		}
		data := make([]byte, size+1)
		if _, err := io.ReadFull(br, data); err != nil {
			return fmt.Errorf("read blob %s: %w", obj, err)
		}
		if data[size] != '\n' {
			return fmt.Errorf("blob %s: no newline after %d bytes", obj, size)
		}
		fn(obj, data[:size:size])
	}
	return nil
}
