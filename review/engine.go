package review

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/docreview/docreview/retrieval"
	"github.com/docreview/docreview/retrieval/gitrepo"
	"github.com/docreview/docreview/review/diff"
)

// Request says what to review.
type Request struct {
	// Repo is the repository directory; "" means the current directory.
	Repo string
	// Base is the ref the diff starts from; "" means the merge-base with the
	// upstream default branch when one exists, else Head's parent.
	Base string
	// Head is the ref reviewed; "" means HEAD.
	Head string
	// Worktree includes uncommitted changes (staged, unstaged and untracked
	// files) on top of Head.
	Worktree bool
	// Scope selects the claims judged; "" means [ScopeAffected].
	Scope Scope
	// Include and Exclude are path globs limiting the files reviewed.
	Include, Exclude []string
	// MaxFileSize is the size in bytes above which files are skipped with a
	// note; 0 means 1 MiB.
	MaxFileSize int64
	// IndexDir is where the lexical index of the head is kept between runs;
	// "" means a temporary directory removed after the review.
	IndexDir string
	// Upstream indexes, beside the head's files, the doc comments and
	// exported signatures of the direct dependencies that the head's
	// go.mod requires ([retrieval.UpstreamChunks], with
	// [Engine.UpstreamOptions]), so that evidence can come from them.
	// Modules it cannot read, and a go.mod it cannot parse, are notes in
	// the report. Off by default.
	Upstream bool
	// Embedder, when set, adds the dense channel to the retriever: the
	// head's chunks are embedded (vectors kept in DenseDir between runs;
	// "" means beside a temporary index, gone after the review). A failure
	// to embed is a note and leaves the channel off. Rules never use it;
	// the model judge's search does.
	Embedder retrieval.Embedder
	DenseDir string
}

// Engine runs reviews. Extractor is required; the other fields are
// optional.
type Engine struct {
	// Extractor finds the claims to judge.
	Extractor Extractor
	// Rules are the deterministic judges; they all run on every claim and
	// the most severe verdict wins (ties go to the earlier rule).
	Rules []Judge
	// Model, when non-nil, judges the claims no rule settled, after the
	// rules and all at once (see [ModelJudge]).
	Model ModelJudge
	// Confirm, with a Model, also gives it the rules' findings: a finding
	// the model refutes with verified evidence is dropped.
	Confirm bool
	// Coverage, when set, scores the documentation coverage of the
	// symbols the diff touched (Report.Stats.Coverage); a failure is
	// logged and leaves it nil.
	Coverage CoverageScorer
	// Logger receives progress and diagnostics; nil discards them.
	Logger *slog.Logger
	// Workers bounds how many claims are judged at once; 0 means
	// runtime.GOMAXPROCS(0).
	Workers int
	// Types keeps the type information of the standard library between
	// reviews (see [retrieval.TypeCache]); nil type-checks what each
	// review imports from source.
	Types *retrieval.TypeCache
	// UpstreamOptions configures how a review with [Request.Upstream]
	// reads the dependencies. The zero value reads only what the local
	// module cache holds and never downloads; a nil Logger means Logger.
	UpstreamOptions retrieval.UpstreamOptions
}

