package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/docreview/docreview/retrieval"
	"github.com/docreview/docreview/retrieval/gitrepo"
	"github.com/docreview/docreview/review"
	"github.com/docreview/docreview/review/config"
	"github.com/docreview/docreview/rules"
)

// evidenceFlags are the flags 'docreview index', 'query' and 'mcp' share;
// empty strings mean unset.
type evidenceFlags struct {
	repo, configPath, cacheDir string
	embeddingsModel            string
	debug                      bool
	// Only 'docreview index' has these; the others use the configuration.
	head             string
	worktree         bool
	includeVendor    bool
	upstream         bool
	upstreamDownload bool
}

// register adds the shared flags to fs, and with build the flags that
// choose what is indexed.
func (f *evidenceFlags) register(fs *flag.FlagSet, build bool) {
	fs.StringVar(&f.repo, "repo", ".", "repository `dir`")
	fs.StringVar(&f.configPath, "config", "", "configuration `file` (default REPO/"+config.FileName+" when it exists)")
	fs.StringVar(&f.cacheDir, "cache-dir", "", "where to keep the index (in <dir>/<repo-id>) and the standard library's type information (in <dir>/types) (default $XDG_CACHE_HOME/docreview)")
	fs.StringVar(&f.embeddingsModel, "embeddings-model", "", "embeddings `model` of the dense channel, used when OPENAI_API_KEY is set (default "+string(retrieval.DefaultEmbeddingModel)+")")
	fs.BoolVar(&f.debug, "debug", false, "log progress to stderr")
	if build {
		fs.StringVar(&f.head, "head", "", "`ref` to index (default HEAD)")
		fs.BoolVar(&f.worktree, "worktree", false, "index the working tree, uncommitted changes included")
		fs.BoolVar(&f.includeVendor, "include-vendor", false, "index vendor directories too")
		fs.BoolVar(&f.upstream, "upstream", false, "index the APIs of the direct dependencies in go.mod too, from the local module cache")
		fs.BoolVar(&f.upstreamDownload, "upstream-download", false, "as --upstream, and download missing modules with 'go mod download'")
	}
}

// evidenceSettings is what the index commands resolved from flags, the
// environment and the configuration file.
type evidenceSettings struct {
	repo string
	// dir is the index directory; vectors of the dense channel are kept
	// beside it, in denseDir.
	dir, denseDir string
	snapshot      gitrepo.SnapshotOptions
	// exclude is the configuration's Exclude; snapshot.Exclude adds
	// vendor directories to it unless includeVendor.
	exclude       []string
	includeVendor bool
	// upstream indexes the dependencies' APIs (retrieval.UpstreamChunks
	// with upstreamOpt) beside the files.
	upstream    bool
	upstreamOpt retrieval.UpstreamOptions
	// embedder configures the dense channel; an empty APIKey means no
	// dense channel.
	embedder retrieval.EmbedderOptions
	// types keeps the standard library's type information between runs.
	types  *retrieval.TypeCache
	logger *slog.Logger
}

// vendorGlob matches vendor directories at any depth.
const vendorGlob = "**/vendor"

