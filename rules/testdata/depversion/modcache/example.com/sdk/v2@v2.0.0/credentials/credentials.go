// Package credentials provides static credentials.
package credentials

// StaticCredentialsProvider returns fixed credentials.
type StaticCredentialsProvider struct{ id, secret string }

// Retrieve returns the key id.
func (p StaticCredentialsProvider) Retrieve() (string, error) { return p.id, nil }

// NewStaticCredentialsProvider returns a provider of id and secret.
func NewStaticCredentialsProvider(id, secret string) StaticCredentialsProvider {
	return StaticCredentialsProvider{id, secret}
}
