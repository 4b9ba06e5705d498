// Package s3 is the bucket service's client.
package s3

import "example.com/sdk/v2/aws"

// Client calls the bucket service.
type Client struct{ cfg aws.Config }

// NewFromConfig returns a client configured by cfg.
func NewFromConfig(cfg aws.Config) *Client { return &Client{cfg} }