// Review runs a review: it diffs base and head, builds the evidence layer
// at head, extracts the claims of the requested scope and judges each one.
// A failure to judge one claim is recorded on its verdict (Skipped); errors
// are returned only when the review cannot go on: a *[UsageError] for what
// the request asks that cannot be done (not a git repository, an unknown
// ref; it wraps gitrepo.ErrNotRepository or gitrepo.ErrUnknownRevision),
// or an error reading the diff.
func (e *Engine) Review(ctx context.Context, req Request) (Report, error) {
	if e.Extractor == nil {
		return Report{}, errors.New("review: engine has no extractor")
	}
	log := e.logger()
	scope, err := ParseScope(string(req.Scope))
	if err != nil {
		return Report{}, err
	}
	timings := map[string]int64{}
	stage := func(name string, start time.Time) { timings[name] = time.Since(start).Milliseconds() }

	start := time.Now()
	ws, notes, err := e.Load(ctx, req)
	if err != nil {
		return Report{}, err
	}
	defer func() {
		if err := ws.Close(); err != nil {
			log.Warn("release workspace", "err", err)
		}
	}()
	stage("load", start)
	ws.Scope = scope

	// The coverage score (a type-check of the touched packages at base)
	// needs nothing the judges produce: it runs beside them.
	var (
		cov    *CoverageChange
		covErr error
		covMS  int64
		covRun sync.WaitGroup
	)
	scoring := e.Coverage != nil && ws.BaseFS != nil
	if scoring {
		covRun.Go(func() {
			start := time.Now()
			cov, covErr = e.Coverage.Score(ctx, ws)
			covMS = time.Since(start).Milliseconds()
		})
	}
	defer covRun.Wait() // never past the workspace's release

	start = time.Now()
	claims, extractNotes, err := e.Extractor.Extract(ctx, ws, scope)
	if err != nil {
		return Report{}, fmt.Errorf("extract claims: %w", err)
	}
	notes = append(notes, extractNotes...)
	stage("extract", start)
	log.Info("claims extracted", "stage", "extract", "claims", len(claims), "scope", scope)

	start = time.Now()
	verdicts := e.judgeAll(ctx, ws, claims)
	stage("judge", start)
	if err := ctx.Err(); err != nil {
		return Report{}, fmt.Errorf("review: %w", err)
	}
	var model *ModelStats
	if e.Model != nil {
		start = time.Now()
		st := e.judgeModel(ctx, ws, verdicts)
		model = &st
		stage("model", start)
		if err := ctx.Err(); err != nil {
			return Report{}, fmt.Errorf("review: %w", err)
		}
	}

	r := Report{Base: ws.Base, Head: ws.Head, Verdicts: verdicts, Notes: notes}
	SortVerdicts(r.Verdicts)
	r.Stats = Count(r.Verdicts)
	r.Stats.Timings = timings
	r.Stats.Model = model
	if scoring {
		covRun.Wait()
		if covErr != nil {
			log.Warn("documentation coverage not scored", "err", covErr)
		} else {
			r.Stats.Coverage = cov
		}
		timings["coverage"] = covMS
	}
	return r, nil
}

// judgeModel gives the model the claims the rules left consistent (not
// skipped, not noted) and, with Confirm, the rules' findings, and folds
// its outcomes into verdicts: a kept model finding replaces a consistent
// verdict, a refuted rule finding becomes consistent, and a claim the
// model could not settle says so in Skipped.
func (e *Engine) judgeModel(ctx context.Context, ws *Workspace, verdicts []Verdict) ModelStats {
	var (
		items []ModelItem
		at    []int
	)
	for i := range verdicts {
		v := &verdicts[i]
		switch {
		case v.Claim.Note != "" || v.Skipped != "":
			continue
		case v.Label == Consistent:
			items = append(items, ModelItem{Claim: v.Claim})
		case e.Confirm:
			f := *v
			items = append(items, ModelItem{Claim: v.Claim, Finding: &f})
		default:
			continue
		}
		at = append(at, i)
	}
	if len(items) == 0 {
		return ModelStats{}
	}
	outs, st := e.Model.JudgeClaims(ctx, ws, items)
	log := e.logger()
	for k, out := range outs {
		if k >= len(at) {
			break
		}
		v := &verdicts[at[k]]
		item := items[k]
		switch {
		case out.Skipped != "":
			if item.Finding == nil {
				v.Skipped = e.Model.Name() + ": " + out.Skipped
				v.Message = "rules found no drift; not judged by the model: " + out.Skipped
				v.Confidence = 0
			}
		case out.Verdict != nil:
			nv := *out.Verdict
			nv.Claim = item.Claim
			if nv.Rule == "" {
				nv.Rule = e.Model.Name()
			}
			if !e.settle(ws, &nv) {
				st.Dropped = addDrop(st.Dropped, "evidence not at head")
				log.Debug("model finding dropped", "claim_id", item.Claim.ID, "reason", "evidence not at head")
				continue
			}
			if item.Finding == nil || nv.Label.Severity() > item.Finding.Label.Severity() {
				*v = nv
			}
		case out.Dropped != "":
			// The model's finding failed a retention check: the claim
			// stands as the rules left it.
			log.Debug("model finding dropped", "claim_id", item.Claim.ID, "reason", out.Dropped)
		case out.Refuted && item.Finding != nil:
			*v = Verdict{Claim: item.Claim, Label: Consistent, Rule: item.Finding.Rule + "," + e.Model.Name(), Confidence: 1,
				Message: fmt.Sprintf("%s reported: %s; refuted by %s: %s", item.Finding.Rule, item.Finding.Message, e.Model.Name(), out.Why)}
		case item.Finding == nil:
			v.Rule += "," + e.Model.Name()
			v.Message = "no drift found by " + strings.ReplaceAll(v.Rule, ",", ", ")
		}
	}
	return st
}

