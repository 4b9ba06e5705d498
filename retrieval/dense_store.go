package retrieval

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
)

// The vector file, little-endian throughout:
//
//	magic    [8]byte  "DRVECTOR"
//	version  uint32   denseFormatVersion
//	dim      uint32   vector dimension, 1..denseMaxDim
//	count    uint64   number of records
//	modelLen uint32   length of model, at most denseMaxModel
//	model    [modelLen]byte
//	count records of
//	  hash   [32]byte     SHA-256 of the chunk text
//	  vector [dim]float32 normalised
//	crc      uint32   CRC-32C (Castagnoli) of everything before it
const (
	denseMagic         = "DRVECTOR"
	denseFormatVersion = 1
	denseHeaderFixed   = 8 + 4 + 4 + 8 + 4
	denseMaxDim        = 1 << 16
	denseMaxModel      = 1024
	denseIOBuffer      = 1 << 20
)

// denseCRC is the CRC-32C table of the vector file's checksum.
var denseCRC = crc32.MakeTable(crc32.Castagnoli)

// errDenseNoFile reports that there is no vector file yet.
var errDenseNoFile = errors.New("no vector file")

// denseLoadStats counts what denseLoad found.
type denseLoadStats struct {
	reused  int // records whose hash is among the chunks
	dropped int // records of texts no longer among the chunks
}

// denseLoad fills rows from the vector file at path, which must hold
// vectors of model and, if want is positive, of dimension want. It returns
// errDenseNoFile if there is no file, and an error saying what is wrong if
// the file is unreadable, corrupt or mismatching; the caller then resets
// rows, which may be partly filled.
func denseLoad(path, model string, want int, rows *denseRows) (st denseLoadStats, err error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return st, errDenseNoFile
	}
	if err != nil {
		return st, err
	}
	defer func() { _ = f.Close() }()
	info, err := f.Stat()
	if err != nil {
		return st, err
	}
	crc := crc32.New(denseCRC)
	br := bufio.NewReaderSize(f, denseIOBuffer)
	r := io.TeeReader(br, crc)

	var hdr [denseHeaderFixed]byte
	if _, err := io.ReadFull(r, hdr[:]); err != nil {
		return st, fmt.Errorf("truncated header: %w", err)
	}
	le := binary.LittleEndian
	version, dim, count, modelLen := le.Uint32(hdr[8:]), le.Uint32(hdr[12:]), le.Uint64(hdr[16:]), le.Uint32(hdr[24:])
	switch {
	case string(hdr[:8]) != denseMagic:
		return st, errors.New("not a docreview vector file (bad magic)")
	case version != denseFormatVersion:
		return st, fmt.Errorf("format version %d, want %d", version, denseFormatVersion)
	case dim == 0 || dim > denseMaxDim:
		return st, fmt.Errorf("invalid dimension %d", dim)
	case modelLen > denseMaxModel:
		return st, fmt.Errorf("invalid model name length %d", modelLen)
	}
	name := make([]byte, modelLen)
	if _, err := io.ReadFull(r, name); err != nil {
		return st, fmt.Errorf("truncated header: %w", err)
	}
	if string(name) != model {
		return st, fmt.Errorf("vectors of model %q, want %q", name, model)
	}
	if want > 0 && int(dim) != want {
		return st, fmt.Errorf("vectors of dimension %d, want %d", dim, want)
	}
	recSize := uint64(sha256.Size + 4*dim)
	head := uint64(denseHeaderFixed) + uint64(modelLen)
	size := uint64(info.Size())
	if size < head+4 || (size-head-4)/recSize < count || head+count*recSize+4 != size {
		return st, fmt.Errorf("size %d bytes does not match %d vectors of dimension %d", size, count, dim)
	}

	rows.alloc(int(dim))
	rec := make([]byte, recSize)
	var h [sha256.Size]byte
	for range count {
		if _, err := io.ReadFull(r, rec); err != nil {
			return st, fmt.Errorf("truncated records: %w", err)
		}
		copy(h[:], rec)
		i, ok := rows.first[h]
		if !ok || rows.have[i] {
			st.dropped++
			continue
		}
		dst := rows.vecs[int(i)*rows.dim : (int(i)+1)*rows.dim]
		src := rec[sha256.Size:]
		for j := range dst {
			dst[j] = math.Float32frombits(le.Uint32(src[4*j:]))
		}
		rows.fill(int(i))
		st.reused++
	}
	sum := crc.Sum32()
	var tail [4]byte
	if _, err := io.ReadFull(br, tail[:]); err != nil {
		return st, fmt.Errorf("truncated checksum: %w", err)
	}
	if le.Uint32(tail[:]) != sum {
		return st, errors.New("checksum mismatch")
	}
	return st, nil
}

// denseSave writes the vectors of rows (one record per distinct text
// with a vector, in row order) to path through a temporary file in the
// same directory renamed into place, creating the directory if needed.
func denseSave(path, model string, rows *denseRows) (err error) {
	if len(model) > denseMaxModel {
		return fmt.Errorf("save vectors %s: model name longer than %d bytes", path, denseMaxModel)
	}
	var keep []int
	for i := range rows.hash {
		if rows.have[i] && rows.first[rows.hash[i]] == int32(i) {
			keep = append(keep, i)
		}
	}
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("save vectors %s: %w", path, err)
	}
	f, err := os.CreateTemp(dir, ".vectors-*.tmp")
	if err != nil {
		return fmt.Errorf("save vectors %s: %w", path, err)
	}
	tmp := f.Name()
	defer func() {
		if err != nil {
			_ = f.Close()
			_ = os.Remove(tmp)
		}
	}()

	crc := crc32.New(denseCRC)
	w := bufio.NewWriterSize(io.MultiWriter(f, crc), denseIOBuffer)
	le := binary.LittleEndian
	var hdr bytes.Buffer
	hdr.WriteString(denseMagic)
	hdr.Write(le.AppendUint32(nil, denseFormatVersion))
	hdr.Write(le.AppendUint32(nil, uint32(rows.dim)))
	hdr.Write(le.AppendUint64(nil, uint64(len(keep))))
	hdr.Write(le.AppendUint32(nil, uint32(len(model))))
	hdr.WriteString(model)
	if _, err := w.Write(hdr.Bytes()); err != nil {
		return fmt.Errorf("save vectors %s: %w", path, err)
	}
	rec := make([]byte, sha256.Size+4*rows.dim)
	for _, i := range keep {
		copy(rec, rows.hash[i][:])
		v := rows.vecs[i*rows.dim : (i+1)*rows.dim]
		b := rec[sha256.Size:]
		for j, x := range v {
			le.PutUint32(b[4*j:], math.Float32bits(x))
		}
		if _, err := w.Write(rec); err != nil {
			return fmt.Errorf("save vectors %s: %w", path, err)
		}
	}
	if err := w.Flush(); err != nil {
		return fmt.Errorf("save vectors %s: %w", path, err)
	}
	if _, err := f.Write(le.AppendUint32(nil, crc.Sum32())); err != nil {
		return fmt.Errorf("save vectors %s: %w", path, err)
	}
	if err := f.Sync(); err != nil {
		return fmt.Errorf("save vectors %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("save vectors %s: %w", path, err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("save vectors %s: %w", path, err)
	}
	return nil
}
