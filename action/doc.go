// Package action runs docreview as a GitHub Action: it reads the Actions
// environment and the triggering event once, makes sure the commits the
// review needs are in the checkout, reviews the pull request's head
// against its merge base, and publishes the report with review/github,
// falling back to workflow-command annotations and the job summary when
// the token cannot write (pull requests from forks).
//
// It never builds or runs the pull request's code: the files are read from
// git objects, which is what makes the pull_request_target event usable
// (with its caveat: the workflow must not check out and run the head
// either).
package action
