package kv

// sweeper collects keys marked for deletion and deletes them in batches.
type sweeper struct {
	pending map[string]bool
	due     bool
	remove  func([]string)
}

func newSweeper(remove func([]string)) *sweeper {
	return &sweeper{pending: map[string]bool{}, remove: remove}
}

// mark queues keys for the next run.
func (s *sweeper) mark(keys []string) {
	for _, k := range keys {
		s.pending[k] = true
	}
	s.schedule()
}

// schedule records that a run is due.
func (s *sweeper) schedule() {
	s.due = true
}

// run deletes every queued key in one batch.
func (s *sweeper) run() {
	keys := make([]string, 0, len(s.pending))
	for k := range s.pending {
		keys = append(keys, k)
	}
	s.remove(keys)
	s.pending = map[string]bool{}
	s.due = false
}
