package cluster

// KeyframeArgs are the arguments of a keyframe request.
type KeyframeArgs struct {
	// Threshold is the scene-change sensitivity. When omitted (0.0) the
	// service uses a default of 0.3.
	Threshold float64
	// Limit caps the keyframes returned. Default: 10.
	Limit int
}

// NewKeyframeArgs returns the arguments with every field unset.
func NewKeyframeArgs() *KeyframeArgs {
	s := new(KeyframeArgs)
	s.Threshold = 0.0
	s.Limit = 0
	return s
}
