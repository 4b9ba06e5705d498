package quality

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"sort"
	"strings"

	"github.com/docreview/docreview/review"
	"github.com/docreview/docreview/review/github"
	"github.com/docreview/docreview/review/report"
)

// Options configures [Run].
type Options struct {
	// Engine reviews every case; required. The command builds it as
	// 'docreview review' does, so the benchmark measures what users run.
	Engine *review.Engine
	// Selection narrows the sets, halves and modules run.
	Selection
	// Dir is where the throwaway repositories are made; "" means the
	// system temporary directory.
	Dir string
	// Logger receives diagnostics; nil discards them.
	Logger *slog.Logger
	// Progress, when non-nil, is called as cases are reviewed.
	Progress func(stage string, done, total int)
	// Dependencies downloads the modules each module's go.mod requires
	// directly into the module cache before its cases are reviewed, as
	// the Action runs go mod download before a review, so that code
	// blocks using a dependency are judged. A download that fails is
	// logged and the cases run without that dependency.
	Dependencies bool
}

// Finding is one non-consistent verdict of a review, as the report
// renders it.
type Finding struct {
	Path        string `json:"path"`
	Line        int    `json:"line"`
	EndLine     int    `json:"end_line"`
	Label       string `json:"label"`
	Rule        string `json:"rule"`
	Message     string `json:"message"`
	Fingerprint string `json:"fingerprint"`
}

// CaseResult is the outcome of one real fix or mutation.
type CaseResult struct {
	Set     string `json:"set"`
	Half    string `json:"half"`
	Module  string `json:"module"`
	Version string `json:"version"`
	Kind    string `json:"kind"`
	Style   string `json:"style,omitempty"`
	// Compiler is a real snippet fix's compiler label.
	Compiler string `json:"compiler,omitempty"`
	Path     string `json:"path"`
	Line     int    `json:"line"`
	ID       string `json:"id,omitempty"`
	// Expect are the lines a finding must land on (none for clean edits).
	Expect []Span `json:"expect,omitempty"`
	// Wrong is the wrong fragment the docs hold (a real case's wrong
	// text, a mutation's new name or value, a renamed function's old
	// name).
	Wrong string `json:"wrong,omitempty"`
	// Hit is true when a finding lands on Expect; HitLabel is its label.
	Hit      bool   `json:"hit"`
	HitLabel string `json:"hit_label,omitempty"`
	// Cause says why a case was missed, or for a clean edit which rule
	// flagged it.
	Cause string `json:"cause,omitempty"`
	// Findings are those on Expect (drift) or all of the review's (clean
	// edits).
	Findings []Finding `json:"findings,omitempty"`
	Error    string    `json:"error,omitempty"`
}

// Clean is true for a case that must stay quiet.
func (c CaseResult) Clean() bool { return c.Kind == MutClean }

// AuditResult is the outcome of one audited module.
type AuditResult struct {
	Module  string `json:"module"`
	Version string `json:"version"`
	Half    string `json:"half"`
	// DocLines counts the module's Go comment lines and non-blank
	// Markdown lines.
	DocLines int            `json:"doc_lines"`
	Claims   int            `json:"claims"`
	Findings []AuditFinding `json:"findings"`
	Error    string         `json:"error,omitempty"`
}

// AuditFinding is a finding and its ledger label; Verdict is empty when
// the ledger has none.
type AuditFinding struct {
	Finding
	Verdict string `json:"verdict,omitempty"`
	Cause   string `json:"cause,omitempty"`
}

// Run reviews every selected case with opt.Engine and renders each review
// through the JSON report.
// Module download and git failures end the run; a review that fails is
// recorded on its result.
func Run(ctx context.Context, d *Data, opt Options) (*Report, error) {
	if opt.Engine == nil {
		return nil, errors.New("quality: no engine")
	}
	r := &runner{d: d, opt: opt, engine: opt.Engine, log: opt.Logger, progress: opt.Progress}
	if r.log == nil {
		r.log = slog.New(slog.DiscardHandler)
	}
	if r.progress == nil {
		r.progress = func(string, int, int) {}
	}
	rep := &Report{Styles: d.Mutations.Styles}
	var err error
	if rep.Cases, err = r.real(ctx); err != nil {
		return nil, err
	}
	muts, err := r.mutations(ctx)
	if err != nil {
		return nil, err
	}
	rep.Cases = append(rep.Cases, muts...)
	if rep.Audits, err = r.audits(ctx); err != nil {
		return nil, err
	}
	if len(rep.Cases) == 0 && len(rep.Audits) == 0 {
		return nil, errors.New("quality: the selection holds no case")
	}
	rep.summarise()
	return rep, nil
}

