// Package config reads docreview's settings from the three places a user
// sets them, in order of precedence: command-line flags, DOCREVIEW_*
// environment variables, and the repository's .docreview.yml.
//
// The file is decoded strictly: an unknown key or a value of the wrong type
// is an error naming the key, the file and the line.
package config

import (
	"errors"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/goccy/go-yaml"
)

// FileName is the configuration file docreview reads from the repository
// root.
const FileName = ".docreview.yml"

// DefaultMaxFileSize is the size above which files are skipped with a note:
// 1 MiB.
const DefaultMaxFileSize = 1 << 20

// Config is the validated configuration of a review. The zero value is not
// valid; use [Default] and then [Load], [ApplyEnv] and flags in that order.
type Config struct {
	// Scope is "changed", "affected" (the default) or "all".
	Scope string
	// FailOn is "never", "incomplete" or "contradicted" (the default).
	FailOn string
	// Include and Exclude are path globs ("docs/**", "**/*.md"); an empty
	// Include means every file. Exclude wins over Include.
	Include, Exclude []string
	// Disabled lists the rules switched off, by name.
	Disabled []string
	// MaxFileSize is the size in bytes above which a file is skipped with a
	// note; the default is [DefaultMaxFileSize].
	MaxFileSize int64
	// MaxMarkdownLines is the line count above which a Markdown file is
	// skipped with a note; 0 means the extractor's default (200000).
	MaxMarkdownLines int
	// IncludeVendor indexes vendor directories too; false by default, so
	// vendored copies of dependencies do not crowd out the repository's
	// own code.
	IncludeVendor bool
	// Upstream indexes, beside the repository, the doc comments and
	// exported signatures of the module's direct dependencies at the
	// versions go.mod requires, read from the local module cache; false by
	// default.
	Upstream bool
	// EmbeddingsModel names the embeddings model of the dense channel; ""
	// means the embedder's default. Embeddings are used only when
	// OPENAI_API_KEY is set.
	EmbeddingsModel string
	// Model names the chat model of the LLM judge; "" means no judge. The
	// judge runs only when OPENAI_API_KEY is set or OPENAI_BASE_URL points
	// at a server that needs no key.
	Model string
	// Judge holds the LLM judge's budgets and switches.
	Judge Judge
}

// Judge configures the LLM judge. Zero values mean the judge's defaults.
type Judge struct {
	// Confirm also gives the rules' findings to the model, which may
	// refute them with verified evidence.
	Confirm bool
	// Mode is "auto" (the default), "tools", "json-schema", "json-object"
	// or "oneshot": how the model is called (see the judge package).
	Mode string
	// Concurrency bounds the claims judged at once.
	Concurrency int
	// MaxToolCalls bounds the tool calls per claim.
	MaxToolCalls int
	// ClaimTokens bounds the input tokens per claim; ReviewTokens the
	// prompt and completion tokens of a whole review.
	ClaimTokens, ReviewTokens int
	// TimeoutSeconds bounds one model call.
	TimeoutSeconds int
	// NoCache switches the verdict cache off.
	NoCache bool
}

// JudgeModes returns the values of [Judge.Mode].
func JudgeModes() []string { return []string{"auto", "tools", "json-schema", "json-object", "oneshot"} }

// CheckJudgeMode validates a judge mode.
func CheckJudgeMode(s string) error {
	if slices.Contains(JudgeModes(), s) {
		return nil
	}
	return fmt.Errorf("unknown judge mode %q (want %s)", s, strings.Join(JudgeModes(), ", "))
}

// Default returns the configuration used when nothing is set.
func Default() Config {
	return Config{Scope: "affected", FailOn: "contradicted", MaxFileSize: DefaultMaxFileSize}
}

