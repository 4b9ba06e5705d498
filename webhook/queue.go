package webhook

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"hash/fnv"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/riverqueue/river/riverdriver/riversqlite"
	"github.com/riverqueue/river/rivermigrate"
	"github.com/riverqueue/river/rivertype"
	_ "modernc.org/sqlite" // the "sqlite" database/sql driver, pure Go
)

// reviewKind is the River job kind of a review.
const reviewKind = "review"

// reviewArgs are the River arguments of a review job: the [Job] and its
// uniqueness key, the only field River hashes for uniqueness.
type reviewArgs struct {
	Job
	// Key is "owner/repo#pr@head" (lower-cased repository) for a push, and
	// "owner/repo#pr@rerun" for a re-run.
	Key string `json:"key" river:"unique"`
}

// Kind is the River job kind.
func (reviewArgs) Kind() string { return reviewKind }

// repoKey is the case-folded "owner/repo" GitHub treats as one repository.
func repoKey(owner, repo string) string { return strings.ToLower(owner + "/" + repo) }

func jobKey(j Job) string {
	if j.Rerun {
		return fmt.Sprintf("%s#%d@rerun", repoKey(j.Owner, j.Repo), j.PR)
	}
	return fmt.Sprintf("%s#%d@%s", repoKey(j.Owner, j.Repo), j.PR, strings.ToLower(j.HeadSHA))
}

// insertOpts are the River insert options of j: unique per head across the
// live states and completed (never review a head twice), or, for a re-run,
// only while one is waiting or running.
func insertOpts(j Job) *river.InsertOpts {
	states := []rivertype.JobState{
		rivertype.JobStateAvailable, rivertype.JobStatePending, rivertype.JobStateRunning,
		rivertype.JobStateScheduled, rivertype.JobStateRetryable, rivertype.JobStateCompleted,
	}
	if j.Rerun {
		states = states[:4]
	}
	return &river.InsertOpts{
		MaxAttempts: maxAttempts,
		UniqueOpts:  river.UniqueOpts{ByArgs: true, ByState: states},
	}
}

// outcome of a delivery, also the metric label and the response body.
type outcome string

const (
	outQueued            outcome = "queued"
	outDuplicateDelivery outcome = "duplicate_delivery"
	outDuplicateJob      outcome = "duplicate_job"
	outStale             outcome = "stale"
)

// prEvent is a delivery that asks for a review.
type prEvent struct {
	job       Job
	event     string
	updatedAt time.Time // the pull request's updated_at; zero for a re-run
	// follow marks the job a superseded job queues for the head the API
	// named at run time: it is never stale, whatever the recorded order.
	follow bool
}

// queue is the durable store behind the server: River plus docreview's
// tables, on SQLite or PostgreSQL.
type queue interface {
	name() string
	// enqueue stores e's delivery id and job in one transaction.
	enqueue(ctx context.Context, e prEvent) (outcome, error)
	// latestHead is the newest head recorded for a pull request, "" if none.
	latestHead(ctx context.Context, repo string, pr int) (string, error)
	// follow queues a review of the head the API reported to a job that
	// found itself superseded (see [SupersededError]).
	follow(ctx context.Context, j Job, jobID int64, head, base string) (outcome, error)
	// lockHead takes a repository's head commit for one review at a time.
	lockHead(ctx context.Context, repo, head string) (unlock func(), ok bool, err error)
	start(ctx context.Context) error
	stop(ctx context.Context) error
	stopAndCancel(ctx context.Context) error
	ping(ctx context.Context) error
	prune(ctx context.Context, deliveriesBefore, headsBefore time.Time) error
	// listJobs returns up to limit review jobs in all states, oldest first.
	listJobs(ctx context.Context, limit int) ([]*rivertype.JobRow, error)
	close() error
}

// errNoRows is what dbOps.queryRow's scan returns for no row.
var errNoRows = errors.New("no rows")

