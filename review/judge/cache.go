package judge

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"

	"github.com/docreview/docreview/review"
)

// cache keeps verdicts on disk, one JSON file per key under
// dir/KEY[:2]/KEY.json. A nil *cache caches nothing.
//
// The key covers the claim's path, kind, symbol and whitespace-collapsed
// text (not its lines), the rules' finding when confirming, the model and
// the prompts. An entry also lists every range of a head file the model
// saw, with the SHA-256 of its text; it is a hit only while all of them
// still hash the same. Only settled outcomes are stored: a consistent
// answer, a kept finding, a refutation; skipped claims and dropped answers
// are asked again next time.
type cache struct {
	dir     string
	model   string
	prompts string
	log     *slog.Logger
}

// cache returns the judge's cache; nil when CacheDir is "".
func (j *Judge) cache() *cache {
	if j.opt.CacheDir == "" {
		return nil
	}
	return &cache{dir: j.opt.CacheDir, model: j.opt.Model, prompts: PromptVersion + ":" + j.prompts.hash, log: j.log}
}

// cacheEntry is the stored form of one verdict.
type cacheEntry struct {
	Key     string            `json:"key"`
	Outcome cachedOutcome     `json:"outcome"`
	Ranges  []cacheRangeEntry `json:"ranges"`
}

type cachedOutcome struct {
	Label      review.Label      `json:"label,omitempty"`
	Message    string            `json:"message,omitempty"`
	Suggestion string            `json:"suggestion,omitempty"`
	Confidence float64           `json:"confidence,omitempty"`
	Evidence   []review.Evidence `json:"evidence,omitempty"`
	Refuted    bool              `json:"refuted,omitempty"`
	Why        string            `json:"why,omitempty"`
}

type cacheRangeEntry struct {
	Path   string `json:"path"`
	Start  int    `json:"start"`
	End    int    `json:"end"`
	SHA256 string `json:"sha256"`
}

// key is the cache key of an item.
func (c *cache) key(it review.ModelItem) string {
	cl := it.Claim
	parts := []string{cl.Path, string(cl.Kind), cl.Symbol, normalize(cl.Text), c.model, c.prompts}
	if f := it.Finding; f != nil {
		parts = append(parts, f.Rule, string(f.Label), f.Message, f.Suggestion)
	}
	data, _ := json.Marshal(parts)
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

func (c *cache) file(key string) string { return filepath.Join(c.dir, key[:2], key+".json") }

// hashText is the hex SHA-256 of s.
func hashText(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

// get returns the cached outcome of it when every range its verdict saw
// is unchanged at head.
func (c *cache) get(h *heads, it review.ModelItem) (review.ModelOutcome, bool) {
	if c == nil {
		return review.ModelOutcome{}, false
	}
	key := c.key(it)
	data, err := os.ReadFile(c.file(key))
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			c.log.Warn("read verdict cache", logClaimID, it.Claim.ID, logErr, err)
		}
		return review.ModelOutcome{}, false
	}
	var e cacheEntry
	if err := json.Unmarshal(data, &e); err != nil || e.Key != key {
		c.log.Warn("verdict cache entry unreadable; judging again", logClaimID, it.Claim.ID, logErr, err)
		return review.ModelOutcome{}, false
	}
	for _, r := range e.Ranges {
		text, ok := h.text(r.Path, r.Start, r.End)
		if !ok || hashText(text) != r.SHA256 {
			c.log.Debug("verdict cache stale", logClaimID, it.Claim.ID, "path", r.Path)
			return review.ModelOutcome{}, false
		}
	}
	o := e.Outcome
	if o.Label == "" || o.Label == review.Consistent {
		return review.ModelOutcome{Refuted: o.Refuted, Why: o.Why}, true
	}
	return review.ModelOutcome{Verdict: &review.Verdict{
		Claim: it.Claim, Label: o.Label, Rule: "llm", Message: o.Message, Suggestion: o.Suggestion,
		Confidence: o.Confidence, Evidence: o.Evidence,
	}}, true
}

// put stores out for it with the ranges the conversation showed; failures
// are logged.
func (c *cache) put(h *heads, it review.ModelItem, out review.ModelOutcome, ranges []seenRange) {
	if c == nil {
		return
	}
	key := c.key(it)
	e := cacheEntry{Key: key, Outcome: cachedOutcome{Refuted: out.Refuted, Why: out.Why}}
	if v := out.Verdict; v != nil {
		e.Outcome.Label, e.Outcome.Message, e.Outcome.Suggestion = v.Label, v.Message, v.Suggestion
		e.Outcome.Confidence, e.Outcome.Evidence = v.Confidence, v.Evidence
	}
	seenKey := map[[3]any]bool{}
	for _, r := range ranges {
		k := [3]any{r.Path, r.Start, r.End}
		if seenKey[k] {
			continue
		}
		seenKey[k] = true
		text, ok := h.text(r.Path, r.Start, r.End)
		if !ok {
			return // cannot happen for ranges shown from head; do not cache
		}
		e.Ranges = append(e.Ranges, cacheRangeEntry{Path: r.Path, Start: r.Start, End: r.End, SHA256: hashText(text)})
	}
	data, err := json.MarshalIndent(e, "", " ")
	if err == nil {
		err = writeAtomic(c.file(key), data)
	}
	if err != nil {
		c.log.Warn("write verdict cache", logClaimID, it.Claim.ID, logErr, err)
	}
}

// writeAtomic writes data to name through a temporary file and a rename.
func writeAtomic(name string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(name), ".tmp-*")
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), name)
	}
	if err != nil {
		_ = os.Remove(f.Name())
	}
	return err
}