// file mirrors .docreview.yml. Pointers tell "absent" from "zero".
type file struct {
	Scope            *string         `yaml:"scope"`
	FailOn           *string         `yaml:"fail-on"`
	Include          []string        `yaml:"include"`
	Exclude          []string        `yaml:"exclude"`
	Rules            map[string]bool `yaml:"rules"`
	MaxFileSize      *Size           `yaml:"max-file-size"`
	MaxMarkdownLines *int            `yaml:"max-markdown-lines"`
	IncludeVendor    *bool           `yaml:"include-vendor"`
	Upstream         *bool           `yaml:"upstream"`
	EmbeddingsModel  *string         `yaml:"embeddings-model"`
	Model            *string         `yaml:"model"`
	Judge            *judgeFile      `yaml:"judge"`
}

// judgeFile mirrors the judge section of .docreview.yml.
type judgeFile struct {
	Confirm        *bool   `yaml:"confirm"`
	Mode           *string `yaml:"mode"`
	Concurrency    *int    `yaml:"concurrency"`
	MaxToolCalls   *int    `yaml:"max-tool-calls"`
	ClaimTokens    *int    `yaml:"claim-tokens"`
	ReviewTokens   *int    `yaml:"review-tokens"`
	TimeoutSeconds *int    `yaml:"timeout-seconds"`
	Cache          *bool   `yaml:"cache"`
}

// Size is a byte count written as an integer or with a unit: 1048576,
// "512KiB", "1MiB", "2MB".
type Size int64

// UnmarshalYAML implements the goccy/go-yaml BytesUnmarshaler interface.
func (s *Size) UnmarshalYAML(b []byte) error {
	v, err := ParseSize(strings.Trim(strings.TrimSpace(string(b)), `"'`))
	if err != nil {
		return err
	}
	*s = Size(v)
	return nil
}

// ParseSize parses a byte count with an optional unit (B, KB, KiB, MB, MiB,
// GB, GiB; case-insensitive). It rejects negative and unparsable values.
func ParseSize(s string) (int64, error) {
	t := strings.TrimSpace(s)
	i := strings.IndexFunc(t, func(r rune) bool { return (r < '0' || r > '9') && r != '.' })
	num, unit := t, ""
	if i >= 0 {
		num, unit = strings.TrimSpace(t[:i]), strings.ToLower(strings.TrimSpace(t[i:]))
	}
	mult := map[string]float64{"": 1, "b": 1, "kb": 1e3, "kib": 1 << 10, "mb": 1e6, "mib": 1 << 20, "gb": 1e9, "gib": 1 << 30}[unit]
	v, err := strconv.ParseFloat(num, 64)
	if err != nil || mult == 0 || v < 0 {
		return 0, fmt.Errorf("invalid size %q (want a byte count such as 1048576, 512KiB or 1MiB)", s)
	}
	return int64(v * mult), nil
}

// Load reads the configuration file at path over c. A missing file is not
// an error when optional is true. Errors name the file, line and key.
func Load(c Config, path string, optional bool, knownRules []string) (Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		if optional && errors.Is(err, os.ErrNotExist) {
			return c, nil
		}
		return c, fmt.Errorf("read config: %w", err)
	}
	return Parse(c, path, data, knownRules)
}

