package quality

import (
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"sort"
)

//go:embed data/modules.json data/mutations.json data/real/*.json data/audit/*.json
var dataFS embed.FS

// The benchmark's sets.
const (
	// SetReal holds documentation errors upstream maintainers fixed:
	// each is reviewed at the version that has it, with scope all.
	SetReal = "real"
	// SetMutation holds real doc sentences changed in place, code
	// changes that leave docs behind, and clean edits: each is a pull
	// request reviewed with scope affected.
	SetMutation = "mutation"
	// SetAudit holds scope-all audits of modules whose findings are
	// labelled by hand in a ledger.
	SetAudit = "audit"
)

// The halves modules are split into: tuning uses dev, the closing notes
// quote test.
const (
	HalfDev  = "dev"
	HalfTest = "test"
)

// The kinds of real fixes.
const (
	KindName      = "name"
	KindParameter = "parameter"
	KindLiteral   = "literal"
	KindSnippet   = "snippet"
	KindLink      = "link"
)

// The compiler labels of a real snippet fix: whether a reader's Go
// compiler rejects the block as it stood, for the error the fix mended
// (the block completed as a reader pastes it: statements in a function,
// imports added, placeholders taken as given). Issue targets for Go
// snippets are stated on the cases a compiler rejects.
const (
	CompilerRejects = "rejects"
	CompilerAccepts = "accepts"
	CompilerUnclear = "unclear"
)

// KindSnippetRejected is the report row of the snippet fixes labelled
// CompilerRejects: a subset of the snippet row, not a kind of its own.
const KindSnippetRejected = "snippet: compiler rejects"

// RealKinds lists the kinds of the real-fix set in report order.
func RealKinds() []string {
	return []string{KindName, KindParameter, KindLiteral, KindSnippet, KindLink}
}

// ModuleEntry is a module of the benchmark and its fixed half.
type ModuleEntry struct {
	Path string `json:"path"`
	Half string `json:"half"`
	// Sets are the sets the module's cases belong to; a module in the
	// audit set is in no other.
	Sets []string `json:"sets"`
	// Version is the version mutated (mutation set) or audited (audit
	// set); real fixes carry their own versions.
	Version string `json:"version,omitempty"`
}

// RealCase is a documentation error that the next version fixed,
// confirmed by reading the code of Version.
type RealCase struct {
	Module  string `json:"module"`
	Version string `json:"version"`
	Fixed   string `json:"fixed"`
	Path    string `json:"path"`
	Line    int    `json:"line"`
	EndLine int    `json:"end_line"`
	Kind    string `json:"kind"`
	// Style is how the wrong thing is written: bare, backtick, doclink,
	// code or prose.
	Style  string `json:"style"`
	Wrong  string `json:"wrong"`
	Right  string `json:"right"`
	Reason string `json:"reason"`
	// Compiler is a snippet fix's compiler label (CompilerRejects,
	// CompilerAccepts, CompilerUnclear); empty for other kinds.
	Compiler string `json:"compiler,omitempty"`
}

// MutationFile is data/mutations.json: the generated mutation cases and
// the mention styles measured on the corpus they were sampled from.
type MutationFile struct {
	Seed uint64 `json:"seed"`
	// Styles counts every mention of code in the sampled modules' docs,
	// by style; PerModule the same per module.
	Styles    StyleCounts            `json:"styles"`
	PerModule map[string]StyleCounts `json:"per_module"`
	Cases     []Mutation             `json:"cases"`
}

// Ledger holds the hand labels of one audited module's findings.
type Ledger struct {
	Module   string        `json:"module"`
	Version  string        `json:"version"`
	Findings []LedgerEntry `json:"findings"`
}

// LedgerEntry labels one finding, keyed by its fingerprint (the claim ID
// and rule, as github.Fingerprint writes it).
type LedgerEntry struct {
	Fingerprint string `json:"fingerprint"`
	Rule        string `json:"rule"`
	Label       string `json:"label"`
	Path        string `json:"path"`
	Line        int    `json:"line"`
	Message     string `json:"message"`
	// Verdict is true, false or debatable.
	Verdict string `json:"verdict"`
	Reason  string `json:"reason"`
	// Cause names the kind of mistake, for false and debatable verdicts.
	Cause string `json:"cause,omitempty"`
}

