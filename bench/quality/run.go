package quality

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"math/rand/v2"
	"os"
	"strings"

	"github.com/docreview/docreview/retrieval"
	"github.com/docreview/docreview/review"
	"github.com/docreview/docreview/review/extract"
	"github.com/docreview/docreview/rules"
)

// Options configures [Run].
type Options struct {
	// Modules are the modules to mutate; required.
	Modules []Module
	// PerCategory is the most cases generated per module and category; 0
	// means 4.
	PerCategory int
	// Seed seeds the choice of mutation sites; runs with the same seed and
	// modules generate the same cases.
	Seed uint64
	// Categories limits the generated categories; nil means
	// [Categories]().
	Categories []Category
	// VersionDiffs adds, for each module with a Previous version, the real
	// diff from Previous to Version as a case.
	VersionDiffs bool
	// Dir is where the throwaway repositories are made; "" means the
	// system temporary directory.
	Dir string
	// Progress, when non-nil, is called as cases are reviewed.
	Progress func(stage string, done, total int)
	// Logger receives progress and diagnostics; nil discards them.
	Logger *slog.Logger
	// Types keeps the standard library's type information between the
	// cases' reviews; nil type-checks it from source for each case.
	Types *retrieval.TypeCache
}

// Finding is one non-consistent verdict of a case's review.
type Finding struct {
	Path          string       `json:"path"`
	Line, EndLine int          `json:"-"`
	Lines         string       `json:"lines"`
	Label         review.Label `json:"label"`
	Rule          string       `json:"rule"`
	Message       string       `json:"message"`
	// Expected is true when the finding flags an expected claim with the
	// expected label.
	Expected bool `json:"expected"`
}

// Outcome is the result of one case.
type Outcome struct {
	Module   string   `json:"module"`
	Category Category `json:"category"`
	Site     string   `json:"site"`
	// Detected is true when a full-evidence finding flags an expected
	// claim; DetectedOwnFile the same with own-file evidence only.
	Detected        bool `json:"detected"`
	DetectedOwnFile bool `json:"detected_own_file"`
	// Findings are the full-evidence findings; OwnFile those that stand on
	// evidence from the claim's own file.
	Findings []Finding `json:"findings,omitempty"`
	OwnFile  []Finding `json:"own_file_findings,omitempty"`
	// DocLines counts the changed documentation lines (Markdown lines and
	// Go comment lines the diff adds).
	DocLines int `json:"doc_lines"`
	// Error is set when the case could not be reviewed.
	Error string `json:"error,omitempty"`
}

// Run generates the cases of every module and reviews each one. Module
// download and git failures end the run with an error; a case that cannot
// be reviewed is recorded on its [Outcome].
func Run(ctx context.Context, opt Options) (*Report, error) {
	if len(opt.Modules) == 0 {
		return nil, errors.New("quality: no modules")
	}
	per := opt.PerCategory
	if per <= 0 {
		per = 4
	}
	cats := opt.Categories
	if cats == nil {
		cats = Categories()
	}
	log := opt.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	progress := opt.Progress
	if progress == nil {
		progress = func(string, int, int) {}
	}
	rep := &Report{Modules: opt.Modules}
	for _, m := range opt.Modules {
		progress("download "+m.Path+"@"+m.Version, 0, 0)
		dir, err := download(ctx, m.Path, m.Version)
		if err != nil {
			return nil, err
		}
		files, err := readTree(dir)
		if err != nil {
			return nil, err
		}
		src := newSource(m.Path, files)
		rng := rand.New(rand.NewPCG(opt.Seed, hash(m.Path)))
		var cases []Case
		for _, cat := range cats {
			cands := generate(src, cat)
			rng.Shuffle(len(cands), func(i, j int) { cands[i], cands[j] = cands[j], cands[i] })
			for i := range cands[:min(per, len(cands))] {
				cands[i].Module = m.Path
				cases = append(cases, cands[i])
			}
		}
		outs, err := runModule(ctx, opt.Dir, m, files, cases, progress, opt.Types, log)
		if err != nil {
			return nil, err
		}
		rep.Outcomes = append(rep.Outcomes, outs...)
		for _, pair := range m.versionPairs() {
			if !opt.VersionDiffs {
				break
			}
			progress("download "+m.Path+"@"+pair[0], 0, 0)
			out, err := runVersionDiff(ctx, opt.Dir, m.Path, pair[0], pair[1], opt.Types, log)
			if err != nil {
				return nil, err
			}
			rep.Outcomes = append(rep.Outcomes, out)
		}
	}
	rep.summarise(cats)
	return rep, nil
}

