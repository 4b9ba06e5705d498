package cache

import "time"

// sweepInterval is how often the sweeper runs.
const sweepInterval = 30 * time.Second

// max_retry_count bounds how often the sweeper retries a locked shard.
var max_retry_count = 3

// sweep deletes the entries that are marked expired.
func (c *Cache) sweep() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for k, e := range c.entries {
		if e.expired {
			delete(c.entries, k)
		}
	}
}
