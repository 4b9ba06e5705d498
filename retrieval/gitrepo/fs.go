package gitrepo

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"slices"
	"time"
)

// Compile-time checks of the file system interfaces a Snapshot offers.
var (
	_ fs.ReadFileFS = (*Snapshot)(nil)
	_ fs.ReadDirFS  = (*Snapshot)(nil)
	_ fs.StatFS     = (*Snapshot)(nil)
)

// Open implements [fs.FS]. Files are read-only (mode 0444) with a zero
// modification time. Opening a file the snapshot skipped fails with an
// error that wraps [fs.ErrNotExist] and gives the reason.
func (s *Snapshot) Open(name string) (fs.File, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrInvalid}
	}
	if data, ok := s.files[name]; ok {
		return &file{entry: entry{name: path.Base(name), size: int64(len(data))}, r: bytes.NewReader(data)}, nil
	}
	if entries, ok := s.dirs[name]; ok {
		return &dir{entry: entry{name: path.Base(name), dir: true}, entries: entries}, nil
	}
	return nil, s.notExist("open", name)
}

// ReadFile implements [fs.ReadFileFS]; the caller may modify the returned
// slice.
func (s *Snapshot) ReadFile(name string) ([]byte, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "readfile", Path: name, Err: fs.ErrInvalid}
	}
	if data, ok := s.files[name]; ok {
		return slices.Clone(data), nil
	}
	if _, ok := s.dirs[name]; ok {
		return nil, &fs.PathError{Op: "readfile", Path: name, Err: fmt.Errorf("is a directory")}
	}
	return nil, s.notExist("readfile", name)
}

// ReadDir implements [fs.ReadDirFS]: the entries of a directory, sorted by
// name.
func (s *Snapshot) ReadDir(name string) ([]fs.DirEntry, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: fs.ErrInvalid}
	}
	if entries, ok := s.dirs[name]; ok {
		return slices.Clone(entries), nil
	}
	if _, ok := s.files[name]; ok {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: fmt.Errorf("not a directory")}
	}
	return nil, s.notExist("readdir", name)
}

// Stat implements [fs.StatFS].
func (s *Snapshot) Stat(name string) (fs.FileInfo, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "stat", Path: name, Err: fs.ErrInvalid}
	}
	if data, ok := s.files[name]; ok {
		return &entry{name: path.Base(name), size: int64(len(data))}, nil
	}
	if _, ok := s.dirs[name]; ok {
		return &entry{name: path.Base(name), dir: true}, nil
	}
	return nil, s.notExist("stat", name)
}

// ErrSkipped is wrapped, beside [fs.ErrNotExist], by the error for a file
// the repository has and the snapshot skipped (binary, too large, a
// symlink): the file exists, its content is not at hand. A link to an
// image points to a file that exists.
var ErrSkipped = errors.New("skipped")

// notExist is the error for a name the snapshot does not hold, with the
// reason when the file was skipped.
func (s *Snapshot) notExist(op, name string) error {
	if reason, ok := s.skipped[name]; ok {
		return &fs.PathError{Op: op, Path: name, Err: fmt.Errorf("%w (%w: %s)", fs.ErrNotExist, ErrSkipped, reason)}
	}
	return &fs.PathError{Op: op, Path: name, Err: fs.ErrNotExist}
}

// entry is both the fs.FileInfo and the fs.DirEntry of a file or directory.
type entry struct {
	name string
	size int64
	dir  bool
}

func (e *entry) Name() string { return e.name }
func (e *entry) Size() int64  { return e.size }
func (e *entry) Mode() fs.FileMode {
	if e.dir {
		return fs.ModeDir | 0o555
	}
	return 0o444
}
func (e *entry) ModTime() time.Time         { return time.Time{} }
func (e *entry) IsDir() bool                { return e.dir }
func (e *entry) Sys() any                   { return nil }
func (e *entry) Type() fs.FileMode          { return e.Mode().Type() }
func (e *entry) Info() (fs.FileInfo, error) { return e, nil }
func (e *entry) String() string             { return fs.FormatFileInfo(e) }

// file is an open regular file of a Snapshot.
type file struct {
	entry
	r *bytes.Reader
}

func (f *file) Stat() (fs.FileInfo, error)                   { return &f.entry, nil }
func (f *file) Read(p []byte) (int, error)                   { return f.r.Read(p) }
func (f *file) ReadAt(p []byte, off int64) (int, error)      { return f.r.ReadAt(p, off) }
func (f *file) Seek(offset int64, whence int) (int64, error) { return f.r.Seek(offset, whence) }
func (f *file) Close() error                                 { return nil }

// dir is an open directory of a Snapshot.
type dir struct {
	entry
	entries []fs.DirEntry
	off     int
}

func (d *dir) Stat() (fs.FileInfo, error) { return &d.entry, nil }
func (d *dir) Read([]byte) (int, error) {
	return 0, &fs.PathError{Op: "read", Path: d.name, Err: fmt.Errorf("is a directory")}
}
func (d *dir) Close() error { return nil }

// ReadDir implements [fs.ReadDirFile].
func (d *dir) ReadDir(n int) ([]fs.DirEntry, error) {
	rest := d.entries[d.off:]
	if n <= 0 {
		d.off = len(d.entries)
		return slices.Clone(rest), nil
	}
	if len(rest) == 0 {
		return nil, io.EOF
	}
	n = min(n, len(rest))
	d.off += n
	return slices.Clone(rest[:n]), nil
}
