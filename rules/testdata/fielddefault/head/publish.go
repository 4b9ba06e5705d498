package cluster

// PublishOpt configures a publisher.
type PublishOpt interface {
	configurePublisher(o *publisherOpts) error
}

// FlowControl sets the publisher's flow control.
type FlowControl struct {
	// Flow is how many messages go out between acks.
	// Default: 100
	Flow uint16

	// MaxPending is the most unacknowledged messages.
	// Default: 2
	MaxPending uint16
}

type publisherOpts struct {
	flow       uint16
	maxPending uint16
}

const (
	defaultFastFlow       = 200
	defaultMaxPendingAcks = 2
)

func (fc FlowControl) configurePublisher(o *publisherOpts) error {
	if fc.Flow > 0 {
		o.flow = fc.Flow
	}
	if fc.MaxPending > 0 {
		o.maxPending = fc.MaxPending
	}
	return nil
}

// Publisher publishes in batches.
type Publisher struct {
	opts publisherOpts
}

// NewPublisher applies opts over the defaults.
func NewPublisher(opts ...PublishOpt) (*Publisher, error) {
	o := publisherOpts{
		flow:       defaultFastFlow,
		maxPending: defaultMaxPendingAcks,
	}
	for _, opt := range opts {
		if err := opt.configurePublisher(&o); err != nil {
			return nil, err
		}
	}
	return &Publisher{opts: o}, nil
}