// loadEvidenceSettings applies the configuration file, the environment and
// the flags set on fs, in that order of increasing precedence.
func loadEvidenceSettings(fs *flag.FlagSet, f evidenceFlags, getenv func(string) string, stderr io.Writer) (evidenceSettings, error) {
	cfg, err := loadConfig(reviewFlags{repo: f.repo, configPath: f.configPath}, getenv, ruleNames())
	if err != nil {
		return evidenceSettings{}, &review.UsageError{Msg: err.Error()}
	}
	if isSet(fs, "include-vendor") {
		cfg.IncludeVendor = f.includeVendor
	}
	if isSet(fs, "upstream") {
		cfg.Upstream = f.upstream
	}
	if f.upstreamDownload {
		cfg.Upstream = true
	}
	if f.embeddingsModel != "" {
		cfg.EmbeddingsModel = f.embeddingsModel
	}
	dir, err := indexDir(reviewFlags{repo: f.repo, cacheDir: f.cacheDir}, getenv)
	if err != nil {
		return evidenceSettings{}, err
	}
	if dir == "" {
		return evidenceSettings{}, &review.UsageError{Msg: "no cache directory: set --cache-dir, DOCREVIEW_CACHE_DIR, XDG_CACHE_HOME or HOME"}
	}
	level := slog.LevelWarn
	if f.debug {
		level = slog.LevelDebug
	}
	s := evidenceSettings{
		repo:     f.repo,
		dir:      dir,
		denseDir: filepath.Join(filepath.Dir(dir), "vectors"),
		snapshot: gitrepo.SnapshotOptions{MaxFileSize: cfg.MaxFileSize, Include: cfg.Include},
		exclude:  cfg.Exclude,
		embedder: retrieval.EmbedderOptions{
			APIKey:  getenv("OPENAI_API_KEY"),
			BaseURL: getenv("OPENAI_BASE_URL"),
			Model:   cfg.EmbeddingsModel,
		},
		types:  typeCache(reviewFlags{repo: f.repo, cacheDir: f.cacheDir}, getenv),
		logger: slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level})),
	}
	s.upstreamOpt = upstreamOptions(getenv, f.upstreamDownload, s.logger)
	return s.withSelection(cfg.IncludeVendor, cfg.Upstream), nil
}

// upstreamOptions configures the reading of the dependencies: never a
// download unless download, and the module cache of the hidden variable
// DOCREVIEW_MODCACHE when set (tests point it at a fixture), else the go
// command's.
func upstreamOptions(getenv func(string) string, download bool, logger *slog.Logger) retrieval.UpstreamOptions {
	return retrieval.UpstreamOptions{Download: download, ModCache: getenv("DOCREVIEW_MODCACHE"), Logger: logger}
}

// withSelection returns s choosing what is indexed besides the files the
// configuration selects: vendor directories, and the dependencies' APIs.
func (s evidenceSettings) withSelection(includeVendor, upstream bool) evidenceSettings {
	s.includeVendor, s.upstream = includeVendor, upstream
	s.snapshot.Exclude = slices.Clone(s.exclude)
	if !includeVendor {
		s.snapshot.Exclude = append(s.snapshot.Exclude, vendorGlob)
	}
	return s
}

// ruleNames lists the rules a configuration file may name.
func ruleNames() []string {
	var names []string
	for _, j := range rules.All() {
		names = append(names, j.Name())
	}
	return names
}

// isSet reports whether the flag name was given on the command line.
func isSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

// openRepo opens the repository; an error is a usage error (not a
// repository, git missing).
func openRepo(ctx context.Context, dir string) (*gitrepo.Repo, error) {
	repo, err := gitrepo.Open(ctx, dir)
	if err != nil {
		return nil, &review.UsageError{Msg: err.Error()}
	}
	return repo, nil
}

// builtIndex is the outcome of [buildEvidenceIndex].
type builtIndex struct {
	ix *retrieval.Index
	// snap holds the files indexed; rev is the commit SHA or "worktree".
	snap *gitrepo.Snapshot
	rev  string
	// modules lists the direct dependencies read or skipped; nil unless
	// the settings ask for them.
	modules []retrieval.UpstreamModule
	elapsed time.Duration
}

