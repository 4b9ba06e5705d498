// Package frames reads frames.
package frames

// frameHeaderLen is the length of a frame's header.
const frameHeaderLen = 8

// frameTrailerLen is the length of a frame's trailer.
const frameTrailerLen = 8

// Frame is one message on the wire, after the frame header (16 bytes).
type Frame struct{}

// Trailer ends a frame; the frame trailer is 8 bytes.
type Trailer struct{}

// Send sends 5 requests at once.
func Send() {}

// codeReserved is never sent: 1005 is reserved by the protocol.
const codeReserved = 1004

const closeProtocolError = 1002

// Reject replies with a close frame carrying status 1003.
func Reject() int { return closeProtocolError }

const walkSteps = 3

// Walk takes 4 hops.
func Walk() int { return walkSteps * 4 }
