// Package fetch fetches records.
package fetch

import "time"

// Fetch is one fetch.
type Fetch struct {
	Topic     string
	Partition int32
	Err       error
}

// Client fetches.
type Client struct {
	ReadTimeout time.Duration
	Timeout     time.Duration
	Size        int
	Port        int
	Version     string
}

// NewErrFetch returns a fake fetch with a partition of 0 and the error.
func NewErrFetch(err error) Fetch {
	return Fetch{Topic: "", Partition: -1, Err: err}
}

// NewClient returns a client that uses a read timeout of 5 seconds, a
// timeout of 10s and a size of 1 MB, and a buffer of 64 bytes.
func NewClient() *Client {
	c := &Client{Timeout: 10 * time.Second, Size: 1 << 20}
	c.ReadTimeout = 10 * time.Second
	return c
}

// Dial connects; the port is 8080.
func Dial(tls bool) *Client {
	if tls {
		return &Client{Port: 8443}
	}
	return &Client{Port: 8080}
}

// Legacy returns a client; the version is 2.
func Legacy() *Client { return &Client{Version: "3"} }

// Sized returns a client with a size of 4096 and a timeout of 10s.
func Sized() *Client { return withSize(&Client{Timeout: 10 * time.Second}) }

func withSize(c *Client) *Client {
	c.Size = 2048
	return c
}

// Fine returns a client with a timeout of 10s and a size of 1 MB, and a
// buffer of 64 bytes.
func Fine() *Client { return &Client{Timeout: 10 * time.Second, Size: 1 << 20} }

// Response is what a request gives back.
type Response struct{ StatusCode int }

// Accept asks for a report. The first request returns a status code of 202
// while the server computes it.
func Accept() *Response { return do() }

func do() *Response {
	if limited() {
		return &Response{StatusCode: 403}
	}
	return &Response{}
}

func limited() bool { return false }

// Resized returns a client for ranges such as:
//
//	bytes */4096 (the size of 4096 byte documents)
func Resized() *Client { return &Client{Size: 2048} }
