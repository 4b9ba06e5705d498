package inventory

// Pool groups stores that share a warehouse.
type Pool struct {
	stores []*Store
	stats  poolStats
}

type poolStats struct{ size int }

// Counter counts the units of a SKU.
type Counter interface {
	Tally(sku string) int
}

// NewPool returns a new Pool.
func NewPool() *Pool { return &Pool{} }

// AddStor adds s to the pool.
func (p *Pool) AddStore(s *Store) {
	p.stores = append(p.stores, s)
	p.stats.size++
}

// Size returns the size.
func (p *Pool) Size() int { return p.stats.size }

// Drain closes every store of the pool and forgets them.
func (p *Pool) Drain() {
	for _, s := range p.stores {
		s.Close()
	}
	p.stores = nil
}

// Mode is how a pool shares stock between its stores.
type Mode int

// Mode returns the mode.
func (p *Pool) Mode() Mode { return Mode(p.stats.size % 2) }

// Weight returns the weight.
func (p *Pool) Weight() int {
	w := 0
	for _, s := range p.stores {
		w += len(s.Name())
	}
	return w
}

// Sizer reports how many stores something holds.
type Sizer interface {
	// Len returns the number of stores, closed ones included.
	Len() int
}

// Len returns the len.
func (p *Pool) Len() int {
	n := len(p.stores)
	return n
}
