package judge

import (
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"fmt"
)

// PromptVersion names the prompts' revision; it is part of every cache
// key. TestPromptVersion pins it to the prompts' content hash, so a prompt
// edited without a new version fails the tests.
const PromptVersion = "1"

//go:embed prompts/*.md
var promptFS embed.FS

// prompts are the texts of the prompt files.
type prompts struct {
	// system is the system prompt of every conversation; oneshot is added
	// to it when the model has no tools, grouped when several claims share
	// the conversation.
	system, oneshot, grouped string
	// hash is the hex SHA-256 over the three files.
	hash string
}

// loadPrompts reads the embedded prompt files.
func loadPrompts() (prompts, error) {
	var p prompts
	h := sha256.New()
	for _, f := range []struct {
		name string
		dst  *string
	}{{"system.md", &p.system}, {"oneshot.md", &p.oneshot}, {"grouped.md", &p.grouped}} {
		data, err := promptFS.ReadFile("prompts/" + f.name)
		if err != nil {
			return prompts{}, fmt.Errorf("llm judge: read prompt %s: %w", f.name, err)
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

// systemPrompt returns the system message for a conversation.
func (p prompts) systemPrompt(oneshot, grouped bool) string {
	s := p.system
	if oneshot {
		s += "\n" + p.oneshot
	}
	if grouped {
		s += "\n" + p.grouped
	}
	return s
}