// addDrop counts one dropped finding for reason.
func addDrop(m map[string]int, reason string) map[string]int {
	if m == nil {
		m = map[string]int{}
	}
	m[reason]++
	return m
}

// Load resolves the request's refs and builds the [Workspace]: the diff,
// both snapshots, the Go symbol table, the lexical index and the retriever
// fusing them at head. Notes list the files left out (binary, too large,
// not UTF-8) and, with [Request.Upstream], the dependencies not indexed.
// A directory that is not a git repository or a ref that names no commit
// gives a *[UsageError].
func (e *Engine) Load(ctx context.Context, req Request) (*Workspace, []Note, error) {
	log := e.logger()
	dir := req.Repo
	if dir == "" {
		dir = "."
	}
	repo, err := gitrepo.Open(ctx, dir)
	if err != nil {
		return nil, nil, &UsageError{Msg: err.Error()}
	}
	headRef := req.Head
	if headRef == "" {
		headRef = "HEAD"
	}
	headSHA, err := repo.Resolve(ctx, headRef)
	if err != nil {
		return nil, nil, &UsageError{Msg: err.Error()}
	}
	var baseSHA string
	if req.Base != "" {
		if baseSHA, err = repo.Resolve(ctx, req.Base); err != nil {
			return nil, nil, &UsageError{Msg: err.Error()}
		}
	} else if baseSHA, err = repo.DefaultBase(ctx, headSHA); err != nil {
		return nil, nil, fmt.Errorf("find base commit: %w", err)
	}
	// The globs choose the files claims come from, not the evidence: the
	// snapshots hold every file, so that a link into an excluded directory
	// resolves and an included doc's code is known.
	opt := gitrepo.SnapshotOptions{MaxFileSize: req.MaxFileSize}
	sel, err := gitrepo.NewSelector(req.Include, req.Exclude)
	if err != nil {
		return nil, nil, &UsageError{Msg: err.Error()}
	}

	ws := &Workspace{Dir: repo.Dir, Base: baseSHA, Head: headSHA, History: repoHistory{repo: repo, rev: headSHA}, Types: e.Types, shared: &sharedStore{}}
	if len(req.Include) > 0 || len(req.Exclude) > 0 {
		ws.Reviewed = sel.Selects
	}
	ws.Docs, _ = e.Extractor.(DocReader)
	headRev := headSHA
	if req.Worktree {
		headRev, ws.Head = "", "worktree"
	}
	raw, err := repo.Diff(ctx, baseSHA, headSHA, req.Worktree)
	if err != nil {
		return nil, nil, fmt.Errorf("diff %s..%s: %w", short(baseSHA), ws.Head, err)
	}
	if ws.Diff, err = diff.Parse(bytes.NewReader(raw)); err != nil {
		return nil, nil, fmt.Errorf("parse diff %s..%s: %w", short(baseSHA), ws.Head, err)
	}
	head, err := repo.Snapshot(ctx, headRev, opt)
	if err != nil {
		return nil, nil, fmt.Errorf("read files at %s: %w", ws.Head, err)
	}
	ws.HeadFS, ws.HeadFiles = head, head.Files()
	if baseSHA != "" {
		base, err := repo.Snapshot(ctx, baseSHA, opt)
		if err != nil {
			return nil, nil, fmt.Errorf("read files at %s: %w", short(baseSHA), err)
		}
		ws.BaseFS = base
	}
	notes := fileNotes(ws.Diff, head.Skipped(), head.Notes(), sel.Selects)
	if len(ws.Diff) == 0 {
		notes = append(notes, Note{Message: fmt.Sprintf("empty diff: %s and %s have the same content", short(baseSHA), short(ws.Head))})
	}

	start := time.Now()
	if ws.Symbols, err = e.Types.LoadSymbols(ctx, ws.HeadFS, ws.HeadFiles, log); err != nil {
		return nil, nil, fmt.Errorf("load Go symbols at %s: %w", short(ws.Head), err)
	}
	log.Debug("symbols loaded", "stage", "index", "packages", len(ws.Symbols.Packages()), "ms", time.Since(start).Milliseconds())

	start = time.Now()
	indexNotes, err := e.buildIndex(ctx, req, ws)
	if err != nil {
		return nil, nil, err
	}
	notes = append(notes, indexNotes...)
	log.Debug("index ready", "stage", "index", "ms", time.Since(start).Milliseconds())
	ws.Retriever = &retrieval.Retriever{Index: ws.Index, Symbols: ws.Symbols, FS: ws.HeadFS, Logger: log}
	if req.Embedder != nil {
		start = time.Now()
		d, err := e.openDense(ctx, req, ws)
		if err != nil {
			notes = append(notes, Note{Message: "dense channel off: " + err.Error()})
		} else {
			ws.Retriever.Dense = d
		}
		log.Debug("dense channel", "stage", "index", "on", err == nil, "ms", time.Since(start).Milliseconds())
	}
	return ws, notes, nil
}

