package webhook

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/riverqueue/river"
)

// headQueue is what the worker needs from the queue.
type headQueue interface {
	latestHead(ctx context.Context, repo string, pr int) (string, error)
	lockHead(ctx context.Context, repo, head string) (unlock func(), ok bool, err error)
	follow(ctx context.Context, j Job, jobID int64, head, base string) (outcome, error)
}

// reviewWorker runs review jobs: it skips superseded heads, takes an
// installation slot, and calls the Runner.
type reviewWorker struct {
	river.WorkerDefaults[reviewArgs]
	s *Server
	q headQueue // set by newRiverQueue
}

// Work runs one attempt of a review job.
func (w *reviewWorker) Work(ctx context.Context, j *river.Job[reviewArgs]) error {
	job := j.Args.Job
	s := w.s
	log := s.log.With("delivery_id", job.DeliveryID, "repo", job.Owner+"/"+job.Repo, "pr", job.PR,
		"head", job.HeadSHA, "job_id", j.ID, "attempt", j.Attempt, "rerun", job.Rerun)

	if job.HeadSHA != "" {
		latest, err := w.q.latestHead(ctx, repoKey(job.Owner, job.Repo), job.PR)
		if err != nil {
			return fmt.Errorf("check head of %s/%s#%d: %w", job.Owner, job.Repo, job.PR, err)
		}
		if latest != "" && !strings.EqualFold(latest, job.HeadSHA) {
			s.metrics.jobs.WithLabelValues(jobSuperseded).Inc()
			log.InfoContext(ctx, "job superseded by a newer push", "latest_head", latest)
			// Cancelled rather than completed: a completed job would keep
			// its head unique, and a force-push back to it could not queue.
			return river.JobCancel(fmt.Errorf("superseded: head moved on to %s", latest))
		}
	}

	if !s.slots.tryAcquire(job.InstallationID) {
		s.metrics.jobs.WithLabelValues(jobSnoozed).Inc()
		log.DebugContext(ctx, "installation at its job limit; snoozing", "installation_id", job.InstallationID)
		return river.JobSnooze(slotSnooze)
	}
	defer s.slots.release(job.InstallationID)

	if job.HeadSHA != "" {
		unlock, ok, err := w.q.lockHead(ctx, repoKey(job.Owner, job.Repo), job.HeadSHA)
		if err != nil {
			return fmt.Errorf("lock head %s of %s/%s: %w", job.HeadSHA, job.Owner, job.Repo, err)
		}
		if !ok {
			s.metrics.jobs.WithLabelValues(jobSnoozed).Inc()
			log.DebugContext(ctx, "another review of this head is running; snoozing")
			return river.JobSnooze(headSnooze)
		}
		defer unlock()
	}

	s.metrics.queueLatency.Observe(max(time.Since(j.ScheduledAt), 0).Seconds())
	s.metrics.jobs.WithLabelValues(jobStarted).Inc()
	s.metrics.running.Inc()
	log.InfoContext(ctx, "review started")
	start := time.Now()
	err := s.cfg.Runner.Run(ctx, job)
	elapsed := time.Since(start)
	s.metrics.running.Dec()
	if err == nil {
		s.metrics.duration.WithLabelValues("ok").Observe(elapsed.Seconds())
		s.metrics.jobs.WithLabelValues(jobCompleted).Inc()
		log.InfoContext(ctx, "review done", "duration", elapsed)
		return nil
	}
	s.metrics.duration.WithLabelValues("error").Observe(elapsed.Seconds())
	var sup *SupersededError
	if errors.As(err, &sup) && sup.Head != "" && !strings.EqualFold(sup.Head, job.HeadSHA) {
		// The API's head decides: make sure it is reviewed, then cancel
		// this one. A failure to queue it is retried with this job.
		out, ferr := w.q.follow(ctx, job, j.ID, sup.Head, sup.Base)
		if ferr != nil {
			log.ErrorContext(ctx, "queue the head that superseded this job", "api_head", sup.Head, "err", ferr)
			return fmt.Errorf("queue head %s after superseded job: %w", sup.Head, ferr)
		}
		s.metrics.jobs.WithLabelValues(jobSuperseded).Inc()
		if out == outQueued {
			s.metrics.jobs.WithLabelValues(jobEnqueued).Inc()
		}
		log.InfoContext(ctx, "job superseded by the pull request's head", "api_head", sup.Head, "follow", out)
		return river.JobCancel(fmt.Errorf("superseded: the pull request's head is %s", sup.Head))
	}
	if s.stopping.Load() && ctx.Err() != nil {
		// Interrupted by Shutdown: back to the queue without spending an
		// attempt; the next start (or another replica) runs it.
		s.metrics.jobs.WithLabelValues(jobReleased).Inc()
		log.WarnContext(ctx, "review interrupted by shutdown; released", "err", err)
		return river.JobSnooze(0)
	}
	if j.Attempt >= j.MaxAttempts {
		s.metrics.jobs.WithLabelValues(jobDiscarded).Inc()
		log.ErrorContext(ctx, "review failed; no attempts left", "err", err, "duration", elapsed)
	} else {
		s.metrics.jobs.WithLabelValues(jobRetried).Inc()
		log.WarnContext(ctx, "review failed; will retry", "err", err, "duration", elapsed)
	}
	return fmt.Errorf("run review of %s/%s#%d: %w", job.Owner, job.Repo, job.PR, err)
}