// buildEvidenceIndex builds or updates the index of the repository at rev
// ("" for the working tree) in s.dir, with the dependencies' APIs when s
// asks for them (skipped modules are listed on stderr). progress, when
// not nil, is called as files are indexed.
func buildEvidenceIndex(ctx context.Context, s evidenceSettings, repo *gitrepo.Repo, rev string, progress func(done, total int), stderr io.Writer) (*builtIndex, error) {
	start := time.Now()
	snap, err := repo.Snapshot(ctx, rev, s.snapshot)
	if err != nil {
		if errors.Is(err, gitrepo.ErrUnknownRevision) {
			return nil, &review.UsageError{Msg: err.Error()}
		}
		return nil, fmt.Errorf("read files: %w", err)
	}
	b := &builtIndex{snap: snap, rev: snap.Rev()}
	keyRev := rev
	if rev != "" {
		keyRev = snap.Rev() // the commit SHA rev names
	}
	ev, err := retrieval.OpenEvidenceIndex(ctx, retrieval.EvidenceIndexOptions{
		FS: snap, Files: snap.Files(), Rev: keyRev, Dir: s.dir,
		Selection: retrieval.IndexSelection{Vendor: s.includeVendor, Upstream: s.upstream}, Upstream: s.upstreamOpt,
		MaxFileSize: s.snapshot.MaxFileSize, Logger: s.logger, Progress: progress,
	})
	if err != nil {
		return nil, fmt.Errorf("index %s: %w", shortRev(b.rev), err)
	}
	if ev.UpstreamErr != nil {
		_ = ev.Index.Close()
		return nil, fmt.Errorf("read upstream modules at %s: %w", shortRev(snap.Rev()), ev.UpstreamErr)
	}
	if s.upstream {
		if ev.Modules == nil {
			fmt.Fprintln(stderr, "docreview: no go.mod at the repository root: no upstream modules to index")
		}
		for _, m := range ev.Modules {
			if m.Skipped != "" {
				fmt.Fprintf(stderr, "docreview: upstream module %s@%s skipped: %s\n", m.Path, m.Version, m.Skipped)
			}
		}
	}
	b.ix, b.modules = ev.Index, ev.Modules
	b.elapsed = time.Since(start)
	return b, nil
}

// shortRev shortens a commit SHA for messages.
func shortRev(rev string) string {
	if len(rev) > 12 && !strings.HasPrefix(rev, retrieval.WorktreeKeyPrefix) {
		return rev[:12]
	}
	return rev
}

// evidence is an opened index with what a [retrieval.Retriever] needs:
// the files at the indexed commit, the dense channel when configured, and
// the Go symbols, which load only when asked for ([evidence.withSymbols]).
type evidence struct {
	// retriever has no Symbols: lexical (and dense) queries need none.
	retriever *retrieval.Retriever
	// rev is the commit SHA of the index, or "worktree".
	rev string

	symOnce sync.Once
	load    func(context.Context) (*retrieval.Symbols, error)
	syms    *retrieval.Symbols
	symErr  error
}

// Close releases the index.
func (e *evidence) Close() error { return e.retriever.Index.Close() }

// withSymbols returns the retriever with the Go symbols of the indexed
// commit, loading them on the first call (later calls wait for it and
// share its result).
func (e *evidence) withSymbols(ctx context.Context) (*retrieval.Retriever, error) {
	e.symOnce.Do(func() { e.syms, e.symErr = e.load(ctx) })
	if e.symErr != nil {
		return nil, e.symErr
	}
	r := *e.retriever
	r.Symbols = e.syms
	return &r, nil
}

