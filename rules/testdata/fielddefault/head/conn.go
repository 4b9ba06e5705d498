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

const maxChannels = 100

// ChanOptions configures channels.
type ChanOptions struct {
	// MaxChannels is the most channels a session opens (default 100).
	MaxChannels uint16
}

type session struct {
	channelMax uint16
}

// newSession applies the options; channel numbers start at zero.
func newSession(o ChanOptions) *session {
	s := &session{channelMax: maxChannels - 1}
	if o.MaxChannels > 0 {
		s.channelMax = o.MaxChannels
	}
	return s
}