// The verdicts of a ledger entry.
const (
	VerdictTrue      = "true"
	VerdictFalse     = "false"
	VerdictDebatable = "debatable"
)

// Data is the benchmark's stored cases.
type Data struct {
	Modules   []ModuleEntry
	Real      []RealCase
	Mutations MutationFile
	Ledgers   map[string]*Ledger // by module path
}

// LoadData reads the embedded data files; an error names the file that
// does not parse.
func LoadData() (*Data, error) {
	return loadData(dataFS)
}

func loadData(fsys fs.FS) (*Data, error) {
	d := &Data{Ledgers: map[string]*Ledger{}}
	read := func(name string, v any) error {
		b, err := fs.ReadFile(fsys, name)
		if err != nil {
			return fmt.Errorf("quality data: %w", err)
		}
		if err := json.Unmarshal(b, v); err != nil {
			return fmt.Errorf("quality data: %s: %w", name, err)
		}
		return nil
	}
	if err := read("data/modules.json", &d.Modules); err != nil {
		return nil, err
	}
	if err := read("data/mutations.json", &d.Mutations); err != nil {
		return nil, err
	}
	reals, err := fs.Glob(fsys, "data/real/*.json")
	if err != nil {
		return nil, fmt.Errorf("quality data: %w", err)
	}
	sort.Strings(reals)
	for _, name := range reals {
		var cs []RealCase
		if err := read(name, &cs); err != nil {
			return nil, err
		}
		d.Real = append(d.Real, cs...)
	}
	audits, err := fs.Glob(fsys, "data/audit/*.json")
	if err != nil {
		return nil, fmt.Errorf("quality data: %w", err)
	}
	sort.Strings(audits)
	for _, name := range audits {
		var l Ledger
		if err := read(name, &l); err != nil {
			return nil, err
		}
		if l.Module == "" {
			return nil, fmt.Errorf("quality data: %s: no module", name)
		}
		d.Ledgers[l.Module] = &l
	}
	return d, d.check()
}

// check reports the first inconsistency: a case of a module that
// modules.json does not list or puts in another set, a module in two
// halves or in the audit set and another, an unknown kind or verdict.
func (d *Data) check() error {
	mods := map[string]ModuleEntry{}
	for _, m := range d.Modules {
		if _, dup := mods[m.Path]; dup {
			return fmt.Errorf("quality data: modules.json lists %s twice", m.Path)
		}
		if m.Half != HalfDev && m.Half != HalfTest {
			return fmt.Errorf("quality data: modules.json: %s: half %q (want dev or test)", m.Path, m.Half)
		}
		for _, s := range m.Sets {
			if s != SetReal && s != SetMutation && s != SetAudit {
				return fmt.Errorf("quality data: modules.json: %s: unknown set %q", m.Path, s)
			}
			if s == SetAudit && len(m.Sets) > 1 {
				return fmt.Errorf("quality data: modules.json: %s: an audited module belongs to no other set", m.Path)
			}
		}
		mods[m.Path] = m
	}
	in := func(mod, set string) error {
		m, ok := mods[mod]
		if !ok {
			return fmt.Errorf("quality data: %s is not in modules.json", mod)
		}
		for _, s := range m.Sets {
			if s == set {
				return nil
			}
		}
		return fmt.Errorf("quality data: %s: not in set %s in modules.json", mod, set)
	}
	kinds := map[string]bool{}
	for _, k := range RealKinds() {
		kinds[k] = true
	}
	for _, c := range d.Real {
		if err := in(c.Module, SetReal); err != nil {
			return err
		}
		if !kinds[c.Kind] {
			return fmt.Errorf("quality data: real case %s@%s %s:%d: unknown kind %q", c.Module, c.Version, c.Path, c.Line, c.Kind)
		}
		switch c.Compiler {
		case "", CompilerRejects, CompilerAccepts, CompilerUnclear:
		default:
			return fmt.Errorf("quality data: real case %s@%s %s:%d: unknown compiler label %q", c.Module, c.Version, c.Path, c.Line, c.Compiler)
		}
		if c.Compiler != "" && c.Kind != KindSnippet {
			return fmt.Errorf("quality data: real case %s@%s %s:%d: a compiler label on a %s case", c.Module, c.Version, c.Path, c.Line, c.Kind)
		}
		if c.Line < 1 || c.EndLine < c.Line {
			return fmt.Errorf("quality data: real case %s@%s %s: bad lines %d-%d", c.Module, c.Version, c.Path, c.Line, c.EndLine)
		}
	}
	mkinds := map[string]bool{}
	for _, k := range MutationKinds() {
		mkinds[k] = true
	}
	for _, c := range d.Mutations.Cases {
		if err := in(c.Module, SetMutation); err != nil {
			return err
		}
		if !mkinds[c.Kind] {
			return fmt.Errorf("quality data: mutation %s: unknown kind %q", c.ID, c.Kind)
		}
		if m := mods[c.Module]; m.Version != c.Version {
			return fmt.Errorf("quality data: mutation %s: version %s, modules.json pins %s", c.ID, c.Version, m.Version)
		}
	}
	for mod, l := range d.Ledgers {
		if err := in(mod, SetAudit); err != nil {
			return err
		}
		if m := mods[mod]; m.Version != l.Version {
			return fmt.Errorf("quality data: ledger of %s: version %s, modules.json pins %s", mod, l.Version, m.Version)
		}
		for _, e := range l.Findings {
			switch e.Verdict {
			case VerdictTrue, VerdictFalse, VerdictDebatable:
			default:
				return fmt.Errorf("quality data: ledger of %s: %s: verdict %q (want true, false or debatable)", mod, e.Fingerprint, e.Verdict)
			}
		}
	}
	return nil
}

