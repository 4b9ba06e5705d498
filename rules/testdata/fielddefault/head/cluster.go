// Package cluster connects to a cluster.
package cluster

import "time"

// ClusterConfig configures a connection to a cluster.
type ClusterConfig struct {
	// Port is the port the nodes listen on.
	// Default: 9042
	Port int
	// NumConns is the number of connections per host.
	// Default: 2
	NumConns int
	// Timeout bounds a query. It defaults to 600ms.
	Timeout time.Duration
	// PageSize is the default page size.
	// Default: 5000
	PageSize int
	// Retries is how many times a query is retried (default 3).
	Retries int
}

// NewCluster returns a configuration with the defaults.
func NewCluster(hosts ...string) *ClusterConfig {
	return &ClusterConfig{
		Port:     9043,
		Timeout:  11 * time.Second,
		PageSize: 5000, // rows
		Retries:  3,
	}
}

// fill sets the defaults of unset fields.
func (c *ClusterConfig) fill() {
	if c.NumConns == 0 {
		c.NumConns = 4
	}
}

// Connect connects with retries.
func (c *ClusterConfig) Connect() {
	c.Retries = 5
}

// Session talks to a node.
type Session struct {
	// Protocol is the protocol version, 2 or 3.
	//
	// default: 3.
	Protocol int
}

// NewSession returns a session.
func NewSession(s Session) *Session {
	if s.Protocol < 2 {
		s.Protocol = 4
	}
	return &s
}
