// Package store keeps objects in a bucket.
package store

import (
	"example.com/sdk/v2/aws"
	"example.com/sdk/v2/credentials"
	"example.com/sdk/v2/s3"
)

// Open returns a client of the bucket service.
func Open(region string) *s3.Client {
	cfg := aws.Config{Region: aws.String(region), Credentials: credentials.NewStaticCredentialsProvider("", "")}
	return s3.NewFromConfig(cfg)
}
