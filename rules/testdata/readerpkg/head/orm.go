// Package orm generates the data layer of a schema.
package orm

// Client reaches the database.
type Client struct{}

// Open opens a client.
func Open() *Client { return &Client{} }