type runner struct {
	d        *Data
	opt      Options
	engine   *review.Engine
	log      *slog.Logger
	progress func(string, int, int)
}

// checkout is a module version committed to a throwaway repository.
type checkout struct {
	repo  *repo
	files map[string]string
	base  string
}

func (r *runner) checkout(ctx context.Context, module, version string) (*checkout, func(), error) {
	r.progress("download "+module+"@"+version, 0, 0)
	files, err := moduleFiles(ctx, module, version)
	if err != nil {
		return nil, nil, err
	}
	addNested(ctx, r.log, module, version, files)
	if r.opt.Dependencies {
		r.progress("dependencies of "+module+"@"+version, 0, 0)
		if err := downloadRequirements(ctx, files["go.mod"]); err != nil {
			r.log.Warn("dependencies not downloaded; the cases run without them", "module", module, "version", version, "err", err)
		}
	}
	tmp, err := os.MkdirTemp(r.opt.Dir, "docreview-quality-")
	if err != nil {
		return nil, nil, fmt.Errorf("quality: %w", err)
	}
	done := func() { _ = os.RemoveAll(tmp) }
	rp, err := newRepo(ctx, tmp)
	if err == nil {
		err = rp.write(files)
	}
	var base string
	if err == nil {
		base, err = rp.commit(ctx, module+"@"+version)
	}
	if err != nil {
		done()
		return nil, nil, err
	}
	return &checkout{repo: rp, files: files, base: base}, done, nil
}

// reviewed is a review's report as the JSON renderer writes it and its
// decoder reads it back, and the claims' mentions, which the JSON
// contract does not carry.
type reviewed struct {
	review.Report
	mentions map[string][]review.Mention // by claim ID
}

// review runs the engine on base..head.
func (r *runner) review(ctx context.Context, dir, base, head string, scope review.Scope) (reviewed, error) {
	rep, err := r.engine.Review(ctx, review.Request{Repo: dir, Base: base, Head: head, Scope: scope})
	if err != nil {
		return reviewed{}, err
	}
	var buf bytes.Buffer
	if err := report.JSON(&buf, rep); err != nil {
		return reviewed{}, err
	}
	back, err := report.DecodeJSON(&buf)
	if err != nil {
		return reviewed{}, err
	}
	out := reviewed{Report: back, mentions: map[string][]review.Mention{}}
	for _, v := range rep.Verdicts {
		out.mentions[v.Claim.ID] = v.Claim.Mentions
	}
	return out, nil
}

func findingOf(v review.Verdict) Finding {
	return Finding{Path: v.Claim.Path, Line: v.Claim.Line, EndLine: v.Claim.EndLine, Label: string(v.Label), Rule: v.Rule,
		Message: v.Message, Fingerprint: github.Fingerprint(v)}
}

func overlaps(v review.Verdict, sp Span) bool {
	return v.Claim.Path == sp.Path && v.Claim.Line <= sp.EndLine && sp.Line <= v.Claim.EndLine
}

// score fills res from a review: the findings on res.Expect, whether one
// landed, and otherwise why not: no claim on the lines, the claim skipped,
// or judged consistent with or without the wrong fragment extracted as a
// mention.
func score(res *CaseResult, rep reviewed) {
	covered, skipped, seen := false, "", false
	for _, v := range rep.Verdicts {
		on := false
		for _, sp := range res.Expect {
			on = on || overlaps(v, sp)
		}
		if !on {
			continue
		}
		covered = true
		seen = seen || mentioned(rep.mentions[v.Claim.ID], res.Wrong)
		if v.Skipped != "" && skipped == "" {
			skipped = v.Skipped
		}
		if v.Label == review.Consistent {
			continue
		}
		res.Findings = append(res.Findings, findingOf(v))
		if !res.Hit || v.Label == review.Contradicted {
			res.HitLabel = string(v.Label)
		}
		res.Hit = true
	}
	if res.Hit {
		return
	}
	why := "judged consistent"
	switch {
	case !covered:
		why = "no claim on the lines"
	case skipped != "":
		why = "claim skipped: " + truncate(skipped, 60)
	case res.Wrong != "" && seen:
		why = "mention extracted, judged consistent"
	case res.Wrong != "":
		why = "not extracted as a mention"
	}
	res.Cause = res.Kind + "/" + res.Style + ": " + why
}