// Parse decodes configuration file contents over c; name is used in errors.
func Parse(c Config, name string, data []byte, knownRules []string) (Config, error) {
	var f file
	if err := yaml.UnmarshalWithOptions(data, &f, yaml.Strict()); err != nil {
		return c, yamlError(name, data, err)
	}
	if f.Scope != nil {
		if err := CheckScope(*f.Scope); err != nil {
			return c, fmt.Errorf("%s: key scope: %w", name, err)
		}
		c.Scope = *f.Scope
	}
	if f.FailOn != nil {
		if err := CheckFailOn(*f.FailOn); err != nil {
			return c, fmt.Errorf("%s: key fail-on: %w", name, err)
		}
		c.FailOn = *f.FailOn
	}
	if f.Include != nil {
		c.Include = f.Include
	}
	if f.Exclude != nil {
		c.Exclude = f.Exclude
	}
	names := make([]string, 0, len(f.Rules))
	for n := range f.Rules {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		if !slices.Contains(knownRules, n) {
			return c, fmt.Errorf("%s: key rules.%s: %s", name, n, unknownRule(n, knownRules))
		}
		c.Disabled = setRule(c.Disabled, n, f.Rules[n])
	}
	if f.MaxFileSize != nil {
		c.MaxFileSize = int64(*f.MaxFileSize)
	}
	if f.MaxMarkdownLines != nil {
		if *f.MaxMarkdownLines < 0 {
			return c, fmt.Errorf("%s: key max-markdown-lines: must not be negative", name)
		}
		c.MaxMarkdownLines = *f.MaxMarkdownLines
	}
	if f.IncludeVendor != nil {
		c.IncludeVendor = *f.IncludeVendor
	}
	if f.Upstream != nil {
		c.Upstream = *f.Upstream
	}
	if f.EmbeddingsModel != nil {
		c.EmbeddingsModel = strings.TrimSpace(*f.EmbeddingsModel)
	}
	if f.Model != nil {
		c.Model = strings.TrimSpace(*f.Model)
	}
	if j := f.Judge; j != nil {
		if j.Confirm != nil {
			c.Judge.Confirm = *j.Confirm
		}
		if j.Mode != nil {
			if err := CheckJudgeMode(*j.Mode); err != nil {
				return c, fmt.Errorf("%s: key judge.mode: %w", name, err)
			}
			c.Judge.Mode = *j.Mode
		}
		for _, n := range []struct {
			key string
			v   *int
			dst *int
		}{
			{"concurrency", j.Concurrency, &c.Judge.Concurrency},
			{"max-tool-calls", j.MaxToolCalls, &c.Judge.MaxToolCalls},
			{"claim-tokens", j.ClaimTokens, &c.Judge.ClaimTokens},
			{"review-tokens", j.ReviewTokens, &c.Judge.ReviewTokens},
			{"timeout-seconds", j.TimeoutSeconds, &c.Judge.TimeoutSeconds},
		} {
			if n.v == nil {
				continue
			}
			if *n.v < 1 {
				return c, fmt.Errorf("%s: key judge.%s: must be at least 1, got %d", name, n.key, *n.v)
			}
			*n.dst = *n.v
		}
		if j.Cache != nil {
			c.Judge.NoCache = !*j.Cache
		}
	}
	return c, nil
}