// openDense embeds the head's chunks (or loads their vectors from
// req.DenseDir) for the dense channel.
func (e *Engine) openDense(ctx context.Context, req Request, ws *Workspace) (*retrieval.Dense, error) {
	chunks, err := ws.Index.AllChunks(ctx)
	if err != nil {
		return nil, fmt.Errorf("read chunks: %w", err)
	}
	dir := req.DenseDir
	if dir == "" {
		tmp, err := os.MkdirTemp("", "docreview-vectors-")
		if err != nil {
			return nil, fmt.Errorf("vectors directory: %w", err)
		}
		ws.cleanup = append(ws.cleanup, func() error { return os.RemoveAll(tmp) })
		dir = tmp
	}
	return retrieval.OpenDense(ctx, dir, req.Embedder, chunks, e.logger())
}

// buildIndex opens or builds the lexical index of the head in
// req.IndexDir and sets ws.Index. With no IndexDir, it lives in a
// temporary directory that [Workspace.Close] removes. With req.Upstream,
// the dependencies' chunks are indexed too, and the commit recorded in the
// index says so, as 'docreview index --upstream' records it; the notes
// list the dependencies left out.
func (e *Engine) buildIndex(ctx context.Context, req Request, ws *Workspace) ([]Note, error) {
	dir := req.IndexDir
	if dir == "" {
		tmp, err := os.MkdirTemp("", "docreview-index-")
		if err != nil {
			return nil, fmt.Errorf("index directory: %w", err)
		}
		ws.cleanup = append(ws.cleanup, func() error { return os.RemoveAll(tmp) })
		dir = filepath.Join(tmp, "index")
	}
	start := time.Now()
	ev, err := retrieval.OpenEvidenceIndex(ctx, retrieval.EvidenceIndexOptions{
		FS: ws.HeadFS, Files: ws.HeadFiles, Rev: ws.Head, Dir: dir,
		Selection: retrieval.IndexSelection{Upstream: req.Upstream}, Upstream: e.UpstreamOptions,
		MaxFileSize: req.MaxFileSize, Logger: e.logger(),
	})
	if err != nil {
		return nil, fmt.Errorf("index %s: %w", short(ws.Head), err)
	}
	ws.cleanup = append([]func() error{ev.Index.Close}, ws.cleanup...)
	ws.Index = ev.Index
	var notes []Note
	if ev.UpstreamErr != nil {
		notes = append(notes, Note{Path: "go.mod", Message: "dependencies not indexed: " + ev.UpstreamErr.Error()})
	}
	for _, m := range ev.Modules {
		if m.Skipped != "" {
			notes = append(notes, Note{Path: "go.mod", Message: fmt.Sprintf("dependency %s@%s not indexed: %s", m.Path, m.Version, m.Skipped)})
		}
	}
	if req.Upstream {
		e.logger().Debug("upstream read", "stage", "index", "modules", len(ev.Modules), "ms", time.Since(start).Milliseconds())
	}
	return notes, nil
}