// openEvidence opens the index in s.dir read-only, building it at HEAD
// first when there is none (with a note on stderr), and reads the files of
// the commit it was built for (its Go symbols load when first needed),
// selected as the index records (vendor directories, upstream modules). An index of the working
// tree that no longer matches it is updated first, with that selection.
// The dense channel is opened when s configures it; its failure is a
// warning.
func openEvidence(ctx context.Context, s evidenceSettings, stderr io.Writer) (*evidence, error) {
	repo, err := openRepo(ctx, s.repo)
	if err != nil {
		return nil, err
	}
	ix, err := openOrBuildIndex(ctx, s, repo, stderr)
	if err != nil {
		return nil, err
	}
	ok := false
	defer func() {
		if !ok {
			_ = ix.Close()
		}
	}()
	base, _, _ := strings.Cut(ix.Commit(), "+")
	sel := retrieval.KeySelection(ix.Commit())
	if s.upstream && !sel.Upstream {
		fmt.Fprintln(stderr, "docreview: the index has no upstream modules; run 'docreview index --upstream' to add them")
	}
	s = s.withSelection(sel.Vendor, sel.Upstream)
	var snap *gitrepo.Snapshot
	if strings.HasPrefix(base, retrieval.WorktreeKeyPrefix) {
		if snap, err = repo.Snapshot(ctx, "", s.snapshot); err != nil {
			return nil, fmt.Errorf("read the working tree: %w", err)
		}
		h, err := retrieval.TreeHash(snap, snap.Files())
		if err != nil {
			return nil, err
		}
		if retrieval.WorktreeKeyPrefix+h != base {
			fmt.Fprintln(stderr, "docreview: the index is of an earlier state of the working tree; updating it")
			_ = ix.Close()
			b, err := buildEvidenceIndex(ctx, s, repo, "", nil, stderr)
			if err != nil {
				return nil, err
			}
			ix, snap = b.ix, b.snap
		}
	} else {
		if snap, err = repo.Snapshot(ctx, base, s.snapshot); err != nil {
			return nil, fmt.Errorf("read the files of indexed commit %s: %w", shortRev(base), err)
		}
		if head, err := repo.Resolve(ctx, "HEAD"); err == nil && head != base {
			fmt.Fprintf(stderr, "docreview: the index is of commit %s, HEAD is %s; run 'docreview index' to update it\n", shortRev(base), shortRev(head))
		}
	}
	r := &retrieval.Retriever{Index: ix, FS: snap, Logger: s.logger}
	if s.embedder.APIKey != "" {
		d, err := openDense(ctx, s, ix)
		if err != nil {
			fmt.Fprintf(stderr, "docreview: warning: dense channel off: %v\n", err)
		} else {
			r.Dense = d
		}
	}
	ok = true
	load := func(ctx context.Context) (*retrieval.Symbols, error) {
		syms, err := s.types.LoadSymbols(ctx, snap, snap.Files(), s.logger)
		if err != nil {
			return nil, fmt.Errorf("load Go symbols at %s: %w", shortRev(snap.Rev()), err)
		}
		return syms, nil
	}
	return &evidence{retriever: r, rev: snap.Rev(), load: load}, nil
}

// openOrBuildIndex opens the index in s.dir read-only, or builds it at HEAD
// when s.dir does not exist.
func openOrBuildIndex(ctx context.Context, s evidenceSettings, repo *gitrepo.Repo, stderr io.Writer) (*retrieval.Index, error) {
	if _, err := os.Stat(s.dir); errors.Is(err, fs.ErrNotExist) {
		fmt.Fprintf(stderr, "docreview: no index in %s; building it at HEAD\n", s.dir)
		b, err := buildEvidenceIndex(ctx, s, repo, "HEAD", nil, stderr)
		if err != nil {
			return nil, err
		}
		return b.ix, nil
	}
	ix, err := retrieval.OpenIndex(ctx, s.dir)
	if err != nil {
		return nil, fmt.Errorf("%w (run 'docreview index' to rebuild it)", err)
	}
	return ix, nil
}

// openDense opens the dense channel over the chunks of ix, embedding the
// chunks whose vectors s.denseDir lacks.
func openDense(ctx context.Context, s evidenceSettings, ix *retrieval.Index) (*retrieval.Dense, error) {
	e, err := retrieval.NewOpenAIEmbedder(s.embedder)
	if err != nil {
		return nil, fmt.Errorf("embeddings: %w", err)
	}
	chunks, err := ix.AllChunks(ctx)
	if err != nil {
		return nil, fmt.Errorf("embeddings: %w", err)
	}
	d, err := retrieval.OpenDense(ctx, s.denseDir, e, chunks, s.logger)
	if err != nil {
		return nil, fmt.Errorf("embeddings: %w", err)
	}
	return d, nil
}