// Module returns the entry of path.
func (d *Data) Module(path string) (ModuleEntry, bool) {
	for _, m := range d.Modules {
		if m.Path == path {
			return m, true
		}
	}
	return ModuleEntry{}, false
}

// ListEntry is one case as `docreview bench quality --list` prints it;
// an audit is one entry per module, kind "audit".
type ListEntry struct {
	Set     string `json:"set"`
	Half    string `json:"half"`
	Module  string `json:"module"`
	Version string `json:"version"`
	Kind    string `json:"kind"`
	Path    string `json:"path,omitempty"`
	Line    int    `json:"line,omitempty"`
	EndLine int    `json:"end_line,omitempty"`
	Style   string `json:"style,omitempty"`
	ID      string `json:"id,omitempty"`
	Reason  string `json:"reason,omitempty"`
	// Labels counts an audit's labelled findings.
	Labels int `json:"labels,omitempty"`
}

// List returns every case the selection holds, without running anything:
// real fixes, then mutations, then audits.
func (d *Data) List(sel Selection) []ListEntry {
	var out []ListEntry
	for _, c := range d.Real {
		if m, _ := d.Module(c.Module); sel.wants(SetReal, m) {
			out = append(out, ListEntry{Set: SetReal, Half: m.Half, Module: c.Module, Version: c.Version, Kind: c.Kind, Path: c.Path,
				Line: c.Line, EndLine: c.EndLine, Style: c.Style, Reason: c.Reason})
		}
	}
	for _, c := range d.Mutations.Cases {
		if m, _ := d.Module(c.Module); sel.wants(SetMutation, m) {
			out = append(out, ListEntry{Set: SetMutation, Half: m.Half, Module: c.Module, Version: c.Version, Kind: c.Kind, Path: c.Path,
				Line: c.Line, Style: c.Style, ID: c.ID, Reason: c.Detail})
		}
	}
	for _, m := range d.Modules {
		if !sel.wants(SetAudit, m) {
			continue
		}
		e := ListEntry{Set: SetAudit, Half: m.Half, Module: m.Path, Version: m.Version, Kind: SetAudit}
		if l := d.Ledgers[m.Path]; l != nil {
			e.Labels = len(l.Findings)
		}
		out = append(out, e)
	}
	return out
}

// Selection narrows a run or a listing; the zero value selects
// everything.
type Selection struct {
	// Sets, Halves and Modules, when non-empty, keep only those.
	Sets    []string
	Halves  []string
	Modules []string
}

func (s Selection) wants(set string, m ModuleEntry) bool {
	has := func(list []string, v string) bool {
		if len(list) == 0 {
			return true
		}
		for _, x := range list {
			if x == v {
				return true
			}
		}
		return false
	}
	inSet := false
	for _, x := range m.Sets {
		inSet = inSet || x == set
	}
	return inSet && has(s.Sets, set) && has(s.Halves, m.Half) && has(s.Modules, m.Path)
}