func hash(s string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= 1099511628211
	}
	return h
}

// runModule commits the module to a throwaway repository and reviews each
// case on top of it.
func runModule(ctx context.Context, tmp string, m Module, files map[string]string, cases []Case, progress func(string, int, int), types *retrieval.TypeCache, log *slog.Logger) ([]Outcome, error) {
	dir, err := os.MkdirTemp(tmp, "docreview-quality-")
	if err != nil {
		return nil, fmt.Errorf("quality: %w", err)
	}
	defer func() { _ = os.RemoveAll(dir) }()
	r, err := newRepo(ctx, dir)
	if err != nil {
		return nil, err
	}
	if err := r.write(files); err != nil {
		return nil, err
	}
	base, err := r.commit(ctx, "base "+m.Path+"@"+m.Version)
	if err != nil {
		return nil, err
	}
	var outs []Outcome
	for i, c := range cases {
		progress("review "+m.Path, i, len(cases))
		from := base
		if c.Pre != nil {
			if err := r.write(c.Pre); err != nil {
				return nil, err
			}
			if from, err = r.commit(ctx, "pre"); err != nil {
				return nil, err
			}
		}
		if err := r.write(c.Edit); err != nil {
			return nil, err
		}
		head, err := r.commit(ctx, string(c.Category))
		if err != nil {
			return nil, err
		}
		out := Outcome{Module: m.Path, Category: c.Category, Site: c.Site}
		judge(ctx, dir, from, head, c, &out, types, log)
		outs = append(outs, out)
		if err := r.resetTo(ctx, base); err != nil {
			return nil, err
		}
	}
	progress("review "+m.Path, len(cases), len(cases))
	return outs, nil
}

// runVersionDiff reviews the real diff of module from older to newer.
func runVersionDiff(ctx context.Context, tmp, module, older, newer string, types *retrieval.TypeCache, log *slog.Logger) (Outcome, error) {
	read := func(v string) (map[string]string, error) {
		d, err := download(ctx, module, v)
		if err != nil {
			return nil, err
		}
		return readTree(d)
	}
	prev, err := read(older)
	if err != nil {
		return Outcome{}, err
	}
	files, err := read(newer)
	if err != nil {
		return Outcome{}, err
	}
	dir, err := os.MkdirTemp(tmp, "docreview-quality-")
	if err != nil {
		return Outcome{}, fmt.Errorf("quality: %w", err)
	}
	defer func() { _ = os.RemoveAll(dir) }()
	r, err := newRepo(ctx, dir)
	if err != nil {
		return Outcome{}, err
	}
	if err := r.write(prev); err != nil {
		return Outcome{}, err
	}
	base, err := r.commit(ctx, older)
	if err != nil {
		return Outcome{}, err
	}
	if err := r.replaceAll(ctx, files); err != nil {
		return Outcome{}, err
	}
	head, err := r.commit(ctx, newer)
	if err != nil {
		return Outcome{}, err
	}
	out := Outcome{Module: module, Category: VersionDiff, Site: older + ".." + newer}
	judge(ctx, dir, base, head, Case{Category: VersionDiff}, &out, types, log)
	return out, nil
}