// dbOps are the few database operations the queue needs, over database/sql
// (SQLite) or pgx (PostgreSQL). SQL is written with $n placeholders.
type dbOps[TTx any] struct {
	kind     string
	begin    func(ctx context.Context) (TTx, error)
	commit   func(ctx context.Context, tx TTx) error
	rollback func(ctx context.Context, tx TTx) error
	exec     func(ctx context.Context, tx TTx, q string, args ...any) (int64, error)
	queryRow func(ctx context.Context, tx TTx, q string, dest []any, args ...any) error
	// query runs outside any transaction.
	query func(ctx context.Context, q string, dest []any, args ...any) error
	// execDB runs outside any transaction.
	execDB func(ctx context.Context, q string, args ...any) error
	// lock serialises migrations of concurrent replicas (PostgreSQL); nil
	// when one process owns the database (SQLite).
	lock func(ctx context.Context) (unlock func(), err error)
	// tryLock takes the advisory lock key across replicas without
	// waiting (PostgreSQL); false when another holds it. nil when one
	// process owns the database.
	tryLock func(ctx context.Context, key int64) (unlock func(), ok bool, err error)
	close   func() error
}

type riverQueue[TTx any] struct {
	db     dbOps[TTx]
	client *river.Client[TTx]
	log    *slog.Logger
	// heads are the commits whose review this process is running
	// ([riverQueue.lockHead]).
	headsMu sync.Mutex
	heads   map[int64]bool
}

// Own schema, created after River's migrations. Plain SQL both databases
// accept; a later change adds statements guarded the same way.
var ownMigration = []string{
	`CREATE TABLE IF NOT EXISTS docreview_delivery (
		id TEXT PRIMARY KEY,
		event TEXT NOT NULL,
		received_at BIGINT NOT NULL
	)`,
	`CREATE INDEX IF NOT EXISTS docreview_delivery_received_at ON docreview_delivery (received_at)`,
	`CREATE TABLE IF NOT EXISTS docreview_pr_head (
		repo TEXT NOT NULL,
		pr BIGINT NOT NULL,
		head_sha TEXT NOT NULL,
		updated_at BIGINT NOT NULL,
		job_id BIGINT NOT NULL,
		PRIMARY KEY (repo, pr)
	)`,
	`CREATE INDEX IF NOT EXISTS docreview_pr_head_updated_at ON docreview_pr_head (updated_at)`,
}

// recordedAtColumn is docreview_pr_head.recorded_at, when the row was last
// written (Unix ms), added to databases created before it: heads are pruned
// by it, never by the event's updated_at, which can be months old for a
// pull request pushed to today.
const recordedAtColumn = `ALTER TABLE docreview_pr_head ADD COLUMN recorded_at BIGINT NOT NULL DEFAULT 0`

// hasColumnQuery counts the columns named $2 of table $1: one query per
// database, run outside a transaction.
var hasColumnQuery = map[string]string{
	"sqlite":   `SELECT COUNT(*) FROM pragma_table_info($1) WHERE name = $2`,
	"postgres": `SELECT COUNT(*) FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = $1 AND column_name = $2`,
}

func riverConfig(cfg Config, log *slog.Logger, w *reviewWorker) *river.Config {
	workers := river.NewWorkers()
	river.AddWorker(workers, w)
	return &river.Config{
		Queues:                      map[string]river.QueueConfig{river.QueueDefault: {MaxWorkers: cfg.Workers}},
		Workers:                     workers,
		MaxAttempts:                 maxAttempts,
		JobTimeout:                  cfg.JobTimeout,
		RescueStuckJobsAfter:        cfg.RescueAfter,
		CompletedJobRetentionPeriod: retention,
		FetchPollInterval:           fetchPollInterval,
		Logger:                      log.With("component", "river"),
	}
}