// ApplyEnv applies DOCREVIEW_* variables over c: DOCREVIEW_SCOPE,
// DOCREVIEW_FAIL_ON, DOCREVIEW_INCLUDE and DOCREVIEW_EXCLUDE
// (comma-separated globs), DOCREVIEW_DISABLE (comma-separated rule names),
// DOCREVIEW_MAX_FILE_SIZE, DOCREVIEW_MAX_MARKDOWN_LINES,
// DOCREVIEW_UPSTREAM and DOCREVIEW_CONFIRM (1, true, 0 or false, as
// strconv.ParseBool reads them), DOCREVIEW_EMBEDDINGS_MODEL,
// DOCREVIEW_MODEL, DOCREVIEW_JUDGE_MODE and DOCREVIEW_REVIEW_TOKENS. Empty
// variables are ignored.
func ApplyEnv(c Config, getenv func(string) string, knownRules []string) (Config, error) {
	if v := getenv("DOCREVIEW_SCOPE"); v != "" {
		if err := CheckScope(v); err != nil {
			return c, fmt.Errorf("DOCREVIEW_SCOPE: %w", err)
		}
		c.Scope = v
	}
	if v := getenv("DOCREVIEW_FAIL_ON"); v != "" {
		if err := CheckFailOn(v); err != nil {
			return c, fmt.Errorf("DOCREVIEW_FAIL_ON: %w", err)
		}
		c.FailOn = v
	}
	if v := getenv("DOCREVIEW_INCLUDE"); v != "" {
		c.Include = splitList(v)
	}
	if v := getenv("DOCREVIEW_EXCLUDE"); v != "" {
		c.Exclude = splitList(v)
	}
	if v := getenv("DOCREVIEW_DISABLE"); v != "" {
		for _, n := range splitList(v) {
			if !slices.Contains(knownRules, n) {
				return c, fmt.Errorf("DOCREVIEW_DISABLE: rule %q: %s", n, unknownRule(n, knownRules))
			}
			c.Disabled = setRule(c.Disabled, n, false)
		}
	}
	if v := getenv("DOCREVIEW_MAX_FILE_SIZE"); v != "" {
		n, err := ParseSize(v)
		if err != nil {
			return c, fmt.Errorf("DOCREVIEW_MAX_FILE_SIZE: %w", err)
		}
		c.MaxFileSize = n
	}
	if v := getenv("DOCREVIEW_MAX_MARKDOWN_LINES"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			return c, fmt.Errorf("DOCREVIEW_MAX_MARKDOWN_LINES: invalid line count %q", v)
		}
		c.MaxMarkdownLines = n
	}
	if v := strings.TrimSpace(getenv("DOCREVIEW_UPSTREAM")); v != "" {
		on, err := strconv.ParseBool(v)
		if err != nil {
			return c, fmt.Errorf("DOCREVIEW_UPSTREAM: invalid value %q (want 1, true, 0 or false)", v)
		}
		c.Upstream = on
	}
	if v := strings.TrimSpace(getenv("DOCREVIEW_EMBEDDINGS_MODEL")); v != "" {
		c.EmbeddingsModel = v
	}
	if v := strings.TrimSpace(getenv("DOCREVIEW_MODEL")); v != "" {
		c.Model = v
	}
	if v := strings.TrimSpace(getenv("DOCREVIEW_JUDGE_MODE")); v != "" {
		if err := CheckJudgeMode(v); err != nil {
			return c, fmt.Errorf("DOCREVIEW_JUDGE_MODE: %w", err)
		}
		c.Judge.Mode = v
	}
	if v := strings.TrimSpace(getenv("DOCREVIEW_CONFIRM")); v != "" {
		on, err := strconv.ParseBool(v)
		if err != nil {
			return c, fmt.Errorf("DOCREVIEW_CONFIRM: invalid value %q (want 1, true, 0 or false)", v)
		}
		c.Judge.Confirm = on
	}
	if v := strings.TrimSpace(getenv("DOCREVIEW_REVIEW_TOKENS")); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			return c, fmt.Errorf("DOCREVIEW_REVIEW_TOKENS: invalid token count %q", v)
		}
		c.Judge.ReviewTokens = n
	}
	return c, nil
}

// Enabled reports whether the named rule is switched on.
func (c Config) Enabled(rule string) bool { return !slices.Contains(c.Disabled, rule) }

// CheckScope validates a scope name: changed, affected or all.
func CheckScope(s string) error {
	switch s {
	case "changed", "affected", "all":
		return nil
	}
	return fmt.Errorf("unknown scope %q (want changed, affected or all)", s)
}

// CheckFailOn validates a fail-on level: never, incomplete or contradicted.
func CheckFailOn(s string) error {
	switch s {
	case "never", "incomplete", "contradicted":
		return nil
	}
	return fmt.Errorf("unknown fail-on level %q (want never, incomplete or contradicted)", s)
}

func setRule(disabled []string, name string, on bool) []string {
	disabled = slices.DeleteFunc(slices.Clone(disabled), func(s string) bool { return s == name })
	if !on {
		disabled = append(disabled, name)
		slices.Sort(disabled)
	}
	return disabled
}