// judge reviews base..head in dir with scope affected and fills out.
func judge(ctx context.Context, dir, base, head string, c Case, out *Outcome, types *retrieval.TypeCache, log *slog.Logger) {
	eng := &review.Engine{Extractor: &extract.Extractor{Logger: log}, Logger: log, Types: types}
	ws, _, err := eng.Load(ctx, review.Request{Repo: dir, Base: base, Head: head, Scope: review.ScopeAffected})
	if err != nil {
		out.Error = err.Error()
		return
	}
	defer func() { _ = ws.Close() }()
	out.DocLines = docLines(ws)
	claims, _, err := eng.Extractor.Extract(ctx, ws, review.ScopeAffected)
	if err != nil {
		out.Error = err.Error()
		return
	}
	rs := rules.All()
	for _, cl := range claims {
		if cl.Note != "" {
			continue
		}
		full, own := judgeClaim(ctx, ws, rs, cl, log)
		if full != nil {
			f := finding(*full, c)
			out.Findings = append(out.Findings, f)
			out.Detected = out.Detected || f.Expected
		}
		if own != nil {
			f := finding(*own, c)
			out.OwnFile = append(out.OwnFile, f)
			out.DetectedOwnFile = out.DetectedOwnFile || f.Expected
		}
	}
}

// judgeClaim runs every rule on cl as the engine does (the most severe
// verdict with evidence wins, ties to the earlier rule), once with all the
// evidence and once with only the evidence from the claim's own file.
func judgeClaim(ctx context.Context, ws *review.Workspace, rs []review.Judge, cl review.Claim, log *slog.Logger) (full, own *review.Verdict) {
	for _, j := range rs {
		v, err := j.Judge(ctx, ws, cl)
		if err != nil {
			log.Warn("judge failed", "rule", j.Name(), "path", cl.Path, "line", cl.Line, "err", err)
			continue
		}
		if v == nil || v.Label == review.Consistent || len(v.Evidence) == 0 {
			continue
		}
		v.Claim = cl
		if v.Rule == "" {
			v.Rule = j.Name()
		}
		if full == nil || v.Label.Severity() > full.Label.Severity() {
			full = v
		}
		var kept []review.Evidence
		for _, ev := range v.Evidence {
			if ev.Path == cl.Path {
				kept = append(kept, ev)
			}
		}
		if len(kept) == 0 {
			continue
		}
		ov := *v
		ov.Evidence = kept
		if own == nil || ov.Label.Severity() > own.Label.Severity() {
			own = &ov
		}
	}
	return full, own
}

func finding(v review.Verdict, c Case) Finding {
	f := Finding{Path: v.Claim.Path, Line: v.Claim.Line, EndLine: v.Claim.EndLine,
		Lines: fmt.Sprintf("%d-%d", v.Claim.Line, v.Claim.EndLine), Label: v.Label, Rule: v.Rule, Message: v.Message}
	for _, sp := range c.Expect {
		if sp.Path == f.Path && sp.Line <= f.EndLine && f.Line <= sp.EndLine && (c.Label == "" || c.Label == f.Label) {
			f.Expected = true
		}
	}
	return f
}

// docLines counts the Markdown lines and Go comment lines the diff adds.
func docLines(ws *review.Workspace) int {
	n := 0
	for _, f := range ws.Diff {
		isMD := strings.HasSuffix(f.NewPath, ".md") || strings.HasSuffix(f.NewPath, ".markdown")
		isGo := strings.HasSuffix(f.NewPath, ".go")
		if !isMD && !isGo {
			continue
		}
		b, err := fs.ReadFile(ws.HeadFS, f.NewPath)
		if err != nil {
			continue
		}
		lines := strings.Split(string(b), "\n")
		for _, r := range f.Added {
			for l := r.Start; l <= r.End && l <= len(lines); l++ {
				t := strings.TrimSpace(lines[l-1])
				if isMD && t != "" || isGo && strings.HasPrefix(t, "//") {
					n++
				}
			}
		}
	}
	return n
}