// newRiverQueue migrates the database and creates the River client.
func newRiverQueue[TTx any](ctx context.Context, driver riverdriver.Driver[TTx], db dbOps[TTx], cfg Config, log *slog.Logger, w *reviewWorker) (*riverQueue[TTx], error) {
	if db.lock != nil {
		unlock, err := db.lock(ctx)
		if err != nil {
			return nil, fmt.Errorf("lock for migration: %w", err)
		}
		defer unlock()
	}
	m, err := rivermigrate.New(driver, &rivermigrate.Config{Logger: log.With("component", "rivermigrate")})
	if err != nil {
		return nil, fmt.Errorf("river migrator: %w", err)
	}
	// Not MigrateTx: on PostgreSQL some of River's migrations add enum
	// values that later ones use, which needs one transaction each.
	if _, err := m.Migrate(ctx, rivermigrate.DirectionUp, nil); err != nil {
		return nil, fmt.Errorf("river migrations: %w", err)
	}
	tx, err := db.begin(ctx)
	if err != nil {
		return nil, fmt.Errorf("begin migration: %w", err)
	}
	for _, q := range ownMigration {
		if _, err := db.exec(ctx, tx, q); err != nil {
			_ = db.rollback(ctx, tx)
			return nil, fmt.Errorf("docreview migration: %w", err)
		}
	}
	if err := db.commit(ctx, tx); err != nil {
		return nil, fmt.Errorf("commit migrations: %w", err)
	}
	if err := addRecordedAt(ctx, db); err != nil {
		return nil, err
	}
	client, err := river.NewClient(driver, riverConfig(cfg, log, w))
	if err != nil {
		return nil, fmt.Errorf("river client: %w", err)
	}
	q := &riverQueue[TTx]{db: db, client: client, log: log, heads: map[int64]bool{}}
	w.q = q
	return q, nil
}

// addRecordedAt adds docreview_pr_head.recorded_at when the table lacks
// it. Rows written before have no write time: they get the migration's,
// so they are kept a full retention period from now.
func addRecordedAt[TTx any](ctx context.Context, db dbOps[TTx]) error {
	var n int
	if err := db.query(ctx, hasColumnQuery[db.kind], []any{&n}, "docreview_pr_head", "recorded_at"); err != nil {
		return fmt.Errorf("docreview migration: look for docreview_pr_head.recorded_at: %w", err)
	}
	if n > 0 {
		return nil
	}
	if err := db.execDB(ctx, recordedAtColumn); err != nil {
		return fmt.Errorf("docreview migration: add docreview_pr_head.recorded_at: %w", err)
	}
	if err := db.execDB(ctx, "UPDATE docreview_pr_head SET recorded_at = $1 WHERE recorded_at = 0", time.Now().UnixMilli()); err != nil {
		return fmt.Errorf("docreview migration: date the recorded heads: %w", err)
	}
	if err := db.execDB(ctx, "CREATE INDEX IF NOT EXISTS docreview_pr_head_recorded_at ON docreview_pr_head (recorded_at)"); err != nil {
		return fmt.Errorf("docreview migration: index docreview_pr_head.recorded_at: %w", err)
	}
	return nil
}

func (q *riverQueue[TTx]) name() string { return q.db.kind }

func (q *riverQueue[TTx]) start(ctx context.Context) error { return q.client.Start(ctx) }

func (q *riverQueue[TTx]) stop(ctx context.Context) error { return q.client.Stop(ctx) }

func (q *riverQueue[TTx]) stopAndCancel(ctx context.Context) error {
	return q.client.StopAndCancel(ctx)
}

func (q *riverQueue[TTx]) close() error { return q.db.close() }

func (q *riverQueue[TTx]) ping(ctx context.Context) error {
	var one int
	return q.db.query(ctx, "SELECT 1", []any{&one})
}

// prune deletes delivery ids received and head records written before the
// given times.
func (q *riverQueue[TTx]) prune(ctx context.Context, deliveriesBefore, headsBefore time.Time) error {
	if err := q.db.execDB(ctx, "DELETE FROM docreview_delivery WHERE received_at < $1", deliveriesBefore.UnixMilli()); err != nil {
		return fmt.Errorf("prune delivery ids: %w", err)
	}
	if err := q.db.execDB(ctx, "DELETE FROM docreview_pr_head WHERE recorded_at < $1", headsBefore.UnixMilli()); err != nil {
		return fmt.Errorf("prune pull request heads: %w", err)
	}
	return nil
}

