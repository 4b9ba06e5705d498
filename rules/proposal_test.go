package rules

import (
	"testing"
	"testing/fstest"

	"github.com/docreview/docreview/review"
)

func TestProposals(t *testing.T) {
	files := fstest.MapFS{
		"design/mrtr.md":        {Data: []byte("# Multi round trip\n\n## Proposal\n\n```go\nclient.CallTool(ctx)\n```\n\n## Alternatives considered\n\nNone.\n")},
		"docs/rfc-retries.md":   {Data: []byte("# Retries\n\n### 3. Alternatives considered\n\nA queue.\n")},
		"docs/libraries.md":     {Data: []byte("# Libraries\n\n## Alternatives\n\nOther validators.\n")},
		"docs/README.md":        {Data: []byte("# Docs\n\n## Proposal\n\nA README is never a proposal.\n")},
		"docs/design/queue.md":  {Data: []byte("# The queue\n\nJobs are stored in PostgreSQL.\n\n## Retries\n")},
		"docs/design/plan.md":   {Data: []byte("# Plan modification\n\n## Background\n\n## Prior Implementations\n\n## Proposals\n")},
		"docs/design/art.md":    {Data: []byte("# Validation\n\n## Prior art\n\nThe SDK's helper/schema.\n")},
		"docs/design/mods.md":   {Data: []byte("# Modifying plans\n\n## Solution options\n\n### 1. ModifyPlan\n")},
		"docs/history.md":       {Data: []byte("# History\n\nThe prior art of this library is described below.\n")},
		"README.md":             {Data: []byte("# Cache\n\nThe proposal below was accepted:\n\n## Usage\n\n```go\nc := cache.New()\n```\n")},
		"docs/guide.md":         {Data: []byte("# Guide\n\n## Alternatives to polling\n\nUse Watch.\n")},
		"proposal.go":           {Data: []byte("package p\n\n// ## Proposal\n")},
		"RATIONALE.md":          {Data: []byte("# Notes on rationale\n\n## Why aren't options functions?\n")},
		"docs/pubsub/design.md": {Data: []byte("# pubsub design\n\n## Alternative designs considered\n")},
		"docs/queue/design.md":  {Data: []byte("# queue design\n\n## Goals\n\n## Non-goals\n")},
	}
	ws := &review.Workspace{HeadFS: files}
	var pr proposals
	for p, want := range map[string]bool{
		"design/mrtr.md":        true,
		"docs/rfc-retries.md":   true,
		"docs/design/queue.md":  false,
		"docs/design/plan.md":   true,
		"docs/design/art.md":    true,
		"docs/design/mods.md":   true,
		"docs/history.md":       false,
		"README.md":             false,
		"docs/guide.md":         false,
		"docs/libraries.md":     false,
		"docs/README.md":        false,
		"proposal.go":           false,
		"docs/missing.md":       false,
		"RATIONALE.md":          true,
		"docs/pubsub/design.md": true,
		"docs/queue/design.md":  true,
	} {
		if got := pr.is(ws, p); got != want {
			t.Errorf("proposals.is(%q) = %v, want %v", p, got, want)
		}
	}
}
