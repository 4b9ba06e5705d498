package retrieval

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
)

// TreeHash fingerprints a set of files by their paths and contents: the
// first 16 hex digits of SHA-256 over each path followed by its bytes, in
// the order given. It names an index of a working tree, which has no
// commit SHA; review and the index command use it alike so they share the
// index.
func TreeHash(fsys fs.FS, files []string) (string, error) {
	h := sha256.New()
	for _, p := range files {
		f, err := fsys.Open(p)
		if err != nil {
			return "", fmt.Errorf("hash %s: %w", p, err)
		}
		io.WriteString(h, p)
		_, err = io.Copy(h, f)
		f.Close()
		if err != nil {
			return "", fmt.Errorf("hash %s: %w", p, err)
		}
	}
	return hex.EncodeToString(h.Sum(nil))[:16], nil
}
