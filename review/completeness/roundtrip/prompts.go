package roundtrip

import (
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"fmt"
)

// PromptVersion names the revision of the prompts in prompts/.
// TestPromptVersion pins it to their content hash, so a prompt edited
// without a new version fails the tests.
const PromptVersion = "1"

//go:embed prompts/*.md
var promptFS embed.FS

// prompts are the texts of the prompt files.
type prompts struct {
	// regenerate is the system prompt of a regeneration, coverage that of
	// a coverage reading.
	regenerate, coverage string
	// hash is the hex SHA-256 over the files' names and contents.
	hash string
}

// loadPrompts reads the embedded prompt files.
func loadPrompts() (prompts, error) {
	var p prompts
	h := sha256.New()
	for _, f := range []struct {
		name string
		dst  *string
	}{{"regenerate.md", &p.regenerate}, {"coverage.md", &p.coverage}} {
		data, err := promptFS.ReadFile("prompts/" + f.name)
		if err != nil {
			return prompts{}, fmt.Errorf("roundtrip: read prompt %s: %w", f.name, err)
		}
		*f.dst = string(data)
		h.Write([]byte(f.name))
		h.Write([]byte{0})
		h.Write(data)
		h.Write([]byte{0})
	}
	p.hash = hex.EncodeToString(h.Sum(nil))
	return p, nil
}