func splitList(v string) []string {
	var out []string
	for _, s := range strings.Split(v, ",") {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return out
}

// yamlError turns a go-yaml decoding error into "FILE:LINE:COL: message",
// said in the file's terms: the key path as written (rules.link) and the
// kind of value it wants, not the decoder's Go types; a tab in the
// indentation is named as such.
func yamlError(name string, data []byte, err error) error {
	var ye yaml.Error
	if !errors.As(err, &ye) {
		return fmt.Errorf("%s: %w", name, err)
	}
	tk := ye.GetToken()
	if tk == nil || tk.Position == nil {
		return fmt.Errorf("%s: %s", name, ye.GetMessage())
	}
	line, col := tk.Position.Line, tk.Position.Column
	lines := strings.Split(string(data), "\n")
	if line >= 1 && line <= len(lines) {
		l := lines[line-1]
		if indent := l[:len(l)-len(strings.TrimLeft(l, " \t"))]; strings.Contains(indent, "\t") {
			return fmt.Errorf("%s:%d: the indentation has a tab; YAML indents with spaces only", name, line)
		}
	}
	msg := ye.GetMessage()
	if key := keyPath(lines, line); key != "" {
		if m := friendlyType(msg, valueAt(lines, line)); m != "" {
			return fmt.Errorf("%s:%d:%d: %s: %s", name, line, col, key, m)
		}
	}
	return fmt.Errorf("%s:%d:%d: %s", name, line, col, msg)
}

// keyPath is the dotted path of the key on line (1-based) of a block-style
// YAML document: the key before the line's colon, under the keys of the
// less indented lines above it. It is "" when the line has no key.
func keyPath(lines []string, line int) string {
	if line < 1 || line > len(lines) {
		return ""
	}
	key, indent, ok := keyOf(lines[line-1])
	if !ok {
		return ""
	}
	path := []string{key}
	for i := line - 2; i >= 0 && indent > 0; i-- {
		k, ind, ok := keyOf(lines[i])
		if ok && ind < indent {
			path = append([]string{k}, path...)
			indent = ind
		}
	}
	return strings.Join(path, ".")
}

// keyOf reads "  key: value" as its key and indentation.
func keyOf(l string) (key string, indent int, ok bool) {
	t := strings.TrimLeft(l, " ")
	if t == "" || strings.HasPrefix(t, "#") || strings.HasPrefix(t, "- ") {
		return "", 0, false
	}
	k, _, found := strings.Cut(t, ":")
	k = strings.Trim(strings.TrimSpace(k), `"'`)
	if !found || k == "" || strings.ContainsAny(k, " {}[],") && !strings.HasPrefix(t, `"`) {
		return "", 0, false
	}
	return k, len(l) - len(t), true
}

// valueAt is the value written after the key on line, or "".
func valueAt(lines []string, line int) string {
	if line < 1 || line > len(lines) {
		return ""
	}
	_, v, _ := strings.Cut(lines[line-1], ":")
	v, _, _ = strings.Cut(v, " #")
	return strings.TrimSpace(v)
}

// unmarshalRE reads go-yaml's type mismatch message.
var unmarshalRE = regexp.MustCompile(`^cannot unmarshal (\S+) into Go (?:struct field \S+|value) of type (\S+)$`)

// friendlyType says what a key wants and what it got, in YAML's terms, or
// "" when msg is not a type mismatch.
func friendlyType(msg, value string) string {
	var got, want string
	if m := unmarshalRE.FindStringSubmatch(msg); m != nil {
		got, want = m[1], m[2]
	} else if g, w, ok := strings.Cut(msg, " was used where "); ok {
		got, want = g, strings.TrimSuffix(w, " is expected")
	} else {
		return ""
	}
	wants := map[string]string{
		"bool": "true or false", "int": "a whole number", "int64": "a whole number", "uint64": "a whole number",
		"string": "a string", "[]string": "a list of strings", "sequence": "a list", "mapping": "a mapping of key: value lines",
		"map[string]bool": "a mapping of rule names to true or false",
	}
	w, ok := wants[want]
	if !ok {
		w = want
	}
	switch got {
	case "uint64", "int64", "float64":
		got = "a number"
	case "bool":
		got = "true or false"
	case "sequence":
		got = "a list"
	case "mapping":
		got = "a mapping"
	default:
		got = "a " + got
	}
	if value != "" {
		got += " (" + value + ")"
	}
	return "want " + w + ", got " + got
}

// splitRules names the rules that became several, and what they became.
var splitRules = map[string]string{
	"snippet": "go-snippet, cli-flag, link and example-output",
}

// unknownRule says why a rule name is not known, with the known ones.
func unknownRule(n string, known []string) string {
	if into, ok := splitRules[n]; ok {
		return fmt.Sprintf("unknown rule: %s was split into %s (known: %s)", n, into, strings.Join(known, ", "))
	}
	return "unknown rule (known: " + strings.Join(known, ", ") + ")"
}