// judgeAll judges claims with a bounded pool of workers; the result has one
// verdict per claim, in the claims' order.
func (e *Engine) judgeAll(ctx context.Context, ws *Workspace, claims []Claim) []Verdict {
	out := make([]Verdict, len(claims))
	workers := e.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(workers, max(len(claims), 1)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				out[i] = e.judge(ctx, ws, claims[i])
			}
		}()
	}
	for i := range claims {
		if ctx.Err() != nil {
			break
		}
		next <- i
	}
	close(next)
	wg.Wait()
	return out
}

// confidenceOf is a verdict's confidence, 1 when its rule left it unset.
func confidenceOf(v *Verdict) float64 {
	if v.Confidence == 0 {
		return 1
	}
	return v.Confidence
}

// judge runs every rule on c.
func (e *Engine) judge(ctx context.Context, ws *Workspace, c Claim) Verdict {
	if c.Note != "" {
		return Verdict{Claim: c, Label: Consistent, Rule: "none", Message: "not judged: " + c.Note, Skipped: c.Note}
	}
	var (
		best    *Verdict
		checked []string
		failed  []string
		// unsettled are findings whose evidence does not exist at head:
		// not reported as findings, but never hidden either.
		unsettled []string
	)
	consider := func(j Judge) {
		v, err := judgeSafely(ctx, j, ws, c)
		if err != nil {
			e.logger().Warn("judge failed", "claim_id", c.ID, "rule", j.Name(), "err", err)
			failed = append(failed, fmt.Sprintf("%s: %v", j.Name(), err))
			return
		}
		checked = append(checked, j.Name())
		if v == nil || v.Label == Consistent {
			return
		}
		v.Claim = c
		if v.Rule == "" {
			v.Rule = j.Name()
		}
		if !e.settle(ws, v) {
			unsettled = append(unsettled, fmt.Sprintf("%s found %s (%s) but none of its evidence exists at head", v.Rule, v.Label, strings.TrimSuffix(v.Message, ".")))
			return
		}
		// Of two findings of one severity the better supported one is
		// reported: a literal the code contradicts outright over a name
		// a rule could only guess at (go-winio's DialPipe names the
		// Win32 WaitNamedPipe and states a default of 5 seconds, 2 in
		// the code).
		if best == nil || v.Label.Severity() > best.Label.Severity() ||
			v.Label.Severity() == best.Label.Severity() && confidenceOf(v) > confidenceOf(best) {
			best = v
		}
	}
	for _, j := range e.Rules {
		consider(j)
	}
	var unverified []string
	for _, j := range e.Rules {
		if u, ok := j.(Unverifier); ok {
			unverified = append(unverified, unverifiedSafely(ctx, e.logger(), u, ws, c)...)
		}
	}
	slices.Sort(unverified)
	unverified = slices.Compact(unverified)
	if best != nil {
		best.Unverified = unverified
		return *best
	}
	v := Verdict{Claim: c, Label: Consistent, Rule: strings.Join(checked, ","), Confidence: 1, Unverified: unverified}
	if v.Rule == "" {
		v.Rule = "none"
	}
	v.Message = "no drift found by " + strings.ReplaceAll(v.Rule, ",", ", ")
	if len(failed) > 0 || len(unsettled) > 0 {
		v.Skipped = strings.Join(append(failed, unsettled...), "; ")
		v.Confidence = 0
		v.Message = "not fully judged: " + v.Skipped
	}
	return v
}