// mentioned is true when a mention holds the wrong fragment's core: its
// last identifier, or the fragment itself.
func mentioned(ms []review.Mention, wrong string) bool {
	if wrong == "" {
		return false
	}
	core := strings.Trim(wrong, "`[]()*. ")
	if i := strings.LastIndexAny(core, ".("); i >= 0 && i+1 < len(core) && !strings.ContainsAny(core, " \n") {
		core = strings.Trim(core[i+1:], "()")
	}
	for _, m := range ms {
		if m.Kind == review.MentionBlock && strings.Contains(m.Text, strings.TrimSpace(wrong)) ||
			m.Kind != review.MentionBlock && (m.Text == core || strings.Contains(m.Text, core) && core != "") {
			return true
		}
	}
	return false
}

// mutationWrong is the fragment a mutation leaves wrong in the docs.
func mutationWrong(m Mutation) string {
	detail := m.Detail
	if _, after, ok := strings.Cut(detail, ": "); ok && m.Kind != MutName {
		detail = after
	}
	from, to, ok := strings.Cut(strings.TrimSuffix(detail, " in code"), " -> ")
	switch {
	case !ok:
		return ""
	case m.Kind == MutRename || m.Kind == MutDefault:
		return from
	}
	return to
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// real reviews each selected real fix at the version that has it, with
// scope all, once per module version.
func (r *runner) real(ctx context.Context) ([]CaseResult, error) {
	type key struct{ module, version string }
	groups := map[key][]RealCase{}
	var order []key
	for _, c := range r.d.Real {
		m, _ := r.d.Module(c.Module)
		if !r.opt.wants(SetReal, m) {
			continue
		}
		k := key{c.Module, c.Version}
		if _, ok := groups[k]; !ok {
			order = append(order, k)
		}
		groups[k] = append(groups[k], c)
	}
	sort.Slice(order, func(i, j int) bool {
		return order[i].module < order[j].module || order[i].module == order[j].module && order[i].version < order[j].version
	})
	var out []CaseResult
	for i, k := range order {
		r.progress("real fixes", i, len(order))
		co, done, err := r.checkout(ctx, k.module, k.version)
		if err != nil {
			return nil, err
		}
		rep, rerr := r.review(ctx, co.repo.dir, co.base, co.base, review.ScopeAll)
		done()
		m, _ := r.d.Module(k.module)
		for _, c := range groups[k] {
			res := CaseResult{Set: SetReal, Half: m.Half, Module: c.Module, Version: c.Version, Kind: c.Kind, Style: c.Style,
				Compiler: c.Compiler, Path: c.Path, Line: c.Line, Expect: []Span{{Path: c.Path, Line: c.Line, EndLine: c.EndLine}}, Wrong: c.Wrong}
			if rerr != nil {
				res.Error, res.Cause = rerr.Error(), c.Kind+"/"+c.Style+": review failed"
			} else {
				score(&res, rep)
			}
			out = append(out, res)
		}
	}
	r.progress("real fixes", len(order), len(order))
	return out, nil
}

// mutations reviews each selected mutation as a pull request on top of
// its module, with scope affected.
func (r *runner) mutations(ctx context.Context) ([]CaseResult, error) {
	byModule := map[string][]Mutation{}
	var mods []string
	total := 0
	for _, c := range r.d.Mutations.Cases {
		m, _ := r.d.Module(c.Module)
		if !r.opt.wants(SetMutation, m) {
			continue
		}
		if _, ok := byModule[c.Module]; !ok {
			mods = append(mods, c.Module)
		}
		byModule[c.Module] = append(byModule[c.Module], c)
		total++
	}
	sort.Strings(mods)
	var out []CaseResult
	for _, mod := range mods {
		cases := byModule[mod]
		m, _ := r.d.Module(mod)
		co, done, err := r.checkout(ctx, mod, m.Version)
		if err != nil {
			return nil, err
		}
		for _, c := range cases {
			r.progress("mutations", len(out), total)
			res, err := r.mutation(ctx, co, m, c)
			if err != nil {
				done()
				return nil, err
			}
			out = append(out, res)
		}
		done()
	}
	r.progress("mutations", len(out), total)
	return out, nil
}

func (r *runner) mutation(ctx context.Context, co *checkout, m ModuleEntry, c Mutation) (CaseResult, error) {
	res := CaseResult{Set: SetMutation, Half: m.Half, Module: c.Module, Version: c.Version, Kind: c.Kind, Style: c.Style,
		Path: c.Path, Line: c.Line, ID: c.ID, Expect: c.Expect, Wrong: mutationWrong(c)}
	edited, err := c.Apply(co.files)
	if err != nil {
		res.Error, res.Cause = err.Error(), c.Kind+"/"+c.Style+": mutation does not apply"
		return res, nil
	}
	if err := co.repo.write(edited); err != nil {
		return res, err
	}
	head, err := co.repo.commit(ctx, c.ID)
	if err != nil {
		return res, err
	}
	rep, rerr := r.review(ctx, co.repo.dir, co.base, head, review.ScopeAffected)
	if err := co.repo.resetTo(ctx, co.base); err != nil {
		return res, err
	}
	switch {
	case rerr != nil:
		res.Error, res.Cause = rerr.Error(), c.Kind+"/"+c.Style+": review failed"
	case res.Clean():
		var rulesHit []string
		for _, v := range rep.Verdicts {
			if v.Label != review.Consistent {
				res.Findings = append(res.Findings, findingOf(v))
				rulesHit = append(rulesHit, v.Rule)
			}
		}
		if len(rulesHit) > 0 {
			sort.Strings(rulesHit)
			res.Hit = true
			res.Cause = "clean edit flagged by " + rulesHit[0]
		}
	default:
		score(&res, rep)
	}
	return res, nil
}

// audits reviews each selected audit module with scope all and labels
// its findings from the ledger.
func (r *runner) audits(ctx context.Context) ([]AuditResult, error) {
	var out []AuditResult
	var mods []ModuleEntry
	for _, m := range r.d.Modules {
		if r.opt.wants(SetAudit, m) {
			mods = append(mods, m)
		}
	}
	for i, m := range mods {
		r.progress("audits", i, len(mods))
		co, done, err := r.checkout(ctx, m.Path, m.Version)
		if err != nil {
			return nil, err
		}
		res := AuditResult{Module: m.Path, Version: m.Version, Half: m.Half, DocLines: docLines(co.files), Findings: []AuditFinding{}}
		rep, err := r.review(ctx, co.repo.dir, co.base, co.base, review.ScopeAll)
		done()
		if err != nil {
			res.Error = err.Error()
			out = append(out, res)
			continue
		}
		labels := map[string]LedgerEntry{}
		if l := r.d.Ledgers[m.Path]; l != nil {
			for _, e := range l.Findings {
				labels[e.Fingerprint] = e
			}
		}
		res.Claims = len(rep.Verdicts)
		for _, v := range rep.Verdicts {
			if v.Label == review.Consistent {
				continue
			}
			f := AuditFinding{Finding: findingOf(v)}
			if e, ok := labels[f.Fingerprint]; ok {
				f.Verdict, f.Cause = e.Verdict, e.Cause
			}
			res.Findings = append(res.Findings, f)
		}
		out = append(out, res)
	}
	r.progress("audits", len(mods), len(mods))
	return out, nil
}

// docLines counts the Go comment lines and non-blank Markdown lines of a
// module's files.
func docLines(files map[string]string) int {
	n := 0
	for p, src := range files {
		goFile := strings.HasSuffix(p, ".go")
		if !goFile && !isMarkdown(p) {
			continue
		}
		for _, l := range strings.Split(src, "\n") {
			t := strings.TrimSpace(l)
			if goFile && strings.HasPrefix(t, "//") || !goFile && t != "" {
				n++
			}
		}
	}
	return n
}
