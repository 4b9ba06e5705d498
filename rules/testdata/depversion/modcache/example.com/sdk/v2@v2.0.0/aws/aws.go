// Package aws holds the SDK's configuration.
package aws

// CredentialsProvider supplies credentials.
type CredentialsProvider interface{ Retrieve() (string, error) }

// Config configures a client.
type Config struct {
	Region      *string
	Credentials CredentialsProvider
}

// String returns a pointer to s.
func String(s string) *string { return &s }