func (q *riverQueue[TTx]) listJobs(ctx context.Context, limit int) ([]*rivertype.JobRow, error) {
	res, err := q.client.JobList(ctx, river.NewJobListParams().Kinds(reviewKind).First(limit))
	if err != nil {
		return nil, fmt.Errorf("list jobs: %w", err)
	}
	return res.Jobs, nil
}

// lockHead takes the head commit of a repository for one review at a
// time, in this process and, on PostgreSQL, across replicas, without
// waiting: pull requests that share a head (stacked branches, one branch
// opened twice) each publish the head's check run, and publishing checks
// for the run before creating it, which only holds when no other review
// of the head is between those two steps. false when another review of
// the head holds it. The lock dies with the process (its connection).
func (q *riverQueue[TTx]) lockHead(ctx context.Context, repo, head string) (func(), bool, error) {
	h := fnv.New64a()
	h.Write([]byte(repo + "@" + strings.ToLower(head)))
	key := int64(h.Sum64())
	q.headsMu.Lock()
	if q.heads[key] {
		q.headsMu.Unlock()
		return nil, false, nil
	}
	q.heads[key] = true
	q.headsMu.Unlock()
	local := func() {
		q.headsMu.Lock()
		delete(q.heads, key)
		q.headsMu.Unlock()
	}
	if q.db.tryLock == nil {
		return local, true, nil
	}
	unlock, ok, err := q.db.tryLock(ctx, key)
	if err != nil || !ok {
		local()
		return nil, false, err
	}
	return func() { unlock(); local() }, true, nil
}

func (q *riverQueue[TTx]) latestHead(ctx context.Context, repo string, pr int) (string, error) {
	var head string
	err := q.db.query(ctx, "SELECT head_sha FROM docreview_pr_head WHERE repo = $1 AND pr = $2", []any{&head}, repo, pr)
	if errors.Is(err, errNoRows) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("read latest head of %s#%d: %w", repo, pr, err)
	}
	return head, nil
}

