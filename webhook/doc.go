// Package webhook is docreview's GitHub App server: it verifies and routes
// webhook deliveries, stores a review job durably in a River queue, and runs
// the jobs with a [Runner] on bounded workers.
//
// Usage (cmd/docreview serve wires it like this):
//
//	srv, err := webhook.NewServer(ctx, webhook.Config{
//		DataDir: dataDir,            // SQLite queue at DataDir/queue.db
//		DatabaseURL: databaseURL,    // or PostgreSQL, shared by replicas
//		Secret: []byte(secret),      // required
//		Runner: runner,              // webhook/app.Runner: fetch, review, publish
//		Logger: logger,
//		Registry: registry,          // the Runner's metrics go here too
//	})
//	if err != nil { ... }
//	if err := srv.Start(ctx); err != nil { ... }
//	hs := &http.Server{Addr: addr, Handler: srv.Handler()}
//	go hs.ListenAndServe()
//	<-ctx.Done()                     // SIGTERM
//	hs.Shutdown(shutdownCtx)         // stop accepting
//	srv.Shutdown(shutdownCtx)        // finish or release in-flight jobs, close the queue
//
// # Deliveries
//
// POST /webhook reads at most [Config.MaxBody] bytes (413 above), verifies
// X-Hub-Signature-256 (HMAC-SHA256 of the raw body with [Config.Secret],
// compared in constant time; 401 when missing or wrong), requires
// X-GitHub-Event and X-GitHub-Delivery (400), and parses the payload with
// go-github (400 for malformed JSON). It answers 202 "queued" only after the
// transaction that stores the job and the delivery id has committed, and 200
// for deliveries that need no job: ignored actions, drafts (unless
// [Config.ReviewDrafts]), pings, installation events, a redelivered
// X-GitHub-Delivery id ("duplicate delivery"), and a head that already has a
// job ("duplicate job"). The body of every answer is the outcome, one word.
//
// Events that queue a [Job]:
//
//   - pull_request opened, synchronize, reopened and ready_for_review, with
//     the head and base SHAs of the payload.
//   - issue_comment created on a pull request whose first word is
//     /docreview, from a user whose author_association is OWNER, MEMBER or
//     COLLABORATOR: a [Job] with Rerun set and HeadSHA "" (the payload does
//     not carry the head; the Runner resolves the pull request's current
//     head). "/docreview dismiss <reason>" queues the same re-run: the
//     publisher reads dismissals from the comment threads.
//   - pull_request_review_comment created as a reply whose first words
//     are "/docreview dismiss", from the same authors: the same re-run, so
//     that the dismissal shows at once.
//
// The author_association check is used instead of an API call for the
// commenter's permission (GET /repos/{o}/{r}/collaborators/{u}/permission)
// because it needs no token and no network round trip in the 100 ms the
// handler has. It is conservative: a user with write access through a team
// but no direct collaboration shows up as MEMBER of the organisation (kept);
// outside collaborators are COLLABORATOR (kept); CONTRIBUTOR and NONE, who
// may lack write access, are refused with 200 "forbidden". A re-run only
// re-reviews, so a wrongly refused user can push or ask a maintainer.
//
// installation and installation_repositories deliveries are logged and
// counted; they queue nothing.
//
// # Queue
//
// Jobs live in River (github.com/riverqueue/river): SQLite (modernc.org/sqlite,
// one open connection, WAL, synchronous=FULL) at DataDir/queue.db by default,
// PostgreSQL through pgx when [Config.DatabaseURL] is set, so several replicas
// share one queue. [NewServer] runs River's migrations, then docreview's own
// (tables docreview_delivery and docreview_pr_head), under a PostgreSQL
// advisory lock so replicas starting together do not race.
//
//   - A job of kind "review" is unique by (repository, pull request, head SHA)
//     in the states available, pending, scheduled, running, retryable and
//     completed: two deliveries for the same head give one review, also when
//     the first has finished (completed jobs are kept 7 days). A re-run is
//     unique by (repository, pull request) only while one is queued or
//     running, so it bypasses completed reviews of the same head.
//   - Every X-GitHub-Delivery id that queued a job is stored in the same
//     transaction as the job, so a redelivery is a no-op. Ids are kept 7 days.
//   - The latest head of each pull request is recorded with the job. A newer
//     push cancels the queued job of the previous head, and a worker about to
//     run a job whose head is no longer the latest cancels it as superseded.
//     Out-of-order deliveries are ordered by the pull request's updated_at:
//     an older event than the recorded one is "stale". Equal times cannot be
//     ordered, so the API decides: a Runner that finds the pull request's
//     head is not its job's returns a [SupersededError], and the worker
//     queues a review of that head (unless one is waiting) before cancelling
//     its own job. The app's Runner asks again after its review, before it
//     publishes: a push during a long review makes the reviewed head an old
//     one, whose summary must not land after the new head's. It asks once
//     more after publishing: a publication slowed by retries may land after
//     the new head's, so that head is queued again, even when its review is
//     complete. A push back to a head reviewed before (a force-push back)
//     reviews it again, so the summary names the current head. Head records
//     are pruned 90 days after they were written, never by the event's time.
//   - Reviews of one head commit of a repository run one at a time: pull
//     requests that share a head each publish the head's check run, and a
//     publication looks for the run before creating one, which holds only
//     when no other review of the head is between those steps. A worker
//     takes the head in its process and, on PostgreSQL, with an advisory
//     lock across replicas (freed with the process's connection), or
//     snoozes its job for two seconds.
//   - A Runner error is retried with River's backoff (attempt⁴ seconds plus
//     jitter), at most 5 attempts. A job interrupted by [Server.Shutdown] is
//     snoozed, not failed, and runs again at the next start. A job whose
//     process died is rescued by River after [Config.RescueAfter] and runs
//     again; exactly one published review per head is then the publisher's
//     business (it is idempotent).
//
// # Fairness
//
// [Config.Workers] jobs run at once per process, and at most
// [Config.PerInstallation] of them for one installation. A job that finds its
// installation's slots taken is snoozed for a few seconds, so the worker
// serves other installations meanwhile. GitHub rate limits are the Runner's
// business (it waits before calling GitHub).
//
// # Operations
//
// GET /healthz answers 200 while the process is up; GET /readyz answers 200
// when the queue database answers a query within 2 s, 503 otherwise and
// during shutdown. GET /metrics serves the Prometheus registry: see
// [Server.Registry] for the metric names and for where the Runner registers
// its own (docreview_github_*, docreview_model_tokens_total).
package webhook
