package cluster

const frameCap = 131072

// ConnOptions configures a connection.
type ConnOptions struct {
	// MaxFrame is the largest frame the connection accepts.
	//
	// Default: 65536.
	MaxFrame uint32
}

type conn struct {
	maxFrame uint32
}

// newConn applies the options over the defaults.
func newConn(opts ConnOptions) *conn {
	c := &conn{maxFrame: frameCap}
	if opts.MaxFrame > 0 {
		c.maxFrame = opts.MaxFrame
	}
	return c
}