// enqueue records the delivery id, the pull request's latest head and the
// job in one transaction; it cancels the waiting job of a head the new one
// supersedes. The job is durable when enqueue returns outQueued.
func (q *riverQueue[TTx]) enqueue(ctx context.Context, e prEvent) (_ outcome, err error) {
	tx, err := q.db.begin(ctx)
	if err != nil {
		return "", fmt.Errorf("begin: %w", err)
	}
	committed := false
	defer func() {
		if !committed {
			_ = q.db.rollback(context.WithoutCancel(ctx), tx)
		}
	}()
	n, err := q.db.exec(ctx, tx, "INSERT INTO docreview_delivery (id, event, received_at) VALUES ($1, $2, $3) ON CONFLICT (id) DO NOTHING",
		e.job.DeliveryID, e.event, time.Now().UnixMilli())
	if err != nil {
		return "", fmt.Errorf("record delivery id: %w", err)
	}
	if n == 0 {
		return outDuplicateDelivery, nil
	}
	repo := repoKey(e.job.Owner, e.job.Repo)
	var (
		prevHead    string
		prevUpdated int64
		prevJob     int64
		havePrev    bool
	)
	if !e.job.Rerun {
		err := q.db.queryRow(ctx, tx, "SELECT head_sha, updated_at, job_id FROM docreview_pr_head WHERE repo = $1 AND pr = $2",
			[]any{&prevHead, &prevUpdated, &prevJob}, repo, e.job.PR)
		switch {
		case errors.Is(err, errNoRows):
		case err != nil:
			return "", fmt.Errorf("read latest head: %w", err)
		default:
			havePrev = true
		}
		// An older event than the one recorded (a late redelivery) must not
		// replace a newer head. Equal times are not ordered: the later
		// arrival is recorded, and the API's head decides when the job
		// runs (a superseded job follows it, see [SupersededError]).
		if havePrev && !e.follow && e.updatedAt.UnixMilli() < prevUpdated && !strings.EqualFold(prevHead, e.job.HeadSHA) {
			if err := q.db.commit(ctx, tx); err != nil {
				return "", fmt.Errorf("commit: %w", err)
			}
			committed = true
			return outStale, nil
		}
	}
	res, err := q.client.InsertTx(ctx, tx, reviewArgs{Job: e.job, Key: jobKey(e.job)}, insertOpts(e.job))
	if err != nil {
		return "", fmt.Errorf("insert job: %w", err)
	}
	moved := havePrev && !strings.EqualFold(prevHead, e.job.HeadSHA)
	if !e.job.Rerun && (moved || e.follow) && res.UniqueSkippedAsDuplicate &&
		(res.Job.State == rivertype.JobStateCompleted || res.Job.State == rivertype.JobStateRunning) {
		// The head went back to one reviewed before (a force-push back,
		// or the API's head after a superseded job), or being reviewed
		// and maybe published already, before the head moved away: review
		// it again, so that the summary and check run name it, under a key
		// of its own. A follow always does: the superseded job may have
		// published after the head's own review did, even when no other
		// head was recorded in between.
		res, err = q.client.InsertTx(ctx, tx, reviewArgs{Job: e.job, Key: jobKey(e.job) + "@" + e.job.DeliveryID}, insertOpts(e.job))
		if err != nil {
			return "", fmt.Errorf("insert job: %w", err)
		}
	}
	if !e.job.Rerun {
		_, err := q.db.exec(ctx, tx, `INSERT INTO docreview_pr_head (repo, pr, head_sha, updated_at, job_id, recorded_at) VALUES ($1, $2, $3, $4, $5, $6)
			ON CONFLICT (repo, pr) DO UPDATE SET head_sha = excluded.head_sha, updated_at = excluded.updated_at, job_id = excluded.job_id, recorded_at = excluded.recorded_at`,
			repo, e.job.PR, strings.ToLower(e.job.HeadSHA), max(e.updatedAt.UnixMilli(), prevUpdated), res.Job.ID, time.Now().UnixMilli())
		if err != nil {
			return "", fmt.Errorf("record latest head: %w", err)
		}
		if moved && prevJob != 0 && prevJob != res.Job.ID {
			if err := q.cancelWaiting(ctx, tx, prevJob); err != nil {
				return "", err
			}
		}
	}
	if err := q.db.commit(ctx, tx); err != nil {
		return "", fmt.Errorf("commit: %w", err)
	}
	committed = true
	if res.UniqueSkippedAsDuplicate {
		return outDuplicateJob, nil
	}
	return outQueued, nil
}

// follow queues a review of head for the pull request of j, the job
// jobID that found the API's head to be head, not its own: the delivery
// that queued head may have been ordered before j's (equal updated_at
// times) and its job cancelled. A head already reviewed is reviewed again
// (the summary names the last review). The synthetic delivery id makes a
// retried follow a no-op.
func (q *riverQueue[TTx]) follow(ctx context.Context, j Job, jobID int64, head, base string) (outcome, error) {
	next := Job{
		InstallationID: j.InstallationID, Owner: j.Owner, Repo: j.Repo, PR: j.PR,
		HeadSHA: head, BaseSHA: base, DeliveryID: fmt.Sprintf("follow-%d-%s", jobID, strings.ToLower(head)),
	}
	return q.enqueue(ctx, prEvent{job: next, event: "follow", follow: true})
}

// cancelWaiting cancels job id if it has not started; a running job is left
// to finish (its worker checked the head before it started).
func (q *riverQueue[TTx]) cancelWaiting(ctx context.Context, tx TTx, id int64) error {
	row, err := q.client.JobGetTx(ctx, tx, id)
	if errors.Is(err, river.ErrNotFound) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("get superseded job %d: %w", id, err)
	}
	switch row.State {
	case rivertype.JobStateAvailable, rivertype.JobStateScheduled, rivertype.JobStateRetryable, rivertype.JobStatePending:
		if _, err := q.client.JobCancelTx(ctx, tx, id); err != nil {
			return fmt.Errorf("cancel superseded job %d: %w", id, err)
		}
		q.log.InfoContext(ctx, "superseded job cancelled", "job_id", id)
	}
	return nil
}