// settle enforces the evidence invariant on a finding: every evidence item
// must point at lines that exist at head (snippets are filled from there,
// ids assigned), and at least one must remain. It reports whether the
// finding stands.
func (e *Engine) settle(ws *Workspace, v *Verdict) bool {
	kept := v.Evidence[:0:0]
	for _, ev := range v.Evidence {
		lines, err := fileLines(ws.HeadFS, ev.Path)
		if err != nil || ev.StartLine < 1 || ev.EndLine < ev.StartLine || ev.EndLine > len(lines) {
			e.logger().Warn("evidence dropped: lines do not exist at head", "claim_id", v.Claim.ID, "rule", v.Rule,
				"path", ev.Path, "start", ev.StartLine, "end", ev.EndLine)
			continue
		}
		if ev.Snippet == "" {
			ev.Snippet = strings.Join(lines[ev.StartLine-1:ev.EndLine], "\n")
		}
		kept = append(kept, ev)
	}
	if len(kept) == 0 {
		e.logger().Warn("finding dropped: no evidence resolves at head", "claim_id", v.Claim.ID, "rule", v.Rule)
		return false
	}
	for i := range kept {
		if kept[i].ID == "" {
			kept[i].ID = fmt.Sprintf("e%d", i+1)
		}
	}
	v.Evidence = kept
	if v.Confidence == 0 {
		v.Confidence = 1
	}
	return true
}

func (e *Engine) logger() *slog.Logger {
	if e.Logger == nil {
		return slog.New(slog.DiscardHandler)
	}
	return e.Logger
}

// SortVerdicts orders verdicts by path, line, symbol and claim ID.
func SortVerdicts(vs []Verdict) {
	slices.SortStableFunc(vs, func(a, b Verdict) int {
		if c := strings.Compare(a.Claim.Path, b.Claim.Path); c != 0 {
			return c
		}
		if a.Claim.Line != b.Claim.Line {
			return a.Claim.Line - b.Claim.Line
		}
		if c := strings.Compare(a.Claim.Symbol, b.Claim.Symbol); c != 0 {
			return c
		}
		return strings.Compare(a.Claim.ID, b.Claim.ID)
	})
}

// Count computes the per-label statistics of verdicts. A skipped claim
// without a finding counts as skipped, not consistent, so that Claims =
// Consistent + Contradicted + Incomplete + Skipped.
func Count(vs []Verdict) Stats {
	s := Stats{Claims: len(vs)}
	for _, v := range vs {
		switch {
		case v.Label == Contradicted:
			s.Contradicted++
		case v.Label == Incomplete:
			s.Incomplete++
		case v.Skipped != "":
			s.Skipped++
		default:
			s.Consistent++
		}
	}
	return s
}

// Close releases what the workspace holds: the index, and its temporary
// directory when the request named none.
func (ws *Workspace) Close() error {
	var errs []error
	for _, f := range ws.cleanup {
		errs = append(errs, f())
	}
	ws.cleanup = nil
	return errors.Join(errs...)
}

