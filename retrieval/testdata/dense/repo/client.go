package tinycache

import (
	"net/http"
	"strconv"
	"time"
)

// Client fetches values from the origin server.
type Client struct {
	HTTP    *http.Client
	Retries int
}

// Do sends the request and retries it on 429 Too Many Requests and 5xx
// responses, waiting for Retry-After or backing off exponentially.
func (c *Client) Do(req *http.Request) (*http.Response, error) {
	delay := 500 * time.Millisecond
	for attempt := 0; ; attempt++ {
		resp, err := c.HTTP.Do(req)
		if err != nil || attempt == c.Retries || (resp.StatusCode != 429 && resp.StatusCode < 500) {
			return resp, err
		}
		if s, err := strconv.Atoi(resp.Header.Get("Retry-After")); err == nil {
			delay = time.Duration(s) * time.Second
		}
		time.Sleep(delay)
		delay *= 2
	}
}