// sqliteDSN is the modernc.org/sqlite data source for path: WAL, a busy
// timeout, FULL sync so a committed job survives power loss, and write
// transactions that take the write lock at BEGIN.
func sqliteDSN(path string) string {
	v := url.Values{}
	v.Add("_pragma", fmt.Sprintf("busy_timeout(%d)", sqliteBusyTimeout))
	v.Add("_pragma", "journal_mode(WAL)")
	v.Add("_pragma", "synchronous(FULL)")
	v.Set("_txlock", "immediate")
	return "file:" + path + "?" + v.Encode()
}

func openSQLite(ctx context.Context, cfg Config, log *slog.Logger, w *reviewWorker) (queue, error) {
	if err := os.MkdirAll(cfg.DataDir, 0o750); err != nil {
		return nil, fmt.Errorf("create data directory: %w", err)
	}
	// One server owns a SQLite queue: the lock makes a second one on the
	// same data directory fail, and lets this one treat every job left
	// running as orphaned by a crash.
	release, lockErr := lockDataDir(filepath.Join(cfg.DataDir, sqliteFile+".lock"))
	switch {
	case errors.Is(lockErr, errDataDirInUse):
		return nil, fmt.Errorf("data directory %s: another docreview serve uses its queue (give each replica its own --data-dir, or share a PostgreSQL queue with --database)", cfg.DataDir)
	case errors.Is(lockErr, errNoLock):
		release = func() {}
	case lockErr != nil:
		return nil, fmt.Errorf("lock the data directory: %w", lockErr)
	}
	path := filepath.Join(cfg.DataDir, sqliteFile)
	db, err := sql.Open("sqlite", sqliteDSN(path))
	if err != nil {
		release()
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	// One connection, as River's SQLite driver advises: SQLite allows one
	// writer, and River's parallel operations would otherwise hit SQLITE_BUSY.
	db.SetMaxOpenConns(1)
	db.SetConnMaxIdleTime(0)
	db.SetConnMaxLifetime(0)
	if err := db.PingContext(ctx); err != nil {
		_ = db.Close()
		release()
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	rebind := func(q string) string { return strings.ReplaceAll(q, "$", "?") } // $n -> ?n
	ops := dbOps[*sql.Tx]{
		kind:     "sqlite",
		begin:    func(ctx context.Context) (*sql.Tx, error) { return db.BeginTx(ctx, nil) },
		commit:   func(_ context.Context, tx *sql.Tx) error { return tx.Commit() },
		rollback: func(_ context.Context, tx *sql.Tx) error { return tx.Rollback() },
		exec: func(ctx context.Context, tx *sql.Tx, q string, args ...any) (int64, error) {
			res, err := tx.ExecContext(ctx, rebind(q), args...)
			if err != nil {
				return 0, err
			}
			return res.RowsAffected()
		},
		queryRow: func(ctx context.Context, tx *sql.Tx, q string, dest []any, args ...any) error {
			return sqlNoRows(tx.QueryRowContext(ctx, rebind(q), args...).Scan(dest...))
		},
		query: func(ctx context.Context, q string, dest []any, args ...any) error {
			return sqlNoRows(db.QueryRowContext(ctx, rebind(q), args...).Scan(dest...))
		},
		execDB: func(ctx context.Context, q string, args ...any) error {
			_, err := db.ExecContext(ctx, rebind(q), args...)
			return err
		},
		close: func() error {
			err := db.Close()
			release()
			return err
		},
	}
	q, err := newRiverQueue(ctx, riversqlite.New(db), ops, cfg, log, w)
	if err != nil {
		_ = ops.close()
		return nil, err
	}
	if lockErr == nil {
		// Holding the lock, this process is the queue's only worker: a
		// job still marked running was left by a process that died (kill
		// -9, power loss). Make it available now rather than after
		// River's rescuer notices, RescueAfter later.
		res, err := db.ExecContext(ctx, `UPDATE river_job SET state = 'available' WHERE state = 'running'`)
		if err != nil {
			_ = ops.close()
			return nil, fmt.Errorf("recover the jobs of a crashed server: %w", err)
		}
		if n, _ := res.RowsAffected(); n > 0 {
			log.Warn("jobs left running by a stopped server made available again", "jobs", n)
		}
	}
	return q, nil
}

// errDataDirInUse and errNoLock are lockDataDir's outcomes besides
// success and I/O errors.
var (
	errDataDirInUse = errors.New("data directory in use")
	errNoLock       = errors.New("file locks not supported")
)

func sqlNoRows(err error) error {
	if errors.Is(err, sql.ErrNoRows) {
		return errNoRows
	}
	return err
}

func pgxNoRows(err error) error {
	if errors.Is(err, pgx.ErrNoRows) {
		return errNoRows
	}
	return err
}

// migrationLockKey is the pg_advisory_lock key serialising docreview's
// migrations across replicas ("docrevw" as an int64).
const migrationLockKey = 0x646f6372657677

func openPostgres(ctx context.Context, cfg Config, log *slog.Logger, w *reviewWorker) (queue, error) {
	pool, err := pgxpool.New(ctx, cfg.DatabaseURL)
	if err != nil {
		return nil, fmt.Errorf("connect to PostgreSQL: %w", err)
	}
	if err := pool.Ping(ctx); err != nil {
		pool.Close()
		return nil, fmt.Errorf("connect to PostgreSQL: %w", err)
	}
	ops := dbOps[pgx.Tx]{
		kind:     "postgres",
		begin:    func(ctx context.Context) (pgx.Tx, error) { return pool.Begin(ctx) },
		commit:   func(ctx context.Context, tx pgx.Tx) error { return tx.Commit(ctx) },
		rollback: func(ctx context.Context, tx pgx.Tx) error { return tx.Rollback(ctx) },
		exec: func(ctx context.Context, tx pgx.Tx, q string, args ...any) (int64, error) {
			tag, err := tx.Exec(ctx, q, args...)
			if err != nil {
				return 0, err
			}
			return tag.RowsAffected(), nil
		},
		queryRow: func(ctx context.Context, tx pgx.Tx, q string, dest []any, args ...any) error {
			return pgxNoRows(tx.QueryRow(ctx, q, args...).Scan(dest...))
		},
		query: func(ctx context.Context, q string, dest []any, args ...any) error {
			return pgxNoRows(pool.QueryRow(ctx, q, args...).Scan(dest...))
		},
		execDB: func(ctx context.Context, q string, args ...any) error {
			_, err := pool.Exec(ctx, q, args...)
			return err
		},
		lock: func(ctx context.Context) (func(), error) {
			conn, err := pool.Acquire(ctx)
			if err != nil {
				return nil, err
			}
			if _, err := conn.Exec(ctx, "SELECT pg_advisory_lock($1)", int64(migrationLockKey)); err != nil {
				conn.Release()
				return nil, err
			}
			return func() {
				_, _ = conn.Exec(context.WithoutCancel(ctx), "SELECT pg_advisory_unlock($1)", int64(migrationLockKey))
				conn.Release()
			}, nil
		},
		tryLock: func(ctx context.Context, key int64) (func(), bool, error) {
			conn, err := pool.Acquire(ctx)
			if err != nil {
				return nil, false, err
			}
			var ok bool
			if err := conn.QueryRow(ctx, "SELECT pg_try_advisory_lock($1)", key).Scan(&ok); err != nil || !ok {
				conn.Release()
				return nil, false, err
			}
			return func() {
				_, _ = conn.Exec(context.WithoutCancel(ctx), "SELECT pg_advisory_unlock($1)", key)
				conn.Release()
			}, true, nil
		},
		close: func() error { pool.Close(); return nil },
	}
	q, err := newRiverQueue(ctx, riverpgxv5.New(pool), ops, cfg, log, w)
	if err != nil {
		pool.Close()
		return nil, err
	}
	return q, nil
}