// fileNotes lists the files the review left out or read with a remark:
// skipped and kept are the head snapshot's. A skipped file is noted when
// the diff touches it or the review would have read it (Go code, docs,
// any file skipped for its size); a binary image or archive elsewhere in
// the repository is not news, so it has no note on every review. Only
// files reviewed selects are noted: a file the include and exclude globs
// leave out is no news either.
func fileNotes(files []diff.File, skipped, kept []gitrepo.Skip, reviewed func(string) bool) []Note {
	var notes []Note
	seen := map[string]bool{}
	inDiff := map[string]bool{}
	for _, f := range files {
		if f.Status != diff.Deleted {
			inDiff[f.Path()] = true
		}
	}
	for _, s := range skipped {
		seen[s.Path] = true
		if reviewed(s.Path) && (inDiff[s.Path] || readable(s)) {
			notes = append(notes, Note{Path: s.Path, Message: "skipped: " + s.Reason})
		}
	}
	for _, s := range kept {
		if reviewed(s.Path) {
			notes = append(notes, Note{Path: s.Path, Message: s.Reason})
		}
	}
	for _, f := range files {
		if f.Binary && !seen[f.Path()] && f.Status != diff.Deleted && reviewed(f.Path()) {
			notes = append(notes, Note{Path: f.Path(), Message: "skipped: binary file"})
		}
	}
	slices.SortFunc(notes, func(a, b Note) int { return strings.Compare(a.Path+"\x00"+a.Message, b.Path+"\x00"+b.Message) })
	return slices.Compact(notes)
}

// readable reports whether a skipped file is one the review would have
// read had it been kept: one skipped for its size or a missing object, or
// a Go file or a document by its name, whatever the reason.
func readable(s gitrepo.Skip) bool {
	switch s.Reason {
	case gitrepo.ReasonBinary, gitrepo.ReasonSymlink, gitrepo.ReasonSubmodule, gitrepo.ReasonNested, gitrepo.ReasonNotRegular:
	default:
		return true
	}
	switch strings.ToLower(path.Ext(s.Path)) {
	case ".go", ".md", ".markdown", ".mdx", ".txt", ".rst", ".adoc":
		return true
	}
	return false
}

// fileLines returns the lines of a file at head.
func fileLines(fsys fs.FS, path string) ([]string, error) {
	data, err := fs.ReadFile(fsys, path)
	if err != nil {
		return nil, err
	}
	var lines []string
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 64*1024), len(data)+1)
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	return lines, sc.Err()
}

func short(sha string) string {
	if len(sha) > 12 {
		return sha[:12]
	}
	if sha == "" {
		return "(empty tree)"
	}
	return sha
}

// repoHistory is the [History] of a git repository up to rev.
type repoHistory struct {
	repo *gitrepo.Repo
	rev  string
}

func (h repoHistory) RemovedIn(ctx context.Context, name string) (Commit, bool, error) {
	c, ok, err := h.repo.RemovedIn(ctx, h.rev, name)
	if err != nil || !ok {
		return Commit{}, false, err
	}
	return Commit{SHA: c.SHA, Short: c.Short(), Date: c.Date, Subject: c.Subject, Added: c.Added}, true, nil
}

// judgeSafely runs one judge on one claim, turning a panic into an error
// that names the judge and the claim: a bug in one rule skips that rule
// on that claim instead of ending the review.
func judgeSafely(ctx context.Context, j Judge, ws *Workspace, c Claim) (v *Verdict, err error) {
	defer func() {
		if r := recover(); r != nil {
			v, err = nil, fmt.Errorf("%s panicked on %s:%d: %v", j.Name(), c.Path, c.Line, r)
		}
	}()
	return j.Judge(ctx, ws, c)
}

// unverifiedSafely is [Unverifier.Unverified] with a panic logged and
// dropped: what could not be checked is then left unlisted.
func unverifiedSafely(ctx context.Context, log *slog.Logger, u Unverifier, ws *Workspace, c Claim) (out []string) {
	defer func() {
		if r := recover(); r != nil {
			log.Warn("listing unverified names panicked", "claim_id", c.ID, "path", c.Path, "line", c.Line, "panic", r)
			out = nil
		}
	}()
	return u.Unverified(ctx, ws, c)
}
